//! Apps: the list and create form, the one-time display of new credentials, an app's settings,
//! its credential rotation, and its webhook deliveries.

use clickwrap_domain::apps::models::App;
use clickwrap_domain::webhooks::history::DeliveryPage;
use clickwrap_domain::webhooks::models::DeliveryAttempt;
use clickwrap_domain::webhooks::models::DeliveryRecord;
use maud::{Markup, html};

use super::components::{
    Tone, badge, breadcrumbs, code, confirm_checkbox, copy_field, csrf_field, delivery_state_badge, empty_state, fact,
    optional_time, query_string, read_only_note, table_region, time_tag,
};
use super::layout::{Chrome, page};

/// What the SSRF check says about an app's current webhook URL.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WebhookVerdict<'a> {
    /// True when deliveries may go there (shown as OK), false when they would be refused.
    pub accepted: bool,
    /// Shown as it is, e.g. "Accepted: resolves to a public address" or the rejection reason.
    pub message: &'a str,
}

/// `GET /console/apps`: every app, and (for an ADMIN) the create form.
pub fn list(chrome: &Chrome<'_>, apps: &[App]) -> Markup {
    page(
        chrome,
        "Apps",
        html! {
            h1 { "Apps" }
            section.card aria-labelledby="apps-heading" {
                h2 #apps-heading { "Your apps" }
                @if apps.is_empty() {
                    (empty_state("No apps yet. An app holds the App ID and App Key your integration uses."))
                } @else {
                    (table_region("Apps", html! {
                        table {
                            caption.visually-hidden { "Apps" }
                            thead { tr {
                                th scope="col" { "Name" }
                                th scope="col" { "App ID" }
                                th scope="col" { "Webhook URL" }
                                th scope="col" { "Allowed origins" }
                                th scope="col" { "Created" }
                            } }
                            tbody {
                                @for app in apps {
                                    tr {
                                        th scope="row" { a href={ "/console/apps/" (app.id) } { (app.name) } }
                                        td { (code(&app.id.to_string())) }
                                        td {
                                            @match &app.webhook_url {
                                                Some(url) => {
                                                    span.url { (url.as_str()) }
                                                    @if !app.webhook_enabled { " " (badge(Tone::Neutral, "paused")) }
                                                }
                                                None => span.muted { "none" },
                                            }
                                        }
                                        td { (origins_count(app)) }
                                        td { (time_tag(app.created_at)) }
                                    }
                                }
                            }
                        }
                    }))
                }
            }
            @if chrome.can_change {
                section.card aria-labelledby="create-app-heading" {
                    h2 #create-app-heading { "Create an app" }
                    form.stack method="post" action="/console/apps" {
                        (csrf_field(chrome))
                        (name_field("new-app-name", ""))
                        (webhook_url_field("new-app-webhook-url", ""))
                        (origins_field("new-app-origins", ""))
                        button.button.primary type="submit" { "Create app" }
                    }
                }
            } @else {
                (read_only_note("Apps"))
            }
        },
    )
}

/// Right after creation: the App Key and the webhook signing secret, shown this once.
pub fn created(chrome: &Chrome<'_>, app: &App, app_key: &str, webhook_secret: &str) -> Markup {
    page(
        chrome,
        &format!("App created: {}", app.name),
        html! {
            (breadcrumbs(&[("Apps", "/console/apps".to_owned())]))
            h1 { "App created: " (app.name) }
            (shown_once_warning("The App Key and the webhook signing secret"))
            section.card aria-labelledby="credentials-heading" {
                h2 #credentials-heading { "Credentials" }
                (copy_field("app-id", "App ID", &app.id.to_string()))
                (copy_field("app-key", "App Key", app_key))
                (copy_field("webhook-secret", "Webhook signing secret", webhook_secret))
                p.hint {
                    "The App ID is public (the browser SDK sends it). Keep the App Key on your server: it verifies "
                    "Signatures. The signing secret checks that webhooks come from this service."
                }
            }
            p { a.button.secondary href={ "/console/apps/" (app.id) } { "Continue to the app's settings" } }
        },
    )
}

