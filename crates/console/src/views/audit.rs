//! `GET /console/audit`: the operator actions of the tenant, newest first.

use clickwrap_domain::Timestamp;
use maud::{Markup, html};

use super::components::{code, empty_state, query_string, table_region, time_tag};
use super::layout::{Chrome, page as layout_page};

/// One entry of the audit log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditRow {
    pub at: Timestamp,
    /// The operator token's name at the time (ignored when `operator_token_id` is none).
    pub operator_name: String,
    /// None for changes made by the server itself (start-up, the CLI).
    pub operator_token_id: Option<String>,
    pub action: String,
    /// `app`, `template`, `operator_token`, …
    pub subject_type: String,
    pub subject_id: String,
    pub details: String,
}

/// One page of the audit log; `next_cursor` makes a "Next page" link.
pub fn page(chrome: &Chrome<'_>, rows: &[AuditRow], next_cursor: Option<&str>) -> Markup {
    layout_page(
        chrome,
        "Audit log",
        html! {
            h1 { "Audit log" }
            section.card aria-labelledby="audit-heading" {
                h2 #audit-heading { "Operator actions, newest first" }
                @if rows.is_empty() {
                    (empty_state("No operator actions recorded yet."))
                } @else {
                    (table_region("Audit log", html! {
                        table {
                            caption.visually-hidden { "Operator actions, newest first" }
                            thead { tr {
                                th scope="col" { "When" }
                                th scope="col" { "Who" }
                                th scope="col" { "Action" }
                                th scope="col" { "Subject" }
                                th scope="col" { "Details" }
                            } }
                            tbody {
                                @for row in rows {
                                    tr {
                                        th scope="row" { (time_tag(row.at)) }
                                        td {
                                            @match &row.operator_token_id {
                                                Some(id) => { (row.operator_name) br; span.small { (code(id)) } }
                                                None => span.muted { "server" },
                                            }
                                        }
                                        td { code { (row.action) } }
                                        td { (subject(row)) }
                                        td { span.wrap { (row.details) } }
                                    }
                                }
                            }
                        }
                    }))
                }
                @if let Some(cursor) = next_cursor {
                    nav.pager aria-label="Pages" {
                        a.button.secondary href={ "/console/audit" (query_string(&[("cursor", cursor)])) } { "Next page" }
                    }
                }
            }
        },
    )
}

fn subject(row: &AuditRow) -> Markup {
    let href = match row.subject_type.as_str() {
        "app" => Some(format!("/console/apps/{}", row.subject_id)),
        "template" => Some(format!("/console/templates/{}", row.subject_id)),
        _ => None,
    };
    html! {
        span.muted { (row.subject_type) } " "
        @match href {
            Some(href) => a href=(href) { code.id { (row.subject_id) } },
            None => (code(&row.subject_id)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::views::test_support::*;

    fn row(subject_type: &str, token: Option<&str>) -> AuditRow {
        AuditRow {
            at: now(),
            operator_name: HOSTILE.into(),
            operator_token_id: token.map(str::to_owned),
            action: "APP_KEY_REGENERATED".into(),
            subject_type: subject_type.into(),
            subject_id: APP_ID.into(),
            details: LONG.into(),
        }
    }

    #[test]
    fn rows_link_their_subjects_and_name_the_operator() {
        let rows = [row("app", Some("tok-1")), row("template", None), row("operator_token", Some("tok-2"))];
        let html = page(&admin(), &rows, Some("n/1")).into_string();
        for needle in [
            &format!(r#"href="/console/apps/{APP_ID}""#),
            &format!(r#"href="/console/templates/{APP_ID}""#),
            "operator_token</span> <code class=\"id\">",
            "&lt;script&gt;alert(1)&lt;/script&gt;<br>",
            r#"<span class="muted">server</span>"#,
            "APP_KEY_REGENERATED",
            LONG,
            r#"href="/console/audit?cursor=n%2F1""#,
            "2026-06-15 12:00:00 UTC",
        ] {
            assert!(html.contains(needle), "missing {needle}");
        }
        assert_escaped(&html);
        assert_common_rules(&html);
        assert_no_change_forms(&html);
    }

    #[test]
    fn empty_log() {
        let html = page(&viewer(), &[], None).into_string();
        assert!(html.contains("No operator actions recorded yet.") && !html.contains("Next page"));
        assert_common_rules(&html);
    }
}
