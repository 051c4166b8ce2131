//! The events list's `nextPageCursor`: where the previous page ended, opaque to clients and
//! tamper-evident, bound to the tenant and the filters it was made for.
//!
//! Token text (URL-safe ASCII, at most 150 characters): `c1.<key id>.<hex payload><hex tag>` with a
//! 24-byte payload `[action_at: i64 big-endian Unix millis][event id: 16 bytes]` and the full 32-byte
//! HMAC-SHA256 tag over `[key id length][key id][scope length: u64 BE][scope][payload]`, keyed with
//! a key derived from the server key for cursors only. The scope (tenant id and canonical filters,
//! built by the caller) is MAC-ed but not carried, so a cursor replayed under another tenant or other
//! filters fails as `Tampered`. The tag is not truncated so the check can use `ring::hmac::verify`.

use ring::hmac;
use uuid::Uuid;

use crate::ids::EventId;
use crate::keys::{KeyId, KeyPurpose, Keyring, decode_lower_hex};
use crate::timestamp::Timestamp;

/// The keyset position of the last item of a page. The list is ordered newest first by
/// `action_at`, ties broken by `event_id` descending, so the next page holds the items that come
/// strictly after this position in that order (see [`EventPosition::is_after`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct EventPosition {
    pub action_at: Timestamp,
    pub event_id: EventId,
}

impl EventPosition {
    /// Whether an item at `self` belongs after `cursor` in list order (newest first, then event id
    /// descending): `(action_at, event_id) < (cursor.action_at, cursor.event_id)`.
    pub fn is_after(&self, cursor: &EventPosition) -> bool {
        (self.action_at, self.event_id) < (cursor.action_at, cursor.event_id)
    }
}

/// Why a presented cursor is refused (all of these are a 400 `INVALID_CURSOR` to the client).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum CursorError {
    #[error("the cursor is malformed")]
    Malformed,
    /// Made with a key no longer in the keyring.
    #[error("the cursor was made with an unknown key")]
    UnknownKey,
    /// The MAC does not match: the cursor was changed, or belongs to another tenant or other filters.
    #[error("the cursor is not valid for this query")]
    Tampered,
}

/// Longer input is refused before any parsing.
const MAX_CURSOR_LEN: usize = 256;
const TEXT_VERSION: &str = "c1";
const PAYLOAD_LEN: usize = 8 + 16;
const TAG_LEN: usize = 32;

/// Makes the cursor for the page that follows `position`, bound to `scope`.
pub fn seal(keyring: &Keyring, scope: &[u8], position: &EventPosition) -> String {
    let key = keyring.current();
    let payload = encode_payload(position);
    let tag = hmac::sign(&key.hmac_key(KeyPurpose::EventsCursor), &mac_input(key.id(), scope, &payload));
    format!("{TEXT_VERSION}.{}.{}{}", key.id(), hex::encode(payload), hex::encode(tag.as_ref()))
}

/// Reads a cursor back, if this server made it for the same `scope`. Checked in order: shape, key, MAC.
pub fn open(keyring: &Keyring, scope: &[u8], cursor: &str) -> Result<EventPosition, CursorError> {
    if cursor.len() > MAX_CURSOR_LEN {
        return Err(CursorError::Malformed);
    }
    let mut parts = cursor.split('.');
    let (Some(TEXT_VERSION), Some(key_id), Some(body_hex), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(CursorError::Malformed);
    };
    let key_id = KeyId::parse(key_id).map_err(|_| CursorError::Malformed)?;
    let body = decode_lower_hex(body_hex).ok_or(CursorError::Malformed)?;
    let (payload, tag) = body.split_at_checked(PAYLOAD_LEN).ok_or(CursorError::Malformed)?;
    if tag.len() != TAG_LEN {
        return Err(CursorError::Malformed);
    }

    let key = keyring.find(&key_id).ok_or(CursorError::UnknownKey)?;
    hmac::verify(&key.hmac_key(KeyPurpose::EventsCursor), &mac_input(&key_id, scope, payload), tag)
        .map_err(|_| CursorError::Tampered)?;

    // Authentic, so the payload is one this server wrote.
    decode_payload(payload).ok_or(CursorError::Malformed)
}

