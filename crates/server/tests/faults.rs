//! The binary while its PostgreSQL restarts and while it is down (a throwaway cluster of the test's
//! own): 503 with `Retry-After`, never 500, and a verify stays safe to retry — once recorded, the
//! retry answers 409 with the event's id; not recorded, the retry records it.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use std::time::{Duration, Instant};

use clickwrap_postgres::test_cluster::{StopMode, ThrowawayCluster};
use common::{DemoCredentials, Response};

fn assert_unavailable(answer: &Response) {
    assert_eq!(answer.status, 503, "{}", answer.text());
    assert_eq!(answer.media_type(), Some("application/problem+json"));
    assert_eq!(answer.json()["code"], "SERVICE_UNAVAILABLE");
    let retry_after: u64 = answer.header("retry-after").expect("a 503 says when to retry").parse().unwrap();
    assert!(retry_after > 0);
}

/// Verifies `signature` until the answer is not 503 (each 503 checked), as an operator's backend
/// that honours `Retry-After` would, only faster.
fn verify_until_answered(address: &str, demo: &DemoCredentials, signature: &str) -> Response {
    let started = Instant::now();
    loop {
        let answer = common::verify(address, demo, signature);
        if answer.status != 503 {
            return answer;
        }
        assert_unavailable(&answer);
        assert!(started.elapsed() < Duration::from_secs(30), "still 503 after 30 s");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn verify_across_a_database_restart_answers_503_and_its_retry_409_with_the_event_id() {
    let Some(cluster) = ThrowawayCluster::start_or_skip() else { return };
    let server = common::start(&cluster.url().with_database("clickwrap").expose(), "demo");
    let demo = server.demo_credentials();
    let address = server.address.clone();

    // Recorded before the restart: a retry after it must not record it again.
    let signature = common::record_acceptance(&address, &demo, "fault-user-restart");
    let first = common::verify(&address, &demo, &signature);
    assert_eq!(first.status, 200, "{}", first.text());
    let event_id = first.json()["clickwrapEventId"].as_str().unwrap().to_owned();

    // Every pooled connection is closed by the restart; the requests that meet one answer 503.
    cluster.restart(StopMode::Fast).unwrap();
    let retried = verify_until_answered(&address, &demo, &signature);
    assert_eq!(retried.status, 409, "{}", retried.text());
    assert_eq!(retried.json()["code"], "SIGNATURE_ALREADY_VERIFIED");
    assert_eq!(retried.json()["clickwrapEventId"], event_id.as_str());

    // Down: verify and readiness answer 503; back (after crash recovery), the retry records it.
    let signature = common::record_acceptance(&address, &demo, "fault-user-down");
    cluster.stop(StopMode::Immediate).unwrap();
    assert_unavailable(&common::verify(&address, &demo, &signature));
    assert_unavailable(&common::verify(&address, &demo, &signature));
    assert_eq!(common::request(&address, "GET", "/readyz", &[], b"").status, 503);
    cluster.start_again().unwrap();
    let recorded = verify_until_answered(&address, &demo, &signature);
    assert_eq!(recorded.status, 200, "{}", recorded.text());
    let event_id = recorded.json()["clickwrapEventId"].as_str().unwrap().to_owned();
    let again = common::verify(&address, &demo, &signature);
    assert_eq!(again.status, 409, "{}", again.text());
    assert_eq!(again.json()["clickwrapEventId"], event_id.as_str());
    assert_eq!(common::request(&address, "GET", "/readyz", &[], b"").status, 200);

    // Unavailability is a warning; "storage failed" (an error, a 500) was never logged.
    let failures: Vec<String> = server.logs.try_iter().filter(|line| line.contains("storage failed")).collect();
    assert!(failures.is_empty(), "{failures:#?}");
}
