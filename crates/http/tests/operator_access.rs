//! Who may do what through the operator API, and what it leaves on record: named operator tokens
//! (ADMIN and VIEWER, revocable), the audit log every change writes, the events export, the
//! evidence routes and published versions, all through the real router and PostgreSQL.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use std::collections::BTreeSet;

use actix_web::http::Method;
use actix_web::test::TestRequest;
use clickwrap_domain::content::hash::ContentHash;
use common::*;
use futures_util::StreamExt;
use serde_json::{Value, json};
use time::format_description::well_known::Rfc3339;

const OP: &str = "/operator/v1";
const UNKNOWN_ID: &str = "0190b7c4-2a1e-7cc3-9f00-5d1e2f3a4b5c";

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// A request with the operator's bearer token.
fn op(method: Method, path: &str, token: &str) -> TestRequest {
    TestRequest::default()
        .method(method)
        .uri(&format!("{OP}{path}"))
        .insert_header(("authorization", format!("Bearer {token}")))
}

/// The same with a JSON body.
fn op_json(method: Method, path: &str, token: &str, body: &Value) -> TestRequest {
    op(method, path, token).insert_header(("content-type", "application/json")).set_payload(body.to_string())
}

/// The same with any body and content type.
fn op_raw(method: Method, path: &str, token: &str, content_type: &str, payload: &'static str) -> TestRequest {
    op(method, path, token).insert_header(("content-type", content_type)).set_payload(payload)
}

/// A request with an optional JSON body.
fn op_body(method: Method, path: &str, token: &str, body: Option<&Value>) -> TestRequest {
    match body {
        Some(body) => op_json(method, path, token, body),
        None => op(method, path, token),
    }
}

fn id(value: &Value, key: &str) -> String {
    value[key].as_str().unwrap_or_else(|| panic!("no {key} in {value}")).to_owned()
}

fn items(value: &Value) -> Vec<Value> {
    value["items"].as_array().unwrap_or_else(|| panic!("no items in {value}")).clone()
}

fn is_millisecond_timestamp(value: &Value) -> bool {
    value.as_str().is_some_and(|t| {
        t.len() == 24
            && t.ends_with('Z')
            && t.as_bytes()[19] == b'.'
            && time::OffsetDateTime::parse(t, &Rfc3339).is_ok()
    })
}

fn encode(text: &str) -> String {
    form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

fn simple_template(name: &str) -> Value {
    json!({"name": name, "content": {"en": "<p>Terms for {{fullName}}</p>"}})
}

async fn create_app(h: &Harness, token: &str, body: &Value) -> Value {
    h.call(op_json(Method::POST, "/apps", token, body)).await.expect(201).json()
}

async fn create_template(h: &Harness, token: &str, body: &Value) -> Value {
    h.call(op_json(Method::POST, "/templates", token, body)).await.expect(201).json()
}

/// A new operator token: its id and its secret.
async fn create_token(h: &Harness, admin: &str, name: &str, role: &str) -> (String, String) {
    let created = h
        .call(op_json(Method::POST, "/operator-tokens", admin, &json!({"name": name, "role": role})))
        .await
        .expect(201);
    let created = created.json();
    (id(&created, "id"), id(&created, "token"))
}

async fn tokens(h: &Harness, token: &str) -> Vec<Value> {
    items(&h.call(op(Method::GET, "/operator-tokens", token)).await.expect(200).json())
}

/// The id of the tenant's only token (the one `tenant create` printed).
async fn only_token_id(h: &Harness, token: &str) -> String {
    let list = tokens(h, token).await;
    assert_eq!(list.len(), 1, "{list:?}");
    id(&list[0], "id")
}

/// What identifies a token in a list, without the dates (which using it changes).
fn token_identities(list: &[Value]) -> BTreeSet<(String, String, String)> {
    list.iter().map(|t| (id(t, "id"), id(t, "name"), id(t, "role"))).collect()
}

/// The whole audit log, page by page.
async fn audit_log(h: &Harness, token: &str) -> Vec<Value> {
    let mut entries = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let query = cursor.as_deref().map_or(String::new(), |c| format!("&nextPageCursor={}", encode(c)));
        let page = h.call(op(Method::GET, &format!("/audit-log?limit=100{query}"), token)).await.expect(200).json();
        entries.extend(items(&page));
        match page["nextPageCursor"].as_str() {
            Some(next) => cursor = Some(next.to_owned()),
            None => return entries,
        }
    }
}

/// Every event of the operator's events list matching `filter`, in list order.
async fn listed_events(h: &Harness, token: &str, filter: &str) -> Vec<Value> {
    let mut events = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let query = cursor.as_deref().map_or(String::new(), |c| format!("&nextPageCursor={}", encode(c)));
        let page =
            h.call(op(Method::GET, &format!("/events?limit=100{filter}{query}"), token)).await.expect(200).json();
        events.extend(items(&page));
        match page["nextPageCursor"].as_str() {
            Some(next) => cursor = Some(next.to_owned()),
            None => return events,
        }
    }
}

/// An end user's action, recorded and verified; the event's id.
async fn verified_event(h: &Harness, app: &Operator, template: &str, user: &str, action: &str) -> String {
    let recorded = act(h, app, template, user, action).await;
    verify(h, app, recorded["serviceSignature"].as_str().unwrap()).await.expect(200);
    id(&recorded, "clickwrapEventId")
}

/// What the SDK posts for an end user who was shown `view` (the answer of `GET /clickwrap`).
fn action_body(app: &Operator, template: &str, view: &Value, user: &str, action: &str) -> Value {
    json!({
        "appId": app.app_id,
        "clickwrapTemplateId": template,
        "clickwrapTemplateVersion": view["clickwrapTemplateVersion"],
        "clickwrapTemplateVersionMinor": view["clickwrapTemplateVersionMinor"],
        "endUserId": user,
        "action": action,
        "language": view["language"],
        "templatePlaceholders": null,
        "contentHash": view["contentHash"],
        "presentedAt": time::OffsetDateTime::now_utc().format(&Rfc3339).unwrap(),
        "presentation": {"mode": "DIALOG", "agreementMode": "SCROLL", "acceptLabel": "Accept", "checkboxLabel": null},
        "clientMetadata": {"screen": "1920x1080", "note": "a \"quoted\", listed value"},
    })
}

/// What the SDK shows an end user (any end user id, encoded for the URL).
async fn view(h: &Harness, app: &Operator, template: &str, user: &str) -> Value {
    let uri = format!("{V1}/clickwrap?appId={}&clickwrapTemplateId={template}&endUserId={}", app.app_id, encode(user));
    h.call(get(&uri)).await.expect(200).json()
}

/// An action on what `view` showed, recorded and verified; the event's id.
async fn verified_action(
    h: &Harness,
    app: &Operator,
    template: &str,
    view: &Value,
    user: &str,
    action: &str,
) -> String {
    let body = action_body(app, template, view, user, action);
    let recorded = h
        .call(post(&format!("{V1}/clickwrap"), &body).insert_header(("user-agent", "Mozilla/5.0 (X11; Linux x86_64)")))
        .await
        .expect(201)
        .json();
    verify(h, app, recorded["serviceSignature"].as_str().unwrap()).await.expect(200);
    id(&recorded, "clickwrapEventId")
}

/// Credentials of an app made through the API, usable with the common helpers.
fn as_operator(owner: &Operator, app: &Value) -> Operator {
    Operator {
        tenant_id: owner.tenant_id.clone(),
        token: owner.token.clone(),
        app_id: id(app, "appId"),
        app_key: id(app, "appKey"),
    }
}

async fn app_key_works(h: &Harness, app: &Operator) -> bool {
    h.call(get(&format!("{V1}/clickwrap-templates")).app(app)).await.status.is_success()
}

/// The first delivery of the app's webhook history.
async fn first_delivery(h: &Harness, token: &str, app_id: &str) -> String {
    let page = h.call(op(Method::GET, &format!("/apps/{app_id}/webhook-deliveries"), token)).await.expect(200).json();
    id(&page["items"][0], "deliveryId")
}

