//! Fixtures and the outside validators (pyHanko, Poppler's pdfsig, pdftotext and pdffonts, qpdf).
//!
//! A validator that is not installed makes its test pass with a loud note on stderr; CI installs
//! them all (`.ci/run`), so there they really run.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::print_stderr)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use clickwrap_domain::consent::models::CertificateFacts;
use clickwrap_domain::consent::models::{Action, ClickwrapEvent, EventStatus, Presentation, PresentationMode};
use clickwrap_domain::content::hash::ContentHash;
use clickwrap_domain::templates::customizations::AgreementMode;
use clickwrap_domain::templates::versioning::VersionNumber;
use clickwrap_domain::{AppId, EndUserId, EventId, Language, TemplateId, TenantId, Timestamp};
use clickwrap_pdf::{FontLibrary, PdfRenderer, SigningIdentity};

pub(crate) mod pki;

/// Where the certificates say the signing certificate is published (the server hands in its own).
pub(crate) const SIGNING_CERTIFICATE_URL: &str = "https://consent.example.com/public-client/v1/signing-certificate";

/// One renderer for the whole test binary: fonts are loaded once, as in the server.
pub(crate) fn renderer() -> &'static PdfRenderer {
    static RENDERER: OnceLock<PdfRenderer> = OnceLock::new();
    RENDERER.get_or_init(|| {
        let identity = SigningIdentity::generate("Clickwrap test signing certificate").unwrap();
        PdfRenderer::new(identity, FontLibrary::from_env(), SIGNING_CERTIFICATE_URL)
    })
}

pub(crate) fn event(language: Language, template_name: &str, content: &str) -> ClickwrapEvent {
    let at = |text: &str| Timestamp::parse_rfc3339(text).unwrap();
    ClickwrapEvent {
        id: EventId::from_uuid(uuid::Uuid::from_u128(0x0192_7e3b_5c1a_7d2e_9f00_1234_5678_9abc)),
        tenant_id: TenantId::from_uuid(uuid::Uuid::from_u128(1)),
        app_id: AppId::from_uuid(uuid::Uuid::from_u128(2)),
        template_id: TemplateId::from_uuid(uuid::Uuid::from_u128(0x0192_7e3b_0000_7000_8000_0000_0000_0003)),
        template_name: template_name.to_owned(),
        version: VersionNumber::new(3, 1),
        effective_at: at("2026-01-01T00:00:00.000Z"),
        end_user_id: EndUserId::parse("user-4711@example.com").unwrap(),
        action: Action::Accepted,
        status: EventStatus::Accepted,
        language,
        content: content.to_owned(),
        content_hash: ContentHash::of(content),
        template_placeholders: None,
        technical_metadata: r#"{"ipAddress":"203.0.113.7","userAgent":"Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0","client":{"sdk":"web/1.2.0","screen":{"width":1920,"height":1080,"pixelRatio":2},"timezone":"Europe/Berlin","languages":["de-DE","en"],"custom":null}}"#.to_owned(),
        presentation: Presentation {
            mode: PresentationMode::Dialog,
            agreement_mode: AgreementMode::Checkbox,
            accept_label: "I agree".to_owned(),
            checkbox_label: Some("I have read the terms".to_owned()),
            scroll_required: Some(false),
        },
        presented_at: at("2026-03-04T10:15:00.250Z"),
        action_at: at("2026-03-04T10:15:42.125Z"),
        verified_at: Some(at("2026-03-04T10:15:43.000Z")),
    }
}

pub(crate) fn facts(event: ClickwrapEvent) -> CertificateFacts {
    CertificateFacts {
        event,
        app_name: "Acme Shop".to_owned(),
        operator_name: Some("Acme Shop Holdings Ltd.".to_owned()),
    }
}

