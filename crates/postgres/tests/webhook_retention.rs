//! Purging finished webhook deliveries past their retention: delivered ones after their period,
//! failed and disabled ones after theirs, each with its attempts; never a pending (or redelivered)
//! one, never an event or a certificate; in batches; one instance at a time, without waiting on
//! rows someone holds; through the partial index.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)] // test code

use clickwrap_domain::contract;
use clickwrap_domain::contract::fixtures::{self, Seed, base_plus_secs};
use clickwrap_domain::contract::support::Stores;
use clickwrap_domain::ports::DeliveryStore;
use clickwrap_domain::webhooks::models::DeliveryState;
use clickwrap_domain::webhooks::retention::{DeliveryRetention, RetentionCutoffs};
use clickwrap_domain::{DeliveryId, EventId, Timestamp};
use clickwrap_postgres::test_db::TestDatabase;
use clickwrap_postgres::{PgStore, PurgedDeliveries, WEBHOOK_PURGE_LOCK};
use diesel::QueryableByName;
use diesel::sql_types::{BigInt, Int4, Text, Timestamptz, Uuid as SqlUuid};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use time::Duration;

async fn connect(db: &TestDatabase) -> AsyncPgConnection {
    AsyncPgConnection::establish(&db.url().expose()).await.unwrap()
}

/// "Now" for every test: far enough after the fixtures' events for every retention to have run out.
fn now() -> Timestamp {
    base_plus_secs(400 * 86_400)
}

fn days_ago(days: i64) -> Timestamp {
    now().saturating_sub(Duration::days(days))
}

fn default_cutoffs() -> RetentionCutoffs {
    DeliveryRetention::DEFAULT.cutoffs(now())
}

/// A verified (ACCEPTED, so with a certificate) event of the seeded app and its PENDING delivery.
async fn verified_with_delivery(stores: &Stores<'_>, seed: &Seed) -> (EventId, DeliveryId) {
    let event = contract::fixtures::verified_event(stores, seed.event().build(), base_plus_secs(1)).await;
    let delivery = stores.events.find_delivery_for_event(seed.tenant.id, event.id).await.unwrap().expect("a delivery");
    (event.id, delivery.id)
}

/// Puts a delivery in `state`, last active at `last_active`: with `attempts` attempts, the last one
/// then; with none, created then (a DISABLED delivery that was never sent).
async fn finish(
    conn: &mut AsyncPgConnection,
    id: DeliveryId,
    state: DeliveryState,
    last_active: Timestamp,
    attempts: i32,
) {
    let last_active = last_active.as_datetime();
    let next_attempt_at = (state == DeliveryState::Pending).then(|| last_active + Duration::minutes(2));
    let (created_at, last_attempt_at) =
        if attempts == 0 { (last_active, None) } else { (last_active - Duration::hours(1), Some(last_active)) };
    diesel::sql_query(
        "UPDATE webhook_deliveries SET state = $2, next_attempt_at = $3, created_at = $4, last_attempt_at = $5, \
         attempts = $6, round_attempts = $6, last_response_status = 500 WHERE id = $1",
    )
    .bind::<SqlUuid, _>(*id.as_uuid())
    .bind::<Text, _>(state.as_str())
    .bind::<diesel::sql_types::Nullable<Timestamptz>, _>(next_attempt_at)
    .bind::<Timestamptz, _>(created_at)
    .bind::<diesel::sql_types::Nullable<Timestamptz>, _>(last_attempt_at)
    .bind::<Int4, _>(attempts)
    .execute(conn)
    .await
    .unwrap();
    diesel::sql_query(
        "INSERT INTO webhook_attempts (id, tenant_id, delivery_id, attempt, request_body, response_status, \
             error_class, started_at, duration_ms) \
         SELECT gen_random_uuid(), d.tenant_id, d.id, n, d.payload, 500, 'UNEXPECTED_STATUS', \
             $2 - make_interval(mins => $3 - n), 12 \
         FROM webhook_deliveries AS d, generate_series(1, $3) AS n WHERE d.id = $1",
    )
    .bind::<SqlUuid, _>(*id.as_uuid())
    .bind::<Timestamptz, _>(last_active)
    .bind::<Int4, _>(attempts)
    .execute(conn)
    .await
    .unwrap();
}

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = BigInt)]
    count: i64,
}

