//! Checking the signature of a signed PDF offline, as an evidence bundle's verifier does: the
//! `/ByteRange` covers the whole file but the `/Contents` string, the CMS's `messageDigest` is the
//! SHA-256 of those ranges, the signer's signature over the signed attributes holds, and the
//! signer's certificate is one of the trusted ones or is issued by one (directly or through
//! certificates the CMS carries).
//!
//! Only what the service writes is accepted: one signer, SHA-256, ECDSA P-256 or RSA PKCS#1 v1.5.
//! Certificate validity periods and revocation are not looked at: a certificate of acceptance must
//! stay checkable long after its signing certificate expired or was replaced.

use cms::cert::CertificateChoices;
use cms::content_info::ContentInfo;
use cms::signed_data::{SignedData, SignerIdentifier, SignerInfo};
use der::asn1::{ObjectIdentifier, OctetString};
use der::{Decode, Encode, Reader, SliceReader};
use ring::signature::{ECDSA_P256_SHA256_ASN1, RSA_PKCS1_2048_8192_SHA256, UnparsedPublicKey, VerificationAlgorithm};
use x509_cert::Certificate;

const ID_MESSAGE_DIGEST: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.4");
const ID_SHA256: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.2.1");
const ECDSA_WITH_SHA256: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10045.4.3.2");
const SHA256_WITH_RSA_ENCRYPTION: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.11");
const ID_EC_PUBLIC_KEY: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10045.2.1");
const RSA_ENCRYPTION: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.1");

/// How many issuers up from the signer are looked at before giving up.
const MAX_CHAIN: usize = 8;

