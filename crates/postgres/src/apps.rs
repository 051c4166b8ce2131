use async_trait::async_trait;
use clickwrap_domain::apps::models::AppChanges;
use clickwrap_domain::apps::models::AppUpdate;
use clickwrap_domain::apps::models::{App, Origin, PreviousAppKey};
use clickwrap_domain::audit::models::AuditEntry;
use clickwrap_domain::ports::{AppStore, StorageError};
use clickwrap_domain::secrets::SecretHash;
use clickwrap_domain::webhooks::url::WebhookUrl;
use clickwrap_domain::{AppId, Name, TenantId, Timestamp};
use diesel::prelude::*;
use diesel_async::{AsyncConnection, RunQueryDsl};

use crate::convert::{at, hash32, ts};
use crate::errors::{corrupt, from_diesel};
use crate::schema::apps;
use crate::{PgStore, audit};

#[derive(Queryable, Selectable, Insertable)]
#[diesel(table_name = apps, check_for_backend(diesel::pg::Pg))]
struct AppRow {
    id: uuid::Uuid,
    tenant_id: uuid::Uuid,
    name: String,
    webhook_url: Option<String>,
    webhook_enabled: bool,
    allowed_origins: Vec<String>,
    app_key_hash: Vec<u8>,
    webhook_secret_sealed: Vec<u8>,
    created_at: time::OffsetDateTime,
    updated_at: time::OffsetDateTime,
    previous_app_key_hash: Option<Vec<u8>>,
    previous_app_key_expires_at: Option<time::OffsetDateTime>,
}

/// The columns one [`AppUpdate`] writes; `None` leaves a column as it is.
#[derive(AsChangeset)]
#[diesel(table_name = apps, check_for_backend(diesel::pg::Pg))]
struct AppChangeset {
    name: Option<String>,
    webhook_url: Option<Option<String>>,
    webhook_enabled: Option<bool>,
    allowed_origins: Option<Vec<String>>,
    app_key_hash: Option<Vec<u8>>,
    previous_app_key_hash: Option<Option<Vec<u8>>>,
    previous_app_key_expires_at: Option<Option<time::OffsetDateTime>>,
    webhook_secret_sealed: Option<Vec<u8>>,
    updated_at: time::OffsetDateTime,
}

impl AppChangeset {
    /// Only `updated_at`; the update's own columns are set by the caller.
    fn touching(updated_at: Timestamp) -> Self {
        Self {
            name: None,
            webhook_url: None,
            webhook_enabled: None,
            allowed_origins: None,
            app_key_hash: None,
            previous_app_key_hash: None,
            previous_app_key_expires_at: None,
            webhook_secret_sealed: None,
            updated_at: at(updated_at),
        }
    }

    fn settings(changes: &AppChanges, updated_at: Timestamp) -> Self {
        Self {
            name: changes.name.as_ref().map(|n| n.as_str().to_owned()),
            webhook_url: changes.webhook_url.as_ref().map(|url| url.as_ref().map(|u| u.as_str().to_owned())),
            webhook_enabled: changes.webhook_enabled,
            allowed_origins: changes.allowed_origins.as_ref().map(|origins| origin_texts(origins)),
            ..Self::touching(updated_at)
        }
    }
}

fn origin_texts(origins: &[Origin]) -> Vec<String> {
    origins.iter().map(|o| o.as_str().to_owned()).collect()
}

impl AppRow {
    fn from_domain(app: &App) -> Self {
        Self {
            id: *app.id.as_uuid(),
            tenant_id: *app.tenant_id.as_uuid(),
            name: app.name.as_str().to_owned(),
            webhook_url: app.webhook_url.as_ref().map(|u| u.as_str().to_owned()),
            webhook_enabled: app.webhook_enabled,
            allowed_origins: origin_texts(&app.allowed_origins),
            app_key_hash: app.app_key_hash.as_bytes().to_vec(),
            webhook_secret_sealed: app.webhook_secret_sealed.clone(),
            created_at: at(app.created_at),
            updated_at: at(app.updated_at),
            previous_app_key_hash: app.previous_app_key.map(|old| old.hash.as_bytes().to_vec()),
            previous_app_key_expires_at: app.previous_app_key.map(|old| at(old.expires_at)),
        }
    }

