//! One tenant's heavy requests do not hold up anyone else: against the real binary, a hostile
//! operator saves templates as heavy as the limits allow (and some far beyond them) from several
//! connections at once, while `/healthz` and another tenant's `GET /clickwrap` keep being asked.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use clickwrap_postgres::test_db::TestDatabase;
use common::{Response, command, drop_database, fresh_database_url, request, start_command};

/// How much later than when idle an answer may come while the hostile requests run.
const ALLOWED_DELAY: Duration = Duration::from_millis(100);

/// About the heaviest content the limits let through: nests of `<div>`s almost as deep as allowed,
/// up to the size limit (512 KiB) and nearly the element limit.
fn heavy_content() -> String {
    let depth = 120;
    let nest = "<div>".repeat(depth) + "clause" + &"</div>".repeat(depth);
    nest.repeat(512 * 1024 / nest.len())
}

fn timed(address: &str, path: &str) -> (Duration, Response) {
    let started = Instant::now();
    let response = request(address, "GET", path, &[], b"");
    (started.elapsed(), response)
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

#[test]
fn a_hostile_template_does_not_delay_health_or_another_tenants_check() {
    let db = TestDatabase::new_blocking();
    let url = fresh_database_url(&db);
    let mut prepared = command(&url);
    // One thread for CPU-heavy work: the hostile requests queue for it, not for request workers.
    prepared.arg("demo").env("CLICKWRAP_CPU_THREADS", "1");
    let server = start_command(prepared);
    let demo = server.demo_credentials();
    let address = server.address.clone();

    let hostile = command(&url).args(["tenant", "create", "--name", "Hostile"]).output().unwrap();
    assert!(hostile.status.success(), "{}", String::from_utf8_lossy(&hostile.stderr));
    let hostile: serde_json::Value = serde_json::from_slice(&hostile.stdout).unwrap();
    let token = format!("Bearer {}", hostile["operatorToken"].as_str().unwrap());

    let check = format!(
        "/public-client/v1/clickwrap?appId={}&clickwrapTemplateId={}&endUserId=someone",
        demo.app_id, demo.template_id
    );
    let mut idle = (Vec::new(), Vec::new());
    for _ in 0..20 {
        idle.0.push(timed(&address, "/healthz").0);
        let (took, answer) = timed(&address, &check);
        assert_eq!(answer.status, 200, "{}", answer.text());
        idle.1.push(took);
    }
    let (idle_health, idle_check) = (median(idle.0), median(idle.1));

    // The heaviest allowed content (one language: in a debug build each takes seconds), and
    // content nested far past the limit (which took seconds to sanitize before it was bounded).
    let heavy_body = serde_json::json!({"name": "Heavy", "content": {"en": heavy_content()}}).to_string();
    let deep_body = serde_json::json!({"name": "Deep", "content": {"en": "<div>".repeat(80_000)}}).to_string();

    let running = Arc::new(AtomicBool::new(true));
    let attackers: Vec<_> = (0..6)
        .map(|i| {
            let (address, token) = (address.clone(), token.clone());
            let body = if i % 3 == 2 { deep_body.clone() } else { heavy_body.clone() };
            std::thread::spawn(move || {
                let started = Instant::now();
                let answer = request(
                    &address,
                    "POST",
                    "/operator/v1/templates",
                    &[("Authorization", &token), ("Content-Type", "application/json")],
                    body.as_bytes(),
                );
                (answer, started.elapsed())
            })
        })
        .collect();

    let watcher = {
        let (address, running) = (address.clone(), running.clone());
        std::thread::spawn(move || {
            let mut loaded = (Vec::new(), Vec::new());
            // Measure while the hostile requests run.
            std::thread::sleep(Duration::from_millis(50));
            while running.load(Ordering::SeqCst) {
                loaded.0.push(timed(&address, "/healthz").0);
                let (took, answer) = timed(&address, &check);
                assert_eq!(answer.status, 200, "{}", answer.text());
                loaded.1.push(took);
                std::thread::sleep(Duration::from_millis(20));
            }
            loaded
        })
    };

    let mut busy_for = Duration::ZERO;
    for attacker in attackers {
        let (answer, took) = attacker.join().unwrap();
        busy_for = busy_for.max(took);
        let expected = if answer.status == 201 { None } else { Some("CONTENT_TOO_DEEP") };
        assert_eq!(answer.json()["code"].as_str(), expected, "{} {}", answer.status, answer.text());
    }
    running.store(false, Ordering::SeqCst);
    let (health, checks) = watcher.join().unwrap();

    let slowest_health = health.iter().max().copied().unwrap();
    let slowest_check = checks.iter().max().copied().unwrap();
    eprintln!(
        "hostile requests ran for {busy_for:?}; /healthz idle {idle_health:?}, slowest under load {slowest_health:?} \
         ({} samples); check idle {idle_check:?}, slowest under load {slowest_check:?}",
        health.len()
    );
    assert!(health.len() >= 3, "the hostile requests ended before they could be measured against ({busy_for:?})");
    assert!(slowest_health <= idle_health + ALLOWED_DELAY, "/healthz took {slowest_health:?} under load");
    assert!(slowest_check <= idle_check + ALLOWED_DELAY, "the other tenant's check took {slowest_check:?} under load");
    drop(server);
    drop_database(&db, &url);
}
