//! The webhook wake-up channel between instances: a redelivery and released leases are announced
//! with NOTIFY, and `listen` passes that on. A verification's new delivery is not announced (the
//! verifying instance wakes its own dispatcher in process; others poll), nor is anything that is
//! not due now.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)] // test code

use std::time::Duration;

use clickwrap_domain::contract::fixtures;
use clickwrap_domain::contract::support::Stores;
use clickwrap_domain::ports::{DeliveryStore, EventStore};
use clickwrap_domain::webhooks::dispatch::{AttemptOutcome, LeaseOwner};
use clickwrap_domain::webhooks::models::DeliveryAttempt;
use clickwrap_postgres::deliveries::listen;
use clickwrap_postgres::test_db::TestDatabase;
use tokio::sync::mpsc::{UnboundedReceiver, error::TryRecvError};

async fn woken(wakes: &mut UnboundedReceiver<()>, what: &str) {
    tokio::time::timeout(Duration::from_secs(5), wakes.recv()).await.unwrap_or_else(|_| panic!("no wake-up: {what}"));
    // Several announcements may arrive for one change; take them all.
    tokio::time::sleep(Duration::from_millis(100)).await;
    while wakes.try_recv().is_ok() {}
}

async fn quiet(wakes: &mut UnboundedReceiver<()>, what: &str) {
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(wakes.try_recv(), Err(TryRecvError::Empty), "a wake-up for {what}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redeliveries_and_released_leases_wake_the_listener_and_verifications_do_not() {
    let db = TestDatabase::new().await;
    let store = db.store();
    let stores = Stores::of(&store);
    let (sender, mut wakes) = tokio::sync::mpsc::unbounded_channel();
    let listener = listen(db.url().clone(), move || {
        let _ = sender.send(());
    });
    woken(&mut wakes, "the connection is up").await;

    let seed = fixtures::seed(&stores).await;
    let now = fixtures::base_time();
    let event = fixtures::stored_event(&stores, seed.event().build()).await;
    let record = fixtures::verification(&event, now, None);
    store.commit_verification(&record).await.unwrap();
    quiet(&mut wakes, "a verification's PENDING delivery (no NOTIFY per verification)").await;

    let event = fixtures::stored_event(&stores, seed.event().build()).await;
    let mut disabled = fixtures::verification(&event, now, None);
    disabled.delivery = fixtures::delivery(&disabled.event, false, now);
    store.commit_verification(&disabled).await.unwrap();
    quiet(&mut wakes, "a DISABLED delivery").await;

    // A retry scheduled for later is found by polling, not announced.
    let owner = LeaseOwner::from_uuid(uuid::Uuid::new_v4());
    let claimed = store.claim_due(owner, now, now.saturating_add(time::Duration::minutes(1)), 10).await.unwrap();
    assert_eq!(claimed.len(), 1);
    let attempt = DeliveryAttempt {
        id: uuid::Uuid::new_v4(),
        tenant_id: seed.tenant.id,
        delivery_id: record.delivery.id,
        number: 1,
        request_body: record.delivery.payload.clone(),
        response_status: Some(500),
        response_excerpt: Some("down".to_owned()),
        error: Some(clickwrap_domain::webhooks::models::AttemptError::UnexpectedStatus),
        started_at: now,
        duration_ms: 3,
    };
    let retry = AttemptOutcome::Retry { at: now.saturating_add(time::Duration::minutes(1)) };
    assert!(store.record_attempt(owner, &attempt, retry).await.unwrap());
    quiet(&mut wakes, "a retry due later").await;

    // An operator's redelivery brings it forward: announced.
    assert!(store.redeliver(seed.tenant.id, record.delivery.id, now, &fixtures::audit(seed.tenant.id)).await.unwrap());
    woken(&mut wakes, "a redelivery").await;
    assert!(
        store.redeliver(seed.tenant.id, disabled.delivery.id, now, &fixtures::audit(seed.tenant.id)).await.unwrap()
    );
    woken(&mut wakes, "a redelivered DISABLED delivery").await;

    // Leases given back by a stopping dispatcher: announced.
    assert_eq!(store.claim_due(owner, now, now.saturating_add(time::Duration::minutes(1)), 10).await.unwrap().len(), 2);
    quiet(&mut wakes, "a claim").await;
    assert_eq!(store.release_leases(owner).await.unwrap(), 2);
    woken(&mut wakes, "released leases").await;
    listener.stop();
}
