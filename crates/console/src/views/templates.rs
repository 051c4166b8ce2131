//! Templates: the list and create form, a template's settings, publishing, availability and
//! version history, the draft editor with live preview, a published version, the comparison of two
//! versions, and the dialog customizations.

use clickwrap_domain::apps::models::App;
use clickwrap_domain::content::placeholders::{PlaceholderName, placeholders_in};
use clickwrap_domain::templates::customizations::{
    AgreementMode, BORDER_RADIUS_MAX, ButtonStyle, Color, Customizations, TEXT_MAX_CHARS, TextOverrides,
};
use clickwrap_domain::templates::models::{Template, TemplateVersion};
use clickwrap_domain::templates::versioning::{VersionKind, VersionNumber, VersionState};
use clickwrap_domain::{Language, Timestamp};
use maud::{Markup, html};

pub use crate::diff::{DiffLine, diff_lines};

use super::components::{
    Tone, badge, breadcrumbs, code, confirm_checkbox, csrf_field, empty_state, fact, html_source, language_label,
    language_select, query_string, read_only_note, sandboxed_html, table_region, time_tag,
};
use super::layout::{Chrome, page, page_with_scripts};

/// The named placeholders an operator can write in content (`{{fullName}}` …), in the domain's
/// order; the draft editor offers a sample value for each.
pub const SAMPLE_PLACEHOLDERS: [&str; 9] =
    ["fullName", "email", "company", "jobTitle", "date", "phoneNumber", "registrationNumber", "vatNumber", "address"];

/// The SDK script the customizations page loads for its dialog preview.
pub const SDK_SCRIPT: &str = "/sdk/v1/clickwrap.js";

/// `GET /console/templates?tag=`: the templates (already filtered by the caller), a tag filter and
/// (for an ADMIN) the create form.
pub fn list(
    chrome: &Chrome<'_>,
    templates: &[Template],
    now: Timestamp,
    tag_filter: Option<&str>,
    all_tags: &[String],
) -> Markup {
    let tag_filter = tag_filter.filter(|tag| !tag.is_empty());
    page(
        chrome,
        "Templates",
        html! {
            h1 { "Templates" }
            section.card aria-labelledby="templates-heading" {
                h2 #templates-heading { "Your templates" }
                form.filters method="get" action="/console/templates" {
                    div.field {
                        label for="tag-filter" { "Tag" }
                        select #tag-filter name="tag" {
                            option value="" selected[tag_filter.is_none()] { "All tags" }
                            @for tag in all_tags {
                                option value=(tag) selected[tag_filter == Some(tag.as_str())] { (tag) }
                            }
                            @if let Some(tag) = tag_filter.filter(|t| !all_tags.iter().any(|known| known == t)) {
                                option value=(tag) selected { (tag) }
                            }
                        }
                    }
                    button.button.secondary type="submit" { "Filter" }
                    @if tag_filter.is_some() { a href="/console/templates" { "Clear filter" } }
                }
                @if templates.is_empty() {
                    @match tag_filter {
                        Some(tag) => (empty_state(&format!("No templates with the tag {tag}."))),
                        None => (empty_state("No templates yet. Create one, write its draft, then publish a version.")),
                    }
                } @else {
                    (table_region("Templates", html! {
                        table {
                            caption.visually-hidden { "Templates" }
                            thead { tr {
                                th scope="col" { "Name" }
                                th scope="col" { "Tags" }
                                th scope="col" { "Status" }
                                th scope="col" { "Effective version" }
                                th scope="col" { "Languages" }
                                th scope="col" { "Last changed" }
                            } }
                            tbody {
                                @for template in templates {
                                    tr {
                                        th scope="row" { a href={ "/console/templates/" (template.id) } { (template.name) } }
                                        td { (tags(template)) }
                                        td { (status_badges(template, now)) }
                                        td {
                                            @match template.effective_version(now) {
                                                Some(version) => (version.number),
                                                None => span.muted { "none" },
                                            }
                                        }
                                        td { (languages(template, now)) }
                                        td { (time_tag(template.updated_at)) }
                                    }
                                }
                            }
                        }
                    }))
                }
            }
            @if chrome.can_change {
                section.card aria-labelledby="create-template-heading" {
                    h2 #create-template-heading { "Create a template" }
                    form.stack method="post" action="/console/templates" {
                        (csrf_field(chrome))
                        (name_field("new-template-name", ""))
                        (tags_field("new-template-tags", ""))
                        div.field {
                            label for="new-template-language" { "Default language" }
                            (language_select("new-template-language", "default_language", Language::English))
                        }
                        button.button.primary type="submit" { "Create template" }
                    }
                }
            } @else {
                (read_only_note("Templates"))
            }
        },
    )
}

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

