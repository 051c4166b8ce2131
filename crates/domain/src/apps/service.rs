//! App use cases: create, read, change, regenerate the App Key, rotate the webhook signing secret.

use super::models::{App, AppKeyOverlap, Origin, secret_binding};
use crate::apps::models::AppChanges;
use crate::apps::models::AppUpdate;
use crate::audit::models::{AuditAction, AuditEntry};
use crate::name::Name;
use crate::ports::{StorageError, WebhookTargetRejected};
use crate::secrets::{AppKey, OpenSecretError, WebhookSigningSecret};
use crate::service::ClickwrapService;
use crate::tenants::models::Admin;
use crate::webhooks::url::WebhookUrl;
use crate::{AppId, TenantId, Timestamp};

/// What an operator sends to create an app, parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewApp {
    pub name: Name,
    pub webhook_url: Option<WebhookUrl>,
    pub allowed_origins: Vec<Origin>,
}

/// A new app with its secrets, which are shown this once.
#[derive(Debug, Clone)]
pub struct CreatedApp {
    pub app: App,
    pub app_key: AppKey,
    pub webhook_signing_secret: WebhookSigningSecret,
}

/// A regenerated App Key, shown this once, and when the key it replaced stops working.
#[derive(Debug, Clone)]
pub struct RegeneratedAppKey {
    pub app_key: AppKey,
    /// The moment of the rotation when there is no overlap.
    pub old_key_expires_at: Timestamp,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CreateAppError {
    /// The URL's host resolves to an address webhooks may not reach.
    #[error(transparent)]
    WebhookUrlRejected(#[from] WebhookTargetRejected),
    #[error(transparent)]
    Storage(#[from] StorageError),
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UpdateAppError {
    #[error("no such app")]
    NotFound,
    #[error(transparent)]
    WebhookUrlRejected(#[from] WebhookTargetRejected),
    #[error(transparent)]
    Storage(#[from] StorageError),
}

/// Replacing one of an app's credentials (its App Key, its webhook signing secret). No URL is
/// vetted, so unlike [`UpdateAppError`] nothing can be rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AppCredentialError {
    #[error("no such app")]
    NotFound,
    #[error(transparent)]
    Storage(#[from] StorageError),
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WebhookSecretError {
    #[error("the webhook signing secret cannot be opened: {0}")]
    Unreadable(#[from] OpenSecretError),
    #[error("the stored webhook signing secret is malformed")]
    Malformed,
}

impl ClickwrapService {
    pub async fn create_app(&self, admin: &Admin, new: NewApp) -> Result<CreatedApp, CreateAppError> {
        if let Some(url) = &new.webhook_url {
            self.ports.webhook_guard.vet(url).await?;
        }
        let now = self.now();
        let app_key = AppKey::from_random(self.ports.random.bytes32());
        let secret = WebhookSigningSecret::from_random(self.ports.random.bytes32());
        let mut app = App {
            id: AppId::from_uuid(self.new_uuid()),
            tenant_id: admin.tenant_id(),
            name: new.name,
            webhook_url: new.webhook_url,
            webhook_enabled: true,
            allowed_origins: new.allowed_origins,
            app_key_hash: app_key.hash(),
            previous_app_key: None,
            webhook_secret_sealed: Vec::new(),
            created_at: now,
            updated_at: now,
        };
        app.webhook_secret_sealed = self.seal_at_rest(secret.expose().as_bytes(), &app.secret_binding())?;
        let audit = app_details(self.audit_entry(admin, AuditAction::AppCreated, app.id), &app);
        self.ports.apps.insert_app(&app, &audit).await?;
        Ok(CreatedApp { app, app_key, webhook_signing_secret: secret })
    }

    pub async fn list_apps(&self, tenant: TenantId) -> Result<Vec<App>, StorageError> {
        self.ports.apps.list_apps(tenant).await
    }

    pub async fn find_app(&self, tenant: TenantId, app_id: AppId) -> Result<Option<App>, StorageError> {
        self.ports.apps.find_app(tenant, app_id).await
    }

    /// What the SSRF guard says of the app's webhook URL now (its host is looked up again), as a
    /// delivery would meet it; `None` when the app has no webhook URL.
    pub async fn vet_webhook_target(&self, app: &App) -> Option<Result<(), WebhookTargetRejected>> {
        match &app.webhook_url {
            Some(url) => Some(self.ports.webhook_guard.vet(url).await),
            None => None,
        }
    }

    /// Changes the settings given in `changes`, and only those.
    pub async fn update_app(&self, admin: &Admin, app_id: AppId, changes: AppChanges) -> Result<App, UpdateAppError> {
        // Unknown apps are answered before the URL's host is looked up.
        self.ports.apps.find_app(admin.tenant_id(), app_id).await?.ok_or(UpdateAppError::NotFound)?;
        if let Some(Some(url)) = &changes.webhook_url {
            self.ports.webhook_guard.vet(url).await?;
        }
        let audit = changed_details(self.audit_entry(admin, AuditAction::AppUpdated, app_id), &changes);
        let stored = self.write_app(admin, app_id, AppUpdate::Settings(changes), self.now(), &audit).await?;
        stored.ok_or(UpdateAppError::NotFound)
    }

    /// A new App Key. The old one keeps working for `overlap` (none: it fails at once), so that
    /// backends can switch without downtime; a key replaced earlier stops now in any case.
    pub async fn regenerate_app_key(
        &self,
        admin: &Admin,
        app_id: AppId,
        overlap: AppKeyOverlap,
    ) -> Result<RegeneratedAppKey, AppCredentialError> {
        let app_key = AppKey::from_random(self.ports.random.bytes32());
        let now = self.now();
        let old_key_expires_at = now.saturating_add(overlap.duration());
        let overlap_secs = overlap.duration().whole_seconds();
        let audit = self
            .audit_entry(admin, AuditAction::AppKeyRegenerated, app_id)
            .with("expireOldAfterSecs", overlap_secs.to_string())
            .with("oldKeyExpiresAt", old_key_expires_at.to_rfc3339());
        let update = AppUpdate::AppKey {
            hash: app_key.hash(),
            old_key_expires_at: (overlap_secs > 0).then_some(old_key_expires_at),
        };
        self.write_app(admin, app_id, update, now, &audit).await?.ok_or(AppCredentialError::NotFound)?;
        Ok(RegeneratedAppKey { app_key, old_key_expires_at })
    }

    /// A new webhook signing secret; deliveries from now on are signed with it.
    pub async fn rotate_webhook_secret(
        &self,
        admin: &Admin,
        app_id: AppId,
    ) -> Result<WebhookSigningSecret, AppCredentialError> {
        let secret = WebhookSigningSecret::from_random(self.ports.random.bytes32());
        let sealed = self.seal_at_rest(secret.expose().as_bytes(), &secret_binding(app_id))?;
        let audit = self.audit_entry(admin, AuditAction::WebhookSigningSecretRotated, app_id);
        let update = AppUpdate::WebhookSecret { sealed };
        self.write_app(admin, app_id, update, self.now(), &audit).await?.ok_or(AppCredentialError::NotFound)?;
        Ok(secret)
    }

    /// The app's webhook signing secret, for signing a delivery.
    pub fn webhook_secret(&self, app: &App) -> Result<WebhookSigningSecret, WebhookSecretError> {
        let bytes = self.open_at_rest(&app.webhook_secret_sealed, &app.secret_binding())?;
        let text = String::from_utf8(bytes).map_err(|_| WebhookSecretError::Malformed)?;
        WebhookSigningSecret::parse(&text).map_err(|_| WebhookSecretError::Malformed)
    }

    async fn write_app(
        &self,
        admin: &Admin,
        app_id: AppId,
        update: AppUpdate,
        at: Timestamp,
        audit: &AuditEntry,
    ) -> Result<Option<App>, StorageError> {
        self.ports.apps.update_app(admin.tenant_id(), app_id, &update, at, audit).await
    }
}

/// The app's settings as an audit entry records them (never its secrets).
fn app_details(entry: AuditEntry, app: &App) -> AuditEntry {
    changed_details(
        entry,
        &AppChanges {
            name: Some(app.name.clone()),
            webhook_url: Some(app.webhook_url.clone()),
            webhook_enabled: Some(app.webhook_enabled),
            allowed_origins: Some(app.allowed_origins.clone()),
        },
    )
}

/// The settings a change sets, as an audit entry records them.
fn changed_details(mut entry: AuditEntry, changes: &AppChanges) -> AuditEntry {
    if let Some(name) = &changes.name {
        entry = entry.with("name", name.as_str());
    }
    if let Some(url) = &changes.webhook_url {
        entry = entry.with("webhookUrl", url.as_ref().map_or("", |u| u.as_str()));
    }
    if let Some(enabled) = changes.webhook_enabled {
        entry = entry.with("webhookEnabled", enabled.to_string());
    }
    if let Some(origins) = &changes.allowed_origins {
        let origins: Vec<&str> = origins.iter().map(Origin::as_str).collect();
        entry = entry.with("allowedOrigins", origins.join(" "));
    }
    entry
}
