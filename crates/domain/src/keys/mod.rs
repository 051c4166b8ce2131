//! The server's own secret keys. Each key has an id that travels with whatever it signed or sealed,
//! so a new key can become current while tokens and ciphertexts made with older keys stay readable
//! until those keys are dropped from the ring.

use std::fmt;
use std::str::FromStr;

use ring::hmac;

pub mod management;
pub mod master;
pub mod models;

/// The longest key id: ids are written into tokens, so they stay short.
const KEY_ID_MAX_LEN: usize = 32;

/// The name of one server key: 1 to 32 characters of `a-z`, `0-9` and `-`, so it can sit in a token
/// or a URL unescaped and never contains the `.` that separates token parts.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct KeyId(String);

/// The text given for a key id is not 1 to 32 characters of `a-z`, `0-9` and `-`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a key id must be 1 to 32 characters of a-z, 0-9 and -")]
pub struct InvalidKeyId;

impl KeyId {
    pub fn parse(text: &str) -> Result<Self, InvalidKeyId> {
        let well_formed = (1..=KEY_ID_MAX_LEN).contains(&text.len())
            && text.bytes().all(|b| matches!(b, b'a'..=b'z' | b'0'..=b'9' | b'-'));
        if well_formed { Ok(Self(text.to_owned())) } else { Err(InvalidKeyId) }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for KeyId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for KeyId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "KeyId({})", self.0)
    }
}

impl FromStr for KeyId {
    type Err = InvalidKeyId;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Self::parse(text)
    }
}

/// What a key derived from a [`SecretKey`] is used for. Each use gets its own derived key, so one
/// configured key can serve every purpose without a MAC made for one purpose ever being accepted
/// for another (a cursor tag is never a valid Signature tag), and the AES key is not the HMAC key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KeyPurpose {
    ServiceSignature,
    EventsCursor,
    SecretBox,
    ConsoleCsrf,
}

impl KeyPurpose {
    const fn label(self) -> &'static [u8] {
        match self {
            Self::ServiceSignature => b"clickwrap/v1/service-signature",
            Self::EventsCursor => b"clickwrap/v1/events-cursor",
            Self::SecretBox => b"clickwrap/v1/secret-box",
            Self::ConsoleCsrf => b"clickwrap/v1/console-csrf",
        }
    }
}

/// One server key: 32 random bytes and the id they are known by.
#[derive(Clone)]
pub struct SecretKey {
    id: KeyId,
    material: [u8; 32],
}

impl SecretKey {
    pub fn new(id: KeyId, material: [u8; 32]) -> Self {
        Self { id, material }
    }

    pub fn id(&self) -> &KeyId {
        &self.id
    }

    pub fn material(&self) -> &[u8; 32] {
        &self.material
    }

    /// 32 key bytes for `purpose`: HMAC-SHA256(material, purpose label), a PRF over uniformly random
    /// material, i.e. a one-block HKDF-Expand.
    pub(crate) fn derive(&self, purpose: KeyPurpose) -> hmac::Tag {
        hmac::sign(&hmac::Key::new(hmac::HMAC_SHA256, &self.material), purpose.label())
    }

    /// The HMAC-SHA256 key for `purpose`.
    pub(crate) fn hmac_key(&self, purpose: KeyPurpose) -> hmac::Key {
        hmac::Key::new(hmac::HMAC_SHA256, self.derive(purpose).as_ref())
    }
}

impl fmt::Debug for SecretKey {
    // The material is the secret: only the id is ever printed.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SecretKey").field("id", &self.id).finish_non_exhaustive()
    }
}

/// Two keys in one ring share an id, so a token naming that id could not say which key made it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the key id {0} is used by more than one key in the keyring")]
pub struct DuplicateKeyId(pub KeyId);

/// The keys the server signs and seals with. New tokens and ciphertexts always use `current`;
/// reading accepts any key in the ring, so a key can be rotated by making a new one current and
/// keeping the old one in `previous` until what it made has expired or been re-sealed.
#[derive(Debug, Clone)]
pub struct Keyring {
    current: SecretKey,
    previous: Vec<SecretKey>,
}

impl Keyring {
    /// Fails when two keys share an id (a configuration mistake that would make lookups ambiguous).
    pub fn new(current: SecretKey, previous: Vec<SecretKey>) -> Result<Self, DuplicateKeyId> {
        for (i, key) in previous.iter().enumerate() {
            let mut earlier = std::iter::once(&current).chain(previous.iter().take(i));
            if earlier.any(|other| other.id == key.id) {
                return Err(DuplicateKeyId(key.id.clone()));
            }
        }
        Ok(Self { current, previous })
    }

