//! Events: the filtered list with export links, one event's evidence, and an end user's consent
//! status.

use clickwrap_domain::consent::acceptance::ConsentStatus;
use clickwrap_domain::consent::models::EventDetails;
use clickwrap_domain::consent::models::{ClickwrapEvent, EventStatus};
use clickwrap_domain::consent::queries::{ConsentStatusView, EventPage};
use clickwrap_domain::templates::models::Template;
use maud::{Markup, html};
use serde_json::Value;

use super::components::{
    Tone, badge, breadcrumbs, code, delivery_state_badge, empty_state, fact, hex, html_source, language_label,
    optional_time, query_string, sandboxed_html, table_region, time_tag,
};
use super::layout::{Chrome, page};

/// The events list's filters as the operator typed them (query parameters `clickwrapTemplateId`,
/// `endUserId`, `status`, `from`, `to`), echoed back into the filter form and carried by the paging
/// and export links. Empty means "not filtered".
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EventFilters {
    pub template_id: String,
    pub end_user_id: String,
    pub status: String,
    pub from: String,
    pub to: String,
}

impl EventFilters {
    /// The filters as query parameters, in the API's names.
    pub fn pairs(&self) -> [(&'static str, &str); 5] {
        [
            ("clickwrapTemplateId", &self.template_id),
            ("endUserId", &self.end_user_id),
            ("status", &self.status),
            ("from", &self.from),
            ("to", &self.to),
        ]
    }

    fn with<'a>(&'a self, extra: &[(&'a str, &'a str)], after: bool) -> String {
        let mut pairs: Vec<(&str, &str)> = Vec::new();
        if !after {
            pairs.extend_from_slice(extra);
        }
        pairs.extend_from_slice(&self.pairs());
        if after {
            pairs.extend_from_slice(extra);
        }
        query_string(&pairs)
    }
}

/// `GET /console/events`: one page of verified events, newest first.
pub fn list(chrome: &Chrome<'_>, events: &EventPage, templates: &[Template], filters: &EventFilters) -> Markup {
    page(
        chrome,
        "Events",
        html! {
            h1 { "Events" }
            section.card aria-labelledby="event-filters-heading" {
                h2 #event-filters-heading { "Filter" }
                form.filters method="get" action="/console/events" {
                    div.field {
                        label for="filter-template" { "Template" }
                        select #filter-template name="clickwrapTemplateId" {
                            option value="" { "All templates" }
                            @for template in templates {
                                @let id = template.id.to_string();
                                option value=(id) selected[filters.template_id == id] { (template.name) }
                            }
                        }
                    }
                    div.field {
                        label for="filter-end-user" { "End user ID" }
                        input #filter-end-user type="text" name="endUserId" value=(filters.end_user_id) autocomplete="off" spellcheck="false";
                    }
                    div.field {
                        label for="filter-status" { "Status" }
                        select #filter-status name="status" {
                            option value="" { "Accepted or declined" }
                            @for status in ["ACCEPTED", "DECLINED"] {
                                option value=(status) selected[filters.status == status] { (status) }
                            }
                        }
                    }
                    div.field {
                        label for="filter-from" { "From (UTC)" }
                        input #filter-from type="datetime-local" step="1" name="from" value=(filters.from);
                    }
                    div.field {
                        label for="filter-to" { "To (UTC)" }
                        input #filter-to type="datetime-local" step="1" name="to" value=(filters.to);
                    }
                    button.button.secondary type="submit" { "Apply" }
                    a href="/console/events" { "Clear" }
                }
                p.export {
                    "Export every matching event: "
                    a href={ "/console/events/export" (filters.with(&[("format", "ndjson")], false)) } { "NDJSON" }
                    " · "
                    a href={ "/console/events/export" (filters.with(&[("format", "csv")], false)) } { "CSV" }
                }
            }
            section.card aria-labelledby="events-heading" {
                h2 #events-heading { "Verified events" }
                @if events.items.is_empty() {
                    (empty_state("No verified events match."))
                } @else {
                    (table_region("Verified events", html! {
                        table {
                            caption.visually-hidden { "Verified events, newest first" }
                            thead { tr {
                                th scope="col" { "Event" }
                                th scope="col" { "End user" }
                                th scope="col" { "Template" }
                                th scope="col" { "Version" }
                                th scope="col" { "Action" }
                                th scope="col" { "Action at" }
                                th scope="col" { "Verified at" }
                            } }
                            tbody {
                                @for event in &events.items {
                                    tr {
                                        th scope="row" { a href={ "/console/events/" (event.id) } { code.id { (event.id) } } }
                                        td { span.wrap { (event.end_user_id.as_str()) } }
                                        td { (event.template_name) }
                                        td { (event.version) }
                                        td { (event_status_badge(event.status)) }
                                        td { (time_tag(event.action_at)) }
                                        td { (optional_time(event.verified_at, "not verified")) }
                                    }
                                }
                            }
                        }
                    }))
                }
                @if let Some(cursor) = &events.next_cursor {
                    nav.pager aria-label="Pages" {
                        a.button.secondary href={ "/console/events" (filters.with(&[("cursor", cursor)], true)) } { "Next page" }
                    }
                }
            }
            (status_form(""))
        },
    )
}

