//! `GET /console/login`: the sign-in form, a page of its own without navigation.

use maud::{DOCTYPE, Markup, html};

use super::components::logo;
use super::layout::head;

/// The sign-in page; `error` (a wrong token, say) is announced at once.
pub fn page(error: Option<&str>) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            (head("Sign in", "", &[]))
            body.login-body {
                main #main .login {
                    div.brand {
                        (logo())
                        span.brand-name { "Clickwrap console" }
                    }
                    h1 { "Sign in" }
                    @if let Some(error) = error {
                        div.flash.flash-error role="alert" {
                            span.flash-icon aria-hidden="true" { "!" }
                            p { (error) }
                        }
                    }
                    form.stack method="post" action="/console/login" {
                        div.field {
                            label for="token" { "Operator token" }
                            input #token type="password" name="token" required autocomplete="current-password"
                                spellcheck="false" autofocus aria-describedby="token-hint";
                            p.hint #token-hint {
                                "The secret of an operator token of your tenant. ADMIN tokens can change settings, VIEWER tokens can only look."
                            }
                        }
                        button.button.primary type="submit" { "Sign in" }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::views::test_support::*;

    #[test]
    fn a_standalone_form_with_one_password_field() {
        let html = page(None).into_string();
        for needle in [
            "<title>Sign in · Clickwrap console</title>",
            r#"<form class="stack" method="post" action="/console/login">"#,
            r#"<label for="token">Operator token</label>"#,
            r#"type="password" name="token" required"#,
            ">Sign in</button>",
        ] {
            assert!(html.contains(needle), "missing {needle}");
        }
        assert!(!html.contains("<nav") && !html.contains("csrf-token") && !html.contains("role=\"alert\""));
        assert_eq!(tags(&html).iter().filter(|t| t.name == "input" && !t.closing).count(), 1);
    }

    #[test]
    fn the_error_is_an_alert_and_escaped() {
        let html = page(Some(HOSTILE)).into_string();
        assert!(html.contains(r#"role="alert""#) && html.contains("&lt;script&gt;"));
        assert_escaped(&html);
    }
}
