//! Purging unverified events: only those older than the cutoff, never a verified one, in batches,
//! safely from two instances at once, through an index.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code

use clickwrap_domain::EventId;
use clickwrap_domain::contract;
use clickwrap_domain::contract::fixtures::{self, base_plus_secs};
use clickwrap_domain::contract::support::Stores;
use clickwrap_postgres::test_db::TestDatabase;
use diesel::QueryableByName;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};

async fn connect(db: &TestDatabase) -> AsyncPgConnection {
    AsyncPgConnection::establish(&db.url().expose()).await.unwrap()
}

async fn exists(stores: &Stores<'_>, tenant: clickwrap_domain::TenantId, id: EventId) -> bool {
    stores.events.find_event(tenant, id).await.unwrap().is_some()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_unverified_events_older_than_the_cutoff_are_purged() {
    let db = TestDatabase::new().await;
    let store = db.store();
    let stores = Stores::of(&store);
    let seed = fixtures::seed(&stores).await;
    let cutoff = base_plus_secs(100);

    let mut old_unverified = Vec::new();
    for second in 0..7 {
        let event = seed.event().action_at(base_plus_secs(second)).build();
        old_unverified.push(contract::fixtures::stored_event(&stores, event).await.id);
    }
    let at_cutoff = contract::fixtures::stored_event(&stores, seed.event().action_at(cutoff).build()).await.id;
    let recent =
        contract::fixtures::stored_event(&stores, seed.event().action_at(base_plus_secs(500)).build()).await.id;
    let old_verified = contract::fixtures::verified_event(
        &stores,
        seed.event().action_at(base_plus_secs(1)).build(),
        base_plus_secs(2),
    )
    .await
    .id;

    // Batches of 3: seven events take three statements.
    assert_eq!(store.purge_unverified_events(cutoff, 3).await.unwrap(), 7);
    for id in old_unverified {
        assert!(!exists(&stores, seed.tenant.id, id).await, "an old unverified event is purged");
    }
    assert!(exists(&stores, seed.tenant.id, at_cutoff).await, "the cutoff itself is kept");
    assert!(exists(&stores, seed.tenant.id, recent).await, "a recent unverified event is kept");
    assert!(exists(&stores, seed.tenant.id, old_verified).await, "a verified event is never purged");
    assert_eq!(store.purge_unverified_events(cutoff, 3).await.unwrap(), 0, "nothing is left to purge");
    // The evidence guard still refuses deleting a verified event outright.
    let refused = diesel::sql_query(format!("DELETE FROM clickwrap_events WHERE id = '{old_verified}'"))
        .execute(&mut connect(&db).await)
        .await;
    assert!(refused.is_err(), "a verified event cannot be deleted");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_purging_at_once_share_the_work() {
    let db = TestDatabase::new().await;
    let store = db.store();
    let stores = Stores::of(&store);
    let seed = fixtures::seed(&stores).await;
    let count = 60;
    for second in 0..count {
        contract::fixtures::stored_event(&stores, seed.event().action_at(base_plus_secs(second)).build()).await;
    }
    let kept = contract::fixtures::stored_event(&stores, seed.event().action_at(base_plus_secs(1000)).build()).await;
    let (one, other) = (db.store(), db.store());
    let cutoff = base_plus_secs(999);
    let (a, b) = tokio::join!(one.purge_unverified_events(cutoff, 5), other.purge_unverified_events(cutoff, 5));
    let (a, b) = (a.unwrap(), b.unwrap());
    // Every row was deleted by exactly one of them (a row skipped by one is deleted by the other,
    // or by a later run); neither failed.
    let rest = store.purge_unverified_events(cutoff, 5).await.unwrap();
    assert_eq!(a + b + rest, usize::try_from(count).unwrap(), "({a} + {b} + {rest})");
    assert!(exists(&stores, seed.tenant.id, kept.id).await);
}

#[derive(QueryableByName)]
struct PlanLine {
    #[diesel(sql_type = diesel::sql_types::Text, column_name = "QUERY PLAN")]
    line: String,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_finds_its_rows_through_the_partial_index() {
    let db = TestDatabase::new().await;
    let mut conn = connect(&db).await;
    // An empty table would be read whole whatever the indexes; forbid that to see the index is usable.
    diesel::sql_query("SET enable_seqscan = off").execute(&mut conn).await.unwrap();
    let plan: Vec<PlanLine> = diesel::sql_query(
        "EXPLAIN SELECT id FROM clickwrap_events WHERE status = 'UNVERIFIED' AND action_at < now() \
         ORDER BY action_at LIMIT 1000 FOR UPDATE SKIP LOCKED",
    )
    .load(&mut conn)
    .await
    .unwrap();
    let plan: Vec<String> = plan.into_iter().map(|line| line.line).collect();
    assert!(plan.iter().any(|line| line.contains("clickwrap_events_unverified_age")), "{plan:#?}");
}
