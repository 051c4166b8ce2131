//! Credentials handed to operators (App Keys, operator tokens, webhook signing secrets) and how the
//! server keeps them: verifiers it can check against are stored as hashes, and the one secret the
//! server must read back (the webhook signing secret, to sign with) is stored encrypted.
//!
//! Secret values never appear in `Debug` output and have no `Display`: the only way to read one is
//! [`AppKey::expose`] and its siblings, so every place a secret leaves the program is greppable.

use std::fmt;

use base64ct::{Base64, Encoding as _};
use ring::aead::{AES_256_GCM, Aad, LessSafeKey, NONCE_LEN, Nonce, UnboundKey};
use ring::digest;

use crate::keys::{KeyId, KeyPurpose, Keyring, SecretKey, decode_lower_hex};

/// The text given for a credential does not have the credential's format. It never repeats the text:
/// a mistyped secret is still mostly a secret.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a valid {kind}: expected `{prefix}` followed by {rest}")]
pub struct InvalidSecretFormat {
    /// Which credential it was meant to be, for the error message.
    pub kind: &'static str,
    pub prefix: &'static str,
    /// What must follow the prefix, in words.
    pub rest: &'static str,
}

/// Number of hex digits after the prefix: 32 random bytes.
const SECRET_HEX_LEN: usize = 64;

macro_rules! secret_text {
    ($(#[$doc:meta])* $name:ident, $prefix:literal, $kind:literal) => {
        $(#[$doc])*
        #[derive(Clone)]
        pub struct $name(String);

        impl $name {
            /// The text shown before the random part, which tells a reader what the secret is for
            /// (and lets secret scanners find leaked ones).
            pub const PREFIX: &'static str = $prefix;

            /// A new credential from 32 bytes of a cryptographically secure random source.
            pub fn from_random(bytes: [u8; 32]) -> Self {
                Self(format!("{}{}", $prefix, hex::encode(bytes)))
            }

            /// Checks the exact format: the prefix, then 64 lowercase hex digits, nothing else.
            pub fn parse(text: &str) -> Result<Self, InvalidSecretFormat> {
                let invalid = InvalidSecretFormat { kind: $kind, prefix: $prefix, rest: "64 lowercase hex digits" };
                let random = text.strip_prefix($prefix).ok_or_else(|| invalid.clone())?;
                if random.len() != SECRET_HEX_LEN || decode_lower_hex(random).is_none() {
                    return Err(invalid);
                }
                Ok(Self(text.to_owned()))
            }

            /// The secret's text. The one way to read it: call it only to hand the secret to its
            /// owner, or to use it (hash, sign).
            pub fn expose(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(concat!(stringify!($name), "(***)"))
            }
        }
    };
}

secret_text!(
    /// The App Key: the secret half of an App's credentials, sent by the operator's backend in
    /// `X-APP-KEY`. `ak_` + 64 lowercase hex digits.
    AppKey,
    "ak_",
    "App Key"
);
secret_text!(
    /// A bearer token for the operator API. `ot_` + 64 lowercase hex digits.
    OperatorToken,
    "ot_",
    "operator token"
);
/// The key webhooks are signed with, shared with the operator's receiver: `whsec_` + the base64
/// (standard alphabet, padded) of 32 random bytes, the format of the Standard Webhooks libraries.
/// Secrets handed out before that are `whsec_` + 64 lowercase hex digits, and stay valid: hex text
/// is base64 text too. The spec's `X-Service-Signature` is keyed by the bytes of this whole text as
/// the operator sees it; the Standard Webhooks `webhook-signature` by [`Self::standard_key`].
#[derive(Clone)]
pub struct WebhookSigningSecret(String);

/// Base64 of 32 bytes, padded.
const SECRET_BASE64_LEN: usize = 44;

impl WebhookSigningSecret {
    pub const PREFIX: &'static str = crate::webhooks::signing::SECRET_PREFIX;

    /// A new secret from 32 bytes of a cryptographically secure random source.
    pub fn from_random(bytes: [u8; 32]) -> Self {
        Self(format!("{}{}", Self::PREFIX, Base64::encode_string(&bytes)))
    }

    /// Checks the exact format: the prefix, then either the base64 of 32 bytes (44 characters,
    /// padded) or, for secrets handed out before, 64 lowercase hex digits; nothing else.
    pub fn parse(text: &str) -> Result<Self, InvalidSecretFormat> {
        let invalid = InvalidSecretFormat {
            kind: "webhook signing secret",
            prefix: Self::PREFIX,
            rest: "the base64 of 32 bytes (or, for a secret from before, 64 lowercase hex digits)",
        };
        let random = text.strip_prefix(Self::PREFIX).ok_or_else(|| invalid.clone())?;
        let hex = random.len() == SECRET_HEX_LEN && decode_lower_hex(random).is_some();
        let base64 = random.len() == SECRET_BASE64_LEN && Base64::decode_vec(random).is_ok_and(|b| b.len() == 32);
        if !(hex || base64) {
            return Err(invalid);
        }
        Ok(Self(text.to_owned()))
    }

    /// The secret's text. The one way to read it: call it only to hand the secret to its owner,
    /// or to use it (sign).
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// The HMAC key of the Standard Webhooks signature: the text after `whsec_`, base64-decoded
    /// (32 bytes for a new secret, 48 for one of 64 hex digits).
    pub fn standard_key(&self) -> Vec<u8> {
        // `parse` and `from_random` only make secrets that decode.
        crate::webhooks::signing::standard_key(&self.0).unwrap_or_default()
    }
}

impl fmt::Debug for WebhookSigningSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("WebhookSigningSecret(***)")
    }
}

