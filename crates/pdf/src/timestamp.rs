//! RFC 3161 trusted timestamps for the certificate's signature (PAdES B-T).
//!
//! This crate does no IO: it builds the `TimeStampReq` and checks the `TimeStampResp`; the
//! [`TimestampAuthority`] that carries them to a TSA (an HTTP POST) is the server's.

use std::fmt::Debug;
use std::sync::atomic::{AtomicU64, Ordering};

use async_trait::async_trait;
use cms::content_info::ContentInfo;
use cms::signed_data::SignedData;
use der::asn1::{Any, Int, ObjectIdentifier, OctetString, Uint};
use der::{Decode, Encode, Reader, Sequence, SliceReader, Tag, Tagged};
use ring::rand::{SecureRandom, SystemRandom};
use x509_cert::spki::AlgorithmIdentifierOwned;

use crate::sign::ID_SHA256;

/// The media types of RFC 3161 over HTTP (section 3.4).
pub const TIMESTAMP_QUERY_MEDIA_TYPE: &str = "application/timestamp-query";
pub const TIMESTAMP_REPLY_MEDIA_TYPE: &str = "application/timestamp-reply";

const ID_SIGNED_DATA: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.7.2");
const ID_CT_TST_INFO: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.16.1.4");

/// A time-stamping authority: stamps a SHA-256 digest, returning the `TimeStampToken` (the DER of
/// a CMS `ContentInfo`) it issued for it. Implementations bound the time they take.
#[async_trait]
pub trait TimestampAuthority: Send + Sync + Debug {
    async fn timestamp(&self, message_imprint_sha256: [u8; 32]) -> Result<Vec<u8>, TimestampError>;
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TimestampError {
    #[error("the timestamp authority could not be reached: {0}")]
    Unreachable(String),
    #[error("the timestamp authority did not answer in time")]
    Timeout,
    #[error("the timestamp authority answered HTTP {0}")]
    HttpStatus(u16),
    #[error("the timestamp authority refused the request (PKIStatus {status}): {detail}")]
    Refused { status: String, detail: String },
    #[error("the timestamp authority's answer is not a timestamp response: {0}")]
    Malformed(String),
    #[error("the timestamp token is not for this request: its {0} differs")]
    Mismatch(&'static str),
    #[error("the timestamp request could not be encoded: {0}")]
    Request(String),
}

/// An RFC 3161 `TimeStampReq` (version 1, SHA-256 imprint, a nonce, certReq true: the token must
/// carry the TSA's certificate, so that validators can check it offline).
#[derive(Debug, Clone)]
pub struct TimestampRequest {
    der: Vec<u8>,
    imprint: [u8; 32],
    nonce: Uint,
}

#[derive(Debug, Clone, PartialEq, Eq, Sequence)]
struct MessageImprint {
    hash_algorithm: AlgorithmIdentifierOwned,
    hashed_message: OctetString,
}

#[derive(Debug, Sequence)]
struct TimeStampReq {
    version: u8,
    message_imprint: MessageImprint,
    nonce: Uint,
    cert_req: bool,
}

#[derive(Debug, Sequence)]
struct TimeStampResp {
    status: PkiStatusInfo,
    #[asn1(optional = "true")]
    time_stamp_token: Option<ContentInfo>,
}

#[derive(Debug, Sequence)]
struct PkiStatusInfo {
    status: Int,
    #[asn1(optional = "true")]
    status_string: Option<Vec<String>>,
    #[asn1(optional = "true")]
    fail_info: Option<der::asn1::BitString>,
}

impl TimestampRequest {
    /// A request for `imprint` (a SHA-256 digest) with a random nonce.
    pub fn new(imprint: [u8; 32]) -> Result<Self, TimestampError> {
        let mut nonce = [0_u8; 8];
        SystemRandom::new().fill(&mut nonce).map_err(|_| TimestampError::Request("no random nonce".to_owned()))?;
        Self::with_nonce(imprint, u64::from_be_bytes(nonce))
    }

    /// A request with the given nonce (tests use a fixed one).
    pub fn with_nonce(imprint: [u8; 32], nonce: u64) -> Result<Self, TimestampError> {
        let encoding = |e: der::Error| TimestampError::Request(e.to_string());
        let nonce = Uint::new(&nonce.to_be_bytes()).map_err(encoding)?;
        let request = TimeStampReq {
            version: 1,
            message_imprint: message_imprint(&imprint).map_err(encoding)?,
            nonce: nonce.clone(),
            cert_req: true,
        };
        Ok(TimestampRequest { der: request.to_der().map_err(encoding)?, imprint, nonce })
    }

    /// The DER body to POST as `application/timestamp-query`.
    pub fn der(&self) -> &[u8] {
        &self.der
    }

    /// The token of a `TimeStampResp` (DER), once checked: the status is granted (or granted with
    /// modifications), a token is there, and its `TSTInfo` stamps this request's imprint with this
    /// request's nonce. The token's signature is for validators to check, against the TSA's root.
    pub fn token_from_response(&self, response: &[u8]) -> Result<Vec<u8>, TimestampError> {
        let malformed = |e: der::Error| TimestampError::Malformed(e.to_string());
        let response = TimeStampResp::from_der(response).map_err(malformed)?;
        let status = response.status.status.as_bytes();
        // PKIStatus: granted (0) or grantedWithMods (1); anything else carries no token.
        if !matches!(status, [0] | [1]) {
            return Err(TimestampError::Refused {
                status: format!("{status:?}"),
                detail: response.status.status_string.unwrap_or_default().join("; "),
            });
        }
        let token = response
            .time_stamp_token
            .ok_or_else(|| TimestampError::Malformed("the response is granted but holds no token".to_owned()))?;
        if token.content_type != ID_SIGNED_DATA {
            return Err(TimestampError::Malformed("the token is not a CMS SignedData".to_owned()));
        }
        let signed_data: SignedData = token.content.decode_as().map_err(malformed)?;
        let content = signed_data.encap_content_info;
        if content.econtent_type != ID_CT_TST_INFO {
            return Err(TimestampError::Malformed("the token does not hold a TSTInfo".to_owned()));
        }
        let tst_info = content
            .econtent
            .ok_or_else(|| TimestampError::Malformed("the token's TSTInfo is missing".to_owned()))?
            .decode_as::<OctetString>()
            .map_err(malformed)?;
        let (imprint, nonce) = tst_info_fields(tst_info.as_bytes()).map_err(malformed)?;
        if imprint != message_imprint(&self.imprint).map_err(malformed)? {
            return Err(TimestampError::Mismatch("message imprint"));
        }
        if nonce.as_ref() != Some(&self.nonce) {
            return Err(TimestampError::Mismatch("nonce"));
        }
        token.to_der().map_err(malformed)
    }
}

fn message_imprint(digest: &[u8; 32]) -> Result<MessageImprint, der::Error> {
    Ok(MessageImprint {
        hash_algorithm: AlgorithmIdentifierOwned { oid: ID_SHA256, parameters: None },
        hashed_message: OctetString::new(digest.as_slice())?,
    })
}

/// The `messageImprint` and `nonce` of a `TSTInfo`, read field by field: the optional fields
/// between them (accuracy, ordering) and after them are skipped, and `genTime` is not parsed (TSAs
/// may write fractions of a second, which validators read, not us).
fn tst_info_fields(der: &[u8]) -> Result<(MessageImprint, Option<Uint>), der::Error> {
    let mut reader = SliceReader::new(der)?;
    reader.sequence(|fields| {
        let _version: Int = fields.decode()?;
        let _policy: ObjectIdentifier = fields.decode()?;
        let imprint: MessageImprint = fields.decode()?;
        let _serial_number: Int = fields.decode()?;
        let gen_time: Any = fields.decode()?;
        if gen_time.tag() != Tag::GeneralizedTime {
            return Err(der::Error::from(der::ErrorKind::TagUnexpected {
                expected: Some(Tag::GeneralizedTime),
                actual: gen_time.tag(),
            }));
        }
        let mut nonce = None;
        while !fields.is_finished() {
            let field: Any = fields.decode()?;
            if field.tag() == Tag::Integer {
                nonce = Some(field.decode_as::<Uint>()?);
            }
        }
        Ok((imprint, nonce))
    })
}

/// How many certificates were timestamped and how many went without (B-B) because the TSA failed.
#[derive(Debug, Default)]
pub struct TimestampCounts {
    stamped: AtomicU64,
    failed: AtomicU64,
}

impl TimestampCounts {
    pub fn stamped(&self) -> u64 {
        self.stamped.load(Ordering::Relaxed)
    }

    pub fn failed(&self) -> u64 {
        self.failed.load(Ordering::Relaxed)
    }

    pub(crate) fn count(&self, stamped: bool) {
        let counter = if stamped { &self.stamped } else { &self.failed };
        counter.fetch_add(1, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_request_is_version_1_with_a_sha256_imprint_a_nonce_and_cert_req() {
        let request = TimestampRequest::with_nonce([7; 32], 0x0102_0304_0506_0708).unwrap();
        let decoded = TimeStampReq::from_der(request.der()).unwrap();
        assert_eq!(decoded.version, 1);
        assert_eq!(decoded.message_imprint.hash_algorithm.oid, ID_SHA256);
        assert_eq!(decoded.message_imprint.hashed_message.as_bytes(), [7; 32]);
        assert_eq!(decoded.nonce.as_bytes(), [1, 2, 3, 4, 5, 6, 7, 8]);
        assert!(decoded.cert_req);
    }

    #[test]
    fn a_refusal_or_garbage_is_an_error() {
        let request = TimestampRequest::with_nonce([7; 32], 1).unwrap();
        assert!(matches!(request.token_from_response(b"garbage"), Err(TimestampError::Malformed(_))));
        // TimeStampResp { status: { rejection (2), statusString { "busy" } } }
        let rejection = [0x30, 0x0d, 0x30, 0x0b, 0x02, 0x01, 0x02, 0x30, 0x06, 0x0c, 0x04, b'b', b'u', b's', b'y'];
        let error = request.token_from_response(&rejection).unwrap_err();
        assert!(matches!(&error, TimestampError::Refused { detail, .. } if detail == "busy"), "{error}");
        // Granted, but no token.
        let empty = [0x30, 0x05, 0x30, 0x03, 0x02, 0x01, 0x00];
        assert!(matches!(request.token_from_response(&empty), Err(TimestampError::Malformed(_))));
    }
}