/// `GET /console/templates/{id}/draft?language=xx`: the draft in one language, with a live
/// preview (`preview_html`: the server-rendered draft with sample values) in a sandboxed frame.
pub fn draft(chrome: &Chrome<'_>, template: &Template, language: Language, preview_html: &str) -> Markup {
    let base = format!("/console/templates/{}", template.id);
    let content = template.draft.get(&language).map(|html| html.as_str()).unwrap_or_default();
    let label = language_label(language);
    let customs: Vec<String> = placeholders_in(content)
        .unwrap_or_default()
        .into_iter()
        .filter(|name| matches!(name, PlaceholderName::Custom(_)))
        .map(|name| name.to_string())
        .collect();
    page(
        chrome,
        &format!("Draft ({label}): {}", template.name),
        html! {
            (breadcrumbs(&[("Templates", "/console/templates".to_owned()), (template.name.as_str(), base.clone())]))
            h1 { "Draft: " (template.name) }
            nav.tabs aria-label="Draft languages" {
                ul {
                    @for other in Language::ALL {
                        @let written = template.draft.get(&other).is_some_and(|html| !html.as_str().trim().is_empty());
                        li {
                            a href={ (base) "/draft" (query_string(&[("language", other.code())])) }
                                aria-current=[(other == language).then_some("page")] {
                                (language_label(other))
                                @if written {
                                    span.tab-mark aria-hidden="true" { " ●" }
                                    span.visually-hidden { " (has content)" }
                                } @else {
                                    span.visually-hidden { " (empty)" }
                                }
                            }
                        }
                    }
                }
            }
            div.editor {
                section.card aria-labelledby="draft-heading" {
                    h2 #draft-heading { "Content in " (label) }
                    @if chrome.can_change {
                        form.stack method="post" action={ (base) "/draft" } {
                            (csrf_field(chrome))
                            input type="hidden" name="language" value=(language.code());
                            (draft_textarea(content, language, false))
                            button.button.primary type="submit" { "Save draft" }
                        }
                    } @else {
                        (draft_textarea(content, language, true))
                        (read_only_note("The draft"))
                    }
                }
                section.card aria-labelledby="preview-heading" {
                    h2 #preview-heading { "Preview" }
                    fieldset.samples {
                        legend { "Sample placeholder values" }
                        p.hint { "Only for the preview; nothing here is saved." }
                        div.sample-grid {
                            @for name in SAMPLE_PLACEHOLDERS {
                                (sample_input(name))
                            }
                            @for name in &customs {
                                (sample_input(name))
                            }
                        }
                    }
                    (sandboxed_html("preview-frame", "Preview of the agreement", preview_html, language))
                }
            }
        },
    )
}

