//! The [`LedgerStore`](crate::ports::LedgerStore) contract, with the leaves that
//! [`EventStore::commit_verification`](crate::ports::EventStore::commit_verification) appends.

use super::fixtures::{self, base_plus_secs};
use super::support::{Stores, Task, join_all};
use crate::consent::models::VerificationRecord;
use crate::ledger::merkle;
use crate::ledger::models::StoredLedgerKey;
use crate::ledger::tree_head::{SignedTreeHead, TreeHead};
use crate::ports::StorageError;
use crate::{TenantId, Timestamp};

/// Runs every check of the ledger store.
pub async fn ledger_store_contract(stores: &Stores<'_>) {
    verifications_append_contiguous_leaves_per_tenant(stores).await;
    a_tree_head_covers_the_new_leaves_once(stores).await;
    concurrent_verifications_get_distinct_indices(stores).await;
    the_first_ledger_key_stays(stores).await;
}

/// A stand-in signature: the head's payload itself, so a test can tell which head was signed.
fn fake_sign(head: &TreeHead) -> Result<SignedTreeHead, StorageError> {
    Ok(SignedTreeHead {
        head: head.clone(),
        signature: head.signed_payload().into_bytes(),
        key_id: "lk-test".to_owned(),
    })
}

/// `count` events of one new tenant, each verified; their records, in order.
async fn verified_events(stores: &Stores<'_>, count: u32) -> (TenantId, Vec<VerificationRecord>) {
    let seed = fixtures::seed(stores).await;
    let mut records = Vec::new();
    for i in 0..count {
        records.push(verify_one(stores, &seed, i64::from(i)).await);
    }
    (seed.tenant.id, records)
}

async fn verify_one(stores: &Stores<'_>, seed: &fixtures::Seed, at_secs: i64) -> VerificationRecord {
    let event = fixtures::stored_event(stores, seed.event().build()).await;
    let record = fixtures::verification(&event, base_plus_secs(at_secs), None);
    stores.events.commit_verification(&record).await.unwrap();
    record
}

async fn verifications_append_contiguous_leaves_per_tenant(stores: &Stores<'_>) {
    let (tenant, records) = verified_events(stores, 3).await;
    let (other, _) = verified_events(stores, 2).await;
    assert_eq!(stores.ledger.ledger_size(tenant).await.unwrap(), 3, "ledger: one leaf per verification");
    assert_eq!(stores.ledger.ledger_size(other).await.unwrap(), 2, "ledger: each tenant has its own log");
    for (index, record) in records.iter().enumerate() {
        let leaf = stores.ledger.ledger_leaf(tenant, record.event.id).await.unwrap().expect("ledger: the event's leaf");
        assert_eq!(leaf.leaf_index, index as u64, "ledger: leaves are numbered in verification order from 0");
        assert_eq!(leaf.leaf_hash, record.ledger_leaf.leaf_hash);
        assert_eq!(leaf.salt, Some(record.ledger_leaf.salt), "ledger: the salt is stored beside the leaf");
        assert_eq!(
            stores.ledger.ledger_leaf(other, record.event.id).await.unwrap(),
            None,
            "ledger: not another tenant's"
        );
    }
    let hashes: Vec<_> = records.iter().map(|r| r.ledger_leaf.leaf_hash).collect();
    assert_eq!(stores.ledger.leaf_hashes(tenant, 3).await.unwrap(), hashes);
    assert_eq!(stores.ledger.leaf_hashes(tenant, 2).await.unwrap(), hashes[..2].to_vec());
    assert_eq!(
        stores.ledger.leaf_hashes(tenant, 10).await.unwrap(),
        hashes,
        "ledger: a longer size gives what there is"
    );

    let unverified = fixtures::seed(stores).await;
    fixtures::stored_event(stores, unverified.event().build()).await;
    assert_eq!(
        stores.ledger.ledger_size(unverified.tenant.id).await.unwrap(),
        0,
        "ledger: unverified events are not in it"
    );
}

