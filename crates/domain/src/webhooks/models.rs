use crate::{AppId, DeliveryId, EventId, TenantId, Timestamp};
use std::fmt;

string_enum! {
    /// Where a delivery stands.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum DeliveryState {
    /// Due now or at `next_attempt_at`.
        Pending => "PENDING",
    /// A receiver answered 200.
        Delivered => "DELIVERED",
    /// Every attempt failed; kept for the history and for redelivery.
        Failed => "FAILED",
    /// The app had no webhook URL or its webhook was switched off when the event was verified.
        Disabled => "DISABLED",
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

impl Delivery {
    /// The message's id, sent as `webhook-id`: the receiver's idempotency key, the same on every
    /// attempt and every redelivery of the message (and, once a message goes to several endpoints,
    /// on each endpoint's delivery of it). Derived from what the delivery already stores, not kept
    /// apart: every message today is a verified event's, so it is `msg_` + the event's id.
    pub fn message_id(&self) -> String {
        format!("msg_{}", self.event_id)
    }
}

string_enum! {
    /// Why an attempt did not deliver, as recorded in the delivery history. The names are stable:
    /// they are stored and shown.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum AttemptError {
        /// The receiver answered, with a status other than 200 (the status is recorded too).
        UnexpectedStatus => "UNEXPECTED_STATUS",
        /// No answer within the timeout.
        Timeout => "TIMEOUT",
        /// The host resolved only to addresses webhooks may not reach (or is such an IP literal).
        BlockedAddress => "BLOCKED_ADDRESS",
        /// The host name did not resolve.
        Dns => "DNS",
        /// No TCP connection could be made.
        Connect => "CONNECT",
        /// The TLS handshake failed (untrusted or mismatched certificate, protocol error).
        Tls => "TLS",
        /// The connection broke or the answer was not HTTP/1.1.
        Protocol => "PROTOCOL",
        /// The app's signing secret could not be read, so nothing was sent.
        SigningSecret => "SIGNING_SECRET",
    }
}

impl AttemptError {
    /// What went wrong, in words an operator reads in the delivery history.
    pub const fn describe(self) -> &'static str {
        match self {
            AttemptError::UnexpectedStatus => "the receiver answered with a status other than 200",
            AttemptError::Timeout => "no answer within the timeout",
            AttemptError::BlockedAddress => "the host resolves to an address webhooks may not reach",
            AttemptError::Dns => "the host name did not resolve",
            AttemptError::Connect => "no connection could be made",
            AttemptError::Tls => "the TLS handshake failed",
            AttemptError::Protocol => "the connection broke or the answer was not HTTP/1.1",
            AttemptError::SigningSecret => "the signing secret could not be read; nothing was sent",
        }
    }
}

impl fmt::Display for AttemptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One attempt to deliver a webhook, as kept in the delivery history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeliveryAttempt {
    pub id: uuid::Uuid,
    pub tenant_id: TenantId,
    pub delivery_id: DeliveryId,
    /// 1 for the delivery's first attempt; counts on across redeliveries.
    pub number: u32,
    /// The exact body sent.
    pub request_body: String,
    pub response_status: Option<u16>,
    /// The start of the response body, at most
    /// [`RESPONSE_EXCERPT_MAX_BYTES`](crate::webhooks::dispatch::RESPONSE_EXCERPT_MAX_BYTES) bytes (see
    /// [`response_excerpt`](crate::webhooks::dispatch::response_excerpt)).
    pub response_excerpt: Option<String>,
    /// `None` when delivered.
    pub error: Option<AttemptError>,
    pub started_at: Timestamp,
    pub duration_ms: u32,
}

/// A delivery and its attempts, newest attempt first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeliveryRecord {
    pub delivery: Delivery,
    pub attempts: Vec<DeliveryAttempt>,
}

/// The keyset position of the last item of a page of deliveries: newest first by `created_at`,
/// ties broken by id descending.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DeliveryPosition {
    pub created_at: Timestamp,
    pub id: DeliveryId,
}

impl DeliveryPosition {
    pub fn of(delivery: &Delivery) -> Self {
        Self { created_at: delivery.created_at, id: delivery.id }
    }

    /// Whether an item at `self` comes after `cursor` in list order: `(created_at, id) < cursor's`.
    pub fn is_after(&self, cursor: &DeliveryPosition) -> bool {
        (self.created_at, self.id) < (cursor.created_at, cursor.id)
    }
}
