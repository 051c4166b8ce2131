//! App use cases: create, read, change, regenerate the App Key, rotate the webhook signing secret.

use super::models::{App, Origin};
use crate::audit::models::{AuditAction, AuditEntry};
use crate::name::Name;
use crate::ports::{StorageError, WebhookTargetRejected};
use crate::secrets::{AppKey, OpenSecretError, WebhookSigningSecret};
use crate::service::ClickwrapService;
use crate::tenants::models::Admin;
use crate::webhooks::url::WebhookUrl;
use crate::{AppId, TenantId};

/// What an operator sends to create an app, parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewApp {
    pub name: Name,
    pub webhook_url: Option<WebhookUrl>,
    pub allowed_origins: Vec<Origin>,
}

/// What an operator sends to change an app, parsed; `None` leaves a field as it is.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AppChanges {
    pub name: Option<Name>,
    /// `Some(None)` removes the webhook URL.
    pub webhook_url: Option<Option<WebhookUrl>>,
    pub webhook_enabled: Option<bool>,
    pub allowed_origins: Option<Vec<Origin>>,
}

/// A new app with its secrets, which are shown this once.
#[derive(Debug, Clone)]
pub struct CreatedApp {
    pub app: App,
    pub app_key: AppKey,
    pub webhook_signing_secret: WebhookSigningSecret,
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
            webhook_secret_sealed: Vec::new(),
            created_at: now,
            updated_at: now,
        };
        app.webhook_secret_sealed = self.seal_webhook_secret(&app, &secret)?;
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

    pub async fn update_app(&self, admin: &Admin, app_id: AppId, changes: AppChanges) -> Result<App, UpdateAppError> {
        let mut app = self.ports.apps.find_app(admin.tenant_id(), app_id).await?.ok_or(UpdateAppError::NotFound)?;
        if let Some(name) = changes.name {
            app.name = name;
        }
        if let Some(url) = changes.webhook_url {
            if let Some(url) = &url {
                self.ports.webhook_guard.vet(url).await?;
            }
            app.webhook_url = url;
        }
        if let Some(enabled) = changes.webhook_enabled {
            app.webhook_enabled = enabled;
        }
        if let Some(origins) = changes.allowed_origins {
            app.allowed_origins = origins;
        }
        app.updated_at = self.now();
        let audit = app_details(self.audit_entry(admin, AuditAction::AppUpdated, app.id), &app);
        self.store_app(app, &audit).await
    }

    /// A new App Key; the old one stops working at once.
    pub async fn regenerate_app_key(&self, admin: &Admin, app_id: AppId) -> Result<AppKey, UpdateAppError> {
        let mut app = self.ports.apps.find_app(admin.tenant_id(), app_id).await?.ok_or(UpdateAppError::NotFound)?;
        let key = AppKey::from_random(self.ports.random.bytes32());
        app.app_key_hash = key.hash();
        app.updated_at = self.now();
        let audit = self.audit_entry(admin, AuditAction::AppKeyRegenerated, app.id);
        self.store_app(app, &audit).await?;
        Ok(key)
    }

    /// A new webhook signing secret; deliveries from now on are signed with it.
    pub async fn rotate_webhook_secret(
        &self,
        admin: &Admin,
        app_id: AppId,
    ) -> Result<WebhookSigningSecret, UpdateAppError> {
        let mut app = self.ports.apps.find_app(admin.tenant_id(), app_id).await?.ok_or(UpdateAppError::NotFound)?;
        let secret = WebhookSigningSecret::from_random(self.ports.random.bytes32());
        app.webhook_secret_sealed = self.seal_webhook_secret(&app, &secret)?;
        app.updated_at = self.now();
        let audit = self.audit_entry(admin, AuditAction::WebhookSigningSecretRotated, app.id);
        self.store_app(app, &audit).await?;
        Ok(secret)
    }

    /// The app's webhook signing secret, for signing a delivery.
    pub fn webhook_secret(&self, app: &App) -> Result<WebhookSigningSecret, WebhookSecretError> {
        let bytes = self.open_at_rest(&app.webhook_secret_sealed, &app.secret_binding())?;
        let text = String::from_utf8(bytes).map_err(|_| WebhookSecretError::Malformed)?;
        WebhookSigningSecret::parse(&text).map_err(|_| WebhookSecretError::Malformed)
    }

    async fn store_app(&self, app: App, audit: &AuditEntry) -> Result<App, UpdateAppError> {
        if self.ports.apps.update_app(&app, audit).await? { Ok(app) } else { Err(UpdateAppError::NotFound) }
    }

    fn seal_webhook_secret(&self, app: &App, secret: &WebhookSigningSecret) -> Result<Vec<u8>, StorageError> {
        self.seal_at_rest(secret.expose().as_bytes(), &app.secret_binding())
    }
}

/// The app's settings as an audit entry records them (never its secrets).
fn app_details(entry: AuditEntry, app: &App) -> AuditEntry {
    let origins: Vec<&str> = app.allowed_origins.iter().map(Origin::as_str).collect();
    entry
        .with("name", app.name.as_str())
        .with("webhookUrl", app.webhook_url.as_ref().map_or("", |u| u.as_str()))
        .with("webhookEnabled", app.webhook_enabled.to_string())
        .with("allowedOrigins", origins.join(" "))
}
