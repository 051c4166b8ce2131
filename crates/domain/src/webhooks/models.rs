use crate::consent::models::ClickwrapEvent;
use crate::{AppId, DeliveryId, EventId, TenantId, Timestamp};

/// The one event type the service sends.
pub const EVENT_VERIFIED: &str = "CLICKWRAP_EVENT_VERIFIED";

/// Where a delivery stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeliveryState {
    /// Due now or at `next_attempt_at`.
    Pending,
    /// A receiver answered 200.
    Delivered,
    /// Every attempt failed; kept for the history and for redelivery.
    Failed,
    /// The app had no webhook URL or its webhook was switched off when the event was verified.
    Disabled,
}

impl DeliveryState {
    pub const fn as_str(self) -> &'static str {
        match self {
            DeliveryState::Pending => "PENDING",
            DeliveryState::Delivered => "DELIVERED",
            DeliveryState::Failed => "FAILED",
            DeliveryState::Disabled => "DISABLED",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "PENDING" => Some(DeliveryState::Pending),
            "DELIVERED" => Some(DeliveryState::Delivered),
            "FAILED" => Some(DeliveryState::Failed),
            "DISABLED" => Some(DeliveryState::Disabled),
            _ => None,
        }
    }
}

/// A webhook delivery: written in the verification's transaction (the outbox), worked off later.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Delivery {
    pub id: DeliveryId,
    pub tenant_id: TenantId,
    pub app_id: AppId,
    pub event_id: EventId,
    /// The exact JSON body sent on every attempt; the signature covers it byte for byte.
    pub payload: String,
    pub state: DeliveryState,
    pub attempts: u32,
    pub next_attempt_at: Option<Timestamp>,
    pub last_attempt_at: Option<Timestamp>,
    pub last_response_status: Option<u16>,
    pub created_at: Timestamp,
}

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
