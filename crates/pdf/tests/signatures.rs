//! The signed PDFs judged by independent validators: pyHanko, Poppler's pdfsig and qpdf.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::print_stderr, clippy::indexing_slicing)]

mod common;

use clickwrap_domain::ports::CertificateRenderer;
use clickwrap_pdf::{FontLibrary, PdfRenderer, SigningIdentity};
use common::*;

fn certificate_pdf() -> Vec<u8> {
    certificate(renderer(), &english_facts())
}

#[test]
fn pyhanko_finds_the_certificate_intact_and_trusted() {
    if !available("pyhanko", "pyHanko signature validation") {
        return;
    }
    let path = write("certificate-pyhanko.pdf", &certificate_pdf());
    let out = pyhanko_validate(&path);
    assert_eq!(out.status, 0, "pyHanko rejected the certificate:\n{}", out.text);
    assert!(out.text.contains("INTACT"), "{}", out.text);
    assert!(out.text.contains("TRUSTED"), "{}", out.text);
    assert!(!out.text.contains("UNTRUSTED"), "{}", out.text);
}

#[test]
fn pdfsig_finds_the_signature_valid() {
    if !available("pdfsig", "Poppler signature validation") {
        return;
    }
    let path = write("certificate-pdfsig.pdf", &certificate_pdf());
    let out = pdfsig(&path);
    assert!(out.text.contains("Signature is Valid."), "{}", out.text);
    assert!(out.text.contains("Total document signed"), "{}", out.text);
    assert!(out.text.contains("ETSI.CAdES.detached"), "{}", out.text);
    assert!(out.text.contains("Signing Hash Algorithm: SHA-256"), "{}", out.text);
}

#[test]
fn the_same_evidence_renders_to_the_same_bytes() {
    // The agreement is rendered again for every download: it must be the same file each time,
    // signature included (deterministic ECDSA), and differ when any fact differs.
    let facts = english_facts();
    let first = renderer().render_agreement(&facts).unwrap();
    assert_eq!(renderer().render_agreement(&facts).unwrap(), first, "the agreement is byte for byte the same");
    let again = SigningIdentity::from_der(
        renderer().identity().private_key_pkcs8_der(),
        renderer().identity().certificate_der(),
    )
    .unwrap();
    let restarted = PdfRenderer::new(again, FontLibrary::from_env(), SIGNING_CERTIFICATE_URL);
    assert_eq!(restarted.render_agreement(&facts).unwrap(), first, "a restarted server renders the same file");
    assert_eq!(certificate(renderer(), &facts), certificate(renderer(), &facts), "so is the certificate");
    let mut renamed = facts.clone();
    renamed.app_name = "Acme Shop (renamed)".into();
    assert_ne!(renderer().render_agreement(&renamed).unwrap(), first, "the names are part of it");
}

