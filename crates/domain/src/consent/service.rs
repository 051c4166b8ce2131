//! The consent flow: what the SDK is shown, recording the end user's action, and verifying the
//! Signature on the operator's backend.

use std::sync::Arc;

use time::Duration;

use super::models::{Action, ClickwrapEvent, EventStatus, Presentation, PresentationMode};
use super::signature::{self, ServiceSignature, SignatureClaims, SignatureError};
use crate::apps::models::App;
use crate::consent::models::RenderedVersion;
use crate::consent::models::ShownVersion;
use crate::consent::models::{CertificateFacts, EventToVerify, StoredCertificate, VerificationRecord};
use crate::content::escape_html;
use crate::content::hash::ContentHash;
use crate::content::placeholders::{PlaceholderValues, render};
use crate::limits::quota::QuotaPeriod;
use crate::ports::{CommitVerificationError, RenderError, StorageError};
use crate::service::ClickwrapService;
use crate::serving_cache::ServedTemplate;
use crate::templates::customizations::{AgreementMode, Customizations, DialogTexts};
use crate::templates::models::{Template, TemplateVersion};
use crate::templates::versioning::{VersionNumber, VersionState};
use crate::webhooks::payload::outbox_entry;
use crate::{DeliveryId, EndUserId, EventId, Language, LanguagePreference, TemplateId, Timestamp};

/// The template could not be found for this app: unknown, another tenant's, disabled, not linked,
/// or without an Effective version. The API says 404 and nothing more.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the template could not be found")]
pub struct TemplateNotFound;

/// `GET /clickwrap`: what the SDK needs to decide whether to show the dialog and what to show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClickwrapCheck {
    pub template_id: TemplateId,
    pub end_user_id: EndUserId,
    pub language: LanguagePreference,
    pub placeholders: PlaceholderValues,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClickwrapView {
    pub acceptance_required: bool,
    /// The same for every end user shown this version in this language with these placeholders,
    /// so it is made once per cached template (see [`crate::serving_cache::ServedTemplate`]).
    pub shown: Arc<ShownVersion>,
}

