//! `verify_pdf_signature`, the offline check an evidence bundle's verifier makes of each
//! certificate PDF: what the renderer signs verifies, any changed byte fails with what it broke,
//! and a signer that is neither trusted nor issued by a trusted certificate fails.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::print_stderr, clippy::indexing_slicing)]

mod common;

use clickwrap_pdf::verify::{PdfSignatureError, verify_pdf_signature};
use clickwrap_pdf::{FontLibrary, PdfRenderer, SigningIdentity};
use common::pki::Pki;
use common::*;

fn signed() -> (Vec<u8>, Vec<Vec<u8>>) {
    let pdf = certificate(renderer(), &english_facts());
    (pdf, vec![renderer().identity().certificate_der().to_vec()])
}

/// The offsets of `/Contents<…>`: its `<` and one past its `>`.
fn contents(pdf: &[u8]) -> (usize, usize) {
    let at = pdf.windows(10).rposition(|w| w == b"/ByteRange").unwrap();
    let text = String::from_utf8_lossy(&pdf[at + 10..at + 80]).into_owned();
    let numbers: Vec<usize> =
        text.split(['[', ']']).nth(1).unwrap().split_whitespace().map(|n| n.parse().unwrap()).collect();
    (numbers[1], numbers[2])
}

/// The hex digit of the signature's byte `offset`, flipped.
fn flip_signature_byte(pdf: &[u8], offset: usize) -> Vec<u8> {
    let (start, _) = contents(pdf);
    let mut changed = pdf.to_vec();
    let digit = start + 1 + 2 * offset;
    changed[digit] = if changed[digit] == b'0' { b'1' } else { b'0' };
    changed
}

/// How long the DER of the signature is (the rest of `/Contents` is zero padding).
fn signature_len(pdf: &[u8]) -> usize {
    let (start, end) = contents(pdf);
    let text = std::str::from_utf8(&pdf[start + 1..end - 1]).unwrap();
    text.trim_end_matches('0').len().div_ceil(2)
}

#[test]
fn a_pdf_signed_by_the_renderer_verifies_against_its_certificate() {
    let (pdf, trusted) = signed();
    let verified = verify_pdf_signature(&pdf, &trusted).unwrap();
    assert_eq!(verified.signer_certificate_der, trusted[0]);
    assert_eq!(verified.trusted_certificate_der, trusted[0]);
}

#[test]
fn a_changed_byte_in_the_signed_ranges_is_a_changed_document() {
    let (pdf, trusted) = signed();
    let (start, end) = contents(&pdf);
    for at in [0, start / 2, start - 1, end, end + (pdf.len() - end) / 2] {
        let mut changed = pdf.clone();
        changed[at] ^= 0x01;
        let result = verify_pdf_signature(&changed, &trusted);
        // A byte inside the `/ByteRange` numbers themselves makes it unreadable or incomplete.
        assert!(
            matches!(
                result,
                Err(PdfSignatureError::DigestMismatch
                    | PdfSignatureError::MalformedByteRange(_)
                    | PdfSignatureError::IncompleteByteRange)
            ),
            "byte {at}: {result:?}"
        );
    }
    let mut middle = pdf.clone();
    middle[start / 2] ^= 0x01;
    assert_eq!(verify_pdf_signature(&middle, &trusted), Err(PdfSignatureError::DigestMismatch));
}

#[test]
fn a_changed_byte_in_the_signature_fails() {
    let (pdf, trusted) = signed();
    let len = signature_len(&pdf);
    for offset in (0..len).step_by(37) {
        assert!(verify_pdf_signature(&flip_signature_byte(&pdf, offset), &trusted).is_err(), "signature byte {offset}");
    }
    // The DER ends with the signature value: a changed bit there is a signature that does not verify.
    assert_eq!(
        verify_pdf_signature(&flip_signature_byte(&pdf, len - 2), &trusted),
        Err(PdfSignatureError::SignatureInvalid)
    );
}

#[test]
fn bytes_outside_the_byte_range_or_no_signature_fail() {
    let (pdf, trusted) = signed();
    let mut appended = pdf.clone();
    appended.extend_from_slice(b"\n% appended after signing\n");
    assert_eq!(verify_pdf_signature(&appended, &trusted), Err(PdfSignatureError::IncompleteByteRange));
    assert_eq!(verify_pdf_signature(b"%PDF-1.7 nothing signed", &trusted), Err(PdfSignatureError::NoSignature));
    assert!(matches!(
        verify_pdf_signature(b"/ByteRange [0 x 2 3]", &trusted),
        Err(PdfSignatureError::MalformedByteRange(_))
    ));
    assert_eq!(verify_pdf_signature(b"/ByteRange [0 1 200 3]", &trusted), Err(PdfSignatureError::IncompleteByteRange));
}

#[test]
fn a_signer_that_is_not_trusted_fails() {
    let (pdf, _) = signed();
    let other = SigningIdentity::generate("Someone else").unwrap();
    assert_eq!(
        verify_pdf_signature(&pdf, &[other.certificate_der().to_vec()]),
        Err(PdfSignatureError::UntrustedSigner)
    );
    assert_eq!(verify_pdf_signature(&pdf, &[]), Err(PdfSignatureError::UntrustedSigner));
}

/// ECDSA and RSA leaves issued by an intermediate: trusting the root alone is enough, since the
/// signature carries the chain; trusting an unrelated certificate is not.
#[test]
fn a_ca_issued_signer_verifies_with_only_the_root_trusted() {
    if !available("openssl", "certificate chains") {
        return;
    }
    let pki = Pki::new();
    let root = pem_der(&pki.read("root.pem"));
    for leaf in ["leaf", "rsa-leaf"] {
        let identity = SigningIdentity::from_pem(
            &pki.read(&format!("{leaf}.key")),
            &pki.read(&format!("{leaf}.pem")),
            Some(&pki.read("chain.pem")),
        )
        .unwrap();
        let pdf = certificate(
            &PdfRenderer::new(identity, FontLibrary::from_env(), SIGNING_CERTIFICATE_URL),
            &english_facts(),
        );
        let verified = verify_pdf_signature(&pdf, std::slice::from_ref(&root)).unwrap();
        assert_eq!(verified.trusted_certificate_der, root, "{leaf}");
        let unrelated = SigningIdentity::generate("Unrelated").unwrap().certificate_der().to_vec();
        assert_eq!(verify_pdf_signature(&pdf, &[unrelated]), Err(PdfSignatureError::UntrustedSigner), "{leaf}");
    }
}

fn pem_der(pem: &str) -> Vec<u8> {
    use der::{DecodePem, Encode};
    x509_cert::Certificate::from_pem(pem).unwrap().to_der().unwrap()
}
