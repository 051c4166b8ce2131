//! Server keys as storage keeps them.

use std::fmt::Debug;

use super::KeyId;
use crate::Timestamp;

/// A server key as stored: its material sealed with the master key, or, in a database made before
/// master keys, in clear until `master-key rotate` seals it.
#[derive(Clone, PartialEq, Eq)]
pub struct StoredServerKey {
    pub id: KeyId,
    pub material: StoredKeyMaterial,
    pub is_current: bool,
    pub created_at: Timestamp,
    /// When another key became current instead (Signatures it made stay verifiable until they expire).
    pub replaced_at: Option<Timestamp>,
}

#[derive(Clone, PartialEq, Eq)]
pub enum StoredKeyMaterial {
    Sealed(Vec<u8>),
    Clear([u8; 32]),
}

impl Debug for StoredKeyMaterial {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            StoredKeyMaterial::Sealed(_) => "Sealed(***)",
            StoredKeyMaterial::Clear(_) => "Clear(***)",
        })
    }
}

impl Debug for StoredServerKey {
    // Clear material is a secret; only its id and dates are printed.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StoredServerKey")
            .field("id", &self.id)
            .field("material", &self.material)
            .field("is_current", &self.is_current)
            .field("created_at", &self.created_at)
            .field("replaced_at", &self.replaced_at)
            .finish()
    }
}