async fn count(conn: &mut AsyncPgConnection, sql: &str, id: uuid::Uuid) -> i64 {
    diesel::sql_query(sql).bind::<SqlUuid, _>(id).get_result::<Count>(conn).await.unwrap().count
}

async fn delivery_exists(conn: &mut AsyncPgConnection, id: DeliveryId) -> bool {
    count(conn, "SELECT count(*) AS count FROM webhook_deliveries WHERE id = $1", *id.as_uuid()).await == 1
}

async fn attempts_of(conn: &mut AsyncPgConnection, id: DeliveryId) -> i64 {
    count(conn, "SELECT count(*) AS count FROM webhook_attempts WHERE delivery_id = $1", *id.as_uuid()).await
}

/// Runs batches until one says nothing more is waiting; the sum.
async fn purge_all(store: &PgStore, cutoffs: RetentionCutoffs, batch: u16) -> PurgedDeliveries {
    let mut total = PurgedDeliveries { deliveries: 0, attempts: 0, more: false };
    loop {
        let purged = store.purge_webhook_delivery_batch(cutoffs, batch).await.unwrap().expect("nobody else purges");
        total.deliveries += purged.deliveries;
        total.attempts += purged.attempts;
        if !purged.more {
            return total;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finished_deliveries_past_their_retention_go_with_their_attempts_and_nothing_else_does() {
    let db = TestDatabase::new().await;
    let store = db.store();
    let stores = Stores::of(&store);
    let seed = fixtures::seed(&stores).await;
    let mut conn = connect(&db).await;

    let mut make = async |state, days, attempts| {
        let (event, delivery) = verified_with_delivery(&stores, &seed).await;
        finish(&mut conn, delivery, state, days_ago(days), attempts).await;
        (event, delivery)
    };
    let old_delivered = make(DeliveryState::Delivered, 31, 2).await;
    let young_delivered = make(DeliveryState::Delivered, 29, 1).await;
    let failed_past_delivered_period = make(DeliveryState::Failed, 60, 4).await;
    let old_failed = make(DeliveryState::Failed, 91, 4).await;
    let young_disabled = make(DeliveryState::Disabled, 89, 0).await;
    let old_disabled = make(DeliveryState::Disabled, 91, 0).await;
    // Retrying for a year (or its instance died): pending is never purged, whatever its age.
    let old_pending = make(DeliveryState::Pending, 365, 3).await;
    // Failed long ago, and redelivered by an operator just now: pending again.
    let redelivered = make(DeliveryState::Failed, 200, 4).await;
    assert!(store.redeliver(seed.tenant.id, redelivered.1, now(), &fixtures::audit(seed.tenant.id)).await.unwrap());

    let purged = purge_all(&store, default_cutoffs(), 500).await;
    assert_eq!(purged, PurgedDeliveries { deliveries: 3, attempts: 2 + 4, more: false });

    let mut conn = connect(&db).await;
    for (what, (_, delivery)) in
        [("old delivered", old_delivered), ("old failed", old_failed), ("old disabled", old_disabled)]
    {
        assert!(!delivery_exists(&mut conn, delivery).await, "{what} is purged");
        assert_eq!(attempts_of(&mut conn, delivery).await, 0, "{what}: its attempts go with it");
    }
    for (what, (_, delivery), attempts) in [
        ("young delivered", young_delivered, 1),
        ("failed within its period", failed_past_delivered_period, 4),
        ("young disabled", young_disabled, 0),
        ("pending", old_pending, 3),
        ("redelivered", redelivered, 4),
    ] {
        assert!(delivery_exists(&mut conn, delivery).await, "{what} is kept");
        assert_eq!(attempts_of(&mut conn, delivery).await, attempts, "{what}: its attempts are kept");
    }
    // The evidence stays: every event, verified, with its certificate; the event's details show no
    // delivery once it is gone.
    for (event, delivery) in [
        old_delivered,
        young_delivered,
        failed_past_delivered_period,
        old_failed,
        young_disabled,
        old_disabled,
        old_pending,
        redelivered,
    ] {
        let found = stores.events.find_event(seed.tenant.id, event).await.unwrap().expect("the event is kept");
        assert!(found.verified_at.is_some());
        assert!(stores.events.find_certificate(seed.tenant.id, event).await.unwrap().is_some(), "its certificate too");
        let shown = stores.events.find_delivery_for_event(seed.tenant.id, event).await.unwrap();
        assert_eq!(shown.map(|d| d.id), delivery_exists(&mut conn, delivery).await.then_some(delivery));
    }
    assert_eq!(purge_all(&store, default_cutoffs(), 500).await.deliveries, 0, "nothing is left to purge");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_periods_are_settings() {
    let db = TestDatabase::new().await;
    let store = db.store();
    let stores = Stores::of(&store);
    let seed = fixtures::seed(&stores).await;
    let mut conn = connect(&db).await;
    let (_, delivered) = verified_with_delivery(&stores, &seed).await;
    finish(&mut conn, delivered, DeliveryState::Delivered, days_ago(8), 1).await;
    let (_, failed) = verified_with_delivery(&stores, &seed).await;
    finish(&mut conn, failed, DeliveryState::Failed, days_ago(8), 4).await;

    let week = DeliveryRetention { delivered: Duration::days(7), failed: Duration::days(10) };
    assert_eq!(purge_all(&store, week.cutoffs(now()), 500).await.deliveries, 1);
    assert!(!delivery_exists(&mut conn, delivered).await && delivery_exists(&mut conn, failed).await);
    let short = DeliveryRetention { delivered: Duration::days(7), failed: Duration::days(1) };
    assert_eq!(
        purge_all(&store, short.cutoffs(now()), 500).await,
        PurgedDeliveries { deliveries: 1, attempts: 4, more: false }
    );
    assert!(!delivery_exists(&mut conn, failed).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn more_than_a_batch_is_purged_batch_by_batch() {
    let db = TestDatabase::new().await;
    let store = db.store();
    let stores = Stores::of(&store);
    let seed = fixtures::seed(&stores).await;
    let mut conn = connect(&db).await;
    for _ in 0..12 {
        let (_, delivery) = verified_with_delivery(&stores, &seed).await;
        finish(&mut conn, delivery, DeliveryState::Delivered, days_ago(40), 1).await;
    }
    for _ in 0..3 {
        let (_, delivery) = verified_with_delivery(&stores, &seed).await;
        finish(&mut conn, delivery, DeliveryState::Failed, days_ago(100), 2).await;
    }
    let cutoffs = default_cutoffs();
    // Up to five of each state per batch: 5 + 3, then 5 + 0, then 2 + 0.
    let first = store.purge_webhook_delivery_batch(cutoffs, 5).await.unwrap().unwrap();
    assert_eq!(first, PurgedDeliveries { deliveries: 8, attempts: 5 + 6, more: true });
    let second = store.purge_webhook_delivery_batch(cutoffs, 5).await.unwrap().unwrap();
    assert_eq!(second, PurgedDeliveries { deliveries: 5, attempts: 5, more: true });
    let third = store.purge_webhook_delivery_batch(cutoffs, 5).await.unwrap().unwrap();
    assert_eq!(third, PurgedDeliveries { deliveries: 2, attempts: 2, more: false });
    let rest = count(
        &mut conn,
        "SELECT count(*) AS count FROM webhook_deliveries WHERE tenant_id = $1",
        *seed.tenant.id.as_uuid(),
    )
    .await;
    assert_eq!(rest, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn while_one_instance_purges_the_others_skip_their_round() {
    let db = TestDatabase::new().await;
    let store = db.store();
    let stores = Stores::of(&store);
    let seed = fixtures::seed(&stores).await;
    let mut conn = connect(&db).await;
    let (_, delivery) = verified_with_delivery(&stores, &seed).await;
    finish(&mut conn, delivery, DeliveryState::Delivered, days_ago(40), 1).await;

    // Another instance's batch, caught in the middle of its transaction.
    let mut other = connect(&db).await;
    diesel::sql_query("BEGIN").execute(&mut other).await.unwrap();
    diesel::sql_query(format!("SELECT pg_advisory_xact_lock({WEBHOOK_PURGE_LOCK})")).execute(&mut other).await.unwrap();
    assert_eq!(store.purge_webhook_delivery_batch(default_cutoffs(), 500).await.unwrap(), None, "skipped, not waited");
    assert!(delivery_exists(&mut conn, delivery).await);
    // Its transaction over, the lock is free again (nothing is held between batches).
    diesel::sql_query("COMMIT").execute(&mut other).await.unwrap();
    let purged = store.purge_webhook_delivery_batch(default_cutoffs(), 500).await.unwrap();
    assert_eq!(purged, Some(PurgedDeliveries { deliveries: 1, attempts: 1, more: false }));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_row_someone_holds_is_skipped_not_waited_for() {
    let db = TestDatabase::new().await;
    let store = db.store();
    let stores = Stores::of(&store);
    let seed = fixtures::seed(&stores).await;
    let mut conn = connect(&db).await;
    let (_, held) = verified_with_delivery(&stores, &seed).await;
    finish(&mut conn, held, DeliveryState::Failed, days_ago(100), 4).await;
    let (_, free) = verified_with_delivery(&stores, &seed).await;
    finish(&mut conn, free, DeliveryState::Failed, days_ago(100), 4).await;

    // An operator's redelivery of `held`, not yet committed.
    let mut redelivery = connect(&db).await;
    diesel::sql_query("BEGIN").execute(&mut redelivery).await.unwrap();
    diesel::sql_query("UPDATE webhook_deliveries SET state = 'PENDING', next_attempt_at = now() WHERE id = $1")
        .bind::<SqlUuid, _>(*held.as_uuid())
        .execute(&mut redelivery)
        .await
        .unwrap();
    let purged = store.purge_webhook_delivery_batch(default_cutoffs(), 500).await.unwrap().unwrap();
    assert_eq!((purged.deliveries, purged.attempts), (1, 4));
    assert!(!delivery_exists(&mut conn, free).await);
    diesel::sql_query("COMMIT").execute(&mut redelivery).await.unwrap();
    // Committed, it is pending: the next rounds leave it alone.
    assert_eq!(purge_all(&store, default_cutoffs(), 500).await.deliveries, 0);
    assert!(delivery_exists(&mut conn, held).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_purging_at_once_delete_every_row_once() {
    let db = TestDatabase::new().await;
    let store = db.store();
    let stores = Stores::of(&store);
    let seed = fixtures::seed(&stores).await;
    let mut conn = connect(&db).await;
    let total = 40;
    for _ in 0..total {
        let (_, delivery) = verified_with_delivery(&stores, &seed).await;
        finish(&mut conn, delivery, DeliveryState::Delivered, days_ago(40), 2).await;
    }
    // Each instance runs its rounds (batches of 3) until it skips or is done; neither waits for the
    // other or fails, and no row is counted twice.
    let round = async |store: PgStore| {
        let mut purged = 0;
        for _ in 0..100 {
            match store.purge_webhook_delivery_batch(default_cutoffs(), 3).await.unwrap() {
                Some(batch) => {
                    purged += batch.deliveries;
                    if !batch.more {
                        break;
                    }
                }
                None => tokio::task::yield_now().await,
            }
        }
        purged
    };
    let (a, b) = tokio::join!(round(db.store()), round(db.store()));
    let rest = purge_all(&store, default_cutoffs(), 3).await.deliveries;
    assert_eq!(a + b + rest, total, "({a} + {b} + {rest})");
    let left = count(
        &mut conn,
        "SELECT count(*) AS count FROM webhook_attempts WHERE tenant_id = $1",
        *seed.tenant.id.as_uuid(),
    )
    .await;
    assert_eq!(left, 0);
}

#[derive(QueryableByName)]
struct PlanLine {
    #[diesel(sql_type = Text, column_name = "QUERY PLAN")]
    line: String,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_finds_its_rows_through_the_partial_index() {
    let db = TestDatabase::new().await;
    let mut conn = connect(&db).await;
    // An empty table would be read whole whatever the indexes; forbid that to see the index is usable.
    diesel::sql_query("SET enable_seqscan = off").execute(&mut conn).await.unwrap();
    for state in ["DELIVERED", "FAILED", "DISABLED"] {
        let plan: Vec<PlanLine> = diesel::sql_query(format!(
            "EXPLAIN SELECT id, tenant_id FROM webhook_deliveries \
             WHERE state = '{state}' AND COALESCE(last_attempt_at, created_at) < now() \
             ORDER BY COALESCE(last_attempt_at, created_at) LIMIT 500 FOR UPDATE SKIP LOCKED"
        ))
        .load(&mut conn)
        .await
        .unwrap();
        let plan: Vec<String> = plan.into_iter().map(|line| line.line).collect();
        assert!(
            plan.iter().any(|line| line.contains("Index Scan using webhook_deliveries_finished")),
            "{state}: {plan:#?}"
        );
        // The index range is exactly the rows wanted, in order: nothing filtered, nothing sorted.
        assert!(!plan.iter().any(|line| line.contains("Filter") || line.contains("Sort")), "{state}: {plan:#?}");
    }
}

/// How fast a backlog goes (the first round after an upgrade): prints deliveries per second. A
/// measurement, not a check; run it with `--run-ignored only` and `--no-capture`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement"]
async fn measure_purging_a_backlog() {
    let db = TestDatabase::new().await;
    let store = db.store();
    let stores = Stores::of(&store);
    let seed = fixtures::seed(&stores).await;
    let mut conn = connect(&db).await;
    let (_, template) = verified_with_delivery(&stores, &seed).await;
    let backlog: i32 = std::env::var("PURGE_BACKLOG").ok().and_then(|n| n.parse().ok()).unwrap_or(100_000);
    // Copies of one real delivery (same event), half delivered with one attempt, half failed with
    // four, all past their period; and as many recent delivered ones, which stay.
    diesel::sql_query(
        "INSERT INTO webhook_deliveries (id, tenant_id, app_id, event_id, payload, state, attempts, round_attempts, \
             last_attempt_at, last_response_status, created_at) \
         SELECT gen_random_uuid(), tenant_id, app_id, event_id, payload, \
             CASE WHEN n % 2 = 0 THEN 'DELIVERED' ELSE 'FAILED' END, 1, 1, \
             CASE WHEN n <= $2 THEN $3 ELSE $4 END, 200, $3 \
         FROM webhook_deliveries, generate_series(1, 2 * $2) AS n WHERE id = $1",
    )
    .bind::<SqlUuid, _>(*template.as_uuid())
    .bind::<Int4, _>(backlog)
    .bind::<Timestamptz, _>(days_ago(200).as_datetime())
    .bind::<Timestamptz, _>(days_ago(1).as_datetime())
    .execute(&mut conn)
    .await
    .unwrap();
    diesel::sql_query(
        "INSERT INTO webhook_attempts (id, tenant_id, delivery_id, attempt, request_body, response_status, started_at, \
             duration_ms) \
         SELECT gen_random_uuid(), d.tenant_id, d.id, a, d.payload, 200, d.last_attempt_at, 5 \
         FROM webhook_deliveries AS d, generate_series(1, 4) AS a \
         WHERE d.id <> $1 AND (d.state = 'FAILED' OR a = 1)",
    )
    .bind::<SqlUuid, _>(*template.as_uuid())
    .execute(&mut conn)
    .await
    .unwrap();
    diesel::sql_query("VACUUM ANALYZE webhook_deliveries").execute(&mut conn).await.unwrap();
    diesel::sql_query("VACUUM ANALYZE webhook_attempts").execute(&mut conn).await.unwrap();
    let started = std::time::Instant::now();
    let mut batches = 0;
    let mut longest = std::time::Duration::ZERO;
    let mut total = PurgedDeliveries { deliveries: 0, attempts: 0, more: true };
    while total.more {
        let one = std::time::Instant::now();
        let purged = store.purge_webhook_delivery_batch(default_cutoffs(), 500).await.unwrap().unwrap();
        longest = longest.max(one.elapsed());
        batches += 1;
        total = PurgedDeliveries {
            deliveries: total.deliveries + purged.deliveries,
            attempts: total.attempts + purged.attempts,
            more: purged.more,
        };
    }
    let elapsed = started.elapsed();
    println!(
        "purged {} deliveries and {} attempts of {} in {batches} batches, {:.2} s: {:.0} deliveries/s, longest batch {:.0} ms",
        total.deliveries,
        total.attempts,
        2 * backlog + 1,
        elapsed.as_secs_f64(),
        total.deliveries as f64 / elapsed.as_secs_f64(),
        longest.as_secs_f64() * 1000.0
    );
}
