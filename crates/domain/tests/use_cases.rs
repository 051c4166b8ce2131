//! The use cases end to end over the in-memory ports: what an operator, an SDK and an operator's
//! backend do, and every refusal they can meet.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)] // test code

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use clickwrap_domain::apps::models::App;
use clickwrap_domain::apps::models::AppChanges;
use clickwrap_domain::apps::models::AppKeyOverlap;
use clickwrap_domain::apps::service::NewApp;
use clickwrap_domain::audit::models::AuditAction;
use clickwrap_domain::consent::acceptance::ConsentStatus;
use clickwrap_domain::consent::cursor::PageLimit;
use clickwrap_domain::consent::models::{Action, EventFilter, EventStatus, Presentation, PresentationMode};
use clickwrap_domain::consent::queries::{CertificateError, EventLookupError, ListEventsError, ReAcceptOutcome};
use clickwrap_domain::consent::service::{
    ClickwrapCheck, ClickwrapQueryError, ContentQuery, PresentedAction, RecordActionError, RecordedAction, VerifyError,
};
use clickwrap_domain::content::hash::ContentHash;
use clickwrap_domain::content::placeholders::PlaceholderValues;
use clickwrap_domain::content::sanitize::sanitize;
use clickwrap_domain::contract::fixtures;
use clickwrap_domain::limits::rate::{RateLimitKey, RateLimitPolicy, RateLimitedRoute};
use clickwrap_domain::memory::{self, ManualClock, MemoryStore};
use clickwrap_domain::ports::{Clock, EventStore, OutboxSignal};
use clickwrap_domain::service::{AuthError, ClickwrapService, Ports, PublicAppError, Settings};
use clickwrap_domain::serving_cache::ServingChange;
use clickwrap_domain::system::{OsRandom, UuidV7};
use clickwrap_domain::templates::customizations::{AgreementMode, Customizations};
use clickwrap_domain::templates::models::{PublishError, Template};
use clickwrap_domain::templates::service::{EnableTemplateError, NewTemplate, PublishVersionError};
use clickwrap_domain::templates::versioning::{VersionKind, VersionNumber};
use clickwrap_domain::tenants::models::{Admin, Operator as SignedIn, Tenant};
use clickwrap_domain::webhooks::models::DeliveryState;
use clickwrap_domain::webhooks::url::WebhookUrl;
use clickwrap_domain::{EndUserId, Language, LanguagePreference, Name, TemplateId, Timestamp};
use time::Duration;

struct World {
    clock: Arc<ManualClock>,
    store: Arc<MemoryStore>,
    service: ClickwrapService,
}

struct Operator {
    tenant: Tenant,
    /// The authenticated operator of `token`.
    signed_in: SignedIn,
    token: String,
    app: App,
    app_key: String,
}

impl Operator {
    fn admin(&self) -> Admin {
        self.signed_in.admin().unwrap()
    }
}

fn start() -> Timestamp {
    Timestamp::parse_rfc3339("2026-11-22T07:00:00.000Z").unwrap()
}

async fn world_with(settings: Settings) -> World {
    let clock = Arc::new(ManualClock::new(start()));
    let (ports, store) = memory::ports(clock.clone());
    let service = ClickwrapService::start(ports, settings, fixtures::master_keys()).await.unwrap();
    World { clock, store, service }
}

async fn world() -> World {
    world_with(Settings::default()).await
}

impl World {
    async fn operator(&self, name: &str, quota: Option<u64>) -> Operator {
        let (tenant, token) = self.service.create_tenant(name, quota).await.unwrap();
        let new = NewApp {
            name: Name::parse("Web shop").unwrap(),
            webhook_url: Some(WebhookUrl::parse("https://hooks.example.com/clickwrap").unwrap()),
            allowed_origins: Vec::new(),
        };
        let operator = self.service.authenticate_operator(token.expose()).await.unwrap();
        let created = self.service.create_app(&operator.admin().unwrap(), new).await.unwrap();
        Operator {
            tenant,
            signed_in: operator,
            token: token.expose().to_owned(),
            app: created.app,
            app_key: created.app_key.expose().to_owned(),
        }
    }

    async fn template(&self, operator: &Operator, html: &str) -> Template {
        self.template_in(operator, Language::English, &[(Language::English, html)]).await
    }

    /// A draft template with content in several languages and the given default language.
    async fn template_in(&self, operator: &Operator, default: Language, content: &[(Language, &str)]) -> Template {
        let new = NewTemplate {
            name: Name::parse("Terms of Service").unwrap(),
            tags: BTreeSet::new(),
            app_ids: BTreeSet::new(),
            default_language: default,
            content: content.iter().map(|(language, html)| (*language, sanitize(html).unwrap())).collect(),
            customizations: Customizations::default(),
            always_require_acceptance: false,
        };
        self.service.create_template(&operator.admin(), new).await.unwrap()
    }

    async fn published(&self, operator: &Operator, html: &str) -> Template {
        let template = self.template(operator, html).await;
        self.publish_and_enable(operator, &template).await
    }

    async fn publish_and_enable(&self, operator: &Operator, template: &Template) -> Template {
        self.service.publish_version(&operator.admin(), template.id, VersionKind::Major, None).await.unwrap();
        self.service.enable_template(&operator.admin(), template.id).await.unwrap()
    }

    async fn check(&self, app: &App, template: TemplateId, user: &str) -> Result<bool, ClickwrapQueryError> {
        let check = ClickwrapCheck {
            template_id: template,
            end_user_id: EndUserId::parse(user).unwrap(),
            language: LanguagePreference::parse("en").unwrap(),
            placeholders: PlaceholderValues::default(),
        };
        self.service.check_clickwrap(app, &check).await.map(|view| view.acceptance_required)
    }

    /// What the SDK does: fetch, show, send the action with the hash of what it showed.
    async fn act(&self, app: &App, template: TemplateId, user: &str, action: Action) -> RecordedAction {
        let check = ClickwrapCheck {
            template_id: template,
            end_user_id: EndUserId::parse(user).unwrap(),
            language: LanguagePreference::parse("en").unwrap(),
            placeholders: PlaceholderValues::default(),
        };
        let view = self.service.check_clickwrap(app, &check).await.unwrap();
        self.service
            .record_action(
                app,
                presented(
                    &view.shown.rendered.content_hash,
                    view.shown.rendered.version,
                    template,
                    user,
                    action,
                    self.clock.now(),
                ),
            )
            .await
            .unwrap()
    }

    async fn accept_and_verify(&self, app: &App, template: TemplateId, user: &str) -> RecordedAction {
        let recorded = self.act(app, template, user, Action::Accepted).await;
        self.service.verify(app, recorded.signature.as_str()).await.unwrap();
        recorded
    }
}

fn presented(
    hash: &ContentHash,
    version: VersionNumber,
    template: TemplateId,
    user: &str,
    action: Action,
    now: Timestamp,
) -> PresentedAction {
    PresentedAction {
        template_id: template,
        version,
        end_user_id: EndUserId::parse(user).unwrap(),
        action,
        language: Language::English,
        placeholders: PlaceholderValues::default(),
        content_hash: hash.clone(),
        presented_at: now.saturating_sub(Duration::seconds(20)),
        presentation: Presentation {
            mode: PresentationMode::Dialog,
            agreement_mode: AgreementMode::Scroll,
            accept_label: "Accept".into(),
            checkbox_label: None,
            scroll_required: Some(false),
        },
        client_metadata: serde_json::Map::new(),
        client_ip: Some("203.0.113.7".into()),
        user_agent: Some("Mozilla/5.0 (test)".into()),
    }
}

