//! The server keys over their lifetime: the keyring made on the very first start, rotation,
//! deletion of keys whose Signatures have expired, and re-sealing every stored secret with the
//! current master key (after a new master key, or once for a database made before master keys).

use time::Duration;

use super::{KeyId, Keyring, SecretKey};
use crate::AppId;
use crate::keys::master::MasterKeys;
use crate::keys::models::{StoredKeyMaterial, StoredServerKey};
use crate::ports::{KeyStore, Random, StorageError};
use crate::secrets::{OpenSecretError, SecretBox};
use crate::timestamp::Timestamp;

/// Ties a sealed server key to its id, so sealed keys cannot be swapped between rows.
pub fn server_key_binding(id: &KeyId) -> Vec<u8> {
    [b"clickwrap/server-key/".as_slice(), id.as_str().as_bytes()].concat()
}

/// The server keys could not be loaded or changed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeyringError {
    #[error(transparent)]
    Storage(#[from] StorageError),
    /// A database made before master keys keeps its server keys in clear until they are sealed.
    #[error("the server keys are stored in clear: they have not been sealed with a master key yet")]
    NotSealed,
    #[error("server key {key_id} is sealed with master key {sealed_with}, but the master key given is {given}")]
    WrongMasterKey { key_id: KeyId, sealed_with: KeyId, given: KeyId },
    #[error("server key {key_id} cannot be opened: {reason}")]
    Unreadable { key_id: KeyId, reason: OpenSecretError },
    #[error("there is no current server key")]
    NoCurrentKey,
}

/// A server key as `server-keys list` shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerKeyInfo {
    pub id: KeyId,
    pub is_current: bool,
    pub created_at: Timestamp,
    pub replaced_at: Option<Timestamp>,
    /// When the last Signature it made expires: from then on it can be deleted.
    pub deletable_from: Option<Timestamp>,
    /// The master key it is sealed with; `None` while it is stored in clear.
    pub sealed_with: Option<KeyId>,
}

/// The installation's keyring, made with a fresh random key on the very first start.
pub async fn load_keyring(
    store: &dyn KeyStore,
    random: &dyn Random,
    master: &MasterKeys,
    now: Timestamp,
) -> Result<Keyring, KeyringError> {
    let candidate = new_server_key(random, master, now)?;
    open_keyring(&store.ensure_keyring(&candidate).await?, master)
}

/// Makes a new current key; the old one keeps verifying what it signed. Refused when the keys
/// there are cannot be opened with `master` (a key sealed with another master key would be lost).
pub async fn rotate_server_key(
    store: &dyn KeyStore,
    random: &dyn Random,
    master: &MasterKeys,
    now: Timestamp,
) -> Result<KeyId, KeyringError> {
    load_keyring(store, random, master, now).await?;
    let key = new_server_key(random, master, now)?;
    store.add_current_server_key(&key).await?;
    Ok(key.id)
}

/// Why a server key was not deleted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DeleteServerKeyError {
    #[error("there is no server key {0}")]
    NotFound(KeyId),
    #[error("server key {0} is the current key; rotate first")]
    Current(KeyId),
    #[error("server key {key} may still have made unexpired Signatures; it can be deleted from {from}")]
    StillInUse { key: KeyId, from: Timestamp },
    #[error(transparent)]
    Storage(#[from] StorageError),
}

/// Deletes a key that is no longer current once every Signature it made has expired
/// (`signature_ttl` after it was replaced); `force` deletes it sooner.
pub async fn delete_server_key(
    store: &dyn KeyStore,
    id: &KeyId,
    now: Timestamp,
    signature_ttl: Duration,
    force: bool,
) -> Result<(), DeleteServerKeyError> {
    let keys = list_server_keys(store, signature_ttl).await?;
    let key = keys.iter().find(|key| key.id == *id).ok_or_else(|| DeleteServerKeyError::NotFound(id.clone()))?;
    if key.is_current {
        return Err(DeleteServerKeyError::Current(id.clone()));
    }
    if let Some(from) = key.deletable_from.filter(|from| *from > now && !force) {
        return Err(DeleteServerKeyError::StillInUse { key: id.clone(), from });
    }
    if store.delete_server_key(id).await? { Ok(()) } else { Err(DeleteServerKeyError::NotFound(id.clone())) }
}

