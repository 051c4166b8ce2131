//! The spec's API (`/public-client/v1`) through the real router and PostgreSQL: every route's
//! success path and its error paths.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use clickwrap_domain::tenants::models::Admin;
use std::collections::HashSet;

use clickwrap_domain::limits::rate::RateLimitPolicy;
use clickwrap_domain::service::Settings;
use common::*;
use serde_json::{Value, json};

#[actix_web::test]
async fn the_whole_flow_present_accept_verify_list_details_status_re_accept() {
    let h = harness().await;
    let op = operator(&h, None).await;
    let t = template(&h, &op, "<h1>Terms</h1><p>Hello {{fullName}}</p>").await;

    // The SDK check: a new end user must accept.
    let view = h
        .call(get(&format!(
            "{V1}/clickwrap?appId={}&clickwrapTemplateId={t}&endUserId=alice&language=de-AT,en",
            op.app_id
        )))
        .await
        .expect(200);
    assert_eq!(view.header("ratelimit-limit"), Some("1000"));
    let view = view.json();
    assert_eq!(view["acceptanceRequired"], true);
    assert_eq!(view["language"], "de");
    assert_eq!(view["clickwrapTemplateVersion"], 1);
    assert_eq!(view["clickwrapTemplateVersionMinor"], 0);
    assert!(view["contentHash"].as_str().unwrap().starts_with("sha256:"));
    assert_eq!(view["customizations"]["texts"]["acceptButton"], "Akzeptieren");
    assert_eq!(view["agreementMode"], "SCROLL");

    // Accept → Signature → verify.
    let recorded = act(&h, &op, &t, "alice", "ACCEPTED").await;
    assert_eq!(recorded["clickwrapEventStatus"], "UNVERIFIED");
    let signature = recorded["serviceSignature"].as_str().unwrap();
    let verified = verify(&h, &op, signature).await.expect(200).json();
    assert_eq!(verified["clickwrapEventStatus"], "ACCEPTED");
    assert_eq!(verified["clickwrapEventId"], recorded["clickwrapEventId"]);
    assert_eq!(verified["endUserId"], "alice");
    let metadata: Value = serde_json::from_str(verified["technicalMetadata"].as_str().unwrap()).unwrap();
    assert_eq!(metadata["ipAddress"], "203.0.113.50");
    assert_eq!(metadata["userAgent"], "Mozilla/5.0 (test)");
    assert_eq!(metadata["client"]["timezone"], "Europe/Berlin");
    assert!(verified["effectiveAt"].as_str().unwrap().ends_with('Z'));

    // The dialog is no longer needed.
    let again = h
        .call(get(&format!("{V1}/clickwrap?appId={}&clickwrapTemplateId={t}&endUserId=alice", op.app_id)))
        .await
        .expect(200)
        .json();
    assert_eq!(again["acceptanceRequired"], false);

    // Listed, with the eleven fields.
    let list = h.call(get(&format!("{V1}/clickwrap-events")).app(&op)).await.expect(200).json();
    assert_eq!(list["items"].as_array().unwrap().len(), 1);
    assert_eq!(list["items"][0].as_object().unwrap().len(), 11);
    assert_eq!(list["nextPageCursor"], Value::Null);

    // Details with the evidence and the webhook state.
    let id = recorded["clickwrapEventId"].as_str().unwrap();
    let details = h.call(get(&format!("{V1}/clickwrap-events/{id}/details")).app(&op)).await.expect(200).json();
    // `act` fetches without a language wish: the template's default language was shown.
    assert_eq!(details["language"], "en");
    assert_eq!(details["content"], "<h1>Terms</h1><p>Hello </p>");
    assert_eq!(details["presentation"]["acceptLabel"], "Accept");
    assert_eq!(details["certificateSha256"].as_str().unwrap().len(), 64);
    assert_eq!(details["webhook"]["state"], "PENDING");

    // The certificate.
    let pdf = h.call(get(&format!("{V1}/clickwrap-events/{id}/certificate")).app(&op)).await.expect(200);
    assert_eq!(pdf.header("content-type"), Some("application/pdf"));
    assert!(pdf.header("content-disposition").unwrap().starts_with("attachment"));
    assert!(!pdf.body.is_empty());

    // The agreement: the content as shown, then the certificate.
    let agreement = h.call(get(&format!("{V1}/clickwrap-events/{id}/agreement")).app(&op)).await.expect(200);
    assert_eq!(agreement.header("content-type"), Some("application/pdf"));
    let text = String::from_utf8_lossy(&agreement.body);
    assert!(text.contains("<h1>Terms</h1>") && text.contains("Certificate of Acceptance"), "{text}");

    // Status.
    let status = h.call(get(&format!("{V1}/clickwraps/alice/status")).app(&op)).await.expect(200).json();
    assert_eq!(status["status"], "ACCEPTED");
    assert_eq!(status["items"][0]["clickwrapTemplateId"], t);
    assert_eq!(status["items"][0]["clickwrapEventId"], id);
    assert_eq!(status["items"][0]["reAcceptanceRequired"], false);

    // Re-accept: earlier acceptance stays, the dialog comes back.
    let results = h
        .call(
            post(
                &format!("{V1}/clickwraps/re-accept"),
                &json!({"endUserIds": ["alice", "bob"], "clickwrapTemplateIds": [t], "reason": "new terms"}),
            )
            .app(&op),
        )
        .await
        .expect(200)
        .json();
    assert_eq!(results["results"][0]["status"], "RE_ACCEPT_REQUESTED");
    assert_eq!(results["results"][1]["status"], "SKIPPED");
    let status =
        h.call(get(&format!("{V1}/clickwraps/alice/status?clickwrapTemplateId={t}")).app(&op)).await.expect(200).json();
    assert_eq!(status["items"][0]["reAcceptanceRequired"], true);
    let view = h
        .call(get(&format!("{V1}/clickwrap?appId={}&clickwrapTemplateId={t}&endUserId=alice", op.app_id)))
        .await
        .expect(200)
        .json();
    assert_eq!(view["acceptanceRequired"], true);

    // Templates of the app, by tag.
    let templates = h.call(get(&format!("{V1}/clickwrap-templates?tags=legal")).app(&op)).await.expect(200).json();
    assert_eq!(templates["items"][0]["clickwrapTemplateId"], t);
    assert_eq!(templates["items"][0]["languages"], json!(["en", "de"]));
    let none =
        h.call(get(&format!("{V1}/clickwrap-templates?tags=legal&tags=other")).app(&op)).await.expect(200).json();
    assert_eq!(none["items"], json!([]));
    let split = h.call(get(&format!("{V1}/clickwrap-templates?tags=legal,other")).app(&op)).await.expect(200).json();
    assert_eq!(split["items"], json!([]));
    // An empty tag is refused, as the document's pattern says, not skipped.
    for tags in ["", "legal,", ",legal", "legal,,other"] {
        h.call(get(&format!("{V1}/clickwrap-templates?tags={tags}")).app(&op)).await.problem(400, "VALIDATION_FAILED");
    }
}

