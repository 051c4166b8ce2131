//! Render + sign throughput: `cargo bench -p clickwrap-pdf`.
//!
//! The goal is at least 1,000 English certificates per second on one core (under 1 ms each). The
//! machines are shared and noisy, so a baseline is measured in the same run: one ECDSA P-256
//! signature over a SHA-256 digest of a 30 KB buffer, the fixed cost of signing any PDF. Compare the
//! ratio of render to baseline between runs, not the absolute times.

#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::hint::black_box;

use clickwrap_domain::consent::models::{Action, ClickwrapEvent, EventStatus, Presentation, PresentationMode};
use clickwrap_domain::content::hash::ContentHash;
use clickwrap_domain::ports::{CertificateFacts, CertificateRenderer};
use clickwrap_domain::templates::customizations::AgreementMode;
use clickwrap_domain::templates::versioning::VersionNumber;
use clickwrap_domain::{AppId, EndUserId, EventId, Language, TemplateId, TenantId, Timestamp};
use clickwrap_pdf::{FontLibrary, PdfRenderer, SigningIdentity};
use criterion::{Criterion, criterion_group, criterion_main};

fn facts(language: Language, template_name: &str, content: &str) -> CertificateFacts {
    let at = |text: &str| Timestamp::parse_rfc3339(text).unwrap();
    let event = ClickwrapEvent {
        id: EventId::from_uuid(uuid::Uuid::from_u128(0x0192_7e3b_5c1a_7d2e_9f00_1234_5678_9abc)),
        tenant_id: TenantId::from_uuid(uuid::Uuid::from_u128(1)),
        app_id: AppId::from_uuid(uuid::Uuid::from_u128(2)),
        template_id: TemplateId::from_uuid(uuid::Uuid::from_u128(3)),
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
        technical_metadata: r#"{"ipAddress":"203.0.113.7","userAgent":"Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0","client":{"sdk":"clickwrap-js","sdkVersion":"1.2.0"}}"#.to_owned(),
        presentation: Presentation {
            mode: PresentationMode::Dialog,
            agreement_mode: AgreementMode::Scroll,
            accept_label: "Accept".to_owned(),
            checkbox_label: None,
        },
        presented_at: at("2026-03-04T10:15:00.250Z"),
        action_at: at("2026-03-04T10:15:42.125Z"),
        verified_at: Some(at("2026-03-04T10:15:43.000Z")),
    };
    CertificateFacts { event, app_name: "Acme Shop".to_owned() }
}

fn benches(c: &mut Criterion) {
    let identity = SigningIdentity::generate("Clickwrap benchmark signer").unwrap();
    // Fonts are loaded once, here, as the server does at start-up.
    let renderer = PdfRenderer::new(identity, FontLibrary::from_env(), "https://consent.example.com");

    let english = facts(Language::English, "Terms of Service", "<h1>Terms</h1><p>Hello Ada Lovelace.</p>");
    let hindi = facts(Language::Hindi, "सेवा की शर्तें", "<p>खाता बनाकर आप इन शर्तों से सहमत होते हैं।</p>");
    let chinese = facts(Language::Chinese, "服务条款", "<p>创建账户即表示您同意这些条款。</p>");
    let mut long_terms = String::from("<h1>Terms of Service</h1>");
    for n in 0..20 {
        long_terms.push_str(&format!(
            "<h2>Section {n}</h2><p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor \
             incididunt ut labore et dolore magna aliqua.</p><ul><li>One item</li><li>Another item</li></ul>"
        ));
    }
    let agreement = facts(Language::English, "Terms of Service", &long_terms);

    let buffer = vec![7_u8; 30 * 1024];
    let rng = ring::rand::SystemRandom::new();
    let alg = &ring::signature::ECDSA_P256_SHA256_ASN1_SIGNING;
    let pkcs8 = ring::signature::EcdsaKeyPair::generate_pkcs8(alg, &rng).unwrap();
    let key = ring::signature::EcdsaKeyPair::from_pkcs8(alg, pkcs8.as_ref(), &rng).unwrap();
    let mut group = c.benchmark_group("pdf");
    group.bench_function("baseline: sha256 30KB + ECDSA sign", |b| {
        b.iter(|| {
            let digest = ring::digest::digest(&ring::digest::SHA256, black_box(&buffer));
            key.sign(&rng, digest.as_ref()).unwrap()
        });
    });
    group.bench_function("certificate en (render + sign)", |b| {
        b.iter(|| renderer.render_certificate(black_box(&english)).unwrap());
    });
    group.bench_function("certificate hi (render + sign)", |b| {
        b.iter(|| renderer.render_certificate(black_box(&hindi)).unwrap());
    });
    group.bench_function("certificate zh (render + sign)", |b| {
        b.iter(|| renderer.render_certificate(black_box(&chinese)).unwrap());
    });
    group.bench_function("agreement en, 20 sections (render + sign)", |b| {
        b.iter(|| renderer.render_agreement(black_box(&agreement)).unwrap());
    });
    group.finish();
}

criterion_group!(render, benches);
criterion_main!(render);