/// Every server key, current first.
pub async fn list_server_keys(
    store: &dyn KeyStore,
    signature_ttl: Duration,
) -> Result<Vec<ServerKeyInfo>, StorageError> {
    Ok(store
        .server_keys()
        .await?
        .into_iter()
        .map(|key| ServerKeyInfo {
            deletable_from: key.replaced_at.map(|at| at.saturating_add(signature_ttl)),
            sealed_with: match &key.material {
                StoredKeyMaterial::Sealed(sealed) => SecretBox::key_id(sealed),
                StoredKeyMaterial::Clear(_) => None,
            },
            id: key.id,
            is_current: key.is_current,
            created_at: key.created_at,
            replaced_at: key.replaced_at,
        })
        .collect())
}

/// One stored secret, as [`Resealer::reseal`] takes it.
#[derive(Debug, Clone, Copy)]
pub enum SealedSecret<'a> {
    ServerKey {
        id: &'a KeyId,
        material: &'a StoredKeyMaterial,
    },
    /// The private key of a certificate signing identity.
    SigningKey {
        sealed: &'a [u8],
    },
    /// The private key that signs the evidence ledger's tree heads.
    LedgerKey {
        sealed: &'a [u8],
    },
    WebhookSecret {
        app_id: AppId,
        sealed: &'a [u8],
    },
}

impl SealedSecret<'_> {
    fn describe(&self) -> String {
        match self {
            SealedSecret::ServerKey { id, .. } => format!("server key {id}"),
            SealedSecret::SigningKey { .. } => "a certificate signing key".to_owned(),
            SealedSecret::LedgerKey { .. } => "a ledger key".to_owned(),
            SealedSecret::WebhookSecret { app_id, .. } => format!("the webhook signing secret of app {app_id}"),
        }
    }
}

/// A stored secret could not be opened.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{what} cannot be opened: {reason}")]
pub struct UnreadableSecret {
    pub what: String,
    pub reason: OpenSecretError,
}

/// A stored secret could not be re-sealed; nothing was changed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ResealError {
    #[error(transparent)]
    Unreadable(#[from] UnreadableSecret),
    #[error("{0} could not be sealed")]
    Seal(String),
}

/// Ties the sealed private key of a certificate signing identity to its purpose.
pub const SIGNING_KEY_BINDING: &[u8] = b"clickwrap/certificate-signing-key";

/// Ties the sealed private key of the ledger to its purpose.
pub const LEDGER_KEY_BINDING: &[u8] = b"clickwrap/ledger-signing-key";

/// Opens stored secrets with the master keys (or, for a database made before master keys, with
/// the server keys that sealed them then) and seals them again with the current master key.
#[derive(Debug)]
pub struct Resealer<'a> {
    master: &'a MasterKeys,
    /// The server keys, which sealed the other secrets before master keys existed.
    legacy: Option<Keyring>,
}

impl<'a> Resealer<'a> {
    /// `server_keys` are the stored keys, read before the re-sealing starts.
    pub fn new(master: &'a MasterKeys, server_keys: &[StoredServerKey]) -> Result<Self, UnreadableSecret> {
        let mut keys = Vec::new();
        for key in server_keys {
            let material = open_material(&key.id, &key.material, master).map_err(|error| unreadable(&key.id, error))?;
            keys.push(SecretKey::new(key.id.clone(), material));
        }
        let mut keys = keys.into_iter();
        let legacy = keys.next().map(|first| Keyring::new(first, keys.collect())).transpose().ok().flatten();
        Ok(Self { master, legacy })
    }

    /// `secret` sealed with the current master key, with a fresh `nonce`.
    pub fn reseal(&self, secret: SealedSecret<'_>, nonce: [u8; 12]) -> Result<Vec<u8>, ResealError> {
        let (plaintext, binding) = match secret {
            SealedSecret::ServerKey { id, material } => {
                let bytes = open_material(id, material, self.master).map_err(|error| unreadable(id, error))?;
                (bytes.to_vec(), server_key_binding(id))
            }
            SealedSecret::LedgerKey { sealed } => {
                (self.open(&secret, sealed, LEDGER_KEY_BINDING)?, LEDGER_KEY_BINDING.to_vec())
            }
            SealedSecret::SigningKey { sealed } => {
                (self.open(&secret, sealed, SIGNING_KEY_BINDING)?, SIGNING_KEY_BINDING.to_vec())
            }
            SealedSecret::WebhookSecret { app_id, sealed } => {
                let binding = app_id.as_bytes().to_vec();
                (self.open(&secret, sealed, &binding)?, binding)
            }
        };
        self.master.seal(&plaintext, nonce, &binding).map_err(|_| ResealError::Seal(secret.describe()))
    }