    fn into_domain(self) -> Result<App, StorageError> {
        Ok(App {
            id: AppId::from_uuid(self.id),
            tenant_id: TenantId::from_uuid(self.tenant_id),
            name: Name::parse(&self.name).map_err(|e| corrupt("app name", e))?,
            // Stored URLs passed the checks when they were saved; re-parsing only confirms the syntax.
            webhook_url: self
                .webhook_url
                .map(|u| WebhookUrl::parse_with_exemptions(&u, |_| true))
                .transpose()
                .map_err(|e| corrupt("webhook URL", e))?,
            webhook_enabled: self.webhook_enabled,
            allowed_origins: self
                .allowed_origins
                .iter()
                .map(|o| Origin::parse(o))
                .collect::<Result<_, _>>()
                .map_err(|e| corrupt("allowed origin", e))?,
            app_key_hash: SecretHash::from_bytes(hash32(&self.app_key_hash, "app key hash")?),
            previous_app_key: match (self.previous_app_key_hash, self.previous_app_key_expires_at) {
                (Some(hash), Some(expires_at)) => Some(PreviousAppKey {
                    hash: SecretHash::from_bytes(hash32(&hash, "previous app key hash")?),
                    expires_at: ts(expires_at),
                }),
                _ => None,
            },
            webhook_secret_sealed: self.webhook_secret_sealed,
            created_at: ts(self.created_at),
            updated_at: ts(self.updated_at),
        })
    }
}

#[async_trait]
impl AppStore for PgStore {
    async fn insert_app(&self, app: &App, audit: &AuditEntry) -> Result<(), StorageError> {
        let mut conn = self.conn().await?;
        let row = AppRow::from_domain(app);
        conn.transaction::<_, diesel::result::Error, _>(async |conn| {
            diesel::insert_into(apps::table).values(&row).execute(conn).await?;
            audit::write(conn, audit).await
        })
        .await
        .map_err(from_diesel)
    }

    async fn app_by_id(&self, id: AppId) -> Result<Option<App>, StorageError> {
        let mut conn = self.conn().await?;
        let row: Option<AppRow> = apps::table
            .find(id.as_uuid())
            .select(AppRow::as_select())
            .first(&mut conn)
            .await
            .optional()
            .map_err(from_diesel)?;
        row.map(AppRow::into_domain).transpose()
    }

    async fn find_app(&self, tenant: TenantId, id: AppId) -> Result<Option<App>, StorageError> {
        let mut conn = self.conn().await?;
        let row: Option<AppRow> = apps::table
            .filter(apps::tenant_id.eq(tenant.as_uuid()))
            .filter(apps::id.eq(id.as_uuid()))
            .select(AppRow::as_select())
            .first(&mut conn)
            .await
            .optional()
            .map_err(from_diesel)?;
        row.map(AppRow::into_domain).transpose()
    }

    async fn list_apps(&self, tenant: TenantId) -> Result<Vec<App>, StorageError> {
        let mut conn = self.conn().await?;
        let rows: Vec<AppRow> = apps::table
            .filter(apps::tenant_id.eq(tenant.as_uuid()))
            .order((apps::created_at, apps::id))
            .select(AppRow::as_select())
            .load(&mut conn)
            .await
            .map_err(from_diesel)?;
        rows.into_iter().map(AppRow::into_domain).collect()
    }

    async fn update_app(
        &self,
        tenant: TenantId,
        id: AppId,
        update: &AppUpdate,
        updated_at: Timestamp,
        audit: &AuditEntry,
    ) -> Result<Option<App>, StorageError> {
        let mut conn = self.conn().await?;
        let row = conn
            .transaction::<_, diesel::result::Error, _>(async |conn| {
                let the_app =
                    apps::table.filter(apps::tenant_id.eq(tenant.as_uuid())).filter(apps::id.eq(id.as_uuid()));
                let changes = match update {
                    AppUpdate::Settings(changes) => AppChangeset::settings(changes, updated_at),
                    AppUpdate::AppKey { hash, old_key_expires_at } => {
                        // The key to keep is the one current when this is written: the row stays
                        // locked from this read to the write.
                        let current: Option<Vec<u8>> =
                            the_app.select(apps::app_key_hash).for_update().first(conn).await.optional()?;
                        let Some(current) = current else { return Ok(None) };
                        AppChangeset {
                            app_key_hash: Some(hash.as_bytes().to_vec()),
                            previous_app_key_hash: Some(old_key_expires_at.map(|_| current)),
                            previous_app_key_expires_at: Some(old_key_expires_at.map(at)),
                            ..AppChangeset::touching(updated_at)
                        }
                    }
                    AppUpdate::WebhookSecret { sealed } => AppChangeset {
                        webhook_secret_sealed: Some(sealed.clone()),
                        ..AppChangeset::touching(updated_at)
                    },
                };
                let row: Option<AppRow> = diesel::update(the_app)
                    .set(&changes)
                    .returning(AppRow::as_returning())
                    .get_result(conn)
                    .await
                    .optional()?;
                if row.is_some() {
                    audit::write(conn, audit).await?;
                }
                Ok(row)
            })
            .await
            .map_err(from_diesel)?;
        row.map(AppRow::into_domain).transpose()
    }
}