#[tokio::test]
async fn operator_tokens_and_app_keys_authenticate_only_their_owner() {
    let w = world().await;
    let a = w.operator("Acme", None).await;
    let b = w.operator("Globex", None).await;
    assert_eq!(w.service.authenticate_operator(&a.token).await.unwrap().tenant.id, a.tenant.id);
    assert_eq!(w.service.authenticate_operator("ot_nope").await.unwrap_err(), AuthError::InvalidCredentials);

    let app_id = a.app.id.to_string();
    assert_eq!(w.service.authenticate_app(&app_id, &a.app_key).await.unwrap().id, a.app.id);
    // A real key of another integration does not open this one.
    assert_eq!(w.service.authenticate_app(&app_id, &b.app_key).await.unwrap_err(), AuthError::InvalidCredentials);
    assert_eq!(w.service.authenticate_app("not-a-uuid", &a.app_key).await.unwrap_err(), AuthError::InvalidCredentials);
    assert_eq!(w.service.authenticate_app(&app_id, "").await.unwrap_err(), AuthError::InvalidCredentials);

    let new_key = w.service.regenerate_app_key(&a.admin(), a.app.id, AppKeyOverlap::NONE).await.unwrap();
    assert_eq!(new_key.old_key_expires_at, w.clock.now(), "without an overlap the old key expires at once");
    assert_eq!(w.service.authenticate_app(&app_id, &a.app_key).await.unwrap_err(), AuthError::InvalidCredentials);
    assert!(w.service.authenticate_app(&app_id, new_key.app_key.expose()).await.is_ok());

    // Tenants never reach each other's apps.
    assert!(w.service.find_app(b.tenant.id, a.app.id).await.unwrap().is_none());
    assert!(w.service.regenerate_app_key(&b.admin(), a.app.id, AppKeyOverlap::NONE).await.is_err());
}

/// Another instance of the service on the same store, as behind a load balancer, with its own
/// serving cache.
async fn second_instance(w: &World) -> ClickwrapService {
    let ports = Ports::from_store(
        w.store.clone(),
        w.clock.clone(),
        Arc::new(UuidV7),
        Arc::new(OsRandom::default()),
        Arc::new(memory::AllowAllWebhookTargets),
        Arc::new(memory::TextCertificateRenderer),
    );
    ClickwrapService::start(ports, Settings::default(), fixtures::master_keys()).await.unwrap()
}

#[tokio::test]
async fn a_replaced_app_key_works_for_the_chosen_overlap_on_every_instance_and_then_fails() {
    let w = world().await;
    let a = w.operator("Acme", None).await;
    let other = second_instance(&w).await;
    let app_id = a.app.id.to_string();
    let works = async |key: &str| {
        let here = w.service.authenticate_app(&app_id, key).await.is_ok();
        let there = other.authenticate_app(&app_id, key).await.is_ok();
        assert_eq!(here, there, "both instances agree on {key}");
        here
    };
    // The other instance keeps the app (with its key hashes) in its serving cache.
    other.identify_public_app(&app_id, None).await.unwrap();
    assert!(works(&a.app_key).await);

    let overlap = AppKeyOverlap::from_secs(3600).unwrap();
    let second = w.service.regenerate_app_key(&a.admin(), a.app.id, overlap).await.unwrap();
    assert_eq!(second.old_key_expires_at, start().saturating_add(Duration::hours(1)));
    assert!(works(second.app_key.expose()).await, "the new key works at once");
    assert!(works(&a.app_key).await, "the old key works during the overlap");
    w.clock.advance(Duration::seconds(3599));
    assert!(works(&a.app_key).await, "the old key works until its expiry");
    w.clock.advance(Duration::seconds(1));
    assert!(!works(&a.app_key).await, "the old key fails at its expiry");
    assert!(works(second.app_key.expose()).await);

    // A rotation ends any earlier overlap: only the key it replaces may keep working.
    let overlap = AppKeyOverlap::from_secs(600).unwrap();
    let third = w.service.regenerate_app_key(&a.admin(), a.app.id, overlap).await.unwrap();
    assert!(works(second.app_key.expose()).await && works(third.app_key.expose()).await);
    let fourth = w.service.regenerate_app_key(&a.admin(), a.app.id, AppKeyOverlap::NONE).await.unwrap();
    assert!(!works(second.app_key.expose()).await, "the key kept by the earlier rotation stops");
    assert!(!works(third.app_key.expose()).await, "without an overlap the replaced key stops at once");
    assert!(works(fourth.app_key.expose()).await);

    // The audit log names each overlap and when the old key expired.
    let log = w.service.audit_log(a.tenant.id, None, PageLimit::parse(10).unwrap()).await.unwrap();
    let rotations: Vec<(String, String)> = log
        .items
        .iter()
        .filter(|e| e.action == AuditAction::AppKeyRegenerated)
        .map(|e| (e.details["expireOldAfterSecs"].clone(), e.details["oldKeyExpiresAt"].clone()))
        .collect();
    let now = w.clock.now();
    assert_eq!(
        rotations,
        vec![
            ("0".to_owned(), now.to_rfc3339()),
            ("600".to_owned(), now.saturating_add(Duration::minutes(10)).to_rfc3339()),
            ("3600".to_owned(), start().saturating_add(Duration::hours(1)).to_rfc3339()),
        ]
    );
}

#[tokio::test]
async fn changes_of_an_app_keep_each_other() {
    let w = world().await;
    let a = w.operator("Acme", None).await;
    let app_id = a.app.id.to_string();
    let rotated = w.service.regenerate_app_key(&a.admin(), a.app.id, AppKeyOverlap::NONE).await.unwrap();
    let changes = AppChanges { name: Some(Name::parse("Renamed").unwrap()), ..Default::default() };
    let renamed = w.service.update_app(&a.admin(), a.app.id, changes).await.unwrap();
    assert_eq!(renamed.name.as_str(), "Renamed");
    assert_eq!(renamed.app_key_hash.as_bytes(), rotated.app_key.hash().as_bytes(), "a rename keeps the new key");
    assert!(w.service.authenticate_app(&app_id, rotated.app_key.expose()).await.is_ok());
    assert!(w.service.authenticate_app(&app_id, &a.app_key).await.is_err());
    let secret = w.service.rotate_webhook_secret(&a.admin(), a.app.id).await.unwrap();
    let app = w.service.find_app(a.tenant.id, a.app.id).await.unwrap().unwrap();
    assert_eq!((app.name.as_str(), w.service.webhook_secret(&app).unwrap().expose()), ("Renamed", secret.expose()));
    assert!(w.service.authenticate_app(&app_id, rotated.app_key.expose()).await.is_ok());
}

#[tokio::test]
async fn webhook_signing_secret_is_stored_sealed_and_rotates() {
    let w = world().await;
    let (tenant, _) = w.service.create_tenant("Acme", None).await.unwrap();
    let new = NewApp { name: Name::parse("App").unwrap(), webhook_url: None, allowed_origins: Vec::new() };
    let created = w.service.create_app(&Admin::server(tenant.id), new).await.unwrap();
    let secret = created.webhook_signing_secret.expose().to_owned();
    assert!(!created.app.webhook_secret_sealed.windows(secret.len()).any(|w| w == secret.as_bytes()));
    assert_eq!(w.service.webhook_secret(&created.app).unwrap().expose(), secret);

    let rotated = w.service.rotate_webhook_secret(&Admin::server(tenant.id), created.app.id).await.unwrap();
    let app = w.service.find_app(tenant.id, created.app.id).await.unwrap().unwrap();
    assert_eq!(w.service.webhook_secret(&app).unwrap().expose(), rotated.expose());
    assert_ne!(rotated.expose(), secret);

    let changes = AppChanges { webhook_enabled: Some(false), ..Default::default() };
    assert!(!w.service.update_app(&Admin::server(tenant.id), app.id, changes).await.unwrap().webhook_enabled);
}

#[tokio::test]
async fn allowed_origins_restrict_public_routes() {
    let w = world().await;
    let (tenant, _) = w.service.create_tenant("Acme", None).await.unwrap();
    let origins = clickwrap_domain::apps::models::parse_origins(&["https://shop.example.com"]).unwrap();
    let new = NewApp { name: Name::parse("App").unwrap(), webhook_url: None, allowed_origins: origins };
    let app = w.service.create_app(&Admin::server(tenant.id), new).await.unwrap().app;
    let id = app.id.to_string();
    assert!(w.service.identify_public_app(&id, Some("https://shop.example.com")).await.is_ok());
    assert!(w.service.identify_public_app(&id, None).await.is_ok());
    assert_eq!(
        w.service.identify_public_app(&id, Some("https://evil.example.com")).await.unwrap_err(),
        PublicAppError::OriginNotAllowed
    );
    assert_eq!(
        w.service.identify_public_app("0190b7c4-2a1e-7cc3-9f00-5d1e2f3a4b5c", None).await.unwrap_err(),
        PublicAppError::UnknownApp
    );
}

