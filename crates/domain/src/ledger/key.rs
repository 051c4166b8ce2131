//! The ledger key as the service loads it: made, and sealed with the master key, on the very first
//! start.

use crate::keys::management::LEDGER_KEY_BINDING;
use crate::keys::master::MasterKeys;
use crate::ledger::models::StoredLedgerKey;
use crate::ledger::tree_head::LedgerKey;
use crate::ports::{LedgerStore, Random, StorageError};

/// The ledger key could not be loaded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LoadLedgerKeyError {
    /// It could not be made, sealed or opened, or the stored one is not a key.
    #[error("the ledger key cannot be prepared: {0}")]
    Unusable(String),
    #[error(transparent)]
    Storage(#[from] StorageError),
}

/// The ledger key, made (and sealed with the master key) on the very first start.
pub(crate) async fn load_ledger_key(
    store: &dyn LedgerStore,
    random: &dyn Random,
    master: &MasterKeys,
) -> Result<LedgerKey, LoadLedgerKeyError> {
    let failed = |e: String| LoadLedgerKeyError::Unusable(e);
    let (candidate, pkcs8) = LedgerKey::generate().map_err(|e| failed(e.to_string()))?;
    let sealed = master.seal(&pkcs8, random.nonce12(), LEDGER_KEY_BINDING).map_err(|e| failed(e.to_string()))?;
    let stored = store
        .ensure_ledger_key(&StoredLedgerKey {
            id: candidate.key_id(),
            private_key_sealed: sealed,
            public_key_der: candidate.public_key_spki_der(),
        })
        .await?;
    let pkcs8 = master.open(&stored.private_key_sealed, LEDGER_KEY_BINDING).map_err(|e| failed(e.to_string()))?;
    LedgerKey::from_pkcs8(&pkcs8).map_err(|e| failed(e.to_string()))
}
