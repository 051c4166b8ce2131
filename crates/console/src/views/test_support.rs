//! Sample domain values and the rules every rendered page is checked against.

use std::collections::{BTreeMap, BTreeSet};

use clickwrap_domain::apps::models::{App, Origin};
use clickwrap_domain::content::sanitize::SanitizedHtml;
use clickwrap_domain::secrets::SecretHash;
use clickwrap_domain::templates::customizations::Customizations;
use clickwrap_domain::templates::models::{Template, TemplateVersion};
use clickwrap_domain::templates::versioning::VersionNumber;
use clickwrap_domain::webhooks::url::WebhookUrl;
use clickwrap_domain::{AppId, Language, Name, Tag, TemplateId, TenantId, Timestamp};

use super::layout::{Chrome, Section};

pub(crate) const APP_ID: &str = "0190b7c4-2a1e-7cc3-9f00-5d1e2f3a4b5c";
pub(crate) const TEMPLATE_ID: &str = "0190b7c4-2a1e-7cc3-9f00-00000000aaaa";
pub(crate) const TENANT_ID: &str = "0190b7c4-2a1e-7cc3-9f00-00000000cccc";
pub(crate) const HOSTILE: &str = "<script>alert(1)</script>";
pub(crate) const LONG: &str =
    "averyveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryveryverylongunbrokenstring0123456789";

pub(crate) fn at(text: &str) -> Timestamp {
    Timestamp::parse_rfc3339(text).unwrap()
}

pub(crate) fn now() -> Timestamp {
    at("2026-06-15T12:00:00Z")
}

pub(crate) fn admin() -> Chrome<'static> {
    Chrome {
        tenant_name: "Acme & Co",
        operator_name: "ci-bot",
        can_change: true,
        csrf_token: "csrf-123",
        section: Section::Overview,
        flash: None,
    }
}

pub(crate) fn viewer() -> Chrome<'static> {
    Chrome { can_change: false, ..admin() }
}

pub(crate) fn app(name: &str) -> App {
    App {
        id: AppId::parse(APP_ID).unwrap(),
        tenant_id: TenantId::parse(TENANT_ID).unwrap(),
        name: Name::parse(name).unwrap(),
        webhook_url: Some(WebhookUrl::parse("https://hooks.example.com/clickwrap").unwrap()),
        webhook_enabled: true,
        allowed_origins: vec![Origin::parse("https://app.example.com").unwrap()],
        app_key_hash: SecretHash::of("app-key"),
        previous_app_key: None,
        webhook_secret_sealed: Vec::new(),
        created_at: at("2026-01-02T03:04:05Z"),
        updated_at: at("2026-01-02T03:04:05Z"),
    }
}

pub(crate) fn html(text: &str) -> SanitizedHtml {
    SanitizedHtml::from_stored(text.to_owned())
}

pub(crate) fn version(major: u32, minor: u32, effective_at: &str, content: &[(Language, &str)]) -> TemplateVersion {
    TemplateVersion {
        number: VersionNumber::new(major, minor),
        effective_at: at(effective_at),
        published_at: at("2026-01-01T00:00:00Z"),
        content: content.iter().map(|(language, text)| (*language, html(text))).collect(),
    }
}

/// Versions 1.0 (superseded), 1.1 (effective) and 2.0 (scheduled) at [`now`].
pub(crate) fn template(name: &str) -> Template {
    Template {
        id: TemplateId::parse(TEMPLATE_ID).unwrap(),
        tenant_id: TenantId::parse(TENANT_ID).unwrap(),
        name: Name::parse(name).unwrap(),
        tags: ["legal", "signup"].into_iter().map(|t| Tag::parse(t).unwrap()).collect(),
        default_language: Language::English,
        draft: BTreeMap::from([
            (Language::English, html("<h1>Terms</h1><p>Hello {{fullName}}.</p>")),
            (Language::German, html("<h1>AGB</h1><p>Hallo {{fullName}}.</p>")),
        ]),
        customizations: Customizations::default(),
        always_require_acceptance: false,
        enabled: true,
        app_ids: BTreeSet::new(),
        versions: vec![
            version(1, 0, "2026-01-01T00:00:00Z", &[(Language::English, "<h1>Terms</h1><p>Old.</p>")]),
            version(
                1,
                1,
                "2026-02-01T00:00:00Z",
                &[(Language::English, "<h1>Terms</h1><p>New.</p>"), (Language::German, "<p>Neu.</p>")],
            ),
            version(2, 0, "2026-12-01T00:00:00Z", &[(Language::English, "<h1>Terms</h1><p>Newer.</p>")]),
        ],
        created_at: at("2026-01-01T00:00:00Z"),
        updated_at: at("2026-02-01T00:00:00Z"),
    }
}

/// One start or end tag as the checks see it.
#[derive(Debug)]
pub(crate) struct ParsedTag {
    pub(crate) name: String,
    pub(crate) closing: bool,
    pub(crate) attrs: Vec<(String, Option<String>)>,
    /// Byte offset just after the tag's `>`.
    pub(crate) end: usize,
}

impl ParsedTag {
    pub(crate) fn attr(&self, name: &str) -> Option<&str> {
        self.attrs.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_deref().unwrap_or(""))
    }
}

