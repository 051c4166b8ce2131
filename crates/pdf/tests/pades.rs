//! PAdES baseline signatures with a CA-issued certificate chain (ECDSA P-256 and RSA), keys as
//! operators bring them (PEM, PKCS#12 made by OpenSSL), and RFC 3161 timestamps from a local
//! `openssl ts` authority: judged by pyHanko (trusting only the CA's root), pdfsig and OpenSSL.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::print_stderr, clippy::indexing_slicing)]

mod common;

use std::path::Path;
use std::sync::{Arc, OnceLock};

use clickwrap_domain::ports::CertificateRenderer;
use clickwrap_pdf::{FontLibrary, IdentityError, KeyAlgorithm, PdfRenderer, SigningIdentity};
use common::pki::{DownTsa, GarbageTsa, LargeTokenTsa, OpensslTsa, PKCS12_PASSWORD, Pki, path_str};
use common::*;

/// The PKI of this test binary, made once; `None` (and the test passes loudly) without openssl.
fn pki() -> Option<&'static Pki> {
    static PKI: OnceLock<Option<Pki>> = OnceLock::new();
    PKI.get_or_init(|| available("openssl", "certificate chains and timestamps").then(Pki::new)).as_ref()
}

fn ca_identity(pki: &Pki) -> SigningIdentity {
    SigningIdentity::from_pem(&pki.read("leaf.key"), &pki.read("leaf.pem"), Some(&pki.read("chain.pem"))).unwrap()
}

fn renderer_for(identity: SigningIdentity) -> PdfRenderer {
    PdfRenderer::new(identity, FontLibrary::from_env(), SIGNING_CERTIFICATE_URL)
}

/// `pyhanko sign validate --pretty-print` trusting only `root` (the OS store is not consulted).
fn pyhanko_pretty(pdf: &Path, root: &Path) -> Output {
    run(
        "pyhanko",
        &[
            "sign",
            "validate",
            "--no-revocation-check",
            "--pretty-print",
            "--trust",
            path_str(root),
            "--trust-replace",
            path_str(pdf),
        ],
    )
}

/// The one-line summary: `<field>:<sha256>:INTACT:TRUSTED,UNTOUCHED[,TIMESTAMP_TOKEN<…>]`.
fn pyhanko_summary(pdf: &Path, root: &Path) -> Output {
    run(
        "pyhanko",
        &["sign", "validate", "--no-revocation-check", "--trust", path_str(root), "--trust-replace", path_str(pdf)],
    )
}

/// pyHanko's AdES validation (ETSI EN 319 102-1) of the signature, trusting only `root`: basic for
/// a signature without a timestamp (B-B), with time for one with a signature timestamp (B-T).
fn pyhanko_ades(pdf: &Path, root: &Path) -> Output {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/ades_level.py");
    run("python3", &[script, path_str(pdf), path_str(root)])
}

/// The CMS of the signature as OpenSSL prints it (`openssl cms -cmsout -print`).
fn openssl_cms_print(pdf: &[u8], name: &str) -> String {
    let at = pdf.windows(10).rposition(|w| w == b"/Contents<").unwrap() + 10;
    let end = at + pdf[at..].iter().position(|&b| b == b'>').unwrap();
    let hex = std::str::from_utf8(&pdf[at..end]).unwrap();
    let der: Vec<u8> =
        (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap()).collect::<Vec<_>>();
    // The DER is zero-padded to the reserved length: cut it at the end of the outer SEQUENCE.
    let len = match der[1] {
        0x82 => 4 + ((usize::from(der[2]) << 8) | usize::from(der[3])),
        0x83 => 5 + ((usize::from(der[2]) << 16) | (usize::from(der[3]) << 8) | usize::from(der[4])),
        short => 2 + usize::from(short),
    };
    let path = write(name, &der[..len]);
    let out = run("openssl", &["cms", "-cmsout", "-print", "-inform", "DER", "-in", path_str(&path)]);
    assert_eq!(out.status, 0, "{}", out.text);
    out.text
}

