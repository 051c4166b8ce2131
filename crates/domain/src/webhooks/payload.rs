//! What the verification of an event writes to the webhook outbox.

use super::events::{ClickwrapEventData, message_body};
use super::models::{Delivery, DeliveryState};
use crate::consent::models::ClickwrapEvent;
use crate::{DeliveryId, Timestamp};

/// The body of `CLICKWRAP_EVENT_VERIFIED` for a verified event, made at `now`:
/// `{"eventType", "timestamp", "data"}` with the spec's ten data fields.
pub fn verified_event_payload(event: &ClickwrapEvent, now: Timestamp) -> String {
    message_body(&ClickwrapEventData(event), now)
}

/// The delivery the verification of `event` writes to the outbox.
pub fn outbox_entry(id: DeliveryId, event: &ClickwrapEvent, webhook_active: bool, now: Timestamp) -> Delivery {
    Delivery {
        id,
        tenant_id: event.tenant_id,
        app_id: event.app_id,
        event_id: event.id,
        payload: verified_event_payload(event, now),
        state: if webhook_active { DeliveryState::Pending } else { DeliveryState::Disabled },
        attempts: 0,
        next_attempt_at: webhook_active.then_some(now),
        last_attempt_at: None,
        last_response_status: None,
        created_at: now,
    }
}
