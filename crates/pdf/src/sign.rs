//! The PDF signature: a detached CMS SignedData (`adbe.pkcs7.detached`) over the file's bytes
//! except the signature's own `/Contents` value, which the `/ByteRange` array describes.
//!
//! The document is written once with placeholders of fixed width (a zero-filled hex string and a
//! `/ByteRange` of wide dummy numbers); then the real ranges are written over the dummy numbers,
//! padded with spaces, the two ranges are hashed and the DER of the CMS is written, hex, over the
//! zeros. Nothing moves, so the cross-reference offsets stay right.

use cms::cert::{CertificateChoices, IssuerAndSerialNumber};
use cms::content_info::{CmsVersion, ContentInfo};
use cms::signed_data::{
    CertificateSet, EncapsulatedContentInfo, SignedAttributes, SignedData, SignerIdentifier, SignerInfo, SignerInfos,
};
use der::Encode;
use der::asn1::{Any, ObjectIdentifier, OctetString, SetOfVec};
use lopdf::{Dictionary, Object, StringFormat};
use time::OffsetDateTime;
use x509_cert::attr::Attribute;
use x509_cert::spki::AlgorithmIdentifierOwned;
use x509_cert::time::Time;

use crate::identity::SigningIdentity;

const ID_DATA: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.7.1");
const ID_SIGNED_DATA: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.7.2");
const ID_CONTENT_TYPE: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.3");
const ID_MESSAGE_DIGEST: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.4");
const ID_SIGNING_TIME: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.5");
const ID_SHA256: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.2.1");
const ECDSA_WITH_SHA256: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10045.4.3.2");

/// The dummy `/ByteRange` numbers: ten digits, wider than any offset in a PDF we write.
const BYTE_RANGE_DUMMY: i64 = 9_999_999_999;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum SignError {
    #[error("the signature placeholder is missing from the written PDF")]
    PlaceholderMissing,
    #[error("the signature ({needed} bytes) does not fit the space reserved for it ({reserved} bytes)")]
    TooLarge { needed: usize, reserved: usize },
    #[error("the signature could not be encoded: {0}")]
    Encode(String),
    #[error("the signing key failed: {0}")]
    Key(String),
}

impl From<der::Error> for SignError {
    fn from(error: der::Error) -> Self {
        SignError::Encode(error.to_string())
    }
}

/// Bytes reserved for the DER signature: the certificate plus ample room for the rest (signed
/// attributes, an ECDSA signature, the structure around them).
pub(crate) fn reserved_signature_len(identity: &SigningIdentity) -> usize {
    identity.certificate_der().len() + 640
}

/// The signature dictionary (`/Type /Sig`) with its placeholders.
pub(crate) fn signature_dictionary(
    reserved: usize,
    signing_time: OffsetDateTime,
    signer_name: Option<&str>,
    reason: &str,
) -> Dictionary {
    let mut dict = Dictionary::new();
    dict.set("Type", Object::Name(b"Sig".to_vec()));
    dict.set("Filter", Object::Name(b"Adobe.PPKLite".to_vec()));
    dict.set("SubFilter", Object::Name(b"adbe.pkcs7.detached".to_vec()));
    dict.set(
        "ByteRange",
        Object::Array(vec![
            Object::Integer(0),
            Object::Integer(BYTE_RANGE_DUMMY),
            Object::Integer(BYTE_RANGE_DUMMY),
            Object::Integer(BYTE_RANGE_DUMMY),
        ]),
    );
    dict.set("Contents", Object::String(vec![0; reserved], StringFormat::Hexadecimal));
    dict.set("M", Object::String(pdf_date(signing_time).into_bytes(), StringFormat::Literal));
    if let Some(name) = signer_name {
        dict.set("Name", crate::writer::text_string(name));
    }
    dict.set("Reason", crate::writer::text_string(reason));
    dict
}

/// `D:YYYYMMDDHHmmSSZ`, the PDF date format, in UTC.
pub(crate) fn pdf_date(at: OffsetDateTime) -> String {
    let at = at.to_offset(time::UtcOffset::UTC);
    format!(
        "D:{:04}{:02}{:02}{:02}{:02}{:02}Z",
        at.year(),
        u8::from(at.month()),
        at.day(),
        at.hour(),
        at.minute(),
        at.second()
    )
}

