//! Webhook signatures. Every delivery carries two, over the same body bytes:
//!
//! - the spec's ("Signature rules"): `X-Service-Signature: sha256=<hex>` where hex is the lowercase
//!   HMAC-SHA256 of `<X-Service-Timestamp value>.<raw body>`, keyed by the bytes of the signing
//!   secret's text exactly as the operator sees it, prefix included (`b"whsec_0a1b…"`): a receiver in
//!   any language can paste the secret into its HMAC call without decoding anything. [`sign`],
//!   [`verify`].
//! - Standard Webhooks v1: `webhook-signature: v1,<base64>` where base64 (standard alphabet, padded)
//!   is the HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed as the official
//!   `standardwebhooks` libraries key it: the secret's text after `whsec_`, base64-decoded
//!   ([`standard_key`]). So those libraries, unchanged, verify a delivery given the secret as shown.
//!   [`sign_standard`], [`verify_standard`]. A signing secret of the first format (`whsec_` + 64 hex
//!   digits) is valid base64 too (48 bytes of key), so it keeps working for both.
//!
//! The server signs; receivers (and the receiver libraries) verify.

use base64ct::{Base64, Encoding as _};
use ring::hmac;

use crate::keys::decode_lower_hex;

/// How far the timestamp may be from the receiver's clock, either way, in seconds.
pub const SIGNATURE_TOLERANCE_SECS: i64 = 300;

const PREFIX: &str = "sha256=";
const DIGEST_HEX_LEN: usize = 64;
/// An `i64` has at most 19 digits; longer timestamp text is refused before parsing.
const MAX_TIMESTAMP_DIGITS: usize = 19;

/// The Standard Webhooks headers (lowercase, as the specification writes them).
pub const WEBHOOK_ID_HEADER: &str = "webhook-id";
pub const WEBHOOK_TIMESTAMP_HEADER: &str = "webhook-timestamp";
pub const WEBHOOK_SIGNATURE_HEADER: &str = "webhook-signature";

/// What a signing secret's text starts with; [`standard_key`] decodes what follows it.
pub const SECRET_PREFIX: &str = "whsec_";
const STANDARD_VERSION: &str = "v1,";
/// Base64 of a 32-byte HMAC-SHA256 tag, padded.
const STANDARD_SIGNATURE_B64_LEN: usize = 44;

/// Why a webhook's signature is not accepted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum WebhookSignatureError {
    /// Not `sha256=` followed by 64 lowercase hex digits.
    #[error("the signature header is not sha256=<64 lowercase hex digits>")]
    MalformedSignature,
    /// Standard Webhooks: no `v1,` + base64 of 32 bytes among the space-separated signatures.
    #[error("the webhook-signature header has no v1,<base64 of 32 bytes> signature")]
    MalformedStandardSignature,
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

    fresh(timestamp_header, now_secs)?;

    // The MAC is over the header text as received, as the spec's signing payload says.
    hmac::verify(&hmac::Key::new(hmac::HMAC_SHA256, secret), &payload(timestamp_header, raw_body), &digest)
        .map_err(|_| WebhookSignatureError::Mismatch)
}

/// The HMAC key the Standard Webhooks libraries use for a signing secret: its text after `whsec_`
/// (all of it when there is no prefix), base64-decoded (standard alphabet, padded, as the libraries
/// decode it). `None` when that is not base64. Both formats the service hands out decode: the new
/// `whsec_` + base64 of 32 random bytes, and the first `whsec_` + 64 hex digits (hex text is base64
/// text: 48 bytes of key).
pub fn standard_key(secret: &str) -> Option<Vec<u8>> {
    let encoded = secret.strip_prefix(SECRET_PREFIX).unwrap_or(secret);
    Base64::decode_vec(encoded).ok().filter(|key| !key.is_empty())
}

