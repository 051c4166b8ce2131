//! The master key: the key-encryption key kept outside the database (a file or an environment
//! variable). It seals every secret the database holds (the server keys, the certificate signing
//! key, the webhook signing secrets), so a dump of the database alone opens none of them.

use std::fmt;

use ring::hmac;

use super::{KeyId, Keyring, SecretKey};
use crate::secrets::{OpenSecretError, SealSecretError, SecretBox};

/// Names a master key without revealing it: `mk-` and 8 hex digits of a MAC of the key.
const ID_LABEL: &[u8] = b"clickwrap/v1/master-key-id";

/// One master key: 32 random bytes, known by an id derived from them, so that an error can say
/// which master key sealed a secret without the database storing anything about the key.
#[derive(Clone)]
pub struct MasterKey(SecretKey);

impl MasterKey {
    pub fn from_bytes(material: [u8; 32]) -> Self {
        let tag = hmac::sign(&hmac::Key::new(hmac::HMAC_SHA256, &material), ID_LABEL);
        let digits = hex::encode(tag.as_ref().get(..4).unwrap_or_default());
        // `mk-` and 8 lowercase hex digits is always a valid key id.
        let id = KeyId(format!("mk-{digits}"));
        Self(SecretKey::new(id, material))
    }

    pub fn id(&self) -> &KeyId {
        self.0.id()
    }

    /// The 32 bytes, to write a newly generated key to its file.
    pub fn material(&self) -> &[u8; 32] {
        self.0.material()
    }
}

impl fmt::Debug for MasterKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("MasterKey").field(self.id()).finish()
    }
}

/// The master keys a server holds: the current one seals; it and, while a master-key rotation is
/// under way, the previous one open.
#[derive(Debug, Clone)]
pub struct MasterKeys(Keyring);

impl MasterKeys {
    /// `previous` is ignored when it is the current key itself.
    pub fn new(current: MasterKey, previous: Option<MasterKey>) -> Self {
        let previous: Vec<SecretKey> =
            previous.filter(|old| old.id() != current.id()).map(|old| old.0).into_iter().collect();
        // Distinct ids, so the ring is always well formed.
        let ring = Keyring::new(current.0.clone(), previous).unwrap_or_else(|_| Keyring::single(current.0));
        Self(ring)
    }

    pub fn current_id(&self) -> &KeyId {
        self.0.current().id()
    }

    /// The id of the previous key, while a rotation is under way.
    pub fn previous_id(&self) -> Option<&KeyId> {
        self.0.previous().first().map(SecretKey::id)
    }

    /// Seals `plaintext` with the current master key; `binding` ties it to its row and purpose.
    pub fn seal(&self, plaintext: &[u8], nonce: [u8; 12], binding: &[u8]) -> Result<Vec<u8>, SealSecretError> {
        SecretBox::seal(self.0.current(), plaintext, nonce, binding)
    }

    /// Opens what [`Self::seal`] sealed with this or the previous master key.
    pub fn open(&self, sealed: &[u8], binding: &[u8]) -> Result<Vec<u8>, OpenSecretError> {
        SecretBox::open(&self.0, sealed, binding)
    }

    /// Whether `sealed` was sealed with the current master key (by its header; not authenticated).
    pub fn sealed_with_current(&self, sealed: &[u8]) -> bool {
        SecretBox::key_id(sealed).as_ref() == Some(self.current_id())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_id_names_the_key_without_revealing_it() {
        let key = MasterKey::from_bytes([7; 32]);
        let id = key.id().as_str().to_owned();
        assert!(id.starts_with("mk-") && id.len() == 11, "{id}");
        assert_eq!(MasterKey::from_bytes([7; 32]).id().as_str(), id, "the id is a function of the key");
        assert_ne!(MasterKey::from_bytes([8; 32]).id().as_str(), id);
        assert!(!format!("{key:?}").contains("7, 7"), "{key:?}");
    }

    #[test]
    fn sealed_with_one_key_opens_with_it_and_during_a_rotation_only() {
        let old = MasterKey::from_bytes([1; 32]);
        let new = MasterKey::from_bytes([2; 32]);
        let sealed = MasterKeys::new(old.clone(), None).seal(b"secret", [9; 12], b"row").unwrap();

        let rotating = MasterKeys::new(new.clone(), Some(old.clone()));
        assert_eq!(rotating.open(&sealed, b"row").unwrap(), b"secret");
        assert!(!rotating.sealed_with_current(&sealed));
        let resealed = rotating.seal(b"secret", [8; 12], b"row").unwrap();
        assert!(rotating.sealed_with_current(&resealed));

        let after = MasterKeys::new(new, None);
        assert_eq!(after.open(&sealed, b"row"), Err(OpenSecretError::UnknownKey(old.id().clone())));
        assert_eq!(after.open(&resealed, b"row").unwrap(), b"secret");
        assert_eq!(after.open(&resealed, b"other row"), Err(OpenSecretError::Tampered));
    }

    #[test]
    fn a_previous_key_equal_to_the_current_is_ignored() {
        let key = MasterKey::from_bytes([3; 32]);
        let keys = MasterKeys::new(key.clone(), Some(key));
        assert_eq!(keys.previous_id(), None);
    }
}
