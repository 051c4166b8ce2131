//! What the documents say: the Certificate of Acceptance page(s) and the agreement as shown.

use clickwrap_domain::Language;
use clickwrap_domain::consent::models::CertificateFacts;
use clickwrap_domain::consent::models::{Action, ClickwrapEvent, PresentationMode};
use clickwrap_domain::templates::customizations::AgreementMode;

use crate::html::{self, BODY_SIZE, Block, INDENT};
use crate::layout::{Composer, MARGIN_BOTTOM, MARGIN_X, PAGE_WIDTH, Para};
use crate::text::TextStyle;

/// Where and how the signing certificate can be checked.
#[derive(Debug, Clone)]
pub(crate) struct Validation {
    pub(crate) certificate_url: String,
    pub(crate) fingerprint: String,
    /// The key type, as the page names it: "ECDSA P-256", "RSA 3072".
    pub(crate) key_algorithm: String,
}

const LABEL_WIDTH: f32 = 150.0;
const ROW_SIZE: f32 = 9.5;
/// Small enough that a 71-character content hash fits the value column on one line.
const TOKEN_SIZE: f32 = 8.0;
const GRAY: f32 = 0.35;
/// Longest value shown in full; longer ones (a huge client report) are cut with an ellipsis.
const MAX_VALUE_CHARS: usize = 2000;

fn label(text: &str) -> Para {
    Para::fixed(text, TextStyle::bold(ROW_SIZE).with_gray(GRAY))
}

fn value(text: &str) -> Para {
    Para::styled(&truncate(text), TextStyle::regular(ROW_SIZE))
}

/// A value that is the same for many events: a fixed text, or the same for every event of a
/// template version or of an app.
fn shared_value(text: &str) -> Para {
    value(text).shared()
}

fn truncate(text: &str) -> String {
    match text.char_indices().nth(MAX_VALUE_CHARS) {
        Some((cut, _)) => format!("{}…", text.get(..cut).unwrap_or_default()),
        None => text.to_owned(),
    }
}

fn section(composer: &mut Composer<'_>, title: &str) {
    composer.space(5.0);
    composer.ensure(60.0);
    composer.paragraph(&Para::fixed(title, TextStyle::bold(11.5)), 0.0);
    composer.rule(0.5, 0.6);
    composer.space(2.0);
}

fn language_name(language: Language) -> &'static str {
    match language {
        Language::English => "English",
        Language::German => "German, Deutsch",
        Language::French => "French, français",
        Language::Spanish => "Spanish, español",
        Language::Chinese => "Chinese, 中文",
        Language::Hindi => "Hindi, हिन्दी",
        Language::Russian => "Russian, русский",
    }
}

/// IP address and user agent from the event's technical metadata, and what the client reported
/// about itself as labelled rows.
struct Technical {
    ip_address: Option<String>,
    user_agent: Option<String>,
    client: Vec<(String, String)>,
}

fn technical(metadata: &str) -> Technical {
    let Ok(serde_json::Value::Object(map)) = serde_json::from_str::<serde_json::Value>(metadata) else {
        let raw = metadata.trim();
        let client = if raw.is_empty() { Vec::new() } else { vec![("Reported".to_owned(), raw.to_owned())] };
        return Technical { ip_address: None, user_agent: None, client };
    };
    let text = |key: &str| match map.get(key) {
        Some(serde_json::Value::String(s)) if !s.is_empty() => Some(s.clone()),
        Some(serde_json::Value::Null) | None => None,
        Some(other) => Some(other.to_string()),
    };
    let client = match map.get("client") {
        Some(serde_json::Value::Object(fields)) => fields
            .iter()
            .filter_map(|(key, value)| Some((client_label(key), plain(value)?)))
            .take(MAX_CLIENT_ROWS)
            .collect(),
        Some(serde_json::Value::Null) | None => Vec::new(),
        Some(other) => vec![("Reported".to_owned(), other.to_string())],
    };
    Technical { ip_address: text("ipAddress"), user_agent: text("userAgent"), client }
}

/// Rows of client-reported facts shown at most; a client cannot fill pages with them.
const MAX_CLIENT_ROWS: usize = 16;