    fn open(&self, secret: &SealedSecret<'_>, sealed: &[u8], binding: &[u8]) -> Result<Vec<u8>, UnreadableSecret> {
        let opened = match self.master.open(sealed, binding) {
            Err(OpenSecretError::UnknownKey(id)) => match &self.legacy {
                Some(legacy) if legacy.find(&id).is_some() => SecretBox::open(legacy, sealed, binding),
                _ => Err(OpenSecretError::UnknownKey(id)),
            },
            other => other,
        };
        opened.map_err(|reason| UnreadableSecret { what: secret.describe(), reason })
    }
}

fn unreadable(id: &KeyId, reason: OpenSecretError) -> UnreadableSecret {
    UnreadableSecret { what: format!("server key {id}"), reason }
}

/// A fresh current key, sealed with the current master key.
fn new_server_key(random: &dyn Random, master: &MasterKeys, now: Timestamp) -> Result<StoredServerKey, KeyringError> {
    let id = new_key_id(random);
    let sealed = master
        .seal(&random.bytes32(), random.nonce12(), &server_key_binding(&id))
        .map_err(|e| StorageError::Internal(e.to_string()))?;
    Ok(StoredServerKey {
        id,
        material: StoredKeyMaterial::Sealed(sealed),
        is_current: true,
        created_at: now,
        replaced_at: None,
    })
}

/// A fresh key id: `k` and 8 random hex digits, unique enough to tell rotated keys apart.
fn new_key_id(random: &dyn Random) -> KeyId {
    let mut bytes = [0u8; 4];
    random.fill(&mut bytes);
    // `k` and 8 lowercase hex digits is always a valid key id.
    KeyId(format!("k{}", hex::encode(bytes)))
}

/// A server key's material, opened with `master` when it is sealed; `UnknownKey` names the master
/// key it is sealed with when that is not one of `master`'s.
fn open_material(id: &KeyId, material: &StoredKeyMaterial, master: &MasterKeys) -> Result<[u8; 32], OpenSecretError> {
    match material {
        StoredKeyMaterial::Clear(material) => Ok(*material),
        StoredKeyMaterial::Sealed(sealed) => {
            master.open(sealed, &server_key_binding(id))?.try_into().map_err(|_| OpenSecretError::Malformed)
        }
    }
}

/// Why server key `id` did not open with `master`, as the keyring says it.
fn not_opened(id: &KeyId, master: &MasterKeys, reason: OpenSecretError) -> KeyringError {
    match reason {
        OpenSecretError::UnknownKey(sealed_with) => {
            KeyringError::WrongMasterKey { key_id: id.clone(), sealed_with, given: master.current_id().clone() }
        }
        reason => KeyringError::Unreadable { key_id: id.clone(), reason },
    }
}

