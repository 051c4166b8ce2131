//! The [`KeyStore`](crate::ports::KeyStore) contract.

use super::fixtures;
use super::{Stores, Task, join_all};
use crate::keys::Keyring;

/// Runs every check of the key store. The store may already hold a keyring (the server or an
/// earlier suite made it); the checks hold either way.
pub async fn key_store_contract(stores: &Stores<'_>) {
    ensure_keyring_keeps_the_first_ring(stores).await;
    concurrent_ensure_keyring_agrees(stores).await;
}

/// Every key of a ring as (id, material), current first.
fn keys_of(ring: &Keyring) -> Vec<(String, [u8; 32])> {
    std::iter::once(ring.current())
        .chain(ring.previous())
        .map(|key| (key.id().as_str().to_owned(), *key.material()))
        .collect()
}

async fn ensure_keyring_keeps_the_first_ring(stores: &Stores<'_>) {
    let first_candidate = fixtures::secret_key();
    let second_candidate = fixtures::secret_key();
    let first = stores.keys.ensure_keyring(&first_candidate).await.unwrap();
    let first_keys = keys_of(&first);
    let fresh = (first_candidate.id().as_str().to_owned(), *first_candidate.material());
    // Either the store had no ring and the candidate became its key, or it kept the ring it had.
    assert!(
        first_keys.first() == Some(&fresh) || !first_keys.contains(&fresh),
        "keys: the candidate is the current key of a new ring, or not in the ring at all"
    );

    let second = stores.keys.ensure_keyring(&second_candidate).await.unwrap();
    assert_eq!(
        keys_of(&second),
        first_keys,
        "keys: ensure_keyring with another candidate returns the first ring, unchanged"
    );
    let unwanted = (second_candidate.id().as_str().to_owned(), *second_candidate.material());
    assert!(!keys_of(&second).contains(&unwanted), "keys: a later candidate never enters an existing ring");
    let third = stores.keys.ensure_keyring(&first_candidate).await.unwrap();
    assert_eq!(keys_of(&third), first_keys, "keys: the ring is stable across calls");
}

async fn concurrent_ensure_keyring_agrees(stores: &Stores<'_>) {
    let candidates: Vec<_> = (0..4).map(|_| fixtures::secret_key()).collect();
    let tasks: Vec<Task<'_, _>> = candidates.iter().map(|candidate| stores.keys.ensure_keyring(candidate)).collect();
    let rings: Vec<Keyring> =
        join_all(tasks).await.into_iter().map(|ring| ring.expect("keys: a concurrent ensure_keyring failed")).collect();
    let first = keys_of(&rings[0]);
    for ring in &rings {
        assert_eq!(keys_of(ring), first, "keys: concurrent ensure_keyring calls all end up with the same ring");
    }
    let settled = stores.keys.ensure_keyring(&fixtures::secret_key()).await.unwrap();
    assert_eq!(keys_of(&settled), first, "keys: and that ring stays");
}