secret_text!(
    /// The secret of an operator's console session, carried by its cookie. `cs_` + 64 lowercase
    /// hex digits; only its hash is stored.
    ConsoleSessionSecret,
    "cs_",
    "console session"
);

impl ConsoleSessionSecret {
    /// What the server stores instead of the session secret.
    pub fn hash(&self) -> SecretHash {
        SecretHash::of(&self.0)
    }
}

impl AppKey {
    /// What the server stores instead of the key.
    pub fn hash(&self) -> SecretHash {
        SecretHash::of(&self.0)
    }
}

impl OperatorToken {
    /// What the server stores instead of the token.
    pub fn hash(&self) -> SecretHash {
        SecretHash::of(&self.0)
    }
}

/// SHA-256 of a credential's text: the stored verifier for App Keys and operator tokens.
///
/// A fast, unsalted hash is the right tool here: the credentials are 256 bits of randomness, so
/// there is nothing to brute-force and nothing a salt or a slow password hash would protect; a
/// leaked hash still does not give the credential. (Passwords would need Argon2; these are not.)
#[derive(Clone, Copy)]
pub struct SecretHash([u8; 32]);

impl SecretHash {
    /// Hashes a credential's text.
    pub fn of(text: &str) -> Self {
        let digest = digest::digest(&digest::SHA256, text.as_bytes());
        let mut bytes = [0u8; 32];
        for (out, byte) in bytes.iter_mut().zip(digest.as_ref()) {
            *out = *byte;
        }
        Self(bytes)
    }

    /// A hash read back from storage.
    pub fn from_bytes(bytes: [u8; 32]) -> Self {
        Self(bytes)
    }

    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// Whether `presented` is the credential this hash was made from. Compares in constant time, so
    /// response timing says nothing about how close a guess was.
    pub fn matches(&self, presented: &str) -> bool {
        constant_time_eq(&self.0, &Self::of(presented).0)
    }
}

impl fmt::Debug for SecretHash {
    // Not secret, but a credential verifier: keep it out of logs all the same.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SecretHash(***)")
    }
}

/// Compares two equal-length arrays without an early exit. `ring::constant_time` is deprecated in
/// ring 0.17 ("no promises regarding side channels"), so this is an xor fold whose result the
/// optimiser cannot see through (`black_box`) until every byte has been looked at.
fn constant_time_eq(a: &[u8; 32], b: &[u8; 32]) -> bool {
    let diff = a.iter().zip(b.iter()).fold(0u8, |acc, (x, y)| std::hint::black_box(acc | (x ^ y)));
    std::hint::black_box(diff) == 0
}

/// Encrypts secrets the server must read back (the webhook signing secret) for storage, with
/// AES-256-GCM under a key derived from a [`SecretKey`].
///
/// Sealed layout: `[key id length: 1 byte][key id][nonce: 12 bytes][ciphertext][tag: 16 bytes]`.
/// The key id lets [`SecretBox::open`] pick the key from the ring after a rotation. The header (key
/// id length and key id) is authenticated along with the caller's `aad`, which should bind the
/// ciphertext to its row (the app id bytes, say) so a sealed secret copied to another row won't open.
#[derive(Debug, Clone, Copy)]
pub struct SecretBox;

