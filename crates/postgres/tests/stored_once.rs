//! Nothing is stored twice: a webhook attempt keeps no copy of its delivery's payload, yet the
//! delivery history shows each attempt's body exactly as it was sent.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)] // test code

use clickwrap_domain::contract::fixtures;
use clickwrap_domain::contract::support::Stores;
use clickwrap_domain::ports::{DeliveryStore, EventStore};
use clickwrap_domain::webhooks::dispatch::{AttemptOutcome, LeaseOwner};
use clickwrap_domain::webhooks::models::DeliveryAttempt;
use clickwrap_postgres::test_db::TestDatabase;
use diesel::QueryableByName;
use diesel::sql_types::{Nullable, Text};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};

#[derive(QueryableByName)]
struct StoredBody {
    #[diesel(sql_type = Nullable<Text>)]
    request_body: Option<String>,
}

async fn stored_body(db: &TestDatabase, attempt: uuid::Uuid) -> Option<String> {
    let mut conn = AsyncPgConnection::establish(&db.url().expose()).await.unwrap();
    let row: StoredBody =
        diesel::sql_query(format!("SELECT request_body FROM webhook_attempts WHERE id = '{attempt}'"))
            .get_result(&mut conn)
            .await
            .unwrap();
    row.request_body
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_attempt_shows_its_deliverys_payload_without_storing_a_copy() {
    let db = TestDatabase::new().await;
    let store = db.store();
    let stores = Stores::of(&store);
    let seed = fixtures::seed(&stores).await;
    let now = fixtures::base_time();
    let event = fixtures::stored_event(&stores, seed.event().build()).await;
    let record = fixtures::verification(&event, now, None);
    store.commit_verification(&record).await.unwrap();
    let payload = record.delivery.payload.clone();
    assert!(!payload.is_empty());

    let owner = LeaseOwner::from_uuid(uuid::Uuid::new_v4());
    let later = now.saturating_add(time::Duration::minutes(1));
    assert_eq!(store.claim_due(owner, now, later, 10).await.unwrap().len(), 1);
    let sent = DeliveryAttempt {
        id: uuid::Uuid::new_v4(),
        tenant_id: seed.tenant.id,
        delivery_id: record.delivery.id,
        number: 1,
        request_body: payload.clone(),
        response_status: Some(500),
        response_excerpt: Some("down".to_owned()),
        error: Some(clickwrap_domain::webhooks::models::AttemptError::UnexpectedStatus),
        started_at: now,
        duration_ms: 3,
    };
    assert!(store.record_attempt(owner, &sent, AttemptOutcome::Retry { at: later }).await.unwrap());
    assert_eq!(stored_body(&db, sent.id).await, None, "the payload is kept once, in the delivery");

    // A body other than the payload (no dispatcher sends one, but the port allows it) is kept as is.
    assert_eq!(
        store.claim_due(owner, later, later.saturating_add(time::Duration::minutes(1)), 10).await.unwrap().len(),
        1
    );
    let other = DeliveryAttempt {
        id: uuid::Uuid::new_v4(),
        number: 2,
        request_body: format!("{payload} "),
        response_status: Some(200),
        response_excerpt: None,
        error: None,
        started_at: later,
        ..sent.clone()
    };
    assert!(store.record_attempt(owner, &other, AttemptOutcome::Delivered).await.unwrap());
    assert_eq!(stored_body(&db, other.id).await.as_deref(), Some(other.request_body.as_str()));

    let history = store.find_delivery(seed.tenant.id, record.delivery.id).await.unwrap().expect("the delivery");
    assert_eq!(history.attempts, vec![other.clone(), sent.clone()], "each attempt with the body it sent, newest first");
    assert_eq!(history.attempts[1].request_body, payload, "byte for byte the delivery's payload");
}
