//! The two tokens the service hands out and reads back: the `serviceSignature` (`POST
//! /clickwrap/verify`) and the events list's `nextPageCursor`. What the server issued reads back to
//! what it said; anything else is refused, with the reason the shape of the text calls for.

use clickwrap_domain::consent::cursor::{self, CursorError, EventPosition};
use clickwrap_domain::consent::signature::{self, SignatureClaims, SignatureError};
use clickwrap_domain::keys::{KeyId, Keyring, SecretKey};
use clickwrap_domain::{AppId, EventId, Timestamp};
use proptest::prelude::*;
use uuid::Uuid;

use crate::support::{cases, hostile_text};

fn key(id: &str, byte: u8) -> SecretKey {
    SecretKey::new(KeyId::parse(id).unwrap(), [byte; 32])
}

/// The ring's keys: the current one first, then two earlier ones still trusted.
const KEYS: [(&str, u8); 3] = [("k3", 3), ("k2", 2), ("2026-01", 1)];

const KNOWN_KEY_IDS: [&str; 3] = [KEYS[0].0, KEYS[1].0, KEYS[2].0];

fn ring() -> Keyring {
    let [current, previous @ ..] = KEYS.map(|(id, byte)| key(id, byte));
    Keyring::new(current, previous.into()).unwrap()
}

fn at(millis: i64) -> Timestamp {
    Timestamp::from_unix_millis(millis).unwrap()
}

/// Instants `Timestamp` can hold (years 1 to 9999).
fn millis() -> impl Strategy<Value = i64> {
    -62_135_596_800_000i64..253_402_300_799_000i64
}

fn claims() -> impl Strategy<Value = SignatureClaims> {
    (any::<u128>(), any::<u128>(), millis()).prop_map(|(event, app, expires)| SignatureClaims {
        event_id: EventId::from_uuid(Uuid::from_u128(event)),
        app_id: AppId::from_uuid(Uuid::from_u128(app)),
        expires_at: at(expires),
    })
}

fn position() -> impl Strategy<Value = EventPosition> {
    (millis(), any::<u128>()).prop_map(|(millis, event)| EventPosition {
        action_at: at(millis),
        event_id: EventId::from_uuid(Uuid::from_u128(event)),
    })
}

/// One part of a token as a forger might write it, and whether the server reads it as well formed.
#[derive(Debug, Clone)]
struct Part {
    text: String,
    well_formed: bool,
}

/// Hex of `len` bytes, or a near miss: uppercase, one digit short or long, a non-hex character.
fn hex_part(len: usize) -> impl Strategy<Value = Part> {
    let right = prop::collection::vec(any::<u8>(), len..=len).prop_map(hex::encode);
    prop_oneof![
        3 => right.clone().prop_map(|text| Part { text, well_formed: true }),
        1 => right.clone().prop_filter_map("has a letter", |text| {
            let upper = text.to_uppercase();
            (upper != text).then_some(Part { text: upper, well_formed: false })
        }),
        1 => right.clone().prop_map(|text| Part { text: text[1..].to_owned(), well_formed: false }),
        1 => right.clone().prop_map(|text| Part { text: format!("{text}0"), well_formed: false }),
        1 => right.clone().prop_map(|text| Part { text: format!("{text}00"), well_formed: false }),
        1 => (right, any::<prop::sample::Index>(), prop::sample::select(vec!['g', 'G', ' ', '+', '-', 'é', '\0']))
            .prop_map(|(text, at, c)| {
                let mut chars: Vec<char> = text.chars().collect();
                let i = at.index(chars.len());
                chars[i] = c;
                Part { text: chars.into_iter().collect(), well_formed: false }
            }),
    ]
}

/// A key id that is one of the ring's, well formed but unknown, or malformed.
#[derive(Debug, Clone)]
enum KeyPart {
    Known(String),
    Unknown(String),
    Malformed(String),
}

impl KeyPart {
    fn text(&self) -> &str {
        match self {
            Self::Known(text) | Self::Unknown(text) | Self::Malformed(text) => text,
        }
    }
}

fn key_part() -> impl Strategy<Value = KeyPart> {
    prop_oneof![
        prop::sample::select(KNOWN_KEY_IDS.to_vec()).prop_map(|id| KeyPart::Known(id.to_owned())),
        "[a-z0-9-]{1,32}"
            .prop_filter("not a known id", |id| !KNOWN_KEY_IDS.contains(&id.as_str()))
            .prop_map(KeyPart::Unknown),
        prop_oneof![Just(String::new()), "[a-z0-9-]{33,40}", "[a-z0-9]{0,3}[A-Z_.é ][a-z0-9]{0,3}"]
            .prop_map(KeyPart::Malformed),
    ]
}

/// A version tag: the right one, or a near miss.
fn version_part(right: &'static str) -> impl Strategy<Value = Part> {
    prop::sample::select(vec![right, "", "v0", "v2", "V1", "C1", "c2", "v1 ", " c1", "v1\0", "c1\0", "v", "c"])
        .prop_map(move |text| Part { text: text.to_owned(), well_formed: text == right })
}