    /// A ring with just one key (no rotation under way).
    pub fn single(current: SecretKey) -> Self {
        Self { current, previous: Vec::new() }
    }

    pub fn current(&self) -> &SecretKey {
        &self.current
    }

    pub fn previous(&self) -> &[SecretKey] {
        &self.previous
    }

    /// The key with this id, current or previous.
    pub fn find(&self, id: &KeyId) -> Option<&SecretKey> {
        std::iter::once(&self.current).chain(self.previous.iter()).find(|key| key.id == *id)
    }
}

/// Decodes lowercase hex only. Tokens are compared by what they decode to, so accepting `A` for `a`
/// would let a changed token still verify; one spelling per value keeps tokens tamper-evident as text.
pub(crate) fn decode_lower_hex(text: &str) -> Option<Vec<u8>> {
    if text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) { hex::decode(text).ok() } else { None }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(id: &str, byte: u8) -> SecretKey {
        SecretKey::new(KeyId::parse(id).unwrap(), [byte; 32])
    }

    #[test]
    fn key_ids_are_short_lowercase_names() {
        for good in ["a", "k1", "2026-05", "abcdefghijklmnopqrstuvwxyz012345"] {
            assert_eq!(KeyId::parse(good).unwrap().as_str(), good);
        }
        for bad in ["", "K1", "k_1", "k.1", "k 1", "ké", "abcdefghijklmnopqrstuvwxyz0123456"] {
            assert_eq!(KeyId::parse(bad), Err(InvalidKeyId), "{bad}");
        }
    }

    #[test]
    fn key_id_prints_its_text() {
        let id = KeyId::parse("k-2026").unwrap();
        assert_eq!(id.to_string(), "k-2026");
        assert_eq!(format!("{id:?}"), "KeyId(k-2026)");
    }

    #[test]
    fn debug_never_prints_the_material() {
        let k = SecretKey::new(KeyId::parse("k1").unwrap(), [0xab; 32]);
        let shown = format!("{k:?}");
        assert!(shown.contains("k1"), "{shown}");
        assert!(!shown.contains("171"), "{shown}");
        assert!(!shown.to_lowercase().contains("ab"), "{shown}");
        let ring = Keyring::single(k);
        assert!(!format!("{ring:?}").contains("171"));
    }

    #[test]
    fn find_looks_in_current_and_previous() {
        let ring = Keyring::new(key("new", 1), vec![key("old", 2), key("older", 3)]).unwrap();
        assert_eq!(ring.current().id().as_str(), "new");
        assert_eq!(ring.find(&KeyId::parse("new").unwrap()).unwrap().material(), &[1; 32]);
        assert_eq!(ring.find(&KeyId::parse("older").unwrap()).unwrap().material(), &[3; 32]);
        assert!(ring.find(&KeyId::parse("other").unwrap()).is_none());
        assert_eq!(ring.previous().len(), 2);
    }

    #[test]
    fn duplicate_ids_are_refused() {
        let err = Keyring::new(key("a", 1), vec![key("b", 2), key("a", 3)]).unwrap_err();
        assert_eq!(err, DuplicateKeyId(KeyId::parse("a").unwrap()));
        let err = Keyring::new(key("a", 1), vec![key("b", 2), key("b", 2)]).unwrap_err();
        assert_eq!(err.0.as_str(), "b");
    }

    #[test]
    fn derived_keys_differ_by_purpose_and_by_material() {
        let a = key("a", 1);
        let sig = a.derive(KeyPurpose::ServiceSignature);
        let cur = a.derive(KeyPurpose::EventsCursor);
        let sbox = a.derive(KeyPurpose::SecretBox);
        assert_ne!(sig.as_ref(), cur.as_ref());
        assert_ne!(sig.as_ref(), sbox.as_ref());
        assert_ne!(cur.as_ref(), sbox.as_ref());
        assert_ne!(sig.as_ref(), key("a", 2).derive(KeyPurpose::ServiceSignature).as_ref());
        assert_eq!(sig.as_ref().len(), 32);
    }

    #[test]
    fn hex_decoding_is_lowercase_only() {
        assert_eq!(decode_lower_hex("00ff10"), Some(vec![0, 255, 16]));
        assert_eq!(decode_lower_hex(""), Some(vec![]));
        assert_eq!(decode_lower_hex("00FF"), None);
        assert_eq!(decode_lower_hex("0g"), None);
        assert_eq!(decode_lower_hex("abc"), None);
        assert_eq!(decode_lower_hex("+1"), None);
    }
}
