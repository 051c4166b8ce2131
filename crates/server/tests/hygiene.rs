//! HTTP and logging hygiene of the real binary: the SDK's transfer size, security headers on
//! pages and scripts, no personal data in the log even at trace level, a closed standard error,
//! `/metrics` on its own address, and `CLICKWRAP_LOG` checked like every other setting.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing, clippy::print_stdout)]

mod common;

use std::io::Read;
use std::process::Stdio;
use std::sync::mpsc;
use std::time::Duration;

use base64ct::{Base64, Encoding as _};
use clickwrap_postgres::test_db::TestDatabase;
use clickwrap_web_sdk as sdk;
use common::{command, drop_database, fresh_database_url, record_action_with, request, start, start_command, verify};

#[test]
fn the_sdk_goes_out_compressed_and_answers_head() {
    let db = TestDatabase::new_blocking();
    let url = fresh_database_url(&db);
    let server = start(&url, "serve");
    let fetch = |encoding: &[(&str, &str)]| request(&server.address, "GET", sdk::CLICKWRAP_JS_PATH, encoding, b"");

    let identity = fetch(&[]);
    assert_eq!(identity.status, 200);
    assert_eq!(identity.header("content-encoding"), None);
    assert_eq!(identity.body, sdk::CLICKWRAP_JS.as_bytes());

    let gzip = fetch(&[("Accept-Encoding", "gzip")]);
    assert_eq!(gzip.header("content-encoding"), Some("gzip"));
    let mut unzipped = Vec::new();
    flate2::read::GzDecoder::new(&gzip.body[..]).read_to_end(&mut unzipped).unwrap();
    assert_eq!(unzipped, sdk::CLICKWRAP_JS.as_bytes());

    // What a current browser sends.
    let brotli = fetch(&[("Accept-Encoding", "gzip, deflate, br, zstd")]);
    assert_eq!(brotli.header("content-encoding"), Some("br"));
    let mut unbrotlied = Vec::new();
    brotli_decompressor::Decompressor::new(&brotli.body[..], 4096).read_to_end(&mut unbrotlied).unwrap();
    assert_eq!(unbrotlied, sdk::CLICKWRAP_JS.as_bytes());
    assert_eq!(brotli.header("cache-control"), Some("public, max-age=3600"));
    assert!(brotli.header("vary").is_some_and(|v| v.eq_ignore_ascii_case("accept-encoding")));

    println!(
        "{} transfer size: identity {} bytes, gzip {} bytes, br {} bytes",
        sdk::CLICKWRAP_JS_PATH,
        identity.body.len(),
        gzip.body.len(),
        brotli.body.len()
    );
    assert!(gzip.body.len() * 2 < identity.body.len(), "gzip {} of {}", gzip.body.len(), identity.body.len());
    assert!(brotli.body.len() < gzip.body.len(), "br {} gzip {}", brotli.body.len(), gzip.body.len());
    // Compressed once at the best level: within the SDK's budget of 15 KB gzipped.
    assert!(gzip.body.len() <= 15 * 1024, "gzip {}", gzip.body.len());

    // Each representation has its own tag, and a cache revalidates the one it holds.
    let tags = [&identity, &gzip, &brotli].map(|answer| answer.header("etag").unwrap().to_owned());
    assert!(tags[0] != tags[1] && tags[1] != tags[2] && tags[0] != tags[2], "{tags:?}");
    let revalidated = fetch(&[("Accept-Encoding", "br"), ("If-None-Match", tags[2].as_str())]);
    assert_eq!((revalidated.status, revalidated.body.len()), (304, 0));
    let other_representation = fetch(&[("Accept-Encoding", "gzip"), ("If-None-Match", tags[2].as_str())]);
    assert_eq!(other_representation.status, 200);

    // HEAD: the GET's headers, its length, no body.
    let head = request(&server.address, "HEAD", sdk::CLICKWRAP_JS_PATH, &[], b"");
    assert_eq!(head.status, 200);
    assert_eq!(head.header("content-length"), Some(identity.body.len().to_string().as_str()));
    assert_eq!(head.header("etag"), identity.header("etag"));
    assert!(head.body.is_empty());
    let health = request(&server.address, "HEAD", "/healthz", &[], b"");
    assert_eq!((health.status, health.body.len()), (200, 0));
    drop(server);
    drop_database(&db, &url);
}

