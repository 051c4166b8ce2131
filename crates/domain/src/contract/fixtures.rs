//! Valid domain values with sensible defaults and fresh ids, for the contract suites and for any
//! adapter's own tests. Every builder takes new random UUIDs, so values never collide with what a
//! store already holds; the `stored_*` helpers also write the value (and nothing else) through the
//! ports, so a foreign-key-enforcing database sees every prerequisite row.

use std::collections::{BTreeMap, BTreeSet};

use time::Duration;
use uuid::Uuid;

use super::support::Stores;
use crate::apps::models::{App, Origin};
use crate::audit::models::{AuditAction, AuditEntry};
use crate::consent::models::{Action, ClickwrapEvent, EventStatus, Presentation, PresentationMode};
use crate::consent::models::{StoredCertificate, VerificationRecord};
use crate::content::hash::ContentHash;
use crate::content::sanitize::SanitizedHtml;
use crate::keys::management::server_key_binding;
use crate::keys::master::{MasterKey, MasterKeys};
use crate::keys::models::{StoredKeyMaterial, StoredServerKey};
use crate::keys::{KeyId, SecretKey};
use crate::ledger::models::LedgerLeaf;
use crate::ledger::models::SALT_LEN;
use crate::limits::quota::QuotaPeriod;
use crate::limits::rate::{RateLimitKey, RateLimitedRoute};
use crate::secrets::{OperatorToken, SecretHash};
use crate::templates::customizations::{
    AgreementMode, ButtonStyle, Buttons, Color, Customizations, TextOverrides, Theme,
};
use crate::templates::models::{LocalizedContent, Template, TemplateVersion};
use crate::templates::versioning::VersionNumber;
use crate::tenants::models::{Admin, OperatorRole, OperatorTokenRecord, Tenant};
use crate::webhooks::models::Delivery;
use crate::webhooks::payload::outbox_entry;
use crate::webhooks::url::WebhookUrl;
use crate::{
    AppId, AuditEntryId, DeliveryId, EndUserId, EventId, Language, Name, OperatorTokenId, Tag, TemplateId, TenantId,
    Timestamp,
};

/// A fresh random UUID.
pub fn uuid() -> Uuid {
    Uuid::new_v4()
}

/// 32 random bytes (from two v4 UUIDs: plenty for test secrets).
pub fn random32() -> [u8; 32] {
    let mut bytes = [0u8; 32];
    let (first, second) = bytes.split_at_mut(16);
    first.copy_from_slice(uuid().as_bytes());
    second.copy_from_slice(uuid().as_bytes());
    bytes
}

/// The moment the fixtures are set around: `2026-11-22T07:00:00.000Z` (mid-month, so a few days
/// either way stay in the same quota period).
pub fn base_time() -> Timestamp {
    at("2026-11-22T07:00:00.000Z")
}

/// An RFC 3339 timestamp.
pub fn at(rfc3339: &str) -> Timestamp {
    Timestamp::parse_rfc3339(rfc3339).expect("a valid RFC 3339 timestamp")
}

/// `base_time()` moved by `seconds` seconds.
pub fn base_plus_secs(seconds: i64) -> Timestamp {
    base_time().saturating_add(Duration::seconds(seconds))
}

/// A name, panicking on invalid input (fixtures only pass valid ones).
pub fn name(text: &str) -> Name {
    Name::parse(text).expect("a valid name")
}

/// A fresh end user id (`user-<uuid>`).
pub fn end_user() -> EndUserId {
    end_user_named(&format!("user-{}", uuid()))
}

pub fn end_user_named(text: &str) -> EndUserId {
    EndUserId::parse(text).expect("a valid end user id")
}

pub fn tag(text: &str) -> Tag {
    Tag::parse(text).expect("a valid tag")
}

pub fn origin(text: &str) -> Origin {
    Origin::parse(text).expect("a valid origin")
}

pub fn webhook_url(text: &str) -> WebhookUrl {
    WebhookUrl::parse(text).expect("a valid webhook URL")
}

