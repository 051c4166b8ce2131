//! What every answer gets on its way out, through the real router and PostgreSQL: compression
//! where the client accepts it (and where it pays), `HEAD` wherever `GET` is, the security headers
//! and cache policy, and credentials in the query string refused on every authenticated route.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use std::io::Read;

use actix_web::body::{BodySize, MessageBody};
use actix_web::dev::Service;
use actix_web::http::Method;
use actix_web::test;
use clickwrap_http::api;
use clickwrap_http::openapi::{OPENAPI_JSON, OPENAPI_PATH};
use common::*;

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes).read_to_end(&mut out).unwrap();
    out
}

fn unbrotli(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    brotli_decompressor::Decompressor::new(bytes, 4096).read_to_end(&mut out).unwrap();
    out
}

/// An operator with one verified ACCEPTED event: (operator, template, event id).
async fn verified_event(h: &Harness) -> (Operator, String, String) {
    let operator = operator(h, None).await;
    let template = template(h, &operator, "<p>Terms for {{fullName}}</p>").await;
    let recorded = act(h, &operator, &template, "alice", "ACCEPTED").await;
    let event = verify(h, &operator, recorded["serviceSignature"].as_str().unwrap()).await.expect(200).json();
    (operator, template, event["clickwrapEventId"].as_str().unwrap().to_owned())
}

#[actix_web::test]
async fn text_answers_are_compressed_as_the_client_accepts_and_never_refused_for_it() {
    let h = harness().await;
    let openapi = |encoding: Option<&str>| {
        let request = get(OPENAPI_PATH);
        match encoding {
            Some(encoding) => request.insert_header(("accept-encoding", encoding)),
            None => request,
        }
    };
    let brotli = h.call_with(clickwrap_http::openapi::configure, openapi(Some("gzip, deflate, br"))).await.expect(200);
    assert_eq!(brotli.header("content-encoding"), Some("br"), "brotli is preferred when offered");
    assert!(brotli.header("vary").is_some_and(|v| v.eq_ignore_ascii_case("accept-encoding")));
    assert_eq!(unbrotli(&brotli.body), OPENAPI_JSON.as_bytes());

    let gzip = h.call_with(clickwrap_http::openapi::configure, openapi(Some("gzip"))).await.expect(200);
    assert_eq!(gzip.header("content-encoding"), Some("gzip"));
    assert_eq!(gunzip(&gzip.body), OPENAPI_JSON.as_bytes());
    assert!(
        brotli.body.len() < gzip.body.len() && gzip.body.len() * 5 < OPENAPI_JSON.len(),
        "{} {}",
        brotli.body.len(),
        gzip.body.len()
    );

    // No header, identity only, or only encodings we do not offer: the document as it is, not a 406.
    for encoding in [None, Some("identity"), Some("compress, zstd;q=0.5")] {
        let plain = h.call_with(clickwrap_http::openapi::configure, openapi(encoding)).await.expect(200);
        assert_eq!(plain.header("content-encoding"), None, "{encoding:?}");
        assert_eq!(plain.body, OPENAPI_JSON.as_bytes());
    }
}

#[actix_web::test]
async fn pdfs_and_small_answers_go_as_they_are() {
    let h = harness().await;
    let (operator, _, event) = verified_event(&h).await;
    let pdf = h
        .call(
            get(&format!("{V1}/clickwrap-events/{event}/certificate"))
                .app(&operator)
                .insert_header(("accept-encoding", "br, gzip")),
        )
        .await
        .expect(200);
    assert_eq!(pdf.header("content-type"), Some("application/pdf"));
    assert_eq!(pdf.header("content-encoding"), None, "a PDF is compressed already");

    let small = h.call(get(&format!("{V1}/clickwrap-events")).insert_header(("accept-encoding", "br, gzip"))).await;
    assert_eq!(small.status, 401);
    assert_eq!(small.header("content-encoding"), None, "a problem answer is too small to compress");
}

