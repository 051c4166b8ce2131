//! The [`RateLimitStore`](crate::ports::RateLimitStore) contract.

use time::Duration;

use super::fixtures::{self, base_time};
use super::{Stores, Task, join_all};
use crate::Timestamp;
use crate::limits::rate::{RateLimitKey, RateLimitPolicy, RateLimitedRoute};

/// Runs every check of the rate-limit store.
pub async fn rate_limit_store_contract(stores: &Stores<'_>) {
    counts_per_key_and_window(stores).await;
    concurrent_hits_are_all_counted(stores).await;
}

async fn hit(stores: &Stores<'_>, key: &RateLimitKey, window: Timestamp) -> u64 {
    stores.rate_limits.hit(key, window).await.unwrap()
}

async fn counts_per_key_and_window(stores: &Stores<'_>) {
    let (tenant, _) = fixtures::stored_tenant(stores).await;
    let app = fixtures::stored_app(stores, tenant.id).await;
    let other_app = fixtures::stored_app(stores, tenant.id).await;
    let policy = RateLimitPolicy::per_hour(1000);
    let window = policy.window_start(base_time());
    let next_window = window.saturating_add(Duration::HOUR);

    let key = fixtures::rate_key(app.id);
    for expected in 1..=3 {
        assert_eq!(
            hit(stores, &key, window).await,
            expected,
            "rate limits: hit returns the window's count including this request"
        );
    }

    let other_ip = RateLimitKey { client_ip: "2001:db8::17".to_owned(), ..key.clone() };
    let other_route = RateLimitKey { route: RateLimitedRoute::ClickwrapCheck, ..key.clone() };
    let third_route = RateLimitKey { route: RateLimitedRoute::Customizations, ..key.clone() };
    let record_route = RateLimitKey { route: RateLimitedRoute::ClickwrapRecord, ..key.clone() };
    let other_app_key = RateLimitKey { app_id: other_app.id, ..key.clone() };
    for (label, separate) in [
        ("another client IP", &other_ip),
        ("another route", &other_route),
        ("a third route", &third_route),
        ("the record route", &record_route),
        ("another app", &other_app_key),
    ] {
        assert_eq!(hit(stores, separate, window).await, 1, "rate limits: {label} has its own count");
    }
    assert_eq!(hit(stores, &other_ip, window).await, 2, "rate limits: separate keys keep counting separately");
    assert_eq!(hit(stores, &key, window).await, 4, "rate limits: other keys' hits did not change this key's count");

    assert_eq!(hit(stores, &key, next_window).await, 1, "rate limits: a new window starts again at 1");
    assert_eq!(hit(stores, &key, next_window).await, 2, "rate limits: the new window counts on");
    assert_eq!(hit(stores, &other_route, next_window).await, 1, "rate limits: every key starts the new window at 1");
}

async fn concurrent_hits_are_all_counted(stores: &Stores<'_>) {
    let (tenant, _) = fixtures::stored_tenant(stores).await;
    let app = fixtures::stored_app(stores, tenant.id).await;
    let key = fixtures::rate_key(app.id);
    let window = RateLimitPolicy::per_hour(1000).window_start(base_time());
    let tasks: Vec<Task<'_, _>> = (0..8).map(|_| stores.rate_limits.hit(&key, window)).collect();
    let mut counts: Vec<u64> =
        join_all(tasks).await.into_iter().map(|count| count.expect("rate limits: a concurrent hit failed")).collect();
    counts.sort_unstable();
    assert_eq!(
        counts,
        (1..=8).collect::<Vec<u64>>(),
        "rate limits: 8 concurrent first hits of one key are counted 1 to 8, each once"
    );
    assert_eq!(hit(stores, &key, window).await, 9, "rate limits: and the next hit is the 9th");
}