/// `GET /console/templates/{id}/versions/{n.m}`: a published version's content in every language.
pub fn version(chrome: &Chrome<'_>, template: &Template, version: &TemplateVersion, now: Timestamp) -> Markup {
    let base = format!("/console/templates/{}", template.id);
    let state = template.version_states(now).into_iter().find(|(v, _)| v.number == version.number).map(|(_, s)| s);
    let previous = template.versions.iter().rev().find(|v| v.number < version.number);
    page(
        chrome,
        &format!("Version {}: {}", version.number, template.name),
        html! {
            (breadcrumbs(&[("Templates", "/console/templates".to_owned()), (template.name.as_str(), base.clone())]))
            h1 { "Version " (version.number) }
            section.card aria-labelledby="version-facts-heading" {
                h2 #version-facts-heading { "Summary" }
                dl.facts {
                    (fact("Template", html! { a href=(base) { (template.name) } }))
                    (fact("State", html! { @if let Some(state) = state { (state_badge(state)) } }))
                    (fact("Effective at", time_tag(version.effective_at)))
                    (fact("Published at", time_tag(version.published_at)))
                    (fact("Languages", language_list(&version.languages())))
                }
                @if let Some(previous) = previous {
                    @let language = if version.content.contains_key(&template.default_language) {
                        template.default_language
                    } else {
                        version.languages().first().copied().unwrap_or(template.default_language)
                    };
                    p {
                        a href={ (base) "/diff" (query_string(&[
                            ("a", &previous.number.to_string()),
                            ("b", &version.number.to_string()),
                            ("language", language.code()),
                        ])) } { "Compare with version " (previous.number) }
                    }
                }
            }
            @for (language, content) in &version.content {
                @let label = language_label(*language);
                section.card aria-labelledby={ "content-" (language.code()) } {
                    h2 id={ "content-" (language.code()) } { (label) }
                    (sandboxed_html(&format!("frame-{}", language.code()), &format!("Version {} in {label}", version.number), content.as_str(), *language))
                    (html_source("HTML source", content.as_str()))
                }
            }
            @if version.content.is_empty() { (empty_state("This version has no content.")) }
        },
    )
}

/// `GET /console/templates/{id}/diff?a=&b=&language=`: `lines` (see [`diff_lines`]) from version
/// `a` to version `b` in `language`, side by side on wide screens.
pub fn diff(
    chrome: &Chrome<'_>,
    template: &Template,
    a: &TemplateVersion,
    b: &TemplateVersion,
    language: Language,
    lines: &[DiffLine],
) -> Markup {
    let base = format!("/console/templates/{}", template.id);
    let removed = lines.iter().filter(|l| matches!(l, DiffLine::Removed(_))).count();
    let added = lines.iter().filter(|l| matches!(l, DiffLine::Added(_))).count();
    let missing: Vec<String> =
        [a, b].iter().filter(|v| !v.content.contains_key(&language)).map(|v| v.number.to_string()).collect();
    page(
        chrome,
        &format!("Compare {} and {}: {}", a.number, b.number, template.name),
        html! {
            (breadcrumbs(&[("Templates", "/console/templates".to_owned()), (template.name.as_str(), base.clone())]))
            h1 { "Compare " (a.number) " and " (b.number) }
            section.card aria-labelledby="compare-heading" {
                h2 #compare-heading { "Versions" }
                (compare_form(template, Some((a.number, b.number, language))))
            }
            section.card aria-labelledby="diff-heading" {
                h2 #diff-heading { "Changes in " (language_label(language)) }
                @for number in &missing {
                    p.note { "Version " (number) " has no content in " (language_label(language)) "." }
                }
                @if removed == 0 && added == 0 {
                    (empty_state("No differences."))
                } @else {
                    p.diff-summary {
                        span.diff-count-removed { (removed) " removed" } ", "
                        span.diff-count-added { (added) " added" }
                        @if removed + added > 0 { " line" @if removed + added != 1 { "s" } }
                    }
                }
                @if !lines.is_empty() {
                    div.diff {
                        div.diff-row.diff-head aria-hidden="true" {
                            div.diff-cell { "Version " (a.number) }
                            div.diff-cell { "Version " (b.number) }
                        }
                        ol.diff-rows {
                            @for row in diff_rows(lines) {
                                li.diff-row { (diff_cell(row.0, Side::Old)) (diff_cell(row.1, Side::New)) }
                            }
                        }
                    }
                }
            }
        },
    )
}