#[test]
fn pages_scripts_and_the_rest_carry_the_security_headers_and_their_cache_policy() {
    let db = TestDatabase::new_blocking();
    let url = fresh_database_url(&db);
    let server = start(&url, "demo");
    let address = server.address.as_str();

    for path in ["/demo", "/console/login", "/console/no-such-page"] {
        let page = request(address, "GET", path, &[], b"");
        assert_eq!(page.media_type(), Some("text/html"), "{path}");
        let policy = page.header("content-security-policy").unwrap_or_else(|| panic!("{path}: no CSP"));
        assert!(policy.contains("frame-ancestors 'none'") && !policy.contains("unsafe-"), "{path}: {policy}");
        assert_eq!(page.header("x-frame-options"), Some("DENY"), "{path}");
        assert_eq!(page.header("x-content-type-options"), Some("nosniff"), "{path}");
        assert_eq!(page.header("cache-control"), Some("no-store"), "{path}");
    }

    // The demo page's inline script and style run because the policy names their hashes.
    let demo = request(address, "GET", "/demo", &[], b"");
    let policy = demo.header("content-security-policy").unwrap();
    let text = demo.text();
    for (open, close) in [("<script>", "</script>"), ("<style>", "</style>")] {
        let block = text.split(open).nth(1).and_then(|rest| rest.split(close).next()).unwrap();
        let digest = ring::digest::digest(&ring::digest::SHA256, block.as_bytes());
        let source = format!("'sha256-{}'", Base64::encode_string(digest.as_ref()));
        assert!(policy.contains(&source), "{open} {source} not in {policy}");
    }

    let expected = [
        (sdk::CLICKWRAP_JS_PATH, "public, max-age=3600"),
        ("/console/assets/console.css", "no-cache"),
        ("/openapi.json", "public, max-age=300"),
        ("/healthz", "no-store"),
        ("/metrics", "no-store"),
        ("/public-client/v1/signing-certificate", "public, max-age=3600"),
    ];
    for (path, cache) in expected {
        let reply = request(address, "GET", path, &[], b"");
        assert_eq!(reply.status, 200, "{path}");
        assert_eq!(reply.header("x-content-type-options"), Some("nosniff"), "{path}");
        assert_eq!(reply.header("cache-control"), Some(cache), "{path}");
    }
    drop(server);
    drop_database(&db, &url);
}

/// Every line the server wrote, on both streams, until it exited.
fn everything_written(server: &mut common::Server) -> String {
    let _ = server.child.kill();
    let _ = server.child.wait();
    let drain = |lines: &mpsc::Receiver<String>| {
        let mut out = Vec::new();
        while let Ok(line) = lines.recv_timeout(Duration::from_secs(5)) {
            out.push(line);
        }
        out
    };
    let mut all = drain(&server.logs);
    all.extend(drain(&server.stdout));
    all.join("\n")
}