#[actix_web::test]
async fn the_events_export_still_streams_when_compressed() {
    let h = harness().await;
    let (operator, template, _) = verified_event(&h).await;
    for user in ["bob", "carol", "dave"] {
        let recorded = act(&h, &operator, &template, user, "DECLINED").await;
        verify(&h, &operator, recorded["serviceSignature"].as_str().unwrap()).await.expect(200);
    }
    let export = || {
        get("/operator/v1/events/export?format=ndjson")
            .insert_header(("authorization", format!("Bearer {}", operator.token)))
    };
    let plain = h.call(export()).await.expect(200).body;
    assert_eq!(plain.split(|b| *b == b'\n').filter(|line| !line.is_empty()).count(), 4);

    let app = test::init_service(api(h.state.clone(), |_| {})).await;
    let response = app.call(export().insert_header(("accept-encoding", "gzip")).to_request()).await.unwrap();
    assert_eq!(response.headers().get("content-encoding").unwrap(), "gzip");
    assert_eq!(response.response().body().size(), BodySize::Stream, "compressed chunk by chunk, never buffered whole");
    let compressed = actix_web::body::to_bytes(response.into_body()).await.ok().unwrap();
    assert_eq!(gunzip(&compressed), plain);
}

#[actix_web::test]
async fn every_get_route_answers_head_and_allow_says_so() {
    let h = harness().await;
    let (operator, _, event) = verified_event(&h).await;
    for path in [
        format!("{V1}/clickwrap-events"),
        format!("{V1}/clickwrap-events/{event}/details"),
        format!("{V1}/clickwraps/alice/status"),
    ] {
        let head = h.call(request(Method::HEAD, &path).app(&operator)).await.expect(200);
        let get = h.call(get(&path).app(&operator)).await.expect(200);
        assert_eq!(head.header("content-type"), get.header("content-type"), "{path}");
    }
    let document =
        h.call_with(clickwrap_http::openapi::configure, request(Method::HEAD, OPENAPI_PATH)).await.expect(200);
    assert_eq!(document.header("content-type"), Some("application/json"));

    // A path without GET has no HEAD either; a GET path lists HEAD in its 405.
    let verify_head = h.call(request(Method::HEAD, &format!("{V1}/clickwrap/verify"))).await;
    assert_eq!(verify_head.status, 405);
    assert_eq!(verify_head.header("allow"), Some("POST"));
    let events_post = h.call(post(&format!("{V1}/clickwrap-events"), &serde_json::json!({}))).await;
    assert_eq!(events_post.problem(405, "METHOD_NOT_ALLOWED")["detail"], "allowed methods: GET, HEAD");
}

#[actix_web::test]
async fn every_answer_is_nosniff_and_api_answers_are_not_stored() {
    let h = harness().await;
    let (operator, _, event) = verified_event(&h).await;
    let answers = [
        (
            "an API answer",
            h.call(get(&format!("{V1}/clickwrap-events/{event}/details")).app(&operator)).await.expect(200),
        ),
        ("a status answer", h.call(get(&format!("{V1}/clickwraps/alice/status")).app(&operator)).await.expect(200)),
        ("a 401 problem", h.call(get(&format!("{V1}/clickwrap-events"))).await.expect(401)),
        ("an unknown route", h.call(get("/no/such/route")).await.expect(404)),
        (
            "a 406",
            h.call(get(&format!("{V1}/clickwrap-events")).insert_header(("accept", "text/html"))).await.expect(406),
        ),
    ];
    for (what, reply) in &answers {
        assert_eq!(reply.header("x-content-type-options"), Some("nosniff"), "{what}");
        assert_eq!(reply.header("cache-control"), Some("no-store"), "{what}: carries personal data");
        assert_eq!(reply.header("content-security-policy"), None, "{what}: not a page");
    }
    let document = h.call_with(clickwrap_http::openapi::configure, get(OPENAPI_PATH)).await.expect(200);
    assert_eq!(document.header("cache-control"), Some("public, max-age=300"), "a handler's own policy stays");
    assert_eq!(document.header("x-content-type-options"), Some("nosniff"));

    // A page gets the content policy and is never framed; a handler may state a stricter policy.
    let page = |config: &mut actix_web::web::ServiceConfig| {
        config.route(
            "/page",
            actix_web::web::get().to(|| async {
                actix_web::HttpResponse::Ok().content_type("text/html; charset=utf-8").body("<p>hi</p>")
            }),
        );
    };
    let html = h.call_with(page, get("/page")).await.expect(200);
    assert_eq!(html.header("content-security-policy"), Some(clickwrap_http::CONTENT_SECURITY_POLICY));
    assert!(clickwrap_http::CONTENT_SECURITY_POLICY.contains("frame-ancestors 'none'"));
    assert_eq!(html.header("x-frame-options"), Some("DENY"));
    assert_eq!(html.header("x-content-type-options"), Some("nosniff"));
}