/// `GET /console/templates/{id}/customizations`: how the dialog looks and reads, with a preview
/// through the real SDK (loaded on this page).
pub fn customizations(chrome: &Chrome<'_>, template: &Template) -> Markup {
    let base = format!("/console/templates/{}", template.id);
    let c = &template.customizations;
    page_with_scripts(
        chrome,
        &format!("Dialog customizations: {}", template.name),
        &[SDK_SCRIPT],
        html! {
            (breadcrumbs(&[("Templates", "/console/templates".to_owned()), (template.name.as_str(), base.clone())]))
            h1 { "Dialog customizations" }
            @if chrome.can_change {
                form #customizations-form .stack method="post" action={ (base) "/customizations" } {
                    (csrf_field(chrome))
                    (customization_fields(c))
                    div.button-row {
                        button.button.primary type="submit" { "Save customizations" }
                    }
                }
            } @else {
                (customizations_summary(c))
                (read_only_note("Dialog customizations"))
            }
            section.card aria-labelledby="dialog-preview-heading" {
                h2 #dialog-preview-heading { "Preview" }
                p.hint {
                    "Opens the dialog as end users see it, with the effective version's content"
                    @if chrome.can_change { " and the values in the form above (saved or not)" } "."
                }
                div.filters {
                    div.field {
                        label for="dialog-preview-language" { "Preview language" }
                        select #dialog-preview-language {
                            @for language in Language::ALL {
                                option value=(language.code()) selected[language == template.default_language] { (language_label(language)) }
                            }
                        }
                    }
                    button #dialog-preview .button.secondary type="button" data-template-id=(template.id) { "Preview dialog" }
                }
                p #dialog-preview-status .hint role="status" {}
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

/// GET form to the diff page; `current` preselects `a`, `b` and the language.
fn compare_form(template: &Template, current: Option<(VersionNumber, VersionNumber, Language)>) -> Markup {
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

// ---- pieces of the draft, diff and customizations pages -----------------------------------------

fn draft_textarea(content: &str, language: Language, read_only: bool) -> Markup {
    html! {
        div.field {
            label for="draft-content" { "HTML in " (language_label(language)) }
            textarea #draft-content .code-input name="content" rows="24" spellcheck="false"
                data-preview-target="#preview-frame" data-language=(language.code()) readonly[read_only] aria-describedby="draft-content-hint" { (content) }
            p.hint #draft-content-hint {
                "Allowed HTML is kept, anything else removed when saved. Placeholders: "
                @for (index, name) in SAMPLE_PLACEHOLDERS.iter().enumerate() {
                    @if index > 0 { ", " }
                    code { "{{" (name) "}}" }
                }
                " and " code { "{{custom.KEY}}" } "."
            }
        }
    }
}

fn sample_input(name: &str) -> Markup {
    let id = format!("sample-{}", name.replace('.', "-"));
    html! {
        div.field {
            label for=(id) { code { (name) } }
            input #(id) type="text" name={ "sample." (name) } data-sample=(name) autocomplete="off";
        }
    }
}

#[derive(Clone, Copy)]
enum Side {
    Old,
    New,
}

/// A row of the side-by-side view: (old side, new side); `None` is an empty cell.
type DiffRow<'a> = (Option<&'a DiffLine>, Option<&'a DiffLine>);

/// Moves the pending removed and added lines into rows, pairing them up.
fn flush_rows<'a>(rows: &mut Vec<DiffRow<'a>>, removed: &mut Vec<&'a DiffLine>, added: &mut Vec<&'a DiffLine>) {
    let count = removed.len().max(added.len());
    for index in 0..count {
        rows.push((removed.get(index).copied(), added.get(index).copied()));
    }
    removed.clear();
    added.clear();
}

/// Pairs each run of removed lines with the run of added lines that follows it, row by row.
fn diff_rows(lines: &[DiffLine]) -> Vec<DiffRow<'_>> {
    let mut rows = Vec::with_capacity(lines.len());
    let mut removed: Vec<&DiffLine> = Vec::new();
    let mut added: Vec<&DiffLine> = Vec::new();
    for line in lines {
        match line {
            DiffLine::Same(_) => {
                flush_rows(&mut rows, &mut removed, &mut added);
                rows.push((Some(line), Some(line)));
            }
            DiffLine::Removed(_) => {
                if !added.is_empty() {
                    flush_rows(&mut rows, &mut removed, &mut added);
                }
                removed.push(line);
            }
            DiffLine::Added(_) => added.push(line),
        }
    }
    flush_rows(&mut rows, &mut removed, &mut added);
    rows
}