fn encode_payload(position: &EventPosition) -> Vec<u8> {
    let mut payload = Vec::with_capacity(PAYLOAD_LEN);
    payload.extend_from_slice(&position.action_at.unix_millis().to_be_bytes());
    payload.extend_from_slice(position.event_id.as_bytes());
    payload
}

fn decode_payload(payload: &[u8]) -> Option<EventPosition> {
    let (millis, rest) = payload.split_first_chunk::<8>()?;
    let event: [u8; 16] = rest.try_into().ok()?;
    Some(EventPosition {
        action_at: Timestamp::from_unix_millis(i64::from_be_bytes(*millis))?,
        event_id: EventId::from_uuid(Uuid::from_bytes(event)),
    })
}

/// Every variable-length part is length-prefixed, so no two (key id, scope) pairs MAC the same bytes.
fn mac_input(key_id: &KeyId, scope: &[u8], payload: &[u8]) -> Vec<u8> {
    let id = key_id.as_str().as_bytes();
    let mut input = Vec::with_capacity(1 + id.len() + 8 + scope.len() + payload.len());
    input.push(u8::try_from(id.len()).unwrap_or(u8::MAX));
    input.extend_from_slice(id);
    input.extend_from_slice(&u64::try_from(scope.len()).unwrap_or(u64::MAX).to_be_bytes());
    input.extend_from_slice(scope);
    input.extend_from_slice(payload);
    input
}

/// Items per page of the events list: 1 to 100, default 20.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageLimit(u8);

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("limit must be an integer from 1 to 100")]
pub struct InvalidPageLimit;

impl PageLimit {
    pub const DEFAULT: PageLimit = PageLimit(20);
    pub const MAX: u8 = 100;

    pub fn parse(value: i64) -> Result<Self, InvalidPageLimit> {
        u8::try_from(value).ok().filter(|v| (1..=Self::MAX).contains(v)).map(PageLimit).ok_or(InvalidPageLimit)
    }

    pub fn get(self) -> usize {
        usize::from(self.0)
    }
}

