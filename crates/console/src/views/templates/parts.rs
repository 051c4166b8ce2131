//! What the templates' pages share: the draft editor's sample placeholders, the SDK script, badges
//! and the settings form's fields.

use clickwrap_domain::apps::models::App;
use clickwrap_domain::templates::models::Template;
use clickwrap_domain::templates::versioning::VersionState;
use clickwrap_domain::{Language, Timestamp};
use maud::{Markup, html};

use crate::views::components::{Tone, badge, language_label};

/// The named placeholders an operator can write in content (`{{fullName}}` …), in the domain's
/// order; the draft editor offers a sample value for each.
pub(super) const SAMPLE_PLACEHOLDERS: [&str; 9] =
    ["fullName", "email", "company", "jobTitle", "date", "phoneNumber", "registrationNumber", "vatNumber", "address"];

/// The SDK script the customizations page loads for its dialog preview.
pub(super) const SDK_SCRIPT: &str = "/sdk/v1/clickwrap.js";

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

/// The effective version's languages, or else the draft's (marked as such).
pub(super) fn languages(template: &Template, now: Timestamp) -> Markup {
    match template.effective_version(now) {
        Some(version) => language_list(&version.languages()),
        None => {
            let draft: Vec<Language> = template.draft.keys().copied().collect();
            if draft.is_empty() {
                html! { span.muted { "none" } }
            } else {
                html! { (language_list(&draft)) " " span.muted { "(draft)" } }
            }
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

pub(super) fn linked_apps_text(template: &Template, apps: &[App]) -> Markup {
    if template.app_ids.is_empty() {
        return html! { "Every app" };
    }
    html! {
        ul.plain-list {
            @for id in &template.app_ids {
                li {
                    @match apps.iter().find(|app| app.id == *id) {
                        Some(app) => a href={ "/console/apps/" (app.id) } { (app.name) },
                        None => code.id { (id) },
                    }
                }
            }
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