fn diff_cell(line: Option<&DiffLine>, side: Side) -> Markup {
    match (line, side) {
        (None, _) => html! { div.diff-cell.diff-empty aria-hidden="true" {} },
        (Some(DiffLine::Same(text)), Side::Old) => html! {
            div.diff-cell.diff-same { span.diff-marker aria-hidden="true" { " " } code { (text) } }
        },
        // The unchanged line once is enough for screen readers and narrow screens.
        (Some(DiffLine::Same(text)), Side::New) => html! {
            div.diff-cell.diff-same.diff-repeat aria-hidden="true" { span.diff-marker { " " } code { (text) } }
        },
        (Some(DiffLine::Removed(text)), _) => html! {
            div.diff-cell.diff-removed {
                span.diff-marker aria-hidden="true" { "−" } span.visually-hidden { "Removed: " } code { (text) }
            }
        },
        (Some(DiffLine::Added(text)), _) => html! {
            div.diff-cell.diff-added {
                span.diff-marker aria-hidden="true" { "+" } span.visually-hidden { "Added: " } code { (text) }
            }
        },
    }
}

fn customization_fields(c: &Customizations) -> Markup {
    html! {
        fieldset.card {
            legend { "Agreement" }
            @for (mode, text, hint) in [
                (AgreementMode::Scroll, "Scroll to the end", "Accept is enabled once the content was scrolled to its end."),
                (AgreementMode::Checkbox, "Tick a checkbox", "A consent checkbox must be ticked before accepting."),
            ] {
                div.field.check {
                    input id={ "mode-" (mode.as_str()) } type="radio" name="agreement_mode" value=(mode.as_str())
                        checked[c.agreement_mode == mode] aria-describedby={ "mode-" (mode.as_str()) "-hint" };
                    label for={ "mode-" (mode.as_str()) } { (text) }
                    p.hint id={ "mode-" (mode.as_str()) "-hint" } { (hint) }
                }
            }
        }
        fieldset.card {
            legend { "Theme" }
            div.grid-3 {
                (color_field("primary_color", "Primary colour", c.theme.primary_color.as_ref(), "#2563eb"))
                (color_field("background_color", "Background colour", c.theme.background_color.as_ref(), "#ffffff"))
                (color_field("text_color", "Text colour", c.theme.text_color.as_ref(), "#1f2937"))
            }
            div.field {
                label for="border_radius" { "Corner radius (pixels)" }
                input #border_radius .narrow type="number" name="border_radius" min="0" max=(BORDER_RADIUS_MAX) step="1"
                    value=(c.theme.border_radius.unwrap_or(12)) aria-describedby="border_radius-hint";
                p.hint #border_radius-hint { "0 to " (BORDER_RADIUS_MAX) "." }
            }
        }
        fieldset.card {
            legend { "Buttons" }
            div.grid-3 {
                (style_select("accept_style", "Accept button style", c.buttons.accept_style, None))
                (style_select(
                    "decline_style",
                    "Decline button style",
                    c.buttons.decline_style,
                    Some("Decline always looks secondary to Accept: Filled is drawn as a neutral outline."),
                ))
            }
            div.field.check {
                input #show_decline type="checkbox" name="show_decline" value="on" checked[c.buttons.show_decline];
                label for="show_decline" { "Show a Decline button" }
            }
        }
        fieldset.card {
            legend { "Logo" }
            div.field {
                label for="logo_url" { "Logo URL " span.optional { "(optional)" } }
                input #logo_url type="url" name="logo_url" value=(c.logo_url.as_deref().unwrap_or_default())
                    pattern="https://.*" maxlength="2048" placeholder="https://cdn.example.com/logo.png"
                    aria-describedby="logo_url-hint" spellcheck="false";
                p.hint #logo_url-hint { "An https image URL; leave empty for no logo." }
            }
        }
        fieldset.card {
            legend { "Texts" }
            p.hint { "Empty fields use the built-in wording shown in grey. Plain text, at most " (TEXT_MAX_CHARS) " characters." }
            @for language in Language::ALL {
                @let overrides = c.texts.get(&language);
                details.language-texts open[overrides.is_some()] {
                    summary { (language_label(language)) @if overrides.is_some() { " · customized" } }
                    (text_fields(language, overrides))
                }
            }
        }
    }
}

