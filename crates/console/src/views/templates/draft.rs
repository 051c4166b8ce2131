//! `GET /console/templates/{id}/draft`: the draft editor with its live preview.

use clickwrap_domain::Language;
use clickwrap_domain::content::placeholders::{PlaceholderName, placeholders_in};
use clickwrap_domain::templates::models::Template;
use maud::{Markup, html};

use crate::views::components::{breadcrumbs, csrf_field, language_label, query_string, read_only_note, sandboxed_html};
use crate::views::layout::{Chrome, page};

/// The named placeholders an operator can write in content (`{{fullName}}` …), in the domain's
/// order; the draft editor offers a sample value for each.
pub(super) const SAMPLE_PLACEHOLDERS: [&str; 9] =
    ["fullName", "email", "company", "jobTitle", "date", "phoneNumber", "registrationNumber", "vatNumber", "address"];

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
