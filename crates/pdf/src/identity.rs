//! The key and certificate chain that sign every PDF the service produces.
//!
//! One identity per installation: a private key (ECDSA P-256 or RSA), its X.509 certificate and,
//! for a certificate bought from a certificate authority, the chain up to the CA's root. The
//! service either generates an ECDSA P-256 key with a self-signed certificate, or takes what an
//! operator brings ([`SigningIdentity::from_pem`], [`SigningIdentity::from_pkcs12`]). The server
//! keeps it as DER blobs (PKCS#8 private key, certificate, chain) and publishes the certificate and
//! chain, as PEM, at `GET /public-client/v1/signing-certificate` so that anyone can validate a
//! certificate PDF.

use std::fmt;
use std::sync::Arc;

use der::asn1::{AnyRef, ObjectIdentifier};
use der::{Decode, Encode, EncodePem};
use p256::ecdsa::signature::Signer;
use p256::ecdsa::{Signature, SigningKey};
use p256::pkcs8::{DecodePrivateKey, EncodePrivateKey};
use ring::rand::{SecureRandom, SystemRandom};
use ring::signature::{ECDSA_P256_SHA256_ASN1_SIGNING, EcdsaKeyPair, KeyPair as _, RSA_PKCS1_SHA256, RsaKeyPair};
use time::{Duration, OffsetDateTime};
use x509_cert::Certificate;
use x509_cert::name::Name;
use x509_cert::spki::AlgorithmIdentifierOwned;

/// How long a generated certificate is valid: long, because the certificates it signed must stay
/// checkable for as long as anyone may need the evidence.
const VALIDITY_YEARS: i64 = 30;

const ID_EC_PUBLIC_KEY: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10045.2.1");
const SECP256R1: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10045.3.1.7");
const RSA_ENCRYPTION: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.1");
const ECDSA_WITH_SHA256: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10045.4.3.2");
const SHA256_WITH_RSA_ENCRYPTION: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.11");
const COMMON_NAME: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.5.4.3");

/// What the service can sign with, as error messages name it.
const SUPPORTED_KEYS: &str = "ECDSA P-256 or RSA (2048 to 8192 bits)";

/// The signing key, its X.509 certificate and the certificates that issued it.
#[derive(Clone)]
pub struct SigningIdentity {
    private_key_pkcs8: Vec<u8>,
    certificate_der: Vec<u8>,
    chain_der: Vec<Vec<u8>>,
    key: Arc<PrivateKey>,
    certificate: Arc<Certificate>,
    chain: Arc<Vec<Certificate>>,
    fingerprint: [u8; 32],
}

/// The key types the service signs with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyAlgorithm {
    /// ECDSA on the P-256 curve with SHA-256, deterministic (RFC 6979).
    EcdsaP256,
    /// RSA PKCS#1 v1.5 with SHA-256 (deterministic by construction).
    Rsa { bits: usize },
}

impl fmt::Display for KeyAlgorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeyAlgorithm::EcdsaP256 => f.write_str("ECDSA P-256"),
            KeyAlgorithm::Rsa { bits } => write!(f, "RSA {bits}"),
        }
    }
}

enum PrivateKey {
    EcdsaP256(SigningKey),
    Rsa(RsaKeyPair),
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IdentityError {
    #[error("the private key could not be read: {0}")]
    PrivateKey(String),
    #[error("the private key is {found}; the service signs with {SUPPORTED_KEYS} keys")]
    UnsupportedKey { found: String },
    #[error("the certificate is not a DER X.509 certificate: {0}")]
    Certificate(String),
    #[error("the certificate is not for the private key")]
    KeyMismatch,
    #[error("the certificate expired at {not_after}; a PDF signed with it would not validate")]
    Expired { not_after: OffsetDateTime },
    #[error("the certificate is not valid before {not_before}")]
    NotYetValid { not_before: OffsetDateTime },
    #[error("the certificate chain does not link: {0}")]
    Chain(String),
    #[error("the PEM text could not be read: {0}")]
    Pem(String),
    #[error("the PKCS#12 file could not be read (is the password right?): {0}")]
    Pkcs12(String),
    #[error("the signing certificate could not be generated: {0}")]
    Generate(String),
    #[error("signing failed")]
    Sign,
}

impl SigningIdentity {
    /// A new ECDSA P-256 key and a self-signed certificate for it, valid from an hour ago for 30
    /// years, with the key usages digital signature and non-repudiation (content commitment).
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