#[actix_web::test]
async fn verify_refuses_twice_forged_truncated_and_foreign_signatures() {
    let h = harness().await;
    let op = operator(&h, None).await;
    let other = operator(&h, None).await;
    let t = template(&h, &op, "<p>Terms</p>").await;
    let recorded = act(&h, &op, &t, "carol", "ACCEPTED").await;
    let signature = recorded["serviceSignature"].as_str().unwrap();

    verify(&h, &op, signature).await.expect(200);
    let twice = verify(&h, &op, signature).await.problem(409, "SIGNATURE_ALREADY_VERIFIED");
    assert_eq!(twice["clickwrapEventId"], recorded["clickwrapEventId"]);

    let mut forged: Vec<char> = signature.chars().collect();
    let last = forged.len() - 1;
    forged[last] = if forged[last] == 'a' { 'b' } else { 'a' };
    verify(&h, &op, &forged.into_iter().collect::<String>()).await.problem(400, "INVALID_SIGNATURE");
    verify(&h, &op, &signature[..signature.len() / 2]).await.problem(400, "INVALID_SIGNATURE");
    verify(&h, &op, "").await.problem(400, "INVALID_SIGNATURE");
    verify(&h, &op, &"x".repeat(5000)).await.problem(400, "INVALID_SIGNATURE");

    let fresh = act(&h, &op, &t, "dan", "DECLINED").await;
    verify(&h, &other, fresh["serviceSignature"].as_str().unwrap()).await.problem(403, "SIGNATURE_APP_MISMATCH");
    // Nothing was recorded by the refused attempts: the event is still unverified.
    let id = fresh["clickwrapEventId"].as_str().unwrap();
    h.call(get(&format!("{V1}/clickwrap-events/{id}/details")).app(&op)).await.problem(404, "EVENT_NOT_FOUND");
    let declined = verify(&h, &op, fresh["serviceSignature"].as_str().unwrap()).await.expect(200).json();
    assert_eq!(declined["clickwrapEventStatus"], "DECLINED");
    h.call(get(&format!("{V1}/clickwrap-events/{id}/certificate")).app(&op)).await.problem(409, "NOT_ACCEPTED");
    h.call(get(&format!("{V1}/clickwrap-events/{id}/agreement")).app(&op)).await.problem(409, "NOT_ACCEPTED");
    let list = h.call(get(&format!("{V1}/clickwrap-events")).app(&op)).await.expect(200).json();
    assert_eq!(list["items"].as_array().unwrap().len(), 2);

    // Bodies that are not what verify takes.
    h.call(post(&format!("{V1}/clickwrap/verify"), &json!({})).app(&op)).await.problem(400, "INVALID_JSON");
    let broken = request(actix_web::http::Method::POST, &format!("{V1}/clickwrap/verify"))
        .insert_header(("content-type", "application/json"))
        .set_payload("{not json")
        .app(&op);
    h.call(broken).await.problem(400, "INVALID_JSON");
}

#[actix_web::test]
async fn credentials_must_be_right_and_in_headers() {
    let h = harness().await;
    let op = operator(&h, None).await;
    let other = operator(&h, None).await;
    let uri = format!("{V1}/clickwrap-events");
    h.call(get(&uri)).await.problem(401, "UNAUTHORIZED");
    h.call(get(&uri).insert_header(("x-app-id", op.app_id.as_str()))).await.problem(401, "UNAUTHORIZED");
    let mixed =
        get(&uri).insert_header(("x-app-id", op.app_id.as_str())).insert_header(("x-app-key", other.app_key.as_str()));
    h.call(mixed).await.problem(401, "UNAUTHORIZED");
    for query in ["X-APP-KEY", "x-app-id", "appKey", "app_key", "APPKEY"] {
        h.call(get(&format!("{uri}?{query}=whatever")).app(&op)).await.problem(401, "UNAUTHORIZED");
    }
    h.call(get(&uri).app(&op)).await.expect(200);
}

