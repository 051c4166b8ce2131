//! The template pages rendered from sample data.

use std::collections::BTreeSet;

use clickwrap_domain::content::placeholders::PlaceholderName;
use clickwrap_domain::templates::customizations::{AgreementMode, Color, TextOverrides};
use clickwrap_domain::{AppId, Language};

use super::draft::SAMPLE_PLACEHOLDERS;
use super::*;
use crate::views::test_support::*;

fn base() -> String {
    format!("/console/templates/{TEMPLATE_ID}")
}

fn tags_list() -> Vec<String> {
    vec!["legal".to_owned(), "signup".to_owned()]
}

#[test]
fn list_shows_status_versions_languages_and_the_create_form() {
    let mut draft_only = template("Draft only one");
    draft_only.versions.clear();
    draft_only.enabled = false;
    let mut disabled = template("Paused one");
    disabled.enabled = false;
    let html = list(&admin(), &[template(HOSTILE), draft_only, disabled], now(), None, &tags_list()).into_string();
    for needle in [
        &format!(r#"<a href="{}">&lt;script&gt;alert(1)&lt;/script&gt;</a>"#, base()),
        ">Draft only<",
        ">Enabled<",
        ">Disabled<",
        ">Scheduled 2.0<",
        "<td>1.1</td>",
        r#"<abbr title="German (de)">de</abbr>"#,
        "(draft)",
        r#"<option value="" selected>All tags</option>"#,
        r#"<option value="legal">legal</option>"#,
        r#"<li class="tag">signup</li>"#,
        r#"name="tags""#,
        r#"<option value="zh">Chinese (zh)</option>"#,
    ] {
        assert!(html.contains(needle), "missing {needle}");
    }
    assert_eq!(post_actions(&html), vec!["/console/logout", "/console/templates"]);
    assert_escaped(&html);
    assert_common_rules(&html);
}

#[test]
fn filtered_empty_list_and_viewer() {
    let html = list(&viewer(), &[], now(), Some("legal"), &tags_list()).into_string();
    assert!(html.contains("No templates with the tag legal."));
    assert!(html.contains(r#"<option value="legal" selected>legal</option>"#));
    assert!(html.contains(r#"<a href="/console/templates">Clear filter</a>"#));
    assert_common_rules(&html);
    assert_no_change_forms(&html);
    let html = list(&viewer(), &[], now(), None, &[]).into_string();
    assert!(html.contains("No templates yet."));
}

#[test]
fn detail_offers_every_form_and_the_history() {
    let mut linked = template(HOSTILE);
    linked.app_ids = BTreeSet::from([AppId::parse(APP_ID).unwrap()]);
    let html = detail(&admin(), &linked, now(), &[app("Shop")]).into_string();
    let base = base();
    assert_eq!(
        post_actions(&html),
        vec![
            "/console/logout".to_owned(),
            format!("{base}/settings"),
            format!("{base}/disable"),
            format!("{base}/versions"),
            format!("{base}/apps"),
        ]
    );
    for needle in [
        &format!(r#"href="{base}/draft?language=en""#),
        &format!(r#"href="{base}/customizations""#),
        &format!(r#"href="{base}/versions/2.0""#),
        &format!(r#"action="{base}/diff""#),
        ">SUPERSEDED<",
        ">EFFECTIVE<",
        ">SCHEDULED<",
        "Minor (2.1)",
        "Major (3.0)",
        r#"type="datetime-local" name="effective_at""#,
        "Interpreted as UTC",
        &format!(r#"name="app_ids" value="{APP_ID}" checked"#),
        "None checked: available to every app",
        r#"name="always_require_acceptance" value="on""#,
        r#"name="confirm" value="yes" required"#,
        r#"<option value="1.1" selected>1.1</option>"#,
        r#"<option value="2.0" selected>2.0</option>"#,
        r#"value="legal, signup""#,
        "Shop</a>",
    ] {
        assert!(html.contains(needle), "missing {needle}");
    }
    assert_escaped(&html);
    assert_common_rules(&html);
}

#[test]
fn enable_only_with_a_version_and_viewer_sees_no_forms() {
    let mut disabled = template("T");
    disabled.enabled = false;
    let html = detail(&admin(), &disabled, now(), &[]).into_string();
    assert!(post_actions(&html).contains(&format!("{}/enable", base())));
    assert!(html.contains("No apps yet"));
    assert_common_rules(&html);

    let mut draft_only = disabled.clone();
    draft_only.versions.clear();
    let html = detail(&admin(), &draft_only, now(), &[]).into_string();
    assert!(!html.contains("/enable\"") && !html.contains("/disable\""));
    assert!(html.contains("No versions published yet.") && html.contains("Minor (1.0)"));
    assert_common_rules(&html);

    let html = detail(&viewer(), &template("T"), now(), &[app("Shop")]).into_string();
    assert_common_rules(&html);
    assert_no_change_forms(&html);
    assert!(html.contains("View draft"));
}

#[test]
fn draft_editor_with_tabs_samples_and_preview() {
    let mut t = template("T");
    t.draft.insert(Language::French, html("<p>{{custom.orderId}} \"quoted\" </textarea></p>"));
    let preview = r#"<p class="x">Hello "Ada" &amp; co</p>"#;
    let html = draft(&admin(), &t, Language::French, preview).into_string();
    let base = base();
    for needle in [
        &format!(r#"<a href="{base}/draft?language=fr" aria-current="page">French (fr)"#),
        &format!(
            r#"<a href="{base}/draft?language=de">German (de)<span class="tab-mark" aria-hidden="true"> ●</span>"#
        ),
        "Russian (ru)<span class=\"visually-hidden\"> (empty)</span>",
        r#"<input type="hidden" name="language" value="fr">"#,
        r##"data-preview-target="#preview-frame""##,
        "&lt;/textarea&gt;&lt;/p&gt;</textarea>",
        r#"name="sample.fullName" data-sample="fullName""#,
        r#"name="sample.vatNumber" data-sample="vatNumber""#,
        r#"id="sample-custom-orderId" type="text" name="sample.custom.orderId""#,
        r#"<iframe class="preview-frame" id="preview-frame" sandbox="" title="Preview of the agreement" srcdoc="&lt;!DOCTYPE html&gt;"#,
        r#"&lt;body&gt;&lt;p class=&quot;x&quot;&gt;Hello &quot;Ada&quot; &amp;amp; co&lt;/p&gt;&lt;/body&gt;"#,
    ] {
        assert!(html.contains(needle), "missing {needle}");
    }
    assert_eq!(post_actions(&html), vec!["/console/logout".to_owned(), format!("{base}/draft")]);
    assert_common_rules(&html);

    let html = draft(&viewer(), &t, Language::Hindi, "").into_string();
    assert!(html.contains(
        r##"name="content" rows="24" spellcheck="false" data-preview-target="#preview-frame" data-language="hi" readonly"##
    ));
    assert_common_rules(&html);
    assert_no_change_forms(&html);
}

#[test]
fn sample_placeholders_are_the_domains_named_ones() {
    for name in SAMPLE_PLACEHOLDERS {
        let parsed = PlaceholderName::parse(name).unwrap();
        assert!(!matches!(parsed, PlaceholderName::Custom(_)), "{name}");
        assert_eq!(parsed.to_string(), name);
    }
}

#[test]
fn version_page_shows_each_language_sandboxed_with_source() {
    let t = template("T");
    let v = t.versions.get(1).unwrap();
    let html = super::version(&admin(), &t, v, now()).into_string();
    for needle in [
        "<h1>Version 1.1</h1>",
        ">EFFECTIVE<",
        r#"id="frame-en" sandbox="" title="Version 1.1 in English (en)" srcdoc="&lt;!DOCTYPE html&gt;&lt;html lang=&quot;en&quot;&gt;"#,
        "&lt;body&gt;&lt;h1&gt;Terms&lt;/h1&gt;&lt;p&gt;New.&lt;/p&gt;&lt;/body&gt;",
        r#"id="frame-de""#,
        "<summary>HTML source</summary>",
        "<code>&lt;p&gt;Neu.&lt;/p&gt;</code>",
        &format!(r#"href="{}/diff?a=1.0&amp;b=1.1&amp;language=en""#, base()),
    ] {
        assert!(html.contains(needle), "missing {needle}");
    }
    assert_common_rules(&html);
    assert_no_change_forms(&html);
}

#[test]
fn diff_page_side_by_side_with_markers_in_words() {
    let t = template("T");
    let (a, b) = (t.versions.first().unwrap(), t.versions.get(2).unwrap());
    let lines = crate::diff::diff_lines(
        a.content.get(&Language::English).unwrap().as_str(),
        b.content.get(&Language::English).unwrap().as_str(),
    );
    let html = diff(&admin(), &t, a, b, Language::English, &lines).into_string();
    for needle in [
        "<h1>Compare 1.0 and 2.0</h1>",
        "1 removed",
        "1 added",
        r#"<span class="diff-marker" aria-hidden="true">−</span><span class="visually-hidden">Removed: </span><code>&lt;p&gt;Old.&lt;/p&gt;</code>"#,
        r#"<span class="diff-marker" aria-hidden="true">+</span><span class="visually-hidden">Added: </span><code>&lt;p&gt;Newer.&lt;/p&gt;</code>"#,
        r#"<div class="diff-cell diff-same diff-repeat" aria-hidden="true">"#,
        r#"<option value="1.0" selected>1.0</option>"#,
    ] {
        assert!(html.contains(needle), "missing {needle}");
    }
    assert_common_rules(&html);

    let html = diff(&viewer(), &t, a, a, Language::German, &[]).into_string();
    assert!(html.contains("No differences.") && html.contains("Version 1.0 has no content in German (de)."));
    assert_common_rules(&html);
    assert_no_change_forms(&html);
}

#[test]
fn customizations_form_uses_the_domains_fields() {
    let mut t = template("T");
    t.customizations.theme.primary_color = Some(Color::parse("#AbC").unwrap());
    t.customizations.theme.border_radius = Some(4);
    t.customizations.agreement_mode = AgreementMode::Checkbox;
    t.customizations.logo_url = Some(format!("https://cdn.example.com/{LONG}.png"));
    t.customizations.texts.insert(
        Language::German,
        TextOverrides { accept_button: Some(HOSTILE.to_owned()), ..TextOverrides::default() },
    );
    let html = customizations(&admin(), &t).into_string();
    for needle in [
        r#"<script src="/sdk/v1/clickwrap.js" defer></script>"#,
        r#"name="agreement_mode" value="CHECKBOX" checked"#,
        r#"name="agreement_mode" value="SCROLL""#,
        r##"type="color" name="primary_color" value="#aabbcc""##,
        r##"type="color" name="background_color" value="#ffffff""##,
        r#"type="color" name="text_color""#,
        r#"type="number" name="border_radius" min="0" max="48" step="1" value="4""#,
        r#"<select id="accept_style" name="accept_style"><option value="FILLED" selected>"#,
        r#"name="decline_style""#,
        r#"name="show_decline" value="on" checked"#,
        r#"type="url" name="logo_url""#,
        LONG,
        r#"name="texts.de.accept_button" value="&lt;script&gt;alert(1)&lt;/script&gt;" placeholder="Akzeptieren""#,
        r#"name="texts.en.title" value="" placeholder="Please review and accept""#,
        r#"name="texts.ru.version_label""#,
        r#"name="texts.hi.checkbox_label""#,
        r#"name="texts.fr.decline_button""#,
        &format!(
            r#"<button class="button secondary" id="dialog-preview" type="button" data-template-id="{TEMPLATE_ID}">"#
        ),
        "German (de) · customized",
    ] {
        assert!(html.contains(needle), "missing {needle}");
    }
    assert_eq!(post_actions(&html), vec!["/console/logout".to_owned(), format!("{}/customizations", base())]);
    assert_escaped(&html);
    assert_common_rules(&html);

    let html = customizations(&viewer(), &t).into_string();
    assert!(html.contains("Current customizations") && html.contains(r#"id="dialog-preview""#));
    assert_common_rules(&html);
    assert_no_change_forms(&html);
}