    /// An identity as stored: the PKCS#8 DER private key and the DER certificate, without a chain
    /// (see [`Self::with_chain`]). Fails unless the key is an ECDSA P-256 or RSA key, the
    /// certificate is for it and the certificate is valid now.
    pub fn from_der(private_key_pkcs8: &[u8], certificate_der: &[u8]) -> Result<Self, IdentityError> {
        let key = PrivateKey::from_pkcs8(private_key_pkcs8)?;
        let certificate =
            Certificate::from_der(certificate_der).map_err(|e| IdentityError::Certificate(e.to_string()))?;
        key.check_matches(&certificate)?;
        check_valid_now(&certificate)?;
        let digest = ring::digest::digest(&ring::digest::SHA256, certificate_der);
        let mut fingerprint = [0_u8; 32];
        fingerprint.copy_from_slice(digest.as_ref());
        Ok(Self {
            private_key_pkcs8: private_key_pkcs8.to_vec(),
            certificate_der: certificate_der.to_vec(),
            chain_der: Vec::new(),
            key: Arc::new(key),
            certificate: Arc::new(certificate),
            chain: Arc::new(Vec::new()),
            fingerprint,
        })
    }

    /// The same identity with the certificates that issued its certificate, DER each, in order:
    /// the certificate's issuer first, up to (and preferably including) the root. Each must be the
    /// issuer of the one before. They go into every signature, so that a validator who trusts the
    /// root can build the path. An empty chain is allowed (a self-signed certificate).
    pub fn with_chain(self, chain_der: Vec<Vec<u8>>) -> Result<Self, IdentityError> {
        let chain = chain_der
            .iter()
            .enumerate()
            .map(|(index, der)| {
                Certificate::from_der(der)
                    .map_err(|e| IdentityError::Chain(format!("certificate {} of the chain: {e}", index + 1)))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut child = self.certificate.as_ref();
        for (index, issuer) in chain.iter().enumerate() {
            if child.tbs_certificate.issuer != issuer.tbs_certificate.subject {
                return Err(IdentityError::Chain(format!(
                    "certificate {} of the chain ({}) is not the issuer ({}) of the certificate before it",
                    index + 1,
                    issuer.tbs_certificate.subject,
                    child.tbs_certificate.issuer
                )));
            }
            child = issuer;
        }
        Ok(Self { chain_der, chain: Arc::new(chain), ..self })
    }

    /// An identity from the PEM files an operator brings: the private key (`PRIVATE KEY`, PKCS#8;
    /// `EC PRIVATE KEY`, SEC1; or `RSA PRIVATE KEY`, PKCS#1; not encrypted), the certificate and,
    /// optionally, the chain. When the certificate file holds several certificates (a "full
    /// chain" file), the first is the identity's and the others are its chain, before `chain_pem`'s.
    pub fn from_pem(key_pem: &str, certificate_pem: &str, chain_pem: Option<&str>) -> Result<Self, IdentityError> {
        let key = private_key_from_pem(key_pem)?;
        let mut certificates = certificates_from_pem(certificate_pem)?.into_iter();
        let leaf = certificates.next().ok_or_else(|| IdentityError::Pem("no CERTIFICATE in the certificate".into()))?;
        let mut chain: Vec<Vec<u8>> = certificates.collect();
        if let Some(chain_pem) = chain_pem {
            chain.extend(certificates_from_pem(chain_pem)?);
        }
        Self::from_der(&key, &leaf)?.with_chain(chain)
    }

    /// An identity from a PKCS#12 file (`.p12`, `.pfx`), as `openssl pkcs12 -export` writes it
    /// (AES-256 and PBKDF2, or the legacy 3DES): its private key, its certificate and the chain
    /// certificates the file holds.
    pub fn from_pkcs12(bytes: &[u8], password: &str) -> Result<Self, IdentityError> {
        let store = p12_keystore::KeyStore::from_pkcs12(bytes, password, p12_keystore::Pkcs12ImportPolicy::Strict)
            .map_err(|e| IdentityError::Pkcs12(e.to_string()))?;
        let (_, entry) = store
            .private_key_chain()
            .ok_or_else(|| IdentityError::Pkcs12("it holds no private key with its certificate".to_owned()))?;
        let mut certificates = entry.certs().iter().map(|c| c.as_der().to_vec());
        let leaf = certificates
            .next()
            .ok_or_else(|| IdentityError::Pkcs12("it holds no certificate for the private key".to_owned()))?;
        Self::from_der(entry.key().as_der(), &leaf)?.with_chain(certificates.collect())
    }

    /// The private key, PKCS#8 DER: secret, to be stored as such.
    pub fn private_key_pkcs8_der(&self) -> &[u8] {
        &self.private_key_pkcs8
    }

    /// The certificate, DER.
    pub fn certificate_der(&self) -> &[u8] {
        &self.certificate_der
    }

    /// The chain certificates (issuer first), DER each; empty for a self-signed certificate.
    pub fn chain_der(&self) -> &[Vec<u8>] {
        &self.chain_der
    }

    /// The certificate, PEM (`-----BEGIN CERTIFICATE-----`).
    pub fn certificate_pem(&self) -> String {
        pem(&self.certificate)
    }

    /// The certificate and then its chain, PEM, as published for validators.
    pub fn chain_pem(&self) -> String {
        std::iter::once(self.certificate.as_ref()).chain(self.chain.iter()).map(pem).collect()
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
        common_name_of(&self.certificate.tbs_certificate.subject)
    }

    /// The common name of the certificate's issuer (the CA, or the certificate itself if self-signed).
    pub fn issuer_common_name(&self) -> Option<String> {
        common_name_of(&self.certificate.tbs_certificate.issuer)
    }

    /// When the certificate starts being valid.
    pub fn not_before(&self) -> OffsetDateTime {
        OffsetDateTime::from(self.certificate.tbs_certificate.validity.not_before.to_system_time())
    }

    /// When the certificate stops being valid: no PDF can be signed with it afterwards.
    pub fn not_after(&self) -> OffsetDateTime {
        OffsetDateTime::from(self.certificate.tbs_certificate.validity.not_after.to_system_time())
    }

    /// The key's type (and size, for RSA).
    pub fn key_algorithm(&self) -> KeyAlgorithm {
        match self.key.as_ref() {
            PrivateKey::EcdsaP256(_) => KeyAlgorithm::EcdsaP256,
            PrivateKey::Rsa(pair) => KeyAlgorithm::Rsa { bits: pair.public().modulus_len() * 8 },
        }
    }

    pub(crate) fn certificate(&self) -> &Certificate {
        &self.certificate
    }

    pub(crate) fn chain(&self) -> &[Certificate] {
        &self.chain
    }

    /// The CMS signature algorithm: ecdsa-with-SHA256 (no parameters, RFC 5758) or
    /// sha256WithRSAEncryption (NULL parameters, RFC 4055).
    pub(crate) fn signature_algorithm(&self) -> AlgorithmIdentifierOwned {
        match self.key.as_ref() {
            PrivateKey::EcdsaP256(_) => AlgorithmIdentifierOwned { oid: ECDSA_WITH_SHA256, parameters: None },
            PrivateKey::Rsa(_) => {
                AlgorithmIdentifierOwned { oid: SHA256_WITH_RSA_ENCRYPTION, parameters: Some(der::asn1::Null.into()) }
            }
        }
    }

    /// The most bytes a signature takes: 72 for a DER ECDSA P-256 signature, the modulus for RSA.
    pub(crate) fn max_signature_len(&self) -> usize {
        match self.key.as_ref() {
            PrivateKey::EcdsaP256(_) => 72,
            PrivateKey::Rsa(pair) => pair.public().modulus_len(),
        }
    }

    /// A SHA-256 signature over `message`, deterministic for both key types (RFC 6979 ECDSA, DER
    /// `Ecdsa-Sig-Value`; RSA PKCS#1 v1.5): the same message always gives the same signature, so a
    /// document rendered again from the same evidence is byte for byte the same file.
    pub(crate) fn sign(&self, message: &[u8]) -> Result<Vec<u8>, IdentityError> {
        match self.key.as_ref() {
            PrivateKey::EcdsaP256(key) => {
                let signature: Signature = key.try_sign(message).map_err(|_| IdentityError::Sign)?;
                Ok(signature.to_der().as_bytes().to_vec())
            }
            PrivateKey::Rsa(pair) => {
                let mut signature = vec![0; pair.public().modulus_len()];
                // PKCS#1 v1.5 padding uses no randomness; ring asks for a source all the same.
                pair.sign(&RSA_PKCS1_SHA256, &SystemRandom::new(), message, &mut signature)
                    .map_err(|_| IdentityError::Sign)?;
                Ok(signature)
            }
        }
    }
}

impl PrivateKey {
    fn from_pkcs8(der: &[u8]) -> Result<Self, IdentityError> {
        let info = p256::pkcs8::PrivateKeyInfo::from_der(der)
            .map_err(|e| IdentityError::PrivateKey(format!("PKCS#8: {e}")))?;
        let algorithm = info.algorithm.oid;
        if algorithm == ID_EC_PUBLIC_KEY {
            let curve = info.algorithm.parameters.and_then(|p| p.decode_as::<ObjectIdentifier>().ok());
            if curve != Some(SECP256R1) {
                let found = curve.map_or_else(|| "an EC key".to_owned(), |c| format!("an EC key on curve {c}"));
                return Err(IdentityError::UnsupportedKey { found });
            }
            SigningKey::from_pkcs8_der(der)
                .map(PrivateKey::EcdsaP256)
                .map_err(|e| IdentityError::PrivateKey(e.to_string()))
        } else if algorithm == RSA_ENCRYPTION {
            RsaKeyPair::from_pkcs8(der).map(PrivateKey::Rsa).map_err(|e| IdentityError::UnsupportedKey {
                found: format!("an RSA key ring refuses ({e}: too small, too large or malformed)"),
            })
        } else {
            Err(IdentityError::UnsupportedKey { found: format!("of type {algorithm}") })
        }
    }

    /// The certificate's public key must be this key's.
    fn check_matches(&self, certificate: &Certificate) -> Result<(), IdentityError> {
        let spki = &certificate.tbs_certificate.subject_public_key_info;
        let certified = spki.subject_public_key.as_bytes();
        let (expected_algorithm, public_key) = match self {
            PrivateKey::EcdsaP256(key) => {
                let curve = spki.algorithm.parameters.as_ref().and_then(|p| p.decode_as::<ObjectIdentifier>().ok());
                if curve != Some(SECP256R1) {
                    return Err(IdentityError::KeyMismatch);
                }
                (ID_EC_PUBLIC_KEY, key.verifying_key().to_encoded_point(false).as_bytes().to_vec())
            }
            PrivateKey::Rsa(pair) => (RSA_ENCRYPTION, pair.public_key().as_ref().to_vec()),
        };
        if spki.algorithm.oid != expected_algorithm || certified != Some(public_key.as_slice()) {
            return Err(IdentityError::KeyMismatch);
        }
        Ok(())
    }
}

fn check_valid_now(certificate: &Certificate) -> Result<(), IdentityError> {
    let validity = &certificate.tbs_certificate.validity;
    let now = OffsetDateTime::now_utc();
    let not_before = OffsetDateTime::from(validity.not_before.to_system_time());
    let not_after = OffsetDateTime::from(validity.not_after.to_system_time());
    if now < not_before {
        return Err(IdentityError::NotYetValid { not_before });
    }
    if now > not_after {
        return Err(IdentityError::Expired { not_after });
    }
    Ok(())
}

/// A DER certificate as PEM (`-----BEGIN CERTIFICATE-----`), after checking it is one.
pub fn certificate_pem_from_der(der: &[u8]) -> Result<String, IdentityError> {
    let certificate = Certificate::from_der(der).map_err(|e| IdentityError::Certificate(e.to_string()))?;
    Ok(pem(&certificate))
}

fn pem(certificate: &Certificate) -> String {
    // The DER was decoded when the identity was made, so encoding it again cannot fail.
    certificate.to_pem(der::pem::LineEnding::LF).unwrap_or_default()
}

fn common_name_of(name: &Name) -> Option<String> {
    name.0.iter().flat_map(|rdn| rdn.0.iter()).find_map(|atv| {
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

/// The PEM blocks of `text`: (label, DER).
fn pem_blocks(text: &str) -> Result<Vec<(String, Vec<u8>)>, IdentityError> {
    const BEGIN: &str = "-----BEGIN ";
    let mut blocks = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find(BEGIN) {
        let block = rest.get(start..).unwrap_or_default();
        let end_marker = block.find("-----END ").ok_or_else(|| IdentityError::Pem("a block has no END line".into()))?;
        let after_end = block
            .get(end_marker + 5..)
            .and_then(|tail| tail.find("-----").map(|i| end_marker + 5 + i + 5))
            .ok_or_else(|| IdentityError::Pem("a block's END line is cut off".into()))?;
        let (label, der) = der::pem::decode_vec(block.get(..after_end).unwrap_or_default().as_bytes())
            .map_err(|e| IdentityError::Pem(e.to_string()))?;
        blocks.push((label.to_owned(), der));
        rest = block.get(after_end..).unwrap_or_default();
    }
    Ok(blocks)
}

/// The DER of each `CERTIFICATE` block of a PEM text, in order (none for a text without one).
pub fn certificates_from_pem(text: &str) -> Result<Vec<Vec<u8>>, IdentityError> {
    Ok(pem_blocks(text)?.into_iter().filter(|(label, _)| label == "CERTIFICATE").map(|(_, der)| der).collect())
}

/// The private key of a PEM key file as PKCS#8 DER.
fn private_key_from_pem(text: &str) -> Result<Vec<u8>, IdentityError> {
    for (label, der) in pem_blocks(text)? {
        match label.as_str() {
            "PRIVATE KEY" => return Ok(der),
            "EC PRIVATE KEY" => {
                let key = p256::SecretKey::from_sec1_der(&der).map_err(|_| IdentityError::UnsupportedKey {
                    found: "an EC key that is not on the P-256 curve".to_owned(),
                })?;
                let pkcs8 = key.to_pkcs8_der().map_err(|e| IdentityError::PrivateKey(e.to_string()))?;
                return Ok(pkcs8.as_bytes().to_vec());
            }
            "RSA PRIVATE KEY" => return rsa_pkcs1_to_pkcs8(&der),
            "ENCRYPTED PRIVATE KEY" => {
                return Err(IdentityError::PrivateKey(
                    "it is encrypted; decrypt it (openssl pkcs8 -in key.pem -out plain.pem) or bring a PKCS#12 file"
                        .to_owned(),
                ));
            }
            // `openssl ecparam -genkey` writes the curve's parameters before the key.
            _ => {}
        }
    }
    Err(IdentityError::Pem("no PRIVATE KEY, EC PRIVATE KEY or RSA PRIVATE KEY block".to_owned()))
}

/// Wraps a PKCS#1 `RSAPrivateKey` in a PKCS#8 `PrivateKeyInfo` (rsaEncryption, NULL parameters).
fn rsa_pkcs1_to_pkcs8(pkcs1: &[u8]) -> Result<Vec<u8>, IdentityError> {
    let info = p256::pkcs8::PrivateKeyInfo {
        algorithm: p256::pkcs8::AlgorithmIdentifierRef { oid: RSA_ENCRYPTION, parameters: Some(AnyRef::NULL) },
        private_key: pkcs1,
        public_key: None,
    };
    info.to_der().map_err(|e| IdentityError::PrivateKey(e.to_string()))
}

impl fmt::Debug for SigningIdentity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SigningIdentity")
            .field("certificate_sha256", &self.fingerprint_hex())
            .field("key", &self.key_algorithm())
            .field("chain_len", &self.chain_der.len())
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

    /// A P-256 key and a self-signed certificate for it, valid from `not_before` to `not_after`.
    fn certificate_valid(not_before: OffsetDateTime, not_after: OffsetDateTime) -> (Vec<u8>, Vec<u8>) {
        let rng = SystemRandom::new();
        let pkcs8 = EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_ASN1_SIGNING, &rng).unwrap();
        let key = rcgen::KeyPair::try_from(pkcs8.as_ref()).unwrap();
        let mut params = rcgen::CertificateParams::new(vec![]).unwrap();
        params.not_before = not_before;
        params.not_after = not_after;
        (pkcs8.as_ref().to_vec(), params.self_signed(&key).unwrap().der().to_vec())
    }

    #[test]
    fn certificates_outside_their_validity_are_refused() {
        let now = OffsetDateTime::now_utc();
        let (key, expired) = certificate_valid(now - Duration::days(30), now - Duration::days(1));
        let error = SigningIdentity::from_der(&key, &expired).unwrap_err();
        assert!(matches!(error, IdentityError::Expired { .. }), "{error}");
        assert!(error.to_string().starts_with("the certificate expired at "), "{error}");
        let (key, future) = certificate_valid(now + Duration::days(1), now + Duration::days(30));
        assert!(matches!(SigningIdentity::from_der(&key, &future), Err(IdentityError::NotYetValid { .. })));
    }

    #[test]
    fn unsupported_keys_are_refused_naming_what_is_supported() {
        let ed25519 = ring::signature::Ed25519KeyPair::generate_pkcs8(&SystemRandom::new()).unwrap();
        let certificate = SigningIdentity::generate("any").unwrap();
        let error = SigningIdentity::from_der(ed25519.as_ref(), certificate.certificate_der()).unwrap_err();
        assert!(matches!(error, IdentityError::UnsupportedKey { .. }), "{error}");
        assert!(error.to_string().contains("ECDSA P-256 or RSA"), "{error}");
        let p384 = EcdsaKeyPair::generate_pkcs8(&ring::signature::ECDSA_P384_SHA384_ASN1_SIGNING, &SystemRandom::new())
            .unwrap();
        let error = SigningIdentity::from_der(p384.as_ref(), certificate.certificate_der()).unwrap_err();
        assert!(matches!(error, IdentityError::UnsupportedKey { .. }), "{error}");
    }

    #[test]
    fn a_chain_that_does_not_link_is_refused() {
        let identity = SigningIdentity::generate("leaf").unwrap();
        let stranger = SigningIdentity::generate("stranger").unwrap();
        let error = identity.clone().with_chain(vec![stranger.certificate_der().to_vec()]).unwrap_err();
        assert!(matches!(error, IdentityError::Chain(_)), "{error}");
        assert!(matches!(identity.with_chain(vec![b"junk".to_vec()]), Err(IdentityError::Chain(_))));
    }

    fn hex_of(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }
}