#[actix_web::test]
async fn the_events_list_walks_every_event_once_newest_first_and_validates_its_query() {
    let h = harness().await;
    let op = operator(&h, None).await;
    let t = template(&h, &op, "<p>Terms</p>").await;
    let mut ids = HashSet::new();
    for i in 0..7 {
        let recorded = act(&h, &op, &t, &format!("user-{i}"), if i % 3 == 0 { "DECLINED" } else { "ACCEPTED" }).await;
        verify(&h, &op, recorded["serviceSignature"].as_str().unwrap()).await.expect(200);
        ids.insert(recorded["clickwrapEventId"].as_str().unwrap().to_owned());
    }
    let mut seen = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut uri = format!("{V1}/clickwrap-events?limit=3");
        if let Some(c) = &cursor {
            uri.push_str(&format!("&nextPageCursor={}", c));
        }
        let page = h.call(get(&uri).app(&op)).await.expect(200).json();
        for item in page["items"].as_array().unwrap() {
            seen.push((
                item["actionAt"].as_str().unwrap().to_owned(),
                item["clickwrapEventId"].as_str().unwrap().to_owned(),
            ));
        }
        match page["nextPageCursor"].as_str() {
            Some(next) => cursor = Some(next.to_owned()),
            None => break,
        }
    }
    assert_eq!(seen.len(), 7);
    assert_eq!(seen.iter().map(|(_, id)| id.clone()).collect::<HashSet<_>>(), ids);
    let mut sorted = seen.clone();
    sorted.sort_by(|a, b| b.cmp(a));
    assert_eq!(seen, sorted);

    // Filters, singly and combined; actionAt read back works as an inclusive bound.
    let declined =
        h.call(get(&format!("{V1}/clickwrap-events?clickwrapEventStatus=DECLINED")).app(&op)).await.expect(200).json();
    assert_eq!(declined["items"].as_array().unwrap().len(), 3);
    let newest = &seen[0].0;
    let exact = h
        .call(get(&format!("{V1}/clickwrap-events?from={newest}&to={newest}&endUserId={}", "user-6")).app(&op))
        .await
        .expect(200)
        .json();
    assert_eq!(exact["items"].as_array().unwrap().len(), 1);
    let by_template = h
        .call(get(&format!("{V1}/clickwrap-events?clickwrapTemplateId={t}&limit=100")).app(&op))
        .await
        .expect(200)
        .json();
    assert_eq!(by_template["items"].as_array().unwrap().len(), 7);

    for bad in [
        "limit=0",
        "limit=101",
        "limit=ten",
        "clickwrapEventStatus=UNVERIFIED",
        "clickwrapTemplateId=nope",
        "from=yesterday",
        &format!("endUserId={}", "u".repeat(257)),
    ] {
        h.call(get(&format!("{V1}/clickwrap-events?{bad}")).app(&op)).await.problem(400, "VALIDATION_FAILED");
    }
    h.call(get(&format!("{V1}/clickwrap-events?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z")).app(&op))
        .await
        .problem(400, "INVALID_RANGE");
    h.call(get(&format!("{V1}/clickwrap-events?nextPageCursor=garbage")).app(&op)).await.problem(400, "INVALID_CURSOR");
    // A cursor is bound to its filters.
    let first = h.call(get(&format!("{V1}/clickwrap-events?limit=2")).app(&op)).await.expect(200).json();
    let token = first["nextPageCursor"].as_str().unwrap();
    h.call(
        get(&format!("{V1}/clickwrap-events?limit=2&clickwrapEventStatus=ACCEPTED&nextPageCursor={token}")).app(&op),
    )
    .await
    .problem(400, "INVALID_CURSOR");
}

#[actix_web::test]
async fn every_route_keeps_tenants_apart() {
    let h = harness().await;
    let a = operator(&h, None).await;
    let b = operator(&h, None).await;
    let t = template(&h, &a, "<p>Terms</p>").await;
    let recorded = act(&h, &a, &t, "shared-user", "ACCEPTED").await;
    let id = recorded["clickwrapEventId"].as_str().unwrap().to_owned();
    verify(&h, &a, recorded["serviceSignature"].as_str().unwrap()).await.expect(200);

    // B sees none of A's evidence, and learns nothing about its existence (404, never 403).
    h.call(get(&format!("{V1}/clickwrap-events/{id}/details")).app(&b)).await.problem(404, "EVENT_NOT_FOUND");
    h.call(get(&format!("{V1}/clickwrap-events/{id}/certificate")).app(&b)).await.problem(404, "EVENT_NOT_FOUND");
    h.call(get(&format!("{V1}/clickwrap-events/{id}/agreement")).app(&b)).await.problem(404, "EVENT_NOT_FOUND");
    let list = h.call(get(&format!("{V1}/clickwrap-events")).app(&b)).await.expect(200).json();
    assert_eq!(list["items"], json!([]));
    let status = h.call(get(&format!("{V1}/clickwraps/shared-user/status")).app(&b)).await.expect(200).json();
    assert_eq!(status["status"], "NO_DATA");
    assert_eq!(status["items"], json!([]));
    h.call(get(&format!("{V1}/clickwraps/shared-user/status?clickwrapTemplateId={t}")).app(&b))
        .await
        .problem(404, "TEMPLATE_NOT_FOUND");
    let templates = h.call(get(&format!("{V1}/clickwrap-templates")).app(&b)).await.expect(200).json();
    assert_eq!(templates["items"], json!([]));
    let re = h
        .call(
            post(
                &format!("{V1}/clickwraps/re-accept"),
                &json!({"endUserIds": ["shared-user"], "clickwrapTemplateIds": [t]}),
            )
            .app(&b),
        )
        .await
        .expect(200)
        .json();
    assert_eq!(re["results"][0]["status"], "SKIPPED");
    for route in ["clickwrap?endUserId=x&", "clickwrap/content?endUserId=x&", "clickwrap/customizations?"] {
        h.call(get(&format!("{V1}/{route}appId={}&clickwrapTemplateId={t}", b.app_id)))
            .await
            .problem(404, "TEMPLATE_NOT_FOUND");
    }
}

