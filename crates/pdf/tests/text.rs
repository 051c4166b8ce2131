//! The text is real text: Poppler's pdftotext gets back the event id and the agreement's words in
//! every launch language, and pdffonts finds every font embedded as a subset with a ToUnicode map.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::print_stderr, clippy::indexing_slicing)]

mod common;

use clickwrap_domain::Language;
use clickwrap_domain::ports::CertificateRenderer;
use clickwrap_pdf::{FontLibrary, PdfRenderer, SigningIdentity};
use common::*;

/// (language, template name, content, strings that must come back out).
fn samples() -> Vec<(Language, &'static str, &'static str, Vec<&'static str>)> {
    vec![
        (
            Language::English,
            "Terms of Service",
            "<h1>Terms of Service</h1><p>By creating an account you agree to these <strong>terms</strong>.</p>\
             <ul><li>You must be 16 or older.</li><li>Keep your password secret.</li></ul>\
             <p>Questions? Read our <a href=\"https://example.com/privacy\" target=\"_blank\">privacy policy</a>.</p>",
            vec![
                "By creating an account you agree to these terms.",
                "You must be 16 or older.",
                "privacy policy (https://example.com/privacy)",
            ],
        ),
        (
            Language::German,
            "Nutzungsbedingungen",
            "<h1>Nutzungsbedingungen</h1><p>Mit der Registrierung stimmen Sie diesen Bedingungen zu: Größe, \
             Übermäßig, Straße.</p>",
            vec!["Mit der Registrierung stimmen Sie diesen Bedingungen zu: Größe, Übermäßig, Straße."],
        ),
        (
            Language::French,
            "Conditions d’utilisation",
            "<h1>Conditions d’utilisation</h1><p>En créant un compte, vous acceptez ces conditions. Où êtes-vous ? \
             Ça marche à l’école.</p>",
            vec!["En créant un compte, vous acceptez ces conditions.", "Ça marche à l’école."],
        ),
        (
            Language::Spanish,
            "Términos del servicio",
            "<h1>Términos del servicio</h1><p>Al crear una cuenta, usted acepta estos términos. ¿Está de acuerdo? \
             ¡Sí, mañana!</p>",
            vec!["Al crear una cuenta, usted acepta estos términos.", "¿Está de acuerdo? ¡Sí, mañana!"],
        ),
        (
            Language::Russian,
            "Условия использования",
            "<h1>Условия использования</h1><p>Создавая учётную запись, вы соглашаетесь с этими условиями.</p>\
             <ol><li>Вам должно быть не менее 16 лет.</li><li>Храните пароль в тайне.</li></ol>",
            vec![
                "Условия использования",
                "Создавая учётную запись, вы соглашаетесь с этими условиями.",
                "Вам должно быть не менее 16 лет.",
                "Храните пароль в тайне.",
            ],
        ),
        (
            Language::Hindi,
            "सेवा की शर्तें",
            "<h1>सेवा की शर्तें</h1><p>खाता बनाकर आप इन शर्तों से सहमत होते हैं।</p>\
             <ul><li>आपकी आयु कम से कम सोलह वर्ष होनी चाहिए।</li><li>अपना पासवर्ड गोपनीय रखें।</li></ul>\
             <p>क्षत्रिय, द्वितीय, श्री, हिन्दी, प्रतिष्ठित, कृपया।</p>",
            vec![
                "सेवा की शर्तें",
                "खाता बनाकर आप इन शर्तों से सहमत होते हैं।",
                "आपकी आयु कम से कम सोलह वर्ष होनी चाहिए।",
                "अपना पासवर्ड गोपनीय रखें।",
                "क्षत्रिय, द्वितीय, श्री, हिन्दी, प्रतिष्ठित, कृपया।",
            ],
        ),
        (
            Language::Chinese,
            "服务条款",
            "<h1>服务条款</h1><p>创建账户即表示您同意这些条款。请妥善保管您的密码。</p><ul><li>您必须年满十六岁。</li></ul>",
            vec!["服务条款", "创建账户即表示您同意这些条款。请妥善保管您的密码。", "您必须年满十六岁。"],
        ),
    ]
}

