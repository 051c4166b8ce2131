//! The key and certificate that sign every PDF the service produces.
//!
//! One identity per installation: an ECDSA P-256 key and a self-signed X.509 certificate for it,
//! kept by the server as two DER blobs (PKCS#8 private key, certificate) and published, as PEM, at
//! `GET /public-client/v1/signing-certificate` so that anyone can validate a certificate PDF.

use std::fmt;
use std::sync::Arc;

use der::{Decode, EncodePem};
use p256::ecdsa::signature::Signer;
use p256::ecdsa::{Signature, SigningKey};
use p256::pkcs8::DecodePrivateKey;
use ring::rand::{SecureRandom, SystemRandom};
use ring::signature::{ECDSA_P256_SHA256_ASN1_SIGNING, EcdsaKeyPair};
use time::{Duration, OffsetDateTime};
use x509_cert::Certificate;

/// How long a generated certificate is valid: long, because the certificates it signed must stay
/// checkable for as long as anyone may need the evidence.
const VALIDITY_YEARS: i64 = 30;

/// `id-ecPublicKey` and the `prime256v1` curve: the only key type accepted.
const ID_EC_PUBLIC_KEY: der::asn1::ObjectIdentifier = der::asn1::ObjectIdentifier::new_unwrap("1.2.840.10045.2.1");
const SECP256R1: der::asn1::ObjectIdentifier = der::asn1::ObjectIdentifier::new_unwrap("1.2.840.10045.3.1.7");
const COMMON_NAME: der::asn1::ObjectIdentifier = der::asn1::ObjectIdentifier::new_unwrap("2.5.4.3");

/// The signing key (ECDSA P-256) and its X.509 certificate.
#[derive(Clone)]
pub struct SigningIdentity {
    private_key_pkcs8: Vec<u8>,
    certificate_der: Vec<u8>,
    key: Arc<SigningKey>,
    certificate: Arc<Certificate>,
    fingerprint: [u8; 32],
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IdentityError {
    #[error("the private key is not an ECDSA P-256 key in PKCS#8 DER: {0}")]
    PrivateKey(String),
    #[error("the certificate is not a DER X.509 certificate: {0}")]
    Certificate(String),
    #[error("the certificate is not for the private key")]
    KeyMismatch,
    #[error("the signing certificate could not be generated: {0}")]
    Generate(String),
    #[error("signing failed")]
    Sign,
}

impl SigningIdentity {
    /// A new key and a self-signed certificate for it, valid from an hour ago for 30 years, with
    /// the key usages digital signature and non-repudiation (content commitment).
    pub fn generate(common_name: &str) -> Result<Self, IdentityError> {
        let rng = SystemRandom::new();
        let pkcs8 = EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_ASN1_SIGNING, &rng)
            .map_err(|_| IdentityError::Generate("no key could be generated".to_owned()))?;
        let key = rcgen::KeyPair::try_from(pkcs8.as_ref()).map_err(|e| IdentityError::Generate(e.to_string()))?;

        let mut serial = [0_u8; 16];
        rng.fill(&mut serial).map_err(|_| IdentityError::Generate("no random serial number".to_owned()))?;
        // Positive and without a leading zero byte, as RFC 5280 asks.
        if let Some(first) = serial.first_mut() {
            *first = (*first & 0x7f) | 0x40;
        }

        let now = OffsetDateTime::now_utc().replace_nanosecond(0).unwrap_or_else(|_| OffsetDateTime::now_utc());
        let mut params = rcgen::CertificateParams::default();
        params.distinguished_name = rcgen::DistinguishedName::new();
        params.distinguished_name.push(rcgen::DnType::CommonName, common_name);
        params.not_before = now - Duration::hours(1);
        params.not_after = now + Duration::days(365 * VALIDITY_YEARS + VALIDITY_YEARS / 4);
        params.serial_number = Some(rcgen::SerialNumber::from_slice(&serial));
        params.key_usages = vec![rcgen::KeyUsagePurpose::DigitalSignature, rcgen::KeyUsagePurpose::ContentCommitment];
        params.is_ca = rcgen::IsCa::NoCa;
        let certificate = params.self_signed(&key).map_err(|e| IdentityError::Generate(e.to_string()))?;

        Self::from_der(pkcs8.as_ref(), certificate.der())
    }

    /// An identity as stored: the PKCS#8 DER private key and the DER certificate. Fails unless the
    /// key is an ECDSA P-256 key and the certificate is for it.
    pub fn from_der(private_key_pkcs8: &[u8], certificate_der: &[u8]) -> Result<Self, IdentityError> {
        let key =
            SigningKey::from_pkcs8_der(private_key_pkcs8).map_err(|e| IdentityError::PrivateKey(e.to_string()))?;
        let certificate =
            Certificate::from_der(certificate_der).map_err(|e| IdentityError::Certificate(e.to_string()))?;
        let spki = &certificate.tbs_certificate.subject_public_key_info;
        let curve = spki.algorithm.parameters.as_ref().and_then(|p| p.decode_as::<der::asn1::ObjectIdentifier>().ok());
        if spki.algorithm.oid != ID_EC_PUBLIC_KEY || curve != Some(SECP256R1) {
            return Err(IdentityError::Certificate("its key is not an ECDSA P-256 key".to_owned()));
        }
        let public_key = key.verifying_key().to_encoded_point(false);
        if spki.subject_public_key.as_bytes() != Some(public_key.as_bytes()) {
            return Err(IdentityError::KeyMismatch);
        }
        let digest = ring::digest::digest(&ring::digest::SHA256, certificate_der);
        let mut fingerprint = [0_u8; 32];
        fingerprint.copy_from_slice(digest.as_ref());
        Ok(Self {
            private_key_pkcs8: private_key_pkcs8.to_vec(),
            certificate_der: certificate_der.to_vec(),
            key: Arc::new(key),
            certificate: Arc::new(certificate),
            fingerprint,
        })
    }

