//! The operator API (`/operator/v1`) through the real router and PostgreSQL: every route's success
//! path and its error paths, tenant isolation, and the operator's whole flow up to an end user's
//! verified acceptance.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use actix_web::http::Method;
use actix_web::test::TestRequest;
use clickwrap_domain::secrets::OperatorToken;
use common::*;
use serde_json::{Value, json};
use time::format_description::well_known::Rfc3339;

const OP: &str = "/operator/v1";

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

async fn create_app(h: &Harness, token: &str, body: &Value) -> Value {
    h.call(op_json(Method::POST, "/apps", token, body)).await.expect(201).json()
}

async fn create_template(h: &Harness, token: &str, body: &Value) -> Value {
    h.call(op_json(Method::POST, "/templates", token, body)).await.expect(201).json()
}

async fn publish(h: &Harness, token: &str, template: &str, body: &Value) -> Value {
    h.call(op_json(Method::POST, &format!("/templates/{template}/versions"), token, body)).await.expect(201).json()
}

fn id(value: &Value, key: &str) -> String {
    value[key].as_str().unwrap_or_else(|| panic!("no {key} in {value}")).to_owned()
}

fn rfc3339(at: time::OffsetDateTime) -> String {
    at.format(&Rfc3339).unwrap()
}

fn is_millisecond_timestamp(value: &Value) -> bool {
    value.as_str().is_some_and(|t| t.len() == 24 && t.ends_with('Z') && t.as_bytes()[19] == b'.')
}