#[actix_web::test]
async fn public_routes_validate_their_input_and_answer_cors() {
    let h = harness().await;
    let op = operator(&h, None).await;
    let t = template(&h, &op, "<p>Terms</p>").await;
    let base = format!("{V1}/clickwrap?appId={}&clickwrapTemplateId={t}", op.app_id);
    h.call(get(&format!(
        "{V1}/clickwrap?appId=0190b7c4-2a1e-7cc3-9f00-5d1e2f3a4b5c&clickwrapTemplateId={t}&endUserId=u"
    )))
    .await
    .problem(404, "APP_NOT_FOUND");
    h.call(get(&base)).await.problem(400, "VALIDATION_FAILED");
    h.call(get(&format!("{base}&endUserId={}", "u".repeat(257)))).await.problem(400, "VALIDATION_FAILED");
    h.call(get(&format!("{base}&endUserId=u&language=!!"))).await.problem(400, "VALIDATION_FAILED");
    h.call(get(&format!("{base}&endUserId=u&templatePlaceholders=notjson"))).await.problem(400, "VALIDATION_FAILED");
    h.call(get(&format!(
        "{V1}/clickwrap?appId={}&clickwrapTemplateId=0190b7c4-2a1e-7cc3-9f00-5d1e2f3a4b5c&endUserId=u",
        op.app_id
    )))
    .await
    .problem(404, "TEMPLATE_NOT_FOUND");

    // Placeholders are filled, URL-decoded once and escaped.
    let placeholders = "%7B%22fullName%22%3A%22%253Cb%253EEve%22%7D"; // {"fullName":"%3Cb%3EEve"}
    let de = h
        .call(get(&format!("{base}&endUserId=u&language=de&templatePlaceholders={placeholders}")))
        .await
        .expect(200)
        .json();
    assert_eq!(de["content"], "<p>Bedingungen für &lt;b&gt;Eve</p>");

    // A wrong contentHash is refused: the record must prove what was shown.
    let mut body = json!({
        "appId": op.app_id, "clickwrapTemplateId": t, "clickwrapTemplateVersion": 1, "clickwrapTemplateVersionMinor": 0,
        "endUserId": "u", "action": "ACCEPTED", "language": "en", "templatePlaceholders": null,
        "contentHash": format!("sha256:{}", "0".repeat(64)),
        "presentedAt": time::OffsetDateTime::now_utc().format(&time::format_description::well_known::Rfc3339).unwrap(),
        "presentation": {"mode": "DIALOG", "agreementMode": "SCROLL", "acceptLabel": "Accept"},
    });
    h.call(post(&format!("{V1}/clickwrap"), &body)).await.problem(400, "CONTENT_MISMATCH");
    body["action"] = json!("MAYBE");
    h.call(post(&format!("{V1}/clickwrap"), &body)).await.problem(400, "VALIDATION_FAILED");
    body["action"] = json!("ACCEPTED");
    body["presentedAt"] = json!("2020-01-01T00:00:00Z");
    h.call(post(&format!("{V1}/clickwrap"), &body)).await.problem(400, "VALIDATION_FAILED");

    // CORS: preflight and the actual answer carry the origin; other routes do not answer CORS.
    let preflight = h
        .call(
            request(actix_web::http::Method::OPTIONS, &format!("{V1}/clickwrap"))
                .insert_header(("origin", "https://shop.example.com"))
                .insert_header(("access-control-request-method", "POST")),
        )
        .await
        .expect(204);
    assert_eq!(preflight.header("access-control-allow-origin"), Some("https://shop.example.com"));
    let answered = h
        .call(get(&format!("{base}&endUserId=u")).insert_header(("origin", "https://shop.example.com")))
        .await
        .expect(200);
    assert_eq!(answered.header("access-control-allow-origin"), Some("https://shop.example.com"));
    let server_side =
        h.call(get(&format!("{V1}/clickwrap-events")).app(&op).insert_header(("origin", "https://x.example"))).await;
    assert_eq!(server_side.header("access-control-allow-origin"), None);

    // The signing certificate is public.
    let pem = h.call(get(&format!("{V1}/signing-certificate"))).await.expect(200);
    assert_eq!(String::from_utf8(pem.body).unwrap(), PEM);
}

#[actix_web::test]
async fn allowed_origins_are_enforced() {
    use clickwrap_domain::apps::models::AppChanges;
    use clickwrap_domain::apps::models::parse_origins;
    use clickwrap_domain::{AppId, TenantId};
    let h = harness().await;
    let op = operator(&h, None).await;
    let t = template(&h, &op, "<p>Terms</p>").await;
    let changes = AppChanges {
        allowed_origins: Some(parse_origins(&["https://shop.example.com"]).unwrap()),
        ..Default::default()
    };
    h.service()
        .update_app(&Admin::server(TenantId::parse(&op.tenant_id).unwrap()), AppId::parse(&op.app_id).unwrap(), changes)
        .await
        .unwrap();
    let uri = format!("{V1}/clickwrap?appId={}&clickwrapTemplateId={t}&endUserId=u", op.app_id);
    h.call(get(&uri).insert_header(("origin", "https://shop.example.com"))).await.expect(200);
    h.call(get(&uri).insert_header(("origin", "https://evil.example.com"))).await.problem(403, "ORIGIN_NOT_ALLOWED");
    h.call(get(&uri)).await.expect(200);
}

#[actix_web::test]
async fn rate_limits_answer_429_with_headers() {
    let h = harness_with(Settings { rate_limit: RateLimitPolicy::per_hour(2), ..Settings::default() }).await;
    let op = operator(&h, None).await;
    let t = template(&h, &op, "<p>Terms</p>").await;
    let uri = format!("{V1}/clickwrap?appId={}&clickwrapTemplateId={t}&endUserId=u", op.app_id);
    let first = h.call(get(&uri)).await.expect(200);
    assert_eq!(first.header("ratelimit-remaining"), Some("1"));
    h.call(get(&uri)).await.expect(200);
    let limited = h.call(get(&uri)).await;
    assert!(limited.header("retry-after").unwrap().parse::<u64>().unwrap() > 0);
    assert_eq!(limited.header("ratelimit-limit"), Some("2"));
    assert_eq!(limited.header("ratelimit-remaining"), Some("0"));
    limited.problem(429, "RATE_LIMITED");
    // Another client IP behind a trusted proxy has its own budget; a spoofed header from an
    // untrusted peer does not.
    let proxied =
        get(&uri).insert_header(("x-forwarded-for", "198.51.100.8")).peer_addr("10.1.1.1:1234".parse().unwrap());
    h.call(proxied).await.expect(200);
    let spoofed = get(&uri).insert_header(("x-forwarded-for", "198.51.100.9"));
    h.call(spoofed).await.problem(429, "RATE_LIMITED");
}