/// Every state-changing operator route with a body that an ADMIN would get accepted, in an order
/// in which an ADMIN can run them all (the token revocations last, the caller's own very last).
fn state_changes(
    app: &str,
    template: &str,
    delivery: &str,
    other_token: &str,
    own_token: &str,
) -> Vec<(Method, String, Option<Value>)> {
    vec![
        (Method::POST, "/apps".into(), Some(json!({"name": "X"}))),
        (Method::PATCH, format!("/apps/{app}"), Some(json!({"name": "Y"}))),
        (Method::POST, format!("/apps/{app}/app-key"), None),
        (Method::POST, format!("/apps/{app}/webhook-signing-secret"), None),
        (Method::POST, format!("/webhook-deliveries/{delivery}/redeliver"), Some(json!({}))),
        (Method::POST, "/templates".into(), Some(simple_template("T"))),
        (Method::PATCH, format!("/templates/{template}"), Some(json!({"name": "U"}))),
        (Method::PUT, format!("/templates/{template}/draft"), Some(json!({"content": {"en": "<p>x</p>"}}))),
        (Method::PUT, format!("/templates/{template}/customizations"), Some(json!({}))),
        (Method::PUT, format!("/templates/{template}/apps"), Some(json!({"appIds": []}))),
        (Method::POST, format!("/templates/{template}/versions"), Some(json!({"kind": "MINOR"}))),
        (Method::POST, format!("/templates/{template}/enable"), None),
        (Method::POST, format!("/templates/{template}/disable"), None),
        (Method::POST, "/operator-tokens".into(), Some(json!({"name": "Mine", "role": "ADMIN"}))),
        (Method::DELETE, format!("/operator-tokens/{other_token}"), None),
        (Method::DELETE, format!("/operator-tokens/{own_token}"), None),
    ]
}

/// Every read route of the operator API.
fn reads(app: &str, template: &str, event: &str) -> Vec<String> {
    vec![
        "/apps".into(),
        format!("/apps/{app}"),
        format!("/apps/{app}/webhook-deliveries"),
        "/templates".into(),
        format!("/templates/{template}"),
        format!("/templates/{template}/versions/1.0"),
        "/usage".into(),
        "/events".into(),
        format!("/events/{event}"),
        format!("/events/{event}/certificate"),
        format!("/events/{event}/agreement"),
        "/events/export?format=ndjson".into(),
        "/events/export?format=csv".into(),
        "/audit-log".into(),
        "/operator-tokens".into(),
    ]
}

/// The body of an NDJSON export: one JSON object per line, each line ended by `\n`.
fn ndjson(reply: &Reply) -> Vec<Value> {
    let text = std::str::from_utf8(&reply.body).unwrap();
    if text.is_empty() {
        return Vec::new();
    }
    assert!(text.ends_with('\n'), "every line ends with a newline: {text}");
    text.split_terminator('\n')
        .map(|line| {
            let value: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
            assert!(value.is_object(), "{line}");
            value
        })
        .collect()
}

async fn export(h: &Harness, token: &str, query: &str) -> Reply {
    h.call(op(Method::GET, &format!("/events/export?{query}"), token)).await
}

/// An RFC 4180 reader: quoted cells may hold `,`, `"` (doubled) and line breaks; rows end with CRLF.
fn parse_csv(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let mut row = Vec::new();
    let mut cell = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if quoted {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    cell.push('"');
                }
                '"' => {
                    quoted = false;
                    assert!(matches!(chars.peek(), None | Some(',' | '\r')), "text after a closing quote: {text}");
                }
                other => cell.push(other),
            }
            continue;
        }
        match c {
            '"' => {
                assert!(cell.is_empty(), "a quote inside an unquoted cell: {cell}");
                quoted = true;
            }
            ',' => row.push(std::mem::take(&mut cell)),
            '\r' => {
                assert_eq!(chars.next(), Some('\n'), "a row ends with CRLF");
                row.push(std::mem::take(&mut cell));
                rows.push(std::mem::take(&mut row));
            }
            '\n' => panic!("a line break outside quotes that is not part of CRLF"),
            other => cell.push(other),
        }
    }
    assert!(!quoted, "an unterminated quoted cell");
    assert!(row.is_empty() && cell.is_empty(), "the last row ends with CRLF");
    rows
}

/// Whether a CSV cell holds `value`: strings as they are (a spreadsheet formula defused with a
/// leading `'`), null as nothing, anything else as JSON.
fn csv_cell_holds(cell: &str, value: &Value) -> bool {
    match value {
        Value::Null => cell.is_empty(),
        Value::String(text) => {
            cell == text || (text.starts_with(['=', '+', '-', '@', '\t', '\r']) && cell == format!("'{text}"))
        }
        other => serde_json::from_str::<Value>(cell).is_ok_and(|parsed| &parsed == other),
    }
}

/// Asserts two JSON objects are equal, naming the first field that differs.
fn assert_same_fields(got: &Value, expected: &Value, context: &str) {
    let got_fields = got.as_object().unwrap_or_else(|| panic!("{context}: not an object: {got}"));
    let expected_fields = expected.as_object().unwrap_or_else(|| panic!("{context}: not an object: {expected}"));
    let got_keys: BTreeSet<&String> = got_fields.keys().collect();
    let expected_keys: BTreeSet<&String> = expected_fields.keys().collect();
    assert_eq!(got_keys, expected_keys, "{context}: the same fields");
    for (key, value) in expected_fields {
        assert_eq!(&got_fields[key], value, "{context}: field {key}");
    }
}

/// Every string anywhere inside a JSON value.
fn strings(value: &Value) -> Vec<&str> {
    match value {
        Value::String(text) => vec![text.as_str()],
        Value::Array(values) => values.iter().flat_map(strings).collect(),
        Value::Object(fields) => fields.values().flat_map(strings).collect(),
        _ => Vec::new(),
    }
}

// ---------------------------------------------------------------------------------------------
// Operator tokens
// ---------------------------------------------------------------------------------------------

#[actix_web::test]
async fn operator_tokens_are_shown_once_listed_without_secrets_and_work_as_bearers() {
    let h = harness().await;
    let a = operator(&h, None).await;
    let first_id = only_token_id(&h, &a.token).await;

    let reply = h
        .call(op_json(Method::POST, "/operator-tokens", &a.token, &json!({"name": "  CI deploy  ", "role": "ADMIN"})))
        .await
        .expect(201);
    assert_eq!(reply.header("cache-control"), Some("no-store"));
    let created = reply.json();
    let admin_id = id(&created, "id");
    assert!(uuid::Uuid::parse_str(&admin_id).is_ok(), "{created}");
    assert_eq!(reply.header("location"), Some(format!("{OP}/operator-tokens/{admin_id}").as_str()));
    let admin_secret = id(&created, "token");
    assert!(admin_secret.starts_with("ot_") && admin_secret != a.token, "{created}");
    assert_eq!(created["name"], "CI deploy");
    assert_eq!(created["role"], "ADMIN");
    assert!(is_millisecond_timestamp(&created["createdAt"]), "{created}");
    assert_eq!(created["lastUsedAt"], Value::Null);

    let viewer = h
        .call(op_json(Method::POST, "/operator-tokens", &a.token, &json!({"name": "Auditor", "role": "VIEWER"})))
        .await
        .expect(201)
        .json();
    let (viewer_id, viewer_secret) = (id(&viewer, "id"), id(&viewer, "token"));
    assert_eq!(viewer["role"], "VIEWER");
    assert!(viewer_secret.starts_with("ot_") && viewer_secret != admin_secret);
    assert_ne!(viewer_id, admin_id);

    // The list: every token with its id, name, role and dates, and never a secret.
    let reply = h.call(op(Method::GET, "/operator-tokens", &a.token)).await.expect(200);
    let body = String::from_utf8(reply.body.clone()).unwrap();
    for secret in [&a.token, &admin_secret, &viewer_secret] {
        assert!(!body.contains(secret.as_str()), "a secret is listed: {body}");
    }
    let list = items(&reply.json());
    assert_eq!(list.len(), 3, "{body}");
    for token in &list {
        let keys: BTreeSet<&str> = token.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, BTreeSet::from(["id", "name", "role", "createdAt", "lastUsedAt"]), "{token}");
        assert!(strings(token).iter().all(|s| !s.starts_with("ot_")), "{token}");
        assert!(is_millisecond_timestamp(&token["createdAt"]), "{token}");
    }
    let listed = |list: &[Value], token_id: &str| list.iter().find(|t| t["id"] == token_id).cloned().unwrap();
    let mut expected = created.clone();
    expected.as_object_mut().unwrap().remove("token");
    assert_eq!(listed(&list, &admin_id), expected);
    let first = listed(&list, &first_id);
    assert_eq!(first["role"], "ADMIN");
    assert!(is_millisecond_timestamp(&first["lastUsedAt"]), "the first token was used: {first}");
    assert_eq!(listed(&list, &viewer_id)["lastUsedAt"], Value::Null);

    // The new tokens are bearers of the same tenant; the ADMIN one may change things.
    let apps = h.call(op(Method::GET, "/apps", &a.token)).await.expect(200).json();
    assert_eq!(h.call(op(Method::GET, "/apps", &admin_secret)).await.expect(200).json(), apps);
    create_app(&h, &admin_secret, &json!({"name": "Made by CI"})).await;
    let list = tokens(&h, &a.token).await;
    let used = listed(&list, &admin_id);
    assert!(is_millisecond_timestamp(&used["lastUsedAt"]), "lastUsedAt is set once the token is used: {used}");
    assert!(used["lastUsedAt"].as_str() >= used["createdAt"].as_str(), "{used}");
    assert_eq!(listed(&list, &viewer_id)["lastUsedAt"], Value::Null, "the viewer has not been used yet");

    let apps = h.call(op(Method::GET, "/apps", &viewer_secret)).await.expect(200).json();
    assert_eq!(items(&apps).len(), 2);
    assert!(is_millisecond_timestamp(&listed(&tokens(&h, &viewer_secret).await, &viewer_id)["lastUsedAt"]));

    // Another tenant sees none of these tokens.
    let b = operator(&h, None).await;
    let theirs = tokens(&h, &b.token).await;
    assert_eq!(theirs.len(), 1);
    assert!(!theirs.iter().any(|t| [&first_id, &admin_id, &viewer_id].contains(&&id(t, "id"))));
}