/// What the browser SDK reports, in words; any other key is shown as it was sent.
fn client_label(key: &str) -> String {
    let known = match key {
        "sdk" => "SDK",
        "sdkVersion" => "SDK version",
        "screen" => "Screen",
        "viewport" => "Window",
        "timezone" => "Time zone",
        "platform" => "Platform",
        "language" => "Browser language",
        "languages" => "Browser languages",
        "origin" => "Page origin",
        other => return other.to_owned(),
    };
    known.to_owned()
}

/// A reported value as text: a size as `1920 × 1080`, a list joined with commas, an object as
/// `key: value` pairs; nothing for null or empty values.
fn plain(value: &serde_json::Value) -> Option<String> {
    use serde_json::Value;
    let text = match value {
        Value::Null => return None,
        Value::String(s) => s.clone(),
        Value::Array(items) => items.iter().filter_map(plain).collect::<Vec<_>>().join(", "),
        Value::Object(fields) => match (fields.get("width"), fields.get("height")) {
            (Some(Value::Number(w)), Some(Value::Number(h))) => {
                let ratio =
                    fields.get("pixelRatio").and_then(Value::as_f64).filter(|r| (*r - 1.0).abs() > f64::EPSILON);
                match ratio {
                    Some(ratio) => format!("{w} × {h} (pixel ratio {ratio})"),
                    None => format!("{w} × {h}"),
                }
            }
            _ => fields
                .iter()
                .filter_map(|(key, value)| Some(format!("{key}: {}", plain(value)?)))
                .collect::<Vec<_>>()
                .join("; "),
        },
        other => other.to_string(),
    };
    (!text.trim().is_empty()).then_some(text)
}

/// The placeholder values used in the content, in words, from the stored canonical JSON.
fn placeholder_rows(placeholders: Option<&str>) -> Vec<(String, String)> {
    let Some(serde_json::Value::Object(fields)) = placeholders.and_then(|text| serde_json::from_str(text).ok()) else {
        return Vec::new();
    };
    let mut rows: Vec<(String, String)> = fields
        .iter()
        .filter_map(|(field, value)| Some((placeholder_label(field), value.as_str()?.to_owned())))
        .collect();
    if let Some(serde_json::Value::Object(custom)) = fields.get("customPlaceholders") {
        rows.extend(
            custom.iter().filter_map(|(key, value)| Some((format!("{key} (custom)"), value.as_str()?.to_owned()))),
        );
    }
    rows
}

fn placeholder_label(field: &str) -> String {
    let known = match field {
        "fullName" => "Full name",
        "email" => "Email",
        "company" => "Company",
        "jobTitle" => "Job title",
        "address" => "Address",
        "date" => "Date",
        "phoneNumber" => "Phone number",
        "registrationNumber" => "Registration number",
        "vatNumber" => "VAT number",
        other => return other.to_owned(),
    };
    known.to_owned()
}

/// The end user's name, when the content was personalized with one.
fn end_user_name(placeholders: Option<&str>) -> Option<String> {
    let fields: serde_json::Value = serde_json::from_str(placeholders?).ok()?;
    fields.get("fullName")?.as_str().filter(|name| !name.trim().is_empty()).map(str::to_owned)
}

fn not_recorded(value: Option<String>) -> String {
    value.unwrap_or_else(|| "not recorded".to_owned())
}

/// A long unbroken token (a hash, a fingerprint) in a size that keeps it on one line.
fn token(text: &str) -> Para {
    Para::styled(text, TextStyle::regular(TOKEN_SIZE))
}