pub fn color(text: &str) -> Color {
    Color::parse(text).expect("a valid color")
}

pub fn html(text: &str) -> SanitizedHtml {
    SanitizedHtml::from_stored(text.to_owned())
}

/// A tenant with a fresh id, no quota, created at `base_time()`.
pub fn tenant() -> Tenant {
    let id = TenantId::from_uuid(uuid());
    Tenant { id, name: name(&format!("Tenant {id}")), legal_name: None, event_quota: None, created_at: base_time() }
}

/// A fresh ADMIN operator token for `tenant` and the record a store keeps of it.
pub fn operator_token(tenant: &Tenant) -> (OperatorToken, OperatorTokenRecord) {
    operator_token_with_role(tenant, OperatorRole::Admin)
}

/// A fresh operator token for `tenant` with `role`, and the record a store keeps of it.
pub fn operator_token_with_role(tenant: &Tenant, role: OperatorRole) -> (OperatorToken, OperatorTokenRecord) {
    let token = OperatorToken::from_random(random32());
    let record = OperatorTokenRecord {
        id: OperatorTokenId::from_uuid(uuid()),
        tenant_id: tenant.id,
        name: name(&format!("{} token", role.as_str())),
        role,
        token_hash: token.hash(),
        created_at: tenant.created_at,
    };
    (token, record)
}

/// An audit entry of `tenant` made by the server itself, at `base_time()`, as storage writes take.
pub fn audit(tenant: TenantId) -> AuditEntry {
    AuditEntry::new(
        AuditEntryId::from_uuid(uuid()),
        &Admin::server(tenant),
        base_time(),
        AuditAction::AppUpdated,
        uuid().to_string(),
    )
}

/// An app of `tenant` with every optional field set: a webhook URL (enabled), two allowed origins,
/// an App Key hash and sealed-secret bytes that include 0x00 and 0xff.
pub fn app(tenant: TenantId) -> App {
    let id = AppId::from_uuid(uuid());
    let mut sealed = vec![0x00, 0xff, 0x7f, 0x80];
    sealed.extend_from_slice(&random32());
    sealed.extend_from_slice(id.as_bytes());
    App {
        id,
        tenant_id: tenant,
        name: name(&format!("App {id}")),
        webhook_url: Some(webhook_url("https://hooks.example.com/clickwrap?source=contract")),
        webhook_enabled: true,
        allowed_origins: vec![origin("https://shop.example.com"), origin("http://localhost:3000")],
        app_key_hash: SecretHash::from_bytes(random32()),
        previous_app_key: None,
        webhook_secret_sealed: sealed,
        created_at: base_time(),
        updated_at: base_plus_secs(1),
    }
}

/// Customizations with every field set away from its default, texts in two languages.
pub fn full_customizations() -> Customizations {
    Customizations {
        agreement_mode: AgreementMode::Checkbox,
        theme: Theme {
            primary_color: Some(color("#1a2b3c")),
            background_color: Some(color("#fff")),
            text_color: Some(color("#000000")),
            border_radius: Some(12),
        },
        buttons: Buttons { accept_style: ButtonStyle::Outlined, decline_style: ButtonStyle::Text, show_decline: false },
        logo_url: Some("https://cdn.example.com/logo.png".to_owned()),
        texts: BTreeMap::from([
            (
                Language::English,
                TextOverrides {
                    title: Some("Please read".to_owned()),
                    accept_button: Some("I agree".to_owned()),
                    decline_button: Some("No thanks".to_owned()),
                    checkbox_label: Some("I have read the terms".to_owned()),
                    version_label: Some("Rev.".to_owned()),
                },
            ),
            (
                Language::German,
                TextOverrides {
                    title: None,
                    accept_button: Some("Einverstanden – ü".to_owned()),
                    decline_button: None,
                    checkbox_label: Some("Gelesen & verstanden".to_owned()),
                    version_label: None,
                },
            ),
        ]),
    }
}

