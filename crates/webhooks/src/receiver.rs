//! The receiving side: how a Rust receiver checks that a webhook comes from the service. This is
//! the reference handler's check (the spec's "Signature rules"): take the raw body exactly as
//! received, the `X-Service-Timestamp` and `X-Service-Signature` headers, and the app's webhook
//! signing secret; refuse the request unless [`verify_request`] says it is fine. Every delivery is
//! also signed the Standard Webhooks way (`webhook-id`, `webhook-timestamp`, `webhook-signature`),
//! which [`verify_standard_request`] checks as the official `standardwebhooks` libraries do.
//!
//! ```
//! use clickwrap_webhooks::receiver::{VerifyError, verify_request};
//! use clickwrap_domain::webhooks::signing::sign;
//!
//! // What the service sends (here made up on the spot):
//! let secret = "whsec_000102030405060708090a0b0c0d0e0ff0e1d2c3b4a5968778695a4b3c2d1eff";
//! let body = br#"{"eventType":"CLICKWRAP_EVENT_VERIFIED","data":{}}"#;
//! let now = 1_763_795_703;
//! let mut headers = http::HeaderMap::new();
//! headers.insert("x-service-timestamp", now.to_string().parse().unwrap());
//! headers.insert("x-service-signature", sign(secret.as_bytes(), now, body).parse().unwrap());
//!
//! // What the receiver checks, with its own clock:
//! assert_eq!(verify_request(secret, &headers, body, now + 3), Ok(()));
//! assert_eq!(verify_request(secret, &headers, b"{}", now), Err(VerifyError::Signature(
//!     clickwrap_domain::webhooks::signing::WebhookSignatureError::Mismatch,
//! )));
//! ```
//!
//! Answer 200 once the event is stored (any other status makes the service try again, up to three
//! more times), and process it idempotently, keyed on `webhook-id` (or, for this event type,
//! `data.clickwrapEventId`): a delivery can arrive more than once.

use clickwrap_domain::webhooks::signing::{
    self, WEBHOOK_ID_HEADER, WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TIMESTAMP_HEADER, WebhookSignatureError,
};

pub use clickwrap_domain::webhooks::signing::{SIGNATURE_TOLERANCE_SECS, sign};

/// The header that carries `sha256=<hex HMAC-SHA256 of "<timestamp>.<raw body>">`.
pub const SIGNATURE_HEADER: &str = "X-Service-Signature";
/// The header that carries the Unix time (seconds) the request was signed at.
pub const TIMESTAMP_HEADER: &str = "X-Service-Timestamp";

