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