#[actix_web::test]
async fn operator_token_bodies_are_validated_and_refusals_create_nothing() {
    let h = harness().await;
    let a = operator(&h, None).await;
    let audit_before = audit_log(&h, &a.token).await;
    for (body, field) in [
        (json!({"name": "", "role": "ADMIN"}), "name"),
        (json!({"name": "   ", "role": "VIEWER"}), "name"),
        (json!({"name": "a".repeat(201), "role": "ADMIN"}), "name"),
        (json!({"name": "X", "role": "OWNER"}), "role"),
        (json!({"name": "X", "role": "viewer"}), "role"),
        (json!({"name": "X", "role": ""}), "role"),
    ] {
        let problem =
            h.call(op_json(Method::POST, "/operator-tokens", &a.token, &body)).await.problem(400, "VALIDATION_FAILED");
        let fields: Vec<&str> =
            problem["errors"].as_array().unwrap().iter().map(|e| e["field"].as_str().unwrap()).collect();
        assert_eq!(fields, vec![field], "{body}: {problem}");
    }
    for body in [
        json!({"name": "X"}),
        json!({"role": "ADMIN"}),
        json!({"name": 5, "role": "ADMIN"}),
        json!({"name": "X", "role": "ADMIN", "token": "ot_chosen"}),
    ] {
        h.call(op_json(Method::POST, "/operator-tokens", &a.token, &body)).await.problem(400, "INVALID_JSON");
    }
    h.call(op_raw(Method::POST, "/operator-tokens", &a.token, "application/json", "{"))
        .await
        .problem(400, "INVALID_JSON");
    assert_eq!(tokens(&h, &a.token).await.len(), 1, "nothing was created");
    assert_eq!(audit_log(&h, &a.token).await, audit_before, "nothing was recorded");
}

#[actix_web::test]
async fn a_revoked_token_is_refused_everywhere_at_once() {
    let h = harness().await;
    let a = operator(&h, None).await;
    let t = template(&h, &a, "<p>Terms</p>").await;
    let event = verified_event(&h, &a, &t, "alice", "ACCEPTED").await;
    let delivery = first_delivery(&h, &a.token, &a.app_id).await;
    let first_id = only_token_id(&h, &a.token).await;
    let (victim_id, victim) = create_token(&h, &a.token, "Leaked", "ADMIN").await;
    h.call(op(Method::GET, "/apps", &victim)).await.expect(200);

    let reply = h.call(op(Method::DELETE, &format!("/operator-tokens/{victim_id}"), &a.token)).await.expect(204);
    assert!(reply.body.is_empty());
    for path in reads(&a.app_id, &t, &event) {
        h.call(op(Method::GET, &path, &victim)).await.problem(401, "UNAUTHORIZED");
    }
    for (method, path, body) in state_changes(&a.app_id, &t, &delivery, &first_id, &victim_id) {
        let reply = h.call(op_body(method.clone(), &path, &victim, body.as_ref())).await;
        assert_eq!(reply.status.as_u16(), 401, "{method} {path}");
        reply.problem(401, "UNAUTHORIZED");
    }
    assert!(!tokens(&h, &a.token).await.iter().any(|t| t["id"] == victim_id.as_str()), "no longer listed");
    assert!(app_key_works(&h, &a).await, "the revoked token changed nothing");

    h.call(op(Method::DELETE, &format!("/operator-tokens/{victim_id}"), &a.token))
        .await
        .problem(404, "OPERATOR_TOKEN_NOT_FOUND");
    h.call(op(Method::DELETE, &format!("/operator-tokens/{UNKNOWN_ID}"), &a.token))
        .await
        .problem(404, "OPERATOR_TOKEN_NOT_FOUND");
    let problem =
        h.call(op(Method::DELETE, "/operator-tokens/not-a-uuid", &a.token)).await.problem(400, "VALIDATION_FAILED");
    assert_eq!(problem["errors"][0]["field"], "operatorTokenId");

    // Another tenant's ADMIN cannot revoke A's tokens, nor learn that they exist.
    let b = operator(&h, None).await;
    let (viewer_id, viewer) = create_token(&h, &a.token, "Viewer", "VIEWER").await;
    for target in [&first_id, &viewer_id] {
        h.call(op(Method::DELETE, &format!("/operator-tokens/{target}"), &b.token))
            .await
            .problem(404, "OPERATOR_TOKEN_NOT_FOUND");
    }
    h.call(op(Method::GET, "/apps", &a.token)).await.expect(200);
    h.call(op(Method::GET, "/apps", &viewer)).await.expect(200);
    assert_eq!(tokens(&h, &a.token).await.len(), 2);

    // A token may revoke itself; it stops working with that very request.
    let (own_id, own) = create_token(&h, &a.token, "Short-lived", "ADMIN").await;
    h.call(op(Method::DELETE, &format!("/operator-tokens/{own_id}"), &own)).await.expect(204);
    h.call(op(Method::GET, "/apps", &own)).await.problem(401, "UNAUTHORIZED");
    h.call(op(Method::DELETE, &format!("/operator-tokens/{own_id}"), &a.token))
        .await
        .problem(404, "OPERATOR_TOKEN_NOT_FOUND");
    h.call(op(Method::GET, "/apps", &a.token)).await.expect(200);
}

// ---------------------------------------------------------------------------------------------
// VIEWER tokens
// ---------------------------------------------------------------------------------------------

/// Everything an operator can read, to show that refused requests changed nothing.
async fn snapshot(h: &Harness, token: &str, app: &str, template: &str) -> Vec<Value> {
    let mut seen = Vec::new();
    for path in ["/apps".to_owned(), "/templates".into(), format!("/templates/{template}"), "/usage".into()] {
        seen.push(h.call(op(Method::GET, &path, token)).await.expect(200).json());
    }
    seen.push(h.call(op(Method::GET, &format!("/apps/{app}/webhook-deliveries"), token)).await.expect(200).json());
    seen.push(Value::Array(audit_log(h, token).await));
    let identities = token_identities(&tokens(h, token).await);
    seen.push(json!(identities.into_iter().collect::<Vec<_>>()));
    seen
}

#[actix_web::test]
async fn a_viewer_reads_every_route_an_admin_reads() {
    let h = harness().await;
    let a = operator(&h, None).await;
    let t = template(&h, &a, "<p>Terms</p>").await;
    let event = verified_event(&h, &a, &t, "alice", "ACCEPTED").await;
    let (_, viewer) = create_token(&h, &a.token, "Auditor", "VIEWER").await;
    for path in reads(&a.app_id, &t, &event) {
        let seen = h.call(op(Method::GET, &path, &viewer)).await;
        assert_eq!(seen.status.as_u16(), 200, "{path}: {}", String::from_utf8_lossy(&seen.body));
        let admin = h.call(op(Method::GET, &path, &a.token)).await.expect(200);
        assert_eq!(seen.header("content-type"), admin.header("content-type"), "{path}");
        if path == "/operator-tokens" {
            assert_eq!(token_identities(&items(&seen.json())), token_identities(&items(&admin.json())));
        } else {
            assert_eq!(seen.body, admin.body, "{path}: the viewer sees what an admin sees");
        }
    }
}

