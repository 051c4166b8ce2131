//! `GET /console/templates/{id}`: a template's settings, availability, publishing, linked apps
//! and version history.

use clickwrap_domain::apps::models::App;
use clickwrap_domain::templates::models::Template;
use clickwrap_domain::templates::versioning::{VersionKind, VersionNumber};
use clickwrap_domain::{Language, Timestamp};
use maud::{Markup, html};

use super::parts::*;
use crate::views::components::{
    Tone, badge, breadcrumbs, code, confirm_checkbox, csrf_field, empty_state, fact, language_label, language_select,
    query_string, read_only_note, table_region, time_tag,
};
use crate::views::layout::{Chrome, page};

/// `GET /console/templates/{id}`: summary, settings, availability, publishing, linked apps and the
/// version history with a comparison form.
pub fn detail(chrome: &Chrome<'_>, template: &Template, now: Timestamp, apps: &[App]) -> Markup {
    let base = format!("/console/templates/{}", template.id);
    let tag_text = template.tags.iter().map(|t| t.as_str()).collect::<Vec<_>>().join(", ");
    page(
        chrome,
        template.name.as_str(),
        html! {
            (breadcrumbs(&[("Templates", "/console/templates".to_owned())]))
            h1 { (template.name) }
            p.actions {
                a.button.secondary href={ (base) "/draft" (query_string(&[("language", template.default_language.code())])) } {
                    @if chrome.can_change { "Edit draft" } @else { "View draft" }
                }
                a.button.secondary href={ (base) "/customizations" } { "Dialog customizations" }
            }
            section.card aria-labelledby="template-facts-heading" {
                h2 #template-facts-heading { "Summary" }
                dl.facts {
                    (fact("Template ID", code(&template.id.to_string())))
                    (fact("Status", status_badges(template, now)))
                    (fact("Effective version", html! {
                        @match template.effective_version(now) {
                            Some(version) => { (version.number) " since " (time_tag(version.effective_at)) }
                            None => span.muted { "none" },
                        }
                    }))
                    (fact("Default language", html! { (language_label(template.default_language)) }))
                    (fact("Tags", tags(template)))
                    (fact("Acceptance", html! {
                        @if template.always_require_acceptance { "Asked on every presentation" }
                        @else { "Asked once per major version" }
                    }))
                    (fact("Available to", linked_apps_text(template, apps)))
                    (fact("Created", time_tag(template.created_at)))
                    (fact("Last changed", time_tag(template.updated_at)))
                }
            }
            @if chrome.can_change {
                (settings_form(chrome, template, &base, &tag_text))
                (availability_forms(chrome, template, &base))
                (publish_form(chrome, template, &base))
                (apps_form(chrome, template, &base, apps))
            } @else {
                (read_only_note("Template settings, versions and availability"))
            }
            section.card aria-labelledby="versions-heading" {
                h2 #versions-heading { "Version history" }
                (version_table(template, now))
                @if template.versions.len() >= 2 {
                    (compare_form(template, None))
                }
            }
        },
    )
}

// ---- pieces of the detail page ------------------------------------------------------------------

fn settings_form(chrome: &Chrome<'_>, template: &Template, base: &str, tag_text: &str) -> Markup {
    html! {
        section.card aria-labelledby="template-settings-heading" {
            h2 #template-settings-heading { "Settings" }
            form.stack method="post" action={ (base) "/settings" } {
                (csrf_field(chrome))
                (name_field("template-name", template.name.as_str()))
                (tags_field("template-tags", tag_text))
                div.field {
                    label for="template-language" { "Default language" }
                    (language_select("template-language", "default_language", template.default_language))
                }
                div.field.check {
                    input #template-always type="checkbox" name="always_require_acceptance" value="on"
                        checked[template.always_require_acceptance] aria-describedby="template-always-hint";
                    label for="template-always" { "Always require acceptance" }
                    p.hint #template-always-hint { "Ask on every presentation, even after an earlier acceptance." }
                }
                button.button.primary type="submit" { "Save settings" }
            }
        }
    }
}

fn availability_forms(chrome: &Chrome<'_>, template: &Template, base: &str) -> Markup {
    html! {
        section.card aria-labelledby="availability-heading" {
            h2 #availability-heading { "Availability" }
            @if template.enabled {
                form.stack method="post" action={ (base) "/disable" } {
                    (csrf_field(chrome))
                    p { (badge(Tone::Ok, "Enabled")) " Clients are shown the effective version." }
                    (confirm_checkbox("confirm-disable", "I understand that end users will no longer be shown this template."))
                    button.button.danger type="submit" { "Disable template" }
                }
            } @else if template.versions.is_empty() {
                p { (badge(Tone::Neutral, "Draft only")) " Publish a version first; then the template can be enabled." }
            } @else {
                form.stack method="post" action={ (base) "/enable" } {
                    (csrf_field(chrome))
                    p { (badge(Tone::Warn, "Disabled")) " Clients are not shown this template." }
                    button.button.primary type="submit" { "Enable template" }
                }
            }
        }
    }
}