/// Why a received webhook is refused (answer 400 or 401; do not process it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    #[error("the {0} header is missing")]
    MissingHeader(&'static str),
    /// Present more than once, or not visible ASCII.
    #[error("the {0} header is not a single text value")]
    InvalidHeader(&'static str),
    #[error(transparent)]
    Signature(#[from] WebhookSignatureError),
    /// The secret is not `whsec_` + base64 (the Standard Webhooks check decodes it).
    #[error("the signing secret is not whsec_ followed by base64")]
    MalformedSecret,
}

fn single<'a>(headers: &'a http::HeaderMap, name: &'static str) -> Result<&'a str, VerifyError> {
    let mut values = headers.get_all(name).iter();
    let value = values.next().ok_or(VerifyError::MissingHeader(name))?;
    if values.next().is_some() {
        return Err(VerifyError::InvalidHeader(name));
    }
    value.to_str().map_err(|_| VerifyError::InvalidHeader(name))
}

/// Checks a received webhook from its headers and raw body, against the receiver's clock `now_secs`
/// (Unix seconds). Header names are matched in any letter case.
pub fn verify_request(
    secret: &str,
    headers: &http::HeaderMap,
    raw_body: &[u8],
    now_secs: i64,
) -> Result<(), VerifyError> {
    let signature = single(headers, SIGNATURE_HEADER)?;
    verify_values(secret, Some(signature), Some(single(headers, TIMESTAMP_HEADER)?), raw_body, now_secs)
}

/// The Standard Webhooks check of a received webhook (`webhook-id`, `webhook-timestamp`,
/// `webhook-signature`), keyed as the official libraries key it: the secret after `whsec_`,
/// base64-decoded. Same verdicts as those libraries.
pub fn verify_standard_request(
    secret: &str,
    headers: &http::HeaderMap,
    raw_body: &[u8],
    now_secs: i64,
) -> Result<(), VerifyError> {
    let id = single(headers, WEBHOOK_ID_HEADER)?;
    let signature = single(headers, WEBHOOK_SIGNATURE_HEADER)?;
    let timestamp = single(headers, WEBHOOK_TIMESTAMP_HEADER)?;
    verify_standard_values(secret, Some(id), Some(signature), Some(timestamp), raw_body, now_secs)
}

/// [`verify_standard_request`] for frameworks with other header types: the three header values as found.
pub fn verify_standard_values(
    secret: &str,
    id: Option<&str>,
    signature: Option<&str>,
    timestamp: Option<&str>,
    raw_body: &[u8],
    now_secs: i64,
) -> Result<(), VerifyError> {
    let id = id.ok_or(VerifyError::MissingHeader(WEBHOOK_ID_HEADER))?;
    let signature = signature.ok_or(VerifyError::MissingHeader(WEBHOOK_SIGNATURE_HEADER))?;
    let timestamp = timestamp.ok_or(VerifyError::MissingHeader(WEBHOOK_TIMESTAMP_HEADER))?;
    let key = signing::standard_key(secret).ok_or(VerifyError::MalformedSecret)?;
    signing::verify_standard(&key, id, signature, timestamp, raw_body, now_secs)?;
    Ok(())
}

/// The same check for frameworks with other header types: pass the two header values as found.
pub fn verify_values(
    secret: &str,
    signature: Option<&str>,
    timestamp: Option<&str>,
    raw_body: &[u8],
    now_secs: i64,
) -> Result<(), VerifyError> {
    let signature = signature.ok_or(VerifyError::MissingHeader(SIGNATURE_HEADER))?;
    let timestamp = timestamp.ok_or(VerifyError::MissingHeader(TIMESTAMP_HEADER))?;
    signing::verify(secret.as_bytes(), signature, timestamp, raw_body, now_secs)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &str = "whsec_000102030405060708090a0b0c0d0e0ff0e1d2c3b4a5968778695a4b3c2d1eff";
    const BODY: &[u8] = br#"{"eventType":"CLICKWRAP_EVENT_VERIFIED","data":{"clickwrapEventId":"x"}}"#;
    const NOW: i64 = 1_763_795_703;

    fn headers(timestamp: &str, signature: &str) -> http::HeaderMap {
        let mut headers = http::HeaderMap::new();
        headers.insert("X-Service-Timestamp", timestamp.parse().unwrap());
        headers.insert("x-service-signature", signature.parse().unwrap());
        headers
    }

    #[test]
    fn accepts_what_the_service_signs() {
        let signature = sign(SECRET.as_bytes(), NOW, BODY);
        assert_eq!(verify_request(SECRET, &headers(&NOW.to_string(), &signature), BODY, NOW + 300), Ok(()));
    }

    #[test]
    fn refuses_everything_else() {
        let signature = sign(SECRET.as_bytes(), NOW, BODY);
        let good = headers(&NOW.to_string(), &signature);
        let other = "whsec_ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff";
        assert_eq!(
            verify_request(other, &good, BODY, NOW),
            Err(VerifyError::Signature(WebhookSignatureError::Mismatch))
        );
        assert_eq!(
            verify_request(SECRET, &good, BODY, NOW + 301),
            Err(VerifyError::Signature(WebhookSignatureError::Stale))
        );
        assert_eq!(
            verify_request(SECRET, &http::HeaderMap::new(), BODY, NOW),
            Err(VerifyError::MissingHeader(SIGNATURE_HEADER))
        );
        let mut twice = good.clone();
        twice.append("x-service-signature", signature.parse().unwrap());
        assert_eq!(verify_request(SECRET, &twice, BODY, NOW), Err(VerifyError::InvalidHeader(SIGNATURE_HEADER)));
        let later = headers(&(NOW + 1).to_string(), &signature);
        assert_eq!(
            verify_request(SECRET, &later, BODY, NOW),
            Err(VerifyError::Signature(WebhookSignatureError::Mismatch)),
            "the timestamp is signed too"
        );
        assert_eq!(
            verify_values(SECRET, Some(&signature), None, BODY, NOW),
            Err(VerifyError::MissingHeader(TIMESTAMP_HEADER))
        );
    }

    #[test]
    fn the_standard_webhooks_check_accepts_what_the_service_signs_with_either_secret_format() {
        let new_format = "whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";
        for secret in [SECRET, new_format] {
            let key = signing::standard_key(secret).unwrap();
            let mut headers = http::HeaderMap::new();
            headers.insert("webhook-id", "msg_1".parse().unwrap());
            headers.insert("webhook-timestamp", NOW.to_string().parse().unwrap());
            headers.insert("webhook-signature", signing::sign_standard(&key, "msg_1", NOW, BODY).parse().unwrap());
            assert_eq!(verify_standard_request(secret, &headers, BODY, NOW + 300), Ok(()), "{secret}");
            let other = if secret == SECRET { new_format } else { SECRET };
            assert_eq!(
                verify_standard_request(other, &headers, BODY, NOW),
                Err(VerifyError::Signature(WebhookSignatureError::Mismatch))
            );
            assert_eq!(verify_standard_request("whsec_!", &headers, BODY, NOW), Err(VerifyError::MalformedSecret));
            let mut other_id = headers.clone();
            other_id.insert("webhook-id", "msg_2".parse().unwrap());
            assert_eq!(
                verify_standard_request(secret, &other_id, BODY, NOW),
                Err(VerifyError::Signature(WebhookSignatureError::Mismatch)),
                "the message id is signed too"
            );
            headers.remove("webhook-id");
            assert_eq!(
                verify_standard_request(secret, &headers, BODY, NOW),
                Err(VerifyError::MissingHeader(WEBHOOK_ID_HEADER))
            );
        }
    }
}