#[actix_web::test]
async fn a_viewer_is_refused_every_change_before_its_body_is_read_and_changes_nothing() {
    let h = harness().await;
    let a = operator(&h, None).await;
    let t = template(&h, &a, "<p>Terms</p>").await;
    verified_event(&h, &a, &t, "alice", "ACCEPTED").await;
    let delivery = first_delivery(&h, &a.token, &a.app_id).await;
    let first_id = only_token_id(&h, &a.token).await;
    let (viewer_id, viewer) = create_token(&h, &a.token, "Auditor", "VIEWER").await;
    let before = snapshot(&h, &a.token, &a.app_id, &t).await;

    let routes = state_changes(&a.app_id, &t, &delivery, &first_id, &viewer_id);
    for (method, path, body) in &routes {
        let what = format!("{method} {path}");
        let problem =
            h.call(op_body(method.clone(), path, &viewer, body.as_ref())).await.problem(403, "FORBIDDEN_ROLE");
        assert!(!problem["detail"].as_str().unwrap().is_empty(), "{what}");
        // The role is checked before the body is looked at.
        h.call(op_raw(method.clone(), path, &viewer, "application/json", "{not json"))
            .await
            .problem(403, "FORBIDDEN_ROLE");
        h.call(op_raw(method.clone(), path, &viewer, "text/plain", "hello")).await.problem(403, "FORBIDDEN_ROLE");
        h.call(op_json(method.clone(), path, &viewer, &json!({"unexpected": [1, 2, 3]})))
            .await
            .problem(403, "FORBIDDEN_ROLE");
    }

    assert!(app_key_works(&h, &a).await, "the App Key was not regenerated");
    assert_eq!(snapshot(&h, &a.token, &a.app_id, &t).await, before, "the viewer changed nothing");
    h.call(op(Method::GET, "/apps", &viewer)).await.expect(200);

    // The same requests from an ADMIN token are all accepted: the refusals were about the role.
    for (method, path, body) in state_changes(&a.app_id, &t, &delivery, &viewer_id, &first_id) {
        let reply = h.call(op_body(method.clone(), &path, &a.token, body.as_ref())).await;
        assert!(
            reply.status.is_success(),
            "{method} {path}: {} {}",
            reply.status,
            String::from_utf8_lossy(&reply.body)
        );
    }
    h.call(op(Method::GET, "/apps", &viewer)).await.problem(401, "UNAUTHORIZED");
    h.call(op(Method::GET, "/apps", &a.token)).await.problem(401, "UNAUTHORIZED");
}

// ---------------------------------------------------------------------------------------------
// The audit log
// ---------------------------------------------------------------------------------------------

/// Asserts the audit log gained exactly one entry, newest first, for this change; the new log.
async fn one_more_entry(
    h: &Harness,
    token: &str,
    before: &[Value],
    change: (&str, &str, &str),
    actor: &str,
) -> Vec<Value> {
    let (action, subject_type, subject_id) = change;
    let after = audit_log(h, token).await;
    assert_eq!(after.len(), before.len() + 1, "{action}: exactly one new entry: {after:#?}");
    assert_eq!(&after[1..], before, "{action}: the new entry comes first and the others are unchanged");
    let entry = &after[0];
    assert_eq!(entry["action"], action, "{entry}");
    assert_eq!(entry["subjectType"], subject_type, "{entry}");
    assert_eq!(entry["subjectId"], subject_id, "{entry}");
    assert_eq!(entry["operatorTokenId"], actor, "{entry}");
    assert!(is_millisecond_timestamp(&entry["at"]), "{entry}");
    assert!(entry["details"].is_object(), "{entry}");
    if let Some(previous) = before.first() {
        assert!(entry["at"].as_str() >= previous["at"].as_str(), "newest first: {entry} {previous}");
    }
    after
}

#[actix_web::test]
async fn every_admin_change_writes_exactly_one_audit_entry_without_secrets() {
    let h = harness().await;
    let a = operator(&h, None).await;
    let t = template(&h, &a, "<p>Terms</p>").await;
    verified_event(&h, &a, &t, "alice", "ACCEPTED").await;
    let delivery = first_delivery(&h, &a.token, &a.app_id).await;
    let first_id = only_token_id(&h, &a.token).await;
    let (admin_id, admin) = create_token(&h, &a.token, "Release bot", "ADMIN").await;
    let mut secrets = vec![a.token.clone(), a.app_key.clone(), admin.clone()];
    let mut log = audit_log(&h, &a.token).await;
    assert_eq!(log[0]["action"], "operatorToken.created");
    assert_eq!(log[0]["subjectId"], admin_id.as_str());
    assert_eq!(log[0]["operatorTokenId"], first_id.as_str());

    let app = create_app(
        &h,
        &admin,
        &json!({"name": "Web", "webhookUrl": "https://hooks.example.com/web", "allowedOrigins": ["https://web.example"]}),
    )
    .await;
    let app_id = id(&app, "appId");
    secrets.extend([id(&app, "appKey"), id(&app, "webhookSigningSecret")]);
    log = one_more_entry(&h, &a.token, &log, ("app.created", "app", &app_id), &admin_id).await;

    h.call(op_json(Method::PATCH, &format!("/apps/{app_id}"), &admin, &json!({"name": "Web 2"}))).await.expect(200);
    log = one_more_entry(&h, &a.token, &log, ("app.updated", "app", &app_id), &admin_id).await;

    let key = h.call(op(Method::POST, &format!("/apps/{app_id}/app-key"), &admin)).await.expect(200).json();
    secrets.push(id(&key, "appKey"));
    log = one_more_entry(&h, &a.token, &log, ("app.appKeyRegenerated", "app", &app_id), &admin_id).await;

    let rotated =
        h.call(op(Method::POST, &format!("/apps/{app_id}/webhook-signing-secret"), &admin)).await.expect(200).json();
    secrets.push(id(&rotated, "webhookSigningSecret"));
    log = one_more_entry(&h, &a.token, &log, ("app.webhookSigningSecretRotated", "app", &app_id), &admin_id).await;

    let created = create_template(&h, &admin, &simple_template("Privacy")).await;
    let tid = id(&created, "clickwrapTemplateId");
    log = one_more_entry(&h, &a.token, &log, ("template.created", "template", &tid), &admin_id).await;

    let template_changes = [
        (Method::PATCH, "", Some(json!({"name": "Privacy Policy"})), "template.updated"),
        (Method::PUT, "/draft", Some(json!({"content": {"en": "<p>Hello {{fullName}}</p>"}})), "template.draftSaved"),
        (Method::PUT, "/customizations", Some(json!({"agreementMode": "CHECKBOX"})), "template.customizationsSet"),
        (Method::PUT, "/apps", Some(json!({"appIds": [app_id]})), "template.appsSet"),
        (Method::POST, "/versions", Some(json!({"kind": "MAJOR"})), "template.versionPublished"),
        (Method::POST, "/enable", None, "template.enabled"),
        (Method::POST, "/disable", None, "template.disabled"),
    ];
    for (method, suffix, body, action) in template_changes {
        let path = format!("/templates/{tid}{suffix}");
        let reply = h.call(op_body(method.clone(), &path, &admin, body.as_ref())).await;
        assert!(reply.status.is_success(), "{method} {path}: {}", String::from_utf8_lossy(&reply.body));
        log = one_more_entry(&h, &a.token, &log, (action, "template", &tid), &admin_id).await;
    }

    h.call(op_json(Method::POST, &format!("/webhook-deliveries/{delivery}/redeliver"), &admin, &json!({})))
        .await
        .expect(202);
    log = one_more_entry(&h, &a.token, &log, ("webhookDelivery.redelivered", "webhookDelivery", &delivery), &admin_id)
        .await;

    let (viewer_id, viewer) = create_token(&h, &admin, "Auditor", "VIEWER").await;
    secrets.push(viewer);
    log = one_more_entry(&h, &a.token, &log, ("operatorToken.created", "operatorToken", &viewer_id), &admin_id).await;

    h.call(op(Method::DELETE, &format!("/operator-tokens/{viewer_id}"), &admin)).await.expect(204);
    log = one_more_entry(&h, &a.token, &log, ("operatorToken.revoked", "operatorToken", &viewer_id), &admin_id).await;

    // The first token's changes are its own.
    h.call(op(Method::POST, &format!("/apps/{app_id}/app-key"), &a.token)).await.expect(200);
    log = one_more_entry(&h, &a.token, &log, ("app.appKeyRegenerated", "app", &app_id), &first_id).await;

    // Reads write nothing.
    for path in ["/apps", "/templates", "/usage", "/events", "/operator-tokens", "/audit-log"] {
        h.call(op(Method::GET, path, &admin)).await.expect(200);
    }
    assert_eq!(audit_log(&h, &a.token).await, log);

    // No entry holds a secret: no App Key, signing secret or operator token, whole or by prefix.
    for entry in &log {
        let text = entry.to_string();
        for secret in &secrets {
            assert!(!text.contains(secret.as_str()), "a secret in the audit log: {entry}");
        }
        let details = entry["details"].as_object().unwrap();
        for value in details.values() {
            let value = value.as_str().unwrap_or_else(|| panic!("details are strings: {entry}"));
            assert!(!["ak_", "whsec_", "ot_"].iter().any(|p| value.starts_with(p)), "{entry}");
        }
        let keys: BTreeSet<&str> = entry.as_object().unwrap().keys().map(String::as_str).collect();
        for key in ["at", "operatorTokenId", "action", "subjectType", "subjectId", "details"] {
            assert!(keys.contains(key), "{key} in {entry}");
        }
    }
    let ids: BTreeSet<String> = log.iter().map(|e| id(e, "id")).collect();
    assert_eq!(ids.len(), log.len(), "every entry has an id of its own");
}

