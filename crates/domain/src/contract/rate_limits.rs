//! The [`RateLimitStore`](crate::ports::RateLimitStore) contract.

use time::Duration;

use super::fixtures::{self, base_time};
use super::support::{Stores, Task, join_all};
use crate::Timestamp;
use crate::limits::rate::{RateLimitKey, RateLimitPolicy, RateLimitedRoute, WindowHits};

/// Runs every check of the rate-limit store.
pub async fn rate_limit_store_contract(stores: &Stores<'_>) {
    adds_per_key_and_window(stores).await;
    an_empty_batch_adds_nothing(stores).await;
    concurrent_batches_of_two_instances_add_up_exactly(stores).await;
}

fn hits(key: &RateLimitKey, window_start: Timestamp, hits: u64) -> WindowHits {
    WindowHits { key: key.clone(), window_start, hits }
}

async fn add(stores: &Stores<'_>, batch: &[WindowHits]) -> Vec<u64> {
    stores.rate_limits.add_hits(batch).await.unwrap()
}

async fn adds_per_key_and_window(stores: &Stores<'_>) {
    let (tenant, _) = fixtures::stored_tenant(stores).await;
    let app = fixtures::stored_app(stores, tenant.id).await;
    let other_app = fixtures::stored_app(stores, tenant.id).await;
    let window = RateLimitPolicy::per_hour(1000).window_start(base_time());
    let next_window = window.saturating_add(Duration::HOUR);

    let key = fixtures::rate_key(app.id);
    assert_eq!(add(stores, &[hits(&key, window, 1)]).await, [1], "rate limits: a first batch starts the count");
    assert_eq!(add(stores, &[hits(&key, window, 2)]).await, [3], "rate limits: the shared count after adding");

    let other_ip = RateLimitKey { client_ip: "2001:db8::17".to_owned(), ..key.clone() };
    let other_route = RateLimitKey { route: RateLimitedRoute::ClickwrapCheck, ..key.clone() };
    let third_route = RateLimitKey { route: RateLimitedRoute::Customizations, ..key.clone() };
    let record_route = RateLimitKey { route: RateLimitedRoute::ClickwrapRecord, ..key.clone() };
    let other_app_key = RateLimitKey { app_id: other_app.id, ..key.clone() };
    let separate = [&other_ip, &other_route, &third_route, &record_route, &other_app_key];
    let batch: Vec<WindowHits> = separate.iter().map(|separate| hits(separate, window, 5)).collect();
    assert_eq!(
        add(stores, &batch).await,
        [5, 5, 5, 5, 5],
        "rate limits: another client IP, route (each of them) and app have their own counts, answered in the batch's order"
    );
    assert_eq!(
        add(stores, &[hits(&other_ip, window, 1), hits(&key, window, 4), hits(&key, next_window, 7)]).await,
        [6, 7, 7],
        "rate limits: keys and windows count separately within one batch"
    );
    assert_eq!(
        add(stores, &[hits(&key, next_window, 1), hits(&other_route, next_window, 1)]).await,
        [8, 1],
        "rate limits: every key starts a new window from its own hits"
    );
}

async fn an_empty_batch_adds_nothing(stores: &Stores<'_>) {
    assert!(add(stores, &[]).await.is_empty(), "rate limits: an empty batch answers no counts");
}

/// Two instances sync the same keys at the same time, listing them in opposite orders (as hash
/// maps do): no hit is lost or added twice, and neither batch fails (no deadlock between them).
async fn concurrent_batches_of_two_instances_add_up_exactly(stores: &Stores<'_>) {
    let (tenant, _) = fixtures::stored_tenant(stores).await;
    let app = fixtures::stored_app(stores, tenant.id).await;
    let window = RateLimitPolicy::per_hour(1000).window_start(base_time());
    let keys: Vec<RateLimitKey> = (1..=200)
        .map(|n| RateLimitKey { client_ip: format!("2001:db8::{n:x}"), ..fixtures::rate_key(app.id) })
        .collect();
    // Instance one adds 1 per key per batch, instance two 10; each syncs 4 times.
    let one: Vec<WindowHits> = keys.iter().map(|key| hits(key, window, 1)).collect();
    let two: Vec<WindowHits> = keys.iter().rev().map(|key| hits(key, window, 10)).collect();
    let batches: Vec<&[WindowHits]> = (0..8).map(|n| if n % 2 == 0 { &one[..] } else { &two[..] }).collect();
    let tasks: Vec<Task<'_, _>> = batches.iter().map(|batch| stores.rate_limits.add_hits(batch)).collect();
    let answers: Vec<Vec<u64>> = join_all(tasks)
        .await
        .into_iter()
        .map(|totals| totals.expect("rate limits: a concurrent batch failed"))
        .collect();
    for (n, key) in keys.iter().enumerate() {
        let mut seen: Vec<u64> = answers
            .iter()
            .zip(&batches)
            .map(|(totals, batch)| {
                let at = batch.iter().position(|sent| &sent.key == key).unwrap();
                totals[at]
            })
            .collect();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 8, "rate limits: each batch saw a different count of key {n}: {seen:?}");
        assert_eq!(seen.last(), Some(&44), "rate limits: 4 × 1 + 4 × 10 hits of key {n} add up to 44");
    }
    let after: Vec<u64> = add(stores, &keys.iter().map(|key| hits(key, window, 1)).collect::<Vec<_>>()).await;
    assert_eq!(after, vec![45; keys.len()], "rate limits: and the next batch counts on from there");
}