#[actix_web::test]
async fn recording_an_action_is_rate_limited_per_app_and_ip_apart_from_the_check() {
    let h = harness_with(Settings { rate_limit: RateLimitPolicy::per_hour(2), ..Settings::default() }).await;
    let op = operator(&h, None).await;
    let t = template(&h, &op, "<p>Terms</p>").await;
    let body = action_body(&h, &op, &t, "u", "ACCEPTED").await;
    let uri = format!("{V1}/clickwrap");
    let first = h.call(post(&uri, &body)).await.expect(201);
    assert_eq!((first.header("ratelimit-limit"), first.header("ratelimit-remaining")), (Some("2"), Some("1")));
    h.call(post(&uri, &body)).await.expect(201);
    let limited = h.call(post(&uri, &body)).await;
    assert!(limited.header("retry-after").unwrap().parse::<u64>().unwrap() > 0);
    assert_eq!(limited.header("ratelimit-limit"), Some("2"));
    assert_eq!(limited.header("ratelimit-remaining"), Some("0"));
    assert!(limited.header("ratelimit-reset").unwrap().parse::<u64>().unwrap() > 0);
    limited.problem(429, "RATE_LIMITED");
    // The check has its own count (one request so far), so the SDK's fetch still works.
    let check = format!("{V1}/clickwrap?appId={}&clickwrapTemplateId={t}&endUserId=u", op.app_id);
    h.call(get(&check)).await.expect(200);
    // Another client IP behind a trusted proxy has its own budget.
    let proxied = post(&uri, &body)
        .insert_header(("x-forwarded-for", "198.51.100.8"))
        .peer_addr("10.1.1.1:1234".parse().unwrap());
    h.call(proxied).await.expect(201);
    // Another app (of another tenant) too.
    let other = operator(&h, None).await;
    let t2 = template(&h, &other, "<p>Other terms</p>").await;
    let other_body = action_body(&h, &other, &t2, "u", "ACCEPTED").await;
    h.call(post(&uri, &other_body)).await.expect(201);
}

#[actix_web::test]
async fn rate_limits_hold_across_instances_sharing_the_database() {
    let settings = Settings { rate_limit: RateLimitPolicy::per_hour(3), ..Settings::default() };
    let h = harness_with(settings).await;
    let other = h.second_instance(settings).await;
    let op = operator(&h, None).await;
    let t = template(&h, &op, "<p>Terms</p>").await;
    let uri = format!("{V1}/clickwrap/customizations?appId={}&clickwrapTemplateId={t}", op.app_id);
    h.call(get(&uri)).await.expect(200);
    other.call(get(&uri)).await.expect(200);
    h.call(get(&uri)).await.expect(200);
    // Each instance counts in memory and adds its hits to the shared count when it syncs (the
    // server does every CLICKWRAP_RATE_LIMIT_SYNC_MS); the one that syncs second learns all 3.
    assert_eq!(other.state.service.sync_rate_limits().await.unwrap(), 1);
    assert_eq!(h.service().sync_rate_limits().await.unwrap(), 1);
    let refused = h.call(get(&uri)).await;
    assert_eq!(refused.header("ratelimit-remaining"), Some("0"));
    refused.problem(429, "RATE_LIMITED"); // alone, it has counted 2 of 3
    // The other one synced before h's hits were shared: it admits one more (the documented
    // overshoot of an instance that has not seen the others' latest hits) and learns them at its
    // next sync; from then on both refuse.
    other.call(get(&uri)).await.expect(200);
    assert_eq!(other.state.service.sync_rate_limits().await.unwrap(), 1);
    other.call(get(&uri)).await.problem(429, "RATE_LIMITED");
    h.call(get(&uri)).await.problem(429, "RATE_LIMITED");
}

#[actix_web::test]
async fn a_version_published_on_another_instance_is_served_at_once_when_asked_for() {
    use clickwrap_domain::TenantId;
    use clickwrap_domain::templates::versioning::VersionKind;
    let h = harness().await;
    let other = h.second_instance(Settings::default()).await;
    let op = operator(&h, None).await;
    let t = template(&h, &op, "<p>Terms</p>").await;
    // The other instance serves the template from its cache: it knows version 1.0 only.
    let check = format!("{V1}/clickwrap?appId={}&clickwrapTemplateId={t}&endUserId=ada", op.app_id);
    assert_eq!(other.call(get(&check)).await.expect(200).json()["clickwrapTemplateVersionMinor"], 0);

    let tenant = TenantId::parse(&op.tenant_id).unwrap();
    h.service().publish_version(&Admin::server(tenant), t.parse().unwrap(), VersionKind::Minor, None).await.unwrap();
    let content = format!(
        "{V1}/clickwrap/content?appId={}&clickwrapTemplateId={t}&clickwrapTemplateVersion=1&clickwrapTemplateVersionMinor=1",
        op.app_id
    );
    let shown = other.call(get(&content)).await.expect(200).json();
    assert_eq!(shown["clickwrapTemplateVersionMinor"], 1);
}

#[actix_web::test]
async fn the_event_quota_is_enforced_at_verify() {
    let h = harness().await;
    let op = operator(&h, Some(1)).await;
    let t = template(&h, &op, "<p>Terms</p>").await;
    let one = act(&h, &op, &t, "one", "ACCEPTED").await;
    let two = act(&h, &op, &t, "two", "ACCEPTED").await;
    verify(&h, &op, one["serviceSignature"].as_str().unwrap()).await.expect(200);
    let refused = verify(&h, &op, two["serviceSignature"].as_str().unwrap()).await;
    assert!(refused.header("retry-after").unwrap().parse::<u64>().unwrap() > 0);
    assert_eq!(refused.header("ratelimit-limit"), Some("1"));
    assert_eq!(refused.header("ratelimit-remaining"), Some("0"));
    refused.problem(429, "EVENT_QUOTA_EXCEEDED");
}