#[actix_web::test]
async fn the_audit_log_pages_newest_first_and_is_scoped_to_the_tenant() {
    let h = harness().await;
    let a = operator(&h, None).await;
    let b = operator(&h, None).await;
    for i in 0..9 {
        create_app(&h, &a.token, &json!({"name": format!("App {i}")})).await;
    }
    let all = audit_log(&h, &a.token).await;
    assert!(all.len() >= 10, "{all:?}");
    for pair in all.windows(2) {
        assert!(pair[0]["at"].as_str() >= pair[1]["at"].as_str(), "newest first: {pair:?}");
    }
    let names: Vec<String> = all.iter().filter_map(|e| e["details"]["name"].as_str().map(str::to_owned)).collect();
    let made_here: Vec<String> = names.iter().filter(|n| n.starts_with("App ")).cloned().collect();
    let expected: Vec<String> = (0..9).rev().map(|i| format!("App {i}")).collect();
    assert_eq!(made_here, expected, "the latest change first");

    // A page at a time, the same entries in the same order.
    let mut paged = Vec::new();
    let mut cursor: Option<String> = None;
    let mut pages = 0;
    loop {
        let query = cursor.as_deref().map_or(String::new(), |c| format!("&nextPageCursor={}", encode(c)));
        let page = h.call(op(Method::GET, &format!("/audit-log?limit=4{query}"), &a.token)).await.expect(200).json();
        let page_items = items(&page);
        assert!(!page_items.is_empty() && page_items.len() <= 4, "{page}");
        paged.extend(page_items);
        pages += 1;
        match page["nextPageCursor"].as_str() {
            Some(next) => {
                assert_eq!(page["items"].as_array().unwrap().len(), 4, "only the last page is short");
                cursor = Some(next.to_owned());
            }
            None => break,
        }
    }
    assert_eq!(paged, all);
    assert_eq!(pages, all.len().div_ceil(4));
    let default_page = h.call(op(Method::GET, "/audit-log", &a.token)).await.expect(200).json();
    assert_eq!(items(&default_page), all.iter().take(20).cloned().collect::<Vec<_>>());

    // Cursors: garbage, empty, another list's, another tenant's.
    let first = h.call(op(Method::GET, "/audit-log?limit=2", &a.token)).await.expect(200).json();
    let cursor = encode(first["nextPageCursor"].as_str().unwrap());
    h.call(op(Method::GET, &format!("/audit-log?limit=2&nextPageCursor={cursor}"), &b.token))
        .await
        .problem(400, "INVALID_CURSOR");
    for bad in ["garbage", "", "eyJ4IjoxfQ", &cursor[..cursor.len() - 2]] {
        h.call(op(Method::GET, &format!("/audit-log?nextPageCursor={bad}"), &a.token))
            .await
            .problem(400, "INVALID_CURSOR");
    }
    let t = template(&h, &a, "<p>Terms</p>").await;
    for user in ["u1", "u2"] {
        verified_event(&h, &a, &t, user, "ACCEPTED").await;
    }
    let events = h.call(op(Method::GET, "/events?limit=1", &a.token)).await.expect(200).json();
    let events_cursor = encode(events["nextPageCursor"].as_str().unwrap());
    h.call(op(Method::GET, &format!("/audit-log?nextPageCursor={events_cursor}"), &a.token))
        .await
        .problem(400, "INVALID_CURSOR");
    for bad in ["limit=0", "limit=101", "limit=x"] {
        h.call(op(Method::GET, &format!("/audit-log?{bad}"), &a.token)).await.problem(400, "VALIDATION_FAILED");
    }

    // B's log holds none of A's entries, and A's none of B's.
    let a_log = audit_log(&h, &a.token).await;
    let b_log = audit_log(&h, &b.token).await;
    assert!(!b_log.is_empty());
    let a_ids: BTreeSet<String> = a_log.iter().map(|e| id(e, "id")).collect();
    let a_subjects: BTreeSet<String> = a_log.iter().map(|e| id(e, "subjectId")).collect();
    for entry in &b_log {
        assert!(!a_ids.contains(&id(entry, "id")) && !a_subjects.contains(&id(entry, "subjectId")), "{entry}");
        assert_ne!(entry["subjectId"], a.app_id.as_str());
    }
    assert!(a_log.iter().all(|e| e["subjectId"] != b.app_id.as_str()));
}

#[actix_web::test]
async fn a_change_that_fails_writes_no_audit_entry() {
    let h = harness().await;
    let a = operator(&h, None).await;
    let b = operator(&h, None).await;
    let draft = create_template(
        &h,
        &a.token,
        &json!({"name": "Odd", "content": {"en": "<p>{{fullName}} likes {{favouriteColour}}</p>"}}),
    )
    .await;
    let draft_id = id(&draft, "clickwrapTemplateId");
    let a_before = audit_log(&h, &a.token).await;
    let b_before = audit_log(&h, &b.token).await;

    let failures: Vec<(TestRequest, u16, &str)> = vec![
        (op_json(Method::PATCH, &format!("/apps/{UNKNOWN_ID}"), &a.token, &json!({"name": "X"})), 404, "APP_NOT_FOUND"),
        (
            op_json(Method::POST, &format!("/templates/{draft_id}/versions"), &a.token, &json!({"kind": "MAJOR"})),
            400,
            "UNKNOWN_PLACEHOLDER",
        ),
        (op(Method::POST, &format!("/templates/{draft_id}/enable"), &a.token), 400, "NO_VERSION"),
        (op_json(Method::POST, "/apps", &a.token, &json!({"name": ""})), 400, "VALIDATION_FAILED"),
        (
            op_json(Method::POST, "/apps", &a.token, &json!({"name": "X", "webhookUrl": "https://127.0.0.1/x"})),
            400,
            "WEBHOOK_URL_REJECTED",
        ),
        (
            op_json(Method::PUT, &format!("/templates/{draft_id}/apps"), &a.token, &json!({"appIds": [b.app_id]})),
            400,
            "VALIDATION_FAILED",
        ),
        (
            op_json(
                Method::PUT,
                &format!("/templates/{draft_id}/draft"),
                &a.token,
                &json!({"content": {"xx": "<p/>"}}),
            ),
            400,
            "VALIDATION_FAILED",
        ),
        (op(Method::POST, &format!("/templates/{UNKNOWN_ID}/disable"), &a.token), 404, "TEMPLATE_NOT_FOUND"),
        (op(Method::DELETE, &format!("/operator-tokens/{UNKNOWN_ID}"), &a.token), 404, "OPERATOR_TOKEN_NOT_FOUND"),
        (
            op_json(Method::POST, "/operator-tokens", &a.token, &json!({"name": "X", "role": "ROOT"})),
            400,
            "VALIDATION_FAILED",
        ),
        (
            op_json(Method::POST, &format!("/webhook-deliveries/{UNKNOWN_ID}/redeliver"), &a.token, &json!({})),
            404,
            "DELIVERY_NOT_FOUND",
        ),
        // Another tenant's app and template.
        (op(Method::POST, &format!("/apps/{}/app-key", a.app_id), &b.token), 404, "APP_NOT_FOUND"),
        (
            op_json(Method::PATCH, &format!("/templates/{draft_id}"), &b.token, &json!({"name": "Mine"})),
            404,
            "TEMPLATE_NOT_FOUND",
        ),
    ];
    for (request, status, code) in failures {
        h.call(request).await.problem(status, code);
    }
    assert_eq!(audit_log(&h, &a.token).await, a_before, "A's log");
    assert_eq!(audit_log(&h, &b.token).await, b_before, "B's log");
    let shown = h.call(op(Method::GET, &format!("/templates/{draft_id}"), &a.token)).await.expect(200).json();
    assert_eq!(shown["versions"], json!([]));
    assert!(app_key_works(&h, &a).await);
}

// ---------------------------------------------------------------------------------------------
// The events export
// ---------------------------------------------------------------------------------------------