fn fonts_installed() -> bool {
    let covered = renderer().fonts().covers_all_languages();
    assert!(
        covered || !required(),
        "fonts are missing but CLICKWRAP_REQUIRE_VALIDATORS is set: {:?}",
        renderer().fonts().describe()
    );
    if !covered {
        loud(&format!(
            "*** SKIPPED: fonts for Latin, Devanagari and Chinese are not all installed (fonts-noto-core, \
             fonts-noto-cjk); CI installs them (.ci/run). Found: {:?} ***",
            renderer().fonts().describe()
        ));
    }
    covered
}

#[test]
fn the_certificate_text_can_be_extracted() {
    if !available("pdftotext", "text extraction") {
        return;
    }
    let facts = english_facts();
    let path = write("certificate-text.pdf", &certificate(renderer(), &facts));
    let text = pdftotext(&path);
    for expected in [
        "Certificate of Acceptance",
        &facts.event.id.to_string(),
        &facts.event.template_id.to_string(),
        "Terms of Service",
        "user-4711@example.com",
        "ACCEPTED",
        "2026-03-04T10:15:42.125Z",
        "2026-03-04T10:15:00.250Z",
        "2026-01-01T00:00:00.000Z",
        "3.1",
        "203.0.113.7",
        "Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0",
        "SDK",
        "web/1.2.0",
        "1920 × 1080 (pixel ratio 2)",
        "Europe/Berlin",
        "de-DE, en",
        "Acme Shop",
        "Operator",
        "Acme Shop Holdings Ltd.",
        "End user name",
        "Ada Lovelace",
        "plan (custom)",
        "Pro 100%",
        "Checked by the service",
        "Reported by the end user's device (not checked by the service)",
        "“I agree”",
        "“I have read the terms”",
        "CHECKBOX, as the template requires: a box to tick before accepting",
        "DIALOG",
    ] {
        assert!(text.contains(expected), "{expected:?} is not in the extracted text:\n{text}");
    }
    assert!(!text.contains('{'), "no raw JSON on the certificate:\n{text}");
    // The content hash is one unbroken line; the fingerprint two, broken after a colon.
    assert!(text.lines().any(|line| line.trim().ends_with(facts.event.content_hash.as_str())), "{text}");
    let fingerprint = renderer().identity().fingerprint_hex();
    let (first, second) = fingerprint.split_at(48);
    assert!(text.lines().any(|line| line.trim().ends_with(first)), "{text}");
    assert!(text.lines().any(|line| line.trim() == second), "{text}");
    // Values that may be broken across lines.
    let squeezed = squeeze(&text);
    assert!(squeezed.contains("https://consent.example.com/public-client/v1/signing-certificate"), "{text}");
}

#[test]
fn agreements_in_every_launch_language_extract_to_their_words() {
    if !available("pdftotext", "text extraction") || !fonts_installed() {
        return;
    }
    for (language, name, content, expected) in samples() {
        let facts = facts(event(language, name, content));
        let pdf = renderer().render_agreement(&facts).unwrap();
        let path = write(&format!("agreement-{}.pdf", language.code()), &pdf);
        let text = pdftotext(&path);
        let squeezed = squeeze(&text);
        for words in expected {
            // Lines break where the layout puts them; the words and their order must survive.
            assert!(
                squeezed.contains(&squeeze(words)),
                "{}: {words:?} is not in the extracted text:\n{text}",
                language.code()
            );
        }
        assert!(text.contains(&facts.event.id.to_string()), "{}: no event id in\n{text}", language.code());
        // And the certificate appended after the content names the template in its language.
        assert!(squeezed.contains(&squeeze(name)), "{}", language.code());
    }
}

#[test]
fn russian_hindi_and_chinese_lines_come_back_exactly() {
    if !available("pdftotext", "text extraction") || !fonts_installed() {
        return;
    }
    // Short enough to stay on one line each, so the extracted lines must equal the originals.
    let lines = [
        (Language::Russian, "Я согласен с условиями использования."),
        (Language::Hindi, "मैं उपयोग की शर्तों से सहमत हूँ।"),
        (Language::Hindi, "क्षत्रिय द्वितीय श्री हिन्दी प्रतिष्ठित कृपया"),
        (Language::Chinese, "我同意使用条款。"),
    ];
    for (language, line) in lines {
        let content = format!("<p>{line}</p>");
        let pdf = renderer().render_agreement(&facts(event(language, "Terms", &content))).unwrap();
        let path = write(&format!("line-{}.pdf", language.code()), &pdf);
        let text = pdftotext(&path);
        assert!(text.lines().any(|extracted| extracted.trim() == line), "{line:?} not extracted as a line:\n{text}");
    }
}