/// `GET /clickwrap/content`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContentQuery {
    pub template_id: TemplateId,
    /// A specific version; without it the latest Effective one, or with `end_user_id` the version
    /// that end user last accepted.
    pub version: Option<VersionNumber>,
    pub language: LanguagePreference,
    pub placeholders: PlaceholderValues,
    pub end_user_id: Option<EndUserId>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClickwrapQueryError {
    #[error(transparent)]
    NotFound(#[from] TemplateNotFound),
    #[error(transparent)]
    Storage(#[from] StorageError),
}

/// `POST /clickwrap`: the end user acted on a presented version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PresentedAction {
    pub template_id: TemplateId,
    pub version: VersionNumber,
    pub end_user_id: EndUserId,
    pub action: Action,
    pub language: Language,
    pub placeholders: PlaceholderValues,
    /// The hash of the content the client displayed; must match what the server renders.
    pub content_hash: ContentHash,
    pub presented_at: Timestamp,
    pub presentation: Presentation,
    /// What the client reported about itself (screen, timezone, platform …): a JSON object.
    pub client_metadata: serde_json::Map<String, serde_json::Value>,
    pub client_ip: Option<String>,
    pub user_agent: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordedAction {
    pub event: ClickwrapEvent,
    pub signature: ServiceSignature,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordActionError {
    #[error(transparent)]
    NotFound(#[from] TemplateNotFound),
    /// A newer version is in force and this one was not in force when it was presented.
    #[error("version {0} is no longer in force")]
    VersionSuperseded(VersionNumber),
    #[error("the version has no content in {0}")]
    LanguageNotAvailable(Language),
    #[error("contentHash does not match the content of that version in that language with those placeholders")]
    ContentMismatch,
    /// The client says it showed the clickwrap in another agreement mode than the one the
    /// service sets (the template's in a dialog, CHECKBOX inline): the record would claim a rule
    /// the service never set.
    #[error("presentation.agreementMode must be {}: the agreement mode of this template in this presentation mode", .0.as_str())]
    AgreementModeMismatch(AgreementMode),
    #[error("presentedAt must lie within the last day and not in the future")]
    PresentedAtOutOfRange,
    #[error(transparent)]
    Storage(#[from] StorageError),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifiedEvent {
    pub event: ClickwrapEvent,
    pub certificate_sha256: Option<[u8; 32]>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    #[error("the Signature is not valid")]
    InvalidSignature,
    #[error("the Signature has expired")]
    SignatureExpired,
    #[error("the Signature belongs to another app")]
    AppMismatch,
    #[error("the Signature was already verified")]
    AlreadyVerified { event_id: EventId },
    #[error("the event quota of this period is used up")]
    QuotaExceeded { quota: u64, retry_after_secs: u64 },
    #[error(transparent)]
    Certificate(#[from] RenderError),
    #[error(transparent)]
    Storage(#[from] StorageError),
}

const INLINE_SEPARATOR: &str = ": ";

impl ClickwrapService {
    /// `GET /clickwrap`: the latest Effective version for this end user and whether they must accept.
    pub async fn check_clickwrap(
        &self,
        app: &App,
        check: &ClickwrapCheck,
    ) -> Result<ClickwrapView, ClickwrapQueryError> {
        let now = self.now();
        let template = self.tenant_template(app, check.template_id, None).await?;
        let version = template.servable_version(app.id, now).map_err(|_| TemplateNotFound)?;
        let language =
            check.language.resolve(&version.languages(), template.default_language).ok_or(TemplateNotFound)?;
        let shown = template.shown(version.number, language, &check.placeholders, |template| {
            let rendered = render_version(template, version, language, &check.placeholders)?;
            let texts = template.customizations.texts_for(language);
            Ok::<_, TemplateNotFound>(ShownVersion {
                inline_content: inline_label(&texts, &rendered.name),
                rendered,
                customizations: template.customizations.clone(),
                texts,
            })
        })?;
        let snapshot = self
            .ports
            .events
            .consent_snapshot(app.tenant_id, &check.end_user_id, template.id, version.number.major)
            .await?;
        Ok(ClickwrapView {
            acceptance_required: snapshot.acceptance_required(template.always_require_acceptance),
            shown,
        })
    }

    /// `GET /clickwrap/content`: a version's content rendered; or, with an end user and no
    /// version (`showAcceptedContent`), exactly what that end user last accepted.
    pub async fn clickwrap_content(
        &self,
        app: &App,
        query: &ContentQuery,
    ) -> Result<RenderedVersion, ClickwrapQueryError> {
        if let (None, Some(user)) = (query.version, &query.end_user_id) {
            return self.accepted_content(app, user, query.template_id).await;
        }
        let now = self.now();
        let template = self.tenant_template(app, query.template_id, query.version).await?;
        let effective = template.servable_version(app.id, now).map_err(|_| TemplateNotFound)?;
        let version = match query.version {
            // Any version that has been in force may be shown; a Scheduled one is not served.
            Some(number) => template.version(number).filter(|v| v.effective_at <= now),
            None => Some(effective),
        }
        .ok_or(TemplateNotFound)?;
        let language =
            query.language.resolve(&version.languages(), template.default_language).ok_or(TemplateNotFound)?;
        Ok(render_version(&template, version, language, &query.placeholders)?)
    }

    /// The content of the end user's latest verified acceptance exactly as it was shown: the
    /// stored text, its language, placeholder values and hash, and the names of that moment. It
    /// is evidence, so it stays readable after the template was disabled or unlinked.
    async fn accepted_content(
        &self,
        app: &App,
        end_user: &EndUserId,
        template: TemplateId,
    ) -> Result<RenderedVersion, ClickwrapQueryError> {
        let event =
            self.ports.events.last_accepted_event(app.tenant_id, end_user, template).await?.ok_or(TemplateNotFound)?;
        Ok(RenderedVersion {
            template_id: event.template_id,
            name: event.template_name,
            version: event.version,
            effective_at: event.effective_at,
            language: event.language,
            content: event.content,
            content_hash: event.content_hash,
        })
    }

    /// `GET /clickwrap/customizations`: the dialog settings and texts in the resolved language.
    pub async fn clickwrap_customizations(
        &self,
        app: &App,
        template_id: TemplateId,
        language: &LanguagePreference,
    ) -> Result<(Customizations, Language, DialogTexts), ClickwrapQueryError> {
        let template = self.tenant_template(app, template_id, None).await?;
        let version = template.servable_version(app.id, self.now()).map_err(|_| TemplateNotFound)?;
        let language = language.resolve(&version.languages(), template.default_language).ok_or(TemplateNotFound)?;
        let texts = template.customizations.texts_for(language);
        Ok((template.customizations.clone(), language, texts))
    }

    /// `POST /clickwrap`: records the end user's action as an UNVERIFIED event with the content
    /// exactly as shown, and issues the Signature the operator's backend will verify.
    pub async fn record_action(&self, app: &App, action: PresentedAction) -> Result<RecordedAction, RecordActionError> {
        let now = self.now();
        let oldest = now.saturating_sub(self.settings.presented_at_max_age);
        let newest = now.saturating_add(self.settings.presented_at_skew);
        if action.presented_at < oldest || action.presented_at > newest {
            return Err(RecordActionError::PresentedAtOutOfRange);
        }
        let presented_at = action.presented_at.min(now);

        let grace = self.superseded_grace();
        let check = |template: &Template| check_presented(template, app, &action, presented_at, now, grace);
        let cached = self.cached_template(app, action.template_id, Some(action.version), now).map(|template| {
            let checked = check(&template);
            (template, checked)
        });
        let (template, shown) = match cached {
            Some((template, Ok(shown))) => (template, shown),
            // Not cached, or refused by a copy that may predate a change made through another
            // instance (the version was enabled, linked or customized a moment ago): storage decides.
            _ => {
                let template = self.stored_template(app, action.template_id).await?;
                let shown = check(&template)?;
                (template, shown)
            }
        };

        let technical_metadata = serde_json::json!({
            "ipAddress": action.client_ip,
            "userAgent": action.user_agent,
            "client": action.client_metadata,
        })
        .to_string();
        let event = ClickwrapEvent {
            id: EventId::from_uuid(self.new_uuid()),
            tenant_id: app.tenant_id,
            app_id: app.id,
            template_id: template.id,
            template_name: template.name.as_str().to_owned(),
            version: shown.version,
            effective_at: shown.effective_at,
            end_user_id: action.end_user_id,
            action: action.action,
            status: EventStatus::Unverified,
            language: action.language,
            content: shown.content,
            content_hash: shown.content_hash,
            template_placeholders: action.placeholders.to_canonical_json(),
            technical_metadata,
            presentation: action.presentation,
            presented_at,
            action_at: now,
            verified_at: None,
        };
        self.ports.events.insert_event(&event).await?;
        let claims = SignatureClaims {
            event_id: event.id,
            app_id: app.id,
            expires_at: now.saturating_add(self.settings.signature_ttl),
        };
        let signature = signature::issue(&self.keys, &claims);
        Ok(RecordedAction { event, signature })
    }

    /// `POST /clickwrap/verify`: checks the Signature and, in one transaction, finalizes the event,
    /// stores its certificate (ACCEPTED only), queues the webhook and counts it against the quota.
    pub async fn verify(&self, app: &App, presented: &str) -> Result<VerifiedEvent, VerifyError> {
        let now = self.now();
        let claims = match signature::verify(&self.keys, presented, now) {
            Ok(claims) => claims,
            Err(SignatureError::Expired { claims }) if claims.app_id != app.id => return Err(VerifyError::AppMismatch),
            Err(SignatureError::Expired { .. }) => return Err(VerifyError::SignatureExpired),
            Err(SignatureError::Malformed | SignatureError::UnknownKey | SignatureError::Forged) => {
                return Err(VerifyError::InvalidSignature);
            }
        };
        if claims.app_id != app.id {
            return Err(VerifyError::AppMismatch);
        }
        // The event and its tenant's quota and legal name in one read: the quota is enforced by
        // the commit below, and the legal name goes on the certificate, so both are read fresh.
        let EventToVerify { mut event, event_quota: quota, legal_name } = self
            .ports
            .events
            .find_event_to_verify(app.tenant_id, claims.event_id)
            .await?
            .ok_or(VerifyError::InvalidSignature)?;
        if event.verify(now).is_err() {
            return Err(VerifyError::AlreadyVerified { event_id: event.id });
        }

        let operator_name = legal_name.map(|n| n.as_str().to_owned());
        let period = QuotaPeriod::containing(now);
        let certificate = match event.status {
            EventStatus::Accepted => {
                let facts = CertificateFacts {
                    event: event.clone(),
                    app_name: app.name.as_str().to_owned(),
                    operator_name: operator_name.clone(),
                };
                let pdf = self.ports.certificates.render_certificate(&facts).await?;
                let sha256 = sha256(&pdf);
                Some(StoredCertificate {
                    event_id: event.id,
                    pdf,
                    sha256,
                    created_at: now,
                    app_name: Some(facts.app_name),
                    operator_name,
                })
            }
            _ => None,
        };
        let webhook_active = app.webhook_url.is_some() && app.webhook_enabled;
        let delivery = outbox_entry(DeliveryId::from_uuid(self.new_uuid()), &event, webhook_active, now);
        let certificate_sha256 = certificate.as_ref().map(|c| c.sha256);
        let ledger_leaf = crate::ledger::service::leaf_of(&event, certificate_sha256.as_ref(), &*self.ports.random)?;
        let record = VerificationRecord { event, certificate, delivery, quota, period, ledger_leaf };
        match self.ports.events.commit_verification(&record).await {
            Ok(()) => {
                if record.delivery.state == crate::webhooks::models::DeliveryState::Pending {
                    self.ports.outbox.delivery_due();
                }
                Ok(VerifiedEvent { event: record.event, certificate_sha256 })
            }
            Err(CommitVerificationError::AlreadyVerified(_)) => {
                Err(VerifyError::AlreadyVerified { event_id: record.event.id })
            }
            Err(CommitVerificationError::QuotaExceeded) => Err(VerifyError::QuotaExceeded {
                quota: record.quota.unwrap_or(0),
                retry_after_secs: period.seconds_left(now),
            }),
            Err(CommitVerificationError::EventMissing) => Err(VerifyError::InvalidSignature),
            Err(CommitVerificationError::Storage(e)) => Err(e.into()),
        }
    }

    /// The template of the app's tenant as the public endpoints serve it: from the serving cache
    /// when it was loaded a moment ago, else from storage (and then kept). A cached copy that lacks
    /// the version the caller `needs` (published a moment ago on another instance) is read again.
    /// Whether the app may be served the template is `servable_version`'s call.
    pub(super) async fn tenant_template(
        &self,
        app: &App,
        id: TemplateId,
        needs: Option<VersionNumber>,
    ) -> Result<Arc<ServedTemplate>, ClickwrapQueryError> {
        match self.cached_template(app, id, needs, self.now()) {
            Some(template) => Ok(template),
            None => self.stored_template(app, id).await,
        }
    }

    /// The cached template, if it was loaded a moment ago and has the version the caller `needs`.
    fn cached_template(
        &self,
        app: &App,
        id: TemplateId,
        needs: Option<VersionNumber>,
        now: Timestamp,
    ) -> Option<Arc<ServedTemplate>> {
        self.caches
            .templates
            .fresh(&(app.tenant_id, id), now)
            .filter(|template| needs.is_none_or(|number| template.version(number).is_some()))
    }

    /// The template read from storage, and kept in the serving cache.
    async fn stored_template(&self, app: &App, id: TemplateId) -> Result<Arc<ServedTemplate>, ClickwrapQueryError> {
        let loading = self.caches.templates.loading(self.now());
        let template = self.ports.templates.find_template(app.tenant_id, id).await?.ok_or(TemplateNotFound)?;
        let template = Arc::new(ServedTemplate::new(template));
        self.caches.templates.keep((app.tenant_id, id), template.clone(), loading);
        Ok(template)
    }

    /// How long before its presentation a version may have stopped being in force and still be
    /// accepted: as long as another instance may have kept serving it from its cache (a client
    /// shown it there must not be refused here), and a margin for the publishing transaction and
    /// the instances' clocks. Nothing without caches.
    fn superseded_grace(&self) -> Duration {
        let longest = self.caches.ttl().longest();
        if longest <= Duration::ZERO { Duration::ZERO } else { longest.saturating_add(SUPERSEDED_MARGIN) }
    }
}

/// See [`ClickwrapService::superseded_grace`].
const SUPERSEDED_MARGIN: Duration = Duration::seconds(1);

/// What a client showed, as checked against the template.
struct CheckedPresentation {
    version: VersionNumber,
    effective_at: Timestamp,
    content: String,
    content_hash: ContentHash,
}

/// Whether `action` shows what the template says the app's client is shown: a servable template,
/// a version in force, its content and the template's agreement mode.
fn check_presented(
    template: &Template,
    app: &App,
    action: &PresentedAction,
    presented_at: Timestamp,
    now: Timestamp,
    grace: Duration,
) -> Result<CheckedPresentation, RecordActionError> {
    template.servable_version(app.id, now).map_err(|_| TemplateNotFound)?;
    let version = shown_version(template, action.version, presented_at, now, grace)?;
    let (content, content_hash) = render_in(version, action.language, &action.placeholders)
        .ok_or(RecordActionError::LanguageNotAvailable(action.language))?;
    if content_hash != action.content_hash {
        return Err(RecordActionError::ContentMismatch);
    }
    let agreement_mode = match action.presentation.mode {
        PresentationMode::Dialog => template.customizations.agreement_mode,
        // Inline, the clickwrap is a checkbox beside the page's own form, whatever the dialog uses.
        PresentationMode::Inline => AgreementMode::Checkbox,
    };
    if action.presentation.agreement_mode != agreement_mode {
        return Err(RecordActionError::AgreementModeMismatch(agreement_mode));
    }
    Ok(CheckedPresentation { version: version.number, effective_at: version.effective_at, content, content_hash })
}

impl From<ClickwrapQueryError> for RecordActionError {
    fn from(error: ClickwrapQueryError) -> Self {
        match error {
            ClickwrapQueryError::NotFound(e) => e.into(),
            ClickwrapQueryError::Storage(e) => e.into(),
        }
    }
}

/// The version the client says it showed, if it is in force now or was when it was presented, or
/// up to `grace` before (an instance may have served it from its cache that long after it was
/// superseded).
fn shown_version(
    template: &Template,
    number: VersionNumber,
    presented_at: Timestamp,
    now: Timestamp,
    grace: Duration,
) -> Result<&TemplateVersion, RecordActionError> {
    let states = template.version_states(now);
    let (version, state) = states.iter().find(|(v, _)| v.number == number).ok_or(TemplateNotFound)?;
    let in_force_at = |at: Timestamp| template.effective_version(at).is_some_and(|v| v.number == number);
    let since = presented_at.saturating_sub(grace);
    // In force for one stretch of time: at its start, or from a moment within the window on.
    let was_in_force = in_force_at(since)
        || (since < version.effective_at && version.effective_at <= presented_at && in_force_at(version.effective_at));
    match state {
        VersionState::Effective => Ok(version),
        VersionState::Superseded if was_in_force => Ok(version),
        VersionState::Superseded => Err(RecordActionError::VersionSuperseded(number)),
        VersionState::Scheduled => Err(TemplateNotFound.into()),
    }
}

fn render_version(
    template: &Template,
    version: &TemplateVersion,
    language: Language,
    placeholders: &PlaceholderValues,
) -> Result<RenderedVersion, TemplateNotFound> {
    let (content, content_hash) = render_in(version, language, placeholders).ok_or(TemplateNotFound)?;
    Ok(RenderedVersion {
        template_id: template.id,
        name: template.name.as_str().to_owned(),
        version: version.number,
        effective_at: version.effective_at,
        language,
        content_hash,
        content,
    })
}

/// The content of a version in one language with the placeholders filled, and its hash. The one
/// place both are made, so what GET shows and what POST checks can never differ.
fn render_in(
    version: &TemplateVersion,
    language: Language,
    placeholders: &PlaceholderValues,
) -> Option<(String, ContentHash)> {
    let content = render(version.content.get(&language)?, placeholders);
    let hash = ContentHash::of(&content);
    Some((content, hash))
}

fn inline_label(texts: &DialogTexts, name: &str) -> String {
    format!("{}{INLINE_SEPARATOR}<strong>{}</strong>", escape_html(&texts.checkbox_label), escape_html(name))
}

fn sha256(bytes: &[u8]) -> [u8; 32] {
    let digest = ring::digest::digest(&ring::digest::SHA256, bytes);
    // SHA-256 digests are always 32 bytes.
    digest.as_ref().try_into().unwrap_or([0; 32])
}