pub(crate) fn english_facts() -> CertificateFacts {
    let mut event = event(
        Language::English,
        "Terms of Service",
        "<h1>Terms of Service</h1><p>Hello Ada Lovelace, these are the terms.</p>",
    );
    event.template_placeholders =
        Some(r#"{"fullName":"Ada Lovelace","customPlaceholders":{"plan":"Pro 100%"}}"#.to_owned());
    facts(event)
}

/// A Hindi agreement, personalized in Hindi.
pub(crate) fn hindi_facts() -> CertificateFacts {
    let mut event = event(
        Language::Hindi,
        "सेवा की शर्तें",
        "<h1>सेवा की शर्तें</h1><p>नमस्ते अदा लवलेस, खाता बनाकर आप इन शर्तों से सहमत होते हैं।</p>",
    );
    event.template_placeholders =
        Some(r#"{"fullName":"अदा लवलेस","customPlaceholders":{"plan":"प्रो योजना"}}"#.to_owned());
    facts(event)
}

/// A Chinese agreement, personalized in Chinese.
pub(crate) fn chinese_facts() -> CertificateFacts {
    let mut event =
        event(Language::Chinese, "服务条款", "<h1>服务条款</h1><p>李华您好，创建账户即表示您同意这些条款。</p>");
    event.template_placeholders = Some(r#"{"fullName":"李华","customPlaceholders":{"plan":"专业版"}}"#.to_owned());
    facts(event)
}

/// The Certificate of Acceptance, rendered as the server does (async: it may be timestamped).
pub(crate) fn certificate(renderer: &PdfRenderer, facts: &CertificateFacts) -> Vec<u8> {
    use clickwrap_domain::ports::CertificateRenderer as _;
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(renderer.render_certificate(facts)).unwrap()
}

/// A directory for this test binary's files.
pub(crate) fn out_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("clickwrap-pdf");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub(crate) fn write(name: &str, bytes: &[u8]) -> PathBuf {
    let path = out_dir().join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// The signing certificate as a PEM file, for the validators.
pub(crate) fn certificate_pem() -> PathBuf {
    // Named after the certificate: each test binary makes its own identity.
    let identity = renderer().identity();
    let name = format!("signing-certificate-{}.pem", identity.fingerprint_hex().replace(':', "").get(..16).unwrap());
    write(&name, identity.certificate_pem().as_bytes())
}

/// Says something on stderr even when the test passes (the test harness shows captured output
/// of failing tests only; this bypasses the capture).
pub(crate) fn loud(message: &str) {
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr(), "\n{message}\n");
}

/// Set by `.ci/run` once it has installed the validators and fonts: then their absence is a failure.
pub(crate) fn required() -> bool {
    std::env::var_os("CLICKWRAP_REQUIRE_VALIDATORS").is_some_and(|v| !v.is_empty() && v != "0")
}

/// Whether `program` can be run; if not, says so loudly and the test passes without checking
/// (unless `CLICKWRAP_REQUIRE_VALIDATORS` is set, as in CI).
pub(crate) fn available(program: &str, why: &str) -> bool {
    let flag = if program == "qpdf" || program == "pyhanko" { "--version" } else { "-v" };
    let found = Command::new(program).arg(flag).output().is_ok();
    if !found {
        assert!(!required(), "`{program}` is not installed but CLICKWRAP_REQUIRE_VALIDATORS is set ({why})");
        loud(&format!(
            "*** SKIPPED ({why}): `{program}` is not installed. CI installs it (.ci/run); install it to run this check. ***"
        ));
    }
    found
}

pub(crate) struct Output {
    pub(crate) status: i32,
    pub(crate) text: String,
}

pub(crate) fn run(program: &str, args: &[&str]) -> Output {
    let output = Command::new(program).args(args).output().unwrap();
    let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&output.stderr));
    Output { status: output.status.code().unwrap_or(-1), text }
}

pub(crate) fn pyhanko_validate(pdf: &Path) -> Output {
    let pem = certificate_pem();
    run(
        "pyhanko",
        &[
            "sign",
            "validate",
            "--no-revocation-check",
            "--trust",
            pem.to_str().unwrap(),
            "--trust-replace",
            pdf.to_str().unwrap(),
        ],
    )
}

pub(crate) fn pdfsig(pdf: &Path) -> Output {
    run("pdfsig", &[pdf.to_str().unwrap()])
}

pub(crate) fn pdftotext(pdf: &Path) -> String {
    let out = run("pdftotext", &["-enc", "UTF-8", pdf.to_str().unwrap(), "-"]);
    assert_eq!(out.status, 0, "pdftotext failed: {}", out.text);
    out.text
}

/// Text with all white space removed: line breaks fall wherever the layout puts them.
pub(crate) fn squeeze(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}