#[actix_web::test]
async fn every_error_is_a_problem_document() {
    let h = harness().await;
    let op = operator(&h, None).await;
    h.call(get("/nowhere")).await.problem(404, "ROUTE_NOT_FOUND");
    h.call(get(&format!("{V1}/nowhere"))).await.problem(404, "ROUTE_NOT_FOUND");
    let wrong_method =
        h.call(request(actix_web::http::Method::DELETE, &format!("{V1}/clickwrap-events")).app(&op)).await;
    assert_eq!(wrong_method.header("allow"), Some("GET, HEAD"));
    wrong_method.problem(405, "METHOD_NOT_ALLOWED");
    h.call(get(&format!("{V1}/clickwrap-events")).app(&op).insert_header(("accept", "text/html")))
        .await
        .problem(406, "NOT_ACCEPTABLE");
    h.call(get(&format!("{V1}/clickwrap-events")).app(&op).insert_header(("accept", "*/*"))).await.expect(200);
    let id = "0190b7c4-2a1e-7cc3-9f00-5d1e2f3a4b5c";
    h.call(
        get(&format!("{V1}/clickwrap-events/{id}/certificate")).app(&op).insert_header(("accept", "application/json")),
    )
    .await
    .problem(406, "NOT_ACCEPTABLE");
    h.call(get(&format!("{V1}/clickwrap-events/{id}/certificate")).app(&op)).await.problem(404, "EVENT_NOT_FOUND");
    h.call(get(&format!("{V1}/clickwrap-events/not-a-uuid/details")).app(&op)).await.problem(400, "VALIDATION_FAILED");
    let huge = json!({"serviceSignature": "x".repeat(100 * 1024)});
    h.call(post(&format!("{V1}/clickwrap/verify"), &huge).app(&op)).await.problem(413, "PAYLOAD_TOO_LARGE");
    let not_json = request(actix_web::http::Method::POST, &format!("{V1}/clickwrap/verify"))
        .insert_header(("content-type", "text/plain"))
        .set_payload("serviceSignature=x")
        .app(&op);
    h.call(not_json).await.problem(415, "UNSUPPORTED_MEDIA_TYPE");
}

#[actix_web::test]
async fn a_panic_answers_500_with_nothing_internal() {
    let h = harness().await;
    let reply = h
        .call_with(
            |config| {
                config.route(
                    "/boom",
                    actix_web::web::get().to(|| async {
                        let secret = std::hint::black_box("connection string postgres://user:hunter2@db");
                        if !secret.is_empty() {
                            panic!("{secret}");
                        }
                        actix_web::HttpResponse::Ok().finish()
                    }),
                );
            },
            get("/boom"),
        )
        .await;
    let body = reply.problem(500, "INTERNAL_ERROR");
    assert!(!body.to_string().contains("hunter2"));
}