fn publish_form(chrome: &Chrome<'_>, template: &Template, base: &str) -> Markup {
    let latest = template.latest_version().map(|v| v.number);
    let next = |kind| VersionNumber::next(latest, kind).map(|n| n.to_string()).unwrap_or_else(|_| "none".to_owned());
    let draft_languages: Vec<Language> =
        template.draft.iter().filter(|(_, html)| !html.as_str().trim().is_empty()).map(|(l, _)| *l).collect();
    html! {
        section.card aria-labelledby="publish-heading" {
            h2 #publish-heading { "Publish the draft" }
            p {
                "Draft languages: "
                @if draft_languages.is_empty() { span.muted { "none: write the draft first" } } @else { (language_list(&draft_languages)) }
            }
            form.stack method="post" action={ (base) "/versions" } {
                (csrf_field(chrome))
                fieldset {
                    legend { "Kind of version" }
                    div.field.check {
                        input #publish-minor type="radio" name="kind" value="MINOR" checked required aria-describedby="publish-minor-hint";
                        label for="publish-minor" { "Minor (" (next(VersionKind::Minor)) ")" }
                        p.hint #publish-minor-hint { "Corrections: end users who accepted the current major version are not asked again." }
                    }
                    div.field.check {
                        input #publish-major type="radio" name="kind" value="MAJOR" aria-describedby="publish-major-hint";
                        label for="publish-major" { "Major (" (next(VersionKind::Major)) ")" }
                        p.hint #publish-major-hint { "Every end user is asked to accept again." }
                    }
                }
                div.field {
                    label for="publish-effective-at" { "Effective at " span.optional { "(optional)" } }
                    input #publish-effective-at type="datetime-local" name="effective_at" step="1" aria-describedby="publish-effective-at-hint";
                    p.hint #publish-effective-at-hint {
                        "Interpreted as UTC. Leave empty to make the version effective at once; a later time schedules it."
                    }
                }
                button.button.primary type="submit" { "Publish version" }
            }
        }
    }
}

fn apps_form(chrome: &Chrome<'_>, template: &Template, base: &str, apps: &[App]) -> Markup {
    html! {
        section.card aria-labelledby="linked-apps-heading" {
            h2 #linked-apps-heading { "Linked apps" }
            @if apps.is_empty() {
                (empty_state("No apps yet: the template is available to every app you create."))
            } @else {
                form.stack method="post" action={ (base) "/apps" } {
                    (csrf_field(chrome))
                    fieldset aria-describedby="linked-apps-hint" {
                        legend { "Apps that may use this template" }
                        p.hint #linked-apps-hint { "None checked: available to every app of the tenant." }
                        @for app in apps {
                            div.field.check {
                                input id={ "app-" (app.id) } type="checkbox" name="app_ids" value=(app.id)
                                    checked[template.app_ids.contains(&app.id)];
                                label for={ "app-" (app.id) } { (app.name) }
                            }
                        }
                    }
                    button.button.primary type="submit" { "Save linked apps" }
                }
            }
        }
    }
}

fn version_table(template: &Template, now: Timestamp) -> Markup {
    let base = format!("/console/templates/{}", template.id);
    if template.versions.is_empty() {
        return empty_state("No versions published yet.");
    }
    table_region(
        "Version history",
        html! {
            table {
                caption.visually-hidden { "Version history, oldest first" }
                thead { tr {
                    th scope="col" { "Version" }
                    th scope="col" { "State" }
                    th scope="col" { "Effective at" }
                    th scope="col" { "Published at" }
                    th scope="col" { "Languages" }
                    th scope="col" { span.visually-hidden { "Actions" } }
                } }
                tbody {
                    @for (version, state) in template.version_states(now) {
                        tr {
                            th scope="row" { (version.number) }
                            td { (state_badge(state)) }
                            td { (time_tag(version.effective_at)) }
                            td { (time_tag(version.published_at)) }
                            td { (language_list(&version.languages())) }
                            td {
                                a href={ (base) "/versions/" (version.number.major) "." (version.number.minor) } {
                                    "View" span.visually-hidden { " version " (version.number) }
                                }
                            }
                        }
                    }
                }
            }
        },
    )
}

/// The apps a template is linked to, each a link to its page; none means every app.
fn linked_apps_text(template: &Template, apps: &[App]) -> Markup {
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