#[test]
fn a_ca_issued_certificate_signs_pades_b_b_that_pyhanko_trusts_through_the_root_alone() {
    let Some(pki) = pki() else { return };
    let identity = ca_identity(pki);
    assert_eq!(identity.chain_der().len(), 2, "intermediate and root");
    assert_eq!(identity.key_algorithm(), KeyAlgorithm::EcdsaP256);
    assert_eq!(identity.common_name().as_deref(), Some("Acme Consent Signing"));
    assert_eq!(identity.issuer_common_name().as_deref(), Some("Test Intermediate CA"));
    assert!(identity.not_before() < identity.not_after());
    let published = identity.chain_pem();
    assert_eq!(published.matches("-----BEGIN CERTIFICATE-----").count(), 3, "leaf, intermediate, root");
    assert!(published.starts_with(&identity.certificate_pem()), "the leaf first");

    let pdf = certificate(&renderer_for(identity.clone()), &english_facts());
    let path = write("pades-b-b-chain.pdf", &pdf);

    // The CMS as an independent parser sees it: PAdES attributes, and the whole chain.
    if available("openssl", "CMS structure") {
        let cms = openssl_cms_print(&pdf, "pades-b-b-chain.cms");
        assert!(cms.contains("id-smime-aa-signingCertificateV2"), "{cms}");
        assert!(!cms.contains("signingTime"), "PAdES forbids the signingTime attribute:\n{cms}");
        assert!(!cms.contains("id-smime-aa-timeStampToken"), "no TSA, no timestamp:\n{cms}");
        for name in ["CN=Acme Consent Signing", "CN=Test Intermediate CA"] {
            assert!(cms.contains(&format!("subject: {name}")), "{name} is not in the CMS certificates:\n{cms}");
        }
        // The self-signed root is the validator's trust anchor: carrying it would only add bytes.
        assert!(!cms.contains("subject: O=Clickwrap tests, CN=Test Root CA"), "the root is carried:\n{cms}");
    }
    if available("pdfsig", "Poppler signature validation") {
        let out = pdfsig(&path);
        assert!(out.text.contains("Signature is Valid."), "{}", out.text);
        assert!(out.text.contains("Signature Type: ETSI.CAdES.detached"), "{}", out.text);
        assert!(out.text.contains("Total document signed"), "{}", out.text);
    }
    if available("pyhanko", "pyHanko signature validation") {
        let root = pki.path("root.pem");
        let out = pyhanko_pretty(&path, &root);
        assert_eq!(out.status, 0, "pyHanko rejected the signature:\n{}", out.text);
        assert!(
            out.text.contains("Trust anchor: \"Common Name: Test Root CA, Organization: Clickwrap tests\""),
            "{}",
            out.text
        );
        assert!(out.text.contains("The signer's certificate is trusted."), "{}", out.text);
        assert!(out.text.contains("The signature is cryptographically sound."), "{}", out.text);
        assert!(out.text.contains("The signature mechanism used was 'sha256_ecdsa'."), "{}", out.text);
        // Without a timestamp the time is the one the signer states (`/M`): B-B.
        assert!(out.text.contains("Signing time as reported by signer: 2026-03-04T10:15:43+00:00"), "{}", out.text);
        assert!(!out.text.contains("timestamp token"), "{}", out.text);
        assert!(out.text.contains("The signature is judged VALID."), "{}", out.text);
        let summary = pyhanko_summary(&path, &root);
        assert!(summary.text.contains(":INTACT:TRUSTED,UNTOUCHED"), "{}", summary.text);
        // The ETSI validation: a PAdES signature (B-B: no signature timestamp) that passes.
        let ades = pyhanko_ades(&path, &root);
        assert_eq!(ades.status, 0, "{}", ades.text);
        for line in ["subfilter /ETSI.CAdES.detached", "timestamp no", "indication AdESPassed.OK"] {
            assert!(ades.text.contains(line), "{line}:\n{}", ades.text);
        }

        // Trusting the published certificate itself works too (what `chain_pem` starts with) …
        let leaf_only = write("pades-leaf-only.pem", identity.certificate_pem().as_bytes());
        let out = pyhanko_summary(&path, &leaf_only);
        assert!(out.status == 0 && out.text.contains(":INTACT:TRUSTED,UNTOUCHED"), "{}", out.text);
        // … but an unrelated root is no path at all.
        let stranger = SigningIdentity::generate("Some other root").unwrap();
        let stranger = write("pades-stranger.pem", stranger.certificate_pem().as_bytes());
        let out = pyhanko_summary(&path, &stranger);
        assert!(out.status != 0 && out.text.contains(":INTACT:UNTRUSTED"), "{}", out.text);
    }
}