impl Default for PageLimit {
    fn default() -> Self {
        Self::DEFAULT
    }
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
        Keyring::new(key("cur", 2), vec![key("old", 1)]).unwrap()
    }

    fn position(millis: i64, event: u128) -> EventPosition {
        EventPosition {
            action_at: Timestamp::from_unix_millis(millis).unwrap(),
            event_id: EventId::from_uuid(Uuid::from_u128(event)),
        }
    }

    const SCOPE: &[u8] = b"tenant:0190b7c4-2a1e-7cc3-9f00-5d1e2f3a4b5c|status=ACCEPTED";

    #[test]
    fn round_trip() {
        let p = position(1_763_795_703_123, 42);
        let cursor = seal(&ring(), SCOPE, &p);
        assert_eq!(open(&ring(), SCOPE, &cursor), Ok(p));
    }

    #[test]
    fn cursor_has_the_documented_shape() {
        let cursor = seal(&ring(), SCOPE, &position(1, 2));
        let (prefix, body) = cursor.split_at(7);
        assert_eq!(prefix, "c1.cur.");
        assert_eq!(body.len(), 2 * (24 + 32));
        assert_eq!(&body[..48], format!("{:016x}{:032x}", 1, 2));
        assert!(cursor.len() <= 150);
    }

    #[test]
    fn other_scope_is_rejected() {
        let cursor = seal(&ring(), SCOPE, &position(1, 2));
        assert_eq!(open(&ring(), b"tenant:other|status=ACCEPTED", &cursor), Err(CursorError::Tampered));
        assert_eq!(open(&ring(), b"", &cursor), Err(CursorError::Tampered));
        let mut longer = SCOPE.to_vec();
        longer.push(b'x');
        assert_eq!(open(&ring(), &longer, &cursor), Err(CursorError::Tampered));
    }

    #[test]
    fn rotation_and_unknown_keys() {
        let old_cursor = seal(&Keyring::single(key("old", 1)), SCOPE, &position(5, 6));
        assert_eq!(open(&ring(), SCOPE, &old_cursor), Ok(position(5, 6)));
        let stranger = seal(&Keyring::single(key("zzz", 2)), SCOPE, &position(5, 6));
        assert_eq!(open(&ring(), SCOPE, &stranger), Err(CursorError::UnknownKey));
        let impostor = seal(&Keyring::single(key("cur", 3)), SCOPE, &position(5, 6));
        assert_eq!(open(&ring(), SCOPE, &impostor), Err(CursorError::Tampered));
    }

    #[test]
    fn a_signature_key_never_makes_a_valid_cursor() {
        // Same configured key, different derived key: a MAC from another purpose is no cursor MAC.
        let k = key("cur", 2);
        let p = position(5, 6);
        let payload = encode_payload(&p);
        let wrong = hmac::sign(&k.hmac_key(KeyPurpose::ServiceSignature), &mac_input(k.id(), SCOPE, &payload));
        let forged = format!("c1.cur.{}{}", hex::encode(&payload), hex::encode(wrong.as_ref()));
        assert_eq!(open(&ring(), SCOPE, &forged), Err(CursorError::Tampered));
    }

    #[test]
    fn malformed_cursors() {
        let good = seal(&ring(), SCOPE, &position(1, 2));
        let body = &good[7..];
        for bad in [
            String::new(),
            "c1".to_owned(),
            "c1..".to_owned(),
            format!("c2.cur.{body}"),
            format!("c1.CUR.{body}"),
            format!("c1.cur.{}", body.to_uppercase()),
            format!("c1.cur.{}", &body[2..]),
            format!("c1.cur.{body}00"),
            format!("c1.cur.{body}."),
            format!("c1.cur.{body}0"),
            "f".repeat(5000),
        ] {
            assert_eq!(open(&ring(), SCOPE, &bad), Err(CursorError::Malformed), "{bad}");
        }
    }

    #[test]
    fn is_after_follows_newest_first_then_event_id_descending() {
        let cursor = position(1000, 50);
        assert!(position(999, 99).is_after(&cursor));
        assert!(position(1000, 49).is_after(&cursor));
        assert!(!position(1000, 50).is_after(&cursor));
        assert!(!position(1000, 51).is_after(&cursor));
        assert!(!position(1001, 0).is_after(&cursor));
    }

    proptest! {
        #[test]
        fn round_trip_for_any_position(
            millis in -62_135_596_800_000i64..253_402_300_799_000i64,
            event in any::<u128>(),
            scope in proptest::collection::vec(any::<u8>(), 0..64),
        ) {
            let p = position(millis, event);
            let cursor = seal(&ring(), &scope, &p);
            prop_assert!(cursor.len() <= 150);
            prop_assert!(cursor.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-'));
            prop_assert_eq!(open(&ring(), &scope, &cursor), Ok(p));
        }

        #[test]
        fn any_changed_character_is_rejected(
            at_index in any::<prop::sample::Index>(),
            replacement in proptest::char::any(),
            millis in 0i64..4_000_000_000_000,
            event in any::<u128>(),
        ) {
            let cursor = seal(&ring(), SCOPE, &position(millis, event));
            let mut chars: Vec<char> = cursor.chars().collect();
            let i = at_index.index(chars.len());
            prop_assume!(chars[i] != replacement);
            chars[i] = replacement;
            let changed: String = chars.into_iter().collect();
            prop_assert!(open(&ring(), SCOPE, &changed).is_err(), "{}", changed);
        }

        #[test]
        fn other_scopes_are_rejected(
            scope in proptest::collection::vec(any::<u8>(), 0..64),
            other in proptest::collection::vec(any::<u8>(), 0..64),
        ) {
            prop_assume!(scope != other);
            let cursor = seal(&ring(), &scope, &position(1, 2));
            prop_assert_eq!(open(&ring(), &other, &cursor), Err(CursorError::Tampered));
        }

        #[test]
        fn arbitrary_strings_never_open_and_never_panic(text in "\\PC{0,300}") {
            prop_assert!(open(&ring(), SCOPE, &text).is_err());
        }

        #[test]
        fn cursor_like_strings_never_open(body in "[0-9a-f]{112}") {
            let text = format!("c1.cur.{body}");
            prop_assert!(open(&ring(), SCOPE, &text).is_err());
        }
    }
}