/// `GET /console/apps/{appId}`: settings, the webhook URL's SSRF verdict, credential rotation.
pub fn detail(chrome: &Chrome<'_>, app: &App, webhook_verdict: Option<WebhookVerdict<'_>>) -> Markup {
    let base = format!("/console/apps/{}", app.id);
    let origins = app.allowed_origins.iter().map(|o| o.as_str()).collect::<Vec<_>>().join("\n");
    let url = app.webhook_url.as_ref().map(|u| u.as_str()).unwrap_or_default();
    page(
        chrome,
        app.name.as_str(),
        html! {
            (breadcrumbs(&[("Apps", "/console/apps".to_owned())]))
            h1 { (app.name) }
            p.actions { a.button.secondary href={ (base) "/webhooks" } { "Webhook deliveries" } }
            section.card aria-labelledby="app-facts-heading" {
                h2 #app-facts-heading { "Summary" }
                dl.facts {
                    (fact("App ID", code(&app.id.to_string())))
                    (fact("Created", time_tag(app.created_at)))
                    (fact("Last changed", time_tag(app.updated_at)))
                    (fact("Webhook URL", html! {
                        @if url.is_empty() { span.muted { "none" } } @else { span.url { (url) } }
                        @if let Some(verdict) = webhook_verdict { " " (verdict_markup(verdict)) }
                    }))
                    (fact("Webhook delivery", html! {
                        @if app.webhook_enabled { (badge(Tone::Ok, "Enabled")) } @else { (badge(Tone::Neutral, "Paused")) }
                    }))
                    (fact("Allowed origins", html! {
                        @if app.allowed_origins.is_empty() {
                            span.muted { "Any origin" }
                        } @else {
                            ul.plain-list { @for origin in &app.allowed_origins { li { span.url { (origin.as_str()) } } } }
                        }
                    }))
                }
            }
            @if chrome.can_change {
                section.card aria-labelledby="app-settings-heading" {
                    h2 #app-settings-heading { "Settings" }
                    form.stack method="post" action=(base) {
                        (csrf_field(chrome))
                        (name_field("app-name", app.name.as_str()))
                        (webhook_url_field("app-webhook-url", url))
                        div.field.check {
                            input #app-webhook-enabled type="checkbox" name="webhook_enabled" value="on"
                                checked[app.webhook_enabled] aria-describedby="app-webhook-enabled-hint";
                            label for="app-webhook-enabled" { "Deliver webhooks" }
                            p.hint #app-webhook-enabled-hint {
                                "Paused: events are still recorded as deliveries (DISABLED) and can be redelivered later."
                            }
                        }
                        (origins_field("app-origins", &origins))
                        button.button.primary type="submit" { "Save settings" }
                    }
                }
                section.card.danger-zone aria-labelledby="app-credentials-heading" {
                    h2 #app-credentials-heading { "Credentials" }
                    div.grid-2 {
                        form.stack method="post" action={ (base) "/app-key" } {
                            (csrf_field(chrome))
                            h3 { "Regenerate App Key" }
                            p { "The current App Key stops working at once: your server cannot verify Signatures until it has the new one." }
                            (confirm_checkbox("confirm-app-key", "I understand that the current App Key stops working now."))
                            button.button.danger type="submit" { "Regenerate App Key" }
                        }
                        form.stack method="post" action={ (base) "/webhook-signing-secret" } {
                            (csrf_field(chrome))
                            h3 { "Rotate webhook signing secret" }
                            p { "Webhooks are signed with the new secret from now on; receivers checking the old one will refuse them." }
                            (confirm_checkbox("confirm-webhook-secret", "I understand that receivers need the new secret."))
                            button.button.danger type="submit" { "Rotate signing secret" }
                        }
                    }
                }
            } @else {
                (read_only_note("App settings and credentials"))
            }
        },
    )
}

/// After regenerating the App Key or rotating the signing secret: `what` ("App Key", "Webhook
/// signing secret") and its new value, shown this once.
pub fn regenerated(chrome: &Chrome<'_>, app: &App, what: &str, secret: &str) -> Markup {
    page(
        chrome,
        &format!("New {what}: {}", app.name),
        html! {
            (breadcrumbs(&[("Apps", "/console/apps".to_owned()), (app.name.as_str(), format!("/console/apps/{}", app.id))]))
            h1 { "New " (what) }
            (shown_once_warning(&format!("The new {what}")))
            section.card aria-labelledby="new-secret-heading" {
                h2 #new-secret-heading { (app.name) }
                (copy_field("new-secret", what, secret))
            }
            p { a.button.secondary href={ "/console/apps/" (app.id) } { "Back to the app" } }
        },
    )
}