/// A signature that holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifiedSignature {
    /// The DER of the certificate whose key made the signature.
    pub signer_certificate_der: Vec<u8>,
    /// The DER of the trusted certificate it was found to be, or to be issued by.
    pub trusted_certificate_der: Vec<u8>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PdfSignatureError {
    #[error("the PDF has no signature (no /ByteRange)")]
    NoSignature,
    #[error("the signature's /ByteRange is malformed: {0}")]
    MalformedByteRange(&'static str),
    #[error("the signature's /ByteRange does not cover the whole file but its /Contents")]
    IncompleteByteRange,
    #[error("the signature (/Contents) is not a CMS SignedData the service writes: {0}")]
    MalformedSignature(String),
    #[error("the document was changed after it was signed (its digest is not the signed one)")]
    DigestMismatch,
    #[error("the signer's certificate is not in the signature")]
    SignerCertificateMissing,
    #[error("the signer's key is {0}, not ECDSA P-256 or RSA")]
    UnsupportedKey(String),
    #[error("the signature value does not verify with the signer's certificate")]
    SignatureInvalid,
    #[error("the signer's certificate is neither trusted nor issued by a trusted certificate")]
    UntrustedSigner,
}

/// Checks the PDF's signature against the `trusted` certificates (DER).
pub fn verify_pdf_signature(pdf: &[u8], trusted: &[Vec<u8>]) -> Result<VerifiedSignature, PdfSignatureError> {
    let [start, first_len, second_start, second_len] = byte_range(pdf)?;
    let contents = pdf.get(first_len..second_start).ok_or(PdfSignatureError::IncompleteByteRange)?;
    if start != 0 || second_start.checked_add(second_len) != Some(pdf.len()) || contents.len() < 2 {
        return Err(PdfSignatureError::IncompleteByteRange);
    }
    let hex = contents
        .strip_prefix(b"<")
        .and_then(|rest| rest.strip_suffix(b">"))
        .ok_or(PdfSignatureError::IncompleteByteRange)?;

    let signed_data = signed_data(hex)?;
    let [signer] = signed_data.signer_infos.0.as_slice() else {
        return Err(malformed("not exactly one signer"));
    };
    // What the signature names but does not sign must still be what was used: SHA-256 throughout.
    if signer.digest_alg.oid != ID_SHA256 || !signed_data.digest_algorithms.iter().all(|a| a.oid == ID_SHA256) {
        return Err(malformed("a digest algorithm other than SHA-256"));
    }
    if ![ECDSA_WITH_SHA256, SHA256_WITH_RSA_ENCRYPTION, RSA_ENCRYPTION].contains(&signer.signature_algorithm.oid) {
        return Err(malformed(format!("the signature algorithm {}", signer.signature_algorithm.oid)));
    }
    let mut context = ring::digest::Context::new(&ring::digest::SHA256);
    context.update(pdf.get(..first_len).ok_or(PdfSignatureError::IncompleteByteRange)?);
    context.update(pdf.get(second_start..).ok_or(PdfSignatureError::IncompleteByteRange)?);
    if message_digest(signer)? != context.finish().as_ref() {
        return Err(PdfSignatureError::DigestMismatch);
    }

    let carried: Vec<Certificate> = signed_data
        .certificates
        .iter()
        .flat_map(|set| set.0.iter())
        .filter_map(|choice| match choice {
            CertificateChoices::Certificate(certificate) => Some(certificate.clone()),
            CertificateChoices::Other(_) => None,
        })
        .collect();
    let signer_certificate = signer_certificate(signer, &carried)?;
    let signed_attributes = signer.signed_attrs.as_ref().ok_or_else(|| malformed("no signed attributes"))?;
    // RFC 5652 §5.4: the signature is over the DER of the attributes as a SET OF.
    let message = signed_attributes.to_der().map_err(|e| malformed(e.to_string()))?;
    if !verifies(signer_certificate, &message, signer.signature.as_bytes())? {
        return Err(PdfSignatureError::SignatureInvalid);
    }
    let trusted_certificate_der = chain_to_trusted(signer_certificate, &carried, trusted)?;
    Ok(VerifiedSignature {
        signer_certificate_der: signer_certificate.to_der().map_err(|e| malformed(e.to_string()))?,
        trusted_certificate_der,
    })
}

fn malformed(why: impl Into<String>) -> PdfSignatureError {
    PdfSignatureError::MalformedSignature(why.into())
}

/// The four numbers of the last `/ByteRange [a b c d]` (the signature the service writes is the
/// file's only one, in its last object).
fn byte_range(pdf: &[u8]) -> Result<[usize; 4], PdfSignatureError> {
    let key = b"/ByteRange";
    let at = pdf.windows(key.len()).rposition(|window| window == key).ok_or(PdfSignatureError::NoSignature)?;
    let rest = pdf.get(at + key.len()..).unwrap_or_default();
    let open = rest.iter().position(|&b| b == b'[').ok_or(PdfSignatureError::MalformedByteRange("no '['"))?;
    let close = rest.iter().position(|&b| b == b']').ok_or(PdfSignatureError::MalformedByteRange("no ']'"))?;
    let inside = rest.get(open + 1..close).ok_or(PdfSignatureError::MalformedByteRange("']' before '['"))?;
    let numbers: Vec<usize> = std::str::from_utf8(inside)
        .map_err(|_| PdfSignatureError::MalformedByteRange("not ASCII"))?
        .split_ascii_whitespace()
        .map(str::parse)
        .collect::<Result<_, _>>()
        .map_err(|_| PdfSignatureError::MalformedByteRange("not four non-negative integers"))?;
    numbers.try_into().map_err(|_| PdfSignatureError::MalformedByteRange("not four non-negative integers"))
}

/// The SignedData in the hex string of `/Contents`, whose zero padding after the DER is ignored.
fn signed_data(hex: &[u8]) -> Result<SignedData, PdfSignatureError> {
    let digits: Vec<u8> = hex.iter().copied().filter(|b| !b.is_ascii_whitespace()).collect();
    let bytes = hex::decode(&digits).map_err(|e| malformed(format!("/Contents is not hex: {e}")))?;
    let mut reader = SliceReader::new(&bytes).map_err(|e| malformed(e.to_string()))?;
    let content_info = ContentInfo::decode(&mut reader).map_err(|e| malformed(e.to_string()))?;
    let end = usize::try_from(reader.position()).map_err(|e| malformed(e.to_string()))?;
    if !bytes.get(end..).unwrap_or_default().iter().all(|&b| b == 0) {
        return Err(malformed("bytes after the signature"));
    }
    content_info.content.decode_as::<SignedData>().map_err(|e| malformed(e.to_string()))
}

/// The `messageDigest` signed attribute.
fn message_digest(signer: &SignerInfo) -> Result<Vec<u8>, PdfSignatureError> {
    let attributes = signer.signed_attrs.as_ref().ok_or_else(|| malformed("no signed attributes"))?;
    let attribute = attributes
        .iter()
        .find(|attribute| attribute.oid == ID_MESSAGE_DIGEST)
        .ok_or_else(|| malformed("no messageDigest attribute"))?;
    let [value] = attribute.values.as_slice() else { return Err(malformed("not one messageDigest value")) };
    let digest: OctetString = value.decode_as().map_err(|e| malformed(e.to_string()))?;
    Ok(digest.as_bytes().to_vec())
}

/// The certificate the signer names (issuer and serial number) among those the CMS carries.
fn signer_certificate<'a>(
    signer: &SignerInfo,
    carried: &'a [Certificate],
) -> Result<&'a Certificate, PdfSignatureError> {
    let SignerIdentifier::IssuerAndSerialNumber(id) = &signer.sid else {
        return Err(malformed("the signer is named by key identifier"));
    };
    carried
        .iter()
        .find(|c| c.tbs_certificate.issuer == id.issuer && c.tbs_certificate.serial_number == id.serial_number)
        .ok_or(PdfSignatureError::SignerCertificateMissing)
}

