//! `GET /console/tokens`: the tenant's operator tokens, revoking them, creating one.

use clickwrap_domain::Timestamp;
use maud::{Markup, html};

use super::components::{
    Tone, badge, code, confirm_checkbox, copy_field, csrf_field, empty_state, optional_time, read_only_note,
    table_region, time_tag,
};
use super::layout::{Chrome, page as layout_page};

/// One operator token (never its secret).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenRow {
    pub id: String,
    pub name: String,
    /// `ADMIN` or `VIEWER`.
    pub role: String,
    pub created_at: Timestamp,
    pub last_used_at: Option<Timestamp>,
    /// The token this console session was opened with.
    pub is_current: bool,
}

/// The tokens page; `created` is the `(name, secret)` of a token created just now, shown this once.
pub fn page(chrome: &Chrome<'_>, rows: &[TokenRow], created: Option<(&str, &str)>) -> Markup {
    layout_page(
        chrome,
        "Operator tokens",
        html! {
            h1 { "Operator tokens" }
            @if let Some((name, secret)) = created {
                section.card.highlight aria-labelledby="new-token-heading" {
                    h2 #new-token-heading { "New token: " (name) }
                    div.flash.flash-warn role="status" {
                        span.flash-icon aria-hidden="true" { "!" }
                        p { strong { "The token is shown only once." } " Copy it now; afterwards only its hash is kept." }
                    }
                    (copy_field("new-token-secret", "Operator token", secret))
                }
            }
            section.card aria-labelledby="tokens-heading" {
                h2 #tokens-heading { "Tokens" }
                p.hint { "ADMIN tokens can change everything; VIEWER tokens can only read. A revoked token and its console sessions stop working at once." }
                @if rows.is_empty() {
                    (empty_state("No operator tokens."))
                } @else {
                    (table_region("Operator tokens", html! {
                        table {
                            caption.visually-hidden { "Operator tokens" }
                            thead { tr {
                                th scope="col" { "Name" }
                                th scope="col" { "Role" }
                                th scope="col" { "Created" }
                                th scope="col" { "Last used" }
                                th scope="col" { "Token ID" }
                                @if chrome.can_change { th scope="col" { "Revoke" } }
                            } }
                            tbody {
                                @for row in rows {
                                    tr {
                                        th scope="row" {
                                            (row.name)
                                            @if row.is_current { " " (badge(Tone::Info, "this session's token")) }
                                        }
                                        td { (badge(if row.role == "ADMIN" { Tone::Ok } else { Tone::Neutral }, &row.role)) }
                                        td { (time_tag(row.created_at)) }
                                        td { (optional_time(row.last_used_at, "never")) }
                                        td { (code(&row.id)) }
                                        @if chrome.can_change {
                                            td { (revoke_form(chrome, row)) }
                                        }
                                    }
                                }
                            }
                        }
                    }))
                }
            }
            @if chrome.can_change {
                section.card aria-labelledby="create-token-heading" {
                    h2 #create-token-heading { "Create a token" }
                    form.stack method="post" action="/console/tokens" {
                        (csrf_field(chrome))
                        div.field {
                            label for="token-name" { "Name" }
                            input #token-name type="text" name="name" required maxlength="200" autocomplete="off"
                                aria-describedby="token-name-hint";
                            p.hint #token-name-hint { "Who or what uses it, like ci-deploy or Jane (support)." }
                        }
                        fieldset {
                            legend { "Role" }
                            div.field.check {
                                input #token-role-viewer type="radio" name="role" value="VIEWER" checked required;
                                label for="token-role-viewer" { "VIEWER: read only" }
                            }
                            div.field.check {
                                input #token-role-admin type="radio" name="role" value="ADMIN";
                                label for="token-role-admin" { "ADMIN: read and change" }
                            }
                        }
                        button.button.primary type="submit" { "Create token" }
                    }
                }
            } @else {
                (read_only_note("Operator tokens"))
            }
        },
    )
}

fn revoke_form(chrome: &Chrome<'_>, row: &TokenRow) -> Markup {
    let confirm_id = format!("confirm-revoke-{}", row.id);
    let text = if row.is_current {
        "I understand this signs me out (this session's token)."
    } else {
        "I understand this token stops working at once."
    };
    html! {
        form.revoke-form method="post" action={ "/console/tokens/" (row.id) "/revoke" } {
            (csrf_field(chrome))
            (confirm_checkbox(&confirm_id, text))
            button.button.danger.small type="submit" { "Revoke" span.visually-hidden { " " (row.name) } }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::views::test_support::*;

    fn rows() -> Vec<TokenRow> {
        vec![
            TokenRow {
                id: "tok-1".into(),
                name: "ci-bot".into(),
                role: "ADMIN".into(),
                created_at: now(),
                last_used_at: Some(now()),
                is_current: true,
            },
            TokenRow {
                id: "tok-2".into(),
                name: HOSTILE.into(),
                role: "VIEWER".into(),
                created_at: now(),
                last_used_at: None,
                is_current: false,
            },
        ]
    }

    #[test]
    fn admin_can_revoke_with_confirmation_and_create() {
        let html = page(&admin(), &rows(), Some(("deploy", LONG))).into_string();
        assert_eq!(
            post_actions(&html),
            vec!["/console/logout", "/console/tokens/tok-1/revoke", "/console/tokens/tok-2/revoke", "/console/tokens"]
        );
        for needle in [
            "this session's token",
            "signs me out",
            r#"id="confirm-revoke-tok-2" type="checkbox" name="confirm" value="yes" required"#,
            r#"name="role" value="VIEWER" checked"#,
            r#"name="role" value="ADMIN""#,
            r##"data-copy="#new-token-secret""##,
            LONG,
            "shown only once",
            ">never<",
        ] {
            assert!(html.contains(needle), "missing {needle}");
        }
        assert_escaped(&html);
        assert_common_rules(&html);
    }

    #[test]
    fn viewer_sees_the_list_only() {
        let html = page(&viewer(), &rows(), None).into_string();
        assert!(!html.contains("Revoke") && !html.contains("shown only once"));
        assert_common_rules(&html);
        assert_no_change_forms(&html);
        let html = page(&viewer(), &[], None).into_string();
        assert!(html.contains("No operator tokens."));
    }
}