#[actix_web::test]
async fn credentials_in_the_query_string_are_refused_on_operator_routes_too() {
    let h = harness().await;
    let operator = operator(&h, None).await;
    let bearer = ("authorization", format!("Bearer {}", operator.token));
    h.call(get("/operator/v1/apps").insert_header(bearer.clone())).await.expect(200);
    for query in [
        format!("appKey={}", operator.app_key),
        format!("access_token={}", operator.token),
        format!("token={}", operator.token),
    ] {
        let reply = h.call(get(&format!("/operator/v1/apps?{query}")).insert_header(bearer.clone())).await;
        reply.problem(401, "UNAUTHORIZED");
    }
    let create = post("/operator/v1/apps?X-App-Key=k", &serde_json::json!({"name": "Other"})).insert_header(bearer);
    h.call(create).await.expect(401);
    assert_eq!(
        h.call(get("/operator/v1/apps").insert_header(("authorization", format!("Bearer {}", operator.token))))
            .await
            .json()["items"]
            .as_array()
            .unwrap()
            .len(),
        1,
        "nothing was created"
    );
}

#[actix_web::test]
async fn a_pdf_and_pem_go_by_their_generic_names_to_clients_that_ask_for_those() {
    let h = harness().await;
    let (operator, _, event) = verified_event(&h).await;
    let certificate = |accept: &str| {
        get(&format!("{V1}/clickwrap-events/{event}/certificate")).app(&operator).insert_header(("accept", accept))
    };
    let as_pdf = h.call(certificate("application/pdf")).await.expect(200);
    assert_eq!(as_pdf.header("content-type"), Some("application/pdf"));
    let as_bytes = h.call(certificate("application/octet-stream")).await.expect(200);
    assert_eq!(as_bytes.header("content-type"), Some("application/octet-stream"));
    assert_eq!(as_bytes.body, as_pdf.body, "the same file under either name");
    // A client that takes both gets the specific one.
    let either = h.call(certificate("application/octet-stream, application/pdf")).await.expect(200);
    assert_eq!(either.header("content-type"), Some("application/pdf"));
    h.call(certificate("application/json")).await.problem(406, "NOT_ACCEPTABLE");

    let pem = |accept: &str| get(&format!("{V1}/signing-certificate")).insert_header(("accept", accept));
    let as_pem = h.call(pem("application/x-pem-file")).await.expect(200);
    assert_eq!(as_pem.header("content-type"), Some("application/x-pem-file"));
    let as_text = h.call(pem("text/plain")).await.expect(200);
    assert_eq!(as_text.header("content-type"), Some("text/plain; charset=utf-8"));
    assert_eq!(as_text.body, as_pem.body);
    assert!(String::from_utf8(as_text.body).unwrap().starts_with("-----BEGIN CERTIFICATE-----"));
}

#[actix_web::test]
async fn a_get_with_a_trailing_slash_is_sent_to_the_path_without_it() {
    let h = harness().await;
    let (operator, _, _) = verified_event(&h).await;
    let redirected = h.call(get(&format!("{V1}/clickwrap-templates/?limit=5")).app(&operator)).await;
    assert_eq!(redirected.status.as_u16(), 308);
    assert_eq!(redirected.header("location"), Some(format!("{V1}/clickwrap-templates?limit=5").as_str()));
    // Not for other methods, and never towards another site.
    h.call(post(&format!("{V1}/clickwrap/verify/"), &serde_json::json!({})).app(&operator))
        .await
        .problem(404, "ROUTE_NOT_FOUND");
    h.call(get("//evil.example/")).await.problem(404, "ROUTE_NOT_FOUND");
}
