//! The ledger's records as storage keeps them.

use std::fmt::Debug;

use super::merkle::Hash;

/// The length of the random salt drawn for each event.
pub const SALT_LEN: usize = 16;

/// An event's leaf in its tenant's evidence ledger: the hash of its evidence record and the salt of
/// the commitments to its personal values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LedgerLeaf {
    pub leaf_hash: Hash,
    pub salt: [u8; SALT_LEN],
}

/// A leaf as stored, with its place in the log. The salt is gone once the values were erased.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StoredLeaf {
    pub leaf_index: u64,
    pub leaf_hash: Hash,
    pub salt: Option<[u8; SALT_LEN]>,
}

/// The key that signs tree heads, as stored: the private key (PKCS#8) sealed with the master key.
#[derive(Clone, PartialEq, Eq)]
pub struct StoredLedgerKey {
    pub id: String,
    pub private_key_sealed: Vec<u8>,
    pub public_key_der: Vec<u8>,
}

impl Debug for StoredLedgerKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StoredLedgerKey").field("id", &self.id).finish_non_exhaustive()
    }
}
