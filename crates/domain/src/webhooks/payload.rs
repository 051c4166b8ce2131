//! What the verification of an event writes to the webhook outbox.

use super::models::{Delivery, DeliveryState, EVENT_VERIFIED};
use crate::consent::models::ClickwrapEvent;
use crate::{DeliveryId, Timestamp};

/// The body of `CLICKWRAP_EVENT_VERIFIED` for a verified event: `{"eventType", "data"}` with the
/// spec's ten data fields.
pub fn verified_event_payload(event: &ClickwrapEvent) -> String {
    let data = serde_json::json!({
        "clickwrapEventId": event.id.to_string(),
        "clickwrapTemplateId": event.template_id.to_string(),
        "clickwrapTemplateVersion": event.version.major,
        "clickwrapTemplateVersionMinor": event.version.minor,
        "endUserId": event.end_user_id.as_str(),
        "templatePlaceholders": event.template_placeholders,
        "technicalMetadata": event.technical_metadata,
        "actionAt": event.action_at.to_rfc3339(),
        "effectiveAt": event.effective_at.to_rfc3339(),
        "clickwrapEventStatus": event.status.as_str(),
    });
    serde_json::json!({ "eventType": EVENT_VERIFIED, "data": data }).to_string()
}

/// The delivery the verification of `event` writes to the outbox.
pub fn outbox_entry(id: DeliveryId, event: &ClickwrapEvent, webhook_active: bool, now: Timestamp) -> Delivery {
    Delivery {
        id,
        tenant_id: event.tenant_id,
        app_id: event.app_id,
        event_id: event.id,
        payload: verified_event_payload(event),
        state: if webhook_active { DeliveryState::Pending } else { DeliveryState::Disabled },
        attempts: 0,
        next_attempt_at: webhook_active.then_some(now),
        last_attempt_at: None,
        last_response_status: None,
        created_at: now,
    }
}