/// The plaintext was too long for AES-GCM (over 64 GiB); no secret comes near that.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the plaintext is too long to seal")]
pub struct SealSecretError;

/// A sealed secret could not be opened.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OpenSecretError {
    /// Not in the sealed layout at all.
    #[error("the sealed secret is malformed")]
    Malformed,
    /// Sealed with a key that is no longer (or never was) in the keyring.
    #[error("the secret was sealed with key {0}, which is not in the keyring")]
    UnknownKey(KeyId),
    /// Authentication failed: the bytes were changed, the aad is another row's, or the key with this
    /// id is not the one that sealed it.
    #[error("the sealed secret failed authentication")]
    Tampered,
}

const TAG_LEN: usize = 16;

impl SecretBox {
    /// Encrypts `plaintext` with the key `key`. `nonce` must never repeat for one key: pass 12 fresh
    /// random bytes (random 96-bit nonces are safe for far more secrets than a service will seal).
    pub fn seal(
        key: &SecretKey,
        plaintext: &[u8],
        nonce: [u8; NONCE_LEN],
        aad: &[u8],
    ) -> Result<Vec<u8>, SealSecretError> {
        let id = key.id().as_str().as_bytes();
        // Key ids are at most 32 bytes, so the length always fits in its byte.
        let id_len = u8::try_from(id.len()).map_err(|_| SealSecretError)?;
        let mut header = Vec::with_capacity(1 + id.len());
        header.push(id_len);
        header.extend_from_slice(id);

        let mut in_out = plaintext.to_vec();
        aead_key(key)
            .and_then(|k| {
                k.seal_in_place_append_tag(
                    Nonce::assume_unique_for_key(nonce),
                    Aad::from(full_aad(&header, aad)),
                    &mut in_out,
                )
            })
            .map_err(|_| SealSecretError)?;

        let mut sealed = header;
        sealed.extend_from_slice(&nonce);
        sealed.extend_from_slice(&in_out);
        Ok(sealed)
    }

    /// Decrypts what [`SecretBox::seal`] made, with the key its header names, if the ring still has it.
    pub fn open(keyring: &Keyring, sealed: &[u8], aad: &[u8]) -> Result<Vec<u8>, OpenSecretError> {
        let (header, id, body) = split_header(sealed).ok_or(OpenSecretError::Malformed)?;
        let (nonce, ciphertext) = body.split_first_chunk::<NONCE_LEN>().ok_or(OpenSecretError::Malformed)?;
        if ciphertext.len() < TAG_LEN {
            return Err(OpenSecretError::Malformed);
        }
        let key = keyring.find(&id).ok_or_else(|| OpenSecretError::UnknownKey(id.clone()))?;

        let mut in_out = ciphertext.to_vec();
        let opening_key = aead_key(key).map_err(|_| OpenSecretError::Tampered)?;
        let plaintext_len = opening_key
            .open_in_place(Nonce::assume_unique_for_key(*nonce), Aad::from(full_aad(header, aad)), &mut in_out)
            .map_err(|_| OpenSecretError::Tampered)?
            .len();
        in_out.truncate(plaintext_len);
        Ok(in_out)
    }

    /// The id of the key that sealed `sealed`, as its header says (not authenticated).
    pub fn key_id(sealed: &[u8]) -> Option<KeyId> {
        split_header(sealed).map(|(_, id, _)| id)
    }
}

/// The header (key id length and key id), the key id, and the rest.
fn split_header(sealed: &[u8]) -> Option<(&[u8], KeyId, &[u8])> {
    let (&id_len, _) = sealed.split_first()?;
    let (header, body) = sealed.split_at_checked(1 + usize::from(id_len))?;
    let id = std::str::from_utf8(header.get(1..)?).ok().and_then(|text| KeyId::parse(text).ok())?;
    Some((header, id, body))
}

fn aead_key(key: &SecretKey) -> Result<LessSafeKey, ring::error::Unspecified> {
    // The derived key is 32 bytes, exactly AES-256's key length, so this cannot fail in practice.
    UnboundKey::new(&AES_256_GCM, key.derive(KeyPurpose::SecretBox).as_ref()).map(LessSafeKey::new)
}

