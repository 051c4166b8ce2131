//! Every webhook event type the service sends, and the `data` each carries: the one list (the
//! OpenAPI document's `webhooks:` section has one entry per type, and a test keeps the two in step).
//!
//! Every message body is `{"eventType", "timestamp", "data"}` ([`message_body`]): the type, when the
//! message was made (RFC 3339; the same bytes on every attempt and redelivery), and the type's data.
//! Only `CLICKWRAP_EVENT_VERIFIED` is sent today; the others are defined here for the features that
//! emit them (withdrawal, terms changes, erasure, the endpoints' "send test event").

use serde_json::{Value, json};

use crate::consent::models::ClickwrapEvent;
use crate::{EventId, TemplateId, Timestamp};

string_enum! {
    /// What a webhook message is about: its `eventType`.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub enum EventType {
        /// A clickwrap event was verified (the spec's one event type). Data: [`ClickwrapEventData`].
        ClickwrapEventVerified => "CLICKWRAP_EVENT_VERIFIED",
        /// An end user withdrew an acceptance. Data: [`ClickwrapEventData`] of the withdrawal.
        ClickwrapEventWithdrawn => "CLICKWRAP_EVENT_WITHDRAWN",
        /// A template version became effective (also a scheduled one, at its time). Data:
        /// [`TemplateVersionEffectiveData`].
        TemplateVersionEffective => "TEMPLATE_VERSION_EFFECTIVE",
        /// A version's re-acceptance deadline passed (once per version). Data:
        /// [`ReacceptanceDeadlinePassedData`].
        ReacceptanceDeadlinePassed => "REACCEPTANCE_DEADLINE_PASSED",
        /// An end user's personal data was erased. Data: [`EndUserErasedData`].
        EndUserErased => "END_USER_ERASED",
        /// Sent only by "send test event" to one endpoint. Data: [`WebhookTestData`].
        WebhookTest => "WEBHOOK_TEST",
    }
}

impl EventType {
    /// The fields of this type's `data`, in the order they are written: what the OpenAPI
    /// document's schema of the type requires.
    pub const fn data_fields(self) -> &'static [&'static str] {
        match self {
            EventType::ClickwrapEventVerified => &CLICKWRAP_EVENT_FIELDS,
            EventType::ClickwrapEventWithdrawn => &CLICKWRAP_EVENT_WITHDRAWN_FIELDS,
            EventType::TemplateVersionEffective => &[
                "clickwrapTemplateId",
                "clickwrapTemplateVersion",
                "clickwrapTemplateVersionMinor",
                "effectiveAt",
                "requireReacceptance",
                "acceptBy",
            ],
            EventType::ReacceptanceDeadlinePassed => &[
                "clickwrapTemplateId",
                "clickwrapTemplateVersion",
                "clickwrapTemplateVersionMinor",
                "acceptBy",
                "required",
                "accepted",
                "declined",
                "withdrawn",
                "outstanding",
            ],
            EventType::EndUserErased => &["endUserId", "erasedAt", "events"],
            EventType::WebhookTest => &["webhookEndpointId", "sentAt"],
        }
    }
}

/// The spec's ten fields of `CLICKWRAP_EVENT_VERIFIED`'s data.
const CLICKWRAP_EVENT_FIELDS: [&str; 10] = [
    "clickwrapEventId",
    "clickwrapTemplateId",
    "clickwrapTemplateVersion",
    "clickwrapTemplateVersionMinor",
    "endUserId",
    "templatePlaceholders",
    "technicalMetadata",
    "actionAt",
    "effectiveAt",
    "clickwrapEventStatus",
];

/// A withdrawal's fields: a verified event's, and the acceptance it ends.
const CLICKWRAP_EVENT_WITHDRAWN_FIELDS: [&str; 11] = [
    "clickwrapEventId",
    "clickwrapTemplateId",
    "clickwrapTemplateVersion",
    "clickwrapTemplateVersionMinor",
    "endUserId",
    "templatePlaceholders",
    "technicalMetadata",
    "actionAt",
    "effectiveAt",
    "clickwrapEventStatus",
    "withdraws",
];

