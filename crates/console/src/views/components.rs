//! Pieces shared by the pages: times, badges, tables, copy fields, confirm checkboxes, sandboxed
//! previews, and the not-found and error pages.

use std::fmt::Write as _;

use clickwrap_domain::webhooks::models::DeliveryState;
use clickwrap_domain::{Language, Timestamp};
use maud::{DOCTYPE, Markup, PreEscaped, html};

use super::layout::{Chrome, page};

/// `2026-11-22 07:15:03 UTC`.
pub fn format_timestamp(at: Timestamp) -> String {
    let d = at.as_datetime();
    format!(
        "{:04}-{:02}-{:02} {:02}:{:02}:{:02} UTC",
        d.year(),
        u8::from(d.month()),
        d.day(),
        d.hour(),
        d.minute(),
        d.second()
    )
}

/// A `<time>` with the RFC 3339 instant as its `datetime`, shown as `YYYY-MM-DD HH:MM:SS UTC`.
pub fn time_tag(at: Timestamp) -> Markup {
    html! { time datetime=(at.to_rfc3339()) { (format_timestamp(at)) } }
}

/// [`time_tag`], or `none_text` in a muted style.
pub fn optional_time(at: Option<Timestamp>, none_text: &str) -> Markup {
    match at {
        Some(at) => time_tag(at),
        None => html! { span.muted { (none_text) } },
    }
}

/// How a badge reads at a glance; its text always says the same in words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    Ok,
    Warn,
    Error,
    Info,
    Neutral,
}

impl Tone {
    const fn class(self) -> &'static str {
        match self {
            Tone::Ok => "badge badge-ok",
            Tone::Warn => "badge badge-warn",
            Tone::Error => "badge badge-error",
            Tone::Info => "badge badge-info",
            Tone::Neutral => "badge badge-neutral",
        }
    }
}

pub fn badge(tone: Tone, text: &str) -> Markup {
    html! { span class=(tone.class()) { (text) } }
}

/// A webhook delivery's state.
pub(crate) fn delivery_state_badge(state: DeliveryState) -> Markup {
    let tone = match state {
        DeliveryState::Pending => Tone::Info,
        DeliveryState::Delivered => Tone::Ok,
        DeliveryState::Failed => Tone::Error,
        DeliveryState::Disabled => Tone::Neutral,
    };
    badge(tone, state.as_str())
}

/// The hidden `csrf_token` field every POST form carries.
pub(crate) fn csrf_field(chrome: &Chrome<'_>) -> Markup {
    html! { input type="hidden" name="csrf_token" value=(chrome.csrf_token); }
}

/// What a list shows when it has nothing to show.
pub fn empty_state(text: &str) -> Markup {
    html! { p.empty-state { (text) } }
}

/// A table inside a labelled region that scrolls horizontally (and can be scrolled by keyboard)
/// when the screen is narrower than the table. The region is named after the table, not after
/// the section around it, so that no two landmarks share a name.
pub(crate) fn table_region(label: &str, table: Markup) -> Markup {
    html! { div.table-wrap role="region" aria-label={ (label) " (table)" } tabindex="0" { (table) } }
}

/// Links to the pages above this one (the current page is the `h1` that follows).
pub(crate) fn breadcrumbs(trail: &[(&str, String)]) -> Markup {
    html! {
        nav.breadcrumbs aria-label="Breadcrumb" {
            ol { @for (label, href) in trail { li { a href=(href) { (label) } } } }
        }
    }
}

/// A read-only value with a Copy button (the script copies it; without the script it can be
/// selected by hand).
pub(crate) fn copy_field(id: &str, label: &str, value: &str) -> Markup {
    html! {
        div.field {
            label for=(id) { (label) }
            div.copy-row {
                input.mono #(id) type="text" readonly value=(value) spellcheck="false" autocomplete="off";
                button.button.secondary type="button" data-copy={ "#" (id) } {
                    "Copy" span.visually-hidden { " " (label) }
                }
            }
        }
    }
}

/// The required "I understand …" checkbox of a destructive action, named `confirm`.
pub(crate) fn confirm_checkbox(id: &str, text: &str) -> Markup {
    html! {
        div.field.check {
            input #(id) type="checkbox" name="confirm" value="yes" required;
            label for=(id) { (text) }
        }
    }
}

/// A note in place of change forms for a read-only session.
pub(crate) fn read_only_note(what: &str) -> Markup {
    html! {
        p.note {
            span.badge.badge-warn { "Read-only" }
            " " (what) " can be changed with an ADMIN operator token."
        }
    }
}

/// Agreement content (an HTML fragment) in a sandboxed frame (no scripts, no same origin), as the
/// document of [`agreement_document`].
pub(crate) fn sandboxed_html(id: &str, title: &str, html_text: &str, language: Language) -> Markup {
    html! { iframe.preview-frame #(id) sandbox="" title=(title) srcdoc=(agreement_document(html_text, language)) {} }
}

/// A whole document around agreement content, styled as the SDK's dialog shows it: what the
/// console's preview frames load. (A frame inherits the page's policy, so the style is linked.)
pub fn agreement_document(fragment: &str, language: Language) -> String {
    let document = html! {
        (DOCTYPE)
        html lang=(language.code()) {
            head {
                meta charset="utf-8";
                link rel="stylesheet" href=(crate::assets::PREVIEW_CSS.path);
            }
            body { (PreEscaped(fragment)) }
        }
    };
    document.into_string()
}

/// HTML source text in a collapsed `<details>`.
pub(crate) fn html_source(summary: &str, html_text: &str) -> Markup {
    html! {
        details.source {
            summary { (summary) }
            pre.code { code { (html_text) } }
        }
    }
}

/// One `<dt>`/`<dd>` pair of a facts list.
pub(crate) fn fact(term: &str, value: Markup) -> Markup {
    html! { div { dt { (term) } dd { (value) } } }
}

/// A long identifier or hash, in a monospaced style that wraps anywhere.
pub(crate) fn code(text: &str) -> Markup {
    html! { code.id { (text) } }
}

/// Lower-case hexadecimal.
pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::with_capacity(bytes.len() * 2), |mut out, byte| {
        let _ = write!(out, "{byte:02x}");
        out
    })
}