/// The header is authenticated too; it carries its own length, so header and caller aad cannot run
/// together ambiguously.
fn full_aad(header: &[u8], aad: &[u8]) -> Vec<u8> {
    let mut full = Vec::with_capacity(header.len() + aad.len());
    full.extend_from_slice(header);
    full.extend_from_slice(aad);
    full
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const RANDOM: [u8; 32] = [
        0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0xf0, 0xe1,
        0xd2, 0xc3, 0xb4, 0xa5, 0x96, 0x87, 0x78, 0x69, 0x5a, 0x4b, 0x3c, 0x2d, 0x1e, 0xff,
    ];
    const RANDOM_HEX: &str = "000102030405060708090a0b0c0d0e0ff0e1d2c3b4a5968778695a4b3c2d1eff";

    fn key(id: &str, byte: u8) -> SecretKey {
        SecretKey::new(KeyId::parse(id).unwrap(), [byte; 32])
    }

    #[test]
    fn formats_are_prefix_and_64_lowercase_hex() {
        assert_eq!(AppKey::from_random(RANDOM).expose(), format!("ak_{RANDOM_HEX}"));
        assert_eq!(OperatorToken::from_random(RANDOM).expose(), format!("ot_{RANDOM_HEX}"));
    }

    #[test]
    fn webhook_signing_secrets_are_whsec_and_base64_of_32_bytes_and_the_hex_ones_stay_valid() {
        // python3: "whsec_" + base64.b64encode(bytes.fromhex(RANDOM_HEX)).decode()
        let new = WebhookSigningSecret::from_random(RANDOM);
        assert_eq!(new.expose(), "whsec_AAECAwQFBgcICQoLDA0OD/Dh0sO0pZaHeGlaSzwtHv8=");
        assert_eq!(new.standard_key(), RANDOM);
        let legacy = WebhookSigningSecret::parse(&format!("whsec_{RANDOM_HEX}")).unwrap();
        assert_eq!(legacy.expose(), format!("whsec_{RANDOM_HEX}"));
        assert_eq!(legacy.standard_key().len(), 48);
        for bad in [
            "whsec_AAECAwQFBgcICQoLDA0OD/Dh0sO0pZaHeGlaSzwtHv8",
            "whsec_AAECAwQFBgcICQoLDA0OD_Dh0sO0pZaHeGlaSzwtHv8=",
            "whsec_AAECAwQFBgcICQoLDA0OD/Dh0sO0pZaHeGlaSzwtHv8=\n",
            "whsec_AAECAwQFBgcICQoLDA0OD/Dh0sO0pZaHeGlaSzwtHv8AAAA",
            "whsec_AAECAwQFBgcICQoLDA0OD/Dh0sO0pZaHeGlaSzwt",
            "AAECAwQFBgcICQoLDA0OD/Dh0sO0pZaHeGlaSzwtHv8=",
        ] {
            let err = WebhookSigningSecret::parse(bad).unwrap_err();
            assert_eq!(err.kind, "webhook signing secret", "{bad}");
        }
    }

    #[test]
    fn formats_round_trip_through_parse() {
        let app = AppKey::from_random(RANDOM);
        assert_eq!(AppKey::parse(app.expose()).unwrap().expose(), app.expose());
        let op = OperatorToken::from_random(RANDOM);
        assert_eq!(OperatorToken::parse(op.expose()).unwrap().expose(), op.expose());
        let wh = WebhookSigningSecret::from_random(RANDOM);
        assert_eq!(WebhookSigningSecret::parse(wh.expose()).unwrap().expose(), wh.expose());
    }

    #[test]
    fn parse_rejects_anything_else() {
        let upper = format!("ak_{}", RANDOM_HEX.to_uppercase());
        let short = format!("ak_{}", &RANDOM_HEX[1..]);
        let long = format!("ak_{RANDOM_HEX}0");
        let non_hex = format!("ak_{}g", &RANDOM_HEX[1..]);
        let other_prefix = format!("ot_{RANDOM_HEX}");
        let no_prefix = RANDOM_HEX.to_owned();
        let upper_prefix = format!("AK_{RANDOM_HEX}");
        let spaced = format!(" ak_{RANDOM_HEX}");
        let trailing = format!("ak_{RANDOM_HEX}\n");
        let multibyte = format!("ak_{}é", &RANDOM_HEX[2..]);
        for bad in [
            "",
            "ak_",
            &upper,
            &short,
            &long,
            &non_hex,
            &other_prefix,
            &no_prefix,
            &upper_prefix,
            &spaced,
            &trailing,
            &multibyte,
        ] {
            let err = AppKey::parse(bad).unwrap_err();
            assert_eq!(err.kind, "App Key", "{bad}");
            assert!(!err.to_string().contains(RANDOM_HEX), "the error repeats the secret");
        }
        assert!(OperatorToken::parse(&format!("ak_{RANDOM_HEX}")).is_err());
        assert!(WebhookSigningSecret::parse(&format!("whsec{RANDOM_HEX}")).is_err());
        assert!(WebhookSigningSecret::parse(&format!("whsec_{}", RANDOM_HEX.to_uppercase())).is_err());
    }

    #[test]
    fn debug_hides_the_secret() {
        assert_eq!(format!("{:?}", AppKey::from_random(RANDOM)), "AppKey(***)");
        assert_eq!(format!("{:?}", OperatorToken::from_random(RANDOM)), "OperatorToken(***)");
        assert_eq!(format!("{:?}", WebhookSigningSecret::from_random(RANDOM)), "WebhookSigningSecret(***)");
        assert_eq!(format!("{:?}", AppKey::from_random(RANDOM).hash()), "SecretHash(***)");
        let in_struct = format!("{:#?}", (AppKey::from_random(RANDOM), 1));
        assert!(!in_struct.contains(RANDOM_HEX));
    }

    #[test]
    fn hash_is_sha256_of_the_text() {
        // Computed independently: python3 -c "import hashlib; print(hashlib.sha256(b'ak_' +
        // RANDOM_HEX.encode()).hexdigest())"
        let expected = "88fd55339aa5f4ee885fc99eed88997e0ee303e10cddb778cd2c17c9327a05a8";
        let app = AppKey::from_random(RANDOM);
        assert_eq!(hex::encode(app.hash().as_bytes()), expected);
        let stored = SecretHash::from_bytes(*app.hash().as_bytes());
        assert!(stored.matches(app.expose()));
    }

    #[test]
    fn hash_matches_only_the_same_text() {
        let app = AppKey::from_random(RANDOM);
        let hash = app.hash();
        assert!(hash.matches(app.expose()));
        let mut other = RANDOM;
        other[31] ^= 1;
        assert!(!hash.matches(AppKey::from_random(other).expose()));
        assert!(!hash.matches(""));
        assert!(!hash.matches(&app.expose().to_uppercase()));
        assert!(!hash.matches(&format!("{} ", app.expose())));
        // Same random bytes, different kind of credential: different text, different hash.
        assert!(!hash.matches(OperatorToken::from_random(RANDOM).expose()));
        assert!(OperatorToken::from_random(RANDOM).hash().matches(&format!("ot_{RANDOM_HEX}")));
    }

    #[test]
    fn constant_time_eq_is_equality() {
        let a = [7u8; 32];
        let mut b = a;
        assert!(constant_time_eq(&a, &b));
        for i in 0..32 {
            b = a;
            b[i] ^= 0x80;
            assert!(!constant_time_eq(&a, &b));
        }
    }

    #[test]
    fn seal_then_open_round_trips_and_has_the_documented_layout() {
        let k = key("k-1", 9);
        let ring = Keyring::single(k.clone());
        let secret = WebhookSigningSecret::from_random(RANDOM);
        let sealed = SecretBox::seal(&k, secret.expose().as_bytes(), [3; 12], b"app-1").unwrap();
        assert_eq!(sealed[0], 3);
        assert_eq!(&sealed[1..4], b"k-1");
        assert_eq!(&sealed[4..16], &[3; 12]);
        assert_eq!(sealed.len(), 1 + 3 + 12 + secret.expose().len() + 16);
        assert!(!sealed.windows(8).any(|w| w == &secret.expose().as_bytes()[..8]), "plaintext visible");
        let opened = SecretBox::open(&ring, &sealed, b"app-1").unwrap();
        assert_eq!(opened, secret.expose().as_bytes());
        let empty = SecretBox::seal(&k, b"", [0; 12], b"").unwrap();
        assert_eq!(SecretBox::open(&ring, &empty, b"").unwrap(), b"");
    }

    #[test]
    fn open_uses_the_key_the_header_names() {
        let old = key("old", 1);
        let sealed_old = SecretBox::seal(&old, b"secret", [1; 12], b"row").unwrap();
        let rotated = Keyring::new(key("new", 2), vec![old]).unwrap();
        assert_eq!(SecretBox::open(&rotated, &sealed_old, b"row").unwrap(), b"secret");
        let sealed_new = SecretBox::seal(rotated.current(), b"secret", [2; 12], b"row").unwrap();
        assert_eq!(SecretBox::open(&rotated, &sealed_new, b"row").unwrap(), b"secret");
    }

    #[test]
    fn open_fails_on_wrong_aad_unknown_key_or_other_material() {
        let k = key("k1", 1);
        let sealed = SecretBox::seal(&k, b"secret", [1; 12], b"app-a").unwrap();
        let ring = Keyring::single(k);
        assert_eq!(SecretBox::open(&ring, &sealed, b"app-b"), Err(OpenSecretError::Tampered));
        assert_eq!(SecretBox::open(&ring, &sealed, b""), Err(OpenSecretError::Tampered));
        let stranger = Keyring::single(key("k2", 1));
        assert_eq!(
            SecretBox::open(&stranger, &sealed, b"app-a"),
            Err(OpenSecretError::UnknownKey(KeyId::parse("k1").unwrap()))
        );
        let same_id_other_material = Keyring::single(key("k1", 2));
        assert_eq!(SecretBox::open(&same_id_other_material, &sealed, b"app-a"), Err(OpenSecretError::Tampered));
    }

    #[test]
    fn open_rejects_malformed_input() {
        let ring = Keyring::single(key("k1", 1));
        let sealed = SecretBox::seal(ring.current(), b"secret", [1; 12], b"").unwrap();
        let zeros = [0u8; 12 + 16];
        let upper_id = [&[2, b'K', b'1'][..], &zeros].concat();
        let non_utf8_id = [&[2, 0xff, 0xfe][..], &zeros].concat();
        let empty_id = [&[0][..], &zeros].concat();
        for bad in [
            &[][..],
            &[0][..],
            &[5, b'k'][..],
            &[2, b'k', b'1'][..],
            &sealed[..1 + 2 + 12 + 15],
            &upper_id,
            &non_utf8_id,
            &empty_id,
        ] {
            assert_eq!(SecretBox::open(&ring, bad, b""), Err(OpenSecretError::Malformed), "{bad:?}");
        }
    }

    proptest! {
        #[test]
        fn any_flipped_byte_fails_to_open(
            plaintext in proptest::collection::vec(any::<u8>(), 0..100),
            aad in proptest::collection::vec(any::<u8>(), 0..40),
            nonce in any::<[u8; 12]>(),
            at in any::<prop::sample::Index>(),
            mask in 1u8..=255,
        ) {
            let ring = Keyring::new(key("k1", 1), vec![key("k2", 2)]).unwrap();
            let mut sealed = SecretBox::seal(ring.current(), &plaintext, nonce, &aad).unwrap();
            prop_assert_eq!(SecretBox::open(&ring, &sealed, &aad).unwrap(), plaintext);
            let i = at.index(sealed.len());
            sealed[i] ^= mask;
            prop_assert!(SecretBox::open(&ring, &sealed, &aad).is_err());
        }

        #[test]
        fn arbitrary_bytes_never_open_and_never_panic(
            sealed in proptest::collection::vec(any::<u8>(), 0..200),
            aad in proptest::collection::vec(any::<u8>(), 0..10),
        ) {
            let ring = Keyring::single(key("k1", 1));
            prop_assert!(SecretBox::open(&ring, &sealed, &aad).is_err());
        }

        #[test]
        fn parse_accepts_exactly_what_from_random_makes(bytes in any::<[u8; 32]>(), text in "\\PC{0,80}") {
            let key = AppKey::from_random(bytes);
            let parsed = AppKey::parse(key.expose()).unwrap();
            prop_assert_eq!(parsed.expose(), key.expose());
            if let Ok(parsed) = AppKey::parse(&text) {
                let random: [u8; 32] = hex::decode(&parsed.expose()[3..]).unwrap().try_into().unwrap();
                let remade = AppKey::from_random(random);
                prop_assert_eq!(remade.expose(), text.as_str());
            }
        }
    }
}
