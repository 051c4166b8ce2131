//! Events and outbox rows as their tables hold them, and the conversions to and from the domain.

use clickwrap_domain::consent::models::{Action, ClickwrapEvent, EventStatus, Presentation, PresentationMode};
use clickwrap_domain::content::hash::ContentHash;
use clickwrap_domain::ports::StorageError;
use clickwrap_domain::templates::customizations::AgreementMode;
use clickwrap_domain::templates::versioning::VersionNumber;
use clickwrap_domain::webhooks::models::Delivery;
use clickwrap_domain::{AppId, EndUserId, EventId, Language, TemplateId, TenantId};
use diesel::prelude::*;

use crate::convert::{at, i32_of, ts, u32_of};
use crate::errors::corrupt;
use crate::schema::{clickwrap_events as events, webhook_deliveries};
use crate::statement::Value;

#[derive(Queryable, Selectable)]
#[diesel(table_name = events, check_for_backend(diesel::pg::Pg))]
pub(super) struct EventRow {
    id: uuid::Uuid,
    tenant_id: uuid::Uuid,
    app_id: uuid::Uuid,
    template_id: uuid::Uuid,
    template_name: String,
    version_major: i32,
    version_minor: i32,
    effective_at: time::OffsetDateTime,
    end_user_id: String,
    action: String,
    status: String,
    language: String,
    pub(super) content_hash: String,
    template_placeholders: Option<String>,
    technical_metadata: String,
    presentation_mode: String,
    agreement_mode: String,
    accept_label: String,
    checkbox_label: Option<String>,
    presented_at: time::OffsetDateTime,
    action_at: time::OffsetDateTime,
    verified_at: Option<time::OffsetDateTime>,
    scroll_required: Option<bool>,
}

/// Inserts an event and, unless it is stored already, its rendered content (`$13` is the content
/// hash, `$24` the content). See [`EventRow::into_values`].
pub(super) const INSERT_EVENT_SQL: &str = "
WITH content AS (
    INSERT INTO event_contents (content_hash, content) VALUES ($13, $24) ON CONFLICT DO NOTHING)
INSERT INTO clickwrap_events (id, tenant_id, app_id, template_id, template_name, version_major, version_minor,
    effective_at, end_user_id, action, status, language, content_hash, template_placeholders, technical_metadata,
    presentation_mode, agreement_mode, accept_label, checkbox_label, presented_at, action_at, verified_at,
    scroll_required)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23)";

impl EventRow {
    pub(super) fn from_domain(e: &ClickwrapEvent) -> Self {
        Self {
            id: *e.id.as_uuid(),
            tenant_id: *e.tenant_id.as_uuid(),
            app_id: *e.app_id.as_uuid(),
            template_id: *e.template_id.as_uuid(),
            template_name: e.template_name.clone(),
            version_major: i32_of(e.version.major),
            version_minor: i32_of(e.version.minor),
            effective_at: at(e.effective_at),
            end_user_id: e.end_user_id.as_str().to_owned(),
            action: e.action.as_str().to_owned(),
            status: e.status.as_str().to_owned(),
            language: e.language.code().to_owned(),
            content_hash: e.content_hash.as_str().to_owned(),
            template_placeholders: e.template_placeholders.clone(),
            technical_metadata: e.technical_metadata.clone(),
            presentation_mode: e.presentation.mode.as_str().to_owned(),
            agreement_mode: e.presentation.agreement_mode.as_str().to_owned(),
            accept_label: e.presentation.accept_label.clone(),
            checkbox_label: e.presentation.checkbox_label.clone(),
            presented_at: at(e.presented_at),
            action_at: at(e.action_at),
            verified_at: e.verified_at.map(at),
            scroll_required: e.presentation.scroll_required,
        }
    }

