//! The [`KeyStore`](crate::ports::KeyStore) contract.

use super::fixtures;
use super::support::{Stores, Task, join_all};
use crate::keys::models::{StoredKeyMaterial, StoredServerKey};

/// Runs every check of the key store. The store may already hold keys (the server or an earlier
/// suite made them); the checks hold either way.
pub async fn key_store_contract(stores: &Stores<'_>) {
    ensure_keyring_keeps_the_first_keys(stores).await;
    concurrent_ensure_keyring_agrees(stores).await;
    a_new_current_key_replaces_the_old_and_old_keys_can_be_deleted(stores).await;
}

/// Every key as (id, material, current, replaced_at), in the order the store returns them.
fn keys_of(keys: &[StoredServerKey]) -> Vec<(String, StoredKeyMaterial, bool, Option<crate::Timestamp>)> {
    keys.iter().map(|key| (key.id.as_str().to_owned(), key.material.clone(), key.is_current, key.replaced_at)).collect()
}

async fn ensure_keyring_keeps_the_first_keys(stores: &Stores<'_>) {
    let first_candidate = fixtures::stored_server_key();
    let second_candidate = fixtures::stored_server_key();
    let first = keys_of(&stores.keys.ensure_keyring(&first_candidate).await.unwrap());
    let fresh = (first_candidate.id.as_str().to_owned(), first_candidate.material.clone(), true, None);
    // Either the store had no keys and the candidate became the current one, or it kept its own.
    assert!(
        first.first() == Some(&fresh) || !first.contains(&fresh),
        "keys: the candidate is the current key of a new ring, or not a key at all"
    );
    assert_eq!(first.iter().filter(|key| key.2).count(), 1, "keys: exactly one key is current");

    let second = keys_of(&stores.keys.ensure_keyring(&second_candidate).await.unwrap());
    assert_eq!(second, first, "keys: ensure_keyring with another candidate returns the first keys, unchanged");
    assert_eq!(keys_of(&stores.keys.server_keys().await.unwrap()), first, "keys: server_keys reads the same keys");
}

async fn concurrent_ensure_keyring_agrees(stores: &Stores<'_>) {
    let candidates: Vec<_> = (0..4).map(|_| fixtures::stored_server_key()).collect();
    let tasks: Vec<Task<'_, _>> = candidates.iter().map(|candidate| stores.keys.ensure_keyring(candidate)).collect();
    let rings: Vec<_> = join_all(tasks)
        .await
        .into_iter()
        .map(|ring| keys_of(&ring.expect("keys: a concurrent ensure_keyring failed")))
        .collect();
    for ring in &rings {
        assert_eq!(ring, &rings[0], "keys: concurrent ensure_keyring calls all end up with the same keys");
    }
}

async fn a_new_current_key_replaces_the_old_and_old_keys_can_be_deleted(stores: &Stores<'_>) {
    let before = stores.keys.ensure_keyring(&fixtures::stored_server_key()).await.unwrap();
    let old_current = before.iter().find(|key| key.is_current).expect("keys: a current key").clone();
    let new = fixtures::stored_server_key();
    stores.keys.add_current_server_key(&new).await.unwrap();

    let after = stores.keys.server_keys().await.unwrap();
    assert_eq!(
        after.first().map(|key| (&key.id, key.is_current)),
        Some((&new.id, true)),
        "keys: the new key is current, first"
    );
    assert_eq!(after.iter().filter(|key| key.is_current).count(), 1, "keys: still exactly one current key");
    let replaced = after.iter().find(|key| key.id == old_current.id).expect("keys: the old key is kept");
    assert!(!replaced.is_current);
    assert_eq!(replaced.replaced_at, Some(new.created_at), "keys: the old key was replaced when the new one was made");
    assert_eq!(replaced.material, old_current.material, "keys: the old key's material is unchanged");

    assert!(!stores.keys.delete_server_key(&new.id).await.unwrap(), "keys: the current key is never deleted");
    assert!(stores.keys.delete_server_key(&old_current.id).await.unwrap(), "keys: a replaced key is deleted");
    assert!(!stores.keys.delete_server_key(&old_current.id).await.unwrap(), "keys: a deleted key is gone");
    let left = stores.keys.server_keys().await.unwrap();
    assert!(left.iter().all(|key| key.id != old_current.id));
    assert_eq!(left.len(), after.len() - 1, "keys: only that key was deleted");
}