/// The stored keys, opened: refused while any is still in clear.
fn open_keyring(keys: &[StoredServerKey], master: &MasterKeys) -> Result<Keyring, KeyringError> {
    if keys.iter().any(|key| matches!(key.material, StoredKeyMaterial::Clear(_))) {
        return Err(KeyringError::NotSealed);
    }
    let mut current = None;
    let mut previous = Vec::new();
    for key in keys {
        let material =
            open_material(&key.id, &key.material, master).map_err(|reason| not_opened(&key.id, master, reason))?;
        let secret = SecretKey::new(key.id.clone(), material);
        if key.is_current && current.is_none() {
            current = Some(secret);
        } else {
            previous.push(secret);
        }
    }
    let current = current.ok_or(KeyringError::NoCurrentKey)?;
    Keyring::new(current, previous).map_err(|e| StorageError::Internal(e.to_string()).into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keys::master::MasterKey;
    use crate::memory::MemoryStore;
    use crate::system::OsRandom;

    fn master(byte: u8) -> MasterKeys {
        MasterKeys::new(MasterKey::from_bytes([byte; 32]), None)
    }

    fn at(seconds: i64) -> Timestamp {
        Timestamp::from_unix_millis(1_800_000_000_000 + seconds * 1000).unwrap()
    }

    #[tokio::test]
    async fn the_keyring_is_made_sealed_and_opens_only_with_its_master_key() {
        let store = MemoryStore::default();
        let ring = load_keyring(&store, &OsRandom::default(), &master(1), at(0)).await.unwrap();
        let again = load_keyring(&store, &OsRandom::default(), &master(1), at(5)).await.unwrap();
        assert_eq!(again.current().material(), ring.current().material());
        let stored = store.server_keys().await.unwrap();
        assert!(
            matches!(&stored[0].material, StoredKeyMaterial::Sealed(sealed) if !sealed.windows(32).any(|w| w == ring.current().material()))
        );

        let wrong = load_keyring(&store, &OsRandom::default(), &master(2), at(5)).await.unwrap_err();
        assert_eq!(
            wrong,
            KeyringError::WrongMasterKey {
                key_id: ring.current().id().clone(),
                sealed_with: master(1).current_id().clone(),
                given: master(2).current_id().clone(),
            }
        );
    }

    #[tokio::test]
    async fn a_rotated_key_is_kept_until_its_signatures_expire() {
        let store = MemoryStore::default();
        let random = OsRandom::default();
        let first = load_keyring(&store, &random, &master(1), at(0)).await.unwrap().current().id().clone();
        let second = rotate_server_key(&store, &random, &master(1), at(10)).await.unwrap();
        let ring = load_keyring(&store, &random, &master(1), at(11)).await.unwrap();
        assert_eq!(ring.current().id(), &second);
        assert!(ring.find(&first).is_some(), "the old key still verifies");

        let ttl = Duration::seconds(60);
        assert_eq!(
            delete_server_key(&store, &second, at(20), ttl, true).await,
            Err(DeleteServerKeyError::Current(second.clone()))
        );
        assert_eq!(
            delete_server_key(&store, &first, at(69), ttl, false).await,
            Err(DeleteServerKeyError::StillInUse { key: first.clone(), from: at(70) })
        );
        delete_server_key(&store, &first, at(70), ttl, false).await.unwrap();
        assert_eq!(
            delete_server_key(&store, &first, at(70), ttl, false).await,
            Err(DeleteServerKeyError::NotFound(first.clone()))
        );
        assert!(rotate_server_key(&store, &random, &master(2), at(80)).await.is_err(), "not with another master key");
    }

    #[test]
    fn resealing_opens_what_the_server_keys_sealed_before_master_keys_and_seals_it_with_the_master_key() {
        let id = KeyId::parse("k0000abcd").unwrap();
        let legacy_key = SecretKey::new(id.clone(), [5; 32]);
        let app = AppId::from_uuid(uuid::Uuid::now_v7());
        let old_secret = SecretBox::seal(&legacy_key, b"whsec_old", [1; 12], app.as_bytes()).unwrap();
        let clear = StoredKeyMaterial::Clear([5; 32]);
        let stored = StoredServerKey {
            id: id.clone(),
            material: clear.clone(),
            is_current: true,
            created_at: at(0),
            replaced_at: None,
        };

        let master = master(3);
        let resealer = Resealer::new(&master, &[stored]).unwrap();
        let key = resealer.reseal(SealedSecret::ServerKey { id: &id, material: &clear }, [2; 12]).unwrap();
        assert_eq!(master.open(&key, &server_key_binding(&id)).unwrap(), [5; 32]);
        let secret =
            resealer.reseal(SealedSecret::WebhookSecret { app_id: app, sealed: &old_secret }, [3; 12]).unwrap();
        assert_eq!(master.open(&secret, app.as_bytes()).unwrap(), b"whsec_old");
        // Resealing what is sealed already works too (a new master key, or a second run).
        let twice = resealer.reseal(SealedSecret::WebhookSecret { app_id: app, sealed: &secret }, [4; 12]).unwrap();
        assert_eq!(master.open(&twice, app.as_bytes()).unwrap(), b"whsec_old");

        let other_app = AppId::from_uuid(uuid::Uuid::now_v7());
        let moved = resealer.reseal(SealedSecret::WebhookSecret { app_id: other_app, sealed: &secret }, [5; 12]);
        assert!(
            matches!(moved, Err(ResealError::Unreadable(UnreadableSecret { reason: OpenSecretError::Tampered, .. }))),
            "{moved:?}"
        );
        let unknown =
            SecretBox::seal(&SecretKey::new(KeyId::parse("k9").unwrap(), [9; 32]), b"x", [6; 12], b"").unwrap();
        assert!(matches!(
            resealer.reseal(SealedSecret::SigningKey { sealed: &unknown }, [7; 12]),
            Err(ResealError::Unreadable(UnreadableSecret { reason: OpenSecretError::UnknownKey(_), .. }))
        ));
    }
}