/// `GET /console/apps/{appId}/webhooks`: one page of deliveries, newest first, with their attempts.
pub fn deliveries(chrome: &Chrome<'_>, app: &App, page_items: &DeliveryPage) -> Markup {
    let base = format!("/console/apps/{}", app.id);
    page(
        chrome,
        &format!("Webhook deliveries: {}", app.name),
        html! {
            (breadcrumbs(&[("Apps", "/console/apps".to_owned()), (app.name.as_str(), base.clone())]))
            h1 { "Webhook deliveries" }
            p.lead {
                (app.name) " → "
                @match &app.webhook_url {
                    Some(url) => span.url { (url.as_str()) },
                    None => span.muted { "no webhook URL" },
                }
                @if !app.webhook_enabled { " " (badge(Tone::Neutral, "paused")) }
            }
            @if page_items.items.is_empty() {
                section.card { (empty_state("No webhook deliveries yet. One is written for every verified event.")) }
            } @else {
                ol.plain-list.deliveries {
                    @for record in &page_items.items {
                        li { (delivery(chrome, app, record)) }
                    }
                }
            }
            @if let Some(cursor) = &page_items.next_cursor {
                nav.pager aria-label="Pages" {
                    a.button.secondary href={ (base) "/webhooks" (query_string(&[("cursor", cursor)])) } { "Next page" }
                }
            }
        },
    )
}

fn delivery(chrome: &Chrome<'_>, app: &App, record: &DeliveryRecord) -> Markup {
    let d = &record.delivery;
    let id = d.id.to_string();
    html! {
        article.card.delivery aria-labelledby={ "delivery-" (id) } {
            h2.delivery-title id={ "delivery-" (id) } {
                (delivery_state_badge(d.state))
                " Event " a href={ "/console/events/" (d.event_id) } { code.id { (d.event_id) } }
            }
            dl.facts.compact {
                (fact("Delivery", code(&id)))
                (fact("Created", time_tag(d.created_at)))
                (fact("Attempts", html! { (d.attempts) }))
                (fact("Last attempt", optional_time(d.last_attempt_at, "none")))
                (fact("Next attempt", optional_time(d.next_attempt_at, "none scheduled")))
                (fact("Last response", html! {
                    @match d.last_response_status { Some(status) => (status), None => span.muted { "none" } }
                }))
            }
            details.attempts {
                summary { "Payload and attempts (" (record.attempts.len()) ")" }
                h3.small-heading { "Payload" }
                pre.code { code { (pretty_json(&d.payload)) } }
                @if record.attempts.is_empty() {
                    p.muted { "Not attempted yet." }
                }
                ol.plain-list {
                    @for attempt in &record.attempts { li.attempt { (attempt_markup(attempt, &d.payload)) } }
                }
            }
            @if chrome.can_change {
                form.inline-form method="post" action={ "/console/webhook-deliveries/" (id) "/redeliver" } {
                    (csrf_field(chrome))
                    input type="hidden" name="app_id" value=(app.id);
                    button.button.secondary.small type="submit" { "Redeliver" span.visually-hidden { " delivery " (id) } }
                }
            }
        }
    }
}

/// An attempt; its request body only when it is not the delivery's payload (shown once above it).
fn attempt_markup(attempt: &DeliveryAttempt, payload: &str) -> Markup {
    html! {
        h3.small-heading {
            "Attempt " (attempt.number) " "
            @match attempt.error {
                None => (badge(Tone::Ok, "delivered")),
                Some(error) => (badge(Tone::Error, error.as_str())),
            }
        }
        @if let Some(error) = attempt.error {
            p.error-text { (error.describe()) }
        }
        dl.facts.compact {
            (fact("Started", time_tag(attempt.started_at)))
            (fact("Duration", html! { (attempt.duration_ms) " ms" }))
            (fact("Response status", html! {
                @match attempt.response_status { Some(status) => (status), None => span.muted { "no response" } }
            }))
        }
        @if let Some(excerpt) = &attempt.response_excerpt {
            h4.small-heading { "Response excerpt" }
            pre.code { code { (excerpt) } }
        }
        @if attempt.request_body != payload {
            h4.small-heading { "Request body" }
            pre.code { code { (pretty_json(&attempt.request_body)) } }
        }
    }
}

