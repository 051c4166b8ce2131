use async_trait::async_trait;
use clickwrap_domain::apps::models::{App, Origin};
use clickwrap_domain::audit::models::AuditEntry;
use clickwrap_domain::ports::{AppStore, StorageError};
use clickwrap_domain::secrets::SecretHash;
use clickwrap_domain::webhooks::url::WebhookUrl;
use clickwrap_domain::{AppId, Name, TenantId};
use diesel::prelude::*;
use diesel_async::{AsyncConnection, RunQueryDsl};

use crate::convert::{at, hash32, ts};
use crate::errors::{corrupt, from_diesel};
use crate::schema::apps;
use crate::{PgStore, audit};

#[derive(Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = apps, check_for_backend(diesel::pg::Pg), treat_none_as_null = true)]
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
}

impl AppRow {
    fn from_domain(app: &App) -> Self {
        Self {
            id: *app.id.as_uuid(),
            tenant_id: *app.tenant_id.as_uuid(),
            name: app.name.as_str().to_owned(),
            webhook_url: app.webhook_url.as_ref().map(|u| u.as_str().to_owned()),
            webhook_enabled: app.webhook_enabled,
            allowed_origins: app.allowed_origins.iter().map(|o| o.as_str().to_owned()).collect(),
            app_key_hash: app.app_key_hash.as_bytes().to_vec(),
            webhook_secret_sealed: app.webhook_secret_sealed.clone(),
            created_at: at(app.created_at),
            updated_at: at(app.updated_at),
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

    async fn update_app(&self, app: &App, audit: &AuditEntry) -> Result<bool, StorageError> {
        let mut conn = self.conn().await?;
        let row = AppRow::from_domain(app);
        conn.transaction::<_, diesel::result::Error, _>(async |conn| {
            let updated = diesel::update(
                apps::table.filter(apps::tenant_id.eq(app.tenant_id.as_uuid())).filter(apps::id.eq(app.id.as_uuid())),
            )
            .set(&row)
            .execute(conn)
            .await?;
            if updated == 1 {
                audit::write(conn, audit).await?;
            }
            Ok(updated == 1)
        })
        .await
        .map_err(from_diesel)
    }
}