#[tokio::test]
async fn publishing_numbers_versions_and_locks_their_content() {
    let w = world().await;
    let op = w.operator("Acme", None).await;
    let t = w.template(&op, "<p>v1</p>").await;
    let tenant = op.tenant.id;
    assert!(matches!(
        w.service.enable_template(&Admin::server(tenant), t.id).await,
        Err(EnableTemplateError::NoVersion(_))
    ));
    let (_, v1) = w.service.publish_version(&Admin::server(tenant), t.id, VersionKind::Minor, None).await.unwrap();
    assert_eq!(v1.number, VersionNumber::new(1, 0));

    let edited = BTreeMap::from([(Language::English, sanitize("<p>v1.1</p>").unwrap())]);
    w.service.save_draft(&Admin::server(tenant), t.id, edited).await.unwrap();
    let (_, v11) = w.service.publish_version(&Admin::server(tenant), t.id, VersionKind::Minor, None).await.unwrap();
    assert_eq!(v11.number, VersionNumber::new(1, 1));
    let (template, v2) =
        w.service.publish_version(&Admin::server(tenant), t.id, VersionKind::Major, None).await.unwrap();
    assert_eq!(v2.number, VersionNumber::new(2, 0));

    // Saving a draft never touches what was published.
    w.service
        .save_draft(
            &Admin::server(tenant),
            t.id,
            BTreeMap::from([(Language::English, sanitize("<p>draft</p>").unwrap())]),
        )
        .await
        .unwrap();
    let stored = w.service.get_template(tenant, t.id).await.unwrap();
    assert_eq!(stored.versions, template.versions);
    assert_eq!(stored.versions[0].content[&Language::English].as_str(), "<p>v1</p>");

    let earlier = start().saturating_sub(Duration::hours(1));
    assert!(matches!(
        w.service.publish_version(&Admin::server(tenant), t.id, VersionKind::Minor, Some(earlier)).await,
        Err(PublishVersionError::Invalid(PublishError::EffectiveBeforePrevious { .. }))
    ));

    let unknown = BTreeMap::from([(Language::English, sanitize("<p>Hi {{nickname}}</p>").unwrap())]);
    w.service.save_draft(&Admin::server(tenant), t.id, unknown).await.unwrap();
    assert!(matches!(
        w.service.publish_version(&Admin::server(tenant), t.id, VersionKind::Minor, None).await,
        Err(PublishVersionError::Invalid(PublishError::UnknownPlaceholder(_)))
    ));
    w.service.save_draft(&Admin::server(tenant), t.id, BTreeMap::new()).await.unwrap();
    assert!(matches!(
        w.service.publish_version(&Admin::server(tenant), t.id, VersionKind::Minor, None).await,
        Err(PublishVersionError::Invalid(PublishError::EmptyDraft))
    ));
}

#[tokio::test]
async fn templates_are_served_only_when_enabled_linked_and_effective() {
    let w = world().await;
    let op = w.operator("Acme", None).await;
    let t = w.published(&op, "<p>Terms</p>").await;
    assert!(w.check(&op.app, t.id, "u1").await.unwrap());

    w.service.disable_template(&op.admin(), t.id).await.unwrap();
    assert!(matches!(w.check(&op.app, t.id, "u1").await, Err(ClickwrapQueryError::NotFound(_))));
    w.service.enable_template(&op.admin(), t.id).await.unwrap();

    // Linked to another app of the tenant only: this app no longer sees it.
    let other = w
        .service
        .create_app(
            &op.admin(),
            NewApp { name: Name::parse("Other").unwrap(), webhook_url: None, allowed_origins: vec![] },
        )
        .await
        .unwrap();
    w.service.set_template_apps(&op.admin(), t.id, BTreeSet::from([other.app.id])).await.unwrap();
    assert!(w.check(&op.app, t.id, "u1").await.is_err());
    assert!(w.check(&other.app, t.id, "u1").await.is_ok());

    // A template whose only version is scheduled is not served until its time comes.
    let scheduled = w.template(&op, "<p>Later</p>").await;
    let later = start().saturating_add(Duration::days(1));
    w.service.publish_version(&op.admin(), scheduled.id, VersionKind::Major, Some(later)).await.unwrap();
    w.service.enable_template(&op.admin(), scheduled.id).await.unwrap();
    assert!(w.check(&op.app, scheduled.id, "u1").await.is_err());
    w.clock.set(later);
    assert!(w.check(&op.app, scheduled.id, "u1").await.unwrap());

    // Another tenant's template does not exist for this app.
    let stranger = w.operator("Globex", None).await;
    assert!(w.check(&stranger.app, t.id, "u1").await.is_err());
}

#[tokio::test]
async fn accept_verify_and_the_dialog_is_no_longer_required() {
    let w = world().await;
    let op = w.operator("Acme", None).await;
    let t = w.published(&op, "<p>Terms</p>").await;
    assert!(w.check(&op.app, t.id, "alice").await.unwrap());

    let recorded = w.act(&op.app, t.id, "alice", Action::Accepted).await;
    assert_eq!(recorded.event.status, EventStatus::Unverified);
    // An unverified acceptance does not count yet.
    assert!(w.check(&op.app, t.id, "alice").await.unwrap());

    let verified = w.service.verify(&op.app, recorded.signature.as_str()).await.unwrap();
    assert_eq!(verified.event.status, EventStatus::Accepted);
    assert!(verified.certificate_sha256.is_some());
    assert!(!w.check(&op.app, t.id, "alice").await.unwrap());
    // Another end user still has to accept.
    assert!(w.check(&op.app, t.id, "bob").await.unwrap());

    // Verifying twice records nothing twice.
    assert_eq!(
        w.service.verify(&op.app, recorded.signature.as_str()).await.unwrap_err(),
        VerifyError::AlreadyVerified { event_id: recorded.event.id }
    );
    assert_eq!(w.store.deliveries().len(), 1);
    let delivery = &w.store.deliveries()[0];
    assert_eq!(delivery.state, DeliveryState::Pending);
    let body: serde_json::Value = serde_json::from_str(&delivery.payload).unwrap();
    assert_eq!(body["eventType"], "CLICKWRAP_EVENT_VERIFIED");
    assert_eq!(body["data"]["clickwrapEventId"], recorded.event.id.to_string());
    assert_eq!(body["data"]["clickwrapEventStatus"], "ACCEPTED");
    assert_eq!(body["data"].as_object().unwrap().len(), 10);
    // The message's time, made once: the same bytes on every attempt.
    assert_eq!(body["timestamp"], delivery.created_at.to_rfc3339());
    assert_eq!(body.as_object().unwrap().len(), 3);

    let details = w.service.event_details(op.tenant.id, recorded.event.id).await.unwrap();
    assert_eq!(details.delivery.unwrap().state, DeliveryState::Pending);
    let (_, certificate) = w.service.certificate(op.tenant.id, recorded.event.id).await.unwrap();
    assert_eq!(Some(certificate.sha256), details.certificate_sha256);

    let status = w.service.consent_status(&op.app, &EndUserId::parse("alice").unwrap(), None).await.unwrap();
    assert_eq!(status.status, ConsentStatus::Accepted);
    assert_eq!(status.items[0].event_id, Some(recorded.event.id));
}

#[tokio::test]
async fn signatures_are_refused_when_forged_foreign_or_expired() {
    let w = world().await;
    let op = w.operator("Acme", None).await;
    let t = w.published(&op, "<p>Terms</p>").await;
    let recorded = w.act(&op.app, t.id, "alice", Action::Accepted).await;
    let token = recorded.signature.as_str();

    let mut forged = token.to_owned();
    let last = forged.pop().unwrap();
    forged.push(if last == '0' { '1' } else { '0' });
    assert_eq!(w.service.verify(&op.app, &forged).await.unwrap_err(), VerifyError::InvalidSignature);
    assert_eq!(w.service.verify(&op.app, "").await.unwrap_err(), VerifyError::InvalidSignature);
    assert_eq!(w.service.verify(&op.app, &token[..token.len() / 2]).await.unwrap_err(), VerifyError::InvalidSignature);

    let other = w
        .service
        .create_app(
            &op.admin(),
            NewApp { name: Name::parse("Other").unwrap(), webhook_url: None, allowed_origins: vec![] },
        )
        .await
        .unwrap();
    assert_eq!(w.service.verify(&other.app, token).await.unwrap_err(), VerifyError::AppMismatch);

    w.clock.advance(Duration::days(7));
    assert_eq!(w.service.verify(&op.app, token).await.unwrap_err(), VerifyError::SignatureExpired);
    // Nothing of the refused attempts was recorded.
    assert!(w.store.deliveries().is_empty());
    assert!(matches!(w.service.event_details(op.tenant.id, recorded.event.id).await, Err(EventLookupError::NotFound)));
}