/// JSON indented for reading (a payload is one long line), its keys in the order they were sent
/// (parsing into a `serde_json::Value` would sort them); anything else as it is.
fn pretty_json(text: &str) -> String {
    if serde_json::from_str::<serde_json::Value>(text).is_err() {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len() * 2);
    let mut depth = 0_usize;
    let mut in_string = false;
    let mut escaped = false;
    let mut chars = text.chars().peekable();
    let new_line = |out: &mut String, depth: usize| {
        out.push('\n');
        out.push_str(&"  ".repeat(depth));
    };
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                out.push(c);
            }
            '{' | '[' => {
                out.push(c);
                while chars.next_if(|next| next.is_whitespace()).is_some() {}
                // An empty object or array stays `{}` or `[]`.
                if let Some(close) = chars.next_if(|&next| next == '}' || next == ']') {
                    out.push(close);
                } else {
                    depth += 1;
                    new_line(&mut out, depth);
                }
            }
            '}' | ']' => {
                depth = depth.saturating_sub(1);
                new_line(&mut out, depth);
                out.push(c);
            }
            ',' => {
                out.push(c);
                new_line(&mut out, depth);
            }
            ':' => out.push_str(": "),
            _ if c.is_whitespace() => {}
            _ => out.push(c),
        }
    }
    out
}

fn verdict_markup(verdict: WebhookVerdict<'_>) -> Markup {
    let (tone, label) = if verdict.accepted { (Tone::Ok, "OK") } else { (Tone::Error, "Refused") };
    html! {
        span.verdict {
            (badge(tone, label)) " " span class=(if verdict.accepted { "ok-text" } else { "error-text" }) { (verdict.message) }
        }
    }
}

fn origins_count(app: &App) -> Markup {
    match app.allowed_origins.len() {
        0 => html! { span.muted { "any" } },
        1 => html! { "1 origin" },
        n => html! { (n) " origins" },
    }
}