/// The `data` of one event type.
pub trait EventData {
    /// The `eventType` this data goes with.
    fn event_type(&self) -> EventType;
    /// The JSON object, with exactly the type's [`EventType::data_fields`].
    fn to_json(&self) -> Value;
}

/// `CLICKWRAP_EVENT_VERIFIED` (and, with [`ClickwrapEventWithdrawnData`], a withdrawal): the
/// spec's ten fields of a verified event.
#[derive(Debug, Clone, Copy)]
pub struct ClickwrapEventData<'a>(pub &'a ClickwrapEvent);

impl EventData for ClickwrapEventData<'_> {
    fn event_type(&self) -> EventType {
        EventType::ClickwrapEventVerified
    }

    fn to_json(&self) -> Value {
        let event = self.0;
        json!({
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
        })
    }
}

/// `CLICKWRAP_EVENT_WITHDRAWN`: the withdrawal event's fields, and `withdraws`, the id of the
/// acceptance it ends.
#[derive(Debug, Clone, Copy)]
pub struct ClickwrapEventWithdrawnData<'a> {
    pub withdrawal: &'a ClickwrapEvent,
    pub withdraws: EventId,
}

impl EventData for ClickwrapEventWithdrawnData<'_> {
    fn event_type(&self) -> EventType {
        EventType::ClickwrapEventWithdrawn
    }

    fn to_json(&self) -> Value {
        let mut data = ClickwrapEventData(self.withdrawal).to_json();
        if let Some(object) = data.as_object_mut() {
            object.insert("withdraws".to_owned(), Value::String(self.withdraws.to_string()));
        }
        data
    }
}

/// `TEMPLATE_VERSION_EFFECTIVE`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TemplateVersionEffectiveData {
    pub template_id: TemplateId,
    pub major: u32,
    pub minor: u32,
    pub effective_at: Timestamp,
    pub require_reacceptance: bool,
    pub accept_by: Option<Timestamp>,
}

impl EventData for TemplateVersionEffectiveData {
    fn event_type(&self) -> EventType {
        EventType::TemplateVersionEffective
    }

    fn to_json(&self) -> Value {
        json!({
            "clickwrapTemplateId": self.template_id.to_string(),
            "clickwrapTemplateVersion": self.major,
            "clickwrapTemplateVersionMinor": self.minor,
            "effectiveAt": self.effective_at.to_rfc3339(),
            "requireReacceptance": self.require_reacceptance,
            "acceptBy": self.accept_by.map(|at| at.to_rfc3339()),
        })
    }
}

/// `REACCEPTANCE_DEADLINE_PASSED`: the version and its campaign's counts when the deadline passed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReacceptanceDeadlinePassedData {
    pub template_id: TemplateId,
    pub major: u32,
    pub minor: u32,
    pub accept_by: Timestamp,
    pub required: u64,
    pub accepted: u64,
    pub declined: u64,
    pub withdrawn: u64,
    pub outstanding: u64,
}

impl EventData for ReacceptanceDeadlinePassedData {
    fn event_type(&self) -> EventType {
        EventType::ReacceptanceDeadlinePassed
    }

    fn to_json(&self) -> Value {
        json!({
            "clickwrapTemplateId": self.template_id.to_string(),
            "clickwrapTemplateVersion": self.major,
            "clickwrapTemplateVersionMinor": self.minor,
            "acceptBy": self.accept_by.to_rfc3339(),
            "required": self.required,
            "accepted": self.accepted,
            "declined": self.declined,
            "withdrawn": self.withdrawn,
            "outstanding": self.outstanding,
        })
    }
}

/// `END_USER_ERASED`: who was erased, when, and how many of their events.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EndUserErasedData {
    pub end_user_id: String,
    pub erased_at: Timestamp,
    pub events: u64,
}

impl EventData for EndUserErasedData {
    fn event_type(&self) -> EventType {
        EventType::EndUserErased
    }

    fn to_json(&self) -> Value {
        json!({
            "endUserId": self.end_user_id,
            "erasedAt": self.erased_at.to_rfc3339(),
            "events": self.events,
        })
    }
}

/// `WEBHOOK_TEST`: which endpoint the test was sent to, and when it was asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebhookTestData {
    pub webhook_endpoint_id: String,
    pub sent_at: Timestamp,
}

