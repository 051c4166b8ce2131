//! The retention settings reach the webhook purge of the real binary: a delivered delivery past
//! `CLICKWRAP_WEBHOOK_RETENTION_DAYS` goes at start, with its attempts, and `/metrics` counts them;
//! a failed one of the same age stays (`CLICKWRAP_WEBHOOK_FAILED_RETENTION_DAYS` is longer); the
//! events stay, the purged one's details with `"webhook": null`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use std::process::Command;
use std::time::{Duration, Instant};

use clickwrap_postgres::test_db::TestDatabase;
use common::{DemoCredentials, Server, drop_database, fresh_database_url, record_acceptance, request, verify};

fn start_instance(url: &str, subcommand: &str) -> Server {
    let mut command = common::command(url);
    command
        .env("CLICKWRAP_WEBHOOK_RETENTION_DAYS", "7")
        .env("CLICKWRAP_WEBHOOK_FAILED_RETENTION_DAYS", "30")
        .arg(subcommand);
    common::start_command(command)
}

fn stop(mut server: Server) {
    let sent = Command::new("kill").args(["-TERM", &server.child.id().to_string()]).status().unwrap();
    assert!(sent.success());
    let status = server.child.wait().unwrap();
    assert!(status.success(), "{status:?}");
}

fn verified_event(server: &Server, demo: &DemoCredentials, end_user: &str) -> String {
    let signature = record_acceptance(&server.address, demo, end_user);
    let verified = verify(&server.address, demo, &signature);
    assert_eq!(verified.status, 200, "{}", verified.text());
    verified.json()["clickwrapEventId"].as_str().unwrap().to_owned()
}

/// Makes the event's delivery `state`, its last attempt ten days ago, with `attempts` attempts.
fn age_delivery(url: &str, event: &str, state: &str, attempts: i32) {
    let (url, event, state) = (url.to_owned(), event.to_owned(), state.to_owned());
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async move {
        use diesel::sql_types::{Int4, Text};
        use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
        let mut conn = AsyncPgConnection::establish(&url).await.unwrap();
        diesel::sql_query(
            "DELETE FROM webhook_attempts WHERE delivery_id IN \
             (SELECT id FROM webhook_deliveries WHERE event_id = $1::uuid)",
        )
        .bind::<Text, _>(&event)
        .execute(&mut conn)
        .await
        .unwrap();
        let changed = diesel::sql_query(
            "UPDATE webhook_deliveries SET state = $2, next_attempt_at = NULL, lease_owner = NULL, lease_until = NULL, \
             attempts = $3, round_attempts = $3, created_at = now() - interval '11 days', \
             last_attempt_at = now() - interval '10 days' WHERE event_id = $1::uuid",
        )
        .bind::<Text, _>(&event)
        .bind::<Text, _>(&state)
        .bind::<Int4, _>(attempts)
        .execute(&mut conn)
        .await
        .unwrap();
        assert_eq!(changed, 1);
        diesel::sql_query(
            "INSERT INTO webhook_attempts (id, tenant_id, delivery_id, attempt, request_body, response_status, \
                 started_at, duration_ms) \
             SELECT gen_random_uuid(), d.tenant_id, d.id, n, d.payload, 200, d.last_attempt_at, 5 \
             FROM webhook_deliveries AS d, generate_series(1, $2) AS n WHERE d.event_id = $1::uuid",
        )
        .bind::<Text, _>(&event)
        .bind::<Int4, _>(attempts)
        .execute(&mut conn)
        .await
        .unwrap();
    });
}

fn purged(metrics: &str, kind: &str) -> u64 {
    let prefix = format!("clickwrap_purged_rows_total{{kind=\"{kind}\"}} ");
    metrics
        .lines()
        .find_map(|line| line.strip_prefix(&prefix))
        .unwrap_or_else(|| panic!("/metrics shows {prefix}: {metrics}"))
        .trim()
        .parse()
        .unwrap()
}

fn details(server: &Server, demo: &DemoCredentials, event: &str) -> serde_json::Value {
    let app = [("X-APP-ID", demo.app_id.as_str()), ("X-APP-KEY", demo.app_key.as_str())];
    let answer =
        request(&server.address, "GET", &format!("/public-client/v1/clickwrap-events/{event}/details"), &app, b"");
    assert_eq!(answer.status, 200, "{}", answer.text());
    answer.json()
}

#[test]
fn the_webhook_retention_settings_are_applied_and_counted() {
    let db = TestDatabase::new_blocking();
    let url = fresh_database_url(&db);
    let first = start_instance(&url, "demo");
    let demo = first.demo_credentials();
    let delivered = verified_event(&first, &demo, "retention-delivered");
    let failed = verified_event(&first, &demo, "retention-failed");
    stop(first);
    age_delivery(&url, &delivered, "DELIVERED", 2);
    age_delivery(&url, &failed, "FAILED", 4);

    // The purge runs at start, then every ten minutes.
    let server = start_instance(&url, "serve");
    let started = Instant::now();
    let metrics = loop {
        let metrics = common::get(&server.address, "/metrics");
        if purged(&metrics, "webhook_deliveries") > 0 {
            break metrics;
        }
        assert!(started.elapsed() < Duration::from_secs(60), "nothing purged within 60 s: {metrics}");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(purged(&metrics, "webhook_deliveries"), 1, "{metrics}");
    assert_eq!(purged(&metrics, "webhook_attempts"), 2, "{metrics}");
    assert_eq!(purged(&metrics, "unverified_events"), 0, "{metrics}");

    let gone = details(&server, &demo, &delivered);
    assert_eq!(gone["clickwrapEventStatus"], "ACCEPTED", "{gone}");
    assert!(gone["webhook"].is_null(), "{gone}");
    let kept = details(&server, &demo, &failed);
    assert_eq!(kept["webhook"]["state"], "FAILED", "{kept}");
    assert_eq!(kept["webhook"]["attempts"], 4, "{kept}");
    let certificate = request(
        &server.address,
        "GET",
        &format!("/public-client/v1/clickwrap-events/{delivered}/certificate"),
        &[("X-APP-ID", demo.app_id.as_str()), ("X-APP-KEY", demo.app_key.as_str())],
        b"",
    );
    assert_eq!(certificate.status, 200, "the certificate stays");
    stop(server);
    drop_database(&db, &url);
}