#[test]
fn fonts_are_embedded_subsets_with_unicode_maps() {
    if !available("pdffonts", "font embedding check") || !fonts_installed() {
        return;
    }
    for (language, name, content, _) in samples() {
        let pdf = renderer().render_agreement(&facts(event(language, name, content))).unwrap();
        let path = write(&format!("fonts-{}.pdf", language.code()), &pdf);
        let out = run("pdffonts", &[path.to_str().unwrap()]);
        assert_eq!(out.status, 0, "{}", out.text);
        let rows: Vec<&str> = out.text.lines().skip(2).filter(|l| !l.trim().is_empty()).collect();
        assert!(!rows.is_empty(), "{}", out.text);
        for row in rows {
            let columns: Vec<&str> = row.split_whitespace().collect();
            // name, type (two or three words), encoding, emb, sub, uni, object, generation
            let n = columns.len();
            assert_eq!(&columns[n - 5..n - 2], ["yes", "yes", "yes"], "{}: {row}", language.code());
            // A subset of up to 256 TrueType glyphs is a simple font, its text one byte a glyph;
            // a larger one, or CFF outlines, a CID font with two.
            // (Poppler names no /Encoding "WinAnsi"; the symbolic font's own cmap is what it uses.)
            let simple = columns.get(1..3) == Some(&["TrueType", "WinAnsi"][..]);
            let cid = row.contains("Identity-H") && (row.contains("CID TrueType") || row.contains("CID Type 0C"));
            assert!(simple || cid, "{}: {row}", language.code());
        }
        let expected = match language {
            Language::Hindi => "Devanagari",
            Language::Chinese => "CJK",
            _ => "NotoSans",
        };
        assert!(out.text.contains(expected), "{}: {}", language.code(), out.text);
    }
}

#[test]
fn without_any_font_files_the_builtin_font_still_makes_a_valid_document() {
    let identity = SigningIdentity::generate("fallback signer").unwrap();
    let renderer = PdfRenderer::new(identity, FontLibrary::builtin_only(), SIGNING_CERTIFICATE_URL);
    let content = "<h1>Условия</h1><p>Plain Latin text, café, 10 €.</p>";
    let facts = facts(event(Language::Russian, "Условия", content));
    let pdf = renderer.render_agreement(&facts).unwrap();
    let path = write("agreement-builtin.pdf", &pdf);
    if available("pdftotext", "text extraction") {
        let text = pdftotext(&path);
        assert!(text.contains("Plain Latin text, café, 10 €."), "{text}");
        assert!(text.contains(&facts.event.id.to_string()), "{text}");
    }
    if available("pdfsig", "Poppler signature validation") {
        let out = pdfsig(&path);
        assert!(out.text.contains("Signature is Valid."), "{}", out.text);
    }
    if available("qpdf", "qpdf structure check") {
        let out = run("qpdf", &["--check", path.to_str().unwrap()]);
        assert_eq!(out.status, 0, "{}", out.text);
    }
}

#[test]
fn long_agreements_flow_onto_more_pages() {
    let paragraph = "<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut \
        labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris.</p>";
    let mut content = String::from("<h1>Long terms</h1>");
    for n in 0..60 {
        content.push_str(&format!("<h2>Section {n}</h2>"));
        content.push_str(paragraph);
    }
    content.push_str("<p>THE LAST PARAGRAPH.</p>");
    let facts = facts(event(Language::English, "Long terms", &content));
    let pdf = renderer().render_agreement(&facts).unwrap();
    let path = write("agreement-long.pdf", &pdf);
    if available("pdftotext", "text extraction") {
        let text = pdftotext(&path);
        assert!(text.contains("Section 59"), "{text}");
        assert!(text.contains("THE LAST PARAGRAPH."), "{text}");
        assert!(text.contains("Certificate of Acceptance"), "{text}");
        let pages = text.matches('\u{c}').count();
        assert!(pages >= 5, "{pages} pages");
        assert!(text.contains(&format!("Page {pages} of {pages}")), "{text}");
    }
    if available("pdfsig", "Poppler signature validation") {
        assert!(pdfsig(&path).text.contains("Signature is Valid."));
    }
}

