//! The renderer caches what many documents share (lines of fixed texts and of a template version's
//! texts, font subsets, ToUnicode maps): a document rendered through a warm cache must be byte for
//! byte the one a cold renderer makes, whatever was rendered before it.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::print_stderr, clippy::indexing_slicing)]

mod common;

use clickwrap_domain::consent::models::CertificateFacts;
use clickwrap_domain::consent::models::ClickwrapEvent;
use clickwrap_domain::ports::CertificateRenderer as _;
use clickwrap_domain::{EndUserId, EventId, Language};
use clickwrap_pdf::{FontLibrary, PdfRenderer, SigningIdentity};
use common::*;

/// A renderer with the shared test renderer's signing identity and caches of its own, empty.
fn cold_renderer() -> PdfRenderer {
    let identity = renderer().identity();
    let identity = SigningIdentity::from_der(identity.private_key_pkcs8_der(), identity.certificate_der()).unwrap();
    PdfRenderer::new(identity, FontLibrary::from_env(), SIGNING_CERTIFICATE_URL)
}

/// Another event of the same template version: its own id, end user, address and user agent.
fn sibling(event: &ClickwrapEvent, number: u128, end_user: &str, ip_address: &str, user_agent: &str) -> ClickwrapEvent {
    let mut sibling = event.clone();
    sibling.id = EventId::from_uuid(uuid::Uuid::from_u128(0x0192_7e3b_5c1a_7d2e_9f00_0000_0000_0000 + number));
    sibling.end_user_id = EndUserId::parse(end_user).unwrap();
    sibling.technical_metadata = serde_json::json!({
        "ipAddress": ip_address,
        "userAgent": user_agent,
        "client": {"sdk": "web/1.2.0", "timezone": "Asia/Kolkata"},
    })
    .to_string();
    sibling
}

fn assert_same_warm_and_cold(warm: &PdfRenderer, facts: &CertificateFacts, case: &str) {
    let cold = cold_renderer();
    assert!(
        certificate(warm, facts) == certificate(&cold, facts),
        "{case}: the certificate through a warm cache differs from a cold render"
    );
    assert!(
        warm.render_agreement(facts).unwrap() == cold.render_agreement(facts).unwrap(),
        "{case}: the agreement through a warm cache differs from a cold render"
    );
}

fn version(language: Language) -> ClickwrapEvent {
    match language {
        Language::Hindi => event(
            language,
            "सेवा की शर्तें",
            "<h1>सेवा की शर्तें</h1><p>खाता बनाकर आप इन शर्तों से सहमत होते हैं।</p><ul><li>क्षमा करें</li></ul>",
        ),
        Language::Chinese => event(
            language,
            "服务条款",
            "<h1>服务条款</h1><p>创建账户即表示您同意这些条款。</p><ol><li>第一条</li><li>第二条</li></ol>",
        ),
        _ => english_facts().event,
    }
}

#[test]
fn a_warm_cache_renders_what_a_cold_one_does_in_english_chinese_and_hindi() {
    let warm = cold_renderer();
    for language in [Language::English, Language::Chinese, Language::Hindi] {
        let version = version(language);
        // Other events of the version go first and fill the cache.
        for (number, end_user) in [(1, "first@example.com"), (2, "second-user")] {
            let earlier = sibling(&version, number, end_user, "198.51.100.23", "Mozilla/5.0 (Macintosh) Safari/605.1");
            certificate(&warm, &facts(earlier.clone()));
            warm.render_agreement(&facts(earlier)).unwrap();
        }
        let this = sibling(&version, 3, "user-4711@example.com", "203.0.113.7", "Mozilla/5.0 (X11; Linux) Firefox/133");
        assert_same_warm_and_cold(&warm, &facts(this), &format!("{language:?}"));
    }
}

#[test]
fn per_event_text_that_needs_glyphs_the_cached_subsets_lack_gets_them() {
    let warm = cold_renderer();
    let version = english_facts().event;
    // The first event's text is all in the fonts' common glyphs; its subsets are cached.
    let plain = sibling(&version, 1, "ada@example.com", "203.0.113.7", "Mozilla/5.0 (X11; Linux) Firefox/133");
    certificate(&warm, &facts(plain.clone()));
    assert_same_warm_and_cold(&warm, &facts(plain), "plain");
    // The next events of the same version have end user ids, addresses and user agents in other
    // scripts and odd characters: glyphs in no subset made so far, one of them in no font at all.
    let odd = [
        ("Ωmega_Ölçü-Ж@example.com", "2001:db8::1%eth0", "Мозилла/5.0 ‹Яндекс› «браузер»"),
        ("用户-42@例子.中国", "[fe80::1%25en0]:8443", "浏览器 ½ № ™ ∑ ≠"),
        ("उपयोगकर्ता-७", "203.0.113.7, 198.51.100.1 (proxy) ∕ ⁄", "ब्राउज़र 🦀 \u{200b}zero-width"),
    ];
    for (number, (end_user, ip_address, user_agent)) in (2..).zip(odd) {
        let event = sibling(&version, number, end_user, ip_address, user_agent);
        assert_same_warm_and_cold(&warm, &facts(event.clone()), end_user);

        let pdf = certificate(&warm, &facts(event));
        if available("pdftotext", "text extraction") {
            let text = squeeze(&pdftotext(&write(&format!("cache-odd-{number}.pdf"), &pdf)));
            for expected in [end_user, ip_address] {
                assert!(text.contains(&squeeze(expected)), "{expected:?} is not in the extracted text:\n{text}");
            }
        }
    }
}

#[test]
fn texts_shared_by_events_do_not_leak_between_versions() {
    // Two versions whose texts differ in one character: the cache must not serve one for the other.
    let warm = cold_renderer();
    let first = event(Language::English, "Terms of Service", "<p>You agree to these terms.</p>");
    let second = event(Language::English, "Terms of Servicé", "<p>You agree to these terms!</p>");
    certificate(&warm, &facts(first.clone()));
    warm.render_agreement(&facts(first)).unwrap();
    assert_same_warm_and_cold(&warm, &facts(second), "second version");
}

#[test]
fn the_renderer_is_shared_by_threads() {
    // The server renders on several threads at once through one renderer and its caches.
    let warm = std::sync::Arc::new(cold_renderer());
    let expected: Vec<Vec<u8>> = [Language::English, Language::Chinese, Language::Hindi]
        .into_iter()
        .map(|language| cold_renderer().render_agreement(&facts(version(language))).unwrap())
        .collect();
    let threads: Vec<_> = (0..4)
        .map(|thread| {
            let warm = warm.clone();
            std::thread::spawn(move || {
                let languages = [Language::English, Language::Chinese, Language::Hindi];
                (0..6)
                    .map(|round| {
                        let index = (thread + round) % languages.len();
                        (index, warm.render_agreement(&facts(version(languages[index]))).unwrap())
                    })
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    for thread in threads {
        for (index, pdf) in thread.join().unwrap() {
            assert!(pdf == expected[index], "a render on a thread differs from a cold render ({index})");
        }
    }
}
