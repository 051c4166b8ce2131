//! The page chrome: document head, header with the session, navigation, flash message.

use std::fmt;

use maud::{DOCTYPE, Markup, html};

use super::components::{Tone, badge, csrf_field, logo};
use crate::assets;

/// The console's areas, one per navigation link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    Overview,
    Apps,
    Templates,
    Events,
    Audit,
    Tokens,
}

impl Section {
    pub const ALL: [Section; 6] =
        [Section::Overview, Section::Apps, Section::Templates, Section::Events, Section::Audit, Section::Tokens];

    pub const fn label(self) -> &'static str {
        match self {
            Section::Overview => "Overview",
            Section::Apps => "Apps",
            Section::Templates => "Templates",
            Section::Events => "Events",
            Section::Audit => "Audit log",
            Section::Tokens => "Operator tokens",
        }
    }

    pub const fn href(self) -> &'static str {
        match self {
            Section::Overview => "/console",
            Section::Apps => "/console/apps",
            Section::Templates => "/console/templates",
            Section::Events => "/console/events",
            Section::Audit => "/console/audit",
            Section::Tokens => "/console/tokens",
        }
    }
}

/// A message about the previous action, shown once at the top of the next page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flash<'a> {
    /// Announced politely (`role="status"`).
    Success(&'a str),
    /// Announced at once (`role="alert"`).
    Error(&'a str),
}

/// What every page's frame needs to know about the session and the request.
#[derive(Clone, Copy)]
pub struct Chrome<'a> {
    pub tenant_name: &'a str,
    /// The name of the operator token the session was opened with.
    pub operator_name: &'a str,
    /// False for a VIEWER: no change forms or buttons are rendered, and a "read-only" badge is shown.
    pub can_change: bool,
    /// Goes into every POST form as the hidden field `csrf_token`, and into
    /// `<meta name="csrf-token">` for the script's requests.
    pub csrf_token: &'a str,
    /// The highlighted navigation link.
    pub section: Section,
    pub flash: Option<Flash<'a>>,
}

/// The CSRF token is left out: debug output ends up in logs.
impl fmt::Debug for Chrome<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Chrome")
            .field("tenant_name", &self.tenant_name)
            .field("operator_name", &self.operator_name)
            .field("can_change", &self.can_change)
            .field("section", &self.section)
            .field("flash", &self.flash)
            .finish_non_exhaustive()
    }
}

/// A whole console page: `title` goes into `<title>`; `body` (which brings its own `h1`) into `<main>`.
pub fn page(chrome: &Chrome<'_>, title: &str, body: Markup) -> Markup {
    page_with_scripts(chrome, title, &[], body)
}

/// [`page`] that also loads `scripts` (same-origin URLs, with `defer`), such as the SDK on the
/// customizations page.
pub(crate) fn page_with_scripts(chrome: &Chrome<'_>, title: &str, scripts: &[&str], body: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            (head(title, chrome.csrf_token, scripts))
            body {
                a.skip-link href="#main" { "Skip to main content" }
                header.site-header {
                    div.brand {
                        (logo())
                        span.brand-name { "Clickwrap console" }
                    }
                    div.session {
                        span.session-tenant {
                            span.visually-hidden { "Tenant: " }
                            (chrome.tenant_name)
                        }
                        span.session-operator {
                            span.session-label { "Signed in as " }
                            (chrome.operator_name)
                        }
                        @if chrome.can_change {
                            (badge(Tone::Info, "Admin"))
                        } @else {
                            (badge(Tone::Warn, "Viewer · read-only"))
                        }
                        form.inline-form method="post" action="/console/logout" {
                            (csrf_field(chrome))
                            button.button.secondary.small type="submit" { "Sign out" }
                        }
                    }
                }
                nav.site-nav aria-label="Console" {
                    ul {
                        @for section in Section::ALL {
                            li {
                                a href=(section.href()) aria-current=[(section == chrome.section).then_some("page")] {
                                    (section.label())
                                }
                            }
                        }
                    }
                }
                main #main tabindex="-1" {
                    @if let Some(flash) = chrome.flash {
                        (flash_message(flash))
                    }
                    (body)
                }
                div #console-announcer .visually-hidden role="status" aria-live="polite" {}
            }
        }
    }
}

