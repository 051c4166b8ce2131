//! The `serviceSignature`: the token `POST /clickwrap` hands the SDK, which the operator's backend
//! brings back to `POST /clickwrap/verify`. It names the event and the app, expires, and is an
//! HMAC under a server key whose id it carries, so keys can rotate.
//!
//! Token text (all URL-safe ASCII, at most 183 characters):
//! `v1.<key id>.<payload: 82 lowercase hex>.<tag: 64 lowercase hex>`, where the payload is
//! `[version 0x01][event id: 16 bytes][app id: 16 bytes][expires_at: i64 big-endian Unix millis]`
//! and the tag is HMAC-SHA256 over `[key id length][key id][payload]` with the key derived from the
//! server key for this purpose only. Hex is decoded lowercase-only, so each token has exactly one
//! spelling and any changed character makes it fail.

use ring::hmac;
use uuid::Uuid;

use crate::ids::{AppId, EventId};
use crate::keys::{KeyId, KeyPurpose, Keyring, decode_lower_hex};
use crate::timestamp::Timestamp;

/// What a Signature says: which event, of which app, valid until when.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SignatureClaims {
    pub event_id: EventId,
    pub app_id: AppId,
    /// The first instant at which the Signature is no longer accepted.
    pub expires_at: Timestamp,
}

/// A `serviceSignature` as issued. Opaque to clients; not a secret (verifying it also needs the App
/// Key), so it may be shown.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ServiceSignature(String);

impl ServiceSignature {
    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

/// Why a presented Signature is not accepted. Checked in this order: shape, key, MAC, expiry, so
/// `Expired` is only ever reported for a token the server really issued.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SignatureError {
    /// Not a Signature in any format this server issues.
    #[error("the Signature is malformed")]
    Malformed,
    /// Signed with a key that is not (or no longer) in the keyring.
    #[error("the Signature was signed with an unknown key")]
    UnknownKey,
    /// Well-formed, but the MAC does not match: changed, or not made by this server.
    #[error("the Signature is not authentic")]
    Forged,
    /// Authentic but past its expiry; the claims are given so the caller can say which event.
    #[error("the Signature expired at {}", claims.expires_at)]
    Expired { claims: SignatureClaims },
}

/// Longer input is refused before any parsing; real tokens are at most 183 characters.
const MAX_TOKEN_LEN: usize = 512;
const TEXT_VERSION: &str = "v1";
const PAYLOAD_VERSION: u8 = 1;
const PAYLOAD_LEN: usize = 1 + 16 + 16 + 8;
const TAG_LEN: usize = 32;

/// Signs `claims` with the keyring's current key.
pub fn issue(keyring: &Keyring, claims: &SignatureClaims) -> ServiceSignature {
    let key = keyring.current();
    let payload = encode_payload(claims);
    let tag = hmac::sign(&key.hmac_key(KeyPurpose::ServiceSignature), &mac_input(key.id(), &payload));
    ServiceSignature(format!("{TEXT_VERSION}.{}.{}.{}", key.id(), hex::encode(payload), hex::encode(tag.as_ref())))
}

/// Checks a presented token and returns its claims. `now >= expires_at` is expired: a Signature is
/// valid strictly before its expiry instant.
pub fn verify(keyring: &Keyring, token: &str, now: Timestamp) -> Result<SignatureClaims, SignatureError> {
    if token.len() > MAX_TOKEN_LEN {
        return Err(SignatureError::Malformed);
    }
    let mut parts = token.split('.');
    let (Some(version), Some(key_id), Some(payload_hex), Some(tag_hex), None) =
        (parts.next(), parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(SignatureError::Malformed);
    };
    if version != TEXT_VERSION {
        return Err(SignatureError::Malformed);
    }
    let key_id = KeyId::parse(key_id).map_err(|_| SignatureError::Malformed)?;
    let payload =
        decode_lower_hex(payload_hex).filter(|bytes| bytes.len() == PAYLOAD_LEN).ok_or(SignatureError::Malformed)?;
    let tag = decode_lower_hex(tag_hex).filter(|bytes| bytes.len() == TAG_LEN).ok_or(SignatureError::Malformed)?;
    let (event_id, app_id, expires_millis) = decode_payload(&payload).ok_or(SignatureError::Malformed)?;

    let key = keyring.find(&key_id).ok_or(SignatureError::UnknownKey)?;
    hmac::verify(&key.hmac_key(KeyPurpose::ServiceSignature), &mac_input(&key_id, &payload), &tag)
        .map_err(|_| SignatureError::Forged)?;

    // Authentic, so the expiry is one this server wrote; out of range would mean a bug, not an attack.
    let expires_at = Timestamp::from_unix_millis(expires_millis).ok_or(SignatureError::Malformed)?;
    let claims = SignatureClaims { event_id, app_id, expires_at };
    if now >= expires_at {
        return Err(SignatureError::Expired { claims });
    }
    Ok(claims)
}

