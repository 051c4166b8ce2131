use crate::Name;
use crate::content::hash::ContentHash;
use crate::ledger::models::LedgerLeaf;
use crate::limits::quota::QuotaPeriod;
use crate::templates::customizations::AgreementMode;
use crate::templates::customizations::Customizations;
use crate::templates::customizations::DialogTexts;
use crate::templates::versioning::VersionNumber;
use crate::webhooks::models::Delivery;
use crate::{AppId, EndUserId, EventId, Language, TemplateId, TenantId, Timestamp};

string_enum! {
    /// What the end user did in the dialog.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum Action {
        Accepted => "ACCEPTED",
        Declined => "DECLINED",
    }
}

string_enum! {
    /// The state of a clickwrap event. It starts `Unverified` and becomes the end user's action only
    /// when the operator's backend verifies the Signature, once.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum EventStatus {
        Unverified => "UNVERIFIED",
        Accepted => "ACCEPTED",
        Declined => "DECLINED",
    }
}

impl EventStatus {
    pub const fn is_verified(self) -> bool {
        !matches!(self, EventStatus::Unverified)
    }
}

impl From<Action> for EventStatus {
    fn from(action: Action) -> Self {
        match action {
            Action::Accepted => EventStatus::Accepted,
            Action::Declined => EventStatus::Declined,
        }
    }
}

string_enum! {
    /// How the clickwrap was shown: part of the evidence of what the end user agreed to.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum PresentationMode {
        Dialog => "DIALOG",
        Inline => "INLINE",
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Presentation {
    pub mode: PresentationMode,
    pub agreement_mode: AgreementMode,
    /// The exact wording of the button the end user pressed to accept.
    pub accept_label: String,
    /// The exact wording next to the checkbox, in checkbox mode.
    pub checkbox_label: Option<String>,
    /// As the client reported it: whether the content was taller than its box, so that (in
    /// scroll mode) accepting waited until the end had been reached. `None`: not reported.
    pub scroll_required: Option<bool>,
}

/// One presentation of a template version to an end user and the action taken on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClickwrapEvent {
    pub id: EventId,
    pub tenant_id: TenantId,
    pub app_id: AppId,
    pub template_id: TemplateId,
    /// The template's name when it was shown (names can change later; the evidence cannot).
    pub template_name: String,
    pub version: VersionNumber,
    pub effective_at: Timestamp,
    pub end_user_id: EndUserId,
    pub action: Action,
    pub status: EventStatus,
    pub language: Language,
    /// The content exactly as it was shown: sanitized HTML with placeholders filled.
    pub content: String,
    pub content_hash: ContentHash,
    /// JSON text of the placeholder values, or none.
    pub template_placeholders: Option<String>,
    /// JSON text: client IP, user agent and what the client reported about itself.
    pub technical_metadata: String,
    pub presentation: Presentation,
    pub presented_at: Timestamp,
    pub action_at: Timestamp,
    pub verified_at: Option<Timestamp>,
}

/// A transition the event state machine does not allow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum TransitionError {
    #[error("the event was already verified as {}", .0.as_str())]
    AlreadyVerified(EventStatus),
}

impl ClickwrapEvent {
    /// UNVERIFIED becomes the end user's action, once. Every other transition is refused.
    pub fn verify(&mut self, at: Timestamp) -> Result<(), TransitionError> {
        if self.status.is_verified() {
            return Err(TransitionError::AlreadyVerified(self.status));
        }
        self.status = self.action.into();
        self.verified_at = Some(at);
        Ok(())
    }
}

string_enum! {
    /// The file formats of the export of the events list (`format=ndjson|csv`), named as in the
    /// query and used as the file's extension.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum ExportFormat {
        /// One JSON object per line, each exactly the event's details answer.
        Ndjson => "ndjson",
        /// A header row, then one row per event; nested values as JSON text.
        Csv => "csv",
    }
}