fn simple_template(name: &str) -> Value {
    json!({"name": name, "content": {"en": "<p>Terms for {{fullName}}</p>"}})
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

fn clickwrap_url(app_id: &str, template: &str, user: &str) -> String {
    format!("{V1}/clickwrap?appId={app_id}&clickwrapTemplateId={template}&endUserId={user}")
}

const UNKNOWN_ID: &str = "0190b7c4-2a1e-7cc3-9f00-5d1e2f3a4b5c";

/// Every route with a body that would be valid, for the checks that apply to all of them.
fn every_route(app: &str, template: &str) -> Vec<(Method, String, Option<Value>)> {
    vec![
        (Method::GET, "/apps".into(), None),
        (Method::POST, "/apps".into(), Some(json!({"name": "X"}))),
        (Method::GET, format!("/apps/{app}"), None),
        (Method::PATCH, format!("/apps/{app}"), Some(json!({"name": "Y"}))),
        (Method::POST, format!("/apps/{app}/app-key"), None),
        (Method::POST, format!("/apps/{app}/webhook-signing-secret"), None),
        (Method::GET, "/templates".into(), None),
        (Method::POST, "/templates".into(), Some(simple_template("T"))),
        (Method::GET, format!("/templates/{template}"), None),
        (Method::PATCH, format!("/templates/{template}"), Some(json!({"name": "U"}))),
        (Method::PUT, format!("/templates/{template}/draft"), Some(json!({"content": {"en": "<p>x</p>"}}))),
        (Method::PUT, format!("/templates/{template}/customizations"), Some(json!({}))),
        (Method::PUT, format!("/templates/{template}/apps"), Some(json!({"appIds": []}))),
        (Method::POST, format!("/templates/{template}/versions"), Some(json!({"kind": "MINOR"}))),
        (Method::POST, format!("/templates/{template}/enable"), None),
        (Method::POST, format!("/templates/{template}/disable"), None),
        (Method::GET, "/usage".into(), None),
        (Method::GET, "/events".into(), None),
    ]
}

fn request(method: Method, path: &str, body: Option<&Value>) -> TestRequest {
    let request = TestRequest::default().method(method).uri(&format!("{OP}{path}"));
    match body {
        Some(body) => request.insert_header(("content-type", "application/json")).set_payload(body.to_string()),
        None => request,
    }
}

// ---------------------------------------------------------------------------------------------
// Authentication, methods, ids
// ---------------------------------------------------------------------------------------------

#[actix_web::test]
async fn every_route_answers_401_without_a_valid_operator_token() {
    let h = harness().await;
    let a = operator(&h, None).await;
    let t = template(&h, &a, "<p>Terms</p>").await;
    let unknown_token = OperatorToken::from_random([7; 32]);
    let bad_headers = [
        None,
        Some("Bearer".to_owned()),
        Some("Bearer ".to_owned()),
        Some(format!("Basic {}", a.token)),
        Some(format!("Token {}", a.token)),
        Some("Bearer not-a-token".to_owned()),
        Some(format!("Bearer {}", unknown_token.expose())),
        Some(a.app_key.clone()),
    ];
    for (method, path, body) in every_route(&a.app_id, &t) {
        for header in &bad_headers {
            let mut req = request(method.clone(), &path, body.as_ref());
            if let Some(header) = header {
                req = req.insert_header(("authorization", header.as_str()));
            }
            let problem = h.call(req).await.problem(401, "UNAUTHORIZED");
            assert!(!problem["detail"].as_str().unwrap().is_empty(), "{method} {path}");
        }
    }
    // The token is checked before the body is read: a bad body does not tell an unauthenticated caller anything.
    let req = TestRequest::default()
        .method(Method::POST)
        .uri(&format!("{OP}/apps"))
        .insert_header(("authorization", format!("Bearer {}", unknown_token.expose())))
        .insert_header(("content-type", "application/json"))
        .set_payload("{not json");
    h.call(req).await.problem(401, "UNAUTHORIZED");
    // The token works with any casing of the scheme.
    let req = TestRequest::default()
        .uri(&format!("{OP}/apps"))
        .insert_header(("authorization", format!("bearer {}", a.token)));
    h.call(req).await.expect(200);
}

#[actix_web::test]
async fn other_methods_answer_405_with_allow() {
    let h = harness().await;
    let a = operator(&h, None).await;
    let app = &a.app_id;
    for (path, allow, wrong) in [
        ("/apps".to_owned(), "GET, POST, HEAD", Method::DELETE),
        (format!("/apps/{app}"), "GET, PATCH, HEAD", Method::PUT),
        (format!("/apps/{app}/app-key"), "POST", Method::GET),
        (format!("/apps/{app}/webhook-signing-secret"), "POST", Method::GET),
        ("/templates".to_owned(), "GET, POST, HEAD", Method::PUT),
        (format!("/templates/{UNKNOWN_ID}"), "GET, PATCH, HEAD", Method::DELETE),
        (format!("/templates/{UNKNOWN_ID}/draft"), "PUT", Method::GET),
        (format!("/templates/{UNKNOWN_ID}/customizations"), "PUT", Method::POST),
        (format!("/templates/{UNKNOWN_ID}/apps"), "PUT", Method::GET),
        (format!("/templates/{UNKNOWN_ID}/versions"), "POST", Method::GET),
        (format!("/templates/{UNKNOWN_ID}/enable"), "POST", Method::GET),
        (format!("/templates/{UNKNOWN_ID}/disable"), "POST", Method::PUT),
        ("/usage".to_owned(), "GET, HEAD", Method::POST),
        ("/events".to_owned(), "GET, HEAD", Method::POST),
    ] {
        let reply = h.call(op(wrong.clone(), &path, &a.token)).await;
        assert_eq!(reply.header("allow"), Some(allow), "{wrong} {path}");
        reply.problem(405, "METHOD_NOT_ALLOWED");
    }
    h.call(op(Method::GET, "/nothing-here", &a.token)).await.problem(404, "ROUTE_NOT_FOUND");
}

#[actix_web::test]
async fn malformed_ids_answer_400_and_unknown_ids_404() {
    let h = harness().await;
    let a = operator(&h, None).await;
    for (method, path, body) in every_route("not-a-uuid", "not-a-uuid") {
        if !path.contains("not-a-uuid") {
            continue;
        }
        let problem = h.call(op_json(method.clone(), &path, &a.token, &body.unwrap_or(json!({})))).await;
        let problem = problem.problem(400, "VALIDATION_FAILED");
        let field = problem["errors"][0]["field"].as_str().unwrap();
        assert!(field == "appId" || field == "clickwrapTemplateId", "{method} {path}: {problem}");
    }
    for (method, path, body) in every_route(UNKNOWN_ID, UNKNOWN_ID) {
        if !path.contains(UNKNOWN_ID) {
            continue;
        }
        let code = if path.starts_with("/apps") { "APP_NOT_FOUND" } else { "TEMPLATE_NOT_FOUND" };
        h.call(op_json(method.clone(), &path, &a.token, &body.unwrap_or(json!({})))).await.problem(404, code);
    }
}

#[actix_web::test]
async fn body_errors_are_problems() {
    let h = harness().await;
    let a = operator(&h, None).await;
    let not_json =
        op(Method::POST, "/apps", &a.token).insert_header(("content-type", "application/json")).set_payload("{");
    h.call(not_json).await.problem(400, "INVALID_JSON");
    let text = op(Method::POST, "/apps", &a.token).insert_header(("content-type", "text/plain")).set_payload("{}");
    h.call(text).await.problem(415, "UNSUPPORTED_MEDIA_TYPE");
    h.call(op_json(Method::POST, "/apps", &a.token, &json!({}))).await.problem(400, "INVALID_JSON");
    h.call(op_json(Method::POST, "/apps", &a.token, &json!({"name": 5}))).await.problem(400, "INVALID_JSON");
    // Unknown members are refused rather than silently ignored (a typo would otherwise change nothing).
    h.call(op_json(Method::POST, "/apps", &a.token, &json!({"name": "x", "webhookURL": "https://x.example"})))
        .await
        .problem(400, "INVALID_JSON");
    h.call(op_json(Method::POST, "/templates", &a.token, &json!({"name": "x"}))).await.problem(400, "INVALID_JSON");
    let accept = op(Method::GET, "/apps", &a.token).insert_header(("accept", "text/html"));
    h.call(accept).await.problem(406, "NOT_ACCEPTABLE");
}

// ---------------------------------------------------------------------------------------------
// Apps
// ---------------------------------------------------------------------------------------------

#[actix_web::test]
async fn apps_are_created_with_their_secrets_shown_only_once() {
    let h = harness().await;
    let a = operator(&h, None).await;
    let reply = h
        .call(op_json(
            Method::POST,
            "/apps",
            &a.token,
            &json!({
                "name": "  Mobile  ",
                "webhookUrl": "https://Hooks.Example.com/consent",
                "allowedOrigins": ["https://App.Example.com", "http://localhost:3000", "https://app.example.com"],
            }),
        ))
        .await
        .expect(201);
    assert_eq!(reply.header("cache-control"), Some("no-store"));
    let created = reply.json();
    let app_id = id(&created, "appId");
    assert_eq!(reply.header("location"), Some(format!("{OP}/apps/{app_id}").as_str()));
    assert!(id(&created, "appKey").starts_with("ak_"));
    assert!(id(&created, "webhookSigningSecret").starts_with("whsec_"));
    assert_eq!(created["name"], "Mobile");
    assert_eq!(created["webhookUrl"], "https://hooks.example.com/consent");
    assert_eq!(created["webhookEnabled"], true);
    assert_eq!(created["allowedOrigins"], json!(["https://app.example.com", "http://localhost:3000"]));
    assert!(is_millisecond_timestamp(&created["createdAt"]), "{created}");

    let shown = h.call(op(Method::GET, &format!("/apps/{app_id}"), &a.token)).await.expect(200).json();
    let mut expected = created.clone();
    expected.as_object_mut().unwrap().remove("appKey");
    expected.as_object_mut().unwrap().remove("webhookSigningSecret");
    assert_eq!(shown, expected);
    let keys: Vec<&String> = shown.as_object().unwrap().keys().collect();
    assert_eq!(keys.len(), 7, "{shown}");

    let minimal = create_app(&h, &a.token, &json!({"name": "Backend"})).await;
    assert_eq!(minimal["webhookUrl"], Value::Null);
    assert_eq!(minimal["allowedOrigins"], json!([]));

    let list = h.call(op(Method::GET, "/apps", &a.token)).await.expect(200).json();
    let items = list["items"].as_array().unwrap();
    assert_eq!(items.len(), 3);
    assert!(items.iter().all(|item| item.get("appKey").is_none() && item.get("webhookSigningSecret").is_none()));
    assert!(items.contains(&expected));
}

#[actix_web::test]
async fn app_values_are_parsed_at_the_edge() {
    let h = harness().await;
    let a = operator(&h, None).await;
    for url in [
        "http://hooks.example.com/x",
        "https://127.0.0.1/x",
        "https://10.1.2.3/x",
        "https://[::1]/x",
        "https://169.254.169.254/latest/meta-data",
        "https://localhost/x",
        "https://metadata.google.internal/x",
        "https://user:pw@hooks.example.com/x",
        "not a url",
        "",
    ] {
        let problem = h
            .call(op_json(Method::POST, "/apps", &a.token, &json!({"name": "X", "webhookUrl": url})))
            .await
            .problem(400, "WEBHOOK_URL_REJECTED");
        assert_eq!(problem["errors"][0]["field"], "webhookUrl", "{url}");
    }
    for (body, field) in [
        (json!({"name": ""}), "name"),
        (json!({"name": "   "}), "name"),
        (json!({"name": "a".repeat(201)}), "name"),
        (json!({"name": "X", "allowedOrigins": ["https://ok.example", "ftp://x"]}), "allowedOrigins[1]"),
        (json!({"name": "X", "allowedOrigins": ["https://x.example/path"]}), "allowedOrigins[0]"),
        (
            json!({"name": "X", "allowedOrigins": (0..51).map(|i| format!("https://a{i}.example")).collect::<Vec<_>>()}),
            "allowedOrigins",
        ),
    ] {
        let problem = h.call(op_json(Method::POST, "/apps", &a.token, &body)).await.problem(400, "VALIDATION_FAILED");
        assert_eq!(problem["errors"][0]["field"], field, "{body}");
    }
    // Nothing was created by the refused requests.
    let list = h.call(op(Method::GET, "/apps", &a.token)).await.expect(200).json();
    assert_eq!(list["items"].as_array().unwrap().len(), 1);
}

#[actix_web::test]
async fn apps_are_changed_by_patch() {
    let h = harness().await;
    let a = operator(&h, None).await;
    let path = format!("/apps/{}", a.app_id);
    let before = h.call(op(Method::GET, &path, &a.token)).await.expect(200).json();
    assert_eq!(before["webhookUrl"], "https://hooks.example.com/clickwrap");

    let changed = h
        .call(op_json(
            Method::PATCH,
            &path,
            &a.token,
            &json!({"name": "Shop 2", "webhookEnabled": false, "allowedOrigins": ["https://shop.example"]}),
        ))
        .await
        .expect(200)
        .json();
    assert_eq!(changed["name"], "Shop 2");
    assert_eq!(changed["webhookEnabled"], false);
    assert_eq!(changed["allowedOrigins"], json!(["https://shop.example"]));
    assert_eq!(changed["webhookUrl"], before["webhookUrl"], "left out, left alone");
    assert_eq!(changed["createdAt"], before["createdAt"]);
    assert!(changed["updatedAt"].as_str() >= before["updatedAt"].as_str());
    assert!(changed.get("appKey").is_none());

    // The allowed origins apply to the public routes at once.
    let t = template(&h, &a, "<p>Terms</p>").await;
    let other_origin = get(&clickwrap_url(&a.app_id, &t, "u1")).insert_header(("origin", "https://evil.example"));
    h.call(other_origin).await.problem(403, "ORIGIN_NOT_ALLOWED");

    let removed =
        h.call(op_json(Method::PATCH, &path, &a.token, &json!({"webhookUrl": null}))).await.expect(200).json();
    assert_eq!(removed["webhookUrl"], Value::Null);
    assert_eq!(removed["name"], "Shop 2");
    let set = h
        .call(op_json(
            Method::PATCH,
            &path,
            &a.token,
            &json!({"webhookUrl": "https://new.example.com/h", "allowedOrigins": []}),
        ))
        .await
        .expect(200)
        .json();
    assert_eq!(set["webhookUrl"], "https://new.example.com/h");
    assert_eq!(set["allowedOrigins"], json!([]));
    let empty = h.call(op_json(Method::PATCH, &path, &a.token, &json!({}))).await.expect(200).json();
    assert_eq!(empty["name"], "Shop 2");
    assert_eq!(h.call(op(Method::GET, &path, &a.token)).await.expect(200).json(), empty);

    for (body, field) in [
        (json!({"name": null}), "name"),
        (json!({"name": ""}), "name"),
        (json!({"webhookEnabled": null}), "webhookEnabled"),
        (json!({"allowedOrigins": null}), "allowedOrigins"),
        (json!({"allowedOrigins": ["nope"]}), "allowedOrigins[0]"),
    ] {
        let problem = h.call(op_json(Method::PATCH, &path, &a.token, &body)).await.problem(400, "VALIDATION_FAILED");
        assert_eq!(problem["errors"][0]["field"], field, "{body}");
    }
    h.call(op_json(Method::PATCH, &path, &a.token, &json!({"webhookUrl": "https://192.168.1.1/x"})))
        .await
        .problem(400, "WEBHOOK_URL_REJECTED");
    h.call(op_json(Method::PATCH, &path, &a.token, &json!({"webhookEnabled": "no"})))
        .await
        .problem(400, "INVALID_JSON");
    h.call(op_json(Method::PATCH, &path, &a.token, &json!({"appKey": "ak_x"}))).await.problem(400, "INVALID_JSON");
    // The refused changes changed nothing.
    assert_eq!(h.call(op(Method::GET, &path, &a.token)).await.expect(200).json(), empty);
}

#[actix_web::test]
async fn a_regenerated_app_key_replaces_the_old_one_at_once() {
    let h = harness().await;
    let a = operator(&h, None).await;
    let templates = format!("{V1}/clickwrap-templates");
    h.call(get(&templates).app(&a)).await.expect(200);

    let reply = h.call(op(Method::POST, &format!("/apps/{}/app-key", a.app_id), &a.token)).await.expect(200);
    assert_eq!(reply.header("cache-control"), Some("no-store"));
    let fresh = reply.json();
    let new_key = id(&fresh, "appKey");
    assert!(new_key.starts_with("ak_") && new_key != a.app_key);
    assert_eq!(fresh.as_object().unwrap().len(), 2);
    let expired_at = time::OffsetDateTime::parse(fresh["oldKeyExpiresAt"].as_str().unwrap(), &Rfc3339).unwrap();
    assert!(expired_at <= time::OffsetDateTime::now_utc(), "without a body the old key expired at the rotation");

    h.call(get(&templates).app(&a)).await.problem(401, "UNAUTHORIZED");
    let renewed =
        Operator { tenant_id: a.tenant_id.clone(), token: a.token.clone(), app_id: a.app_id.clone(), app_key: new_key };
    h.call(get(&templates).app(&renewed)).await.expect(200);
    // Other apps of the tenant keep their keys.
    let second = create_app(&h, &a.token, &json!({"name": "Second"})).await;
    let second = as_operator(&a, &second);
    h.call(op(Method::POST, &format!("/apps/{}/app-key", a.app_id), &a.token)).await.expect(200);
    h.call(get(&templates).app(&second)).await.expect(200);
}

#[actix_web::test]
async fn the_webhook_signing_secret_is_rotated() {
    let h = harness().await;
    let a = operator(&h, None).await;
    let created =
        create_app(&h, &a.token, &json!({"name": "Hooks", "webhookUrl": "https://hooks.example.com/x"})).await;
    let path = format!("/apps/{}/webhook-signing-secret", id(&created, "appId"));
    let reply = h.call(op(Method::POST, &path, &a.token)).await.expect(200);
    assert_eq!(reply.header("cache-control"), Some("no-store"));
    let first = reply.json();
    let rotated = id(&first, "webhookSigningSecret");
    assert!(rotated.starts_with("whsec_"));
    assert_ne!(rotated, id(&created, "webhookSigningSecret"));
    assert_eq!(first.as_object().unwrap().len(), 1);
    let again = h.call(op(Method::POST, &path, &a.token)).await.expect(200).json();
    assert_ne!(id(&again, "webhookSigningSecret"), rotated);
    // The App Key is untouched by a secret rotation.
    h.call(get(&format!("{V1}/clickwrap-templates")).app(&as_operator(&a, &created))).await.expect(200);
}

#[actix_web::test]
async fn another_tenants_apps_are_not_found() {
    let h = harness().await;
    let a = operator(&h, None).await;
    let b = operator(&h, None).await;
    let app = &a.app_id;
    for (method, path, body) in [
        (Method::GET, format!("/apps/{app}"), json!({})),
        (Method::PATCH, format!("/apps/{app}"), json!({"name": "Taken over"})),
        (Method::POST, format!("/apps/{app}/app-key"), json!({})),
        (Method::POST, format!("/apps/{app}/webhook-signing-secret"), json!({})),
    ] {
        h.call(op_json(method.clone(), &path, &b.token, &body)).await.problem(404, "APP_NOT_FOUND");
    }
    let list = h.call(op(Method::GET, "/apps", &b.token)).await.expect(200).json();
    let ids: Vec<&str> = list["items"].as_array().unwrap().iter().map(|i| i["appId"].as_str().unwrap()).collect();
    assert_eq!(ids, vec![b.app_id.as_str()]);
    // Nothing changed for A: same name, same key.
    let shown = h.call(op(Method::GET, &format!("/apps/{app}"), &a.token)).await.expect(200).json();
    assert_eq!(shown["name"], "Shop");
    h.call(get(&format!("{V1}/clickwrap-templates")).app(&a)).await.expect(200);
}

// ---------------------------------------------------------------------------------------------
// Templates
// ---------------------------------------------------------------------------------------------

#[actix_web::test]
async fn templates_are_created_as_disabled_drafts_with_sanitized_content() {
    let h = harness().await;
    let a = operator(&h, None).await;
    let body = json!({
        "name": "Privacy Policy",
        "tags": ["legal", "privacy", "legal"],
        "appIds": [a.app_id],
        "defaultLanguage": "de",
        "content": {
            "en": "<h1 onclick=\"steal()\">Policy</h1><script>alert(1)</script><p>Hi {{fullName}} <a href=\"javascript:alert(1)\">x</a></p>",
            "de": "<p>Hallo {{fullName}}</p>",
        },
        "customizations": {
            "agreementMode": "CHECKBOX",
            "theme": {"primaryColor": "#112233", "borderRadius": 12},
            "buttons": {"showDecline": false},
            "logoUrl": "https://cdn.example.com/logo.png",
            "texts": {"de": {"acceptButton": "Einverstanden"}},
        },
        "alwaysRequireAcceptance": true,
    });
    let reply = h.call(op_json(Method::POST, "/templates", &a.token, &body)).await.expect(201);
    let t = reply.json();
    let tid = id(&t, "clickwrapTemplateId");
    assert_eq!(reply.header("location"), Some(format!("{OP}/templates/{tid}").as_str()));
    assert_eq!(t["name"], "Privacy Policy");
    assert_eq!(t["tags"], json!(["legal", "privacy"]));
    assert_eq!(t["appIds"], json!([a.app_id]));
    assert_eq!(t["defaultLanguage"], "de");
    assert_eq!(t["alwaysRequireAcceptance"], true);
    assert_eq!(t["enabled"], false);
    assert_eq!(t["versions"], json!([]));
    let en = t["draft"]["content"]["en"].as_str().unwrap();
    assert!(
        !en.contains("script") && !en.contains("alert") && !en.contains("onclick") && !en.contains("javascript"),
        "{en}"
    );
    assert!(en.contains("<h1>Policy</h1>") && en.contains("Hi {{fullName}}"), "{en}");
    assert_eq!(t["draft"]["content"]["de"], "<p>Hallo {{fullName}}</p>");
    let c = &t["customizations"];
    assert_eq!(c["agreementMode"], "CHECKBOX");
    assert_eq!(
        c["theme"],
        json!({"primaryColor": "#112233", "backgroundColor": null, "textColor": null, "borderRadius": 12})
    );
    assert_eq!(c["buttons"], json!({"acceptStyle": "FILLED", "declineStyle": "FILLED", "showDecline": false}));
    assert_eq!(c["logoUrl"], "https://cdn.example.com/logo.png");
    assert_eq!(
        c["texts"],
        json!({"de": {"title": null, "acceptButton": "Einverstanden", "declineButton": null, "checkboxLabel": null, "versionLabel": null}})
    );
    assert!(is_millisecond_timestamp(&t["createdAt"]) && is_millisecond_timestamp(&t["updatedAt"]));

    // Read back the same; the list leaves the draft content out.
    let shown = h.call(op(Method::GET, &format!("/templates/{tid}"), &a.token)).await.expect(200).json();
    assert_eq!(shown, t);
    let minimal = create_template(&h, &a.token, &json!({"name": "Minimal", "content": {}})).await;
    assert_eq!(minimal["defaultLanguage"], "en");
    assert_eq!(minimal["tags"], json!([]));
    assert_eq!(minimal["appIds"], json!([]));
    assert_eq!(minimal["alwaysRequireAcceptance"], false);
    assert_eq!(minimal["customizations"]["agreementMode"], "SCROLL");
    assert_eq!(minimal["customizations"]["buttons"]["showDecline"], true);
    assert_eq!(minimal["customizations"]["texts"], json!({}));
    let list = h.call(op(Method::GET, "/templates", &a.token)).await.expect(200).json();
    let items = list["items"].as_array().unwrap();
    assert_eq!(items.len(), 2);
    let mut without_draft = t.clone();
    without_draft.as_object_mut().unwrap().remove("draft");
    assert_eq!(items[0], without_draft);
    assert_eq!(items[1]["clickwrapTemplateId"], minimal["clickwrapTemplateId"]);

    // A draft is not served to clients.
    h.call(get(&clickwrap_url(&a.app_id, &tid, "u1"))).await.problem(404, "TEMPLATE_NOT_FOUND");
}

#[actix_web::test]
async fn template_values_are_parsed_at_the_edge() {
    let h = harness().await;
    let a = operator(&h, None).await;
    let b = operator(&h, None).await;
    let with = |extra: Value| {
        let mut body = simple_template("T");
        for (key, value) in extra.as_object().unwrap() {
            body[key] = value.clone();
        }
        body
    };
    for (body, field) in [
        (with(json!({"name": ""})), "name"),
        (with(json!({"tags": ["ok", "not ok"]})), "tags[1]"),
        (with(json!({"tags": [""]})), "tags[0]"),
        (with(json!({"appIds": ["nope"]})), "appIds[0]"),
        (with(json!({"appIds": [UNKNOWN_ID]})), "appIds"),
        (with(json!({"appIds": [b.app_id]})), "appIds"),
        (with(json!({"defaultLanguage": "it"})), "defaultLanguage"),
        (with(json!({"defaultLanguage": "en-US"})), "defaultLanguage"),
        (with(json!({"content": {"it": "<p>x</p>"}})), "content.it"),
        (with(json!({"content": {"en": "<p>x</p>", "EN": "<p>y</p>"}})), "content.EN"),
        (with(json!({"customizations": {"theme": {"primaryColor": "red"}}})), "customizations.theme.primaryColor"),
        (with(json!({"customizations": {"theme": {"borderRadius": 100}}})), "customizations.theme.borderRadius"),
        (with(json!({"customizations": {"agreementMode": "SWIPE"}})), "customizations.agreementMode"),
        (with(json!({"customizations": {"buttons": {"acceptStyle": "ROUND"}}})), "customizations.buttons.acceptStyle"),
        (with(json!({"customizations": {"logoUrl": "javascript:alert(1)"}})), "customizations.logoUrl"),
        (with(json!({"customizations": {"texts": {"it": {"title": "Termini"}}}})), "customizations.texts.it"),
        (
            with(json!({"customizations": {"texts": {"en": {"title": "x".repeat(201)}}}})),
            "customizations.texts.en.title",
        ),
        (with(json!({"customizations": {"texts": {"en": {"title": 1}}}})), "customizations.texts.en.title"),
        (with(json!({"customizations": {"font": "Comic Sans"}})), "customizations.font"),
        (with(json!({"customizations": "dark"})), "customizations"),
    ] {
        let problem =
            h.call(op_json(Method::POST, "/templates", &a.token, &body)).await.problem(400, "VALIDATION_FAILED");
        assert_eq!(problem["errors"][0]["field"], field, "{body}");
    }
    let huge = "a".repeat(512 * 1024 + 1);
    let problem = h
        .call(op_json(Method::POST, "/templates", &a.token, &with(json!({"content": {"en": huge}}))))
        .await
        .problem(413, "CONTENT_TOO_LARGE");
    assert_eq!(problem["errors"][0]["field"], "content.en");
    // Content nested past the limit (which took seconds to sanitize before it was bounded).
    let deep = "<div>".repeat(80_000);
    let problem = h
        .call(op_json(Method::POST, "/templates", &a.token, &with(json!({"content": {"en": "<p>x</p>", "de": deep}}))))
        .await
        .problem(400, "CONTENT_TOO_DEEP");
    assert_eq!(problem["errors"][0]["field"], "content.de");
    h.call(op_json(Method::POST, "/templates", &a.token, &with(json!({"content": {"en": "<br>".repeat(50_001)}}))))
        .await
        .problem(400, "CONTENT_TOO_MANY_ELEMENTS");
    h.call(op_json(Method::POST, "/templates", &a.token, &with(json!({"content": {"en": 5}}))))
        .await
        .problem(400, "INVALID_JSON");
    let list = h.call(op(Method::GET, "/templates", &a.token)).await.expect(200).json();
    assert_eq!(list["items"], json!([]), "nothing was created");
}

#[actix_web::test]
async fn template_settings_are_changed_by_patch() {
    let h = harness().await;
    let a = operator(&h, None).await;
    let t = create_template(&h, &a.token, &simple_template("Terms")).await;
    let path = format!("/templates/{}", id(&t, "clickwrapTemplateId"));
    let changed = h
        .call(op_json(
            Method::PATCH,
            &path,
            &a.token,
            &json!({"name": "Terms of Use", "tags": ["b", "a"], "defaultLanguage": "fr", "alwaysRequireAcceptance": true}),
        ))
        .await
        .expect(200)
        .json();
    assert_eq!(changed["name"], "Terms of Use");
    assert_eq!(changed["tags"], json!(["a", "b"]));
    assert_eq!(changed["defaultLanguage"], "fr");
    assert_eq!(changed["alwaysRequireAcceptance"], true);
    assert_eq!(changed["draft"], t["draft"]);
    let partly = h.call(op_json(Method::PATCH, &path, &a.token, &json!({"tags": []}))).await.expect(200).json();
    assert_eq!(partly["tags"], json!([]));
    assert_eq!(partly["name"], "Terms of Use");
    for (body, field) in [
        (json!({"name": null}), "name"),
        (json!({"tags": null}), "tags"),
        (json!({"tags": ["a b"]}), "tags[0]"),
        (json!({"defaultLanguage": "xx"}), "defaultLanguage"),
        (json!({"defaultLanguage": null}), "defaultLanguage"),
        (json!({"alwaysRequireAcceptance": null}), "alwaysRequireAcceptance"),
    ] {
        let problem = h.call(op_json(Method::PATCH, &path, &a.token, &body)).await.problem(400, "VALIDATION_FAILED");
        assert_eq!(problem["errors"][0]["field"], field, "{body}");
    }
    h.call(op_json(Method::PATCH, &path, &a.token, &json!({"enabled": true}))).await.problem(400, "INVALID_JSON");
    assert_eq!(h.call(op(Method::GET, &path, &a.token)).await.expect(200).json(), partly);
}

#[actix_web::test]
async fn the_draft_is_replaced_and_sanitized_while_versions_stay_locked() {
    let h = harness().await;
    let a = operator(&h, None).await;
    let t = create_template(&h, &a.token, &simple_template("Terms")).await;
    let tid = id(&t, "clickwrapTemplateId");
    publish(&h, &a.token, &tid, &json!({"kind": "MAJOR"})).await;
    h.call(op(Method::POST, &format!("/templates/{tid}/enable"), &a.token)).await.expect(200);

    let draft = json!({"content": {
        "de": "<p>Neu</p><script>document.cookie</script><img src=x onerror=alert(1)>",
        "fr": "<p style=\"color:red\">Nouveau</p>",
    }});
    let saved =
        h.call(op_json(Method::PUT, &format!("/templates/{tid}/draft"), &a.token, &draft)).await.expect(200).json();
    assert_eq!(saved["draft"]["content"], json!({"de": "<p>Neu</p>", "fr": "<p>Nouveau</p>"}));
    assert_eq!(saved["versions"][0]["languages"], json!(["en"]));
    let stored = h.call(op(Method::GET, &format!("/templates/{tid}"), &a.token)).await.expect(200).json();
    assert_eq!(stored["draft"]["content"]["de"], "<p>Neu</p>");

    // Clients still get the published content.
    let view = h.call(get(&clickwrap_url(&a.app_id, &tid, "u1"))).await.expect(200).json();
    assert_eq!(view["content"], "<p>Terms for </p>");

    for (body, code) in [
        (json!({"content": {"xx": "<p>x</p>"}}), "VALIDATION_FAILED"),
        (json!({"content": "<p>x</p>"}), "INVALID_JSON"),
        (json!({}), "INVALID_JSON"),
    ] {
        h.call(op_json(Method::PUT, &format!("/templates/{tid}/draft"), &a.token, &body)).await.problem(400, code);
    }
}

#[actix_web::test]
async fn customizations_are_replaced_and_reach_the_sdk() {
    let h = harness().await;
    let a = operator(&h, None).await;
    let t = create_template(&h, &a.token, &simple_template("Terms")).await;
    let tid = id(&t, "clickwrapTemplateId");
    let path = format!("/templates/{tid}/customizations");
    let body = json!({
        "agreementMode": "CHECKBOX",
        "theme": {"primaryColor": "#ABC", "backgroundColor": "#ffffff", "textColor": "#000000", "borderRadius": 0},
        "buttons": {"acceptStyle": "OUTLINED", "declineStyle": "TEXT", "showDecline": true},
        "logoUrl": null,
        "texts": {"en": {"title": "Our terms", "acceptButton": "I agree", "declineButton": "No", "checkboxLabel": "Yes, I agree", "versionLabel": "v"}},
    });
    let saved = h.call(op_json(Method::PUT, &path, &a.token, &body)).await.expect(200).json();
    let mut expected = body.clone();
    expected["theme"]["primaryColor"] = json!("#abc");
    assert_eq!(saved["customizations"], expected);
    // What was read back can be sent back unchanged.
    let again = h.call(op_json(Method::PUT, &path, &a.token, &saved["customizations"])).await.expect(200).json();
    assert_eq!(again["customizations"], expected);

    publish(&h, &a.token, &tid, &json!({"kind": "MAJOR"})).await;
    h.call(op(Method::POST, &format!("/templates/{tid}/enable"), &a.token)).await.expect(200);
    let view = h.call(get(&clickwrap_url(&a.app_id, &tid, "u1"))).await.expect(200).json();
    assert_eq!(view["agreementMode"], "CHECKBOX");
    assert_eq!(view["customizations"]["texts"]["acceptButton"], "I agree");
    assert_eq!(view["customizations"]["theme"]["primaryColor"], "#abc");

    // Replacing with {} restores every default.
    let reset = h.call(op_json(Method::PUT, &path, &a.token, &json!({}))).await.expect(200).json();
    assert_eq!(reset["customizations"]["agreementMode"], "SCROLL");
    assert_eq!(reset["customizations"]["texts"], json!({}));

    for (body, field) in [
        (json!({"theme": {"primaryColor": "rgb(0,0,0)"}}), "theme.primaryColor"),
        (json!({"buttons": {"showDecline": 1}}), "buttons.showDecline"),
        (json!({"texts": {"de": {"title": "a\u{0007}b"}}}), "texts.de.title"),
        (json!({"agreementMode": "scrolling"}), "agreementMode"),
    ] {
        let problem = h.call(op_json(Method::PUT, &path, &a.token, &body)).await.problem(400, "VALIDATION_FAILED");
        assert_eq!(problem["errors"][0]["field"], field, "{body}");
    }
    h.call(op_json(Method::PUT, &path, &a.token, &json!(["SCROLL"]))).await.problem(400, "VALIDATION_FAILED");
}

#[actix_web::test]
async fn linking_apps_limits_who_is_served() {
    let h = harness().await;
    let a = operator(&h, None).await;
    let b = operator(&h, None).await;
    let second = create_app(&h, &a.token, &json!({"name": "Second"})).await;
    let second_id = id(&second, "appId");
    let t = create_template(&h, &a.token, &simple_template("Terms")).await;
    let tid = id(&t, "clickwrapTemplateId");
    publish(&h, &a.token, &tid, &json!({"kind": "MAJOR"})).await;
    h.call(op(Method::POST, &format!("/templates/{tid}/enable"), &a.token)).await.expect(200);
    let path = format!("/templates/{tid}/apps");
    h.call(get(&clickwrap_url(&second_id, &tid, "u1"))).await.expect(200);

    let linked = h.call(op_json(Method::PUT, &path, &a.token, &json!({"appIds": [a.app_id]}))).await.expect(200).json();
    assert_eq!(linked["appIds"], json!([a.app_id]));
    h.call(get(&clickwrap_url(&a.app_id, &tid, "u1"))).await.expect(200);
    h.call(get(&clickwrap_url(&second_id, &tid, "u1"))).await.problem(404, "TEMPLATE_NOT_FOUND");

    let unlinked = h.call(op_json(Method::PUT, &path, &a.token, &json!({"appIds": []}))).await.expect(200).json();
    assert_eq!(unlinked["appIds"], json!([]));
    h.call(get(&clickwrap_url(&second_id, &tid, "u1"))).await.expect(200);

    for (body, field) in [
        (json!({"appIds": ["x"]}), "appIds[0]"),
        (json!({"appIds": [a.app_id, UNKNOWN_ID]}), "appIds"),
        (json!({"appIds": [b.app_id]}), "appIds"),
    ] {
        let problem = h.call(op_json(Method::PUT, &path, &a.token, &body)).await.problem(400, "VALIDATION_FAILED");
        assert_eq!(problem["errors"][0]["field"], field, "{body}");
    }
    h.call(op_json(Method::PUT, &path, &a.token, &json!({}))).await.problem(400, "INVALID_JSON");
    let shown = h.call(op(Method::GET, &format!("/templates/{tid}"), &a.token)).await.expect(200).json();
    assert_eq!(shown["appIds"], json!([]));
}

#[actix_web::test]
async fn versions_are_numbered_1_0_then_1_1_then_2_0() {
    let h = harness().await;
    let a = operator(&h, None).await;
    let t = create_template(&h, &a.token, &simple_template("Terms")).await;
    let tid = id(&t, "clickwrapTemplateId");

    // The first version is 1.0 whatever the kind.
    let reply =
        h.call(op_json(Method::POST, &format!("/templates/{tid}/versions"), &a.token, &json!({"kind": "MINOR"}))).await;
    let reply = reply.expect(201);
    assert_eq!(reply.header("location"), Some(format!("{OP}/templates/{tid}").as_str()));
    let first = reply.json();
    assert_eq!(
        (first["clickwrapTemplateVersion"].clone(), first["clickwrapTemplateVersionMinor"].clone()),
        (json!(1), json!(0))
    );
    assert_eq!(first["clickwrapTemplateId"], tid.as_str());
    assert_eq!(first["state"], "EFFECTIVE");
    assert_eq!(first["languages"], json!(["en"]));
    assert_eq!(first["effectiveAt"], first["publishedAt"]);
    assert!(is_millisecond_timestamp(&first["effectiveAt"]));
    assert_eq!(first["template"]["versions"].as_array().unwrap().len(), 1);

    h.call(op_json(
        Method::PUT,
        &format!("/templates/{tid}/draft"),
        &a.token,
        &json!({"content": {"en": "<p>v1.1</p>", "de": "<p>v1.1</p>"}}),
    ))
    .await
    .expect(200);
    let minor = publish(&h, &a.token, &tid, &json!({"kind": "minor"})).await;
    assert_eq!(
        (minor["clickwrapTemplateVersion"].clone(), minor["clickwrapTemplateVersionMinor"].clone()),
        (json!(1), json!(1))
    );
    assert_eq!(minor["languages"], json!(["en", "de"]));
    let major = publish(&h, &a.token, &tid, &json!({"kind": "MAJOR", "effectiveAt": null})).await;
    assert_eq!(
        (major["clickwrapTemplateVersion"].clone(), major["clickwrapTemplateVersionMinor"].clone()),
        (json!(2), json!(0))
    );

    let shown = h.call(op(Method::GET, &format!("/templates/{tid}"), &a.token)).await.expect(200).json();
    let versions = shown["versions"].as_array().unwrap();
    let numbers: Vec<(i64, i64, &str)> = versions
        .iter()
        .map(|v| {
            (
                v["clickwrapTemplateVersion"].as_i64().unwrap(),
                v["clickwrapTemplateVersionMinor"].as_i64().unwrap(),
                v["state"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(numbers, vec![(1, 0, "SUPERSEDED"), (1, 1, "SUPERSEDED"), (2, 0, "EFFECTIVE")]);
    assert_eq!(shown["enabled"], false, "publishing does not enable");
    assert_eq!(major["template"], shown);
}

#[actix_web::test]
async fn a_future_version_is_scheduled_and_served_only_from_its_effective_at() {
    let h = harness().await;
    let a = operator(&h, None).await;
    let t = create_template(&h, &a.token, &simple_template("Terms")).await;
    let tid = id(&t, "clickwrapTemplateId");
    publish(&h, &a.token, &tid, &json!({"kind": "MAJOR"})).await;
    h.call(op(Method::POST, &format!("/templates/{tid}/enable"), &a.token)).await.expect(200);

    let tomorrow = time::OffsetDateTime::now_utc() + time::Duration::days(1);
    let offset = tomorrow.to_offset(time::UtcOffset::from_hms(2, 0, 0).unwrap());
    let scheduled = publish(&h, &a.token, &tid, &json!({"kind": "MAJOR", "effectiveAt": rfc3339(offset)})).await;
    assert_eq!(scheduled["state"], "SCHEDULED");
    assert_eq!(scheduled["clickwrapTemplateVersion"], 2);
    let at = scheduled["effectiveAt"].as_str().unwrap();
    assert!(is_millisecond_timestamp(&scheduled["effectiveAt"]), "{at}");
    assert_ne!(scheduled["effectiveAt"], scheduled["publishedAt"]);

    let shown = h.call(op(Method::GET, &format!("/templates/{tid}"), &a.token)).await.expect(200).json();
    let states: Vec<&str> =
        shown["versions"].as_array().unwrap().iter().map(|v| v["state"].as_str().unwrap()).collect();
    assert_eq!(states, vec!["EFFECTIVE", "SCHEDULED"]);
    let view = h.call(get(&clickwrap_url(&a.app_id, &tid, "u1"))).await.expect(200).json();
    assert_eq!(view["clickwrapTemplateVersion"], 1);

    // A later version may not take effect before the scheduled one.
    let problem = h
        .call(op_json(Method::POST, &format!("/templates/{tid}/versions"), &a.token, &json!({"kind": "MINOR"})))
        .await
        .problem(400, "VALIDATION_FAILED");
    assert_eq!(problem["errors"][0]["field"], "effectiveAt");
    // The very same instant is fine.
    let same = publish(&h, &a.token, &tid, &json!({"kind": "MINOR", "effectiveAt": at})).await;
    assert_eq!(
        (same["clickwrapTemplateVersion"].clone(), same["clickwrapTemplateVersionMinor"].clone()),
        (json!(2), json!(1))
    );
    assert_eq!(same["state"], "SCHEDULED");
}

#[actix_web::test]
async fn publishing_refuses_what_cannot_become_a_version() {
    let h = harness().await;
    let a = operator(&h, None).await;
    let t = create_template(
        &h,
        &a.token,
        &json!({"name": "T", "content": {"en": "<p>{{fullName}} {{favouriteColour}}</p>"}}),
    )
    .await;
    let tid = id(&t, "clickwrapTemplateId");
    let path = format!("/templates/{tid}/versions");
    let problem = h
        .call(op_json(Method::POST, &path, &a.token, &json!({"kind": "MAJOR"})))
        .await
        .problem(400, "UNKNOWN_PLACEHOLDER");
    assert!(problem["detail"].as_str().unwrap().contains("favouriteColour"), "{problem}");

    let empty = create_template(&h, &a.token, &json!({"name": "Empty", "content": {}})).await;
    let empty_path = format!("/templates/{}/versions", id(&empty, "clickwrapTemplateId"));
    h.call(op_json(Method::POST, &empty_path, &a.token, &json!({"kind": "MAJOR"}))).await.problem(400, "EMPTY_DRAFT");

    for (body, field) in [
        (json!({"kind": "PATCH"}), "kind"),
        (json!({"kind": "MAJOR", "effectiveAt": "2026-11-22 07:15:03Z"}), "effectiveAt"),
        (json!({"kind": "MAJOR", "effectiveAt": "tomorrow"}), "effectiveAt"),
    ] {
        let problem = h.call(op_json(Method::POST, &path, &a.token, &body)).await.problem(400, "VALIDATION_FAILED");
        assert_eq!(problem["errors"][0]["field"], field, "{body}");
    }
    h.call(op_json(Method::POST, &path, &a.token, &json!({}))).await.problem(400, "INVALID_JSON");
    h.call(op(Method::POST, &path, &a.token)).await.problem(415, "UNSUPPORTED_MEDIA_TYPE");
    let shown = h.call(op(Method::GET, &format!("/templates/{tid}"), &a.token)).await.expect(200).json();
    assert_eq!(shown["versions"], json!([]), "nothing was published");
}

#[actix_web::test]
async fn templates_are_enabled_only_with_a_version_and_disabled_at_once() {
    let h = harness().await;
    let a = operator(&h, None).await;
    let t = create_template(&h, &a.token, &simple_template("Terms")).await;
    let tid = id(&t, "clickwrapTemplateId");
    h.call(op(Method::POST, &format!("/templates/{tid}/enable"), &a.token)).await.problem(400, "NO_VERSION");

    publish(&h, &a.token, &tid, &json!({"kind": "MAJOR"})).await;
    let enabled = h.call(op(Method::POST, &format!("/templates/{tid}/enable"), &a.token)).await.expect(200).json();
    assert_eq!(enabled["enabled"], true);
    assert_eq!(enabled["versions"][0]["state"], "EFFECTIVE");
    h.call(get(&clickwrap_url(&a.app_id, &tid, "u1"))).await.expect(200);
    // Enabling twice is fine.
    h.call(op(Method::POST, &format!("/templates/{tid}/enable"), &a.token)).await.expect(200);

    let disabled = h.call(op(Method::POST, &format!("/templates/{tid}/disable"), &a.token)).await.expect(200).json();
    assert_eq!(disabled["enabled"], false);
    h.call(get(&clickwrap_url(&a.app_id, &tid, "u1"))).await.problem(404, "TEMPLATE_NOT_FOUND");
    let shown = h.call(op(Method::GET, &format!("/templates/{tid}"), &a.token)).await.expect(200).json();
    assert_eq!(shown["enabled"], false);
    h.call(op(Method::POST, &format!("/templates/{tid}/disable"), &a.token)).await.expect(200);
}

#[actix_web::test]
async fn another_tenants_templates_are_not_found() {
    let h = harness().await;
    let a = operator(&h, None).await;
    let b = operator(&h, None).await;
    let t = template(&h, &a, "<p>Terms</p>").await;
    let before = h.call(op(Method::GET, &format!("/templates/{t}"), &a.token)).await.expect(200).json();
    for (method, path, body) in every_route(&a.app_id, &t) {
        if !path.contains(&t) {
            continue;
        }
        let body = body.unwrap_or(json!({}));
        h.call(op_json(method.clone(), &path, &b.token, &body)).await.problem(404, "TEMPLATE_NOT_FOUND");
    }
    let list = h.call(op(Method::GET, "/templates", &b.token)).await.expect(200).json();
    assert_eq!(list["items"], json!([]));
    let after = h.call(op(Method::GET, &format!("/templates/{t}"), &a.token)).await.expect(200).json();
    assert_eq!(after, before, "B changed nothing");
    // B cannot link its template to A's app either.
    let own = create_template(&h, &b.token, &simple_template("B's")).await;
    let path = format!("/templates/{}/apps", id(&own, "clickwrapTemplateId"));
    h.call(op_json(Method::PUT, &path, &b.token, &json!({"appIds": [a.app_id]})))
        .await
        .problem(400, "VALIDATION_FAILED");
}

// ---------------------------------------------------------------------------------------------
// The whole flow, usage, events
// ---------------------------------------------------------------------------------------------

#[actix_web::test]
async fn the_operator_flow_from_a_new_app_to_a_verified_acceptance() {
    let h = harness().await;
    let a = operator(&h, Some(100)).await;
    let app = create_app(&h, &a.token, &json!({"name": "Web", "allowedOrigins": ["https://shop.example"]})).await;
    let app_id = id(&app, "appId");
    let t = create_template(
        &h,
        &a.token,
        &json!({
            "name": "Terms of Service",
            "tags": ["legal"],
            "appIds": [app_id],
            "content": {"en": "<h1>Terms</h1><p>Hello {{fullName}}</p>", "de": "<p>Hallo {{fullName}}</p>"},
            "customizations": {"agreementMode": "CHECKBOX"},
        }),
    )
    .await;
    let tid = id(&t, "clickwrapTemplateId");
    h.call(get(&clickwrap_url(&app_id, &tid, "alice"))).await.problem(404, "TEMPLATE_NOT_FOUND");
    publish(&h, &a.token, &tid, &json!({"kind": "MAJOR"})).await;
    h.call(get(&clickwrap_url(&app_id, &tid, "alice"))).await.problem(404, "TEMPLATE_NOT_FOUND");
    h.call(op(Method::POST, &format!("/templates/{tid}/enable"), &a.token)).await.expect(200);

    let view = h
        .call(
            get(&format!(
                "{}&templatePlaceholders=%7B%22fullName%22%3A%22Alice%22%7D",
                clickwrap_url(&app_id, &tid, "alice")
            ))
            .insert_header(("origin", "https://shop.example")),
        )
        .await
        .expect(200)
        .json();
    assert_eq!(view["acceptanceRequired"], true);
    assert_eq!(view["name"], "Terms of Service");
    assert_eq!(view["content"], "<h1>Terms</h1><p>Hello Alice</p>");
    assert_eq!(view["agreementMode"], "CHECKBOX");
    assert_eq!(
        (view["clickwrapTemplateVersion"].clone(), view["clickwrapTemplateVersionMinor"].clone()),
        (json!(1), json!(0))
    );
    // The tenant's first app is not linked to it.
    h.call(get(&clickwrap_url(&a.app_id, &tid, "alice"))).await.problem(404, "TEMPLATE_NOT_FOUND");

    let web = as_operator(&a, &app);
    let recorded = act(&h, &web, &tid, "alice", "ACCEPTED").await;
    let event_id = id(&recorded, "clickwrapEventId");
    verify(&h, &web, recorded["serviceSignature"].as_str().unwrap()).await.expect(200);

    let events = h.call(op(Method::GET, "/events", &a.token)).await.expect(200).json();
    assert_eq!(events["items"].as_array().unwrap().len(), 1);
    assert_eq!(events["items"][0]["clickwrapEventId"], event_id.as_str());
    assert_eq!(events["items"][0]["clickwrapEventStatus"], "ACCEPTED");
    assert_eq!(events["items"][0]["endUserId"], "alice");
    let usage = h.call(op(Method::GET, "/usage", &a.token)).await.expect(200).json();
    assert_eq!(usage["eventQuota"], 100);
    assert_eq!(usage["eventsThisPeriod"], 1);
    let again = h.call(get(&clickwrap_url(&app_id, &tid, "alice"))).await.expect(200).json();
    assert_eq!(again["acceptanceRequired"], false);
}

#[actix_web::test]
async fn usage_reports_the_quota_and_the_current_month() {
    let h = harness().await;
    let unlimited = operator(&h, None).await;
    let usage = h.call(op(Method::GET, "/usage", &unlimited.token)).await.expect(200).json();
    assert_eq!(usage["eventQuota"], Value::Null);
    assert_eq!(usage["eventsThisPeriod"], 0);
    let start = usage["periodStart"].as_str().unwrap();
    let end = usage["periodEnd"].as_str().unwrap();
    assert!(start.ends_with("-01T00:00:00.000Z") && end.ends_with("-01T00:00:00.000Z"), "{usage}");
    let now = rfc3339(time::OffsetDateTime::now_utc());
    assert!(start <= now.as_str() && now.as_str() < end, "{usage}");
    assert_eq!(usage.as_object().unwrap().len(), 4);

    let limited = operator(&h, Some(3)).await;
    let t = template(&h, &limited, "<p>Terms</p>").await;
    for user in ["u1", "u2"] {
        let recorded = act(&h, &limited, &t, user, "DECLINED").await;
        verify(&h, &limited, recorded["serviceSignature"].as_str().unwrap()).await.expect(200);
    }
    // An unverified event does not count.
    act(&h, &limited, &t, "u3", "ACCEPTED").await;
    let usage = h.call(op(Method::GET, "/usage", &limited.token)).await.expect(200).json();
    assert_eq!((usage["eventQuota"].clone(), usage["eventsThisPeriod"].clone()), (json!(3), json!(2)));
    let other = h.call(op(Method::GET, "/usage", &unlimited.token)).await.expect(200).json();
    assert_eq!(other["eventsThisPeriod"], 0, "another tenant's events are not counted");
}

#[actix_web::test]
async fn events_are_listed_across_the_tenants_apps_with_filters_and_cursor() {
    let h = harness().await;
    let a = operator(&h, None).await;
    let b = operator(&h, None).await;
    let t = template(&h, &a, "<p>Terms</p>").await;
    let second = as_operator(&a, &create_app(&h, &a.token, &json!({"name": "Second"})).await);
    for (app, user, action) in [(&a, "u1", "ACCEPTED"), (&second, "u2", "DECLINED"), (&a, "u3", "ACCEPTED")] {
        let recorded = act(&h, app, &t, user, action).await;
        verify(&h, app, recorded["serviceSignature"].as_str().unwrap()).await.expect(200);
    }
    let bt = template(&h, &b, "<p>B</p>").await;
    let recorded = act(&h, &b, &bt, "u1", "ACCEPTED").await;
    verify(&h, &b, recorded["serviceSignature"].as_str().unwrap()).await.expect(200);

    let all = h.call(op(Method::GET, "/events", &a.token)).await.expect(200).json();
    let users: Vec<&str> = all["items"].as_array().unwrap().iter().map(|e| e["endUserId"].as_str().unwrap()).collect();
    assert_eq!(users.len(), 3, "{all}");
    assert!(users.contains(&"u2"), "events of every app of the tenant");
    assert!(all["items"].as_array().unwrap().iter().all(|e| e["clickwrapTemplateId"] == t.as_str()));
    assert_eq!(all["nextPageCursor"], Value::Null);

    // The same as the server-side list of one of its apps.
    let server_side = h.call(get(&format!("{V1}/clickwrap-events")).app(&a)).await.expect(200).json();
    assert_eq!(server_side, all);

    let first = h.call(op(Method::GET, "/events?limit=2", &a.token)).await.expect(200).json();
    assert_eq!(first["items"].as_array().unwrap().len(), 2);
    let cursor = first["nextPageCursor"].as_str().unwrap().to_owned();
    let encoded: String = form_urlencoded::byte_serialize(cursor.as_bytes()).collect();
    let rest = h
        .call(op(Method::GET, &format!("/events?limit=2&nextPageCursor={encoded}"), &a.token))
        .await
        .expect(200)
        .json();
    assert_eq!(rest["items"].as_array().unwrap().len(), 1);
    assert_eq!(rest["nextPageCursor"], Value::Null);
    // Another tenant's token cannot continue this tenant's list.
    h.call(op(Method::GET, &format!("/events?limit=2&nextPageCursor={encoded}"), &b.token))
        .await
        .problem(400, "INVALID_CURSOR");

    let declined = h.call(op(Method::GET, "/events?clickwrapEventStatus=DECLINED", &a.token)).await.expect(200).json();
    assert_eq!(declined["items"].as_array().unwrap().len(), 1);
    assert_eq!(declined["items"][0]["endUserId"], "u2");
    let u1 = h.call(op(Method::GET, "/events?endUserId=u1", &a.token)).await.expect(200).json();
    assert_eq!(u1["items"].as_array().unwrap().len(), 1, "B's u1 is not A's u1");
    let by_template =
        h.call(op(Method::GET, &format!("/events?clickwrapTemplateId={bt}"), &a.token)).await.expect(200).json();
    assert_eq!(by_template["items"], json!([]));
    let b_all = h.call(op(Method::GET, "/events", &b.token)).await.expect(200).json();
    assert_eq!(b_all["items"].as_array().unwrap().len(), 1);

    for (query, code) in [
        ("limit=0", "VALIDATION_FAILED"),
        ("limit=101", "VALIDATION_FAILED"),
        ("limit=x", "VALIDATION_FAILED"),
        ("clickwrapEventStatus=MAYBE", "VALIDATION_FAILED"),
        ("clickwrapTemplateId=x", "VALIDATION_FAILED"),
        ("from=yesterday", "VALIDATION_FAILED"),
        ("from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z", "INVALID_RANGE"),
        ("nextPageCursor=garbage", "INVALID_CURSOR"),
        ("nextPageCursor=", "INVALID_CURSOR"),
    ] {
        h.call(op(Method::GET, &format!("/events?{query}"), &a.token)).await.problem(400, code);
    }
}

#[actix_web::test]
async fn webhook_delivery_history_and_redelivery() {
    let h = harness().await;
    let op = operator(&h, None).await;
    let t = template(&h, &op, "<p>Terms</p>").await;
    let recorded = act(&h, &op, &t, "wanda", "ACCEPTED").await;
    verify(&h, &op, recorded["serviceSignature"].as_str().unwrap()).await.expect(200);
    let bearer = format!("Bearer {}", op.token);
    let list_uri = format!("/operator/v1/apps/{}/webhook-deliveries", op.app_id);
    let page = h.call(get(&list_uri).insert_header(("authorization", bearer.as_str()))).await.expect(200).json();
    let delivery = &page["items"][0];
    assert_eq!(delivery["clickwrapEventId"], recorded["clickwrapEventId"]);
    assert_eq!(delivery["state"], "PENDING");
    let body: serde_json::Value = serde_json::from_str(delivery["requestBody"].as_str().unwrap()).unwrap();
    assert_eq!(body["eventType"], "CLICKWRAP_EVENT_VERIFIED");
    assert_eq!(page["nextPageCursor"], serde_json::Value::Null);

    let id = delivery["deliveryId"].as_str().unwrap();
    let redelivered = h
        .call(
            post(&format!("/operator/v1/webhook-deliveries/{id}/redeliver"), &serde_json::json!({}))
                .insert_header(("authorization", bearer.as_str())),
        )
        .await
        .expect(202)
        .json();
    assert_eq!(redelivered["state"], "PENDING");

    // Another tenant sees neither the history nor the delivery.
    let other = operator(&h, None).await;
    let theirs = format!("Bearer {}", other.token);
    h.call(get(&list_uri).insert_header(("authorization", theirs.as_str()))).await.problem(404, "APP_NOT_FOUND");
    h.call(
        post(&format!("/operator/v1/webhook-deliveries/{id}/redeliver"), &serde_json::json!({}))
            .insert_header(("authorization", theirs.as_str())),
    )
    .await
    .problem(404, "DELIVERY_NOT_FOUND");
    h.call(get(&format!("{list_uri}?nextPageCursor=nope")).insert_header(("authorization", bearer.as_str())))
        .await
        .problem(400, "INVALID_CURSOR");
    h.call(get(&list_uri)).await.problem(401, "UNAUTHORIZED");
}

/// With the old key of `operator` replaced by `key`.
fn with_key(operator: &Operator, key: &str) -> Operator {
    Operator {
        tenant_id: operator.tenant_id.clone(),
        token: operator.token.clone(),
        app_id: operator.app_id.clone(),
        app_key: key.to_owned(),
    }
}

#[actix_web::test]
async fn a_regenerated_app_key_may_keep_the_old_one_for_an_overlap() {
    let h = harness().await;
    let a = operator(&h, None).await;
    let templates = format!("{V1}/clickwrap-templates");
    let path = format!("/apps/{}/app-key", a.app_id);

    let before = time::OffsetDateTime::now_utc();
    let reply = h.call(op_json(Method::POST, &path, &a.token, &json!({"expireOldAfterSecs": 3600}))).await.expect(200);
    let after = time::OffsetDateTime::now_utc();
    assert_eq!(reply.header("cache-control"), Some("no-store"));
    let second = with_key(&a, &id(&reply.json(), "appKey"));
    let expires = time::OffsetDateTime::parse(reply.json()["oldKeyExpiresAt"].as_str().unwrap(), &Rfc3339).unwrap();
    // An hour after the rotation, which happened between `before` and `after` (in milliseconds).
    let hour = time::Duration::hours(1);
    assert!(before + hour - time::Duration::milliseconds(1) <= expires && expires <= after + hour, "{expires}");
    h.call(get(&templates).app(&a)).await.expect(200);
    h.call(get(&templates).app(&second)).await.expect(200);
    // Another instance agrees.
    let other = h.second_instance(Default::default()).await;
    other.call(get(&templates).app(&a)).await.expect(200);

    // A rotation without an overlap ends every earlier one; a `null` or absent overlap and an
    // empty body mean no overlap too.
    for body in [None, Some("{\"expireOldAfterSecs\": null}"), Some("{}"), Some("")] {
        let mut request = op(Method::POST, &path, &a.token);
        if let Some(body) = body {
            request = request.insert_header(("content-type", "application/json")).set_payload(body);
        }
        let third = with_key(&a, &id(&h.call(request).await.expect(200).json(), "appKey"));
        h.call(get(&templates).app(&third)).await.expect(200);
    }
    h.call(get(&templates).app(&a)).await.problem(401, "UNAUTHORIZED");
    other.call(get(&templates).app(&second)).await.problem(401, "UNAUTHORIZED");
    h.call(get(&templates).app(&second)).await.problem(401, "UNAUTHORIZED");

    // The audit log names the overlap.
    let log = h.call(op(Method::GET, "/audit-log", &a.token)).await.expect(200).json();
    let rotations: Vec<&Value> =
        log["items"].as_array().unwrap().iter().filter(|e| e["action"] == "app.appKeyRegenerated").collect();
    assert_eq!(rotations.len(), 5);
    assert_eq!(rotations[4]["details"]["expireOldAfterSecs"], "3600");
    assert_eq!(rotations[0]["details"]["expireOldAfterSecs"], "0");
}

#[actix_web::test]
async fn an_overlap_out_of_range_or_not_whole_seconds_is_refused_and_changes_nothing() {
    let h = harness().await;
    let a = operator(&h, None).await;
    let path = format!("/apps/{}/app-key", a.app_id);
    for bad in [json!(-1), json!(604_801), json!(i64::MAX), json!(1.5), json!("60"), json!(true), json!([60])] {
        let body = json!({ "expireOldAfterSecs": bad });
        let problem = h.call(op_json(Method::POST, &path, &a.token, &body)).await.problem(400, "VALIDATION_FAILED");
        assert_eq!(problem["errors"][0]["field"], "expireOldAfterSecs", "{bad}");
        assert!(problem["detail"].as_str().unwrap().contains("604800"), "{problem}");
    }
    h.call(op_json(Method::POST, &path, &a.token, &json!({"expireOldAfterSecond": 60})))
        .await
        .problem(400, "INVALID_JSON");
    h.call(op(Method::POST, &path, &a.token).insert_header(("content-type", "text/plain")).set_payload("60"))
        .await
        .problem(415, "UNSUPPORTED_MEDIA_TYPE");
    // The most allowed works; the key in use was never replaced by the refused requests.
    h.call(get(&format!("{V1}/clickwrap-templates")).app(&a)).await.expect(200);
    h.call(op_json(Method::POST, &path, &a.token, &json!({"expireOldAfterSecs": 604_800}))).await.expect(200);
    h.call(get(&format!("{V1}/clickwrap-templates")).app(&a)).await.expect(200);
    // A whole number is one however JSON writes it (JSON Schema's `integer`).
    h.call(op_json(Method::POST, &path, &a.token, &json!({"expireOldAfterSecs": 600.0}))).await.expect(200);
}

/// The lost update of the issue: a PATCH that read the app before a rotation wrote the old App
/// Key back. 100 rounds, each racing a rotation, a PATCH and a webhook secret rotation on one app;
/// after each, on both instances, the replaced key fails and the new one works, and the PATCH
/// and the new webhook secret stuck as well.
#[actix_web::test]
async fn app_key_rotations_racing_patches_always_stick() {
    let h = harness().await;
    let other = h.second_instance(Default::default()).await;
    let a = operator(&h, None).await;
    let templates = format!("{V1}/clickwrap-templates");
    let app_path = format!("/apps/{}", a.app_id);
    let key_path = format!("/apps/{}/app-key", a.app_id);
    let secret_path = format!("/apps/{}/webhook-signing-secret", a.app_id);
    let tenant = clickwrap_domain::TenantId::parse(&a.tenant_id).unwrap();
    let app_id = clickwrap_domain::AppId::parse(&a.app_id).unwrap();
    let mut current = with_key(&a, &a.app_key);
    for round in 0..100 {
        let name = format!("Shop {round}");
        let (rotated, patched, secret) = tokio::join!(
            h.call(op(Method::POST, &key_path, &a.token)),
            h.call(op_json(Method::PATCH, &app_path, &a.token, &json!({"name": name}))),
            h.call(op(Method::POST, &secret_path, &a.token)),
        );
        let fresh = with_key(&a, &id(&rotated.expect(200).json(), "appKey"));
        patched.expect(200);
        let secret = id(&secret.expect(200).json(), "webhookSigningSecret");

        h.call(get(&templates).app(&current)).await.problem(401, "UNAUTHORIZED");
        other.call(get(&templates).app(&current)).await.problem(401, "UNAUTHORIZED");
        h.call(get(&templates).app(&fresh)).await.expect(200);
        other.call(get(&templates).app(&fresh)).await.expect(200);
        let app = h.service().find_app(tenant, app_id).await.unwrap().unwrap();
        assert_eq!(app.name.as_str(), name, "round {round}: the PATCH stuck");
        assert_eq!(h.service().webhook_secret(&app).unwrap().expose(), secret, "round {round}: the new secret stuck");
        current = fresh;
    }
}