fn encode_payload(claims: &SignatureClaims) -> Vec<u8> {
    let mut payload = Vec::with_capacity(PAYLOAD_LEN);
    payload.push(PAYLOAD_VERSION);
    payload.extend_from_slice(claims.event_id.as_bytes());
    payload.extend_from_slice(claims.app_id.as_bytes());
    payload.extend_from_slice(&claims.expires_at.unix_millis().to_be_bytes());
    payload
}

fn decode_payload(payload: &[u8]) -> Option<(EventId, AppId, i64)> {
    let (&version, rest) = payload.split_first()?;
    if version != PAYLOAD_VERSION {
        return None;
    }
    let (event, rest) = rest.split_first_chunk::<16>()?;
    let (app, rest) = rest.split_first_chunk::<16>()?;
    let expires: [u8; 8] = rest.try_into().ok()?;
    Some((
        EventId::from_uuid(Uuid::from_bytes(*event)),
        AppId::from_uuid(Uuid::from_bytes(*app)),
        i64::from_be_bytes(expires),
    ))
}

/// Unverified events whose action came before this instant can be purged: a Signature expires
/// `signature_ttl` after the action it was issued for, and `grace` covers a lifetime that was
/// longer when the Signature was issued (the setting changed, or instances disagree) and clocks
/// that differ. Unverified events are not evidence; verified ones are never purged.
pub fn unverified_purge_cutoff(now: Timestamp, signature_ttl: time::Duration, grace: time::Duration) -> Timestamp {
    now.saturating_sub(signature_ttl).saturating_sub(grace)
}

