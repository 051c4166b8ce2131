//! What the documents say: the Certificate of Acceptance page(s) and the agreement as shown.

use clickwrap_domain::Language;
use clickwrap_domain::consent::models::{Action, ClickwrapEvent, PresentationMode};
use clickwrap_domain::ports::CertificateFacts;
use clickwrap_domain::templates::customizations::AgreementMode;

use crate::html::{self, BODY_SIZE, Block, INDENT};
use crate::layout::{Composer, MARGIN_BOTTOM, MARGIN_X, PAGE_WIDTH, Para};
use crate::text::TextStyle;

/// Where and how the signing certificate can be checked.
#[derive(Debug, Clone)]
pub(crate) struct Validation {
    pub(crate) certificate_url: String,
    pub(crate) fingerprint: String,
}

const LABEL_WIDTH: f32 = 150.0;
const ROW_SIZE: f32 = 9.5;
const GRAY: f32 = 0.35;
/// Longest value shown in full; longer ones (a huge client report) are cut with an ellipsis.
const MAX_VALUE_CHARS: usize = 2000;

fn label(text: &str) -> Para {
    Para::fixed(text, TextStyle::bold(ROW_SIZE).with_gray(GRAY))
}

/// A value that is one of a few fixed texts.
fn fixed_value(text: &str) -> Para {
    Para::fixed(text, TextStyle::regular(ROW_SIZE))
}

fn value(text: &str) -> Para {
    Para::styled(&truncate(text), TextStyle::regular(ROW_SIZE))
}

fn truncate(text: &str) -> String {
    match text.char_indices().nth(MAX_VALUE_CHARS) {
        Some((cut, _)) => format!("{}…", text.get(..cut).unwrap_or_default()),
        None => text.to_owned(),
    }
}

