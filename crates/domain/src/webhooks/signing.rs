//! Webhook signatures, per the spec's "Signature rules": `X-Service-Signature: sha256=<hex>` where
//! hex is the lowercase HMAC-SHA256 of `<X-Service-Timestamp value>.<raw body>`, keyed by the
//! webhook signing secret. The server signs with [`sign`]; receivers (and a receiver library) check
//! with [`verify`].
//!
//! The key is the bytes of the signing secret's text exactly as the operator sees it, prefix
//! included (`b"whsec_0a1b…"`), not the hex-decoded random part: a receiver in any language can
//! paste the secret into its HMAC call without decoding anything.

use ring::hmac;

use crate::keys::decode_lower_hex;

/// How far the timestamp may be from the receiver's clock, either way, in seconds.
pub const SIGNATURE_TOLERANCE_SECS: i64 = 300;

const PREFIX: &str = "sha256=";
const DIGEST_HEX_LEN: usize = 64;
/// An `i64` has at most 19 digits; longer timestamp text is refused before parsing.
const MAX_TIMESTAMP_DIGITS: usize = 19;

/// Why a webhook's signature is not accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum WebhookSignatureError {
    /// Not `sha256=` followed by 64 lowercase hex digits.
    #[error("the signature header is not sha256=<64 lowercase hex digits>")]
    MalformedSignature,
    /// Not a Unix time in whole seconds (ASCII digits only).
    #[error("the timestamp header is not a Unix time in seconds")]
    MalformedTimestamp,
    /// The timestamp is more than [`SIGNATURE_TOLERANCE_SECS`] from now, either way: possibly a replay.
    #[error("the timestamp is too far from the current time")]
    Stale,
    /// The signature is not the one the secret gives for this timestamp and body.
    #[error("the signature does not match")]
    Mismatch,
}

/// The `X-Service-Signature` value for a delivery sent at `timestamp_secs` (which must also be sent,
/// as decimal text, in `X-Service-Timestamp`) with exactly these body bytes.
pub fn sign(secret: &[u8], timestamp_secs: i64, raw_body: &[u8]) -> String {
    let tag = hmac::sign(&hmac::Key::new(hmac::HMAC_SHA256, secret), &payload(&timestamp_secs.to_string(), raw_body));
    format!("{PREFIX}{}", hex::encode(tag.as_ref()))
}

/// Checks a received webhook: header shapes, then freshness against `now_secs`, then the HMAC in
/// constant time. `raw_body` must be the bytes as received: re-serialised JSON will not match.
/// A timestamp exactly [`SIGNATURE_TOLERANCE_SECS`] away is still accepted.
pub fn verify(
    secret: &[u8],
    signature_header: &str,
    timestamp_header: &str,
    raw_body: &[u8],
    now_secs: i64,
) -> Result<(), WebhookSignatureError> {
    // Lowercase hex only: the header is the lowercase digest, and reference handlers compare text.
    let digest = signature_header
        .strip_prefix(PREFIX)
        .filter(|hex| hex.len() == DIGEST_HEX_LEN)
        .and_then(decode_lower_hex)
        .ok_or(WebhookSignatureError::MalformedSignature)?;

    let well_formed_timestamp = (1..=MAX_TIMESTAMP_DIGITS).contains(&timestamp_header.len())
        && timestamp_header.bytes().all(|b| b.is_ascii_digit());
    let timestamp = well_formed_timestamp
        .then(|| timestamp_header.parse::<i64>().ok())
        .flatten()
        .ok_or(WebhookSignatureError::MalformedTimestamp)?;

    if now_secs.abs_diff(timestamp) > SIGNATURE_TOLERANCE_SECS.unsigned_abs() {
        return Err(WebhookSignatureError::Stale);
    }

    // The MAC is over the header text as received, as the spec's signing payload says.
    hmac::verify(&hmac::Key::new(hmac::HMAC_SHA256, secret), &payload(timestamp_header, raw_body), &digest)
        .map_err(|_| WebhookSignatureError::Mismatch)
}

