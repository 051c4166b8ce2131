//! The real binary, started the way operators and the acceptance tests start it.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::Command;
use std::time::Duration;

use clickwrap_postgres::test_db::TestDatabase;
use common::{command, drop_database, fresh_database_url, get, http, start};

#[test]
fn tenant_create_prints_json_and_creates_the_database() {
    let db = TestDatabase::new_blocking();
    let url = fresh_database_url(&db);
    let output = command(&url).args(["tenant", "create", "--name", "Acme", "--event-quota", "500"]).output().unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let printed: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(printed.as_object().unwrap().len(), 2, "{printed}");
    assert_eq!(printed["tenantId"].as_str().unwrap().len(), 36);
    assert!(printed["operatorToken"].as_str().unwrap().starts_with("ot_"));
    // The token is never logged.
    assert!(!String::from_utf8_lossy(&output.stderr).contains(printed["operatorToken"].as_str().unwrap()));

    let quota = command(&url)
        .args(["tenant", "set-quota", "--tenant-id", printed["tenantId"].as_str().unwrap(), "--unlimited"])
        .output()
        .unwrap();
    assert!(quota.status.success(), "{}", String::from_utf8_lossy(&quota.stderr));
    drop_database(&db, &url);
}

#[test]
fn health_readiness_metrics_and_openapi_are_served() {
    let db = TestDatabase::new_blocking();
    let url = fresh_database_url(&db);
    let server = start(&url, "serve");
    assert!(get(&server.address, "/healthz").starts_with("HTTP/1.1 200"));
    assert!(get(&server.address, "/readyz").starts_with("HTTP/1.1 200"));
    let metrics = get(&server.address, "/metrics");
    assert!(
        metrics.contains("clickwrap_http_requests_total{method=\"GET\",route=\"/readyz\",status=\"200\"} 1"),
        "{metrics}"
    );
    let openapi = get(&server.address, "/openapi.json");
    assert!(openapi.starts_with("HTTP/1.1 200") && openapi.contains("\"openapi\""));
    let wrong_method =
        http(&server.address, "POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
    assert!(
        wrong_method.starts_with("HTTP/1.1 405") && wrong_method.to_ascii_lowercase().contains("allow: get"),
        "{wrong_method}"
    );
    let sdk = get(&server.address, "/sdk/v1/clickwrap.js");
    assert!(sdk.starts_with("HTTP/1.1 200") && sdk.contains("text/javascript") && sdk.contains("ClickwrapClient"));
    let missing = get(&server.address, "/nope");
    assert!(missing.starts_with("HTTP/1.1 404") && missing.contains("application/problem+json"));
    // The demo page exists only under `clickwrap-server demo`.
    let demo = get(&server.address, "/demo");
    assert!(demo.starts_with("HTTP/1.1 404") && demo.contains("ROUTE_NOT_FOUND"), "{demo}");
    // Every log line is JSON and carries the request id of its request.
    let lines: Vec<String> = server.logs.try_iter().collect();
    let request_lines: Vec<serde_json::Value> = lines
        .iter()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|l| l["message"] == "request")
        .collect();
    assert!(!request_lines.is_empty(), "{lines:?}");
    assert!(
        request_lines.iter().all(|l| l["span"]["request_id"].as_str().is_some_and(|id| !id.is_empty())),
        "{lines:?}"
    );
    drop(server);
    drop_database(&db, &url);
}

#[test]
fn a_bad_configuration_value_is_refused_with_a_clear_message() {
    let output = command("postgres://postgres@127.0.0.1:5432/unused")
        .env("CLICKWRAP_LISTEN", "not-an-address")
        .env("CLICKWRAP_RATE_LIMIT_PER_HOUR", "lots")
        .arg("serve")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("CLICKWRAP_LISTEN=\"not-an-address\""), "{stderr}");
    assert!(stderr.contains("CLICKWRAP_RATE_LIMIT_PER_HOUR=\"lots\""), "{stderr}");
}

#[test]
fn an_unreachable_database_is_reported_with_its_url_and_no_password() {
    let output = command("postgres://app:s3cret@127.0.0.1:1/clickwrap_orders").arg("serve").output().unwrap();
    assert_eq!(output.status.code(), Some(3));
    let stderr = String::from_utf8_lossy(&output.stderr);
    // The configured database, not the server's `postgres` database it first connects to.
    assert!(
        stderr.contains("for the database clickwrap_orders at postgres://app:***@127.0.0.1:1/clickwrap_orders"),
        "{stderr}"
    );
    assert!(!stderr.contains("s3cret"), "{stderr}");
    assert!(stderr.contains("nothing answers at 127.0.0.1:1 (connection refused)"), "{stderr}");
    assert!(stderr.contains("Start a PostgreSQL server"), "{stderr}");
    // `serve` never starts a PostgreSQL of its own.
    assert!(!stderr.contains("so the demo started"), "{stderr}");
}

#[test]
fn a_database_host_that_does_not_resolve_is_told_from_a_refused_connection() {
    let output = command("postgres://app@db.clickwrap.invalid:5432/clickwrap").arg("serve").output().unwrap();
    assert_eq!(output.status.code(), Some(3));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("for the database clickwrap at postgres://app@db.clickwrap.invalid:5432/clickwrap"),
        "{stderr}"
    );
    assert!(stderr.contains("the host name \"db.clickwrap.invalid\" does not resolve (DNS"), "{stderr}");
    assert!(stderr.contains("Check the host name in DATABASE_URL"), "{stderr}");
    assert!(!stderr.contains("connection refused"), "{stderr}");
}

#[test]
fn sigterm_lets_a_request_in_flight_finish() {
    let db = TestDatabase::new_blocking();
    let url = fresh_database_url(&db);
    let mut server = start(&url, "serve");
    // A request whose body is still arriving when the signal comes.
    let mut stream = TcpStream::connect(&server.address).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let body = r#"{"serviceSignature":"x"}"#;
    write!(
        stream,
        "POST /public-client/v1/clickwrap/verify HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{}",
        body.len(),
        &body[..5]
    )
    .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let killed = Command::new("kill").args(["-TERM", &server.child.id().to_string()]).status().unwrap();
    assert!(killed.success());
    std::thread::sleep(Duration::from_millis(300));
    stream.write_all(&body.as_bytes()[5..]).unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    // The request was answered (401: it carries no credentials), not cut off.
    assert!(response.starts_with("HTTP/1.1 401"), "{response}");
    let status = server.child.wait().unwrap();
    assert!(status.success(), "{status:?}");
    // New connections are refused once it has stopped.
    assert!(TcpStream::connect(&server.address).is_err());
    drop_database(&db, &url);
}
