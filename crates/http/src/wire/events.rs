//! Clickwrap events on the wire: the spec's eleven fields, the details view, a page of the list.

use clickwrap_domain::consent::models::{ClickwrapEvent, EventDetails};
use clickwrap_domain::consent::queries::EventPage;
use serde_json::{Map, Value, json};

use super::{optional_timestamp, timestamp};

/// The eleven fields of a verified clickwrap event (the spec's "Clickwrap event" table).
pub(crate) fn event(e: &ClickwrapEvent) -> Map<String, Value> {
    let value = json!({
        "clickwrapEventStatus": e.status.as_str(),
        "clickwrapEventId": e.id.to_string(),
        "clickwrapTemplateId": e.template_id.to_string(),
        "clickwrapTemplateVersion": e.version.major,
        "clickwrapTemplateVersionMinor": e.version.minor,
        "endUserId": e.end_user_id.as_str(),
        "templatePlaceholders": e.template_placeholders,
        "technicalMetadata": e.technical_metadata,
        "presentedAt": timestamp(e.presented_at),
        "actionAt": timestamp(e.action_at),
        "effectiveAt": timestamp(e.effective_at),
    });
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

/// `POST /clickwrap/verify`: the spec's fields plus `effectiveAt`.
pub(crate) fn verified(e: &ClickwrapEvent) -> Value {
    let mut fields = event(e);
    fields.remove("presentedAt");
    Value::Object(fields)
}

pub(crate) fn page(page: &EventPage) -> Value {
    json!({
        "items": page.items.iter().map(|e| Value::Object(event(e))).collect::<Vec<_>>(),
        "nextPageCursor": page.next_cursor,
    })
}

pub(crate) fn details(d: &EventDetails) -> Value {
    let e = &d.event;
    let mut fields = event(e);
    fields.insert("language".into(), Value::from(e.language.code()));
    fields.insert("content".into(), Value::from(e.content.as_str()));
    fields.insert("contentHash".into(), Value::from(e.content_hash.as_str()));
    fields.insert(
        "presentation".into(),
        json!({
            "mode": e.presentation.mode.as_str(),
            "agreementMode": e.presentation.agreement_mode.as_str(),
            "acceptLabel": e.presentation.accept_label,
            "checkboxLabel": e.presentation.checkbox_label,
            "scrollRequired": e.presentation.scroll_required,
        }),
    );
    fields
        .insert("certificateSha256".into(), d.certificate_sha256.map_or(Value::Null, |h| Value::from(hex::encode(h))));
    let webhook = d.delivery.as_ref().map_or(Value::Null, |w| {
        json!({
            "state": w.state.as_str(),
            "attempts": w.attempts,
            "lastAttemptAt": optional_timestamp(w.last_attempt_at),
            "lastResponseStatus": w.last_response_status,
        })
    });
    fields.insert("webhook".into(), webhook);
    Value::Object(fields)
}
