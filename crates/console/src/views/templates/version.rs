//! `GET /console/templates/{id}/versions/{n.m}`: a published version.

use clickwrap_domain::Timestamp;
use clickwrap_domain::templates::models::{Template, TemplateVersion};
use maud::{Markup, html};

use super::parts::*;
use crate::views::components::{
    breadcrumbs, empty_state, fact, html_source, language_label, query_string, sandboxed_html, time_tag,
};
use crate::views::layout::{Chrome, page};

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