#[actix_web::test]
async fn the_ndjson_export_is_the_details_of_every_matching_event_newest_first() {
    let h = harness().await;
    let a = operator(&h, None).await;
    let b = operator(&h, None).await;
    let t = template(&h, &a, "<p>Terms, \"quoted\", &amp; more</p>\n<p>{{fullName}}</p>").await;
    let second = as_operator(&a, &create_app(&h, &a.token, &json!({"name": "Second"})).await);
    let mut made = Vec::new();
    for (app, user, action) in [
        (&a, "alice", "ACCEPTED"),
        (&second, "bob", "DECLINED"),
        (&a, "carol", "ACCEPTED"),
        (&a, "alice", "DECLINED"),
        (&second, "dave", "ACCEPTED"),
    ] {
        made.push(verified_event(&h, app, &t, user, action).await);
    }
    let unverified = id(&act(&h, &a, &t, "erin", "ACCEPTED").await, "clickwrapEventId");
    let bt = template(&h, &b, "<p>B</p>").await;
    let theirs = verified_event(&h, &b, &bt, "alice", "ACCEPTED").await;

    let reply = export(&h, &a.token, "format=ndjson").await.expect(200);
    assert!(reply.header("content-type").unwrap().starts_with("application/x-ndjson"), "{:?}", reply.headers);
    assert!(reply.header("content-disposition").unwrap().starts_with("attachment"));
    assert!(reply.header("cache-control").unwrap().contains("no-store"));
    let lines = ndjson(&reply);
    assert_eq!(lines.len(), made.len(), "every verified event of the tenant, and only those");
    let exported: Vec<String> = lines.iter().map(|l| id(l, "clickwrapEventId")).collect();
    assert_eq!(exported.iter().cloned().collect::<BTreeSet<_>>(), made.iter().cloned().collect::<BTreeSet<_>>());
    assert!(!exported.contains(&unverified) && !exported.contains(&theirs));

    // Newest first: the events list's order, by action time.
    let listed: Vec<String> = listed_events(&h, &a.token, "").await.iter().map(|e| id(e, "clickwrapEventId")).collect();
    assert_eq!(exported, listed);
    let mut newest_first = made.clone();
    newest_first.reverse();
    assert_eq!(exported, newest_first, "the events were made one after another");
    for pair in lines.windows(2) {
        assert!(pair[0]["actionAt"].as_str() >= pair[1]["actionAt"].as_str());
    }

    // Each line is exactly the event's details answer.
    for line in &lines {
        let event = id(line, "clickwrapEventId");
        let details = h.call(op(Method::GET, &format!("/events/{event}"), &a.token)).await.expect(200).json();
        assert_same_fields(line, &details, &event);
    }
    // Without a format, NDJSON.
    assert_eq!(export(&h, &a.token, "").await.expect(200).body, reply.body);

    // The events list's filters.
    let status_of = |line: &Value| line["clickwrapEventStatus"].as_str().unwrap().to_owned();
    for (query, keep) in [
        (
            "clickwrapEventStatus=DECLINED",
            Box::new(|l: &Value| status_of(l) == "DECLINED") as Box<dyn Fn(&Value) -> bool>,
        ),
        ("clickwrapEventStatus=ACCEPTED", Box::new(|l: &Value| status_of(l) == "ACCEPTED")),
        ("endUserId=alice", Box::new(|l: &Value| l["endUserId"] == "alice")),
        (
            "endUserId=alice&clickwrapEventStatus=ACCEPTED",
            Box::new(|l: &Value| l["endUserId"] == "alice" && status_of(l) == "ACCEPTED"),
        ),
        ("endUserId=nobody", Box::new(|_: &Value| false)),
        (&format!("clickwrapTemplateId={t}"), Box::new(|_: &Value| true)),
        (&format!("clickwrapTemplateId={bt}"), Box::new(|_: &Value| false)),
    ] {
        let filtered = ndjson(&export(&h, &a.token, &format!("format=ndjson&{query}")).await.expect(200));
        let expected: Vec<Value> = lines.iter().filter(|l| keep(l)).cloned().collect();
        assert_eq!(filtered, expected, "{query}");
        let listed = listed_events(&h, &a.token, &format!("&{query}")).await;
        let listed: Vec<String> = listed.iter().map(|e| id(e, "clickwrapEventId")).collect();
        let filtered: Vec<String> = filtered.iter().map(|e| id(e, "clickwrapEventId")).collect();
        assert_eq!(filtered, listed, "{query}: the same events as the list");
    }
    // A time window, with timestamps read back from the export itself.
    let middle = lines[2]["actionAt"].as_str().unwrap();
    let newest = lines[0]["actionAt"].as_str().unwrap();
    for (query, keep) in [
        (
            format!("from={}", encode(middle)),
            Box::new(|l: &Value| l["actionAt"].as_str() >= Some(middle)) as Box<dyn Fn(&Value) -> bool>,
        ),
        (format!("to={}", encode(middle)), Box::new(|l: &Value| l["actionAt"].as_str() <= Some(middle))),
        (
            format!("from={}&to={}", encode(middle), encode(middle)),
            Box::new(|l: &Value| l["actionAt"].as_str() == Some(middle)),
        ),
        (
            format!("from={}&to={}", encode(middle), encode(newest)),
            Box::new(|l: &Value| l["actionAt"].as_str() >= Some(middle)),
        ),
    ] {
        let filtered = ndjson(&export(&h, &a.token, &format!("format=ndjson&{query}")).await.expect(200));
        let expected: Vec<Value> = lines.iter().filter(|l| keep(l)).cloned().collect();
        assert!(!expected.is_empty(), "{query}");
        assert_eq!(filtered, expected, "{query}");
    }

    // B's export is B's; a tenant without events exports nothing.
    let b_lines = ndjson(&export(&h, &b.token, "format=ndjson").await.expect(200));
    assert_eq!(b_lines.iter().map(|l| id(l, "clickwrapEventId")).collect::<Vec<_>>(), vec![theirs]);
    let c = operator(&h, None).await;
    assert!(export(&h, &c.token, "format=ndjson").await.expect(200).body.is_empty());
}

#[actix_web::test]
async fn the_export_streams_every_event_past_one_batch() {
    const EVENTS: usize = 520;
    let h = harness().await;
    let a = operator(&h, None).await;
    let t = template(&h, &a, "<p>Terms</p>").await;
    let shown = view(&h, &a, &t, "anyone").await;
    let declined = |i: usize| i.is_multiple_of(5);
    // Every end user is shown the same content: what the SDK posts needs no fetch of its own. Eight
    // at a time, so that many events share an action time (the export's keyset must break ties).
    let made: Vec<String> = futures_util::stream::iter(0..EVENTS)
        .map(|i| {
            let (h, a, t, shown) = (&h, &a, &t, &shown);
            async move {
                let action = if declined(i) { "DECLINED" } else { "ACCEPTED" };
                verified_action(h, a, t, shown, &format!("user-{i:04}"), action).await
            }
        })
        .buffer_unordered(8)
        .collect()
        .await;
    assert_eq!(made.len(), EVENTS);

    let reply = export(&h, &a.token, "format=ndjson").await.expect(200);
    let lines = ndjson(&reply);
    assert_eq!(lines.len(), EVENTS, "every event, past the first batch");
    let exported: Vec<String> = lines.iter().map(|l| id(l, "clickwrapEventId")).collect();
    let unique: BTreeSet<&String> = exported.iter().collect();
    assert_eq!(unique.len(), EVENTS, "no event twice");
    let made_ids: BTreeSet<&String> = made.iter().collect();
    assert_eq!(unique, made_ids, "exactly the events made");
    for pair in lines.windows(2) {
        let (newer, older) = (&pair[0], &pair[1]);
        assert!(newer["actionAt"].as_str() >= older["actionAt"].as_str(), "newest first: {newer} {older}");
    }
    let listed: Vec<String> = listed_events(&h, &a.token, "").await.iter().map(|e| id(e, "clickwrapEventId")).collect();
    assert_eq!(exported, listed, "the order of the events list, across the batch boundary");

    // Field by field, every line, on both sides of the batch boundary.
    for (index, line) in lines.iter().enumerate() {
        let event = id(line, "clickwrapEventId");
        let details = h.call(op(Method::GET, &format!("/events/{event}"), &a.token)).await.expect(200).json();
        assert_same_fields(line, &details, &format!("line {index}"));
    }

    let declined_count = (0..EVENTS).filter(|i| declined(*i)).count();
    let only_declined = ndjson(&export(&h, &a.token, "format=ndjson&clickwrapEventStatus=DECLINED").await.expect(200));
    assert_eq!(only_declined.len(), declined_count);
    let expected: Vec<Value> = lines.iter().filter(|l| l["clickwrapEventStatus"] == "DECLINED").cloned().collect();
    assert_eq!(only_declined, expected);

    let csv = export(&h, &a.token, "format=csv").await.expect(200);
    let rows = parse_csv(std::str::from_utf8(&csv.body).unwrap());
    assert_eq!(rows.len(), EVENTS + 1, "a header and a row per event");
    let column = rows[0].iter().position(|c| c == "clickwrapEventId").unwrap();
    let csv_ids: Vec<String> = rows[1..].iter().map(|r| r[column].clone()).collect();
    assert_eq!(csv_ids, exported);
}