#[test]
fn an_rsa_certificate_from_an_openssl_pkcs12_file_signs_what_pyhanko_trusts() {
    let Some(pki) = pki() else { return };
    let identity = SigningIdentity::from_pkcs12(&pki.bytes("rsa-leaf.p12"), PKCS12_PASSWORD).unwrap();
    assert_eq!(identity.key_algorithm(), KeyAlgorithm::Rsa { bits: 2048 });
    assert_eq!(identity.chain_der().len(), 2);
    let renderer = renderer_for(identity);
    let pdf = certificate(&renderer, &english_facts());
    assert_eq!(pdf, certificate(&renderer, &english_facts()), "RSA PKCS#1 v1.5 signatures are deterministic too");
    let path = write("pades-rsa.pdf", &pdf);
    if available("openssl", "CMS structure") {
        let cms = openssl_cms_print(&pdf, "pades-rsa.cms");
        assert!(cms.contains("sha256WithRSAEncryption"), "{cms}");
    }
    if available("pdfsig", "Poppler signature validation") {
        let out = pdfsig(&path);
        assert!(out.text.contains("Signature is Valid."), "{}", out.text);
    }
    if available("pyhanko", "pyHanko signature validation") {
        let out = pyhanko_pretty(&path, &pki.path("root.pem"));
        assert_eq!(out.status, 0, "{}", out.text);
        assert!(out.text.contains("The signature mechanism used was 'sha256_rsa'."), "{}", out.text);
        assert!(out.text.contains("The signer's certificate is trusted."), "{}", out.text);
        assert!(out.text.contains("The signature is judged VALID."), "{}", out.text);
    }
}

#[test]
fn keys_and_certificates_are_read_in_the_forms_openssl_writes() {
    let Some(pki) = pki() else { return };
    let from_pem = ca_identity(pki);
    // PKCS#12: OpenSSL 3's default (AES-256-CBC, PBKDF2, SHA-256 MAC) and `-legacy` (3DES/RC2, SHA-1 MAC).
    for file in ["leaf.p12", "leaf-legacy.p12"] {
        let identity = SigningIdentity::from_pkcs12(&pki.bytes(file), PKCS12_PASSWORD).unwrap();
        assert_eq!(identity.fingerprint_hex(), from_pem.fingerprint_hex(), "{file}");
        assert_eq!(identity.chain_der(), from_pem.chain_der(), "{file}: the chain, issuer first");
    }
    assert!(matches!(
        SigningIdentity::from_pkcs12(&pki.bytes("leaf.p12"), "wrong password"),
        Err(IdentityError::Pkcs12(_))
    ));
    // SEC1 `EC PRIVATE KEY` and PKCS#1 `RSA PRIVATE KEY`, and a full-chain certificate file.
    let sec1 = SigningIdentity::from_pem(&pki.read("leaf-sec1.key"), &pki.read("leaf.pem"), None).unwrap();
    assert_eq!(sec1.fingerprint_hex(), from_pem.fingerprint_hex());
    let full_chain = format!("{}{}", pki.read("rsa-leaf.pem"), pki.read("chain.pem"));
    let pkcs1 = SigningIdentity::from_pem(&pki.read("rsa-leaf-pkcs1.key"), &full_chain, None).unwrap();
    assert_eq!(pkcs1.chain_der().len(), 2);
    // Stored and loaded again as the server does: PKCS#8, certificate, chain.
    let again = SigningIdentity::from_der(pkcs1.private_key_pkcs8_der(), pkcs1.certificate_der())
        .and_then(|identity| identity.with_chain(pkcs1.chain_der().to_vec()))
        .unwrap();
    assert_eq!(again.chain_pem(), pkcs1.chain_pem());

    // Refused: a key that is not the certificate's, a chain in the wrong order.
    assert_eq!(
        SigningIdentity::from_pem(&pki.read("rsa-leaf.key"), &pki.read("leaf.pem"), None).unwrap_err(),
        IdentityError::KeyMismatch
    );
    let reversed = format!("{}{}", pki.read("root.pem"), pki.read("intermediate.pem"));
    let error = SigningIdentity::from_pem(&pki.read("leaf.key"), &pki.read("leaf.pem"), Some(&reversed)).unwrap_err();
    assert!(matches!(error, IdentityError::Chain(_)), "{error}");
}