fn shown_once_warning(what: &str) -> Markup {
    html! {
        div.flash.flash-warn role="status" {
            span.flash-icon aria-hidden="true" { "!" }
            p { strong { (what) " are shown only once." } " Copy them now; afterwards only their hashes are kept." }
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

fn webhook_url_field(id: &str, value: &str) -> Markup {
    html! {
        div.field {
            label for=(id) { "Webhook URL " span.optional { "(optional)" } }
            input #(id) type="url" name="webhook_url" value=(value) maxlength="2048" placeholder="https://example.com/hooks/clickwrap"
                aria-describedby={ (id) "-hint" } autocomplete="off" spellcheck="false";
            p.hint id={ (id) "-hint" } {
                "Receives CLICKWRAP_EVENT_VERIFIED. It must resolve to a public address; leave empty for no webhook."
            }
        }
    }
}

fn origins_field(id: &str, value: &str) -> Markup {
    html! {
        div.field {
            label for=(id) { "Allowed origins " span.optional { "(optional)" } }
            textarea.mono #(id) name="allowed_origins" rows="4" aria-describedby={ (id) "-hint" } spellcheck="false" { (value) }
            p.hint id={ (id) "-hint" } {
                "One origin per line, like https://app.example.com (at most 50). Empty: any origin may use the browser SDK."
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use clickwrap_domain::webhooks::models::AttemptError;
    use clickwrap_domain::webhooks::models::Delivery;
    use clickwrap_domain::{DeliveryId, EventId, TenantId};

    use clickwrap_domain::webhooks::models::DeliveryState;

    use super::*;
    use crate::views::test_support::*;

    const DELIVERY_ID: &str = "0190b7c4-2a1e-7cc3-9f00-00000000dddd";
    const EVENT_ID: &str = "0190b7c4-2a1e-7cc3-9f00-00000000eeee";

    #[test]
    fn a_payload_is_indented_with_its_keys_in_the_order_sent() {
        // Keys out of alphabetical order, strings holding JSON's punctuation and an escaped quote,
        // empty containers.
        let sent = r#"{"eventType":"X","data":{"b":"a, \"{[:]}\"","a":[1,{}],"empty":[]}}"#;
        let expected = "{\n  \"eventType\": \"X\",\n  \"data\": {\n    \"b\": \"a, \\\"{[:]}\\\"\",\n    \
                        \"a\": [\n      1,\n      {}\n    ],\n    \"empty\": []\n  }\n}";
        assert_eq!(pretty_json(sent), expected);
        // The same value as was sent.
        let reparsed: serde_json::Value = serde_json::from_str(&pretty_json(sent)).unwrap();
        assert_eq!(reparsed, serde_json::from_str::<serde_json::Value>(sent).unwrap());
        assert_eq!(pretty_json("not JSON {"), "not JSON {");
    }

    fn record(state: DeliveryState, attempts: usize) -> DeliveryRecord {
        let id = DeliveryId::parse(DELIVERY_ID).unwrap();
        let delivery = Delivery {
            id,
            tenant_id: TenantId::parse(TENANT_ID).unwrap(),
            app_id: app("x").id,
            event_id: EventId::parse(EVENT_ID).unwrap(),
            payload: format!(r#"{{"eventType":"CLICKWRAP_EVENT_VERIFIED","data":"{LONG}"}}"#),
            state,
            attempts: u32::try_from(attempts).unwrap(),
            next_attempt_at: None,
            last_attempt_at: Some(now()),
            last_response_status: Some(500),
            created_at: now(),
        };
        let attempts = (1..=attempts)
            .map(|n| DeliveryAttempt {
                id: uuid::Uuid::from_u128(u128::try_from(n).unwrap()),
                tenant_id: delivery.tenant_id,
                delivery_id: id,
                number: u32::try_from(n).unwrap(),
                request_body: delivery.payload.clone(),
                response_status: Some(500),
                response_excerpt: Some(HOSTILE.to_owned()),
                error: Some(AttemptError::UnexpectedStatus),
                started_at: now(),
                duration_ms: 321,
            })
            .collect();
        DeliveryRecord { delivery, attempts }
    }

    #[test]
    fn list_escapes_names_and_offers_the_create_form() {
        let mut second = app("Second");
        second.webhook_url = None;
        second.allowed_origins.clear();
        let html = list(&admin(), &[app(HOSTILE), second]).into_string();
        for needle in [
            &format!(r#"<a href="/console/apps/{APP_ID}">&lt;script&gt;alert(1)&lt;/script&gt;</a>"#),
            "https://hooks.example.com/clickwrap",
            "1 origin",
            ">none<",
            ">any<",
            r#"name="name""#,
            r#"type="url" name="webhook_url""#,
            r#"name="allowed_origins""#,
            r#"role="region" aria-label="Apps (table)" tabindex="0""#,
        ] {
            assert!(html.contains(needle), "missing {needle}");
        }
        assert_eq!(post_actions(&html), vec!["/console/logout", "/console/apps"]);
        assert_escaped(&html);
        assert_common_rules(&html);
    }

    #[test]
    fn empty_list_and_viewer() {
        let html = list(&viewer(), &[]).into_string();
        assert!(html.contains("No apps yet"));
        assert_common_rules(&html);
        assert_no_change_forms(&html);
    }

    #[test]
    fn created_shows_the_secrets_once_with_copy_buttons() {
        let html = created(&admin(), &app("Shop"), "ak_secret", LONG).into_string();
        for needle in [r##"data-copy="#app-id""##, r##"data-copy="#app-key""##, r##"data-copy="#webhook-secret""##] {
            assert!(html.contains(needle), "missing {needle}");
        }
        assert!(html.contains(r#"value="ak_secret""#) && html.contains(LONG) && html.contains("shown only once"));
        assert_common_rules(&html);
    }

    #[test]
    fn detail_has_settings_verdict_and_confirmed_rotations() {
        let verdict = WebhookVerdict { accepted: false, message: "Refused: resolves to 10.0.0.1 <private>" };
        let html = detail(&admin(), &app("Shop"), Some(verdict)).into_string();
        let base = format!("/console/apps/{APP_ID}");
        assert_eq!(
            post_actions(&html),
            vec![
                "/console/logout".to_owned(),
                base.clone(),
                format!("{base}/app-key"),
                format!("{base}/webhook-signing-secret")
            ]
        );
        for needle in [
            r#"name="webhook_enabled" value="on" checked"#,
            "https://app.example.com</textarea>",
            "Refused: resolves to 10.0.0.1 &lt;private&gt;",
            r#"class="error-text""#,
            &format!(r#"href="{base}/webhooks""#),
        ] {
            assert!(html.contains(needle), "missing {needle}");
        }
        assert_eq!(html.matches(r#"name="confirm" value="yes" required"#).count(), 2);
        assert_common_rules(&html);

        let ok = WebhookVerdict { accepted: true, message: "Accepted: resolves to a public address" };
        let html = detail(&viewer(), &app("Shop"), Some(ok)).into_string();
        assert!(html.contains("Accepted: resolves to a public address") && html.contains(r#"class="ok-text""#));
        assert_common_rules(&html);
        assert_no_change_forms(&html);
    }

    #[test]
    fn regenerated_shows_the_new_value() {
        let html = regenerated(&admin(), &app("Shop"), "App Key", "new-key-1").into_string();
        assert!(html.contains("<h1>New App Key</h1>") && html.contains(r#"value="new-key-1""#));
        assert!(html.contains(r##"data-copy="#new-secret""##));
        assert_common_rules(&html);
    }

    #[test]
    fn deliveries_with_attempts_redeliver_and_paging() {
        let page_items = DeliveryPage {
            items: vec![record(DeliveryState::Failed, 2), record(DeliveryState::Pending, 0)],
            next_cursor: Some("c/+=1".into()),
        };
        // Two records with one id would repeat element ids: give the second its own.
        let mut page_items = page_items;
        if let Some(second) = page_items.items.get_mut(1) {
            second.delivery.id = DeliveryId::parse("0190b7c4-2a1e-7cc3-9f00-00000000ddd2").unwrap();
        }
        let html = deliveries(&admin(), &app("Shop"), &page_items).into_string();
        for needle in [
            ">FAILED<",
            ">PENDING<",
            &format!(r#"href="/console/events/{EVENT_ID}""#),
            "UNEXPECTED_STATUS",
            "321 ms",
            "&lt;script&gt;alert(1)&lt;/script&gt;",
            LONG,
            &format!(r#"action="/console/webhook-deliveries/{DELIVERY_ID}/redeliver""#),
            &format!(r#"name="app_id" value="{APP_ID}""#),
            &format!(r#"href="/console/apps/{APP_ID}/webhooks?cursor=c%2F%2B%3D1""#),
            "Not attempted yet.",
            // Indented for reading.
            "\n  &quot;eventType&quot;: &quot;CLICKWRAP_EVENT_VERIFIED&quot;",
        ] {
            assert!(html.contains(needle), "missing {needle}");
        }
        // The payload once per delivery, not again for each of the first one's two attempts,
        // whose bodies are the payload.
        assert_eq!(html.matches(LONG).count(), 2);
        assert!(!html.contains("Request body"));
        assert_escaped(&html);
        assert_common_rules(&html);

        // An attempt that sent something else than the payload shows what it sent.
        let mut odd = record(DeliveryState::Delivered, 1);
        if let Some(attempt) = odd.attempts.first_mut() {
            attempt.request_body = "not the payload".into();
        }
        let html =
            deliveries(&admin(), &app("Shop"), &DeliveryPage { items: vec![odd], next_cursor: None }).into_string();
        assert!(html.contains("Request body") && html.contains("not the payload"));

        let html =
            deliveries(&viewer(), &app("Shop"), &DeliveryPage { items: vec![], next_cursor: None }).into_string();
        assert!(html.contains("No webhook deliveries yet") && !html.contains("Next page"));
        assert_common_rules(&html);
        assert_no_change_forms(&html);
    }
}