#[actix_web::test]
async fn the_csv_export_has_a_header_and_one_quoted_row_per_event() {
    let h = harness().await;
    let a = operator(&h, None).await;
    let t = template(&h, &a, "<p>Terms, \"quoted\" and\nbroken over lines</p>").await;
    for (user, action) in [("alice", "ACCEPTED"), ("bob, \"the\" builder", "DECLINED"), ("=1+1", "ACCEPTED")] {
        let shown = view(&h, &a, &t, user).await;
        verified_action(&h, &a, &t, &shown, user, action).await;
    }
    let lines = ndjson(&export(&h, &a.token, "format=ndjson").await.expect(200));
    assert_eq!(lines.len(), 3);

    let reply = export(&h, &a.token, "format=csv").await.expect(200);
    assert!(reply.header("content-type").unwrap().starts_with("text/csv"), "{:?}", reply.headers);
    assert!(reply.header("content-disposition").unwrap().starts_with("attachment"));
    let text = std::str::from_utf8(&reply.body).unwrap();
    let rows = parse_csv(text);
    assert_eq!(rows.len(), lines.len() + 1, "{text}");
    let header = &rows[0];
    let details_fields: BTreeSet<&str> = lines[0].as_object().unwrap().keys().map(String::as_str).collect();
    let columns: BTreeSet<&str> = header.iter().map(String::as_str).collect();
    assert_eq!(columns, details_fields, "a column for every details field");
    assert_eq!(columns.len(), header.len(), "no column twice");
    for (row, line) in rows[1..].iter().zip(&lines) {
        assert_eq!(row.len(), header.len(), "{row:?}");
        for (cell, column) in row.iter().zip(header) {
            assert!(csv_cell_holds(cell, &line[column]), "{column}: cell {cell:?} for {}", line[column]);
        }
    }
    // The quoting was put to the test: cells with commas, quotes and line breaks.
    let cells: Vec<&String> = rows[1..].iter().flatten().collect();
    assert!(cells.iter().any(|c| c.contains(',') && c.contains('"')));
    assert!(cells.iter().any(|c| c.contains('\n')));

    let filtered = parse_csv(
        std::str::from_utf8(&export(&h, &a.token, "format=csv&clickwrapEventStatus=DECLINED").await.expect(200).body)
            .unwrap(),
    );
    assert_eq!(filtered.len(), 2);
    assert_eq!(&filtered[0], header);
    let status = header.iter().position(|c| c == "clickwrapEventStatus").unwrap();
    assert_eq!(filtered[1][status], "DECLINED");

    let c = operator(&h, None).await;
    let empty = parse_csv(std::str::from_utf8(&export(&h, &c.token, "format=csv").await.expect(200).body).unwrap());
    assert_eq!(empty, vec![header.clone()], "only the header");
}

#[actix_web::test]
async fn export_parameters_are_checked_before_anything_is_streamed() {
    let h = harness().await;
    let a = operator(&h, None).await;
    let (_, viewer) = create_token(&h, &a.token, "Auditor", "VIEWER").await;
    for format in ["xml", "json", "pdf"] {
        let problem = export(&h, &a.token, &format!("format={format}")).await.problem(400, "VALIDATION_FAILED");
        assert_eq!(problem["errors"][0]["field"], "format", "{format}");
    }
    export(&h, &a.token, "format=csv&format=ndjson").await.problem(400, "VALIDATION_FAILED");
    let problem = export(&h, &a.token, "format=ndjson&from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z")
        .await
        .problem(400, "INVALID_RANGE");
    assert!(problem["errors"].as_array().is_some_and(|e| !e.is_empty()), "{problem}");
    for (query, field) in [
        ("clickwrapEventStatus=MAYBE", "clickwrapEventStatus"),
        ("clickwrapTemplateId=x", "clickwrapTemplateId"),
        ("from=yesterday", "from"),
        ("to=2026-13-01T00:00:00Z", "to"),
    ] {
        let problem = export(&h, &a.token, &format!("format=ndjson&{query}")).await.problem(400, "VALIDATION_FAILED");
        assert_eq!(problem["errors"][0]["field"], field, "{query}");
    }
    // A VIEWER may export; nobody without a token may.
    export(&h, &viewer, "format=csv").await.expect(200);
    h.call(get(&format!("{OP}/events/export?format=ndjson"))).await.problem(401, "UNAUTHORIZED");
    h.call(get(&format!("{OP}/events/export?format=ndjson")).app(&a)).await.problem(401, "UNAUTHORIZED");
}

// ---------------------------------------------------------------------------------------------
// Event evidence and published versions
// ---------------------------------------------------------------------------------------------

#[actix_web::test]
async fn event_evidence_is_served_to_the_tenants_operators_only() {
    let h = harness().await;
    let a = operator(&h, None).await;
    let b = operator(&h, None).await;
    let t = template(&h, &a, "<h1>Terms</h1><p>Hello {{fullName}}</p>").await;
    let accepted = verified_event(&h, &a, &t, "alice", "ACCEPTED").await;
    let declined = verified_event(&h, &a, &t, "bob", "DECLINED").await;
    let unverified = id(&act(&h, &a, &t, "carol", "ACCEPTED").await, "clickwrapEventId");

    // The details: the same answer as the server-side route of the app.
    let details = h.call(op(Method::GET, &format!("/events/{accepted}"), &a.token)).await.expect(200).json();
    let server_side =
        h.call(get(&format!("{V1}/clickwrap-events/{accepted}/details")).app(&a)).await.expect(200).json();
    assert_eq!(details, server_side);
    assert_eq!(details["clickwrapEventId"], accepted.as_str());
    assert_eq!(details["clickwrapEventStatus"], "ACCEPTED");
    assert_eq!(details["endUserId"], "alice");

    // The certificate: the very document whose hash the details name.
    let certificate = h.call(op(Method::GET, &format!("/events/{accepted}/certificate"), &a.token)).await.expect(200);
    assert_eq!(certificate.header("content-type"), Some("application/pdf"));
    let disposition = certificate.header("content-disposition").unwrap();
    assert!(disposition.starts_with("attachment") && disposition.contains(&accepted), "{disposition}");
    assert!(!certificate.body.is_empty());
    let server_copy = h.call(get(&format!("{V1}/clickwrap-events/{accepted}/certificate")).app(&a)).await.expect(200);
    assert_eq!(certificate.body, server_copy.body);
    let rendered = std::str::from_utf8(&certificate.body).expect("the test renderer writes text");
    assert_eq!(ContentHash::of(rendered).as_str(), format!("sha256:{}", id(&details, "certificateSha256")));
    // The harness renders certificates as text (the PDF renderer is not a dependency of this
    // crate), so the document is checked by its recorded hash and against the server-side route's
    // copy rather than by a `%PDF` header, which only the real renderer writes.
    assert!(rendered.contains(&accepted));

    let agreement = h.call(op(Method::GET, &format!("/events/{accepted}/agreement"), &a.token)).await.expect(200);
    assert_eq!(agreement.header("content-type"), Some("application/pdf"));
    assert!(agreement.header("content-disposition").unwrap().starts_with("attachment"));
    let server_copy = h.call(get(&format!("{V1}/clickwrap-events/{accepted}/agreement")).app(&a)).await.expect(200);
    assert_eq!(agreement.body, server_copy.body);
    let text = String::from_utf8_lossy(&agreement.body);
    assert!(text.contains(details["content"].as_str().unwrap()), "the content as shown: {text}");
    assert!(text.contains(rendered), "and the certificate: {text}");

    // A declined event has details, but neither certificate nor agreement.
    let declined_details = h.call(op(Method::GET, &format!("/events/{declined}"), &a.token)).await.expect(200).json();
    assert_eq!(declined_details["clickwrapEventStatus"], "DECLINED");
    assert_eq!(declined_details["certificateSha256"], Value::Null);
    for document in ["certificate", "agreement"] {
        h.call(op(Method::GET, &format!("/events/{declined}/{document}"), &a.token)).await.problem(409, "NOT_ACCEPTED");
    }

    // Unverified, unknown, another tenant's: not found, whatever the event's status.
    for event in [&unverified, &UNKNOWN_ID.to_owned()] {
        for suffix in ["", "/certificate", "/agreement"] {
            h.call(op(Method::GET, &format!("/events/{event}{suffix}"), &a.token))
                .await
                .problem(404, "EVENT_NOT_FOUND");
        }
    }
    for event in [&accepted, &declined] {
        for suffix in ["", "/certificate", "/agreement"] {
            h.call(op(Method::GET, &format!("/events/{event}{suffix}"), &b.token))
                .await
                .problem(404, "EVENT_NOT_FOUND");
        }
    }
    for suffix in ["", "/certificate", "/agreement"] {
        let problem = h
            .call(op(Method::GET, &format!("/events/not-a-uuid{suffix}"), &a.token))
            .await
            .problem(400, "VALIDATION_FAILED");
        assert_eq!(problem["errors"][0]["field"], "clickwrapEventId");
    }
    let wrong_accept = op(Method::GET, &format!("/events/{accepted}/certificate"), &a.token)
        .insert_header(("accept", "application/json"));
    h.call(wrong_accept).await.problem(406, "NOT_ACCEPTABLE");
}