    /// The private key, PKCS#8 DER: secret, to be stored as such.
    pub fn private_key_pkcs8_der(&self) -> &[u8] {
        &self.private_key_pkcs8
    }

    /// The certificate, DER.
    pub fn certificate_der(&self) -> &[u8] {
        &self.certificate_der
    }

    /// The certificate, PEM (`-----BEGIN CERTIFICATE-----`), as published for validators.
    pub fn certificate_pem(&self) -> String {
        // The DER was decoded when the identity was made, so encoding it again cannot fail.
        self.certificate.to_pem(der::pem::LineEnding::LF).unwrap_or_default()
    }

    /// The fingerprint as validators print it: `AB:CD:…`, 32 uppercase hex pairs.
    pub fn fingerprint_hex(&self) -> String {
        let mut text = String::with_capacity(95);
        for (index, byte) in self.fingerprint.iter().enumerate() {
            if index > 0 {
                text.push(':');
            }
            text.push_str(&format!("{byte:02X}"));
        }
        text
    }

    /// The certificate's subject common name, if it has one.
    pub fn common_name(&self) -> Option<String> {
        self.certificate.tbs_certificate.subject.0.iter().flat_map(|rdn| rdn.0.iter()).find_map(|atv| {
            if atv.oid == COMMON_NAME {
                der::asn1::Utf8StringRef::try_from(&atv.value)
                    .map(|s| s.as_str().to_owned())
                    .or_else(|_| der::asn1::PrintableStringRef::try_from(&atv.value).map(|s| s.as_str().to_owned()))
                    .ok()
            } else {
                None
            }
        })
    }

    pub(crate) fn certificate(&self) -> &Certificate {
        &self.certificate
    }

    /// ECDSA P-256 with SHA-256 over `message`, DER-encoded (`Ecdsa-Sig-Value`). Deterministic
    /// (RFC 6979): the same message always gives the same signature, so a document rendered
    /// again from the same evidence is byte for byte the same file.
    pub(crate) fn sign(&self, message: &[u8]) -> Result<Vec<u8>, IdentityError> {
        let signature: Signature = self.key.try_sign(message).map_err(|_| IdentityError::Sign)?;
        Ok(signature.to_der().as_bytes().to_vec())
    }
}

impl fmt::Debug for SigningIdentity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SigningIdentity")
            .field("certificate_sha256", &self.fingerprint_hex())
            .field("private_key", &"<redacted>")
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_identity_round_trips_through_der() {
        let identity = SigningIdentity::generate("Clickwrap test signer").unwrap();
        let again = SigningIdentity::from_der(identity.private_key_pkcs8_der(), identity.certificate_der()).unwrap();
        assert_eq!(again.fingerprint_hex(), identity.fingerprint_hex());
        assert_eq!(identity.common_name().as_deref(), Some("Clickwrap test signer"));
        assert!(identity.certificate_pem().starts_with("-----BEGIN CERTIFICATE-----\n"));
        assert_eq!(identity.fingerprint_hex().len(), 95);
        assert!(!format!("{identity:?}").contains(&hex_of(identity.private_key_pkcs8_der())));
    }

    #[test]
    fn a_key_that_is_not_the_certificates_is_refused() {
        let one = SigningIdentity::generate("one").unwrap();
        let other = SigningIdentity::generate("other").unwrap();
        assert_eq!(
            SigningIdentity::from_der(one.private_key_pkcs8_der(), other.certificate_der()).unwrap_err(),
            IdentityError::KeyMismatch
        );
        assert!(matches!(
            SigningIdentity::from_der(b"not a key", one.certificate_der()),
            Err(IdentityError::PrivateKey(_))
        ));
        assert!(matches!(
            SigningIdentity::from_der(one.private_key_pkcs8_der(), b"not a certificate"),
            Err(IdentityError::Certificate(_))
        ));
    }

    #[test]
    fn signatures_verify_with_the_certificate_key() {
        let identity = SigningIdentity::generate("signer").unwrap();
        let signature = identity.sign(b"message").unwrap();
        // Checked with ring, independently of the signing code, against the certificate's key.
        let public = identity.certificate().tbs_certificate.subject_public_key_info.subject_public_key.raw_bytes();
        ring::signature::UnparsedPublicKey::new(&ring::signature::ECDSA_P256_SHA256_ASN1, public)
            .verify(b"message", &signature)
            .unwrap();
        assert_eq!(der::Encode::to_der(identity.certificate()).unwrap(), identity.certificate_der());
    }

    #[test]
    fn signatures_are_deterministic() {
        let identity = SigningIdentity::generate("signer").unwrap();
        assert_eq!(identity.sign(b"message").unwrap(), identity.sign(b"message").unwrap());
        assert_ne!(identity.sign(b"message").unwrap(), identity.sign(b"other message").unwrap());
    }

    fn hex_of(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }
}