#[test]
fn a_timestamped_certificate_is_pades_b_t_and_pyhanko_trusts_the_timestamp() {
    let Some(pki) = pki() else { return };
    let renderer = renderer_for(ca_identity(pki)).with_timestamp_authority(Arc::new(OpensslTsa(pki)));
    let facts = english_facts();
    let pdf = certificate(&renderer, &facts);
    assert_eq!((renderer.timestamp_counts().stamped(), renderer.timestamp_counts().failed()), (1, 0));
    let path = write("pades-b-t.pdf", &pdf);
    if available("openssl", "CMS structure") {
        let cms = openssl_cms_print(&pdf, "pades-b-t.cms");
        assert!(cms.contains("id-smime-aa-timeStampToken"), "{cms}");
    }
    if available("pdfsig", "Poppler signature validation") {
        let out = pdfsig(&path);
        assert!(out.text.contains("Signature is Valid."), "{}", out.text);
    }
    if available("pyhanko", "pyHanko signature validation") {
        let root = pki.path("root.pem");
        let out = pyhanko_pretty(&path, &root);
        assert_eq!(out.status, 0, "{}", out.text);
        assert!(out.text.contains("Signature timestamp token: "), "{}", out.text);
        assert!(out.text.contains("This timestamp is backed by a time stamping authority."), "{}", out.text);
        assert!(out.text.contains("The timestamp token is cryptographically sound."), "{}", out.text);
        assert!(
            out.text.contains("TSA certificate subject: \"Common Name: Test Time-Stamping Authority\""),
            "{}",
            out.text
        );
        assert!(out.text.contains("The TSA certificate is trusted."), "{}", out.text);
        assert!(out.text.contains("The signature is judged VALID."), "{}", out.text);
        let summary = pyhanko_summary(&path, &root);
        assert!(summary.text.contains(":INTACT:TRUSTED,TIMESTAMP_TOKEN<INTACT:TRUSTED>,UNTOUCHED"), "{}", summary.text);
        // The ETSI validation with time: PAdES B-T, the timestamp proving when it was signed.
        let ades = pyhanko_ades(&path, &root);
        assert_eq!(ades.status, 0, "{}", ades.text);
        for line in
            ["subfilter /ETSI.CAdES.detached", "timestamp yes", "indication AdESPassed.OK", "best_signature_time 20"]
        {
            assert!(ades.text.contains(line), "{line}:\n{}", ades.text);
        }
    }
    // The agreement is rendered for every download and must stay the same file: never timestamped.
    let agreement = renderer.render_agreement(&facts).unwrap();
    assert_eq!(renderer.render_agreement(&facts).unwrap(), agreement);
    assert_eq!(renderer.timestamp_counts().stamped(), 1);
}

#[test]
fn when_the_timestamp_authority_fails_the_certificate_is_still_signed_b_b_and_the_failure_counted() {
    let Some(pki) = pki() else { return };
    let down = renderer_for(ca_identity(pki)).with_timestamp_authority(Arc::new(DownTsa));
    let garbage = renderer_for(ca_identity(pki)).with_timestamp_authority(Arc::new(GarbageTsa));
    for (name, renderer) in [("down", &down), ("garbage", &garbage)] {
        let pdf = certificate(renderer, &english_facts());
        assert_eq!((renderer.timestamp_counts().stamped(), renderer.timestamp_counts().failed()), (0, 1), "{name}");
        let path = write(&format!("pades-tsa-{name}.pdf"), &pdf);
        if available("pdfsig", "Poppler signature validation") {
            let out = pdfsig(&path);
            assert!(out.text.contains("Signature is Valid."), "{name}: {}", out.text);
        }
        if available("pyhanko", "pyHanko signature validation") {
            let out = pyhanko_summary(&path, &pki.path("root.pem"));
            assert_eq!(out.status, 0, "{name}: {}", out.text);
            assert!(out.text.contains(":INTACT:TRUSTED,UNTOUCHED"), "{name}: {}", out.text);
            assert!(!out.text.contains("TIMESTAMP_TOKEN"), "{name}: {}", out.text);
        }
    }
}

#[test]
fn a_token_larger_than_the_room_reserved_is_stamped_again_with_room_for_it() {
    let Some(pki) = pki() else { return };
    let authority = Arc::new(LargeTokenTsa(pki, std::sync::atomic::AtomicU64::new(0)));
    let renderer = renderer_for(ca_identity(pki)).with_timestamp_authority(authority.clone());
    let answers = || authority.1.load(std::sync::atomic::Ordering::Relaxed);
    // The first certificate reserves room for a small token: its signature is made and stamped
    // again with room for this authority's tokens; the next one reserves that room at once.
    let first = certificate(&renderer, &english_facts());
    assert_eq!(answers(), 2);
    let second = certificate(&renderer, &english_facts());
    assert_eq!(answers(), 3);
    assert_eq!((renderer.timestamp_counts().stamped(), renderer.timestamp_counts().failed()), (2, 0));
    for (name, pdf) in [("first", &first), ("second", &second)] {
        let path = write(&format!("pades-large-token-{name}.pdf"), pdf);
        if available("pdfsig", "Poppler signature validation") {
            let out = pdfsig(&path);
            assert!(out.text.contains("Signature is Valid."), "{name}: {}", out.text);
        }
        if available("pyhanko", "pyHanko signature validation") {
            let summary = pyhanko_summary(&path, &pki.path("root.pem"));
            assert!(
                summary.text.contains(":INTACT:TRUSTED,TIMESTAMP_TOKEN<INTACT:TRUSTED>,UNTOUCHED"),
                "{name}: {}",
                summary.text
            );
        }
    }
}