#[actix_web::test]
async fn published_versions_are_read_back_with_their_content_as_published() {
    let h = harness().await;
    let a = operator(&h, None).await;
    let b = operator(&h, None).await;
    let created = create_template(
        &h,
        &a.token,
        &json!({
            "name": "Terms",
            "content": {
                "en": "<h1>Terms</h1><p>Dear {{fullName}}</p><script>alert(1)</script>",
                "de": "<h1>Bedingungen</h1><p>Gültig ab heute</p>",
                "fr": "<h1>Conditions</h1><p>Valables dès aujourd'hui</p>",
            },
        }),
    )
    .await;
    let tid = id(&created, "clickwrapTemplateId");
    let published_draft = created["draft"]["content"].clone();
    let published = h
        .call(op_json(Method::POST, &format!("/templates/{tid}/versions"), &a.token, &json!({"kind": "MAJOR"})))
        .await
        .expect(201)
        .json();
    h.call(op(Method::POST, &format!("/templates/{tid}/enable"), &a.token)).await.expect(200);

    let version = h.call(op(Method::GET, &format!("/templates/{tid}/versions/1.0"), &a.token)).await.expect(200).json();
    assert_eq!(version["clickwrapTemplateId"], tid.as_str());
    assert_eq!(
        (version["clickwrapTemplateVersion"].clone(), version["clickwrapTemplateVersionMinor"].clone()),
        (json!(1), json!(0))
    );
    assert_eq!(version["state"], "EFFECTIVE");
    assert_eq!(version["effectiveAt"], published["effectiveAt"]);
    assert_eq!(version["content"], published_draft, "every language, as the draft was when published");
    let languages: BTreeSet<&str> =
        version["languages"].as_array().unwrap().iter().map(|l| l.as_str().unwrap()).collect();
    let content_languages: BTreeSet<&str> =
        version["content"].as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(languages, content_languages);
    assert_eq!(content_languages, BTreeSet::from(["de", "en", "fr"]));
    assert!(version["content"]["en"].as_str().unwrap().contains("{{fullName}}"), "placeholders as written");
    assert!(!version["content"]["en"].as_str().unwrap().contains("script"), "sanitized");
    // What end users are shown of it (no placeholders in these languages): the same text.
    for language in ["de", "fr"] {
        let shown = h
            .call(get(&format!(
                "{V1}/clickwrap/content?appId={}&clickwrapTemplateId={tid}&clickwrapTemplateVersion=1&clickwrapTemplateVersionMinor=0&language={language}",
                a.app_id
            )))
            .await
            .expect(200)
            .json();
        assert_eq!(shown["language"], language);
        assert_eq!(shown["content"], version["content"][language], "{language}");
    }

    // A new draft leaves the published version alone; the next version has the new content.
    let changed = json!({"en": "<p>New terms for {{fullName}}</p>"});
    h.call(op_json(Method::PUT, &format!("/templates/{tid}/draft"), &a.token, &json!({"content": changed})))
        .await
        .expect(200);
    let again = h.call(op(Method::GET, &format!("/templates/{tid}/versions/1.0"), &a.token)).await.expect(200).json();
    assert_eq!(again["content"], published_draft);
    h.call(op_json(Method::POST, &format!("/templates/{tid}/versions"), &a.token, &json!({"kind": "MINOR"})))
        .await
        .expect(201);
    let minor = h.call(op(Method::GET, &format!("/templates/{tid}/versions/1.1"), &a.token)).await.expect(200).json();
    assert_eq!(minor["content"], changed);
    assert_eq!(minor["state"], "EFFECTIVE");
    let old = h.call(op(Method::GET, &format!("/templates/{tid}/versions/1.0"), &a.token)).await.expect(200).json();
    assert_eq!(old["state"], "SUPERSEDED");
    assert_eq!(old["content"], published_draft);
    // A scheduled version is readable too.
    let later = rfc3339_in(time::Duration::days(30));
    h.call(op_json(
        Method::POST,
        &format!("/templates/{tid}/versions"),
        &a.token,
        &json!({"kind": "MAJOR", "effectiveAt": later}),
    ))
    .await
    .expect(201);
    let scheduled =
        h.call(op(Method::GET, &format!("/templates/{tid}/versions/2.0"), &a.token)).await.expect(200).json();
    assert_eq!(scheduled["state"], "SCHEDULED");
    assert_eq!(scheduled["content"], changed);

    for number in ["9.9", "1.2", "3.0", "0.0"] {
        h.call(op(Method::GET, &format!("/templates/{tid}/versions/{number}"), &a.token))
            .await
            .problem(404, "VERSION_NOT_FOUND");
    }
    for number in ["x", "1", "1.x", "1.0.0", "-1.0", "1.", ".1"] {
        let problem = h
            .call(op(Method::GET, &format!("/templates/{tid}/versions/{number}"), &a.token))
            .await
            .problem(400, "VALIDATION_FAILED");
        assert_eq!(problem["errors"][0]["field"], "version", "{number}");
    }
    let draft_only = create_template(&h, &a.token, &simple_template("Draft")).await;
    h.call(op(Method::GET, &format!("/templates/{}/versions/1.0", id(&draft_only, "clickwrapTemplateId")), &a.token))
        .await
        .problem(404, "VERSION_NOT_FOUND");
    // Another tenant's template, or none: not found.
    h.call(op(Method::GET, &format!("/templates/{tid}/versions/1.0"), &b.token))
        .await
        .problem(404, "TEMPLATE_NOT_FOUND");
    h.call(op(Method::GET, &format!("/templates/{UNKNOWN_ID}/versions/1.0"), &a.token))
        .await
        .problem(404, "TEMPLATE_NOT_FOUND");
    h.call(op(Method::GET, &format!("/templates/{tid}/versions/1.0"), "nope")).await.problem(401, "UNAUTHORIZED");
}

fn rfc3339_in(offset: time::Duration) -> String {
    (time::OffsetDateTime::now_utc() + offset).format(&Rfc3339).unwrap()
}

// ---------------------------------------------------------------------------------------------
// Credentials in the query string
// ---------------------------------------------------------------------------------------------

#[actix_web::test]
async fn credentials_in_the_query_string_are_refused_even_with_a_valid_bearer() {
    let h = harness().await;
    let a = operator(&h, None).await;
    let t = template(&h, &a, "<p>Terms</p>").await;
    let event = verified_event(&h, &a, &t, "alice", "ACCEPTED").await;
    let first_id = only_token_id(&h, &a.token).await;
    let before = snapshot(&h, &a.token, &a.app_id, &t).await;
    let key = encode(&a.app_key);
    for name in ["appKey", "app_key", "APPKEY", "X-APP-KEY", "x-app-id", "X_App_Id"] {
        for path in reads(&a.app_id, &t, &event) {
            let separator = if path.contains('?') { '&' } else { '?' };
            let path = format!("{path}{separator}{name}={key}");
            h.call(op(Method::GET, &path, &a.token)).await.problem(401, "UNAUTHORIZED");
        }
    }
    let changes = [
        (Method::POST, "/apps?appKey=x".to_owned(), Some(json!({"name": "Sneaky"}))),
        (Method::POST, format!("/apps/{}/app-key?app_key={key}", a.app_id), None),
        (Method::PUT, format!("/templates/{t}/draft?X-APP-KEY=x"), Some(json!({"content": {"en": "<p>x</p>"}}))),
        (Method::POST, format!("/templates/{t}/disable?appKey=x"), None),
        (Method::POST, "/operator-tokens?appKey=x".to_owned(), Some(json!({"name": "Sneaky", "role": "ADMIN"}))),
        (Method::DELETE, format!("/operator-tokens/{first_id}?appKey=x"), None),
    ];
    for (method, path, body) in changes {
        h.call(op_body(method, &path, &a.token, body.as_ref())).await.problem(401, "UNAUTHORIZED");
    }
    assert_eq!(snapshot(&h, &a.token, &a.app_id, &t).await, before, "nothing changed");
    assert!(app_key_works(&h, &a).await);
    // Other parameters are fine.
    h.call(op(Method::GET, "/audit-log?limit=5", &a.token)).await.expect(200);
    h.call(op(Method::GET, "/events?endUserId=appKey", &a.token)).await.expect(200);
}
