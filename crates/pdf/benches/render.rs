//! Render + sign throughput: `cargo bench -p clickwrap-pdf`.
//!
//! The goal is at least 1,000 English certificates per second on one core (under 1 ms each). The
//! machines are shared and noisy, so a baseline is measured in the same run: one ECDSA P-256
//! signature over a SHA-256 digest of a 30 KB buffer, the fixed cost of signing any PDF. Compare the
//! ratio of render to baseline between runs, not the absolute times.

#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::hint::black_box;

use clickwrap_domain::Language;
use clickwrap_domain::consent::models::CertificateFacts;
use clickwrap_domain::ports::CertificateRenderer;
use criterion::{Criterion, criterion_group, criterion_main};

/// The tests' fixtures: the same event and renderer the tests check.
#[path = "../tests/common/mod.rs"]
mod common;

fn facts(language: Language, template_name: &str, content: &str) -> CertificateFacts {
    common::facts(common::event(language, template_name, content))
}

fn benches(c: &mut Criterion) {
    // Fonts are loaded once, as the server does at start-up.
    let renderer = common::renderer();

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
    // Rendering a certificate is async (its signature may be timestamped); without a timestamp
    // authority it never waits, so a current-thread runtime measures the same CPU work.
    let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    let mut group = c.benchmark_group("pdf");
    group.bench_function("baseline: sha256 30KB + ECDSA sign", |b| {
        b.iter(|| {
            let digest = ring::digest::digest(&ring::digest::SHA256, black_box(&buffer));
            key.sign(&rng, digest.as_ref()).unwrap()
        });
    });
    group.bench_function("certificate en (render + sign)", |b| {
        b.iter(|| runtime.block_on(renderer.render_certificate(black_box(&english))).unwrap());
    });
    // Each event personalized with another name: font subsets hold only the glyphs a document
    // uses, so a name with a letter no other text on the page has gets a subset of its own.
    let letters: Vec<char> = ('A'..='Z').chain('a'..='z').collect();
    let personalized: Vec<CertificateFacts> = (0..4096_usize)
        .map(|n| {
            let name: String = [n % 52, n / 52 % 52, n / 2704 % 52].iter().filter_map(|&i| letters.get(i)).collect();
            let mut facts = english.clone();
            facts.event.template_placeholders = Some(format!(r#"{{"fullName":"{name} Lovelace"}}"#));
            facts
        })
        .collect();
    let mut next = personalized.iter().cycle();
    group.bench_function("certificate en, another name each time (render + sign)", |b| {
        b.iter(|| {
            let facts = next.next().unwrap();
            runtime.block_on(renderer.render_certificate(black_box(facts))).unwrap()
        });
    });
    group.bench_function("certificate hi (render + sign)", |b| {
        b.iter(|| runtime.block_on(renderer.render_certificate(black_box(&hindi))).unwrap());
    });
    group.bench_function("certificate zh (render + sign)", |b| {
        b.iter(|| runtime.block_on(renderer.render_certificate(black_box(&chinese))).unwrap());
    });
    group.bench_function("agreement en, 20 sections (render + sign)", |b| {
        b.iter(|| renderer.render_agreement(black_box(&agreement)).unwrap());
    });
    group.finish();
}

criterion_group!(render, benches);
criterion_main!(render);