/// Fills in the `/ByteRange` and `/Contents` placeholders of a written PDF.
pub(crate) fn sign_in_place(
    pdf: &mut [u8],
    reserved: usize,
    identity: &SigningIdentity,
    signing_time: OffsetDateTime,
) -> Result<(), SignError> {
    // The signature dictionary is written as `/ByteRange[…]/Contents<…>`, near the end of the file.
    let dummy = format!("[0 {BYTE_RANGE_DUMMY} {BYTE_RANGE_DUMMY} {BYTE_RANGE_DUMMY}]");
    let range_at = rfind(pdf, dummy.as_bytes()).ok_or(SignError::PlaceholderMissing)?;
    let (contents_start, contents_end) =
        contents_after(pdf, range_at + dummy.len(), reserved).ok_or(SignError::PlaceholderMissing)?;
    let after = pdf.len() - contents_end;
    let mut ranges = format!("[0 {contents_start} {contents_end} {after}]");
    if ranges.len() > dummy.len() {
        return Err(SignError::PlaceholderMissing);
    }
    // Pad inside the brackets: `[0 1 2 3      ]` reads the same.
    ranges.pop();
    while ranges.len() < dummy.len() - 1 {
        ranges.push(' ');
    }
    ranges.push(']');
    pdf.get_mut(range_at..range_at + dummy.len())
        .ok_or(SignError::PlaceholderMissing)?
        .copy_from_slice(ranges.as_bytes());

    let mut context = ring::digest::Context::new(&ring::digest::SHA256);
    context.update(pdf.get(..contents_start).ok_or(SignError::PlaceholderMissing)?);
    context.update(pdf.get(contents_end..).ok_or(SignError::PlaceholderMissing)?);
    let digest = context.finish();

    let cms = detached_cms(identity, digest.as_ref(), signing_time)?;
    if cms.len() > reserved {
        return Err(SignError::TooLarge { needed: cms.len(), reserved });
    }
    let hex = pdf.get_mut(contents_start + 1..contents_end - 1).ok_or(SignError::PlaceholderMissing)?;
    for (pair, byte) in hex.chunks_exact_mut(2).zip(&cms) {
        if let [high, low] = pair {
            *high = HEX_DIGITS.get(usize::from(byte >> 4)).copied().unwrap_or(b'0');
            *low = HEX_DIGITS.get(usize::from(byte & 0x0f)).copied().unwrap_or(b'0');
        }
    }
    Ok(())
}

const HEX_DIGITS: &[u8; 16] = b"0123456789ABCDEF";

/// The `/Contents<000…0>` string of the reserved length at `at`: its first and one-past-last offsets.
fn contents_after(pdf: &[u8], at: usize, reserved: usize) -> Option<(usize, usize)> {
    let start = at + pdf.get(at..)?.strip_prefix(b"/Contents").map(|_| b"/Contents".len())?;
    let len = 2 * reserved + 2;
    let candidate = pdf.get(start..start + len)?;
    let zeros = candidate.get(1..len - 1)?;
    (candidate.first() == Some(&b'<') && candidate.last() == Some(&b'>') && zeros.iter().all(|&b| b == b'0'))
        .then_some((start, start + len))
}

/// The last occurrence of `needle`.
fn rfind(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).rposition(|window| window == needle)
}

/// A CMS SignedData without the content (detached), signed over the signed attributes, which hold
/// the content type, the SHA-256 digest of the signed byte ranges and the signing time.
pub(crate) fn detached_cms(
    identity: &SigningIdentity,
    digest: &[u8],
    signing_time: OffsetDateTime,
) -> Result<Vec<u8>, SignError> {
    let sha256 = AlgorithmIdentifierOwned { oid: ID_SHA256, parameters: None };
    let certificate = identity.certificate().clone();

    let mut signed_attrs: SignedAttributes = SetOfVec::new();
    signed_attrs.insert(attribute(ID_CONTENT_TYPE, Any::encode_from(&ID_DATA)?)?)?;
    signed_attrs.insert(attribute(ID_MESSAGE_DIGEST, Any::encode_from(&OctetString::new(digest)?)?)?)?;
    let time = Time::try_from(std::time::SystemTime::from(signing_time))?;
    signed_attrs.insert(attribute(ID_SIGNING_TIME, Any::encode_from(&time)?)?)?;

    // The signature is over the DER of the attributes as a SET OF (tag 0x31), RFC 5652 §5.4.
    let to_sign = signed_attrs.to_der()?;
    let signature = identity.sign(&to_sign).map_err(|e| SignError::Key(e.to_string()))?;

    let signer = SignerInfo {
        version: CmsVersion::V1,
        sid: SignerIdentifier::IssuerAndSerialNumber(IssuerAndSerialNumber {
            issuer: certificate.tbs_certificate.issuer.clone(),
            serial_number: certificate.tbs_certificate.serial_number.clone(),
        }),
        digest_alg: sha256.clone(),
        signed_attrs: Some(signed_attrs),
        signature_algorithm: AlgorithmIdentifierOwned { oid: ECDSA_WITH_SHA256, parameters: None },
        signature: OctetString::new(signature)?,
        unsigned_attrs: None,
    };
    let mut digest_algorithms = SetOfVec::new();
    digest_algorithms.insert(sha256)?;
    let mut certificates = SetOfVec::new();
    certificates.insert(CertificateChoices::Certificate(certificate))?;
    let mut signer_infos = SetOfVec::new();
    signer_infos.insert(signer)?;
    let signed_data = SignedData {
        version: CmsVersion::V1,
        digest_algorithms,
        encap_content_info: EncapsulatedContentInfo { econtent_type: ID_DATA, econtent: None },
        certificates: Some(CertificateSet(certificates)),
        crls: None,
        signer_infos: SignerInfos(signer_infos),
    };
    let content_info = ContentInfo { content_type: ID_SIGNED_DATA, content: Any::encode_from(&signed_data)? };
    Ok(content_info.to_der()?)
}

fn attribute(oid: ObjectIdentifier, value: Any) -> Result<Attribute, SignError> {
    let mut values = SetOfVec::new();
    values.insert(value)?;
    Ok(Attribute { oid, values })
}