/// The spec's filters of the events list; all optional, combinable.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct EventFilter {
    pub template_id: Option<TemplateId>,
    pub end_user_id: Option<EndUserId>,
    /// ACCEPTED or DECLINED (the list holds verified events only).
    pub status: Option<Action>,
    /// Inclusive bounds on `actionAt`.
    pub from: Option<Timestamp>,
    pub to: Option<Timestamp>,
}

impl EventFilter {
    /// Whether `from` is not after `to` (either may be left out).
    pub fn range_is_valid(&self) -> bool {
        !matches!((self.from, self.to), (Some(from), Some(to)) if from > to)
    }

    /// A canonical byte string of the filters, so a cursor can be bound to exactly them.
    pub fn fingerprint(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(128);
        let mut field = |tag: u8, value: &[u8]| {
            bytes.push(tag);
            bytes.extend_from_slice(&u32::try_from(value.len()).unwrap_or(u32::MAX).to_be_bytes());
            bytes.extend_from_slice(value);
        };
        if let Some(id) = &self.template_id {
            field(1, id.as_bytes());
        }
        if let Some(user) = &self.end_user_id {
            field(2, user.as_str().as_bytes());
        }
        if let Some(status) = self.status {
            field(3, status.as_str().as_bytes());
        }
        if let Some(from) = self.from {
            field(4, &from.unix_millis().to_be_bytes());
        }
        if let Some(to) = self.to {
            field(5, &to.unix_millis().to_be_bytes());
        }
        bytes
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventDetails {
    pub event: ClickwrapEvent,
    pub certificate_sha256: Option<[u8; 32]>,
    pub delivery: Option<Delivery>,
}

/// A signed Certificate of Acceptance, stored immutably at verification.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredCertificate {
    pub event_id: EventId,
    pub pdf: Vec<u8>,
    pub sha256: [u8; 32],
    pub created_at: Timestamp,
    /// The app's name printed on it, as it was at verification (the agreement PDF prints the
    /// same); `None` only for certificates stored before the names were kept.
    pub app_name: Option<String>,
    /// The operator's legal name printed on it, if one was set at verification.
    pub operator_name: Option<String>,
}

/// Everything a verification writes, in one transaction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerificationRecord {
    /// The event, already moved to ACCEPTED or DECLINED.
    pub event: ClickwrapEvent,
    /// For ACCEPTED events.
    pub certificate: Option<StoredCertificate>,
    /// The webhook outbox entry.
    pub delivery: Delivery,
    /// The tenant's quota, enforced by the same transaction.
    pub quota: Option<u64>,
    pub period: QuotaPeriod,
    /// The event's leaf, appended to its tenant's evidence ledger by the same transaction.
    pub ledger_leaf: LedgerLeaf,
}

/// An event about to be verified, and its tenant's terms as they are now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventToVerify {
    pub event: ClickwrapEvent,
    /// The tenant's verified events allowed per month; `None`: unlimited.
    pub event_quota: Option<u64>,
    /// The tenant's legal name, printed on the certificate.
    pub legal_name: Option<Name>,
}

/// Verified events of one UTC day.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DailyCount {
    /// Midnight UTC starting the day.
    pub day: Timestamp,
    pub accepted: u64,
    pub declined: u64,
}

/// A version rendered for one end user in one language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderedVersion {
    pub template_id: TemplateId,
    pub name: String,
    pub version: VersionNumber,
    pub effective_at: Timestamp,
    pub language: Language,
    pub content: String,
    pub content_hash: ContentHash,
}

/// What the SDK shows of a version, whoever the end user is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShownVersion {
    pub rendered: RenderedVersion,
    /// A short label for the inline checkbox: the consent wording and the agreement's name.
    pub inline_content: String,
    pub customizations: Customizations,
    pub texts: DialogTexts,
}

/// The facts a Certificate of Acceptance states.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CertificateFacts {
    pub event: ClickwrapEvent,
    /// The names in force at verification: the app's, and the operator's legal name if set.
    pub app_name: String,
    pub operator_name: Option<String>,
}
