//! The PDF signature: a PAdES baseline signature (`ETSI.CAdES.detached`, ETSI EN 319 142-1), a
//! detached CMS SignedData over the file's bytes except the signature's own `/Contents` value,
//! which the `/ByteRange` array describes.
//!
//! PAdES asks for the ESS `signing-certificate-v2` signed attribute (the signer certificate's
//! SHA-256, so it cannot be swapped) and forbids a `signingTime` attribute (the time is the
//! signature dictionary's `/M`). With a timestamp authority, the SignerInfo also carries, unsigned,
//! an RFC 3161 timestamp token over its signature value (`id-aa-signatureTimeStampToken`): PAdES
//! B-T instead of B-B. The certificates of the chain go into the CMS, so that a validator who trusts
//! only the root can build the path; a self-signed root itself does not (the validator has it).
//!
//! The document is written once with placeholders of fixed width (a zero-filled hex string and a
//! `/ByteRange` of wide dummy numbers); then the real ranges are written over the dummy numbers,
//! padded with spaces, the two ranges are hashed and the DER of the CMS is written, hex, over the
//! zeros. Nothing moves, so the cross-reference offsets stay right.

use cms::cert::{CertificateChoices, IssuerAndSerialNumber};
use cms::content_info::{CmsVersion, ContentInfo};
use cms::signed_data::{
    CertificateSet, EncapsulatedContentInfo, SignedAttributes, SignedData, SignerIdentifier, SignerInfo, SignerInfos,
    UnsignedAttributes,
};
use der::asn1::{Any, ObjectIdentifier, OctetString, SetOfVec};
use der::{Decode, Encode, Sequence};
use lopdf::{Dictionary, Object, StringFormat};
use time::OffsetDateTime;
use x509_cert::attr::Attribute;
use x509_cert::spki::AlgorithmIdentifierOwned;

use crate::identity::SigningIdentity;

const ID_DATA: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.7.1");
const ID_SIGNED_DATA: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.7.2");
const ID_CONTENT_TYPE: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.3");
const ID_MESSAGE_DIGEST: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.4");
/// `id-aa-signingCertificateV2` (RFC 5035).
const ID_SIGNING_CERTIFICATE_V2: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.16.2.47");
/// `id-aa-signatureTimeStampToken` (RFC 3161 appendix A).
const ID_SIGNATURE_TIMESTAMP_TOKEN: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.16.2.14");
pub(crate) const ID_SHA256: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.2.1");

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
    #[error("the timestamp token is not DER: {0}")]
    TimestampToken(String),
}

impl From<der::Error> for SignError {
    fn from(error: der::Error) -> Self {
        SignError::Encode(error.to_string())
    }
}

/// Bytes reserved for the DER signature: exactly the longest CMS this identity signs, found by
/// encoding one with a placeholder signature value of the longest length, and with a placeholder
/// timestamp token of `token_len` bytes when the signature is to be timestamped. The reservation
/// is written as hex zeros, two bytes each, that no compression reduces: nothing is added at random.
pub(crate) fn reserved_signature_len(identity: &SigningIdentity, token_len: Option<usize>) -> Result<usize, SignError> {
    let signer = signer_info_with(identity, &[0; 32], vec![0xff; identity.max_signature_len()])?;
    let placeholder_token = token_len.map(|len| Any::new(der::Tag::Sequence, vec![0; len])).transpose()?;
    Ok(cms(signer, carried_certificates(identity)?, placeholder_token)?.len())
}

/// The certificates the CMS carries: the signer's and its chain, except a self-signed root (the
/// trust anchor a validator has, or builds the path to, anyway). A self-signed signer's own
/// certificate is always carried.
fn carried_certificates(identity: &SigningIdentity) -> Result<CertificateSet, SignError> {
    let mut certificates = SetOfVec::new();
    certificates.insert(CertificateChoices::Certificate(identity.certificate().clone()))?;
    for certificate in identity.chain() {
        let tbs = &certificate.tbs_certificate;
        if tbs.issuer != tbs.subject {
            certificates.insert(CertificateChoices::Certificate(certificate.clone()))?;
        }
    }
    Ok(CertificateSet(certificates))
}