/// The tags of maud's output (attribute values always double-quoted, text escaped).
pub(crate) fn tags(html: &str) -> Vec<ParsedTag> {
    let bytes = html.as_bytes();
    let mut tags = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'<' || i + 1 >= bytes.len() || bytes[i + 1] == b'!' {
            i += 1;
            continue;
        }
        i += 1;
        let closing = bytes[i] == b'/';
        if closing {
            i += 1;
        }
        let start = i;
        while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'-') {
            i += 1;
        }
        let name = html[start..i].to_ascii_lowercase();
        assert!(!name.is_empty(), "raw < in output at {start}: {}", &html[start.saturating_sub(40)..start + 40]);
        let mut attrs = Vec::new();
        loop {
            while bytes[i] == b' ' {
                i += 1;
            }
            if bytes[i] == b'>' {
                i += 1;
                break;
            }
            let attr_start = i;
            while !matches!(bytes[i], b'=' | b' ' | b'>') {
                i += 1;
            }
            let attr = html[attr_start..i].to_owned();
            if bytes[i] == b'=' {
                assert_eq!(bytes[i + 1], b'"', "unquoted attribute {attr}");
                let value_start = i + 2;
                let value_end = value_start + html[value_start..].find('"').unwrap();
                attrs.push((attr, Some(html[value_start..value_end].to_owned())));
                i = value_end + 1;
            } else {
                attrs.push((attr, None));
            }
        }
        tags.push(ParsedTag { name, closing, attrs, end: i });
    }
    tags
}

/// The rules every page keeps: CSP-safe markup, labelled controls, CSRF in POST forms, accessible
/// tables, one h1 and headings in order, unique ids, sandboxed frames.
pub(crate) fn assert_common_rules(html: &str) {
    let tags = tags(html);
    let mut ids = BTreeSet::new();
    let mut open_post_form: Option<bool> = None;
    let mut heading_level = 0;
    let mut h1_count = 0;
    for (index, tag) in tags.iter().enumerate() {
        if tag.closing {
            if tag.name == "form"
                && let Some(has_csrf) = open_post_form.take()
            {
                assert!(has_csrf, "a POST form without csrf_token");
            }
            continue;
        }
        for (attr, _) in &tag.attrs {
            assert_ne!(attr, "style", "style attribute on <{}>", tag.name);
            assert!(!attr.starts_with("on"), "event handler attribute {attr}");
        }
        if let Some(id) = tag.attr("id") {
            assert!(ids.insert(id.to_owned()), "duplicate id {id}");
        }
        match tag.name.as_str() {
            "script" => {
                assert!(tag.attr("src").is_some(), "inline script");
                assert!(html[tag.end..].starts_with("</script>"), "script with content");
            }
            "form" => {
                let method = tag.attr("method").unwrap_or("get");
                assert!(matches!(method, "get" | "post"), "form method {method}");
                if method == "post" {
                    assert!(tag.attr("action").is_some_and(|a| a.starts_with("/console")), "form action");
                    open_post_form = Some(false);
                }
            }
            "input" | "select" | "textarea" => {
                let kind = tag.attr("type").unwrap_or("text");
                if tag.name == "input" && matches!(kind, "hidden" | "submit") {
                    if tag.attr("name") == Some("csrf_token")
                        && let Some(has) = open_post_form.as_mut()
                    {
                        assert_eq!(tag.attr("value"), Some("csrf-123"));
                        *has = true;
                    }
                    continue;
                }
                let id = tag.attr("id").unwrap_or_else(|| panic!("<{}> without id: {:?}", tag.name, tag.attrs));
                assert!(html.contains(&format!("for=\"{id}\"")), "no label for {id}");
            }
            "table" => {
                let captioned = tags.get(index + 1).is_some_and(|next| next.name == "caption" && !next.closing);
                assert!(captioned || tag.attr("aria-label").is_some(), "table without caption");
            }
            "th" => assert!(tag.attr("scope").is_some(), "th without scope"),
            "iframe" => {
                assert_eq!(tag.attr("sandbox"), Some(""), "iframe not sandboxed");
                assert!(tag.attr("title").is_some(), "iframe without title");
            }
            "svg" => assert!(
                tag.attr("aria-hidden") == Some("true") || tag.attr("role") == Some("img"),
                "svg neither hidden nor an image"
            ),
            "button" => assert!(!html[tag.end..].starts_with("</button>"), "button without text"),
            "a" => {
                let href = tag.attr("href").unwrap_or("");
                assert!(href.starts_with('/') || href.starts_with('#') || href.starts_with('?'), "link {href}");
            }
            name if name.len() == 2 && name.starts_with('h') && name.as_bytes()[1].is_ascii_digit() => {
                let level = name.as_bytes()[1] - b'0';
                assert!(level <= heading_level + 1, "heading h{level} after h{heading_level}");
                heading_level = level;
                if level == 1 {
                    h1_count += 1;
                }
            }
            _ => {}
        }
    }
    assert_eq!(h1_count, 1, "one h1 per page");
}

/// A read-only session's page: the only POST form is Sign out.
pub(crate) fn assert_no_change_forms(html: &str) {
    for tag in tags(html) {
        if !tag.closing && tag.name == "form" && tag.attr("method") == Some("post") {
            assert_eq!(tag.attr("action"), Some("/console/logout"), "change form in read-only mode");
        }
        if !tag.closing && tag.name == "button" {
            assert!(tag.attr("type").is_some(), "button without type");
        }
    }
}

/// The POST actions a page offers.
pub(crate) fn post_actions(html: &str) -> Vec<String> {
    tags(html)
        .into_iter()
        .filter(|t| !t.closing && t.name == "form" && t.attr("method") == Some("post"))
        .filter_map(|t| t.attr("action").map(str::to_owned))
        .collect()
}

/// The hostile string never comes out as markup.
pub(crate) fn assert_escaped(html: &str) {
    assert!(!html.contains(HOSTILE), "unescaped hostile string");
    assert!(!html.contains("<script>"), "raw <script>");
}