/// Draft or version content in English, German and Chinese (non-ASCII on purpose).
pub fn content(label: &str) -> LocalizedContent {
    BTreeMap::from([
        (Language::English, html(&format!("<h1>Terms {label}</h1><p>Hello {{{{name}}}}, these are the terms.</p>"))),
        (Language::German, html(&format!("<p>Bedingungen {label}: Größe &amp; Maß</p>"))),
        (Language::Chinese, html(&format!("<p>条款 {label}</p>"))),
    ])
}

/// A template of `tenant` without versions (as a new template is stored), disabled, with tags,
/// customizations and draft content; linked to `app_ids` (empty: every app of the tenant).
pub fn template(tenant: TenantId, app_ids: &[AppId]) -> Template {
    let id = TemplateId::from_uuid(uuid());
    Template {
        id,
        tenant_id: tenant,
        name: name(&format!("Terms {id}")),
        tags: BTreeSet::from([tag("legal"), tag("eu-only")]),
        default_language: Language::English,
        draft: content("draft"),
        customizations: full_customizations(),
        always_require_acceptance: false,
        enabled: false,
        app_ids: app_ids.iter().copied().collect(),
        versions: Vec::new(),
        created_at: base_time(),
        updated_at: base_plus_secs(2),
    }
}

/// A published version `major.minor` in force from `effective_at`, published a minute before.
pub fn version(major: u32, minor: u32, effective_at: Timestamp) -> TemplateVersion {
    TemplateVersion {
        number: VersionNumber::new(major, minor),
        effective_at,
        published_at: effective_at.saturating_sub(Duration::minutes(1)),
        content: content(&format!("v{major}.{minor}")),
    }
}

/// An UNVERIFIED event of `app` on `template`'s latest version, by a fresh end user, accepted at
/// `base_time()`. Change what a test needs through the [`EventBuilder`] methods.
pub fn event(app: &App, template: &Template) -> EventBuilder {
    let version = template.latest_version().expect("the template has a published version");
    let content = format!("<h1>Terms</h1><p>Hello Ada Lovelace, these are the terms of {}.</p>", template.name);
    let event = ClickwrapEvent {
        id: EventId::from_uuid(uuid()),
        tenant_id: app.tenant_id,
        app_id: app.id,
        template_id: template.id,
        template_name: template.name.as_str().to_owned(),
        version: version.number,
        effective_at: version.effective_at,
        end_user_id: end_user(),
        action: Action::Accepted,
        status: EventStatus::Unverified,
        language: Language::English,
        content_hash: ContentHash::of(&content),
        content,
        template_placeholders: None,
        // Key order and spacing as the service writes them, which a JSON-normalizing column
        // would change: the text must come back byte for byte.
        technical_metadata:
            r#"{"userAgent":"Mozilla/5.0 (contract)","ipAddress":"203.0.113.7","client":{"sdk":"js","v":"1.2.0"}}"#
                .to_owned(),
        presentation: Presentation {
            mode: PresentationMode::Dialog,
            agreement_mode: AgreementMode::Scroll,
            accept_label: "Accept".to_owned(),
            checkbox_label: None,
            scroll_required: Some(true),
        },
        presented_at: base_time().saturating_sub(Duration::seconds(20)),
        action_at: base_time(),
        verified_at: None,
    };
    EventBuilder { event }
}

/// Adjusts an event fixture; [`EventBuilder::build`] returns it.
#[derive(Debug, Clone)]
pub struct EventBuilder {
    event: ClickwrapEvent,
}

impl EventBuilder {
    /// The version shown (and its `effective_at`).
    pub fn version(mut self, version: &TemplateVersion) -> Self {
        self.event.version = version.number;
        self.event.effective_at = version.effective_at;
        self
    }

    pub fn end_user(mut self, end_user: &EndUserId) -> Self {
        self.event.end_user_id = end_user.clone();
        self
    }

    pub fn action(mut self, action: Action) -> Self {
        self.event.action = action;
        self
    }