#[test]
fn a_consent_at_trace_level_leaves_no_personal_data_in_the_log() {
    let db = TestDatabase::new_blocking();
    let url = fresh_database_url(&db);
    let mut prepared = command(&url);
    prepared.arg("demo").env("CLICKWRAP_LOG", "trace");
    let mut server = start_command(prepared);
    let demo = server.demo_credentials();
    let address = server.address.clone();

    let end_user = "planted-enduser-q7x";
    let full_name = "Quirinus Plantedname";
    let email = "q.planted@example.org";
    let user_agent = "PlantedAgent/7.7 (Zqxw)";
    let placeholders = serde_json::json!({"fullName": full_name, "email": email});
    let signature =
        record_action_with(&address, &demo, end_user, "ACCEPTED", Some(placeholders), &[("User-Agent", user_agent)]);
    let verified = verify(&address, &demo, &signature);
    assert_eq!(verified.status, 200, "{}", verified.text());
    let event = verified.json()["clickwrapEventId"].as_str().unwrap().to_owned();
    let app = [("X-APP-ID", demo.app_id.as_str()), ("X-APP-KEY", demo.app_key.as_str())];
    for path in [
        format!("/public-client/v1/clickwraps/{end_user}/status"),
        format!("/public-client/v1/clickwrap-events/{event}/details"),
        format!("/public-client/v1/clickwrap-events?endUserId={end_user}"),
        // Also when the answer is 401.
        format!("/public-client/v1/clickwraps/{end_user}/status?appKey=leaked"),
    ] {
        let reply = request(&address, "GET", &path, &app, b"");
        assert!([200, 401].contains(&reply.status), "{path}: {}", reply.status);
    }
    let details = request(&address, "GET", &format!("/public-client/v1/clickwrap-events/{event}/details"), &app, b"");
    assert!(details.text().contains(full_name), "the planted name is in the record, so it could have leaked");

    let log = everything_written(&mut server);
    assert!(log.lines().count() > 200, "trace logging was on: {} lines", log.lines().count());
    assert!(log.contains("\"level\":\"TRACE\""), "trace lines were written");
    assert!(log.contains("/public-client/v1/clickwraps/{endUserId}/status"), "requests are logged by their route");
    for planted in [end_user, "Plantedname", "Quirinus", email, "q.planted%40example.org", "PlantedAgent", "Zqxw"] {
        // As text, and as the byte lists the driver's parameter lines print (`[81, 117, …]`).
        let bytes = format!("{:?}", planted.as_bytes());
        let as_bytes = bytes.trim_start_matches('[').trim_end_matches(']');
        let leaks: Vec<&str> =
            log.lines().filter(|line| line.contains(planted) || line.contains(as_bytes)).take(3).collect();
        assert!(leaks.is_empty(), "{planted:?} is in the log:\n{}", leaks.join("\n"));
    }
    drop(server);
    drop_database(&db, &url);
}

#[test]
fn a_closed_standard_error_does_not_stop_the_server() {
    let db = TestDatabase::new_blocking();
    let url = fresh_database_url(&db);
    let mut prepared = command(&url);
    prepared.arg("serve").env("CLICKWRAP_LOG", "debug");
    let mut server = start_command(prepared);
    // The reader of standard error goes away; its thread closes the pipe at the next line.
    drop(std::mem::replace(&mut server.logs, mpsc::channel().1));
    for _ in 0..50 {
        let reply = request(&server.address, "GET", "/healthz", &[], b"");
        assert_eq!(reply.status, 200);
        let refused = request(&server.address, "GET", "/public-client/v1/clickwrap-events", &[], b"");
        assert_eq!(refused.status, 401);
    }
    assert!(server.child.try_wait().unwrap().is_none(), "the server is still running");
    drop(server);
    drop_database(&db, &url);
}

#[test]
fn metrics_can_listen_on_their_own_address() {
    let db = TestDatabase::new_blocking();
    let url = fresh_database_url(&db);
    let free = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let metrics_address = free.local_addr().unwrap().to_string();
    drop(free);
    let mut prepared = command(&url);
    prepared.arg("serve").env("CLICKWRAP_METRICS_LISTEN", &metrics_address);
    let server = start_command(prepared);

    assert_eq!(request(&server.address, "GET", "/healthz", &[], b"").status, 200);
    let public = request(&server.address, "GET", "/metrics", &[], b"");
    assert_eq!(public.status, 404, "not on the public listener");
    let metrics = request(&metrics_address, "GET", "/metrics", &[], b"");
    assert_eq!(metrics.status, 200);
    assert!(
        metrics.text().contains("clickwrap_http_requests_total{method=\"GET\",route=\"/healthz\",status=\"200\"} 1"),
        "{}",
        metrics.text()
    );
    assert_eq!(request(&metrics_address, "GET", "/healthz", &[], b"").status, 404, "only /metrics there");
    drop(server);
    drop_database(&db, &url);
}

#[test]
fn a_bad_log_filter_is_refused_at_start() {
    // Refused while reading the configuration, before any database is reached.
    let output = command("postgres://postgres@127.0.0.1:1/unused")
        .arg("serve")
        .env("CLICKWRAP_LOG", "inf")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("CLICKWRAP_LOG=\"inf\""), "{stderr}");
}