/// The certificate, from a fresh page.
pub(crate) fn certificate(composer: &mut Composer<'_>, facts: &CertificateFacts, validation: &Validation) {
    let event = &facts.event;
    composer.fresh_page();
    let title = match event.action {
        Action::Accepted => "Certificate of Acceptance",
        Action::Declined => "Record of a Declined Clickwrap Agreement",
    };
    composer.paragraph(&Para::fixed(title, TextStyle::bold(20.0)), 0.0);
    let subtitle_style = TextStyle::regular(10.0).with_gray(GRAY);
    let mut issued = Para::new();
    issued.push("Clickwrap consent record for the integration ", subtitle_style);
    issued.push(&facts.app_name, TextStyle::bold(10.0).with_gray(GRAY));
    if let Some(operator) = &facts.operator_name {
        issued.push(" of ", subtitle_style);
        issued.push(operator, TextStyle::bold(10.0).with_gray(GRAY));
    }
    // The same for every event of the app.
    composer.paragraph(&issued.shared(), 0.0);
    composer.space(4.0);
    composer.rule(1.2, 0.1);
    composer.space(6.0);
    let verb = match event.action {
        Action::Accepted => "accepted",
        Action::Declined => "declined",
    };
    let intro = format!(
        "This document records that the end user identified below {verb} the agreement identified below and that \
         the integration's server verified that decision with the clickwrap consent service. The content hash \
         fixes the exact wording shown; the event's Clickwrap Agreement PDF reproduces it in full. The document \
         is digitally signed: any change to it can be detected."
    );
    composer.paragraph(&Para::fixed(&intro, TextStyle::regular(BODY_SIZE)), 0.0);

    section(composer, "Decision");
    // Label, value and whether the value is the same for every event of the app.
    let mut rows: Vec<(&str, String, bool)> = vec![
        ("Clickwrap event ID", event.id.to_string(), false),
        ("Decision", event.action.as_str().to_owned(), true),
        ("End user ID", event.end_user_id.as_str().to_owned(), false),
    ];
    if let Some(name) = end_user_name(event.template_placeholders.as_deref()) {
        rows.push(("End user name", name, false));
    }
    rows.push(("Integration (app)", facts.app_name.clone(), true));
    if let Some(operator) = &facts.operator_name {
        rows.push(("Operator", operator.clone(), true));
    }
    for (name, text, shared) in &rows {
        let text = if *shared { shared_value(text) } else { value(text) };
        composer.row(&label(name), &text, LABEL_WIDTH);
    }

    section(composer, "Agreement");
    // All of the template version's: laid out once for all its events.
    let rows: Vec<(&str, String)> = vec![
        ("Template", event.template_name.clone()),
        ("Template ID", event.template_id.to_string()),
        ("Version", event.version.to_string()),
        ("Version effective at", event.effective_at.to_rfc3339()),
        ("Language", format!("{} ({})", event.language.code(), language_name(event.language))),
    ];
    for (name, text) in &rows {
        composer.row(&label(name), &shared_value(text), LABEL_WIDTH);
    }
    composer.row(&label("Content hash"), &token(event.content_hash.as_str()).shared(), LABEL_WIDTH);
    let placeholders = placeholder_rows(event.template_placeholders.as_deref());
    if !placeholders.is_empty() {
        composer.space(3.0);
        composer.paragraph(&Para::fixed("Placeholder values used in the content", TextStyle::bold(ROW_SIZE)), 0.0);
        for (name, text) in &placeholders {
            composer.row(&label(name), &value(text), LABEL_WIDTH);
        }
    }

    section(composer, "Checked by the service");
    for (name, text, shared) in checked_rows(event) {
        let text = if shared { shared_value(&text) } else { value(&text) };
        composer.row(&label(name), &text, LABEL_WIDTH);
    }
    let technical = technical(&event.technical_metadata);
    composer.row(&label("IP address"), &value(&not_recorded(technical.ip_address)), LABEL_WIDTH);

    section(composer, "Reported by the end user's device (not checked by the service)");
    for (name, text, shared) in reported_rows(event) {
        let text = if shared { shared_value(&text) } else { value(&text) };
        composer.row(&label(name), &text, LABEL_WIDTH);
    }
    composer.row(&label("User agent"), &value(&not_recorded(technical.user_agent)), LABEL_WIDTH);
    for (name, text) in &technical.client {
        composer.row(&label(name), &value(text), LABEL_WIDTH);
    }

    section(composer, "How to validate this document");
    let how = format!(
        "Signed with {} and SHA-256 (PAdES baseline signature, ETSI.CAdES.detached), at the time of the \
        verification; a timestamp, if the signature carries one, is a time-stamping authority's. Download the \
        signing certificate, check its fingerprint and trust it (or the root of the authority that issued it) in \
        a PDF reader that checks signatures, pyHanko (pyhanko sign validate --trust signing-certificate.pem \
        document.pdf) or Poppler's pdfsig. The content hash is the SHA-256 of the content as shown (UTF-8 HTML).",
        validation.key_algorithm
    );
    composer.row(&label("Signing certificate"), &shared_value(&validation.certificate_url), LABEL_WIDTH);
    // 32 colon-separated pairs do not fit one line: two lines of 16, broken at a colon.
    let (first, second) = validation.fingerprint.split_at(validation.fingerprint.len().min(FINGERPRINT_HALF));
    composer.row(&label("Its SHA-256 fingerprint"), &token(first).shared(), LABEL_WIDTH);
    if !second.is_empty() {
        composer.row(&Para::new(), &token(second).shared(), LABEL_WIDTH);
    }
    composer.space(4.0);
    composer.paragraph(&Para::fixed(&how, TextStyle::regular(8.5).with_gray(0.2)), 0.0);
}