proptest! {
    #![proptest_config(cases(256))]

    #[test]
    fn an_issued_signature_verifies_to_its_claims_until_it_expires(
        claims in claims(),
        (signer, material) in prop::sample::select(KEYS.to_vec()),
        before in 1i64..10_000_000_000,
        after in 0i64..10_000_000_000,
    ) {
        let signer_ring = Keyring::single(key(signer, material));
        let token = signature::issue(&signer_ring, &claims);
        prop_assert!(token.as_str().len() <= 183);
        prop_assert!(token.as_str().bytes().all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-'));
        let expiry = claims.expires_at.unix_millis();
        if let Some(now) = Timestamp::from_unix_millis(expiry - before) {
            prop_assert_eq!(signature::verify(&ring(), token.as_str(), now), Ok(claims));
        }
        if let Some(now) = Timestamp::from_unix_millis(expiry + after) {
            prop_assert_eq!(signature::verify(&ring(), token.as_str(), now), Err(SignatureError::Expired { claims }));
        }
    }

    #[test]
    fn a_signature_made_of_forged_parts_is_refused_for_the_right_reason(
        version in version_part("v1"),
        key_id in key_part(),
        payload in hex_part(41),
        payload_version in prop_oneof![3 => Just(1u8), 1 => any::<u8>()],
        tag in hex_part(32),
    ) {
        // The payload's first byte is its format version; only 1 exists.
        let payload = if payload.well_formed {
            Part { text: format!("{payload_version:02x}{}", &payload.text[2..]), well_formed: payload_version == 1 }
        } else {
            payload
        };
        let text = format!("{}.{}.{}.{}", version.text, key_id.text(), payload.text, tag.text);
        let expected = if !(version.well_formed && payload.well_formed && tag.well_formed) {
            SignatureError::Malformed
        } else {
            match key_id {
                KeyPart::Malformed(_) => SignatureError::Malformed,
                KeyPart::Unknown(_) => SignatureError::UnknownKey,
                // A random tag: the chance it is the right MAC is 2^-256.
                KeyPart::Known(_) => SignatureError::Forged,
            }
        };
        prop_assert_eq!(signature::verify(&ring(), &text, at(0)), Err(expected), "{}", text);
    }

    #[test]
    fn any_text_is_refused_as_a_signature_without_panicking(text in hostile_text()) {
        let verdict = signature::verify(&ring(), &text, at(0));
        prop_assert!(verdict.is_err());
        // Only text of the token's shape gets as far as the key or the MAC.
        if text.len() > 512 || text.split('.').count() != 4 || !text.starts_with("v1.") {
            prop_assert_eq!(verdict, Err(SignatureError::Malformed));
        }
    }

    #[test]
    fn a_signature_with_anything_appended_or_cut_is_refused(
        claims in claims(),
        cut in any::<prop::sample::Index>(),
        appended in hostile_text(),
    ) {
        let token = signature::issue(&ring(), &claims).into_string();
        let now = at(claims.expires_at.unix_millis().saturating_sub(1).max(-62_135_596_800_000));
        let short = &token[..cut.index(token.len())];
        prop_assert!(signature::verify(&ring(), short, now).is_err());
        if !appended.is_empty() {
            let (longer, prefixed) = (format!("{token}{appended}"), format!("{appended}{token}"));
            prop_assert!(signature::verify(&ring(), &longer, now).is_err());
            prop_assert!(signature::verify(&ring(), &prefixed, now).is_err());
        }
    }

    #[test]
    fn a_sealed_cursor_opens_to_its_position_under_its_scope_only(
        position in position(),
        scope in prop::collection::vec(any::<u8>(), 0..200),
        other in prop::collection::vec(any::<u8>(), 0..200),
    ) {
        let text = cursor::seal(&ring(), &scope, &position);
        prop_assert!(text.len() <= 150);
        prop_assert_eq!(cursor::open(&ring(), &scope, &text), Ok(position));
        if other != scope {
            prop_assert_eq!(cursor::open(&ring(), &other, &text), Err(CursorError::Tampered));
        }
    }

    #[test]
    fn a_cursor_made_of_forged_parts_is_refused_for_the_right_reason(
        version in version_part("c1"),
        key_id in key_part(),
        body in hex_part(24 + 32),
    ) {
        let text = format!("{}.{}.{}", version.text, key_id.text(), body.text);
        let expected = if !(version.well_formed && body.well_formed) {
            CursorError::Malformed
        } else {
            match key_id {
                KeyPart::Malformed(_) => CursorError::Malformed,
                KeyPart::Unknown(_) => CursorError::UnknownKey,
                KeyPart::Known(_) => CursorError::Tampered,
            }
        };
        prop_assert_eq!(cursor::open(&ring(), b"scope", &text), Err(expected), "{}", text);
    }

    #[test]
    fn any_text_is_refused_as_a_cursor_without_panicking(text in hostile_text()) {
        let verdict = cursor::open(&ring(), b"scope", &text);
        prop_assert!(verdict.is_err());
        if text.len() > 256 || text.split('.').count() != 3 || !text.starts_with("c1.") {
            prop_assert_eq!(verdict, Err(CursorError::Malformed));
        }
    }
}
