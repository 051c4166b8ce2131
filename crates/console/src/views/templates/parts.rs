//! What the templates' pages share: badges, language lists, the settings form's fields and the
//! versions' compare form.

use clickwrap_domain::templates::models::Template;
use clickwrap_domain::templates::versioning::{VersionNumber, VersionState};
use clickwrap_domain::{Language, Timestamp};
use maud::{Markup, html};

use crate::views::components::{Tone, badge, language_label, language_select};

// ---- small shared pieces ---------------------------------------------------------------------------

pub(super) fn status_badges(template: &Template, now: Timestamp) -> Markup {
    html! {
        span.badges {
            @if template.versions.is_empty() {
                (badge(Tone::Neutral, "Draft only"))
            } @else if template.enabled {
                (badge(Tone::Ok, "Enabled"))
            } @else {
                (badge(Tone::Warn, "Disabled"))
            }
            @for (version, state) in template.version_states(now) {
                @if state == VersionState::Scheduled {
                    " " (badge(Tone::Info, &format!("Scheduled {}", version.number)))
                }
            }
        }
    }
}

pub(super) fn state_badge(state: VersionState) -> Markup {
    let tone = match state {
        VersionState::Scheduled => Tone::Info,
        VersionState::Effective => Tone::Ok,
        VersionState::Superseded => Tone::Neutral,
    };
    badge(tone, state.as_str())
}

pub(super) fn tags(template: &Template) -> Markup {
    html! {
        @if template.tags.is_empty() {
            span.muted { "none" }
        } @else {
            ul.tag-list { @for tag in &template.tags { li.tag { (tag.as_str()) } } }
        }
    }
}

pub(super) fn language_list(languages: &[Language]) -> Markup {
    html! {
        @for (index, language) in languages.iter().enumerate() {
            @if index > 0 { ", " }
            abbr title=(language_label(*language)) { (language.code()) }
        }
    }
}

pub(super) fn name_field(id: &str, value: &str) -> Markup {
    html! {
        div.field {
            label for=(id) { "Name" }
            input #(id) type="text" name="name" value=(value) required maxlength="200" autocomplete="off";
        }
    }
}

pub(super) fn tags_field(id: &str, value: &str) -> Markup {
    html! {
        div.field {
            label for=(id) { "Tags " span.optional { "(optional)" } }
            input #(id) type="text" name="tags" value=(value) autocomplete="off" spellcheck="false"
                aria-describedby={ (id) "-hint" };
            p.hint id={ (id) "-hint" } { "Comma separated, like legal, signup. No spaces inside a tag." }
        }
    }
}

/// GET form to the diff page; `current` preselects `a`, `b` and the language.
pub(super) fn compare_form(template: &Template, current: Option<(VersionNumber, VersionNumber, Language)>) -> Markup {
    let count = template.versions.len();
    let default_a = template.versions.get(count.saturating_sub(2)).map(|v| v.number);
    let default_b = template.latest_version().map(|v| v.number);
    let (a, b, language) = match current {
        Some((a, b, language)) => (Some(a), Some(b), language),
        None => (default_a, default_b, template.default_language),
    };
    let select = |id: &str, name: &str, label: &str, selected: Option<VersionNumber>| {
        html! {
            div.field {
                label for=(id) { (label) }
                select #(id) name=(name) {
                    @for version in &template.versions {
                        option value=(version.number) selected[Some(version.number) == selected] { (version.number) }
                    }
                }
            }
        }
    };
    html! {
        form.filters method="get" action={ "/console/templates/" (template.id) "/diff" } {
            (select("compare-a", "a", "From version", a))
            (select("compare-b", "b", "To version", b))
            div.field {
                label for="compare-language" { "Language" }
                (language_select("compare-language", "language", language))
            }
            button.button.secondary type="submit" { "Compare" }
        }
    }
}