/// The Standard Webhooks v1 `webhook-signature` value for message `msg_id` (sent in `webhook-id`)
/// sent at `timestamp_secs` (sent in `webhook-timestamp`) with exactly these body bytes, keyed by
/// [`standard_key`] of the secret.
pub fn sign_standard(key: &[u8], msg_id: &str, timestamp_secs: i64, raw_body: &[u8]) -> String {
    let content = standard_payload(msg_id, &timestamp_secs.to_string(), raw_body);
    let tag = hmac::sign(&hmac::Key::new(hmac::HMAC_SHA256, key), &content);
    format!("{STANDARD_VERSION}{}", Base64::encode_string(tag.as_ref()))
}

/// Checks a received webhook the Standard Webhooks way: the timestamp's shape and freshness, then
/// each space-separated `v1,<base64>` signature of `signature_header` (other versions are skipped,
/// as the libraries skip them) against the HMAC in constant time; one match is enough (several are
/// sent while a secret is being rotated).
pub fn verify_standard(
    key: &[u8],
    msg_id: &str,
    signature_header: &str,
    timestamp_header: &str,
    raw_body: &[u8],
    now_secs: i64,
) -> Result<(), WebhookSignatureError> {
    let tags: Vec<Vec<u8>> = signature_header
        .split(' ')
        .filter_map(|signature| signature.strip_prefix(STANDARD_VERSION))
        .filter(|encoded| encoded.len() == STANDARD_SIGNATURE_B64_LEN)
        .filter_map(|encoded| Base64::decode_vec(encoded).ok())
        .collect();
    if tags.is_empty() {
        return Err(WebhookSignatureError::MalformedStandardSignature);
    }
    fresh(timestamp_header, now_secs)?;
    let key = hmac::Key::new(hmac::HMAC_SHA256, key);
    let content = standard_payload(msg_id, timestamp_header, raw_body);
    // Every candidate is checked, so the time taken does not say which one matched.
    let matched = tags.iter().fold(false, |matched, tag| hmac::verify(&key, &content, tag).is_ok() | matched);
    if matched { Ok(()) } else { Err(WebhookSignatureError::Mismatch) }
}

/// The timestamp header's value, if it is a Unix time in seconds within the tolerance of `now_secs`.
fn fresh(timestamp_header: &str, now_secs: i64) -> Result<i64, WebhookSignatureError> {
    let well_formed_timestamp = (1..=MAX_TIMESTAMP_DIGITS).contains(&timestamp_header.len())
        && timestamp_header.bytes().all(|b| b.is_ascii_digit());
    let timestamp = well_formed_timestamp
        .then(|| timestamp_header.parse::<i64>().ok())
        .flatten()
        .ok_or(WebhookSignatureError::MalformedTimestamp)?;
    if now_secs.abs_diff(timestamp) > SIGNATURE_TOLERANCE_SECS.unsigned_abs() {
        return Err(WebhookSignatureError::Stale);
    }
    Ok(timestamp)
}

fn standard_payload(msg_id: &str, timestamp: &str, raw_body: &[u8]) -> Vec<u8> {
    dotted(&[msg_id.as_bytes(), timestamp.as_bytes(), raw_body])
}

fn payload(timestamp: &str, raw_body: &[u8]) -> Vec<u8> {
    dotted(&[timestamp.as_bytes(), raw_body])
}