fn section(composer: &mut Composer<'_>, title: &str) {
    composer.space(7.0);
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

/// IP address, user agent and what the client reported, from the event's technical metadata.
struct Technical {
    ip_address: Option<String>,
    user_agent: Option<String>,
    client: Option<String>,
}

fn technical(metadata: &str) -> Technical {
    let Ok(serde_json::Value::Object(map)) = serde_json::from_str::<serde_json::Value>(metadata) else {
        let raw = metadata.trim();
        return Technical { ip_address: None, user_agent: None, client: (!raw.is_empty()).then(|| raw.to_owned()) };
    };
    let text = |key: &str| match map.get(key) {
        Some(serde_json::Value::String(s)) if !s.is_empty() => Some(s.clone()),
        Some(serde_json::Value::Null) | None => None,
        Some(other) => Some(other.to_string()),
    };
    let client = match map.get("client") {
        Some(serde_json::Value::Object(fields)) if !fields.is_empty() => Some(
            fields
                .iter()
                .map(|(key, value)| match value {
                    serde_json::Value::String(s) => format!("{key}: {s}"),
                    other => format!("{key}: {other}"),
                })
                .collect::<Vec<_>>()
                .join("; "),
        ),
        Some(serde_json::Value::Object(_) | serde_json::Value::Null) | None => None,
        Some(other) => Some(other.to_string()),
    };
    Technical { ip_address: text("ipAddress"), user_agent: text("userAgent"), client }
}

fn not_recorded(value: Option<String>) -> String {
    value.unwrap_or_else(|| "not recorded".to_owned())
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
    let mut issued = Para::new();
    issued.push("Clickwrap consent record for the integration ", TextStyle::regular(10.0).with_gray(GRAY));
    issued.push(&facts.app_name, TextStyle::bold(10.0).with_gray(GRAY));
    issued.fixed = true;
    composer.paragraph(&issued, 0.0);
    composer.space(4.0);
    composer.rule(1.2, 0.1);
    composer.space(6.0);
    let verb = match event.action {
        Action::Accepted => "accepted",
        Action::Declined => "declined",
    };
    let intro = format!(
        "This document records that the end user identified below {verb} the agreement described here, in the \
         wording and form shown below, and that the integration's server verified that decision with the \
         clickwrap consent service. It is digitally signed: any change to it can be detected."
    );
    composer.paragraph(&Para::fixed(&intro, TextStyle::regular(BODY_SIZE)), 0.0);

    section(composer, "Decision");
    let rows: Vec<(&str, String)> = vec![
        ("Clickwrap event ID", event.id.to_string()),
        ("Decision", event.action.as_str().to_owned()),
        ("Decided at", event.action_at.to_rfc3339()),
        ("Verified at", event.verified_at.map_or_else(|| "not verified".to_owned(), |at| at.to_rfc3339())),
        ("End user ID", event.end_user_id.as_str().to_owned()),
        ("Integration (app)", facts.app_name.clone()),
    ];
    for (name, text) in &rows {
        composer.row(&label(name), &value(text), LABEL_WIDTH);
    }

    section(composer, "Agreement");
    let rows: Vec<(&str, String)> = vec![
        ("Template", event.template_name.clone()),
        ("Template ID", event.template_id.to_string()),
        ("Version", event.version.to_string()),
        ("Version effective at", event.effective_at.to_rfc3339()),
        ("Language", format!("{} ({})", event.language.code(), language_name(event.language))),
        ("Content hash", event.content_hash.as_str().to_owned()),
        ("Presented at", event.presented_at.to_rfc3339()),
    ];
    for (name, text) in &rows {
        composer.row(&label(name), &value(text), LABEL_WIDTH);
    }

    section(composer, "What the end user saw and did");
    for (name, text, fixed) in presentation_rows(event) {
        let text = if fixed { fixed_value(&text) } else { value(&text) };
        composer.row(&label(name), &text, LABEL_WIDTH);
    }

    section(composer, "Device and network");
    let technical = technical(&event.technical_metadata);
    composer.row(&label("IP address"), &value(&not_recorded(technical.ip_address)), LABEL_WIDTH);
    composer.row(&label("User agent"), &value(&not_recorded(technical.user_agent)), LABEL_WIDTH);
    composer.row(&label("Device and client"), &value(&not_recorded(technical.client)), LABEL_WIDTH);

    section(composer, "How to validate this document");
    let how = "This PDF is digitally signed (detached CMS signature, adbe.pkcs7.detached, ECDSA P-256 with \
        SHA-256) with the service's signing certificate. Download the certificate from the address above, check \
        its SHA-256 fingerprint, and validate the signature against it: in a PDF reader that checks signatures \
        (trust the certificate), or with pyHanko (pyhanko sign validate --trust signing-certificate.pem \
        document.pdf) or Poppler's pdfsig. Changing any byte of the signed document makes validation fail. \
        The content hash is the SHA-256 of the agreement's content exactly as shown (UTF-8 HTML).";
    composer.row(&label("Signing certificate"), &value(&validation.certificate_url), LABEL_WIDTH);
    composer.row(&label("Its SHA-256 fingerprint"), &value(&validation.fingerprint), LABEL_WIDTH);
    composer.space(4.0);
    composer.paragraph(&Para::fixed(how, TextStyle::regular(8.5).with_gray(0.2)), 0.0);
}

/// Label, value and whether the value is one of a few fixed texts.
fn presentation_rows(event: &ClickwrapEvent) -> Vec<(&'static str, String, bool)> {
    let presentation = &event.presentation;
    let shown = match presentation.mode {
        PresentationMode::Dialog => "DIALOG: in a dialog over the page",
        PresentationMode::Inline => "INLINE: within the page",
    };
    let agreement = match presentation.agreement_mode {
        AgreementMode::Scroll => "SCROLL: the accept button was enabled once the content had been scrolled to its end",
        AgreementMode::Checkbox => "CHECKBOX: a consent checkbox had to be ticked before accepting",
    };
    let mut rows = vec![
        ("Shown", shown.to_owned(), true),
        ("Agreement mode", agreement.to_owned(), true),
        ("Accept button wording", format!("“{}”", presentation.accept_label), false),
    ];
    if let Some(checkbox) = &presentation.checkbox_label {
        rows.push(("Checkbox wording", format!("“{checkbox}”"), false));
    }
    rows
}

/// The agreement's content as it was shown, with a heading that says what it is.
pub(crate) fn agreement(composer: &mut Composer<'_>, facts: &CertificateFacts) {
    let event = &facts.event;
    composer.paragraph(&Para::styled(&event.template_name, TextStyle::bold(18.0)), 0.0);
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

    for block in html::blocks(&event.content) {
        match block {
            Block::Heading { level, para } => {
                composer.space(if level <= 2 { 10.0 } else { 6.0 });
                // Keep a heading with the start of what follows it.
                composer.ensure(para.styles.first().map_or(12.0, |(_, s)| s.size) * 1.5 + 3.0 * BODY_SIZE * 1.45);
                composer.paragraph(&para, 0.0);
                composer.space(2.0);
            }
            Block::Paragraph { para, indent } => {
                composer.paragraph(&para, indent);
                composer.space(5.0);
            }
            Block::ListItem { marker, para, indent } => {
                composer.marked_paragraph(&marker, &para, indent.max(INDENT));
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
        let t = technical(r#"{"ipAddress":"203.0.113.7","userAgent":"Mozilla/5.0","client":{"sdk":"js","v":"1.2.0"}}"#);
        assert_eq!(t.ip_address.as_deref(), Some("203.0.113.7"));
        assert_eq!(t.user_agent.as_deref(), Some("Mozilla/5.0"));
        assert_eq!(t.client.as_deref(), Some("sdk: js; v: 1.2.0"));

        let t = technical(r#"{"ipAddress":"198.51.100.1","userAgent":null,"client":{}}"#);
        assert_eq!(t.ip_address.as_deref(), Some("198.51.100.1"));
        assert_eq!(t.user_agent, None);
        assert_eq!(t.client, None);

        let t = technical("not json");
        assert_eq!(t.client.as_deref(), Some("not json"));
    }

    #[test]
    fn long_values_are_cut() {
        let long = "x".repeat(MAX_VALUE_CHARS + 10);
        assert_eq!(truncate(&long).chars().count(), MAX_VALUE_CHARS + 1);
        assert_eq!(truncate("short"), "short");
    }
}
