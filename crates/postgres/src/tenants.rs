use async_trait::async_trait;
use clickwrap_domain::limits::quota::QuotaPeriod;
use clickwrap_domain::ports::{StorageError, TenantStore};
use clickwrap_domain::secrets::SecretHash;
use clickwrap_domain::tenants::models::{OperatorTokenRecord, Tenant};
use clickwrap_domain::{Name, TenantId};
use diesel::prelude::*;
use diesel_async::{AsyncConnection, RunQueryDsl};

use crate::PgStore;
use crate::convert::{at, count_i64, count_u64, ts};
use crate::errors::{corrupt, from_diesel};
use crate::schema::{operator_tokens, tenants, usage_counters};

#[derive(Queryable, Selectable, Insertable)]
#[diesel(table_name = tenants, check_for_backend(diesel::pg::Pg))]
struct TenantRow {
    id: uuid::Uuid,
    name: String,
    event_quota: Option<i64>,
    created_at: time::OffsetDateTime,
}

impl TenantRow {
    fn from_domain(tenant: &Tenant) -> Self {
        Self {
            id: *tenant.id.as_uuid(),
            name: tenant.name.as_str().to_owned(),
            event_quota: tenant.event_quota.map(count_i64),
            created_at: at(tenant.created_at),
        }
    }

    fn into_domain(self) -> Result<Tenant, StorageError> {
        Ok(Tenant {
            id: TenantId::from_uuid(self.id),
            name: Name::parse(&self.name).map_err(|e| corrupt("tenant name", e))?,
            event_quota: self.event_quota.map(|q| count_u64(q, "event quota")).transpose()?,
            created_at: ts(self.created_at),
        })
    }
}

#[async_trait]
impl TenantStore for PgStore {
    async fn create_tenant(&self, tenant: &Tenant, token: &OperatorTokenRecord) -> Result<(), StorageError> {
        let mut conn = self.conn().await?;
        let tenant_row = TenantRow::from_domain(tenant);
        let token = (
            operator_tokens::id.eq(*token.id.as_uuid()),
            operator_tokens::tenant_id.eq(*token.tenant_id.as_uuid()),
            operator_tokens::token_hash.eq(token.token_hash.as_bytes().to_vec()),
            operator_tokens::created_at.eq(at(token.created_at)),
        );
        conn.transaction::<_, diesel::result::Error, _>(async |conn| {
            diesel::insert_into(tenants::table).values(&tenant_row).execute(conn).await?;
            diesel::insert_into(operator_tokens::table).values(token).execute(conn).await?;
            Ok(())
        })
        .await
        .map_err(from_diesel)
    }

    async fn add_operator_token(&self, token: &OperatorTokenRecord) -> Result<bool, StorageError> {
        let mut conn = self.conn().await?;
        let inserted = diesel::insert_into(operator_tokens::table)
            .values(tenants::table.filter(tenants::id.eq(token.tenant_id.as_uuid())).select((
                token.id.as_uuid().into_sql::<diesel::sql_types::Uuid>(),
                tenants::id,
                token.token_hash.as_bytes().to_vec().into_sql::<diesel::sql_types::Bytea>(),
                at(token.created_at).into_sql::<diesel::sql_types::Timestamptz>(),
            )))
            .into_columns((
                operator_tokens::id,
                operator_tokens::tenant_id,
                operator_tokens::token_hash,
                operator_tokens::created_at,
            ))
            .execute(&mut conn)
            .await
            .map_err(from_diesel)?;
        Ok(inserted == 1)
    }

    async fn find_tenant(&self, id: TenantId) -> Result<Option<Tenant>, StorageError> {
        let mut conn = self.conn().await?;
        let row: Option<TenantRow> = tenants::table
            .find(id.as_uuid())
            .select(TenantRow::as_select())
            .first(&mut conn)
            .await
            .optional()
            .map_err(from_diesel)?;
        row.map(TenantRow::into_domain).transpose()
    }

    async fn tenant_for_operator_token(&self, token_hash: &SecretHash) -> Result<Option<Tenant>, StorageError> {
        let mut conn = self.conn().await?;
        let row: Option<TenantRow> = tenants::table
            .inner_join(operator_tokens::table.on(operator_tokens::tenant_id.eq(tenants::id)))
            .filter(operator_tokens::token_hash.eq(token_hash.as_bytes().to_vec()))
            .select(TenantRow::as_select())
            .first(&mut conn)
            .await
            .optional()
            .map_err(from_diesel)?;
        row.map(TenantRow::into_domain).transpose()
    }

    async fn set_event_quota(&self, id: TenantId, quota: Option<u64>) -> Result<bool, StorageError> {
        let mut conn = self.conn().await?;
        let updated = diesel::update(tenants::table.find(id.as_uuid()))
            .set(tenants::event_quota.eq(quota.map(count_i64)))
            .execute(&mut conn)
            .await
            .map_err(from_diesel)?;
        Ok(updated == 1)
    }

    async fn events_in_period(&self, id: TenantId, period: &QuotaPeriod) -> Result<u64, StorageError> {
        let mut conn = self.conn().await?;
        let total = period_usage(&mut conn, id, period).await.map_err(from_diesel)?;
        count_u64(total, "usage count")
    }
}

/// Verified events of the tenant in the period, summed over the counter's shards.
pub(crate) async fn period_usage(
    conn: &mut diesel_async::AsyncPgConnection,
    tenant: TenantId,
    period: &QuotaPeriod,
) -> QueryResult<i64> {
    usage_counters::table
        .filter(usage_counters::tenant_id.eq(tenant.as_uuid()))
        .filter(usage_counters::period_start.eq(at(period.start)))
        // sum(bigint) is numeric in PostgreSQL; the counts always fit a bigint.
        .select(diesel::dsl::sql::<diesel::sql_types::BigInt>("COALESCE(sum(events), 0)::bigint"))
        .first(conn)
        .await
}
