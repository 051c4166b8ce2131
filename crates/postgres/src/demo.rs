//! Remembers what `clickwrap-server demo` created, so restarts reuse it.

use clickwrap_domain::ports::StorageError;
use clickwrap_domain::{AppId, TemplateId, TenantId};
use diesel::prelude::*;
use diesel_async::RunQueryDsl;

use crate::PgStore;
use crate::errors::from_diesel;
use crate::schema::demo_installation as demo;

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