/// Whether `signature` over `message` verifies with the certificate's key (SHA-256 either way).
fn verifies(certificate: &Certificate, message: &[u8], signature: &[u8]) -> Result<bool, PdfSignatureError> {
    let key = &certificate.tbs_certificate.subject_public_key_info;
    let algorithm: &dyn VerificationAlgorithm = match key.algorithm.oid {
        ID_EC_PUBLIC_KEY => &ECDSA_P256_SHA256_ASN1,
        RSA_ENCRYPTION => &RSA_PKCS1_2048_8192_SHA256,
        other => return Err(PdfSignatureError::UnsupportedKey(other.to_string())),
    };
    let public_key = key.subject_public_key.as_bytes().ok_or_else(|| malformed("the public key is not whole bytes"))?;
    Ok(UnparsedPublicKey::new(algorithm, public_key).verify(message, signature).is_ok())
}

/// The trusted certificate the signer's certificate is, or chains up to: each step's issuer (by
/// subject name, among the trusted and the carried certificates) must verify its signature.
fn chain_to_trusted(
    signer: &Certificate,
    carried: &[Certificate],
    trusted: &[Vec<u8>],
) -> Result<Vec<u8>, PdfSignatureError> {
    let trusted: Vec<Certificate> = trusted.iter().filter_map(|der| Certificate::from_der(der).ok()).collect();
    let mut current = signer.clone();
    for _ in 0..MAX_CHAIN {
        if let Some(found) = trusted.iter().find(|t| **t == current) {
            return found.to_der().map_err(|e| malformed(e.to_string()));
        }
        let tbs = current.tbs_certificate.to_der().map_err(|e| malformed(e.to_string()))?;
        let signature = current.signature.as_bytes().unwrap_or_default();
        let issuer = trusted
            .iter()
            .chain(carried)
            .filter(|candidate| candidate.tbs_certificate.subject == current.tbs_certificate.issuer)
            .find(|candidate| verifies(candidate, &tbs, signature).unwrap_or(false));
        match issuer {
            // A self-signed certificate that is not trusted ends the search.
            Some(issuer) if *issuer != current => current = issuer.clone(),
            _ => break,
        }
    }
    Err(PdfSignatureError::UntrustedSigner)
}