async fn a_tree_head_covers_the_new_leaves_once(stores: &Stores<'_>) {
    let seed = fixtures::seed(stores).await;
    let tenant = seed.tenant.id;
    let mut records = Vec::new();
    for i in 0..5 {
        records.push(verify_one(stores, &seed, i).await);
    }
    let now = Timestamp::from_unix_millis(1_800_000_000_000).unwrap();
    assert!(
        stores.ledger.tenants_with_unsigned_leaves(100_000).await.unwrap().contains(&tenant),
        "ledger: a log with leaves and no head needs signing"
    );
    let head = stores.ledger.advance_tree_head(tenant, &fake_sign, now).await.unwrap().expect("ledger: a new head");
    let hashes: Vec<_> = records.iter().map(|r| r.ledger_leaf.leaf_hash).collect();
    assert_eq!(head.head, TreeHead { tree_size: 5, root_hash: merkle::root(&hashes), timestamp: now });
    assert_eq!(stores.ledger.latest_tree_head(tenant).await.unwrap(), Some(head.clone()), "ledger: the head is stored");
    assert_eq!(
        stores.ledger.advance_tree_head(tenant, &fake_sign, now).await.unwrap(),
        None,
        "ledger: nothing new, no new head"
    );
    assert!(!stores.ledger.tenants_with_unsigned_leaves(100_000).await.unwrap().contains(&tenant));

    // One more verification: the next head covers it, computed from the stored frontier.
    let record = verify_one(stores, &seed, 60).await;
    assert!(stores.ledger.tenants_with_unsigned_leaves(100_000).await.unwrap().contains(&tenant));
    let later = Timestamp::from_unix_millis(1_800_000_060_000).unwrap();
    let grown =
        stores.ledger.advance_tree_head(tenant, &fake_sign, later).await.unwrap().expect("ledger: a newer head");
    let mut all = hashes.clone();
    all.push(record.ledger_leaf.leaf_hash);
    assert_eq!(grown.head, TreeHead { tree_size: 6, root_hash: merkle::root(&all), timestamp: later });
    assert_eq!(stores.ledger.latest_tree_head(tenant).await.unwrap(), Some(grown));

    // A log without leaves gets a first, empty head.
    let empty = fixtures::seed(stores).await.tenant.id;
    let first = stores.ledger.advance_tree_head(empty, &fake_sign, now).await.unwrap().expect("ledger: an empty head");
    assert_eq!((first.head.tree_size, first.head.root_hash), (0, merkle::empty_root()));
    assert_eq!(stores.ledger.advance_tree_head(empty, &fake_sign, now).await.unwrap(), None);
}

async fn concurrent_verifications_get_distinct_indices(stores: &Stores<'_>) {
    let seed = fixtures::seed(stores).await;
    let mut records = Vec::new();
    for i in 0..6 {
        let event = fixtures::stored_event(stores, seed.event().build()).await;
        records.push(fixtures::verification(&event, base_plus_secs(i), None));
    }
    let tasks: Vec<Task<'_, _>> = records.iter().map(|record| stores.events.commit_verification(record)).collect();
    for outcome in join_all(tasks).await {
        outcome.expect("ledger: concurrent verifications of different events all commit");
    }
    let mut indices = Vec::new();
    for record in &records {
        indices.push(stores.ledger.ledger_leaf(seed.tenant.id, record.event.id).await.unwrap().unwrap().leaf_index);
    }
    indices.sort_unstable();
    assert_eq!(indices, (0..6).collect::<Vec<u64>>(), "ledger: concurrent appends get indices 0..n, each once");
}

async fn the_first_ledger_key_stays(stores: &Stores<'_>) {
    let candidate = |id: &str| StoredLedgerKey {
        id: id.to_owned(),
        private_key_sealed: fixtures::random32().to_vec(),
        public_key_der: fixtures::random32().to_vec(),
    };
    let first = stores.ledger.ensure_ledger_key(&candidate("lk-first")).await.unwrap();
    let again = stores.ledger.ensure_ledger_key(&candidate("lk-second")).await.unwrap();
    assert_eq!(again, first, "ledger: a later candidate never replaces the current key");
}