/// The parts joined by `.`, as both schemes sign them, in one allocation.
fn dotted(parts: &[&[u8]]) -> Vec<u8> {
    let mut joined = Vec::with_capacity(parts.iter().map(|part| part.len() + 1).sum());
    for (index, part) in parts.iter().enumerate() {
        if index > 0 {
            joined.push(b'.');
        }
        joined.extend_from_slice(part);
    }
    joined
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

    mod standard {
        use super::super::*;

        /// A secret of the first format (`whsec_` + 64 hex digits), as apps created before Standard
        /// Webhooks have: its hex text is base64 text, 48 bytes of key.
        const HEX_SECRET: &str = "whsec_000102030405060708090a0b0c0d0e0ff0e1d2c3b4a5968778695a4b3c2d1eff";
        /// A secret of the new format: `whsec_` + base64 of the bytes 0..32.
        const B64_SECRET: &str = "whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";
        const MSG_ID: &str = "msg_0190b7c4-2a1e-7cc3-9f00-5d1e2f3a4b5c";
        const BODY: &[u8] = br#"{"eventType":"CLICKWRAP_EVENT_VERIFIED","timestamp":"2025-11-22T07:15:03.000Z","data":{"clickwrapEventId":"0190b7c4-2a1e-7cc3-9f00-5d1e2f3a4b5c"}}"#;
        const TS: i64 = 1_763_795_703;
        // Computed independently with Python's standard library:
        //   key = base64.b64decode(secret.removeprefix("whsec_"))
        //   "v1," + base64.b64encode(hmac.new(key, f"{MSG_ID}.1763795703.".encode() + BODY, hashlib.sha256).digest())
        // and for the spec's header: hmac.new(secret.encode(), b"1763795703." + BODY, hashlib.sha256).hexdigest()
        const HEX_SECRET_V1: &str = "v1,ZF7K2pn//8iqgd6fh2CSW0n5GiDNUoUMCBJItUXzLT0=";
        const HEX_SECRET_SPEC: &str = "sha256=c2239f5fcb618793f76508dd92ac9c8b4357cd3f62fc59aef520e9d9034a5470";
        const B64_SECRET_V1: &str = "v1,v899I3vS7fBR5yxM9Nxpnl5vW6X58ZVQYQsU+fUVBF8=";
        const B64_SECRET_SPEC: &str = "sha256=80acb27f74ed1091477addd76a631e08fc84d8496f667d7cf0bc93316cc23cbf";

        fn key(secret: &str) -> Vec<u8> {
            standard_key(secret).unwrap()
        }

        #[test]
        fn the_key_is_the_base64_decoded_text_after_the_prefix() {
            assert_eq!(key(B64_SECRET), (0u8..32).collect::<Vec<_>>());
            let hex_key = key(HEX_SECRET);
            assert_eq!(hex_key.len(), 48);
            // python3: base64.b64decode("000102030405060708090a0b0c0d0e0f...")[:6].hex()
            assert_eq!(hex::encode(&hex_key[..6]), "d34d35d36d37");
            assert_eq!(standard_key(B64_SECRET.trim_start_matches("whsec_")), standard_key(B64_SECRET));
            for bad in ["whsec_", "", "whsec_not base64!", "whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8"] {
                assert_eq!(standard_key(bad), None, "{bad}");
            }
        }

        #[test]
        fn known_answers_for_both_secret_formats_and_both_schemes() {
            assert_eq!(sign_standard(&key(HEX_SECRET), MSG_ID, TS, BODY), HEX_SECRET_V1);
            assert_eq!(sign_standard(&key(B64_SECRET), MSG_ID, TS, BODY), B64_SECRET_V1);
            // The spec's header stays keyed by the secret's text, whatever its format.
            assert_eq!(sign(HEX_SECRET.as_bytes(), TS, BODY), HEX_SECRET_SPEC);
            assert_eq!(sign(B64_SECRET.as_bytes(), TS, BODY), B64_SECRET_SPEC);
            // python3: "v1," + base64.b64encode(hmac.new(b"key", b"id.0.", hashlib.sha256).digest())
            assert_eq!(sign_standard(b"key", "id", 0, b""), "v1,i2DNjbWQIwfDEdQVuMki85iUo9L43a+QwMs8jXzXPAU=");
        }

        #[test]
        fn the_standard_webhooks_specifications_own_example() {
            // The example in the Standard Webhooks specification's signature section.
            let key = key("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
            let body = br#"{"test": 2432232314}"#;
            let expected = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";
            assert_eq!(sign_standard(&key, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1_614_265_330, body), expected);
            assert_eq!(
                verify_standard(&key, "msg_p5jXN8AQM9LWM0D4loKWxJek", expected, "1614265330", body, 1_614_265_330),
                Ok(())
            );
        }

        #[test]
        fn verifies_what_it_signs_and_nothing_else() {
            let key = key(B64_SECRET);
            let ok =
                |sig: &str, id: &str, ts: &str, body: &[u8], now: i64| verify_standard(&key, id, sig, ts, body, now);
            assert_eq!(ok(B64_SECRET_V1, MSG_ID, "1763795703", BODY, TS + 300), Ok(()));
            assert_eq!(ok(B64_SECRET_V1, MSG_ID, "1763795703", BODY, TS - 300), Ok(()));
            assert_eq!(ok(B64_SECRET_V1, MSG_ID, "1763795703", BODY, TS + 301), Err(WebhookSignatureError::Stale));
            assert_eq!(ok(B64_SECRET_V1, "msg_other", "1763795703", BODY, TS), Err(WebhookSignatureError::Mismatch));
            assert_eq!(ok(B64_SECRET_V1, MSG_ID, "1763795704", BODY, TS), Err(WebhookSignatureError::Mismatch));
            assert_eq!(ok(B64_SECRET_V1, MSG_ID, "1763795703", b"{}", TS), Err(WebhookSignatureError::Mismatch));
            assert_eq!(ok(HEX_SECRET_V1, MSG_ID, "1763795703", BODY, TS), Err(WebhookSignatureError::Mismatch));
            assert_eq!(ok(B64_SECRET_V1, MSG_ID, "1e9", BODY, TS), Err(WebhookSignatureError::MalformedTimestamp));
            // Several signatures, space-separated (a rotation's overlap): any one of them matching will do,
            // and versions other than v1 are skipped.
            let both = format!("{HEX_SECRET_V1} {B64_SECRET_V1}");
            assert_eq!(ok(&both, MSG_ID, "1763795703", BODY, TS), Ok(()));
            let other_versions = format!("v1a,{} {B64_SECRET_V1}", &B64_SECRET_V1[3..]);
            assert_eq!(ok(&other_versions, MSG_ID, "1763795703", BODY, TS), Ok(()));
        }

        #[test]
        fn malformed_standard_signatures() {
            let key = key(B64_SECRET);
            let b64 = &B64_SECRET_V1[3..];
            for bad in [
                String::new(),
                b64.to_owned(),
                format!("v2,{b64}"),
                format!("V1,{b64}"),
                format!("v1, {b64}"),
                format!("v1,{}", &b64[1..]),
                format!("v1,{}", b64.trim_end_matches('=')),
                format!("v1,{b64}AAAA"),
                format!("v1,{}!", &b64[..43]),
                HEX_SECRET_SPEC.to_owned(),
            ] {
                assert_eq!(
                    verify_standard(&key, MSG_ID, &bad, "1763795703", BODY, TS),
                    Err(WebhookSignatureError::MalformedStandardSignature),
                    "{bad}"
                );
            }
        }

        proptest::proptest! {
            #[test]
            fn sign_then_verify_round_trips(
                key in proptest::collection::vec(proptest::prelude::any::<u8>(), 1..80),
                id in "[a-zA-Z0-9_-]{1,40}",
                ts in 0i64..=i64::MAX,
                body in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..200),
            ) {
                let sig = sign_standard(&key, &id, ts, &body);
                proptest::prop_assert!(sig.starts_with("v1,") && sig.len() == 47);
                proptest::prop_assert_eq!(verify_standard(&key, &id, &sig, &ts.to_string(), &body, ts), Ok(()));
            }

            #[test]
            fn arbitrary_standard_headers_never_panic(sig in "\\PC{0,120}", ts in "\\PC{0,30}", now in proptest::prelude::any::<i64>()) {
                let _ = verify_standard(b"key", MSG_ID, &sig, &ts, BODY, now);
            }
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
