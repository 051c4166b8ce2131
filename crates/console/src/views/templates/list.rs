//! `GET /console/templates`: the templates, a tag filter and the create form.

use clickwrap_domain::templates::models::Template;
use clickwrap_domain::{Language, Timestamp};
use maud::{Markup, html};

use super::parts::*;
use crate::views::components::{csrf_field, empty_state, language_select, read_only_note, table_region, time_tag};
use crate::views::layout::{Chrome, page};

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
