//! `GET /console/templates/{id}/diff`: two versions compared line by line.

use clickwrap_domain::Language;
use clickwrap_domain::templates::models::{Template, TemplateVersion};
use maud::{Markup, html};

use super::parts::compare_form;
use crate::diff::{DiffLine, diff_rows};
use crate::views::components::{breadcrumbs, empty_state, language_label};
use crate::views::layout::{Chrome, page};

/// `GET /console/templates/{id}/diff?a=&b=&language=`: `lines` (see [`crate::diff::diff_lines`]) from version
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

/// Which column of the side-by-side view a cell is in.
#[derive(Clone, Copy)]
enum Side {
    Old,
    New,
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