/// `AB:CD:…:` up to and including the 16th colon.
const FINGERPRINT_HALF: usize = 16 * 3;

/// What the service established itself, whatever the client said: label, value and whether the
/// value is the same for every event of the template version.
fn checked_rows(event: &ClickwrapEvent) -> Vec<(&'static str, String, bool)> {
    let mode = match (event.presentation.mode, event.presentation.agreement_mode) {
        (PresentationMode::Inline, _) => "CHECKBOX, as every inline clickwrap: a box to tick before accepting",
        (_, AgreementMode::Scroll) => "SCROLL, as the template requires: accept only at the content's end",
        (_, AgreementMode::Checkbox) => "CHECKBOX, as the template requires: a box to tick before accepting",
    };
    vec![
        ("Content shown", "Rendered by the service itself; its hash is the content hash".to_owned(), true),
        ("Version in force", format!("Version {} was in force when it was shown", event.version), true),
        ("Agreement mode", mode.to_owned(), true),
        ("Decision received at", event.action_at.to_rfc3339(), false),
        (
            "Verified at",
            event.verified_at.map_or_else(
                || "not verified".to_owned(),
                |at| format!("{} by the integration's server", at.to_rfc3339()),
            ),
            false,
        ),
    ]
}

/// What the end user's device reported: label, value and whether the value is the same for many
/// events (a fixed text, or the wording the integration shows every end user).
fn reported_rows(event: &ClickwrapEvent) -> Vec<(&'static str, String, bool)> {
    let presentation = &event.presentation;
    let shown = match presentation.mode {
        PresentationMode::Dialog => "DIALOG: in a dialog over the page",
        PresentationMode::Inline => "INLINE: within the page",
    };
    let mut rows = vec![("Shown", shown.to_owned(), true)];
    if presentation.agreement_mode == AgreementMode::Scroll {
        let scrolling = match presentation.scroll_required {
            Some(true) => "Yes: accepting waited until the end was reached",
            Some(false) => "No: the whole content fitted its box",
            None => "not reported",
        };
        rows.push(("Content needed scrolling", scrolling.to_owned(), true));
    }
    // Reported, but in practice the integration's wording, the same for all its end users (unique
    // ones would only take turns in the bounded cache).
    rows.push(("Accept button wording", format!("“{}”", presentation.accept_label), true));
    if let Some(checkbox) = &presentation.checkbox_label {
        rows.push(("Checkbox wording", format!("“{checkbox}”"), true));
    }
    rows.push(("Shown at", event.presented_at.to_rfc3339(), false));
    rows
}

/// The agreement's content as it was shown, with a heading that says what it is.
pub(crate) fn agreement(composer: &mut Composer<'_>, facts: &CertificateFacts) {
    let event = &facts.event;
    composer.paragraph(&Para::styled(&event.template_name, TextStyle::bold(18.0)).shared(), 0.0);
    let details = format!(
        "Version {} (effective {}), language {}. Shown to end user {} at {}; content hash {}.",
        event.version,
        event.effective_at.to_rfc3339(),
        event.language.code(),
        event.end_user_id.as_str(),
        event.presented_at.to_rfc3339(),
        event.content_hash.as_str(),
    );
    composer.paragraph(&Para::styled(&details, TextStyle::regular(8.5).with_gray(GRAY)), 0.0);
    composer.space(4.0);
    composer.rule(1.2, 0.1);
    composer.space(8.0);

    // The content's paragraphs are the same for every event shown the same content (all events of a
    // version, unless placeholders personalized it): their lines are cached.
    for block in html::blocks(&event.content) {
        match block {
            Block::Heading { level, para } => {
                composer.space(if level <= 2 { 10.0 } else { 6.0 });
                // Keep a heading with the start of what follows it.
                composer.ensure(para.styles.first().map_or(12.0, |(_, s)| s.size) * 1.5 + 3.0 * BODY_SIZE * 1.45);
                composer.paragraph(&para.shared(), 0.0);
                composer.space(2.0);
            }
            Block::Paragraph { para, indent } => {
                composer.paragraph(&para.shared(), indent);
                composer.space(5.0);
            }
            Block::ListItem { marker, para, indent } => {
                composer.marked_paragraph(&marker.shared(), &para.shared(), indent.max(INDENT));
                composer.space(2.0);
            }
            Block::Rule => {
                composer.space(4.0);
                composer.rule(0.5, 0.6);
                composer.space(6.0);
            }
        }
    }
}