/// `GET /console/events/{id}`: everything recorded about one verified event.
pub fn detail(chrome: &Chrome<'_>, details: &EventDetails, template_name: &str, app_name: &str) -> Markup {
    let event = &details.event;
    let base = format!("/console/events/{}", event.id);
    page(
        chrome,
        &format!("Event {}", event.id),
        html! {
            (breadcrumbs(&[("Events", "/console/events".to_owned())]))
            h1 { "Clickwrap event" }
            @if event.status == EventStatus::Accepted {
                p.actions {
                    a.button.secondary href={ (base) "/certificate" } download { "Certificate of Acceptance (PDF)" }
                    a.button.secondary href={ (base) "/agreement" } download { "Agreement as shown" }
                }
            }
            section.card aria-labelledby="event-facts-heading" {
                h2 #event-facts-heading { "Event" }
                dl.facts {
                    (fact("Event ID", code(&event.id.to_string())))
                    (fact("Status", event_status_badge(event.status)))
                    (fact("Action", html! { (event.action.as_str()) }))
                    (fact("End user ID", code(event.end_user_id.as_str())))
                    (fact("Template", html! {
                        a href={ "/console/templates/" (event.template_id) } { (template_name) }
                        @if template_name != event.template_name { " " span.muted { "(shown as " (event.template_name) ")" } }
                    }))
                    (fact("Template ID", code(&event.template_id.to_string())))
                    (fact("Version", html! { (event.version) " effective at " (time_tag(event.effective_at)) }))
                    (fact("Language", html! { (language_label(event.language)) }))
                    (fact("App", html! { a href={ "/console/apps/" (event.app_id) } { (app_name) } " " (code(&event.app_id.to_string())) }))
                    (fact("Presented at", time_tag(event.presented_at)))
                    (fact("Action at", time_tag(event.action_at)))
                    (fact("Verified at", optional_time(event.verified_at, "not verified")))
                }
            }
            section.card aria-labelledby="presentation-heading" {
                h2 #presentation-heading { "Presentation" }
                dl.facts {
                    (fact("Shown as", html! { (event.presentation.mode.as_str()) }))
                    (fact("Agreement by", html! { (event.presentation.agreement_mode.as_str()) }))
                    (fact("Accept button", html! { (event.presentation.accept_label) }))
                    (fact("Checkbox label", html! {
                        @match &event.presentation.checkbox_label { Some(text) => (text), None => span.muted { "none" } }
                    }))
                    (fact("Needed scrolling", html! {
                        @match event.presentation.scroll_required {
                            Some(true) => "yes (reported by the device)",
                            Some(false) => "no (reported by the device)",
                            None => span.muted { "not reported" },
                        }
                    }))
                }
            }
            section.card aria-labelledby="evidence-heading" {
                h2 #evidence-heading { "Evidence" }
                dl.facts {
                    (fact("Content hash", code(event.content_hash.as_str())))
                    (fact("Certificate SHA-256", match &details.certificate_sha256 {
                        Some(sha) => code(&hex(sha)),
                        None => html! { span.muted { "none (only accepted events have a certificate)" } },
                    }))
                }
                h3 { "Placeholder values" }
                (json_facts(event.template_placeholders.as_deref(), "No placeholder values."))
                h3 { "Technical metadata" }
                (json_facts(Some(&event.technical_metadata), "No technical metadata."))
            }
            section.card aria-labelledby="webhook-heading" {
                h2 #webhook-heading { "Webhook" }
                @match &details.delivery {
                    // Every verification queues one; without it the event is unverified, or its
                    // delivery has been deleted after its retention period.
                    None if event.status == EventStatus::Unverified => (empty_state(
                        "No webhook yet: one is sent when the integration's server verifies the event."
                    )),
                    None => (empty_state(
                        "No webhook delivery is kept for this event. Deliveries are deleted once their retention \
                         period has passed (by default 30 days after delivery, 90 if it failed or was never sent, as \
                         when the app had no webhook URL); the event and its certificate are kept."
                    )),
                    Some(delivery) => {
                        dl.facts {
                            (fact("State", delivery_state_badge(delivery.state)))
                            (fact("Attempts", html! { (delivery.attempts) }))
                            (fact("Last attempt", optional_time(delivery.last_attempt_at, "none")))
                            (fact("Last response status", html! {
                                @match delivery.last_response_status { Some(s) => (s), None => span.muted { "none" } }
                            }))
                            (fact("Next attempt", optional_time(delivery.next_attempt_at, "none scheduled")))
                        }
                        p { a href={ "/console/apps/" (event.app_id) "/webhooks" } { "All deliveries of this app" } }
                    }
                }
            }
            (content_section(event))
        },
    )
}

