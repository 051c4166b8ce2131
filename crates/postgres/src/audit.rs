//! The audit log: written by the storage methods that make the changes, in their transaction, and
//! read a page at a time.

use async_trait::async_trait;
use clickwrap_domain::audit::models::{AuditAction, AuditEntry, AuditPosition};
use clickwrap_domain::ports::{AuditLogStore, StorageError};
use clickwrap_domain::{AuditEntryId, OperatorTokenId, TenantId};
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use serde_json::Value;

use crate::PgStore;
use crate::connection::DbConnection;
use crate::convert::{at, limit_i64, ts};
use crate::errors::{corrupt, from_diesel};
use crate::schema::audit_log;

#[derive(Queryable, Selectable, Insertable)]
#[diesel(table_name = audit_log, check_for_backend(diesel::pg::Pg))]
struct AuditRow {
    id: uuid::Uuid,
    tenant_id: uuid::Uuid,
    at: time::OffsetDateTime,
    operator_token_id: Option<uuid::Uuid>,
    action: String,
    subject_id: String,
    details: Value,
}

impl AuditRow {
    fn from_domain(entry: &AuditEntry) -> Self {
        let details = entry.details.iter().map(|(k, v)| (k.clone(), Value::String(v.clone()))).collect();
        Self {
            id: *entry.id.as_uuid(),
            tenant_id: *entry.tenant_id.as_uuid(),
            at: at(entry.at),
            operator_token_id: entry.operator_token_id.map(|t| *t.as_uuid()),
            action: entry.action.as_str().to_owned(),
            subject_id: entry.subject_id.clone(),
            details: Value::Object(details),
        }
    }

    fn into_domain(self) -> Result<AuditEntry, StorageError> {
        let details = self
            .details
            .as_object()
            .ok_or_else(|| corrupt("audit details", "not an object"))?
            .iter()
            .map(|(k, v)| Ok((k.clone(), v.as_str().ok_or_else(|| corrupt("audit detail", k))?.to_owned())))
            .collect::<Result<_, StorageError>>()?;
        Ok(AuditEntry {
            id: AuditEntryId::from_uuid(self.id),
            tenant_id: TenantId::from_uuid(self.tenant_id),
            at: ts(self.at),
            operator_token_id: self.operator_token_id.map(OperatorTokenId::from_uuid),
            action: AuditAction::parse(&self.action).ok_or_else(|| corrupt("audit action", &self.action))?,
            subject_id: self.subject_id,
            details,
        })
    }
}

/// Writes `entry` on `conn`: call it inside the transaction of the change it records.
pub(crate) async fn write(conn: &mut DbConnection, entry: &AuditEntry) -> QueryResult<()> {
    diesel::insert_into(audit_log::table).values(AuditRow::from_domain(entry)).execute(conn).await.map(|_| ())
}

#[async_trait]
impl AuditLogStore for PgStore {
    async fn list_audit_entries(
        &self,
        tenant: TenantId,
        after: Option<&AuditPosition>,
        limit: usize,
    ) -> Result<Vec<AuditEntry>, StorageError> {
        let mut conn = self.conn().await?;
        let mut query = audit_log::table
            .filter(audit_log::tenant_id.eq(tenant.as_uuid()))
            .order((audit_log::at.desc(), audit_log::id.desc()))
            .limit(limit_i64(limit))
            .select(AuditRow::as_select())
            .into_boxed();
        if let Some(after) = after {
            let (after_at, after_id) = (at(after.at), *after.id.as_uuid());
            query =
                query.filter(audit_log::at.lt(after_at).or(audit_log::at.eq(after_at).and(audit_log::id.lt(after_id))));
        }
        let rows: Vec<AuditRow> = query.load(&mut conn).await.map_err(from_diesel)?;
        rows.into_iter().map(AuditRow::into_domain).collect()
    }
}