#[test]
fn the_agreement_is_signed_too() {
    let facts = english_facts();
    let pdf = renderer().render_agreement(&facts).unwrap();
    let path = write("agreement-signed.pdf", &pdf);
    if available("pdfsig", "Poppler signature validation") {
        let out = pdfsig(&path);
        assert!(out.text.contains("Signature is Valid."), "{}", out.text);
        assert!(out.text.contains("Total document signed"), "{}", out.text);
    }
    if available("pyhanko", "pyHanko signature validation") {
        let out = pyhanko_validate(&path);
        assert_eq!(out.status, 0, "{}", out.text);
        assert!(out.text.contains("INTACT") && out.text.contains("TRUSTED"), "{}", out.text);
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> usize {
    haystack.windows(needle.len()).position(|window| window == needle).expect("the bytes are in the file")
}

/// The offsets of the signed byte ranges, read back from the file.
fn byte_range(pdf: &[u8]) -> [usize; 4] {
    let at = find(pdf, b"/ByteRange[") + "/ByteRange[".len();
    let end = at + pdf[at..].iter().position(|&b| b == b']').unwrap();
    let text = std::str::from_utf8(&pdf[at..end]).unwrap();
    let numbers: Vec<usize> = text.split_whitespace().map(|n| n.parse().unwrap()).collect();
    [numbers[0], numbers[1], numbers[2], numbers[3]]
}

#[test]
fn the_byte_range_covers_the_whole_file_but_the_signature() {
    let pdf = certificate_pdf();
    let [start, first_len, second_start, second_len] = byte_range(&pdf);
    assert_eq!(start, 0);
    assert_eq!(second_start + second_len, pdf.len());
    assert_eq!(pdf[first_len], b'<');
    assert_eq!(pdf[second_start - 1], b'>');
    let hex = &pdf[first_len + 1..second_start - 1];
    assert!(hex.iter().all(u8::is_ascii_hexdigit));
    // DER SEQUENCE first: the CMS is there, zero-padded.
    assert!(hex.starts_with(b"30"));
}

#[test]
fn any_changed_byte_in_the_signed_range_fails_both_validators() {
    let pdf = certificate_pdf();
    let [_, first_len, second_start, _] = byte_range(&pdf);
    // A byte before the signature (the font program's length, in a stream's dictionary: the other
    // dictionaries are compressed) and one after it (the signature's reason), each changed so
    // that the file still parses.
    let in_first = find(&pdf, b"/Length1 ") + "/Length1 ".len();
    assert!(in_first < first_len);
    let in_second = find(&pdf, b"/Reason(Certificate") + "/Reason(".len();
    assert!(in_second > second_start);
    for (name, at) in [("first", in_first), ("second", in_second)] {
        let mut tampered = pdf.clone();
        // Another byte than the one there (a length may well start with a 4).
        tampered[at] = match tampered[at] {
            b'4' => b'5',
            digit if digit.is_ascii_digit() => b'4',
            b'X' => b'Y',
            _ => b'X',
        };
        let path = write(&format!("certificate-tampered-{name}.pdf"), &tampered);
        if available("pdfsig", "Poppler signature validation") {
            let out = pdfsig(&path);
            assert!(
                !out.text.contains("Signature is Valid."),
                "pdfsig accepted a change in the {name} range:\n{}",
                out.text
            );
            assert!(out.text.contains("Digest Mismatch") || out.text.contains("Invalid"), "{}", out.text);
        }
        if available("pyhanko", "pyHanko signature validation") {
            let out = pyhanko_validate(&path);
            assert!(
                out.status != 0 || !out.text.contains("INTACT"),
                "pyHanko accepted a change in the {name} range:\n{}",
                out.text
            );
        }
    }
}

#[test]
fn a_validator_that_does_not_trust_the_certificate_says_so() {
    if !available("pyhanko", "pyHanko signature validation") {
        return;
    }
    let path = write("certificate-other-trust.pdf", &certificate_pdf());
    let other = clickwrap_pdf::SigningIdentity::generate("someone else").unwrap();
    let pem = write("other-certificate.pem", other.certificate_pem().as_bytes());
    let out = run(
        "pyhanko",
        &[
            "sign",
            "validate",
            "--no-revocation-check",
            "--trust",
            pem.to_str().unwrap(),
            "--trust-replace",
            path.to_str().unwrap(),
        ],
    );
    assert!(out.status != 0 || out.text.contains("UNTRUSTED"), "{}", out.text);
}

#[test]
fn qpdf_finds_the_files_well_formed() {
    if !available("qpdf", "qpdf structure check") {
        return;
    }
    for (name, pdf) in [
        ("certificate-qpdf.pdf", certificate_pdf()),
        ("agreement-qpdf.pdf", renderer().render_agreement(&english_facts()).unwrap()),
    ] {
        let path = write(name, &pdf);
        let out = run("qpdf", &["--check", path.to_str().unwrap()]);
        assert_eq!(out.status, 0, "qpdf --check failed for {name}:\n{}", out.text);
        assert!(out.text.contains("No syntax or stream encoding errors found"), "{}", out.text);
    }
}