/// The key id is MAC-ed with the payload so the token text is authenticated end to end.
fn mac_input(key_id: &KeyId, payload: &[u8]) -> Vec<u8> {
    let id = key_id.as_str().as_bytes();
    let mut input = Vec::with_capacity(1 + id.len() + payload.len());
    // Key ids are at most 32 bytes; the length byte keeps id and payload from running together.
    input.push(u8::try_from(id.len()).unwrap_or(u8::MAX));
    input.extend_from_slice(id);
    input.extend_from_slice(payload);
    input
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keys::SecretKey;
    use proptest::prelude::*;

    fn key(id: &str, byte: u8) -> SecretKey {
        SecretKey::new(KeyId::parse(id).unwrap(), [byte; 32])
    }

    fn ring() -> Keyring {
        Keyring::new(key("k2", 2), vec![key("k1", 1)]).unwrap()
    }

    fn at(millis: i64) -> Timestamp {
        Timestamp::from_unix_millis(millis).unwrap()
    }

    #[test]
    fn an_unverified_event_is_purged_only_after_its_signature_and_the_grace_have_passed() {
        let (ttl, grace) = (time::Duration::days(7), time::Duration::days(1));
        let action_at = at(1_700_000_000_000);
        let expires_at = action_at.saturating_add(ttl);
        // Still verifiable until expiry; then kept for the grace period; then older than the cutoff.
        for (now, purgeable) in [
            (expires_at.saturating_sub(time::Duration::milliseconds(1)), false),
            (expires_at, false),
            (expires_at.saturating_add(grace), false),
            (expires_at.saturating_add(grace).saturating_add(time::Duration::milliseconds(1)), true),
        ] {
            assert_eq!(action_at < unverified_purge_cutoff(now, ttl, grace), purgeable, "now {now}");
        }
        assert_eq!(unverified_purge_cutoff(at(0), ttl, grace), at(0).saturating_sub(ttl + grace));
    }

    fn claims() -> SignatureClaims {
        SignatureClaims {
            event_id: EventId::parse("0190b7c4-2a1e-7cc3-9f00-5d1e2f3a4b5c").unwrap(),
            app_id: AppId::parse("0190b7c4-2a1e-7cc3-9f00-000000000001").unwrap(),
            expires_at: at(1_800_000_000_123),
        }
    }

    const NOW: i64 = 1_700_000_000_000;

    #[test]
    fn issued_signature_verifies_to_its_claims() {
        let token = issue(&ring(), &claims());
        assert_eq!(verify(&ring(), token.as_str(), at(NOW)), Ok(claims()));
    }

    #[test]
    fn token_has_the_documented_shape() {
        let token = issue(&ring(), &claims()).into_string();
        let parts: Vec<&str> = token.split('.').collect();
        assert_eq!(parts.len(), 4);
        assert_eq!(parts[0], "v1");
        assert_eq!(parts[1], "k2");
        assert_eq!(
            parts[2],
            "01\
             0190b7c42a1e7cc39f005d1e2f3a4b5c\
             0190b7c42a1e7cc39f00000000000001\
             000001a3185c507b"
        );
        assert_eq!(parts[3].len(), 64);
        assert!(token.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-'));
    }

    #[test]
    fn a_token_of_another_keyring_is_rejected() {
        let token = issue(&Keyring::single(key("k2", 99)), &claims());
        assert_eq!(verify(&ring(), token.as_str(), at(NOW)), Err(SignatureError::Forged));
        let token = issue(&Keyring::single(key("k9", 2)), &claims());
        assert_eq!(verify(&ring(), token.as_str(), at(NOW)), Err(SignatureError::UnknownKey));
    }

    #[test]
    fn a_token_signed_with_a_rotated_out_key_still_verifies_while_the_key_is_in_the_ring() {
        let before = Keyring::single(key("k1", 1));
        let token = issue(&before, &claims());
        assert!(token.as_str().starts_with("v1.k1."));
        assert_eq!(verify(&ring(), token.as_str(), at(NOW)), Ok(claims()));
        let after_retirement = Keyring::single(key("k2", 2));
        assert_eq!(verify(&after_retirement, token.as_str(), at(NOW)), Err(SignatureError::UnknownKey));
    }

    #[test]
    fn expiry_boundary_is_exclusive() {
        let c = claims();
        let token = issue(&ring(), &c);
        let expiry = c.expires_at.unix_millis();
        assert_eq!(verify(&ring(), token.as_str(), at(expiry - 1)), Ok(c));
        assert_eq!(verify(&ring(), token.as_str(), at(expiry)), Err(SignatureError::Expired { claims: c }));
        assert_eq!(verify(&ring(), token.as_str(), at(expiry + 1)), Err(SignatureError::Expired { claims: c }));
    }

    #[test]
    fn forgery_is_reported_before_expiry() {
        let mut c = claims();
        c.expires_at = at(NOW - 1);
        let token = issue(&Keyring::single(key("k2", 7)), &c);
        assert_eq!(verify(&ring(), token.as_str(), at(NOW)), Err(SignatureError::Forged));
    }

    #[test]
    fn malformed_tokens() {
        let good = issue(&ring(), &claims()).into_string();
        let parts: Vec<&str> = good.split('.').collect();
        let cases = [
            String::new(),
            ".".repeat(3),
            format!("v2.{}.{}.{}", parts[1], parts[2], parts[3]),
            format!("V1.{}.{}.{}", parts[1], parts[2], parts[3]),
            format!("v1.K2.{}.{}", parts[2], parts[3]),
            format!("v1..{}.{}", parts[2], parts[3]),
            format!("v1.{}.{}.{}", parts[1], parts[2].to_uppercase(), parts[3]),
            format!("v1.{}.{}.{}", parts[1], parts[2], parts[3].to_uppercase()),
            format!("v1.{}.{}.{}", parts[1], &parts[2][2..], parts[3]),
            format!("v1.{}.02{}.{}", parts[1], &parts[2][2..], parts[3]),
            format!("v1.{}.{}.{}", parts[1], parts[2], &parts[3][2..]),
            format!("v1.{}.{}.{}00", parts[1], parts[2], parts[3]),
            format!("{good}."),
            format!("{good}.x"),
            format!(" {good}"),
            "x".repeat(10_000),
            format!("{good}{}", "0".repeat(400)),
        ];
        for bad in &cases {
            assert_eq!(verify(&ring(), bad, at(NOW)), Err(SignatureError::Malformed), "{bad}");
        }
    }

    proptest! {
        #[test]
        fn round_trip_for_any_claims(
            event in any::<[u8; 16]>(),
            app in any::<[u8; 16]>(),
            expires in -62_135_596_800_000i64..253_402_300_799_000i64,
        ) {
            let c = SignatureClaims {
                event_id: EventId::from_uuid(Uuid::from_bytes(event)),
                app_id: AppId::from_uuid(Uuid::from_bytes(app)),
                expires_at: at(expires),
            };
            let token = issue(&ring(), &c);
            prop_assert!(token.as_str().len() <= 183);
            let now = at(expires.saturating_sub(1));
            prop_assert_eq!(verify(&ring(), token.as_str(), now), Ok(c));
        }

        #[test]
        fn arbitrary_strings_never_verify_and_never_panic(text in "\\PC{0,600}") {
            prop_assert!(verify(&ring(), &text, at(NOW)).is_err());
        }

        #[test]
        fn token_like_strings_never_verify(
            id in "[a-z0-9-]{1,5}",
            payload in "[0-9a-f]{82}",
            tag in "[0-9a-f]{64}",
        ) {
            let text = format!("v1.{id}.{payload}.{tag}");
            prop_assert!(verify(&ring(), &text, at(NOW)).is_err());
        }

        #[test]
        fn any_changed_character_is_rejected(
            at_index in any::<prop::sample::Index>(),
            replacement in proptest::char::any(),
        ) {
            let token = issue(&ring(), &claims()).into_string();
            let chars: Vec<char> = token.chars().collect();
            let i = at_index.index(chars.len());
            prop_assume!(chars[i] != replacement);
            let mut changed = chars.clone();
            changed[i] = replacement;
            let changed: String = changed.into_iter().collect();
            prop_assert!(verify(&ring(), &changed, at(NOW)).is_err(), "{}", changed);
        }

        #[test]
        fn any_removed_or_inserted_character_is_rejected(
            at_index in any::<prop::sample::Index>(),
            inserted in proptest::char::any(),
        ) {
            let token = issue(&ring(), &claims()).into_string();
            let i = at_index.index(token.len());
            let mut removed = token.clone();
            removed.remove(i);
            prop_assert!(verify(&ring(), &removed, at(NOW)).is_err());
            let mut longer = token.clone();
            longer.insert(i, inserted);
            prop_assert!(verify(&ring(), &longer, at(NOW)).is_err());
        }
    }
}