fn payload(timestamp: &str, raw_body: &[u8]) -> Vec<u8> {
    let mut payload = Vec::with_capacity(timestamp.len() + 1 + raw_body.len());
    payload.extend_from_slice(timestamp.as_bytes());
    payload.push(b'.');
    payload.extend_from_slice(raw_body);
    payload
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const SECRET: &[u8] = b"whsec_000102030405060708090a0b0c0d0e0ff0e1d2c3b4a5968778695a4b3c2d1eff";
    const BODY: &[u8] = br#"{"eventType":"CLICKWRAP_EVENT_VERIFIED","data":{"clickwrapEventId":"0190b7c4-2a1e-7cc3-9f00-5d1e2f3a4b5c"}}"#;
    const TS: i64 = 1_763_795_703;
    /// Computed independently with Python's standard library:
    /// `hmac.new(SECRET, b"1763795703." + BODY, hashlib.sha256).hexdigest()`
    const EXPECTED: &str = "sha256=9dab4a2d755013665023e72893a4094dd44bb560329d34b6ab62a92ca3af1123";

    #[test]
    fn known_answer() {
        assert_eq!(sign(SECRET, TS, BODY), EXPECTED);
        // python3: hmac.new(b"key", b"0.", hashlib.sha256).hexdigest()
        assert_eq!(sign(b"key", 0, b""), "sha256=85841b4efc3cd7776c3c8f9b7cca9e281c550e5d19889d78e9e669c6337f000d");
        assert_eq!(verify(SECRET, EXPECTED, "1763795703", BODY, TS), Ok(()));
    }

    #[test]
    fn skew_of_300_seconds_either_way_is_accepted_301_is_stale() {
        let sig = sign(SECRET, TS, BODY);
        for now in [TS - 300, TS, TS + 300] {
            assert_eq!(verify(SECRET, &sig, "1763795703", BODY, now), Ok(()), "{now}");
        }
        for now in [TS - 301, TS + 301, 0, i64::MAX, i64::MIN] {
            assert_eq!(verify(SECRET, &sig, "1763795703", BODY, now), Err(WebhookSignatureError::Stale), "{now}");
        }
    }

    #[test]
    fn staleness_is_checked_before_the_mac() {
        let wrong = format!("sha256={}", "0".repeat(64));
        assert_eq!(verify(SECRET, &wrong, "1763795703", BODY, TS + 301), Err(WebhookSignatureError::Stale));
        assert_eq!(verify(SECRET, &wrong, "1763795703", BODY, TS), Err(WebhookSignatureError::Mismatch));
    }

    #[test]
    fn another_secret_or_timestamp_does_not_match() {
        assert_eq!(verify(b"whsec_other", EXPECTED, "1763795703", BODY, TS), Err(WebhookSignatureError::Mismatch));
        assert_eq!(verify(SECRET, EXPECTED, "1763795704", BODY, TS), Err(WebhookSignatureError::Mismatch));
        // Same number, other text: the MAC is over the header text as sent.
        assert_eq!(verify(SECRET, EXPECTED, "01763795703", BODY, TS), Err(WebhookSignatureError::Mismatch));
    }

    #[test]
    fn re_serialised_json_does_not_match() {
        let spaced = br#"{"eventType": "CLICKWRAP_EVENT_VERIFIED", "data": {"clickwrapEventId": "0190b7c4-2a1e-7cc3-9f00-5d1e2f3a4b5c"}}"#;
        let reordered = br#"{"data":{"clickwrapEventId":"0190b7c4-2a1e-7cc3-9f00-5d1e2f3a4b5c"},"eventType":"CLICKWRAP_EVENT_VERIFIED"}"#;
        let mut trailing_newline = BODY.to_vec();
        trailing_newline.push(b'\n');
        for body in [&spaced[..], &reordered[..], &trailing_newline[..], b""] {
            assert_eq!(verify(SECRET, EXPECTED, "1763795703", body, TS), Err(WebhookSignatureError::Mismatch));
        }
    }

    #[test]
    fn malformed_signature_headers() {
        let hex = &EXPECTED[7..];
        for bad in [
            String::new(),
            hex.to_owned(),
            format!("sha1={hex}"),
            format!("SHA256={hex}"),
            format!("sha256= {hex}"),
            format!("sha256={}", hex.to_uppercase()),
            format!("sha256={}", &hex[1..]),
            format!("sha256={hex}0"),
            format!("sha256={hex}00"),
            format!("sha256={}g", &hex[1..]),
            format!("sha256={}é", &hex[2..]),
            format!("{EXPECTED},{EXPECTED}"),
        ] {
            assert_eq!(
                verify(SECRET, &bad, "1763795703", BODY, TS),
                Err(WebhookSignatureError::MalformedSignature),
                "{bad}"
            );
        }
    }

    #[test]
    fn malformed_timestamp_headers() {
        for bad in [
            "",
            " 1763795703",
            "1763795703 ",
            "+1763795703",
            "-1",
            "1763795703.0",
            "1e9",
            "١٢",
            "99999999999999999999",
            "9223372036854775808",
        ] {
            assert_eq!(
                verify(SECRET, EXPECTED, bad, BODY, TS),
                Err(WebhookSignatureError::MalformedTimestamp),
                "{bad}"
            );
        }
    }

    proptest! {
        #[test]
        fn any_changed_body_byte_fails(at in any::<prop::sample::Index>(), mask in 1u8..=255) {
            let mut body = BODY.to_vec();
            let i = at.index(body.len());
            body[i] ^= mask;
            prop_assert_eq!(verify(SECRET, EXPECTED, "1763795703", &body, TS), Err(WebhookSignatureError::Mismatch));
        }

        #[test]
        fn sign_then_verify_round_trips(
            secret in proptest::collection::vec(any::<u8>(), 0..80),
            ts in 0i64..=i64::MAX,
            body in proptest::collection::vec(any::<u8>(), 0..200),
            skew in -300i64..=300,
        ) {
            let sig = sign(&secret, ts, &body);
            prop_assert!(sig.starts_with("sha256=") && sig.len() == 71);
            prop_assert_eq!(verify(&secret, &sig, &ts.to_string(), &body, ts.saturating_add(skew)), Ok(()));
        }

        #[test]
        fn arbitrary_headers_never_panic(sig in "\\PC{0,100}", ts in "\\PC{0,30}", now in any::<i64>()) {
            let _ = verify(SECRET, &sig, &ts, BODY, now);
        }
    }
}