fn text_fields(language: Language, overrides: Option<&TextOverrides>) -> Markup {
    let builtin = Customizations::default().texts_for(language);
    let fields = [
        ("title", "Title", overrides.and_then(|o| o.title.as_deref()), builtin.title),
        ("accept_button", "Accept button", overrides.and_then(|o| o.accept_button.as_deref()), builtin.accept_button),
        (
            "decline_button",
            "Decline button",
            overrides.and_then(|o| o.decline_button.as_deref()),
            builtin.decline_button,
        ),
        (
            "checkbox_label",
            "Checkbox label",
            overrides.and_then(|o| o.checkbox_label.as_deref()),
            builtin.checkbox_label,
        ),
        ("version_label", "Version label", overrides.and_then(|o| o.version_label.as_deref()), builtin.version_label),
    ];
    html! {
        div.grid-2 {
            @for (field, label, value, placeholder) in fields {
                @let id = format!("text-{}-{field}", language.code());
                div.field {
                    label for=(id) { (label) }
                    input #(id) type="text" name={ "texts." (language.code()) "." (field) } value=(value.unwrap_or_default())
                        placeholder=(placeholder) maxlength=(TEXT_MAX_CHARS) lang=(language.code());
                }
            }
        }
    }
}

fn color_field(name: &str, label: &str, value: Option<&Color>, default: &str) -> Markup {
    let value = value.map_or_else(|| default.to_owned(), |color| six_digit(color.as_str()));
    html! {
        div.field {
            label for=(name) { (label) }
            input #(name) .color type="color" name=(name) value=(value);
        }
    }
}

/// `#abc` as `#aabbcc`: what a colour input takes.
fn six_digit(color: &str) -> String {
    match color.strip_prefix('#') {
        Some(hex) if hex.len() == 3 => hex.chars().fold(String::from("#"), |mut out, c| {
            out.push(c);
            out.push(c);
            out
        }),
        _ => color.to_owned(),
    }
}

fn style_select(name: &str, label: &str, selected: ButtonStyle, hint: Option<&str>) -> Markup {
    let hint_id = format!("{name}-hint");
    html! {
        div.field {
            label for=(name) { (label) }
            select #(name) name=(name) aria-describedby=[hint.map(|_| hint_id.as_str())] {
                @for (style, text) in [(ButtonStyle::Filled, "Filled"), (ButtonStyle::Outlined, "Outlined"), (ButtonStyle::Text, "Text only")] {
                    option value=(style.as_str()) selected[style == selected] { (text) }
                }
            }
            @if let Some(hint) = hint {
                p.hint #(hint_id) { (hint) }
            }
        }
    }
}