#[tokio::test]
async fn the_record_proves_what_was_shown() {
    let w = world().await;
    let op = w.operator("Acme", None).await;
    let t = w.published(&op, "<p>Terms</p>").await;
    let now = w.clock.now();
    let wrong = ContentHash::of("<p>Something else</p>");
    assert_eq!(
        w.service
            .record_action(&op.app, presented(&wrong, VersionNumber::FIRST, t.id, "u", Action::Accepted, now))
            .await
            .unwrap_err(),
        RecordActionError::ContentMismatch
    );
    let right = ContentHash::of("<p>Terms</p>");
    let mut german = presented(&right, VersionNumber::FIRST, t.id, "u", Action::Accepted, now);
    german.language = Language::German;
    assert_eq!(
        w.service.record_action(&op.app, german).await.unwrap_err(),
        RecordActionError::LanguageNotAvailable(Language::German)
    );
    let mut future = presented(&right, VersionNumber::FIRST, t.id, "u", Action::Accepted, now);
    future.presented_at = now.saturating_add(Duration::hours(1));
    assert_eq!(w.service.record_action(&op.app, future).await.unwrap_err(), RecordActionError::PresentedAtOutOfRange);
    let missing = presented(&right, VersionNumber::new(9, 0), t.id, "u", Action::Accepted, now);
    assert!(matches!(w.service.record_action(&op.app, missing).await, Err(RecordActionError::NotFound(_))));

    let recorded = w
        .service
        .record_action(&op.app, presented(&right, VersionNumber::FIRST, t.id, "u", Action::Accepted, now))
        .await
        .unwrap();
    assert_eq!(recorded.event.content, "<p>Terms</p>");
    let metadata: serde_json::Value = serde_json::from_str(&recorded.event.technical_metadata).unwrap();
    assert_eq!(metadata["ipAddress"], "203.0.113.7");
    assert_eq!(metadata["userAgent"], "Mozilla/5.0 (test)");
}

#[tokio::test]
async fn a_declined_event_has_no_certificate_and_keeps_the_dialog_required() {
    let w = world().await;
    let op = w.operator("Acme", None).await;
    let t = w.published(&op, "<p>Terms</p>").await;
    let recorded = w.act(&op.app, t.id, "dave", Action::Declined).await;
    let verified = w.service.verify(&op.app, recorded.signature.as_str()).await.unwrap();
    assert_eq!(verified.event.status, EventStatus::Declined);
    assert_eq!(verified.certificate_sha256, None);
    assert!(matches!(w.service.certificate(op.tenant.id, recorded.event.id).await, Err(CertificateError::NotAccepted)));
    assert!(w.check(&op.app, t.id, "dave").await.unwrap());
    let status = w.service.consent_status(&op.app, &EndUserId::parse("dave").unwrap(), Some(t.id)).await.unwrap();
    assert_eq!(status.status, ConsentStatus::Declined);
}

#[tokio::test]
async fn the_event_quota_refuses_verifications_beyond_it_and_records_nothing() {
    let w = world().await;
    let op = w.operator("Acme", Some(1)).await;
    let t = w.published(&op, "<p>Terms</p>").await;
    w.accept_and_verify(&op.app, t.id, "one").await;
    let second = w.act(&op.app, t.id, "two", Action::Accepted).await;
    let refused = w.service.verify(&op.app, second.signature.as_str()).await.unwrap_err();
    assert!(matches!(refused, VerifyError::QuotaExceeded { quota: 1, retry_after_secs } if retry_after_secs > 0));
    assert_eq!(w.service.usage(&op.tenant).await.unwrap().events_this_period, 1);
    assert_eq!(w.store.deliveries().len(), 1);
    // Raising the quota lets the same (still valid) Signature through.
    w.service.set_event_quota(op.tenant.id, Some(5)).await.unwrap();
    assert!(w.service.verify(&op.app, second.signature.as_str()).await.is_ok());
}

#[tokio::test]
async fn a_new_major_version_or_a_re_accept_request_asks_again() {
    let w = world().await;
    let op = w.operator("Acme", None).await;
    let t = w.published(&op, "<p>Terms</p>").await;
    w.accept_and_verify(&op.app, t.id, "erin").await;
    w.accept_and_verify(&op.app, t.id, "frank").await;
    let erin = EndUserId::parse("erin").unwrap();

    // A minor version keeps the acceptance.
    w.service.publish_version(&op.admin(), t.id, VersionKind::Minor, None).await.unwrap();
    w.clock.advance(Duration::seconds(1));
    assert!(!w.check(&op.app, t.id, "erin").await.unwrap());

    let results = w
        .service
        .request_re_accept(
            &op.app,
            &[erin.clone(), EndUserId::parse("nobody").unwrap()],
            &[t.id],
            Some("policy update"),
        )
        .await
        .unwrap();
    assert_eq!(results[0].2, ReAcceptOutcome::Requested);
    assert_eq!(results[1].2, ReAcceptOutcome::Skipped);
    assert!(w.check(&op.app, t.id, "erin").await.unwrap());
    let status = w.service.consent_status(&op.app, &erin, None).await.unwrap();
    assert!(status.items[0].re_acceptance_required);
    // Accepting again settles it.
    w.clock.advance(Duration::seconds(1));
    w.accept_and_verify(&op.app, t.id, "erin").await;
    assert!(!w.check(&op.app, t.id, "erin").await.unwrap());

    // A major version asks everyone again.
    w.service.publish_version(&op.admin(), t.id, VersionKind::Major, None).await.unwrap();
    w.clock.advance(Duration::seconds(1));
    assert!(w.check(&op.app, t.id, "frank").await.unwrap());
    let frank = w.service.consent_status(&op.app, &EndUserId::parse("frank").unwrap(), None).await.unwrap();
    assert_eq!(frank.items[0].status, ConsentStatus::NoData);
    assert!(frank.items[0].re_acceptance_required);
    assert_eq!(frank.items[0].version, VersionNumber::new(2, 0));
}

#[tokio::test]
async fn accepted_content_is_shown_for_the_version_the_user_accepted() {
    let w = world().await;
    let op = w.operator("Acme", None).await;
    let t = w.published(&op, "<p>First terms</p>").await;
    w.accept_and_verify(&op.app, t.id, "gina").await;
    w.service
        .save_draft(&op.admin(), t.id, BTreeMap::from([(Language::English, sanitize("<p>Second</p>").unwrap())]))
        .await
        .unwrap();
    w.service.publish_version(&op.admin(), t.id, VersionKind::Major, None).await.unwrap();
    w.clock.advance(Duration::seconds(1));
    let query = |user: Option<&str>| ContentQuery {
        template_id: t.id,
        version: None,
        language: LanguagePreference::default(),
        placeholders: PlaceholderValues::default(),
        end_user_id: user.map(|u| EndUserId::parse(u).unwrap()),
    };
    let accepted = w.service.clickwrap_content(&op.app, &query(Some("gina"))).await.unwrap();
    assert_eq!((accepted.version, accepted.content.as_str()), (VersionNumber::new(1, 0), "<p>First terms</p>"));
    let latest = w.service.clickwrap_content(&op.app, &query(None)).await.unwrap();
    assert_eq!(latest.version, VersionNumber::new(2, 0));
    assert!(w.service.clickwrap_content(&op.app, &query(Some("never-accepted"))).await.is_err());
}