impl EventData for WebhookTestData {
    fn event_type(&self) -> EventType {
        EventType::WebhookTest
    }

    fn to_json(&self) -> Value {
        json!({
            "webhookEndpointId": self.webhook_endpoint_id,
            "sentAt": self.sent_at.to_rfc3339(),
        })
    }
}

/// The body of a message: `{"eventType", "timestamp", "data"}`, in that order, compact. It is
/// written once, when the message is made, and sent byte for byte on every attempt.
pub fn message_body(data: &dyn EventData, timestamp: Timestamp) -> String {
    // Written by hand around the data's JSON so the key order is fixed whatever serde_json's map is.
    let event_type = Value::String(data.event_type().as_str().to_owned());
    let timestamp = Value::String(timestamp.to_rfc3339());
    format!(r#"{{"eventType":{event_type},"timestamp":{timestamp},"data":{}}}"#, data.to_json())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> Timestamp {
        Timestamp::parse_rfc3339(text).unwrap()
    }

    fn template() -> TemplateId {
        TemplateId::parse("0190b7c4-2a1e-7cc3-9f00-5d1e2f3a4b5c").unwrap()
    }

    fn every_type_s_data() -> Vec<Box<dyn EventData>> {
        let effective = TemplateVersionEffectiveData {
            template_id: template(),
            major: 2,
            minor: 1,
            effective_at: at("2026-01-01T00:00:00Z"),
            require_reacceptance: true,
            accept_by: Some(at("2026-02-01T00:00:00Z")),
        };
        let deadline = ReacceptanceDeadlinePassedData {
            template_id: template(),
            major: 2,
            minor: 0,
            accept_by: at("2026-02-01T00:00:00Z"),
            required: 10,
            accepted: 6,
            declined: 1,
            withdrawn: 1,
            outstanding: 2,
        };
        let erased =
            EndUserErasedData { end_user_id: "user-1".into(), erased_at: at("2026-03-01T00:00:00Z"), events: 3 };
        let test = WebhookTestData { webhook_endpoint_id: "ep".into(), sent_at: at("2026-03-01T00:00:00Z") };
        vec![Box::new(effective), Box::new(deadline), Box::new(erased), Box::new(test)]
    }

    #[test]
    fn every_type_has_a_unique_upper_snake_name_and_round_trips() {
        assert_eq!(EventType::ALL.len(), 6);
        for event_type in EventType::ALL {
            assert_eq!(EventType::parse(event_type.as_str()), Some(event_type));
            assert!(event_type.as_str().bytes().all(|b| b.is_ascii_uppercase() || b == b'_'));
        }
        assert_eq!(EventType::ClickwrapEventVerified.as_str(), "CLICKWRAP_EVENT_VERIFIED");
        assert_eq!(EventType::parse("clickwrap_event_verified"), None);
    }

    #[test]
    fn each_data_has_exactly_its_type_s_fields() {
        for data in every_type_s_data() {
            let json = data.to_json();
            let keys: Vec<&str> = json.as_object().unwrap().keys().map(String::as_str).collect();
            let mut expected = data.event_type().data_fields().to_vec();
            expected.sort_unstable();
            let mut keys = keys;
            keys.sort_unstable();
            assert_eq!(keys, expected, "{}", data.event_type().as_str());
        }
        assert_eq!(EventType::ClickwrapEventVerified.data_fields().len(), 10);
        assert_eq!(EventType::ClickwrapEventWithdrawn.data_fields()[..10], CLICKWRAP_EVENT_FIELDS);
    }

    #[test]
    fn the_body_is_event_type_timestamp_data_in_that_order() {
        let data = EndUserErasedData { end_user_id: "a\"b".into(), erased_at: at("2026-03-01T00:00:00Z"), events: 3 };
        let body = message_body(&data, at("2026-03-01T00:00:01.5Z"));
        assert_eq!(
            body,
            r#"{"eventType":"END_USER_ERASED","timestamp":"2026-03-01T00:00:01.500Z","data":{"endUserId":"a\"b","erasedAt":"2026-03-01T00:00:00.000Z","events":3}}"#
        );
        let parsed: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(parsed["data"]["endUserId"], "a\"b");
    }
}