/// `GET /console/status?endUserId=`: the form, and `view` when an end user was looked up.
pub fn status(chrome: &Chrome<'_>, end_user: &str, view: Option<&ConsentStatusView>) -> Markup {
    page(
        chrome,
        "Consent status",
        html! {
            (breadcrumbs(&[("Events", "/console/events".to_owned())]))
            h1 { "Consent status" }
            (status_form(end_user))
            @if let Some(view) = view {
                section.card aria-labelledby="status-result-heading" {
                    h2 #status-result-heading { "End user " span.wrap { (view.end_user_id.as_str()) } }
                    p { "Overall: " (consent_badge(view.status)) }
                    @if view.items.is_empty() {
                        (empty_state("No templates are available, so there is nothing to accept."))
                    } @else {
                        (table_region("Consent status per template", html! {
                            table {
                                caption.visually-hidden { "Consent status per template" }
                                thead { tr {
                                    th scope="col" { "Template" }
                                    th scope="col" { "Version" }
                                    th scope="col" { "Status" }
                                    th scope="col" { "Must accept again" }
                                    th scope="col" { "Last change" }
                                    th scope="col" { "Event" }
                                } }
                                tbody {
                                    @for item in &view.items {
                                        tr {
                                            th scope="row" { a href={ "/console/templates/" (item.template_id) } { (item.template_name) } }
                                            td { (item.version) " " span.muted { "since " (time_tag(item.effective_at)) } }
                                            td { (consent_badge(item.status)) }
                                            td { @if item.re_acceptance_required { (badge(Tone::Warn, "yes")) } @else { "no" } }
                                            td { (optional_time(item.last_status_update, "never")) }
                                            td {
                                                @match item.event_id {
                                                    Some(id) => a href={ "/console/events/" (id) } { "View" span.visually-hidden { " event " (id) } },
                                                    None => span.muted { "none" },
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }))
                    }
                }
            }
        },
    )
}

fn status_form(end_user: &str) -> Markup {
    html! {
        section.card aria-labelledby="status-form-heading" {
            h2 #status-form-heading { "Consent status of an end user" }
            form.filters method="get" action="/console/status" {
                div.field {
                    label for="status-end-user" { "End user ID" }
                    input #status-end-user type="text" name="endUserId" value=(end_user) required autocomplete="off" spellcheck="false";
                }
                button.button.secondary type="submit" { "Look up" }
            }
        }
    }
}

fn content_section(event: &ClickwrapEvent) -> Markup {
    html! {
        section.card aria-labelledby="content-heading" {
            h2 #content-heading { "Content as shown" }
            (sandboxed_html("event-content", "The agreement as the end user was shown it", &event.content, event.language))
            (html_source("HTML source", &event.content))
        }
    }
}

/// A JSON object as a definition list: nested objects flattened with dotted names, strings as
/// they are, anything else as JSON. Text that is not a JSON object is shown as it is.
fn json_facts(json: Option<&str>, empty: &str) -> Markup {
    let Some(text) = json else {
        return empty_state(empty);
    };
    let mut rows = Vec::new();
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(object)) => flatten("", &Value::Object(object), &mut rows),
        _ => return html! { pre.code { code { (text) } } },
    }
    if rows.is_empty() {
        return empty_state(empty);
    }
    html! {
        dl.facts {
            @for (name, value) in &rows {
                (fact(name, html! { @match value { Some(v) => span.wrap { (v) }, None => span.muted { "null" } } }))
            }
        }
    }
}

fn flatten(prefix: &str, value: &Value, rows: &mut Vec<(String, Option<String>)>) {
    match value {
        Value::Object(object) => {
            for (key, inner) in object {
                let name = if prefix.is_empty() { key.clone() } else { format!("{prefix}.{key}") };
                flatten(&name, inner, rows);
            }
        }
        Value::Null => rows.push((prefix.to_owned(), None)),
        Value::String(text) => rows.push((prefix.to_owned(), Some(text.clone()))),
        other => rows.push((prefix.to_owned(), Some(other.to_string()))),
    }
}

fn event_status_badge(status: EventStatus) -> Markup {
    let tone = match status {
        EventStatus::Accepted => Tone::Ok,
        EventStatus::Declined => Tone::Error,
        EventStatus::Unverified => Tone::Warn,
    };
    badge(tone, status.as_str())
}

fn consent_badge(status: ConsentStatus) -> Markup {
    let tone = match status {
        ConsentStatus::Accepted => Tone::Ok,
        ConsentStatus::Declined => Tone::Error,
        ConsentStatus::Unverified => Tone::Warn,
        ConsentStatus::NoData => Tone::Neutral,
    };
    badge(tone, status.as_str())
}

#[cfg(test)]
mod tests {
    use clickwrap_domain::consent::models::{Action, Presentation, PresentationMode};
    use clickwrap_domain::consent::queries::StatusItem;
    use clickwrap_domain::content::hash::ContentHash;
    use clickwrap_domain::templates::customizations::AgreementMode;
    use clickwrap_domain::templates::versioning::VersionNumber;
    use clickwrap_domain::webhooks::models::Delivery;
    use clickwrap_domain::{AppId, DeliveryId, EndUserId, EventId, Language, TemplateId, TenantId};

    use clickwrap_domain::webhooks::models::DeliveryState;

    use super::*;
    use crate::views::test_support::*;

    const EVENT_ID: &str = "0190b7c4-2a1e-7cc3-9f00-00000000eeee";

    fn event(status: EventStatus) -> ClickwrapEvent {
        let content = format!("<h1>Terms</h1><p>Hello {HOSTILE} \"quoted\"</p>");
        ClickwrapEvent {
            id: EventId::parse(EVENT_ID).unwrap(),
            tenant_id: TenantId::parse(TENANT_ID).unwrap(),
            app_id: AppId::parse(APP_ID).unwrap(),
            template_id: TemplateId::parse(TEMPLATE_ID).unwrap(),
            template_name: "Terms (old name)".into(),
            version: VersionNumber::new(2, 1),
            effective_at: at("2026-02-01T00:00:00Z"),
            end_user_id: EndUserId::parse(LONG).unwrap(),
            action: if status == EventStatus::Declined { Action::Declined } else { Action::Accepted },
            status,
            language: Language::German,
            content_hash: ContentHash::of(&content),
            content,
            template_placeholders: Some(
                r#"{"fullName":"Ada <Lovelace>","customPlaceholders":{"orderId":"42"}}"#.into(),
            ),
            technical_metadata:
                r#"{"ipAddress":"203.0.113.7","userAgent":"Mozilla/5.0","client":{"sdk":"js","v":"1.2.0"}}"#.into(),
            presentation: Presentation {
                mode: PresentationMode::Dialog,
                agreement_mode: AgreementMode::Checkbox,
                accept_label: "Accept".into(),
                checkbox_label: Some("I agree".into()),
                scroll_required: None,
            },
            presented_at: at("2026-06-15T11:59:00Z"),
            action_at: at("2026-06-15T11:59:30Z"),
            verified_at: Some(at("2026-06-15T11:59:31Z")),
        }
    }

    fn filters() -> EventFilters {
        EventFilters {
            template_id: TEMPLATE_ID.into(),
            end_user_id: "user 1&2".into(),
            status: "ACCEPTED".into(),
            from: "2026-06-01T00:00".into(),
            to: String::new(),
        }
    }

    #[test]
    fn list_with_filters_paging_and_exports() {
        let page_items = EventPage { items: vec![event(EventStatus::Accepted)], next_cursor: Some("abc+/=".into()) };
        let html = list(&admin(), &page_items, &[template(HOSTILE)], &filters()).into_string();
        let query = format!(
            "clickwrapTemplateId={TEMPLATE_ID}&amp;endUserId=user%201%262&amp;status=ACCEPTED&amp;from=2026-06-01T00%3A00"
        );
        for needle in [
            &format!(r#"<option value="{TEMPLATE_ID}" selected>&lt;script&gt;alert(1)&lt;/script&gt;</option>"#),
            r#"name="endUserId" value="user 1&amp;2""#,
            r#"<option value="ACCEPTED" selected>ACCEPTED</option>"#,
            r#"type="datetime-local" step="1" name="from" value="2026-06-01T00:00""#,
            &format!(r#"href="/console/events/export?format=ndjson&amp;{query}""#),
            &format!(r#"href="/console/events/export?format=csv&amp;{query}""#),
            &format!(r#"href="/console/events?{query}&amp;cursor=abc%2B%2F%3D""#),
            &format!(r#"href="/console/events/{EVENT_ID}""#),
            LONG,
            ">ACCEPTED<",
            "<td>2.1</td>",
            r#"action="/console/status""#,
        ] {
            assert!(html.contains(needle), "missing {needle}");
        }
        assert_escaped(&html);
        assert_common_rules(&html);
        assert_no_change_forms(&html);
    }

    #[test]
    fn empty_list() {
        let html = list(&viewer(), &EventPage { items: vec![], next_cursor: None }, &[], &EventFilters::default())
            .into_string();
        assert!(html.contains("No verified events match.") && !html.contains("Next page"));
        assert!(html.contains(r#"href="/console/events/export?format=csv""#));
        assert_common_rules(&html);
    }

    #[test]
    fn detail_shows_every_field_the_content_and_downloads() {
        let delivery = Delivery {
            id: DeliveryId::parse("0190b7c4-2a1e-7cc3-9f00-00000000dddd").unwrap(),
            tenant_id: TenantId::parse(TENANT_ID).unwrap(),
            app_id: AppId::parse(APP_ID).unwrap(),
            event_id: EventId::parse(EVENT_ID).unwrap(),
            payload: "{}".into(),
            state: DeliveryState::Delivered,
            attempts: 2,
            next_attempt_at: None,
            last_attempt_at: Some(now()),
            last_response_status: Some(200),
            created_at: now(),
        };
        let details = EventDetails {
            event: event(EventStatus::Accepted),
            certificate_sha256: Some([0xab; 32]),
            delivery: Some(delivery),
        };
        let html = detail(&admin(), &details, "Terms", "Shop").into_string();
        for needle in [
            &format!(r#"href="/console/events/{EVENT_ID}/certificate""#),
            &format!(r#"href="/console/events/{EVENT_ID}/agreement""#),
            "(shown as Terms (old name))",
            &"ab".repeat(32),
            details.event.content_hash.as_str(),
            "<dt>fullName</dt><dd><span class=\"wrap\">Ada &lt;Lovelace&gt;</span></dd>",
            "<dt>customPlaceholders.orderId</dt>",
            "<dt>client.sdk</dt>",
            "203.0.113.7",
            ">DELIVERED<",
            "German (de)",
            "CHECKBOX",
            "I agree",
            r#"<iframe class="preview-frame" id="event-content" sandbox="" title="The agreement as the end user was shown it" srcdoc="&lt;!DOCTYPE html&gt;"#,
            "&lt;body&gt;&lt;h1&gt;Terms&lt;/h1&gt;&lt;p&gt;Hello &lt;script&gt;",
            "2026-06-15 11:59:31 UTC",
        ] {
            assert!(html.contains(needle), "missing {needle}");
        }
        assert_escaped(&html);
        assert_common_rules(&html);
        assert_no_change_forms(&html);

        let declined = EventDetails { event: event(EventStatus::Declined), certificate_sha256: None, delivery: None };
        let html = detail(&viewer(), &declined, "Terms (old name)", "Shop").into_string();
        assert!(!html.contains("/certificate\"") && !html.contains("/agreement\""));
        assert!(html.contains("No webhook delivery is kept for this event.") && html.contains(">DECLINED<"));
        // A delivery never sent (no webhook URL: DISABLED) is kept as long as a failed one.
        assert!(html.contains("90 if it failed or was never sent"), "{html}");
        let unverified =
            EventDetails { event: event(EventStatus::Unverified), certificate_sha256: None, delivery: None };
        let html = detail(&viewer(), &unverified, "Terms", "Shop").into_string();
        assert!(html.contains("No webhook yet"), "{html}");
        assert_common_rules(&html);
    }

    #[test]
    fn status_lists_each_template() {
        let view = ConsentStatusView {
            end_user_id: EndUserId::parse(HOSTILE).unwrap(),
            status: ConsentStatus::Declined,
            items: vec![
                StatusItem {
                    template_id: TemplateId::parse(TEMPLATE_ID).unwrap(),
                    template_name: "Terms".into(),
                    tags: vec![],
                    version: VersionNumber::new(2, 0),
                    effective_at: at("2026-02-01T00:00:00Z"),
                    status: ConsentStatus::Accepted,
                    re_acceptance_required: true,
                    last_status_update: Some(now()),
                    event_id: Some(EventId::parse(EVENT_ID).unwrap()),
                },
                StatusItem {
                    template_id: TemplateId::parse(TEMPLATE_ID).unwrap(),
                    template_name: "Privacy".into(),
                    tags: vec![],
                    version: VersionNumber::new(1, 0),
                    effective_at: at("2026-02-01T00:00:00Z"),
                    status: ConsentStatus::NoData,
                    re_acceptance_required: false,
                    last_status_update: None,
                    event_id: None,
                },
            ],
        };
        let html = status(&viewer(), HOSTILE, Some(&view)).into_string();
        for needle in [
            ">DECLINED<",
            ">ACCEPTED<",
            ">NO_DATA<",
            ">yes<",
            "Privacy",
            &format!(r#"href="/console/events/{EVENT_ID}""#),
        ] {
            assert!(html.contains(needle), "missing {needle}");
        }
        assert!(html.contains(r#"name="endUserId" value="&lt;script&gt;alert(1)&lt;/script&gt;""#));
        assert_escaped(&html);
        assert_common_rules(&html);

        let html = status(&admin(), "", None).into_string();
        assert!(html.contains("Consent status of an end user") && !html.contains("Overall"));
        assert_common_rules(&html);
    }
}