    /// When the end user acted; presented 20 seconds before.
    pub fn action_at(mut self, at: Timestamp) -> Self {
        self.event.action_at = at;
        self.event.presented_at = at.saturating_sub(Duration::seconds(20));
        self
    }

    /// Inline, checkbox mode, German, with placeholder values and non-ASCII content.
    pub fn inline_checkbox(mut self) -> Self {
        let content = "<p>Bedingungen für Ada „Lovelace“ – 条款 ✓</p>".to_owned();
        self.event.language = Language::German;
        self.event.content_hash = ContentHash::of(&content);
        self.event.content = content;
        self.event.template_placeholders =
            Some(r#"{"name":"Ada Lovelace","company":"Ünïcødé GmbH","empty":""}"#.to_owned());
        self.event.presentation = Presentation {
            mode: PresentationMode::Inline,
            agreement_mode: AgreementMode::Checkbox,
            accept_label: "Akzeptieren".to_owned(),
            checkbox_label: Some("Ich habe die Bedingungen gelesen".to_owned()),
            scroll_required: None,
        };
        self
    }

    pub fn build(self) -> ClickwrapEvent {
        self.event
    }
}

/// What verifying `event` at `verified_at` writes: the event moved to its action, a certificate
/// for ACCEPTED events (binary bytes included), a PENDING delivery, and the quota period that
/// contains `verified_at`.
pub fn verification(event: &ClickwrapEvent, verified_at: Timestamp, quota: Option<u64>) -> VerificationRecord {
    let mut verified = event.clone();
    verified.verify(verified_at).expect("the fixture event is unverified");
    let certificate = (verified.status == EventStatus::Accepted).then(|| certificate(&verified));
    let delivery = delivery(&verified, true, verified_at);
    let mut salt = [0; SALT_LEN];
    salt.copy_from_slice(&random32()[..SALT_LEN]);
    VerificationRecord {
        event: verified,
        certificate,
        delivery,
        quota,
        period: QuotaPeriod::containing(verified_at),
        ledger_leaf: LedgerLeaf { leaf_hash: random32(), salt },
    }
}

/// A certificate for a verified event, created when it was verified.
pub fn certificate(event: &ClickwrapEvent) -> StoredCertificate {
    let mut pdf = format!("%PDF-1.7\n% contract certificate for {}\n", event.id).into_bytes();
    pdf.extend_from_slice(&[0x00, 0xe2, 0xe3, 0xcf, 0xd3, 0xff]);
    pdf.extend_from_slice(&random32());
    let digest = ring::digest::digest(&ring::digest::SHA256, &pdf);
    let mut sha256 = [0u8; 32];
    sha256.copy_from_slice(digest.as_ref());
    StoredCertificate {
        event_id: event.id,
        pdf,
        sha256,
        created_at: event.verified_at.unwrap_or(event.action_at),
        app_name: Some("Acme Web „Shop“".to_owned()),
        operator_name: Some("Acme Holdings GmbH".to_owned()),
    }
}

/// The outbox entry for a verified event: PENDING when the webhook is active, else DISABLED.
pub fn delivery(event: &ClickwrapEvent, webhook_active: bool, now: Timestamp) -> Delivery {
    outbox_entry(DeliveryId::from_uuid(uuid()), event, webhook_active, now)
}

/// A server key with a fresh id and random material.
pub fn secret_key() -> SecretKey {
    let id = format!("contract-{}", &uuid().simple().to_string()[..16]);
    SecretKey::new(KeyId::parse(&id).expect("a valid key id"), random32())
}

/// A server key as a store keeps it, current, sealed with [`master_keys`], made at the base time.
pub fn stored_server_key() -> StoredServerKey {
    let key = secret_key();
    let sealed = master_keys().seal(key.material(), random_nonce(), &server_key_binding(key.id())).expect("sealed");
    StoredServerKey {
        id: key.id().clone(),
        material: StoredKeyMaterial::Sealed(sealed),
        is_current: true,
        created_at: base_time(),
        replaced_at: None,
    }
}

/// The master key the contract suites and the use-case tests seal with.
pub fn master_keys() -> MasterKeys {
    MasterKeys::new(MasterKey::from_bytes([0x6d; 32]), None)
}

fn random_nonce() -> [u8; 12] {
    let mut nonce = [0; 12];
    nonce.copy_from_slice(&random32()[..12]);
    nonce
}

/// A rate-limit key for `app`, a documentation IP and the verify route.
pub fn rate_key(app: AppId) -> RateLimitKey {
    RateLimitKey { app_id: app, client_ip: "198.51.100.23".to_owned(), route: RateLimitedRoute::Verify }
}

/// A new tenant (and its operator token) written through [`crate::ports::TenantStore`].
pub async fn stored_tenant(stores: &Stores<'_>) -> (Tenant, OperatorToken) {
    let tenant = tenant();
    let (token, record) = operator_token(&tenant);
    stores.tenants.create_tenant(&tenant, &record).await.expect("create_tenant");
    (tenant, token)
}

/// A new app of `tenant` written through [`crate::ports::AppStore`].
pub async fn stored_app(stores: &Stores<'_>, tenant: TenantId) -> App {
    let app = app(tenant);
    stores.apps.insert_app(&app, &audit(app.tenant_id)).await.expect("insert_app");
    app
}

/// A new template of `tenant` linked to no app, with `versions` published in order (through
/// `insert_version`, as publishing does). Version `i` is effective `i` days before `base_time()`
/// counted from the last, so the last one is effective a day before `base_time()`.
pub async fn stored_template(stores: &Stores<'_>, tenant: TenantId, versions: &[(u32, u32)]) -> Template {
    let mut template = template(tenant, &[]);
    stores.templates.insert_template(&template, &audit(template.tenant_id)).await.expect("insert_template");
    let count = i64::try_from(versions.len()).unwrap_or(i64::MAX);
    for (index, (major, minor)) in (0i64..).zip(versions) {
        let effective_at = base_time().saturating_sub(Duration::days(count - index));
        let version = version(*major, *minor, effective_at);
        stores.templates.insert_version(tenant, template.id, &version, &audit(tenant)).await.expect("insert_version");
        template.versions.push(version);
    }
    template
}

/// A tenant with one app and one template published as 1.0, 1.1 and 2.0, all stored.
#[derive(Debug, Clone)]
pub struct Seed {
    pub tenant: Tenant,
    pub token: OperatorToken,
    pub app: App,
    pub template: Template,
}

impl Seed {
    /// The stored version `major.minor` of the seeded template.
    pub fn version(&self, major: u32, minor: u32) -> &TemplateVersion {
        self.template.version(VersionNumber::new(major, minor)).expect("a seeded version")
    }

    /// An unverified event of the seeded app on the latest version, by a fresh end user.
    pub fn event(&self) -> EventBuilder {
        event(&self.app, &self.template)
    }
}

pub async fn seed(stores: &Stores<'_>) -> Seed {
    let (tenant, token) = stored_tenant(stores).await;
    let app = stored_app(stores, tenant.id).await;
    let template = stored_template(stores, tenant.id, &[(1, 0), (1, 1), (2, 0)]).await;
    Seed { tenant, token, app, template }
}

/// Inserts `event` (UNVERIFIED) through the event store.
pub async fn stored_event(stores: &Stores<'_>, event: ClickwrapEvent) -> ClickwrapEvent {
    stores.events.insert_event(&event).await.expect("insert_event");
    event
}

/// Inserts `event` and commits its verification at `verified_at` with no quota; the verified event.
pub async fn verified_event(stores: &Stores<'_>, event: ClickwrapEvent, verified_at: Timestamp) -> ClickwrapEvent {
    let event = stored_event(stores, event).await;
    let record = verification(&event, verified_at, None);
    stores.events.commit_verification(&record).await.expect("commit_verification");
    record.event
}