/// The document head; an empty `csrf_token` (no session: the login page) leaves its meta tag out.
pub(crate) fn head(title: &str, csrf_token: &str, scripts: &[&str]) -> Markup {
    html! {
        head {
            meta charset="utf-8";
            meta name="viewport" content="width=device-width, initial-scale=1";
            meta name="referrer" content="same-origin";
            @if !csrf_token.is_empty() {
                meta name="csrf-token" content=(csrf_token);
            }
            title { (title) " · Clickwrap console" }
            // No favicon: the browser would otherwise ask for /favicon.ico on every page.
            link rel="icon" href="data:,";
            link rel="stylesheet" href=(assets::CSS.path);
            script src=(assets::JS.path) defer {}
            @for script in scripts {
                script src=(script) defer {}
            }
        }
    }
}

fn flash_message(flash: Flash<'_>) -> Markup {
    match flash {
        Flash::Success(text) => html! {
            div.flash.flash-success role="status" {
                span.flash-icon aria-hidden="true" { "✓" }
                p { (text) }
            }
        },
        Flash::Error(text) => html! {
            div.flash.flash-error role="alert" {
                span.flash-icon aria-hidden="true" { "!" }
                p { (text) }
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::views::test_support::*;

    #[test]
    fn the_frame_has_head_nav_session_and_main() {
        let chrome = Chrome { section: Section::Templates, ..admin() };
        let html = page(&chrome, "Templates", html! { h1 { "Templates" } }).into_string();
        assert!(html.starts_with("<!DOCTYPE html><html lang=\"en\">"));
        for needle in [
            r#"<meta charset="utf-8">"#,
            r#"<meta name="viewport" content="width=device-width, initial-scale=1">"#,
            "<title>Templates · Clickwrap console</title>",
            r#"<link rel="stylesheet" href="/console/assets/console.css">"#,
            r#"<script src="/console/assets/console.js" defer></script>"#,
            r##"<a class="skip-link" href="#main">"##,
            r#"<meta name="csrf-token" content="csrf-123">"#,
            r#"<nav class="site-nav" aria-label="Console">"#,
            r#"<a href="/console/templates" aria-current="page">Templates</a>"#,
            r#"<a href="/console">Overview</a>"#,
            r#"<a href="/console/apps">Apps</a>"#,
            r#"<a href="/console/events">Events</a>"#,
            r#"<a href="/console/audit">Audit log</a>"#,
            r#"<a href="/console/tokens">Operator tokens</a>"#,
            r#"<form class="inline-form" method="post" action="/console/logout">"#,
            r#"<main id="main" tabindex="-1">"#,
            "Acme &amp; Co",
            "ci-bot",
            "Admin",
        ] {
            assert!(html.contains(needle), "missing {needle}");
        }
        assert_eq!(html.matches("aria-current").count(), 1);
        assert_common_rules(&html);
    }

    #[test]
    fn viewers_see_a_read_only_badge_and_flashes_are_announced() {
        let chrome = Chrome { flash: Some(Flash::Error("Name <b>taken</b>")), ..viewer() };
        let html = page(&chrome, "x", html! { h1 { "x" } }).into_string();
        assert!(html.contains("read-only"));
        assert!(html.contains(r#"role="alert""#) && html.contains("Name &lt;b&gt;taken&lt;/b&gt;"));
        let chrome = Chrome { flash: Some(Flash::Success("Saved")), ..admin() };
        let html = page(&chrome, "x", html! { h1 { "x" } }).into_string();
        assert!(html.contains(r#"<div class="flash flash-success" role="status">"#));
    }

    #[test]
    fn debug_output_leaves_the_csrf_token_out() {
        assert!(!format!("{:?}", admin()).contains("csrf-123"));
    }
}