/// Every page gets a footer: the event and the page number.
pub(crate) fn footers(composer: &mut Composer<'_>, facts: &CertificateFacts, kind: &str) {
    let count = composer.pages.len();
    let style = TextStyle::regular(7.5).with_gray(0.45);
    for page in 0..count {
        let left = Para::styled(&format!("{kind}, clickwrap event {}", facts.event.id), style);
        let right = Para::fixed(&format!("Page {} of {count}", page + 1), style);
        composer.fixed_text(page, &left, MARGIN_X, MARGIN_BOTTOM - 28.0, false);
        composer.fixed_text(page, &right, PAGE_WIDTH - MARGIN_X, MARGIN_BOTTOM - 28.0, true);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn technical_metadata_is_read_leniently() {
        let rows = |pairs: &[(&str, &str)]| -> Vec<(String, String)> {
            pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
        };
        let t = technical(
            r#"{"ipAddress":"203.0.113.7","userAgent":"Mozilla/5.0","client":{"sdk":"web/1.2.0","v":3,
                "screen":{"width":390,"height":844,"pixelRatio":3},"viewport":{"width":390,"height":700,"pixelRatio":1},
                "languages":["de","en"],"platform":null,"odd":{"a":1,"b":[true]}}}"#,
        );
        assert_eq!(t.ip_address.as_deref(), Some("203.0.113.7"));
        assert_eq!(t.user_agent.as_deref(), Some("Mozilla/5.0"));
        assert_eq!(
            t.client,
            rows(&[
                ("Browser languages", "de, en"),
                ("odd", "a: 1; b: true"),
                ("Screen", "390 × 844 (pixel ratio 3)"),
                ("SDK", "web/1.2.0"),
                ("v", "3"),
                ("Window", "390 × 700"),
            ])
        );

        let t = technical(r#"{"ipAddress":"198.51.100.1","userAgent":null,"client":{}}"#);
        assert_eq!(t.ip_address.as_deref(), Some("198.51.100.1"));
        assert_eq!(t.user_agent, None);
        assert!(t.client.is_empty());

        let t = technical("not json");
        assert_eq!(t.client, rows(&[("Reported", "not json")]));
    }

    #[test]
    fn placeholder_values_are_listed_named_first_then_custom() {
        let json = r#"{"fullName":"Ada Lovelace","vatNumber":"DE123","customPlaceholders":{"plan":"Pro","seats":"5"}}"#;
        let listed: Vec<(String, String)> = placeholder_rows(Some(json));
        let names: Vec<&str> = listed.iter().map(|(name, _)| name.as_str()).collect();
        assert_eq!(names, ["Full name", "VAT number", "plan (custom)", "seats (custom)"]);
        assert_eq!(end_user_name(Some(json)).as_deref(), Some("Ada Lovelace"));
        assert_eq!(end_user_name(Some(r#"{"fullName":"  "}"#)), None);
        assert!(placeholder_rows(None).is_empty());
        assert!(placeholder_rows(Some("not json")).is_empty());
    }

    #[test]
    fn long_values_are_cut() {
        let long = "x".repeat(MAX_VALUE_CHARS + 10);
        assert_eq!(truncate(&long).chars().count(), MAX_VALUE_CHARS + 1);
        assert_eq!(truncate("short"), "short");
    }
}
