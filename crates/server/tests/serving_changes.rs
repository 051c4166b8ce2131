//! Two server processes on one database keep their serving caches in step: a change made through
//! one is announced (`NOTIFY clickwrap_serving`, by a trigger in the changing transaction) and the
//! other forgets just that entry. Both keep entries for a minute, so nothing but the announcement
//! can make the other serve the change within the test's deadlines.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use std::process::Command;
use std::time::{Duration, Instant};

use clickwrap_postgres::test_db::TestDatabase;
use common::{DemoCredentials, Response, Server, drop_database, fresh_database_url, request};

/// The direct URL carries LISTEN also when the tests run through a transaction-mode pooler
/// (without it, such an instance cannot listen and keeps entries for the whole minute).
fn start_instance(url: &str, subcommand: &str) -> Server {
    let mut command = common::command(url);
    command.env("CLICKWRAP_SERVING_CACHE_MS", "60000").env("CLICKWRAP_DATABASE_DIRECT_URL", url).arg(subcommand);
    common::start_command(command)
}

fn customizations(server: &Server, demo: &DemoCredentials, origin: &str) -> Response {
    let path = format!(
        "/public-client/v1/clickwrap/customizations?appId={}&clickwrapTemplateId={}",
        demo.app_id, demo.template_id
    );
    request(&server.address, "GET", &path, &[("Origin", origin)], b"")
}

fn operator(server: &Server, demo: &DemoCredentials, method: &str, path: &str, body: &str) {
    let bearer = format!("Bearer {}", demo.operator_token);
    let headers = [("Authorization", bearer.as_str()), ("Content-Type", "application/json")];
    let answer = request(&server.address, method, &format!("/operator/v1{path}"), &headers, body.as_bytes());
    assert!(answer.status < 300, "{method} {path}: {} {}", answer.status, answer.text());
}

/// Waits until `server` answers `status`; how long that took.
fn until_status(what: &str, status: u16, answer: impl Fn() -> Response) -> Duration {
    let started = Instant::now();
    loop {
        let got = answer().status;
        if got == status {
            return started.elapsed();
        }
        assert!(started.elapsed() < Duration::from_secs(10), "{what}: still {got} after 10 s");
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn stop(mut server: Server) {
    let sent = Command::new("kill").args(["-TERM", &server.child.id().to_string()]).status().unwrap();
    assert!(sent.success());
    assert!(server.child.wait().unwrap().success());
}

#[test]
fn a_change_through_one_process_is_served_by_the_other_once_announced() {
    let db = TestDatabase::new_blocking();
    let url = fresh_database_url(&db);
    let one = start_instance(&url, "demo");
    let demo = one.demo_credentials();
    let two = start_instance(&url, "serve");
    let shop = "https://shop.example.com";
    // Both serve the template, and keep it (and the app) for a minute.
    until_status("the template served by the other process", 200, || customizations(&two, &demo, shop));
    assert_eq!(customizations(&one, &demo, shop).status, 200);

    let template = format!("/templates/{}", demo.template_id);
    operator(&one, &demo, "POST", &format!("{template}/disable"), "");
    until_status("the disabled template", 404, || customizations(&two, &demo, shop));
    operator(&one, &demo, "POST", &format!("{template}/enable"), "");
    until_status("the enabled template", 200, || customizations(&two, &demo, shop));

    // Through the other process this time, and an app's setting: an origin no longer allowed.
    operator(
        &two,
        &demo,
        "PATCH",
        &format!("/apps/{}", demo.app_id),
        r#"{"allowedOrigins":["https://new.example.com"]}"#,
    );
    until_status("the origin removed", 403, || customizations(&one, &demo, shop));
    assert_eq!(customizations(&one, &demo, "https://new.example.com").status, 200);

    stop(one);
    stop(two);
    drop_database(&db, &url);
}
