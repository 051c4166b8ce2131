//! Signed tree heads: the log's size and root at a moment, signed with the ledger key (ECDSA P-256),
//! so that a proof against a root can be checked by anyone holding the public key.

use std::fmt;

use ring::rand::SystemRandom;
use ring::signature::{
    ECDSA_P256_SHA256_ASN1, ECDSA_P256_SHA256_ASN1_SIGNING, EcdsaKeyPair, KeyPair, UnparsedPublicKey,
};

use super::merkle::Hash;
use crate::Timestamp;

/// The DER of a SubjectPublicKeyInfo for an uncompressed P-256 point, up to the point itself:
/// SEQUENCE { SEQUENCE { OID id-ecPublicKey, OID prime256v1 }, BIT STRING (0 unused bits) }.
const P256_SPKI_PREFIX: [u8; 26] = [
    0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce,
    0x3d, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00,
];

/// An uncompressed P-256 point: `0x04 || x || y`.
const P256_POINT_LEN: usize = 65;

/// The log at a moment: how many leaves, their root, and when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeHead {
    pub tree_size: u64,
    pub root_hash: Hash,
    pub timestamp: Timestamp,
}

impl TreeHead {
    /// What is signed: the RFC 8785 canonical JSON of
    /// `{"treeSize": n, "rootHash": hex, "timestamp": "…Z"}`, members in canonical order.
    ///
    /// Written out directly, since none of the values needs escaping; a size is printed as plain
    /// digits, which is its canonical form up to 2^53 leaves.
    pub fn signed_payload(&self) -> String {
        format!(
            r#"{{"rootHash":"{}","timestamp":"{}","treeSize":{}}}"#,
            hex::encode(self.root_hash),
            self.timestamp.to_rfc3339(),
            self.tree_size
        )
    }
}

/// A tree head with its signature (DER ECDSA) and the id of the key that made it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignedTreeHead {
    pub head: TreeHead,
    pub signature: Vec<u8>,
    pub key_id: String,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LedgerKeyError {
    #[error("no ledger key could be generated")]
    Generate,
    #[error("the ledger key is not a PKCS#8 ECDSA P-256 key: {0}")]
    InvalidKey(String),
    #[error("the tree head could not be signed")]
    Sign,
}

/// The ledger's signing key: ECDSA P-256 with SHA-256. Its `Debug` shows only its id.
pub struct LedgerKey {
    key_pair: EcdsaKeyPair,
    rng: SystemRandom,
}

impl LedgerKey {
    /// A new key, and its PKCS#8 document to keep.
    pub fn generate() -> Result<(Self, Vec<u8>), LedgerKeyError> {
        let rng = SystemRandom::new();
        let pkcs8 = EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_ASN1_SIGNING, &rng)
            .map_err(|_| LedgerKeyError::Generate)?
            .as_ref()
            .to_vec();
        let key = Self::from_pkcs8(&pkcs8)?;
        Ok((key, pkcs8))
    }

    pub fn from_pkcs8(pkcs8: &[u8]) -> Result<Self, LedgerKeyError> {
        let rng = SystemRandom::new();
        let key_pair = EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_ASN1_SIGNING, pkcs8, &rng)
            .map_err(|rejected| LedgerKeyError::InvalidKey(rejected.to_string()))?;
        Ok(Self { key_pair, rng })
    }

    /// `lk-` and the first 8 hex digits of the SHA-256 of the public key's SubjectPublicKeyInfo.
    pub fn key_id(&self) -> String {
        let digest = ring::digest::digest(&ring::digest::SHA256, &self.public_key_spki_der());
        let prefix = digest.as_ref().get(..4).unwrap_or_default();
        format!("lk-{}", hex::encode(prefix))
    }

    /// The public key as a DER SubjectPublicKeyInfo.
    pub fn public_key_spki_der(&self) -> Vec<u8> {
        [P256_SPKI_PREFIX.as_slice(), self.key_pair.public_key().as_ref()].concat()
    }

    /// The public key as PEM (`-----BEGIN PUBLIC KEY-----`), as OpenSSL and browsers read it.
    pub fn public_key_pem(&self) -> String {
        let encoded = base64(&self.public_key_spki_der());
        let mut pem = String::from("-----BEGIN PUBLIC KEY-----\n");
        // Base64 is ASCII, so every 64-byte chunk is a whole line of text.
        for line in encoded.as_bytes().chunks(64) {
            pem.push_str(&String::from_utf8_lossy(line));
            pem.push('\n');
        }
        pem.push_str("-----END PUBLIC KEY-----\n");
        pem
    }

    /// The DER ECDSA signature of the head's [`signed_payload`](TreeHead::signed_payload).
    pub fn sign(&self, head: &TreeHead) -> Result<Vec<u8>, LedgerKeyError> {
        let signature =
            self.key_pair.sign(&self.rng, head.signed_payload().as_bytes()).map_err(|_| LedgerKeyError::Sign)?;
        Ok(signature.as_ref().to_vec())
    }

    /// Signs `head` and names this key beside it.
    pub fn sign_head(&self, head: TreeHead) -> Result<SignedTreeHead, LedgerKeyError> {
        let signature = self.sign(&head)?;
        Ok(SignedTreeHead { head, signature, key_id: self.key_id() })
    }
}