fn customizations_summary(c: &Customizations) -> Markup {
    let color = |value: Option<&Color>| match value {
        Some(color) => html! { code { (color.as_str()) } },
        None => html! { span.muted { "default" } },
    };
    html! {
        section.card aria-labelledby="customizations-summary-heading" {
            h2 #customizations-summary-heading { "Current customizations" }
            dl.facts {
                (fact("Agreement", html! { (c.agreement_mode.as_str()) }))
                (fact("Primary colour", color(c.theme.primary_color.as_ref())))
                (fact("Background colour", color(c.theme.background_color.as_ref())))
                (fact("Text colour", color(c.theme.text_color.as_ref())))
                (fact("Corner radius", html! {
                    @match c.theme.border_radius { Some(r) => { (r) " px" } None => span.muted { "default" } }
                }))
                (fact("Buttons", html! {
                    "Accept " (c.buttons.accept_style.as_str()) ", decline " (c.buttons.decline_style.as_str())
                    @if !c.buttons.show_decline { " (hidden)" }
                }))
                (fact("Logo", html! {
                    @match &c.logo_url { Some(url) => span.url { (url) }, None => span.muted { "none" } }
                }))
                (fact("Customized texts", html! {
                    @if c.texts.is_empty() { span.muted { "none" } }
                    @else { (language_list(&c.texts.keys().copied().collect::<Vec<_>>())) }
                }))
            }
        }
    }
}

// ---- small shared pieces ---------------------------------------------------------------------------

fn status_badges(template: &Template, now: Timestamp) -> Markup {
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

fn state_badge(state: VersionState) -> Markup {
    let tone = match state {
        VersionState::Scheduled => Tone::Info,
        VersionState::Effective => Tone::Ok,
        VersionState::Superseded => Tone::Neutral,
    };
    badge(tone, state.as_str())
}

fn tags(template: &Template) -> Markup {
    html! {
        @if template.tags.is_empty() {
            span.muted { "none" }
        } @else {
            ul.tag-list { @for tag in &template.tags { li.tag { (tag.as_str()) } } }
        }
    }
}

/// The effective version's languages, or else the draft's (marked as such).
fn languages(template: &Template, now: Timestamp) -> Markup {
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

fn language_list(languages: &[Language]) -> Markup {
    html! {
        @for (index, language) in languages.iter().enumerate() {
            @if index > 0 { ", " }
            abbr title=(language_label(*language)) { (language.code()) }
        }
    }
}

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

fn name_field(id: &str, value: &str) -> Markup {
    html! {
        div.field {
            label for=(id) { "Name" }
            input #(id) type="text" name="name" value=(value) required maxlength="200" autocomplete="off";
        }
    }
}

fn tags_field(id: &str, value: &str) -> Markup {
    html! {
        div.field {
            label for=(id) { "Tags " span.optional { "(optional)" } }
            input #(id) type="text" name="tags" value=(value) autocomplete="off" spellcheck="false"
                aria-describedby={ (id) "-hint" };
            p.hint id={ (id) "-hint" } { "Comma separated, like legal, signup. No spaces inside a tag." }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use clickwrap_domain::AppId;
    use clickwrap_domain::templates::customizations::TextOverrides;

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
        let lines = diff_lines(
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
    fn diff_rows_pair_removed_with_added() {
        use DiffLine::*;
        let lines = vec![
            Same("a".into()),
            Removed("b".into()),
            Removed("c".into()),
            Added("B".into()),
            Same("d".into()),
            Added("e".into()),
        ];
        let rows = diff_rows(&lines);
        let shape: Vec<(bool, bool)> = rows.iter().map(|(l, r)| (l.is_some(), r.is_some())).collect();
        assert_eq!(shape, vec![(true, true), (true, true), (true, false), (true, true), (false, true)]);
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
}
