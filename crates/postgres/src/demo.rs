//! Remembers what `clickwrap-server demo` created, so restarts reuse it.

use clickwrap_domain::ports::StorageError;
use clickwrap_domain::{AppId, TemplateId, TenantId};
use diesel::prelude::*;
use diesel_async::{RunQueryDsl, SimpleAsyncConnection};

use crate::PgStore;
use crate::connection::{DbConnection, Statements};
use crate::database::DatabaseUrl;
use crate::errors::from_diesel;
use crate::schema::demo_installation as demo;

/// Any number will do, as long as nothing else in the database takes the same advisory lock.
const DEMO_SETUP_LOCK: i64 = 0x636c_6963_6b64_656d; // "clickdem"

/// Held while one `demo` process makes the demo or brings it up to date. Processes started at the
/// same moment take turns, so the demo is made once and each prints an App Key and operator token
/// that still work (the next one finds them kept and reuses them instead of replacing them).
///
/// A transaction-scoped lock on a connection of its own: the setup needs the pool's connections
/// (there may be only one), and a transaction's lock also holds through a transaction-mode
/// pooler. Released by [`DemoSetupLock::release`], or when the connection closes.
pub struct DemoSetupLock(DbConnection);

impl std::fmt::Debug for DemoSetupLock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("DemoSetupLock")
    }
}

/// Waits until no other process is setting the demo up, and holds the lock until released.
pub async fn lock_demo_setup(url: &DatabaseUrl) -> Result<DemoSetupLock, StorageError> {
    let mut conn = DbConnection::connect(&url.expose(), Statements::Unnamed)
        .await
        .map_err(|e| StorageError::Unavailable(e.to_string()))?;
    conn.batch_execute(&format!("BEGIN; SELECT pg_advisory_xact_lock({DEMO_SETUP_LOCK})"))
        .await
        .map_err(from_diesel)?;
    Ok(DemoSetupLock(conn))
}

impl DemoSetupLock {
    pub async fn release(mut self) -> Result<(), StorageError> {
        self.0.batch_execute("COMMIT").await.map_err(from_diesel)
    }
}

/// The demo's tenant, app and template.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DemoInstallation {
    pub tenant_id: TenantId,
    pub app_id: AppId,
    pub template_id: TemplateId,
}

/// The demo's secrets, sealed with the master key (`None` before the demo kept one).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DemoSecrets {
    pub app_key_sealed: Option<Vec<u8>>,
    pub operator_token_sealed: Option<Vec<u8>>,
}

impl PgStore {
    pub async fn demo_installation(&self) -> Result<Option<DemoInstallation>, StorageError> {
        let mut conn = self.conn().await?;
        let row: Option<(uuid::Uuid, uuid::Uuid, uuid::Uuid)> = demo::table
            .select((demo::tenant_id, demo::app_id, demo::template_id))
            .first(&mut conn)
            .await
            .optional()
            .map_err(from_diesel)?;
        Ok(row.map(|(tenant, app, template)| DemoInstallation {
            tenant_id: TenantId::from_uuid(tenant),
            app_id: AppId::from_uuid(app),
            template_id: TemplateId::from_uuid(template),
        }))
    }

    /// The demo's App Key and operator token as they were sealed, when they were.
    pub async fn demo_secrets(&self) -> Result<DemoSecrets, StorageError> {
        let mut conn = self.conn().await?;
        let row = demo::table
            .select((demo::app_key_sealed, demo::operator_token_sealed))
            .first::<(Option<Vec<u8>>, Option<Vec<u8>>)>(&mut conn)
            .await
            .optional()
            .map_err(from_diesel)?;
        let (app_key_sealed, operator_token_sealed) = row.unwrap_or_default();
        Ok(DemoSecrets { app_key_sealed, operator_token_sealed })
    }

    /// Keeps the demo's App Key, sealed.
    pub async fn keep_demo_app_key(&self, sealed: &[u8]) -> Result<(), StorageError> {
        let mut conn = self.conn().await?;
        diesel::update(demo::table)
            .set(demo::app_key_sealed.eq(sealed))
            .execute(&mut conn)
            .await
            .map_err(from_diesel)?;
        Ok(())
    }

    /// Keeps the demo's operator token, sealed.
    pub async fn keep_demo_operator_token(&self, sealed: &[u8]) -> Result<(), StorageError> {
        let mut conn = self.conn().await?;
        diesel::update(demo::table)
            .set(demo::operator_token_sealed.eq(sealed))
            .execute(&mut conn)
            .await
            .map_err(from_diesel)?;
        Ok(())
    }

    /// Records the demo; false when another process recorded one first.
    pub async fn record_demo_installation(&self, demo_row: DemoInstallation) -> Result<bool, StorageError> {
        let mut conn = self.conn().await?;
        let inserted = diesel::insert_into(demo::table)
            .values((
                demo::tenant_id.eq(demo_row.tenant_id.as_uuid()),
                demo::app_id.eq(demo_row.app_id.as_uuid()),
                demo::template_id.eq(demo_row.template_id.as_uuid()),
            ))
            .on_conflict_do_nothing()
            .execute(&mut conn)
            .await
            .map_err(from_diesel)?;
        Ok(inserted == 1)
    }
}