impl fmt::Debug for LedgerKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LedgerKey").field("key_id", &self.key_id()).finish_non_exhaustive()
    }
}

/// Whether `signature_der` is a valid ECDSA P-256 SHA-256 signature of the head's payload by the
/// key in `public_key_spki_der` (a P-256 SubjectPublicKeyInfo; any other key fails).
pub fn verify_tree_head(head: &TreeHead, signature_der: &[u8], public_key_spki_der: &[u8]) -> bool {
    let Some(point) = public_key_spki_der.strip_prefix(P256_SPKI_PREFIX.as_slice()) else { return false };
    if point.len() != P256_POINT_LEN {
        return false;
    }
    UnparsedPublicKey::new(&ECDSA_P256_SHA256_ASN1, point)
        .verify(head.signed_payload().as_bytes(), signature_der)
        .is_ok()
}

/// Standard base64 with padding (RFC 4648 §4), for PEM.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let symbol = |sextet: u32| char::from(ALPHABET.get((sextet & 0x3f) as usize).copied().unwrap_or(b'='));
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let group = chunk.iter().enumerate().fold(0u32, |group, (i, byte)| group | u32::from(*byte) << (16 - 8 * i));
        for position in 0..4 {
            if position <= chunk.len() {
                out.push(symbol(group >> (18 - 6 * position)));
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ledger::canonical::canonical_json;
    use serde_json::json;

    fn head() -> TreeHead {
        TreeHead {
            tree_size: 42,
            root_hash: [0x5d; 32],
            timestamp: Timestamp::parse_rfc3339("2026-11-22T07:15:03.123Z").unwrap(),
        }
    }

    #[test]
    fn the_payload_is_the_canonical_json_of_size_root_and_time() {
        let head = head();
        let expected =
            format!(r#"{{"rootHash":"{}","timestamp":"2026-11-22T07:15:03.123Z","treeSize":42}}"#, "5d".repeat(32));
        assert_eq!(head.signed_payload(), expected);
        let as_json = json!({"treeSize": 42, "rootHash": "5d".repeat(32), "timestamp": "2026-11-22T07:15:03.123Z"});
        assert_eq!(canonical_json(&as_json).unwrap(), expected);
    }

    #[test]
    fn a_signed_head_verifies_with_the_public_key() {
        let (key, _) = LedgerKey::generate().unwrap();
        let signature = key.sign(&head()).unwrap();
        assert!(verify_tree_head(&head(), &signature, &key.public_key_spki_der()));
        let signed = key.sign_head(head()).unwrap();
        assert_eq!(signed.key_id, key.key_id());
        assert!(verify_tree_head(&signed.head, &signed.signature, &key.public_key_spki_der()));
    }

    #[test]
    fn any_change_fails() {
        let (key, _) = LedgerKey::generate().unwrap();
        let public = key.public_key_spki_der();
        let signature = key.sign(&head()).unwrap();
        let other_size = TreeHead { tree_size: 43, ..head() };
        let mut other_root = head();
        other_root.root_hash[31] ^= 1;
        let other_time =
            TreeHead { timestamp: head().timestamp.saturating_add(time::Duration::milliseconds(1)), ..head() };
        for changed in [other_size, other_root, other_time] {
            assert!(!verify_tree_head(&changed, &signature, &public), "{changed:?}");
        }
        for i in 0..signature.len() {
            let mut changed = signature.clone();
            changed[i] ^= 0x01;
            assert!(!verify_tree_head(&head(), &changed, &public), "signature byte {i}");
        }
        assert!(!verify_tree_head(&head(), &signature[..signature.len() - 1], &public));
        assert!(!verify_tree_head(&head(), &[], &public));
    }

    #[test]
    fn another_key_fails() {
        let (key, _) = LedgerKey::generate().unwrap();
        let (other, _) = LedgerKey::generate().unwrap();
        let signature = key.sign(&head()).unwrap();
        assert!(!verify_tree_head(&head(), &signature, &other.public_key_spki_der()));
        assert_ne!(key.key_id(), other.key_id());
    }

    #[test]
    fn a_public_key_that_is_not_p256_fails() {
        let (key, _) = LedgerKey::generate().unwrap();
        let signature = key.sign(&head()).unwrap();
        let spki = key.public_key_spki_der();
        // The bare point, a truncated SPKI, and the P-384 curve OID in place of P-256's.
        assert!(!verify_tree_head(&head(), &signature, &spki[26..]));
        assert!(!verify_tree_head(&head(), &signature, &spki[..90]));
        let mut other_curve = spki.clone();
        other_curve[22] = 0x22;
        assert!(!verify_tree_head(&head(), &signature, &other_curve));
        assert!(!verify_tree_head(&head(), &signature, &[]));
    }

    #[test]
    fn a_key_survives_its_pkcs8_document() {
        let (key, pkcs8) = LedgerKey::generate().unwrap();
        let again = LedgerKey::from_pkcs8(&pkcs8).unwrap();
        assert_eq!(again.public_key_spki_der(), key.public_key_spki_der());
        assert_eq!(again.key_id(), key.key_id());
        assert!(verify_tree_head(&head(), &again.sign(&head()).unwrap(), &key.public_key_spki_der()));
        assert!(matches!(LedgerKey::from_pkcs8(b"not a key"), Err(LedgerKeyError::InvalidKey(_))));
    }

    #[test]
    fn the_key_id_and_public_key_have_their_documented_forms() {
        let (key, pkcs8) = LedgerKey::generate().unwrap();
        let spki = key.public_key_spki_der();
        assert_eq!(spki.len(), 91);
        assert_eq!(spki[26], 0x04, "an uncompressed point");
        let digest = ring::digest::digest(&ring::digest::SHA256, &spki);
        assert_eq!(key.key_id(), format!("lk-{}", hex::encode(&digest.as_ref()[..4])));
        let pem = key.public_key_pem();
        let lines: Vec<&str> = pem.lines().collect();
        assert_eq!(lines.first(), Some(&"-----BEGIN PUBLIC KEY-----"));
        assert_eq!(lines.last(), Some(&"-----END PUBLIC KEY-----"));
        assert_eq!(lines[1..lines.len() - 1].concat(), base64(&spki));
        assert!(lines.iter().all(|line| line.len() <= 64));
        let debug = format!("{key:?}");
        assert!(debug.contains(&key.key_id()));
        assert!(!debug.contains(&hex::encode(&pkcs8)) && !debug.contains(&hex::encode(&spki)));
    }

    #[test]
    fn base64_matches_rfc_4648() {
        let vectors = [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ];
        for (input, expected) in vectors {
            assert_eq!(base64(input.as_bytes()), expected, "{input}");
        }
        assert_eq!(base64(&[0xfb, 0xff, 0xbf]), "+/+/");
    }
}