#[tokio::test]
async fn accepted_content_is_the_stored_content_as_shown_even_after_the_template_is_disabled() {
    let w = world().await;
    let op = w.operator("Acme", None).await;
    let content = [
        (Language::English, "<p>Dear {{fullName}}, the terms.</p>"),
        (Language::German, "<p>Liebe(r) {{fullName}}, die Bedingungen.</p>"),
    ];
    let t = w.template_in(&op, Language::English, &content).await;
    let t = w.publish_and_enable(&op, &t).await;
    let placeholders = PlaceholderValues::from_json_text(r#"{"fullName":"Ada%20L%C3%B6welace"}"#).unwrap();
    let check = ClickwrapCheck {
        template_id: t.id,
        end_user_id: EndUserId::parse("hanna").unwrap(),
        language: LanguagePreference::parse("de").unwrap(),
        placeholders: placeholders.clone(),
    };
    let shown = w.service.check_clickwrap(&op.app, &check).await.unwrap().shown.rendered.clone();
    assert_eq!(shown.content, "<p>Liebe(r) Ada Löwelace, die Bedingungen.</p>");
    let mut action = presented(&shown.content_hash, shown.version, t.id, "hanna", Action::Accepted, w.clock.now());
    action.language = Language::German;
    action.placeholders = placeholders;
    let recorded = w.service.record_action(&op.app, action).await.unwrap();
    assert_eq!(recorded.event.template_placeholders.as_deref(), Some(r#"{"fullName":"Ada Löwelace"}"#));
    w.service.verify(&op.app, recorded.signature.as_str()).await.unwrap();
    // A later version, a rename and a disabled template change nothing about what was accepted.
    w.service
        .save_draft(&op.admin(), t.id, BTreeMap::from([(Language::English, sanitize("<p>New</p>").unwrap())]))
        .await
        .unwrap();
    w.service.publish_version(&op.admin(), t.id, VersionKind::Major, None).await.unwrap();
    w.service.disable_template(&op.admin(), t.id).await.unwrap();
    w.clock.advance(Duration::seconds(1));

    let asked = ContentQuery {
        template_id: t.id,
        version: None,
        // The language and placeholders asked for now do not matter: the accepted content does.
        language: LanguagePreference::parse("en").unwrap(),
        placeholders: PlaceholderValues::default(),
        end_user_id: Some(EndUserId::parse("hanna").unwrap()),
    };
    let accepted = w.service.clickwrap_content(&op.app, &asked).await.unwrap();
    assert_eq!(accepted.content, shown.content);
    assert_eq!(accepted.content_hash, shown.content_hash);
    assert_eq!((accepted.language, accepted.version), (Language::German, VersionNumber::new(1, 0)));
    assert_eq!(accepted.effective_at, shown.effective_at);
    // Without an end user the disabled template is not served.
    let latest = ContentQuery { end_user_id: None, ..asked };
    assert!(matches!(w.service.clickwrap_content(&op.app, &latest).await, Err(ClickwrapQueryError::NotFound(_))));
}

#[tokio::test]
async fn a_client_cannot_claim_another_agreement_mode_than_the_templates() {
    let w = world().await;
    let op = w.operator("Acme", None).await;
    let t = w.published(&op, "<p>Terms</p>").await;
    let check = ClickwrapCheck {
        template_id: t.id,
        end_user_id: EndUserId::parse("ivan").unwrap(),
        language: LanguagePreference::parse("en").unwrap(),
        placeholders: PlaceholderValues::default(),
    };
    let view = w.service.check_clickwrap(&op.app, &check).await.unwrap();
    assert_eq!(view.shown.customizations.agreement_mode, AgreementMode::Scroll);
    let mut action = presented(
        &view.shown.rendered.content_hash,
        view.shown.rendered.version,
        t.id,
        "ivan",
        Action::Accepted,
        w.clock.now(),
    );
    action.presentation.agreement_mode = AgreementMode::Checkbox;
    action.presentation.checkbox_label = Some("I invented this wording".into());
    assert_eq!(
        w.service.record_action(&op.app, action.clone()).await.unwrap_err(),
        RecordActionError::AgreementModeMismatch(AgreementMode::Scroll)
    );
    // Inline, a clickwrap is always a checkbox, whatever the dialog would use; nothing else is.
    action.presentation.mode = PresentationMode::Inline;
    w.service.record_action(&op.app, action.clone()).await.unwrap();
    action.presentation.agreement_mode = AgreementMode::Scroll;
    assert_eq!(
        w.service.record_action(&op.app, action).await.unwrap_err(),
        RecordActionError::AgreementModeMismatch(AgreementMode::Checkbox)
    );
}

#[tokio::test]
async fn languages_fall_back_from_the_wishes_to_the_templates_default_then_english() {
    let w = world().await;
    let op = w.operator("Acme", None).await;
    let content = [
        (Language::English, "<p>Terms</p>"),
        (Language::German, "<p>Bedingungen</p>"),
        (Language::French, "<p>Conditions</p>"),
    ];
    let t = w.template_in(&op, Language::German, &content).await;
    let t = w.publish_and_enable(&op, &t).await;
    let shown = |wishes: &'static str| {
        let check = ClickwrapCheck {
            template_id: t.id,
            end_user_id: EndUserId::parse("jo").unwrap(),
            language: LanguagePreference::parse(wishes).unwrap(),
            placeholders: PlaceholderValues::default(),
        };
        let service = &w.service;
        let app = &op.app;
        async move { service.check_clickwrap(app, &check).await.unwrap().shown.rendered.language }
    };
    // The first wish the version has wins, in the order given (a regional tag counts as its language).
    assert_eq!(shown("fr-CA,de").await, Language::French);
    assert_eq!(shown("ja,en,de").await, Language::English, "an unsupported wish is skipped");
    assert_eq!(shown("es,ru").await, Language::German, "no wish available: the template's default");
    assert_eq!(shown("").await, Language::German, "no wish at all: the template's default, not English");
}

#[tokio::test]
async fn the_events_list_walks_every_event_once_newest_first() {
    let w = world().await;
    let op = w.operator("Acme", None).await;
    let t = w.published(&op, "<p>Terms</p>").await;
    let mut expected = Vec::new();
    for i in 0..25 {
        // Every third pair shares a millisecond, so the id tie-breaker matters.
        if i % 3 != 0 {
            w.clock.advance(Duration::milliseconds(1));
        }
        let action = if i % 4 == 0 { Action::Declined } else { Action::Accepted };
        let recorded = w.act(&op.app, t.id, &format!("user-{i}"), action).await;
        w.service.verify(&op.app, recorded.signature.as_str()).await.unwrap();
        expected.push(recorded.event.id);
    }
    // An unverified event never appears.
    w.act(&op.app, t.id, "unverified", Action::Accepted).await;

    let filter = EventFilter::default();
    let limit = PageLimit::parse(10).unwrap();
    let mut seen = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let page = w.service.list_events(op.tenant.id, &filter, cursor.as_deref(), limit).await.unwrap();
        seen.extend(page.items.iter().map(|e| (e.action_at, e.id)));
        match page.next_cursor {
            Some(next) => cursor = Some(next),
            None => break,
        }
    }
    assert_eq!(seen.len(), 25);
    let mut sorted = seen.clone();
    sorted.sort_by(|a, b| b.cmp(a));
    assert_eq!(seen, sorted, "newest first, ids descending within a millisecond");
    let ids: BTreeSet<_> = seen.iter().map(|(_, id)| *id).collect();
    assert_eq!(ids, expected.into_iter().collect());

    let declined = EventFilter { status: Some(Action::Declined), ..Default::default() };
    let page = w.service.list_events(op.tenant.id, &declined, None, PageLimit::parse(100).unwrap()).await.unwrap();
    assert_eq!(page.items.len(), 7);
    assert!(page.next_cursor.is_none());

    // A cursor is bound to its tenant and filters.
    let first = w.service.list_events(op.tenant.id, &filter, None, limit).await.unwrap();
    let token = first.next_cursor.unwrap();
    assert_eq!(
        w.service.list_events(op.tenant.id, &declined, Some(&token), limit).await.unwrap_err(),
        ListEventsError::InvalidCursor
    );
    let stranger = w.operator("Globex", None).await;
    assert_eq!(
        w.service.list_events(stranger.tenant.id, &filter, Some(&token), limit).await.unwrap_err(),
        ListEventsError::InvalidCursor
    );
    assert_eq!(
        w.service.list_events(op.tenant.id, &filter, Some("garbage"), limit).await.unwrap_err(),
        ListEventsError::InvalidCursor
    );
    let empty = w.service.list_events(stranger.tenant.id, &filter, None, limit).await.unwrap();
    assert!(empty.items.is_empty() && empty.next_cursor.is_none());

    let backwards =
        EventFilter { from: Some(start().saturating_add(Duration::hours(1))), to: Some(start()), ..Default::default() };
    assert_eq!(
        w.service.list_events(op.tenant.id, &backwards, None, limit).await.unwrap_err(),
        ListEventsError::FromAfterTo
    );
    assert!(PageLimit::parse(0).is_err() && PageLimit::parse(101).is_err());
}

#[tokio::test]
async fn tenants_never_see_each_others_evidence() {
    let w = world().await;
    let a = w.operator("Acme", None).await;
    let b = w.operator("Globex", None).await;
    let t = w.published(&a, "<p>Terms</p>").await;
    let recorded = w.accept_and_verify(&a.app, t.id, "shared-id").await;
    assert!(matches!(w.service.event_details(b.tenant.id, recorded.event.id).await, Err(EventLookupError::NotFound)));
    assert!(matches!(w.service.certificate(b.tenant.id, recorded.event.id).await, Err(CertificateError::NotFound)));
    assert!(w.service.get_template(b.tenant.id, t.id).await.is_err());
    let status = w.service.consent_status(&b.app, &EndUserId::parse("shared-id").unwrap(), None).await.unwrap();
    assert!(status.items.is_empty());
    assert_eq!(status.status, ConsentStatus::NoData);
    // Verifying another tenant's Signature with one's own credentials is refused.
    let second = w.act(&a.app, t.id, "x", Action::Accepted).await;
    assert_eq!(w.service.verify(&b.app, second.signature.as_str()).await.unwrap_err(), VerifyError::AppMismatch);
}

#[tokio::test]
async fn rate_limits_count_per_app_ip_and_route() {
    let w = world_with(Settings { rate_limit: RateLimitPolicy::per_hour(2), ..Settings::default() }).await;
    let op = w.operator("Acme", None).await;
    let key = |ip: &str, route| RateLimitKey { app_id: op.app.id, client_ip: ip.into(), route };
    let verify = key("198.51.100.1", RateLimitedRoute::Verify);
    assert!(w.service.hit_rate_limit(&verify).allowed);
    assert!(w.service.hit_rate_limit(&verify).allowed);
    let refused = w.service.hit_rate_limit(&verify);
    assert!(!refused.allowed && refused.remaining == 0 && refused.reset_after_secs > 0);
    assert!(w.service.hit_rate_limit(&key("198.51.100.2", RateLimitedRoute::Verify)).allowed);
    assert!(w.service.hit_rate_limit(&key("198.51.100.1", RateLimitedRoute::ClickwrapCheck)).allowed);
    w.clock.advance(Duration::hours(1));
    assert!(w.service.hit_rate_limit(&verify).allowed);
}

#[tokio::test]
async fn rate_limits_are_decided_in_memory_and_shared_when_synced() {
    let settings = Settings { rate_limit: RateLimitPolicy::per_hour(3), ..Settings::default() };
    let w = world_with(settings).await;
    let other = ClickwrapService::start(w.service.ports().clone(), settings, fixtures::master_keys()).await.unwrap();
    let op = w.operator("Acme", None).await;
    let key = RateLimitKey { app_id: op.app.id, client_ip: "198.51.100.1".into(), route: RateLimitedRoute::Verify };
    assert_eq!(w.service.sync_rate_limits().await.unwrap(), 0, "nothing counted, nothing to share");
    assert!(w.service.hit_rate_limit(&key).allowed);
    assert!(w.service.hit_rate_limit(&key).allowed);
    assert_eq!(other.hit_rate_limit(&key).remaining, 2, "not synced yet: the other instance counts its own hit");
    assert_eq!(w.service.unsynced_rate_limit_hits(), 2);
    assert_eq!(w.service.sync_rate_limits().await.unwrap(), 1, "one entry for the key that moved");
    assert_eq!(w.service.unsynced_rate_limit_hits(), 0);
    assert_eq!(other.sync_rate_limits().await.unwrap(), 1);
    let refused = other.hit_rate_limit(&key);
    assert!(!refused.allowed, "the second to sync knows all 3 hits (alone it has counted 2)");
    assert_eq!(refused.remaining, 0);
    assert_eq!(w.service.sync_rate_limits().await.unwrap(), 0, "nothing moved here since");
}

#[tokio::test]
async fn every_verified_event_is_in_its_tenants_ledger_with_proofs_that_verify() {
    use clickwrap_domain::ledger::merkle;
    use clickwrap_domain::ledger::service::{ConsistencyProofError, InclusionProofError};
    use clickwrap_domain::ledger::tree_head::verify_tree_head;

    let w = world().await;
    let op = w.operator("Acme", None).await;
    let other = w.operator("Other", None).await;
    let t = w.published(&op, "<p>Terms</p>").await;
    let mut events = Vec::new();
    for (i, action) in [Action::Accepted, Action::Declined, Action::Accepted].into_iter().enumerate() {
        let recorded = w.act(&op.app, t.id, &format!("user-{i}"), action).await;
        w.service.verify(&op.app, recorded.signature.as_str()).await.unwrap();
        events.push(recorded.event.id);
    }
    let unverified = w.act(&op.app, t.id, "late", Action::Accepted).await;

    let public_key = pem_body(&w.service.ledger_public_key_pem());
    for (index, event) in events.iter().enumerate() {
        let proof = w.service.inclusion_proof(&op.app, *event).await.unwrap();
        assert_eq!(proof.leaf_index, index as u64, "accepted and declined events alike, in order");
        let head = &proof.tree_head.head;
        assert_eq!(head.tree_size, 3);
        assert!(merkle::verify_inclusion(
            &proof.leaf_hash,
            proof.leaf_index,
            head.tree_size,
            &proof.audit_path,
            &head.root_hash
        ));
        assert!(verify_tree_head(head, &proof.tree_head.signature, &public_key), "signed with the published key");
        let mut forged = proof.leaf_hash;
        forged[0] ^= 1;
        assert!(!merkle::verify_inclusion(
            &forged,
            proof.leaf_index,
            head.tree_size,
            &proof.audit_path,
            &head.root_hash
        ));
    }
    assert_eq!(w.service.inclusion_proof(&op.app, unverified.event.id).await, Err(InclusionProofError::NotInLedger));
    assert_eq!(
        w.service.inclusion_proof(&other.app, events[0]).await,
        Err(InclusionProofError::NotInLedger),
        "another tenant's"
    );

    // The log grows; the old head stays provably a prefix of the new one.
    let old = w.service.latest_tree_head(op.tenant.id).await.unwrap();
    w.accept_and_verify(&op.app, t.id, "user-3").await;
    assert_eq!(w.service.sign_tree_heads().await.unwrap(), 1, "one tenant's log grew");
    assert_eq!(w.service.sign_tree_heads().await.unwrap(), 0, "nothing new");
    let new = w.service.latest_tree_head(op.tenant.id).await.unwrap();
    assert_eq!(new.head.tree_size, 4);
    let consistency = w.service.consistency_proof(op.tenant.id, 3, 4).await.unwrap();
    assert_eq!((consistency.from_root, consistency.to_root), (old.head.root_hash, new.head.root_hash));
    assert!(merkle::verify_consistency(3, 4, &old.head.root_hash, &new.head.root_hash, &consistency.consistency_path));
    for (from, to) in [(0, 4), (4, 3), (1, 5)] {
        assert!(matches!(
            w.service.consistency_proof(op.tenant.id, from, to).await,
            Err(ConsistencyProofError::SizesOutOfRange { size: 4 })
        ));
    }
    // A tenant without verified events has an empty, signed log.
    let empty = w.service.latest_tree_head(other.tenant.id).await.unwrap();
    assert_eq!((empty.head.tree_size, empty.head.root_hash), (0, merkle::empty_root()));
}

/// The DER inside a PEM block.
fn pem_body(pem: &str) -> Vec<u8> {
    use base64ct::Encoding as _;
    let body: String = pem.lines().filter(|line| !line.starts_with("-----")).collect();
    base64ct::Base64::decode_vec(&body).unwrap()
}

/// Counts what the outbox was told.
#[derive(Debug, Default)]
struct CountingSignal(std::sync::atomic::AtomicUsize);

impl OutboxSignal for CountingSignal {
    fn delivery_due(&self) {
        self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    }
}

#[tokio::test]
async fn verifications_and_redeliveries_tell_the_outbox_once_committed() {
    let w = world().await;
    let signal = Arc::new(CountingSignal::default());
    let told = || signal.0.load(std::sync::atomic::Ordering::SeqCst);
    let service = w.service.clone().with_outbox_signal(signal.clone());
    let op = w.operator("Acme", None).await;
    let t = w.published(&op, "<p>Terms</p>").await;

    let recorded = w.act(&op.app, t.id, "alice", Action::Accepted).await;
    assert_eq!(told(), 0, "an unverified event has no delivery");
    let verified = service.verify(&op.app, recorded.signature.as_str()).await.unwrap();
    assert_eq!(told(), 1, "a verification's PENDING delivery");
    assert!(service.verify(&op.app, recorded.signature.as_str()).await.is_err());
    assert_eq!(told(), 1, "nothing committed, nothing told");

    let paused = w
        .service
        .update_app(&op.admin(), op.app.id, AppChanges { webhook_enabled: Some(false), ..AppChanges::default() })
        .await
        .unwrap();
    let declined = w.act(&paused, t.id, "bob", Action::Declined).await;
    service.verify(&paused, declined.signature.as_str()).await.unwrap();
    assert_eq!(told(), 1, "a DISABLED delivery is not due");

    let delivery = w.store.find_delivery_for_event(op.tenant.id, verified.event.id).await.unwrap().unwrap();
    service.redeliver_webhook(&op.admin(), delivery.id).await.unwrap();
    assert_eq!(told(), 2, "a redelivery");
    let unknown = clickwrap_domain::DeliveryId::from_uuid(uuid::Uuid::new_v4());
    assert!(service.redeliver_webhook(&op.admin(), unknown).await.is_err());
    assert_eq!(told(), 2, "nothing redelivered, nothing told");
}

#[tokio::test]
async fn what_a_check_shows_is_made_once_per_cached_template_and_placeholders_within_a_bound() {
    let w = world().await;
    let op = w.operator("Acme", None).await;
    let t = w.published(&op, "<p>Dear {{fullName}}, the terms.</p>").await;
    let shown = async |user: &str, full_name: Option<&str>| {
        let placeholders = full_name
            .map(|n| PlaceholderValues::from_json_text(&format!(r#"{{"fullName":"{n}"}}"#)).unwrap())
            .unwrap_or_default();
        let check = ClickwrapCheck {
            template_id: t.id,
            end_user_id: EndUserId::parse(user).unwrap(),
            language: LanguagePreference::default(),
            placeholders,
        };
        w.service.check_clickwrap(&op.app, &check).await.unwrap().shown
    };

    let plain = shown("ada", None).await;
    assert_eq!(plain.rendered.content, "<p>Dear , the terms.</p>");
    assert!(Arc::ptr_eq(&plain, &shown("bob", None).await), "one rendering for every end user");
    let named = shown("ada", Some("Ada")).await;
    assert_eq!(named.rendered.content, "<p>Dear Ada, the terms.</p>");
    assert_ne!(named.rendered.content_hash, plain.rendered.content_hash);
    assert!(Arc::ptr_eq(&named, &shown("carl", Some("Ada")).await), "kept per placeholder values");

    // Sixteen renderings per template at most: with two kept, fourteen more fit, then none.
    for n in 0..20 {
        shown("dan", Some(&format!("User{n}"))).await;
    }
    assert!(Arc::ptr_eq(&shown("eve", Some("User13")).await, &shown("fay", Some("User13")).await));
    let beyond = shown("eve", Some("User14")).await;
    let again = shown("fay", Some("User14")).await;
    assert!(!Arc::ptr_eq(&beyond, &again), "beyond the bound, rendered for each check and not kept");
    assert_eq!(beyond, again, "and the same all the same");
    assert!(Arc::ptr_eq(&plain, &shown("gus", None).await), "what was kept stays");

    // A change through this instance drops the template and what was made from it.
    let customizations = Customizations { agreement_mode: AgreementMode::Checkbox, ..Customizations::default() };
    w.service.set_customizations(&op.admin(), t.id, customizations).await.unwrap();
    let changed = shown("ada", None).await;
    assert_eq!(changed.customizations.agreement_mode, AgreementMode::Checkbox, "never an old rendering");
    assert!(!Arc::ptr_eq(&changed, &plain));
    // So does the end of the time to live (the template is read again).
    w.clock.advance(Duration::seconds(2));
    let reread = shown("ada", None).await;
    assert!(!Arc::ptr_eq(&reread, &changed));
    assert_eq!(reread, changed);
}

/// What the SDK does against `instance`: fetch what it shows now, as `presented`'s action.
async fn shown_by(instance: &ClickwrapService, app: &App, template: TemplateId, user: &str) -> PresentedAction {
    let check = ClickwrapCheck {
        template_id: template,
        end_user_id: EndUserId::parse(user).unwrap(),
        language: LanguagePreference::parse("en").unwrap(),
        placeholders: PlaceholderValues::default(),
    };
    let view = instance.check_clickwrap(app, &check).await.unwrap();
    let mut action = presented(
        &view.shown.rendered.content_hash,
        view.shown.rendered.version,
        template,
        user,
        Action::Accepted,
        instance.ports().clock.now(),
    );
    action.presented_at = instance.ports().clock.now();
    action.presentation.agreement_mode = view.shown.customizations.agreement_mode;
    action
}

#[tokio::test]
async fn what_another_instance_showed_from_its_cache_is_never_refused_here() {
    let w = world().await;
    let op = w.operator("Acme", None).await;
    let t = w.published(&op, "<p>Terms v1</p>").await;
    let other = second_instance(&w).await;
    // The other instance keeps v1 in its cache: it shows v1 after this instance published v2.
    w.clock.advance(Duration::minutes(1));
    shown_by(&other, &op.app, t.id, "warm").await;
    w.service
        .save_draft(&op.admin(), t.id, BTreeMap::from([(Language::English, sanitize("<p>v2</p>").unwrap())]))
        .await
        .unwrap();
    w.service.publish_version(&op.admin(), t.id, VersionKind::Major, None).await.unwrap();
    w.clock.advance(Duration::milliseconds(400));
    let stale = shown_by(&other, &op.app, t.id, "ada").await;
    assert_eq!(stale.version, VersionNumber { major: 1, minor: 0 }, "the other instance's cache is not over yet");
    let recorded = w.service.record_action(&op.app, stale.clone()).await.unwrap();
    assert_eq!(recorded.event.version, VersionNumber { major: 1, minor: 0 }, "what was shown is what is recorded");
    w.service.verify(&op.app, recorded.signature.as_str()).await.unwrap();
    // No instance serves a version for longer than the longest time to live after it was superseded.
    let mut late = stale;
    late.presented_at = w.clock.now().saturating_add(Duration::seconds(11));
    w.clock.advance(Duration::seconds(12));
    assert_eq!(
        w.service.record_action(&op.app, late).await.unwrap_err(),
        RecordActionError::VersionSuperseded(VersionNumber { major: 1, minor: 0 })
    );

    // A setting changed through this instance, shown by it, is checked by the other against storage,
    // not against its cached copy: the dialog's agreement mode, the template's links, its being enabled.
    let checkbox = Customizations { agreement_mode: AgreementMode::Checkbox, ..Customizations::default() };
    shown_by(&other, &op.app, t.id, "warm").await;
    w.service.set_customizations(&op.admin(), t.id, checkbox).await.unwrap();
    let fresh = shown_by(&w.service, &op.app, t.id, "bob").await;
    assert_eq!(fresh.presentation.agreement_mode, AgreementMode::Checkbox);
    other.record_action(&op.app, fresh).await.unwrap();
    assert_eq!(
        shown_by(&other, &op.app, t.id, "bob").await.presentation.agreement_mode,
        AgreementMode::Checkbox,
        "and it keeps the truth"
    );

    let disabled = w.template(&op, "<p>Later</p>").await;
    w.service.publish_version(&op.admin(), disabled.id, VersionKind::Major, None).await.unwrap();
    assert!(
        other
            .check_clickwrap(
                &op.app,
                &ClickwrapCheck {
                    template_id: disabled.id,
                    end_user_id: EndUserId::parse("carl").unwrap(),
                    language: LanguagePreference::default(),
                    placeholders: PlaceholderValues::default(),
                }
            )
            .await
            .is_err(),
        "cached there while disabled"
    );
    w.service.enable_template(&op.admin(), disabled.id).await.unwrap();
    other.record_action(&op.app, shown_by(&w.service, &op.app, disabled.id, "carl").await).await.unwrap();

    // An origin allowed a moment ago through this instance.
    let shop = clickwrap_domain::apps::models::parse_origins(&["https://shop.example.com"]).unwrap();
    let both = clickwrap_domain::apps::models::parse_origins(&["https://shop.example.com", "https://new.example.com"])
        .unwrap();
    w.service
        .update_app(&op.admin(), op.app.id, AppChanges { allowed_origins: Some(shop), ..AppChanges::default() })
        .await
        .unwrap();
    let app_id = op.app.id.to_string();
    other.identify_public_app(&app_id, Some("https://shop.example.com")).await.unwrap();
    w.service
        .update_app(&op.admin(), op.app.id, AppChanges { allowed_origins: Some(both), ..AppChanges::default() })
        .await
        .unwrap();
    other.identify_public_app(&app_id, Some("https://new.example.com")).await.unwrap();
    assert_eq!(
        other.identify_public_app(&app_id, Some("https://evil.example.com")).await.unwrap_err(),
        PublicAppError::OriginNotAllowed
    );
}

#[tokio::test]
async fn an_announced_change_is_served_at_once_by_every_instance() {
    let w = world().await;
    let op = w.operator("Acme", None).await;
    let t = w.published(&op, "<p>Terms</p>").await;
    let other = second_instance(&w).await;
    other.serving_caches().announcements_started();
    let mode = async || shown_by(&other, &op.app, t.id, "ada").await.presentation.agreement_mode;
    assert_eq!(mode().await, AgreementMode::Scroll);

    let checkbox = Customizations { agreement_mode: AgreementMode::Checkbox, ..Customizations::default() };
    w.service.set_customizations(&op.admin(), t.id, checkbox).await.unwrap();
    w.clock.advance(Duration::seconds(5));
    assert_eq!(mode().await, AgreementMode::Scroll, "announced changes: kept beyond the short time to live");
    other.serving_caches().changed(ServingChange::Template(op.tenant.id, t.id));
    assert_eq!(mode().await, AgreementMode::Checkbox, "the announcement drops it");

    w.service.set_customizations(&op.admin(), t.id, Customizations::default()).await.unwrap();
    w.clock.advance(Duration::seconds(5));
    other.serving_caches().announcements_stopped();
    assert_eq!(mode().await, AgreementMode::Scroll, "announcements lost: back to the short time to live at once");
}

#[tokio::test]
async fn saving_one_draft_language_keeps_the_others_and_is_sanitized_and_audited() {
    use clickwrap_domain::content::sanitize::ContentRejected;
    use clickwrap_domain::templates::service::SaveDraftLanguageError;
    let w = world().await;
    let op = w.operator("Acme", None).await;
    let t = w.template(&op, "<p>Terms</p>").await;
    let admin = op.admin();
    let (german, french) = tokio::join!(
        w.service.save_draft_language(&admin, t.id, Language::German, Some("<p onclick=\"x()\">AGB</p>".into())),
        w.service.save_draft_language(&admin, t.id, Language::French, Some("<p>CGU</p>".into())),
    );
    german.unwrap();
    french.unwrap();
    let draft = w.service.get_template(op.tenant.id, t.id).await.unwrap().draft;
    let texts: Vec<(Language, &str)> = draft.iter().map(|(l, html)| (*l, html.as_str())).collect();
    assert_eq!(
        texts,
        vec![(Language::English, "<p>Terms</p>"), (Language::German, "<p>AGB</p>"), (Language::French, "<p>CGU</p>")]
    );

    let removed = w.service.save_draft_language(&op.admin(), t.id, Language::German, None).await.unwrap();
    assert_eq!(removed.draft.keys().copied().collect::<Vec<_>>(), vec![Language::English, Language::French]);
    let log = w.service.audit_log(op.tenant.id, None, Default::default()).await.unwrap();
    let saves = log.items.iter().filter(|e| e.action == AuditAction::TemplateDraftSaved).count();
    assert_eq!(saves, 3, "each save is audited");

    let too_large = "x".repeat(clickwrap_domain::content::sanitize::MAX_CONTENT_BYTES + 1);
    assert!(matches!(
        w.service.save_draft_language(&op.admin(), t.id, Language::German, Some(too_large)).await,
        Err(SaveDraftLanguageError::Content(ContentRejected::TooLarge { .. }))
    ));
    let unknown = TemplateId::parse("0190b7c4-2a1e-7cc3-9f00-5d1e2f3a4b5c").unwrap();
    assert_eq!(
        w.service.save_draft_language(&op.admin(), unknown, Language::German, None).await.unwrap_err(),
        SaveDraftLanguageError::NotFound
    );
}

#[tokio::test]
async fn the_dialog_preview_shows_the_version_in_force_else_the_draft() {
    let w = world().await;
    let op = w.operator("Acme", None).await;
    let t = w.template(&op, "<p>Draft {{fullName}}</p>").await;
    let preview = w.service.dialog_preview(op.tenant.id, t.id, None).await.unwrap();
    assert_eq!(
        (preview.content.as_str(), preview.version, preview.effective_at),
        ("<p>Draft </p>", VersionNumber::FIRST, start())
    );
    assert_eq!(preview.language, Language::English);

    w.publish_and_enable(&op, &t).await;
    let later = start().saturating_add(Duration::days(1));
    w.service.save_draft_language(&op.admin(), t.id, Language::English, Some("<p>Next</p>".into())).await.unwrap();
    w.service.publish_version(&op.admin(), t.id, VersionKind::Major, Some(later)).await.unwrap();
    let preview = w.service.dialog_preview(op.tenant.id, t.id, Some(Language::English)).await.unwrap();
    assert_eq!(preview.version, VersionNumber::new(1, 0), "the version in force, not the scheduled one");
    assert_eq!(preview.content, "<p>Draft </p>");
    let german = w.service.dialog_preview(op.tenant.id, t.id, Some(Language::German)).await.unwrap();
    assert_eq!((german.content.as_str(), german.texts.accept_button.as_str()), ("", "Akzeptieren"));
}

#[tokio::test]
async fn a_preview_of_unsaved_content_is_sanitized_and_filled_and_stores_nothing() {
    use clickwrap_domain::content::placeholders::PlaceholderName;
    use clickwrap_domain::content::sanitize::{ContentRejected, MAX_CONTENT_BYTES};
    use clickwrap_domain::templates::service::PreviewContentError;
    let w = world().await;
    let op = w.operator("Acme", None).await;
    w.template(&op, "<p>Terms</p>").await;
    let stored_before = format!("{:?}", w.store);
    let mut values = PlaceholderValues::default();
    values.insert(PlaceholderName::parse("fullName").unwrap(), "Ada").unwrap();
    let shown = w.service.preview_content("<p onclick=\"x()\">Hi {{fullName}}</p>".into(), &values).await.unwrap();
    assert_eq!(shown, "<p>Hi Ada</p>");
    assert_eq!(
        w.service.preview_content("x".repeat(MAX_CONTENT_BYTES + 1), &values).await.unwrap_err(),
        PreviewContentError::Content(ContentRejected::TooLarge { size: MAX_CONTENT_BYTES + 1 })
    );
    assert_eq!(format!("{:?}", w.store), stored_before, "a preview writes nothing: no template, draft or audit entry");
}