    /// The values of [`INSERT_EVENT_SQL`]: the row's columns in order, then the content.
    pub(super) fn into_values(self, content: String) -> Vec<Value> {
        vec![
            Value::Uuid(self.id),
            Value::Uuid(self.tenant_id),
            Value::Uuid(self.app_id),
            Value::Uuid(self.template_id),
            Value::Text(self.template_name),
            Value::Int(self.version_major),
            Value::Int(self.version_minor),
            Value::At(self.effective_at),
            Value::Text(self.end_user_id),
            Value::Text(self.action),
            Value::Text(self.status),
            Value::Text(self.language),
            Value::Text(self.content_hash),
            Value::MaybeText(self.template_placeholders),
            Value::Text(self.technical_metadata),
            Value::Text(self.presentation_mode),
            Value::Text(self.agreement_mode),
            Value::Text(self.accept_label),
            Value::MaybeText(self.checkbox_label),
            Value::At(self.presented_at),
            Value::At(self.action_at),
            Value::MaybeAt(self.verified_at),
            Value::MaybeBool(self.scroll_required),
            Value::Text(content),
        ]
    }

    pub(super) fn into_domain(self, content: String) -> Result<ClickwrapEvent, StorageError> {
        Ok(ClickwrapEvent {
            id: EventId::from_uuid(self.id),
            tenant_id: TenantId::from_uuid(self.tenant_id),
            app_id: AppId::from_uuid(self.app_id),
            template_id: TemplateId::from_uuid(self.template_id),
            template_name: self.template_name,
            version: VersionNumber::new(u32_of(self.version_major, "major")?, u32_of(self.version_minor, "minor")?),
            effective_at: ts(self.effective_at),
            end_user_id: EndUserId::parse(&self.end_user_id).map_err(|e| corrupt("end user id", e))?,
            action: Action::parse(&self.action).ok_or_else(|| corrupt("action", &self.action))?,
            status: status(&self.status)?,
            language: Language::from_tag(&self.language).map_err(|e| corrupt("language", e))?,
            content,
            content_hash: ContentHash::parse(&self.content_hash).map_err(|e| corrupt("content hash", e))?,
            template_placeholders: self.template_placeholders,
            technical_metadata: self.technical_metadata,
            presentation: Presentation {
                mode: PresentationMode::parse(&self.presentation_mode)
                    .ok_or_else(|| corrupt("presentation mode", &self.presentation_mode))?,
                agreement_mode: AgreementMode::parse(&self.agreement_mode)
                    .ok_or_else(|| corrupt("agreement mode", &self.agreement_mode))?,
                accept_label: self.accept_label,
                checkbox_label: self.checkbox_label,
                scroll_required: self.scroll_required,
            },
            presented_at: ts(self.presented_at),
            action_at: ts(self.action_at),
            verified_at: self.verified_at.map(ts),
        })
    }
}

pub(super) fn status(text: &str) -> Result<EventStatus, StorageError> {
    EventStatus::parse(text).ok_or_else(|| corrupt("event status", text))
}

/// The outbox row as the verification writes it (the dispatcher's side reads it in `deliveries.rs`).
// `treat_none_as_default_value = false`: a `None` is bound as NULL rather than written as DEFAULT,
// so the INSERT is the same statement every time and stays prepared.
#[derive(Insertable)]
#[diesel(table_name = webhook_deliveries, check_for_backend(diesel::pg::Pg), treat_none_as_default_value = false)]
pub(super) struct DeliveryRow {
    pub(super) id: uuid::Uuid,
    pub(super) tenant_id: uuid::Uuid,
    pub(super) app_id: uuid::Uuid,
    pub(super) event_id: uuid::Uuid,
    pub(super) payload: String,
    pub(super) state: String,
    pub(super) attempts: i32,
    pub(super) next_attempt_at: Option<time::OffsetDateTime>,
    pub(super) last_attempt_at: Option<time::OffsetDateTime>,
    pub(super) last_response_status: Option<i32>,
    pub(super) created_at: time::OffsetDateTime,
}

impl DeliveryRow {
    pub(super) fn from_domain(d: &Delivery) -> Self {
        Self {
            id: *d.id.as_uuid(),
            tenant_id: *d.tenant_id.as_uuid(),
            app_id: *d.app_id.as_uuid(),
            event_id: *d.event_id.as_uuid(),
            payload: d.payload.clone(),
            state: d.state.as_str().to_owned(),
            attempts: i32_of(d.attempts),
            next_attempt_at: d.next_attempt_at.map(at),
            last_attempt_at: d.last_attempt_at.map(at),
            last_response_status: d.last_response_status.map(i32::from),
            created_at: at(d.created_at),
        }
    }
}