/// The signature dictionary (`/Type /Sig`) with its placeholders. No `/Name`: validators name the
/// signer from the certificate in the CMS, which is what counts.
pub(crate) fn signature_dictionary(reserved: usize, signing_time: OffsetDateTime, reason: &str) -> Dictionary {
    let mut dict = Dictionary::new();
    dict.set("Type", Object::Name(b"Sig".to_vec()));
    dict.set("Filter", Object::Name(b"Adobe.PPKLite".to_vec()));
    dict.set("SubFilter", Object::Name(b"ETSI.CAdES.detached".to_vec()));
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

/// A written PDF whose `/ByteRange` is filled in and whose signer has signed: only the CMS, with
/// or without a timestamp token, is still to be written into `/Contents`.
#[derive(Debug)]
pub(crate) struct PendingSignature {
    pdf: Vec<u8>,
    /// The `/Contents<…>` hex string: its first and one-past-last offsets.
    contents: (usize, usize),
    reserved: usize,
    signer: SignerInfo,
    certificates: CertificateSet,
}

/// Fills in the `/ByteRange` placeholder of a written PDF, hashes the signed ranges and signs.
pub(crate) fn prepare(
    mut pdf: Vec<u8>,
    reserved: usize,
    identity: &SigningIdentity,
) -> Result<PendingSignature, SignError> {
    // The signature dictionary is written as `/ByteRange[…]/Contents<…>`, near the end of the file.
    let dummy = format!("[0 {BYTE_RANGE_DUMMY} {BYTE_RANGE_DUMMY} {BYTE_RANGE_DUMMY}]");
    let range_at = rfind(&pdf, dummy.as_bytes()).ok_or(SignError::PlaceholderMissing)?;
    let (contents_start, contents_end) =
        contents_after(&pdf, range_at + dummy.len(), reserved).ok_or(SignError::PlaceholderMissing)?;
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

    let signer = signer_info(identity, digest.as_ref())?;
    let certificates = carried_certificates(identity)?;
    Ok(PendingSignature { pdf, contents: (contents_start, contents_end), reserved, signer, certificates })
}

impl PendingSignature {
    /// The signature value, whose SHA-256 a timestamp authority stamps.
    pub(crate) fn signature_value(&self) -> &[u8] {
        self.signer.signature.as_bytes()
    }

    /// The signed PDF: the CMS, with the timestamp token (a DER `ContentInfo`) as an unsigned
    /// attribute if given, written over the zeros of `/Contents`.
    pub(crate) fn signed_pdf(&self, timestamp_token: Option<&[u8]>) -> Result<Vec<u8>, SignError> {
        let cms = self.cms(timestamp_token)?;
        if cms.len() > self.reserved {
            return Err(SignError::TooLarge { needed: cms.len(), reserved: self.reserved });
        }
        let (contents_start, contents_end) = self.contents;
        let mut pdf = self.pdf.clone();
        let hex = pdf.get_mut(contents_start + 1..contents_end - 1).ok_or(SignError::PlaceholderMissing)?;
        for (pair, byte) in hex.chunks_exact_mut(2).zip(&cms) {
            if let [high, low] = pair {
                *high = HEX_DIGITS.get(usize::from(byte >> 4)).copied().unwrap_or(b'0');
                *low = HEX_DIGITS.get(usize::from(byte & 0x0f)).copied().unwrap_or(b'0');
            }
        }
        Ok(pdf)
    }

    /// The room reserved for the CMS, in bytes.
    pub(crate) fn reserved(&self) -> usize {
        self.reserved
    }

    fn cms(&self, timestamp_token: Option<&[u8]>) -> Result<Vec<u8>, SignError> {
        let token = timestamp_token
            .map(|token| Any::from_der(token).map_err(|e| SignError::TimestampToken(e.to_string())))
            .transpose()?;
        cms(self.signer.clone(), self.certificates.clone(), token)
    }
}

/// A CMS SignedData without the content (detached), the timestamp token (if any) an unsigned
/// attribute of the signer.
fn cms(
    mut signer: SignerInfo,
    certificates: CertificateSet,
    timestamp_token: Option<Any>,
) -> Result<Vec<u8>, SignError> {
    if let Some(token) = timestamp_token {
        let mut unsigned: UnsignedAttributes = SetOfVec::new();
        unsigned.insert(attribute(ID_SIGNATURE_TIMESTAMP_TOKEN, token)?)?;
        signer.unsigned_attrs = Some(unsigned);
    }
    let mut digest_algorithms = SetOfVec::new();
    digest_algorithms.insert(sha256())?;
    let mut signer_infos = SetOfVec::new();
    signer_infos.insert(signer)?;
    let signed_data = SignedData {
        version: CmsVersion::V1,
        digest_algorithms,
        encap_content_info: EncapsulatedContentInfo { econtent_type: ID_DATA, econtent: None },
        certificates: Some(certificates),
        crls: None,
        signer_infos: SignerInfos(signer_infos),
    };
    let content_info = ContentInfo { content_type: ID_SIGNED_DATA, content: Any::encode_from(&signed_data)? };
    Ok(content_info.to_der()?)
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

/// The signer's part, signed over the signed attributes: the content type, the SHA-256 digest of
/// the signed byte ranges and `signing-certificate-v2`. No signing time: PAdES takes it from `/M`.
fn signer_info(identity: &SigningIdentity, digest: &[u8]) -> Result<SignerInfo, SignError> {
    let signed_attrs = signed_attributes(identity, digest)?;
    // The signature is over the DER of the attributes as a SET OF (tag 0x31), RFC 5652 §5.4.
    let signature = identity.sign(&signed_attrs.to_der()?).map_err(|e| SignError::Key(e.to_string()))?;
    signer_info_with(identity, digest, signature)
}

/// The signer's part with the given signature value over the signed attributes for `digest`.
fn signer_info_with(identity: &SigningIdentity, digest: &[u8], signature: Vec<u8>) -> Result<SignerInfo, SignError> {
    let certificate = identity.certificate();
    Ok(SignerInfo {
        version: CmsVersion::V1,
        sid: SignerIdentifier::IssuerAndSerialNumber(IssuerAndSerialNumber {
            issuer: certificate.tbs_certificate.issuer.clone(),
            serial_number: certificate.tbs_certificate.serial_number.clone(),
        }),
        digest_alg: sha256(),
        signed_attrs: Some(signed_attributes(identity, digest)?),
        signature_algorithm: identity.signature_algorithm(),
        signature: OctetString::new(signature)?,
        unsigned_attrs: None,
    })
}

fn signed_attributes(identity: &SigningIdentity, digest: &[u8]) -> Result<SignedAttributes, SignError> {
    let mut signed_attrs: SignedAttributes = SetOfVec::new();
    signed_attrs.insert(attribute(ID_CONTENT_TYPE, Any::encode_from(&ID_DATA)?)?)?;
    signed_attrs.insert(attribute(ID_MESSAGE_DIGEST, Any::encode_from(&OctetString::new(digest)?)?)?)?;
    let cert_hash = ring::digest::digest(&ring::digest::SHA256, identity.certificate_der());
    let signing_certificate =
        SigningCertificateV2 { certs: vec![EssCertIdV2 { cert_hash: OctetString::new(cert_hash.as_ref())? }] };
    signed_attrs.insert(attribute(ID_SIGNING_CERTIFICATE_V2, Any::encode_from(&signing_certificate)?)?)?;
    Ok(signed_attrs)
}

fn sha256() -> AlgorithmIdentifierOwned {
    AlgorithmIdentifierOwned { oid: ID_SHA256, parameters: None }
}

/// `SigningCertificateV2` (RFC 5035), without policies.
#[derive(Debug, Sequence)]
struct SigningCertificateV2 {
    certs: Vec<EssCertIdV2>,
}

/// `ESSCertIDv2`: its `hashAlgorithm` is left out, as DER asks of the default, SHA-256, and its
/// optional `issuerSerial` too, as the CAdES baseline profile (ETSI EN 319 122-1) recommends:
/// the hash alone binds the certificate.
#[derive(Debug, Sequence)]
struct EssCertIdV2 {
    cert_hash: OctetString,
}

fn attribute(oid: ObjectIdentifier, value: Any) -> Result<Attribute, SignError> {
    let mut values = SetOfVec::new();
    values.insert(value)?;
    Ok(Attribute { oid, values })
}