/// `12,345`.
pub(crate) fn group_digits(value: u64) -> String {
    let digits = value.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (index, c) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `English (en)`.
pub(crate) fn language_label(language: Language) -> String {
    let name = match language {
        Language::English => "English",
        Language::German => "German",
        Language::French => "French",
        Language::Spanish => "Spanish",
        Language::Chinese => "Chinese",
        Language::Hindi => "Hindi",
        Language::Russian => "Russian",
    };
    format!("{name} ({})", language.code())
}

/// A `<select>` of the launch languages.
pub(crate) fn language_select(id: &str, name: &str, selected: Language) -> Markup {
    html! {
        select #(id) name=(name) {
            @for language in Language::ALL {
                option value=(language.code()) selected[language == selected] { (language_label(language)) }
            }
        }
    }
}

/// A query string (`?a=1&b=2`, or empty) of the pairs whose value is not empty, percent-encoded.
pub(crate) fn query_string(pairs: &[(&str, &str)]) -> String {
    let mut out = String::new();
    for (name, value) in pairs.iter().filter(|(_, value)| !value.is_empty()) {
        out.push(if out.is_empty() { '?' } else { '&' });
        out.push_str(&percent_encode(name));
        out.push('=');
        out.push_str(&percent_encode(value));
    }
    out
}

/// Everything but ASCII letters, digits and `-._~` as `%XX`.
pub(crate) fn percent_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(byte));
        } else {
            let _ = write!(out, "%{byte:02X}");
        }
    }
    out
}

/// The small mark next to the product name.
pub(crate) fn logo() -> Markup {
    html! {
        svg.logo xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false" {
            rect.logo-page x="4" y="2" width="16" height="20" rx="2" {}
            path.logo-check d="M8 12.5l2.5 2.5L16 9.5" {}
        }
    }
}

/// 404: `what` could not be found (or belongs to another tenant: the console does not say which).
pub fn not_found(chrome: &Chrome<'_>, what: &str) -> Markup {
    page(
        chrome,
        "Not found",
        html! {
            h1 { "Not found" }
            section.card {
                p { "The " (what) " could not be found. It may have been deleted, or the link may be mistyped." }
                p { a href=(chrome.section.href()) { "Back to " (chrome.section.label()) } }
            }
        },
    )
}

/// Any other error page: the HTTP `status` and a message for the operator.
pub fn error_page(chrome: &Chrome<'_>, status: u16, message: &str) -> Markup {
    let heading = match status {
        400 => "The request could not be used",
        401 => "Sign-in needed",
        403 => "Not allowed",
        404 => "Not found",
        409 => "Conflict",
        429 => "Too many requests",
        500..=599 => "Something went wrong",
        _ => "Error",
    };
    page(
        chrome,
        heading,
        html! {
            h1 { (heading) }
            section.card {
                p.muted { "HTTP status " (status) }
                p.error-text { (message) }
                p { a href=(chrome.section.href()) { "Back to " (chrome.section.label()) } }
            }
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::views::test_support::*;

    #[test]
    fn times_are_utc_with_a_machine_readable_datetime() {
        let html = time_tag(at("2026-11-22T08:15:03.123+01:00")).into_string();
        assert_eq!(html, r#"<time datetime="2026-11-22T07:15:03.123Z">2026-11-22 07:15:03 UTC</time>"#);
        assert!(optional_time(None, "never").into_string().contains("never"));
    }

    #[test]
    fn small_formatters() {
        assert_eq!(group_digits(0), "0");
        assert_eq!(group_digits(999), "999");
        assert_eq!(group_digits(1_000), "1,000");
        assert_eq!(group_digits(12_345_678), "12,345,678");
        assert_eq!(hex(&[0, 15, 255]), "000fff");
        assert_eq!(query_string(&[("a", "x y&z"), ("b", ""), ("c", "é")]), "?a=x%20y%26z&c=%C3%A9");
        assert_eq!(query_string(&[("a", "")]), "");
        assert_eq!(language_label(Language::Hindi), "Hindi (hi)");
    }

    #[test]
    fn copy_fields_name_their_target() {
        let html = copy_field("app-key", "App Key", "k<1>").into_string();
        assert!(html.contains(r##"data-copy="#app-key""##));
        assert!(html.contains(r#"value="k&lt;1&gt;""#));
        assert!(html.contains(r#"<label for="app-key">App Key</label>"#));
    }

    #[test]
    fn not_found_and_error_pages() {
        let html = not_found(&admin(), "app <x>").into_string();
        assert!(html.contains("<h1>Not found</h1>") && html.contains("app &lt;x&gt;"));
        assert_common_rules(&html);
        let html = error_page(&viewer(), 403, "Viewer tokens cannot change anything").into_string();
        assert!(html.contains("Not allowed") && html.contains("HTTP status 403"));
        assert_common_rules(&html);
        assert_no_change_forms(&html);
    }
}