/// `showAcceptedContent`, the agreement PDF and the stored placeholder values give back exactly
/// what the end user saw and accepted, whatever changed since.
#[actix_web::test]
async fn what_was_accepted_is_given_back_exactly_later() {
    let h = harness().await;
    let op = operator(&h, None).await;
    let tenant = clickwrap_domain::TenantId::parse(&op.tenant_id).unwrap();
    h.service().set_legal_name(tenant, Some("Acme Holdings GmbH")).await.unwrap();
    let t = template(&h, &op, "<p>Hello {{fullName}}</p>").await;

    // Shown in German with a value URL-encoded once, as the SDK sends it.
    let placeholders = json!({"fullName": "Ada%20L%C3%B6we"});
    let encoded: String = form_urlencoded::byte_serialize(placeholders.to_string().as_bytes()).collect();
    let view = h
        .call(get(&format!(
            "{V1}/clickwrap?appId={}&clickwrapTemplateId={t}&endUserId=ute&language=de&templatePlaceholders={encoded}",
            op.app_id
        )))
        .await
        .expect(200)
        .json();
    assert_eq!(view["content"], "<p>Bedingungen für Ada Löwe</p>");
    let mut body = json!({
        "appId": op.app_id,
        "clickwrapTemplateId": t,
        "clickwrapTemplateVersion": 1,
        "clickwrapTemplateVersionMinor": 0,
        "endUserId": "ute",
        "action": "ACCEPTED",
        "language": "de",
        "templatePlaceholders": placeholders,
        "contentHash": view["contentHash"],
        "presentedAt": time::OffsetDateTime::now_utc().format(&time::format_description::well_known::Rfc3339).unwrap(),
        "presentation": {"mode": "DIALOG", "agreementMode": "CHECKBOX", "acceptLabel": "Akzeptieren",
                         "checkboxLabel": "Invented wording", "scrollRequired": true},
    });
    // A client cannot claim a rule the template does not set.
    let problem = h.call(post(&format!("{V1}/clickwrap"), &body)).await.problem(400, "AGREEMENT_MODE_MISMATCH");
    assert!(problem["detail"].as_str().unwrap().contains("SCROLL"), "{problem}");
    body["presentation"] = json!({"mode": "DIALOG", "agreementMode": "SCROLL", "acceptLabel": "Akzeptieren",
                                  "scrollRequired": true});
    let recorded = h.call(post(&format!("{V1}/clickwrap"), &body)).await.expect(201).json();
    let signature = recorded["serviceSignature"].as_str().unwrap();
    verify(&h, &op, signature).await.expect(200);
    let id = recorded["clickwrapEventId"].as_str().unwrap();

    // The values used in the content are stored and returned, decoded.
    let details = h.call(get(&format!("{V1}/clickwrap-events/{id}/details")).app(&op)).await.expect(200).json();
    assert_eq!(details["templatePlaceholders"], r#"{"fullName":"Ada Löwe"}"#);
    assert_eq!(details["presentation"]["scrollRequired"], true);
    let agreement = h.call(get(&format!("{V1}/clickwrap-events/{id}/agreement")).app(&op)).await.expect(200).body;

    // Later: the app is renamed, the template gets a new version, is unlinked and disabled.
    let operator_call = |method: actix_web::http::Method, path: String, body: Option<Value>| {
        let request = request(method, &format!("/operator/v1{path}"))
            .insert_header(("authorization", format!("Bearer {}", op.token)));
        match body {
            Some(body) => request.insert_header(("content-type", "application/json")).set_payload(body.to_string()),
            None => request,
        }
    };
    use actix_web::http::Method;
    h.call(operator_call(Method::PATCH, format!("/apps/{}", op.app_id), Some(json!({"name": "Renamed shop"}))))
        .await
        .expect(200);
    let other_app =
        h.call(operator_call(Method::POST, "/apps".into(), Some(json!({"name": "Other"})))).await.expect(201).json();
    h.call(operator_call(Method::PUT, format!("/templates/{t}/apps"), Some(json!({"appIds": [other_app["appId"]]}))))
        .await
        .expect(200);
    h.call(operator_call(Method::POST, format!("/templates/{t}/disable"), None)).await.expect(200);
    h.service().set_legal_name(tenant, Some("Acme Renamed AG")).await.unwrap();

    // showAcceptedContent: the stored content as shown, whatever language is asked for now.
    let accepted = h
        .call(get(&format!(
            "{V1}/clickwrap/content?appId={}&clickwrapTemplateId={t}&endUserId=ute&language=en",
            op.app_id
        )))
        .await
        .expect(200)
        .json();
    assert_eq!(accepted["content"], view["content"]);
    assert_eq!(accepted["contentHash"], view["contentHash"]);
    assert_eq!(accepted["language"], "de");
    assert_eq!(accepted["clickwrapTemplateVersion"], 1);
    assert_eq!(accepted["effectiveAt"], view["effectiveAt"]);
    assert_eq!(accepted["name"], "Terms of Service");
    // Without the end user the disabled template is not served; another end user has nothing.
    h.call(get(&format!("{V1}/clickwrap/content?appId={}&clickwrapTemplateId={t}", op.app_id)))
        .await
        .problem(404, "TEMPLATE_NOT_FOUND");
    h.call(get(&format!("{V1}/clickwrap/content?appId={}&clickwrapTemplateId={t}&endUserId=nobody", op.app_id)))
        .await
        .problem(404, "TEMPLATE_NOT_FOUND");

    // The agreement is fixed evidence: the same file on every download, by either API, with the
    // names in force at verification.
    let again = h.call(get(&format!("{V1}/clickwrap-events/{id}/agreement")).app(&op)).await.expect(200).body;
    assert!(again == agreement, "the agreement changed between downloads");
    let by_operator =
        h.call(operator_call(Method::GET, format!("/events/{id}/agreement"), None)).await.expect(200).body;
    assert!(by_operator == agreement, "the operator API serves the same agreement");
}

/// A query parameter the operation does not document is refused with 400 naming it, on every API
/// route, those that read no query included; credentials in the query are still a 401.
#[actix_web::test]
async fn unknown_query_parameters_are_refused_not_ignored() {
    let h = harness().await;
    let op = operator(&h, None).await;
    let t = template(&h, &op, "<p>Terms</p>").await;
    let bearer = |request: actix_web::test::TestRequest| {
        request.insert_header(("authorization", format!("Bearer {}", op.token)))
    };
    let refused = [
        get(&format!("{V1}/clickwrap?appId={}&clickwrapTemplateId={t}&endUserId=u&state=FAILED", op.app_id)),
        get(&format!("{V1}/clickwrap-events?limit=5&state=FAILED")).app(&op),
        get(&format!("{V1}/signing-certificate?state=FAILED")),
        bearer(get(&format!("/operator/v1/apps/{}/webhook-deliveries?state=FAILED", op.app_id))),
        bearer(get("/operator/v1/apps?state=FAILED")),
        bearer(get(&format!("/operator/v1/templates/{t}?state=FAILED"))),
    ];
    for request in refused {
        let problem = h.call(request).await.problem(400, "VALIDATION_FAILED");
        assert_eq!(problem["errors"], json!([{"field": "state", "message": "is not a parameter of this operation"}]));
    }

    // What an operation documents is read as before.
    h.call(get(&format!("{V1}/clickwrap?appId={}&clickwrapTemplateId={t}&endUserId=u&language=de", op.app_id)))
        .await
        .expect(200);
    h.call(bearer(get(&format!("/operator/v1/apps/{}/webhook-deliveries?limit=5", op.app_id)))).await.expect(200);
    // Credentials in the query: the authentication's 401, not a 400.
    h.call(get(&format!("{V1}/clickwrap-events?appKey={}", op.app_key)).app(&op)).await.problem(401, "UNAUTHORIZED");
    // A CORS preflight carries the query of the request it asks about.
    h.call(
        request(actix_web::http::Method::OPTIONS, &format!("{V1}/clickwrap?appId={}&state=FAILED", op.app_id))
            .insert_header(("origin", "https://shop.example.com"))
            .insert_header(("access-control-request-method", "GET")),
    )
    .await
    .expect(204);
}

#[actix_web::test]
async fn a_check_answers_the_same_bytes_from_a_warm_cache_as_without_any_cache() {
    use std::collections::BTreeMap;

    use clickwrap_domain::content::sanitize::sanitize;
    use clickwrap_domain::templates::customizations::{AgreementMode, Customizations, TextOverrides};
    use clickwrap_domain::templates::versioning::VersionKind;
    use clickwrap_domain::{Language, TemplateId, TenantId};

    let cached = harness_with(Settings { serving_cache_ttl: time::Duration::hours(1), ..Settings::default() }).await;
    let uncached =
        cached.second_instance(Settings { serving_cache_ttl: time::Duration::ZERO, ..Settings::default() }).await;
    let op = operator(&cached, None).await;
    let t =
        template(&cached, &op, "<h1>Terms &amp; \"conditions\"</h1><p>Hello {{fullName}} \u{2014} \u{fc}</p>").await;
    let admin = Admin::server(TenantId::parse(&op.tenant_id).unwrap());
    let id = TemplateId::parse(&t).unwrap();
    let mut customizations = Customizations { agreement_mode: AgreementMode::Checkbox, ..Customizations::default() };
    customizations.logo_url = Some("https://cdn.example.com/logo.png".to_owned());
    customizations.theme.border_radius = Some(8);
    customizations.texts.insert(
        Language::German,
        TextOverrides { title: Some("Bitte lesen \"genau\"".to_owned()), ..TextOverrides::default() },
    );
    cached.service().set_customizations(&admin, id, customizations).await.unwrap();

    let urls = |user: &str| {
        let base = format!("{V1}/clickwrap?appId={}&clickwrapTemplateId={t}&endUserId={user}", op.app_id);
        [
            base.clone(),
            format!("{base}&language=de"),
            format!("{base}&templatePlaceholders=%7B%22fullName%22%3A%22Ada%20%3Cb%3E%22%7D"),
        ]
    };
    let same_everywhere = async |url: &str| {
        let cold = uncached.call(get(url)).await.expect(200).body;
        let filling = cached.call(get(url)).await.expect(200).body;
        let warm = cached.call(get(url)).await.expect(200).body;
        assert_eq!(String::from_utf8_lossy(&filling), String::from_utf8_lossy(&cold), "{url}");
        assert_eq!(String::from_utf8_lossy(&warm), String::from_utf8_lossy(&cold), "{url}");
        serde_json::from_slice::<Value>(&warm).unwrap()
    };
    for url in urls("ada") {
        let answer = same_everywhere(&url).await;
        assert_eq!(answer["acceptanceRequired"], true);
        assert_eq!(answer["customizations"]["agreementMode"], "CHECKBOX");
    }
    assert_eq!(same_everywhere(&urls("ada")[1]).await["customizations"]["texts"]["title"], "Bitte lesen \"genau\"");
    assert_eq!(
        same_everywhere(&urls("ada")[2]).await["content"].as_str().map(|c| c.contains("Ada &lt;b&gt;")),
        Some(true)
    );

    // What one end user accepted changes their answer, not the rendering shared with the others.
    act(&cached, &op, &t, "ada", "ACCEPTED").await;
    let signature = act(&cached, &op, &t, "bob", "ACCEPTED").await["serviceSignature"].as_str().unwrap().to_owned();
    verify(&cached, &op, &signature).await.expect(200);
    assert_eq!(same_everywhere(&urls("bob")[0]).await["acceptanceRequired"], false);
    assert_eq!(same_everywhere(&urls("ada")[0]).await["acceptanceRequired"], true, "ada's acceptance is unverified");

    // A new version published through this instance is served at once, never an old rendering.
    let content = BTreeMap::from([(Language::English, sanitize("<p>New terms for {{fullName}}</p>").unwrap())]);
    cached.service().save_draft(&admin, id, content).await.unwrap();
    cached.service().publish_version(&admin, id, VersionKind::Minor, None).await.unwrap();
    let answer = same_everywhere(&urls("bob")[0]).await;
    assert_eq!(
        (answer["clickwrapTemplateVersion"].clone(), answer["clickwrapTemplateVersionMinor"].clone()),
        (json!(1), json!(1))
    );
    assert_eq!(answer["content"], "<p>New terms for </p>");
}

#[actix_web::test]
async fn a_change_through_one_instance_is_announced_to_another_and_a_reconnection_forgets_everything() {
    use std::sync::Arc;
    use std::time::Duration;

    use clickwrap_domain::apps::models::AppChanges;
    use clickwrap_domain::apps::models::parse_origins;
    use clickwrap_domain::templates::customizations::{AgreementMode, Customizations};
    use clickwrap_domain::{AppId, TemplateId, TenantId};
    use clickwrap_postgres::notifications::{self, ServingCacheUpdates};

    // Time to live far beyond the test, announced or not: only announcements can make the
    // listening instance read a template or app again.
    let settings = Settings {
        serving_cache_ttl: time::Duration::hours(1),
        serving_cache_ttl_announced: time::Duration::hours(1),
        ..Settings::default()
    };
    let h = harness_with(settings).await;
    let other = h.second_instance(settings).await;
    let caches = other.state.service.serving_caches().clone();
    let _listener = notifications::listen(
        h.db.url().clone(),
        vec![(notifications::SERVING, Arc::new(ServingCacheUpdates(caches.clone())))],
    );
    let until = async |what: &str, done: &dyn Fn() -> bool| {
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while !done() {
            assert!(std::time::Instant::now() < deadline, "never: {what}");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    };
    until("listening", &|| caches.are_announced()).await;

    let op = operator(&h, None).await;
    let t = template(&h, &op, "<p>Terms</p>").await;
    let admin = Admin::server(TenantId::parse(&op.tenant_id).unwrap());
    let id = TemplateId::parse(&t).unwrap();
    let check = format!("{V1}/clickwrap?appId={}&clickwrapTemplateId={t}&endUserId=ada", op.app_id);
    let mode = async || other.call(get(&check)).await.expect(200).json()["customizations"]["agreementMode"].clone();
    let served_within = async |what: &str, wanted: Value| {
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while mode().await != wanted {
            assert!(std::time::Instant::now() < deadline, "never served: {what}");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    };
    assert_eq!(mode().await, "SCROLL");

    // A template change: announced, and the other instance drops that template.
    let checkbox = Customizations { agreement_mode: AgreementMode::Checkbox, ..Customizations::default() };
    h.service().set_customizations(&admin, id, checkbox).await.unwrap();
    served_within("the new customizations", json!("CHECKBOX")).await;

    // An app change: an origin no longer allowed is refused there too.
    let origin = "https://shop.example.com";
    let from_shop = || get(&check).insert_header(("origin", origin));
    other.call(from_shop()).await.expect(200);
    let elsewhere = parse_origins(&["https://elsewhere.example.com"]).unwrap();
    let app = AppId::parse(&op.app_id).unwrap();
    h.service()
        .update_app(&admin, app, AppChanges { allowed_origins: Some(elsewhere), ..AppChanges::default() })
        .await
        .unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while other.call(from_shop()).await.status != 403 {
        assert!(std::time::Instant::now() < deadline, "the origin is still allowed there");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }

    // The listening connection is lost: what changes meanwhile is not heard, and once it is back,
    // everything cached is forgotten.
    assert_eq!(h.db.terminate_listeners().await, 1);
    until("noticing the lost connection", &|| !caches.are_announced()).await;
    h.service().set_customizations(&admin, id, Customizations::default()).await.unwrap();
    let while_down = mode().await;
    if !caches.are_announced() {
        assert_eq!(while_down, "CHECKBOX", "nobody listened: the change went unheard");
    }
    until("listening again", &|| caches.are_announced()).await;
    assert_eq!(mode().await, "SCROLL", "forgotten on reconnection");
}
