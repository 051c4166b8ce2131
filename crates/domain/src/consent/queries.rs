//! Reading the evidence: the events list, event details, certificates, consent status per end
//! user, re-accept requests and the templates an app may use.

use super::acceptance::ConsentStatus;
use super::cursor::{self, EventPosition};
use super::models::{ClickwrapEvent, EventFilter, EventStatus};
use crate::apps::models::App;
use crate::consent::cursor::PageLimit;
use crate::consent::models::EventDetails;
use crate::consent::models::{DailyCount, StoredCertificate};
use crate::ports::StorageError;
use crate::service::ClickwrapService;
use crate::templates::models::{Template, TemplateVersion};
use crate::templates::versioning::VersionNumber;
use crate::{EndUserId, EventId, Tag, TemplateId, TenantId, Timestamp};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventPage {
    pub items: Vec<ClickwrapEvent>,
    /// Opaque; `None` when no more results remain.
    pub next_cursor: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ListEventsError {
    #[error("from must not be after to")]
    FromAfterTo,
    #[error("nextPageCursor is not valid for this list")]
    InvalidCursor,
    #[error(transparent)]
    Storage(#[from] StorageError),
}

/// One batch of an export: it starts after a position, never at a cursor, so no cursor can be
/// refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExportEventsError {
    #[error("from must not be after to")]
    FromAfterTo,
    #[error(transparent)]
    Storage(#[from] StorageError),
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EventLookupError {
    /// Unknown, unverified, or another tenant's.
    #[error("the event could not be found")]
    NotFound,
    #[error(transparent)]
    Storage(#[from] StorageError),
}

/// Reading a stored certificate: nothing is rendered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CertificateError {
    /// Unknown, unverified, or another tenant's.
    #[error("the event could not be found")]
    NotFound,
    /// Only accepted events have a certificate.
    #[error("the event was declined; only accepted events have a certificate")]
    NotAccepted,
    #[error(transparent)]
    Storage(#[from] StorageError),
}

/// Making an event's Clickwrap Agreement: what reading its certificate can fail with, and the
/// rendering.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AgreementError {
    /// Unknown, unverified, or another tenant's.
    #[error("the event could not be found")]
    NotFound,
    /// Only accepted events have a certificate, and so an agreement.
    #[error("the event was declined; only accepted events have a certificate")]
    NotAccepted,
    #[error(transparent)]
    Render(#[from] crate::ports::RenderError),
    #[error(transparent)]
    Storage(#[from] StorageError),
}

impl From<CertificateError> for AgreementError {
    fn from(error: CertificateError) -> Self {
        match error {
            CertificateError::NotFound => Self::NotFound,
            CertificateError::NotAccepted => Self::NotAccepted,
            CertificateError::Storage(e) => Self::Storage(e),
        }
    }
}

/// One template in an end user's consent status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatusItem {
    pub template_id: TemplateId,
    pub template_name: String,
    pub tags: Vec<Tag>,
    pub version: VersionNumber,
    pub effective_at: Timestamp,
    pub status: ConsentStatus,
    pub re_acceptance_required: bool,
    pub last_status_update: Option<Timestamp>,
    pub event_id: Option<EventId>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConsentStatusView {
    pub end_user_id: EndUserId,
    /// ACCEPTED when every item is; else the first item's status (NO_DATA with no items).
    pub status: ConsentStatus,
    pub items: Vec<StatusItem>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StatusError {
    #[error("the template could not be found")]
    TemplateNotFound,
    #[error(transparent)]
    Storage(#[from] StorageError),
}

/// The outcome of a re-accept request for one end user and template.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReAcceptOutcome {
    /// The end user will be asked to accept again.
    Requested,
    /// Nothing to do: the template is not available to the app, or the end user has no standing
    /// acceptance of its current major version.
    Skipped,
}

impl ReAcceptOutcome {
    pub const fn as_str(self) -> &'static str {
        match self {
            ReAcceptOutcome::Requested => "RE_ACCEPT_REQUESTED",
            ReAcceptOutcome::Skipped => "SKIPPED",
        }
    }
}

/// At most this many end users and templates in one re-accept request, and this long a reason.
pub const RE_ACCEPT_MAX_END_USERS: usize = 1000;
pub const RE_ACCEPT_MAX_TEMPLATES: usize = 100;
pub const RE_ACCEPT_REASON_MAX_CHARS: usize = 500;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReAcceptError {
    #[error("endUserIds and clickwrapTemplateIds must each hold at least one entry")]
    Empty,
    #[error("at most {RE_ACCEPT_MAX_END_USERS} endUserIds and {RE_ACCEPT_MAX_TEMPLATES} clickwrapTemplateIds")]
    TooMany,
    #[error("reason must be at most {RE_ACCEPT_REASON_MAX_CHARS} characters")]
    ReasonTooLong,
    #[error(transparent)]
    Storage(#[from] StorageError),
}

impl ClickwrapService {
    /// Verified events of the tenant, newest first by `actionAt`, a page at a time.
    pub async fn list_events(
        &self,
        tenant: TenantId,
        filter: &EventFilter,
        cursor_text: Option<&str>,
        limit: PageLimit,
    ) -> Result<EventPage, ListEventsError> {
        if !filter.range_is_valid() {
            return Err(ListEventsError::FromAfterTo);
        }
        let scope = cursor_scope(tenant, filter);
        let after = cursor_text
            .map(|text| cursor::open(&self.keys, &scope, text).map_err(|_| ListEventsError::InvalidCursor))
            .transpose()?;
        // One more than asked tells whether another page exists without a count query.
        let mut items = self.ports.events.list_verified_events(tenant, filter, after.as_ref(), limit.get() + 1).await?;
        let more = items.len() > limit.get();
        items.truncate(limit.get());
        let next_cursor = match items.last() {
            Some(last) if more => {
                Some(cursor::seal(&self.keys, &scope, &EventPosition { action_at: last.action_at, event_id: last.id }))
            }
            _ => None,
        };
        Ok(EventPage { items, next_cursor })
    }

    /// One batch of an export: verified events matching `filter` after `after`, newest first,
    /// with their details, and where the next batch starts (`None` after the last). Exports walk
    /// the whole list this way, so memory stays bounded by the batch.
    pub async fn export_events_batch(
        &self,
        tenant: TenantId,
        filter: &EventFilter,
        after: Option<EventPosition>,
        batch: usize,
    ) -> Result<(Vec<EventDetails>, Option<EventPosition>), ExportEventsError> {
        if !filter.range_is_valid() {
            return Err(ExportEventsError::FromAfterTo);
        }
        let items = self.ports.events.list_verified_event_details(tenant, filter, after.as_ref(), batch).await?;
        let next = match items.last() {
            Some(last) if items.len() == batch => {
                Some(EventPosition { action_at: last.event.action_at, event_id: last.event.id })
            }
            _ => None,
        };
        Ok((items, next))
    }

    /// Verified events per UTC day of the end user's action, accepted and declined, for the `days`
    /// days ending today (oldest first, days without events included as zeros).
    pub async fn daily_counts(&self, tenant: TenantId, days: u16) -> Result<Vec<DailyCount>, StorageError> {
        const DAY_MILLIS: i64 = 86_400_000;
        let now = self.now().unix_millis();
        let today = now.div_euclid(DAY_MILLIS) * DAY_MILLIS;
        let first = today - (i64::from(days) - 1) * DAY_MILLIS;
        let (Some(from), Some(to)) =
            (Timestamp::from_unix_millis(first), Timestamp::from_unix_millis(today + DAY_MILLIS))
        else {
            return Ok(Vec::new());
        };
        let counted = self.ports.events.daily_counts(tenant, from, to).await?;
        Ok((0..i64::from(days))
            .filter_map(|n| Timestamp::from_unix_millis(first + n * DAY_MILLIS))
            .map(|day| {
                counted.iter().find(|c| c.day == day).copied().unwrap_or(DailyCount { day, accepted: 0, declined: 0 })
            })
            .collect())
    }

    /// A verified event with its certificate digest and webhook delivery state.
    pub async fn event_details(&self, tenant: TenantId, id: EventId) -> Result<EventDetails, EventLookupError> {
        let event = self.verified_event(tenant, id).await?.ok_or(EventLookupError::NotFound)?;
        let certificate = match event.status {
            EventStatus::Accepted => self.ports.events.find_certificate(tenant, id).await?,
            _ => None,
        };
        let delivery = self.ports.events.find_delivery_for_event(tenant, id).await?;
        Ok(EventDetails { event, certificate_sha256: certificate.map(|c| c.sha256), delivery })
    }

    /// The stored Certificate of Acceptance of an accepted, verified event.
    pub async fn certificate(
        &self,
        tenant: TenantId,
        id: EventId,
    ) -> Result<(ClickwrapEvent, StoredCertificate), CertificateError> {
        let event = self.verified_event(tenant, id).await?.ok_or(CertificateError::NotFound)?;
        if event.status != EventStatus::Accepted {
            return Err(CertificateError::NotAccepted);
        }
        let certificate = self.ports.events.find_certificate(tenant, id).await?.ok_or(CertificateError::NotFound)?;
        Ok((event, certificate))
    }

    /// The Clickwrap Agreement of an accepted, verified event: the content exactly as it was shown,
    /// followed by its certificate. It is rendered from the stored evidence alone (the event, and
    /// the names its certificate was issued with) and signed deterministically, so every download
    /// is the same file.
    pub async fn agreement(&self, tenant: TenantId, id: EventId) -> Result<(ClickwrapEvent, Vec<u8>), AgreementError> {
        let (event, certificate) = self.certificate(tenant, id).await?;
        let app_name = match certificate.app_name {
            Some(name) => name,
            // Certificates stored before the names were kept: the app's name now.
            None => self
                .ports
                .apps
                .find_app(tenant, event.app_id)
                .await?
                .map(|app| app.name.as_str().to_owned())
                .ok_or(AgreementError::NotFound)?,
        };
        let facts =
            crate::consent::models::CertificateFacts { event, app_name, operator_name: certificate.operator_name };
        let renderer = self.ports.certificates.clone();
        let (facts, pdf) = crate::ports::run_on_cpu_pool(&*self.ports.cpu, move || {
            let pdf = renderer.render_agreement(&facts);
            (facts, pdf)
        })
        .await
        .map_err(|stopped| crate::ports::RenderError(stopped.to_string()))?;
        Ok((facts.event, pdf?))
    }

    /// The end user's consent to each enabled template available to the app (or to one of them),
    /// for its latest Effective major version.
    pub async fn consent_status(
        &self,
        app: &App,
        end_user: &EndUserId,
        only: Option<TemplateId>,
    ) -> Result<ConsentStatusView, StatusError> {
        let now = self.now();
        let servable = match only {
            // One template asked for: load just that one.
            Some(id) => {
                // Server-side (App Key) reads never use the serving cache.
                let template = self
                    .ports
                    .templates
                    .find_template(app.tenant_id, id)
                    .await?
                    .ok_or(StatusError::TemplateNotFound)?;
                let version =
                    template.servable_version(app.id, now).map_err(|_| StatusError::TemplateNotFound)?.clone();
                vec![(template, version)]
            }
            None => self.servable_templates(app, now).await?,
        };
        Ok(self.status_over(app.tenant_id, end_user, servable).await?)
    }

    /// An end user's consent status over every enabled template of the tenant that has a version
    /// in force, whichever apps it is linked to: what an operator looks up.
    pub async fn tenant_consent_status(
        &self,
        tenant: TenantId,
        end_user: &EndUserId,
    ) -> Result<ConsentStatusView, StorageError> {
        let now = self.now();
        let servable = self
            .ports
            .templates
            .list_templates(tenant)
            .await?
            .into_iter()
            .filter(|t| t.enabled)
            .filter_map(|t| {
                let version = t.effective_version(now)?.clone();
                Some((t, version))
            })
            .collect();
        self.status_over(tenant, end_user, servable).await
    }

    async fn status_over(
        &self,
        tenant: TenantId,
        end_user: &EndUserId,
        servable: Vec<(Template, TemplateVersion)>,
    ) -> Result<ConsentStatusView, StorageError> {
        let mut items = Vec::with_capacity(servable.len());
        for (template, version) in servable {
            let snapshot =
                self.ports.events.consent_snapshot(tenant, end_user, template.id, version.number.major).await?;
            let event = snapshot.status_event();
            items.push(StatusItem {
                template_id: template.id,
                template_name: template.name.as_str().to_owned(),
                tags: template.tags.iter().cloned().collect(),
                version: version.number,
                effective_at: version.effective_at,
                status: snapshot.status(),
                re_acceptance_required: snapshot.re_acceptance_required(),
                last_status_update: event.map(|e| e.verified_at.unwrap_or(e.action_at)),
                event_id: event.map(|e| e.event_id),
            });
        }
        let status = if !items.is_empty() && items.iter().all(|i| i.status == ConsentStatus::Accepted) {
            ConsentStatus::Accepted
        } else {
            items.first().map_or(ConsentStatus::NoData, |i| i.status)
        };
        Ok(ConsentStatusView { end_user_id: end_user.clone(), status, items })
    }

    /// Asks end users to accept templates again; earlier acceptances stay on record.
    pub async fn request_re_accept(
        &self,
        app: &App,
        end_users: &[EndUserId],
        templates: &[TemplateId],
        reason: Option<&str>,
    ) -> Result<Vec<(EndUserId, TemplateId, ReAcceptOutcome)>, ReAcceptError> {
        if end_users.is_empty() || templates.is_empty() {
            return Err(ReAcceptError::Empty);
        }
        if end_users.len() > RE_ACCEPT_MAX_END_USERS || templates.len() > RE_ACCEPT_MAX_TEMPLATES {
            return Err(ReAcceptError::TooMany);
        }
        if reason.is_some_and(|r| r.chars().count() > RE_ACCEPT_REASON_MAX_CHARS) {
            return Err(ReAcceptError::ReasonTooLong);
        }
        let now = self.now();
        let mut results = Vec::with_capacity(end_users.len() * templates.len());
        for template_id in templates {
            let template = self.ports.templates.find_template(app.tenant_id, *template_id).await?;
            // The same rule as every other consent path: disabled or unlinked templates are skipped.
            let major = template.as_ref().and_then(|t| t.servable_version(app.id, now).ok()).map(|v| v.number.major);
            for end_user in end_users {
                let outcome = match major {
                    Some(major) => {
                        let snapshot =
                            self.ports.events.consent_snapshot(app.tenant_id, end_user, *template_id, major).await?;
                        if snapshot.acceptance_required(false) {
                            ReAcceptOutcome::Skipped
                        } else {
                            self.ports
                                .events
                                .request_re_accept(app.tenant_id, end_user, *template_id, reason, now)
                                .await?;
                            ReAcceptOutcome::Requested
                        }
                    }
                    None => ReAcceptOutcome::Skipped,
                };
                results.push((end_user.clone(), *template_id, outcome));
            }
        }
        Ok(results)
    }

    /// Enabled templates with an Effective version, available to the app, carrying all `tags`.
    pub async fn available_templates(
        &self,
        app: &App,
        tags: &[Tag],
    ) -> Result<Vec<(Template, TemplateVersion)>, StorageError> {
        let mut servable = self.servable_templates(app, self.now()).await?;
        servable.retain(|(template, _)| template.has_tags(tags));
        Ok(servable)
    }

    async fn servable_templates(
        &self,
        app: &App,
        now: Timestamp,
    ) -> Result<Vec<(Template, TemplateVersion)>, StorageError> {
        let templates = self.ports.templates.list_templates(app.tenant_id).await?;
        Ok(templates
            .into_iter()
            .filter_map(|template| {
                let version = template.servable_version(app.id, now).ok()?.clone();
                Some((template, version))
            })
            .collect())
    }

    async fn verified_event(&self, tenant: TenantId, id: EventId) -> Result<Option<ClickwrapEvent>, StorageError> {
        Ok(self.ports.events.find_event(tenant, id).await?.filter(|e| e.status.is_verified()))
    }
}

/// Binds a cursor to the tenant and the exact filters it was made for.
fn cursor_scope(tenant: TenantId, filter: &EventFilter) -> Vec<u8> {
    let mut scope = tenant.as_bytes().to_vec();
    scope.extend_from_slice(&filter.fingerprint());
    scope
}