/// The text of a certificate as pdftotext extracts it, white space removed (lines break where the
/// layout puts them) and the signing certificate's fingerprint, which differs from run to run,
/// replaced by a mark.
fn extracted_certificate_text(name: &str, facts: &clickwrap_domain::consent::models::CertificateFacts) -> String {
    let path = write(&format!("certificate-text-{name}.pdf"), &certificate(renderer(), facts));
    let text = squeeze(&pdftotext(&path));
    text.replace(&renderer().identity().fingerprint_hex(), "<fingerprint>")
}

#[test]
fn certificates_in_english_hindi_and_chinese_extract_to_the_expected_text() {
    if !available("pdftotext", "text extraction") || !fonts_installed() {
        return;
    }
    let expected_dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/expected");
    for (name, facts) in [("en", english_facts()), ("hi", hindi_facts()), ("zh", chinese_facts())] {
        let text = extracted_certificate_text(name, &facts);
        let expected_path = expected_dir.join(format!("certificate-{name}.txt"));
        // Set to write the files anew after a deliberate change of the certificate's wording.
        if std::env::var_os("CLICKWRAP_WRITE_EXPECTED_TEXT").is_some() {
            std::fs::create_dir_all(&expected_dir).unwrap();
            std::fs::write(&expected_path, format!("{text}\n")).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap();
        assert_eq!(text, expected.trim_end(), "{name}: the extracted text differs from {}", expected_path.display());
    }
}

#[test]
fn more_than_256_glyphs_of_one_face_are_a_type0_font_beside_one_byte_fonts_and_extract_to_the_same_text() {
    if !available("pdffonts", "font embedding check")
        || !available("pdftotext", "text extraction")
        || !fonts_installed()
    {
        return;
    }
    // Latin with Latin-1 and Latin Extended-A letters, Cyrillic and Greek: more distinct glyphs
    // than one byte can number, all from the regular Latin face. Words of eight letters, so that
    // lines can break between them.
    let letters: String = ('A'..='Z')
        .chain('a'..='z')
        .chain('\u{c0}'..='\u{ff}')
        .chain('\u{100}'..='\u{17f}')
        .chain('\u{410}'..='\u{44f}')
        .chain('\u{391}'..='\u{3a9}')
        .chain('\u{3b1}'..='\u{3c9}')
        .filter(|c| c.is_alphabetic())
        .collect();
    assert!(letters.chars().count() > 300);
    let words: Vec<String> =
        letters.chars().collect::<Vec<_>>().chunks(8).map(|chunk| chunk.iter().collect()).collect();
    let paragraph = words.join(" ");
    // In the same document, a Devanagari subset small enough for one byte a glyph and CJK's CFF
    // outlines, two bytes a glyph: each font keeps its own codes.
    let hindi = "खाता बनाकर आप इन शर्तों से सहमत होते हैं।";
    let chinese = "创建账户即表示您同意这些条款。";
    let content = format!("<p>{paragraph}</p><p>{hindi}</p><p>{chinese}</p>");
    let facts = facts(event(Language::English, "Many letters", &content));
    let pdf = renderer().render_agreement(&facts).unwrap();
    let path = write("agreement-many-glyphs.pdf", &pdf);

    let out = run("pdffonts", &[path.to_str().unwrap()]);
    assert_eq!(out.status, 0, "{}", out.text);
    let regular = out
        .text
        .lines()
        .find(|row| row.contains("NotoSans-Regular"))
        .unwrap_or_else(|| panic!("no regular Latin face:\n{}", out.text));
    assert!(regular.contains("CID TrueType") && regular.contains("Identity-H"), "{}", out.text);
    let row = |face: &str| out.text.lines().find(|row| row.contains(face)).unwrap_or_default().to_owned();
    // A simple TrueType font (Poppler names its missing /Encoding "WinAnsi").
    let devanagari = row("NotoSansDevanagari");
    assert_eq!(devanagari.split_whitespace().nth(1), Some("TrueType"), "{}", out.text);
    assert!(row("CJK").contains("CID Type 0C"), "{}", out.text);

    let text = pdftotext(&path);
    for expected in [paragraph.as_str(), hindi, chinese] {
        assert!(squeeze(&text).contains(&squeeze(expected)), "{expected:?} is not in the extracted text:\n{text}");
    }
    if available("pdfsig", "Poppler signature validation") {
        assert!(pdfsig(&path).text.contains("Signature is Valid."));
    }
    if available("qpdf", "qpdf structure check") {
        let out = run("qpdf", &["--check", path.to_str().unwrap()]);
        assert_eq!(out.status, 0, "{}", out.text);
    }
}
