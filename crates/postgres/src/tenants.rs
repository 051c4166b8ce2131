use async_trait::async_trait;
use clickwrap_domain::audit::models::AuditEntry;
use clickwrap_domain::limits::quota::QuotaPeriod;
use clickwrap_domain::ports::{StorageError, TenantStore};
use clickwrap_domain::secrets::SecretHash;
use clickwrap_domain::tenants::models::{
    ConsoleSessionRecord, Operator, OperatorRole, OperatorTokenInfo, OperatorTokenRecord, RECORD_USE_EVERY, Tenant,
};
use clickwrap_domain::{Name, OperatorTokenId, TenantId, Timestamp};
use diesel::prelude::*;
use diesel_async::{AsyncConnection, RunQueryDsl};

use crate::convert::{at, count_i64, count_u64, ts};
use crate::errors::{corrupt, from_diesel};
use crate::schema::{console_sessions, operator_tokens, tenants};
use crate::statement::{Statement, Value};
use crate::{PgStore, audit};

#[derive(Queryable, Selectable, Insertable)]
#[diesel(table_name = tenants, check_for_backend(diesel::pg::Pg))]
struct TenantRow {
    id: uuid::Uuid,
    name: String,
    event_quota: Option<i64>,
    created_at: time::OffsetDateTime,
    legal_name: Option<String>,
}

impl TenantRow {
    fn from_domain(tenant: &Tenant) -> Self {
        Self {
            id: *tenant.id.as_uuid(),
            name: tenant.name.as_str().to_owned(),
            event_quota: tenant.event_quota.map(count_i64),
            created_at: at(tenant.created_at),
            legal_name: tenant.legal_name.as_ref().map(|n| n.as_str().to_owned()),
        }
    }

    fn into_domain(self) -> Result<Tenant, StorageError> {
        Ok(Tenant {
            id: TenantId::from_uuid(self.id),
            name: Name::parse(&self.name).map_err(|e| corrupt("tenant name", e))?,
            legal_name: self.legal_name.map(|n| Name::parse(&n).map_err(|e| corrupt("legal name", e))).transpose()?,
            event_quota: self.event_quota.map(|q| count_u64(q, "event quota")).transpose()?,
            created_at: ts(self.created_at),
        })
    }
}

/// An operator token's public part, as an operator lists it.
#[derive(Queryable, Selectable)]
#[diesel(table_name = operator_tokens, check_for_backend(diesel::pg::Pg))]
struct TokenRow {
    id: uuid::Uuid,
    name: String,
    role: String,
    created_at: time::OffsetDateTime,
    last_used_at: Option<time::OffsetDateTime>,
}

impl TokenRow {
    fn into_domain(self) -> Result<OperatorTokenInfo, StorageError> {
        Ok(OperatorTokenInfo {
            id: OperatorTokenId::from_uuid(self.id),
            name: Name::parse(&self.name).map_err(|e| corrupt("operator token name", e))?,
            role: OperatorRole::parse(&self.role).ok_or_else(|| corrupt("operator token role", &self.role))?,
            created_at: ts(self.created_at),
            last_used_at: self.last_used_at.map(ts),
        })
    }

    /// The operator this token makes of `tenant`.
    fn operator(self, tenant: TenantRow) -> Result<Operator, StorageError> {
        let token = self.into_domain()?;
        Ok(Operator { tenant: tenant.into_domain()?, token_id: token.id, token_name: token.name, role: token.role })
    }
}

#[derive(Insertable)]
#[diesel(table_name = operator_tokens, check_for_backend(diesel::pg::Pg))]
struct NewTokenRow {
    id: uuid::Uuid,
    tenant_id: uuid::Uuid,
    name: String,
    role: &'static str,
    token_hash: Vec<u8>,
    created_at: time::OffsetDateTime,
}

fn token_values(token: &OperatorTokenRecord) -> NewTokenRow {
    NewTokenRow {
        id: *token.id.as_uuid(),
        tenant_id: *token.tenant_id.as_uuid(),
        name: token.name.as_str().to_owned(),
        role: token.role.as_str(),
        token_hash: token.token_hash.as_bytes().to_vec(),
        created_at: at(token.created_at),
    }
}

#[async_trait]
impl TenantStore for PgStore {
    async fn create_tenant(&self, tenant: &Tenant, token: &OperatorTokenRecord) -> Result<(), StorageError> {
        let mut conn = self.conn().await?;
        let tenant_row = TenantRow::from_domain(tenant);
        let token = token_values(token);
        conn.transaction::<_, diesel::result::Error, _>(async |conn| {
            diesel::insert_into(tenants::table).values(&tenant_row).execute(conn).await?;
            diesel::insert_into(operator_tokens::table).values(&token).execute(conn).await?;
            Ok(())
        })
        .await
        .map_err(from_diesel)
    }

    async fn add_operator_token(&self, token: &OperatorTokenRecord, audit: &AuditEntry) -> Result<bool, StorageError> {
        let mut conn = self.conn().await?;
        conn.transaction::<_, diesel::result::Error, _>(async |conn| {
            let exists: Option<uuid::Uuid> = tenants::table
                .find(token.tenant_id.as_uuid())
                .select(tenants::id)
                .for_key_share()
                .first(conn)
                .await
                .optional()?;
            if exists.is_none() {
                return Ok(false);
            }
            diesel::insert_into(operator_tokens::table).values(&token_values(token)).execute(conn).await?;
            audit::write(conn, audit).await?;
            Ok(true)
        })
        .await
        .map_err(from_diesel)
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

    async fn operator_for_token(
        &self,
        token_hash: &SecretHash,
        now: Timestamp,
    ) -> Result<Option<Operator>, StorageError> {
        let mut conn = self.conn().await?;
        let found: Option<(TenantRow, TokenRow)> = tenants::table
            .inner_join(operator_tokens::table.on(operator_tokens::tenant_id.eq(tenants::id)))
            .filter(operator_tokens::token_hash.eq(token_hash.as_bytes().to_vec()))
            .filter(operator_tokens::revoked_at.is_null())
            .select((TenantRow::as_select(), TokenRow::as_select()))
            .first(&mut conn)
            .await
            .optional()
            .map_err(from_diesel)?;
        let Some((tenant, token)) = found else { return Ok(None) };
        let now = at(now);
        if token.last_used_at.is_none_or(|last| now - last >= RECORD_USE_EVERY) {
            // Never back in time, when a request that started later recorded its use first.
            diesel::update(operator_tokens::table.find(token.id))
                .filter(operator_tokens::last_used_at.is_null().or(operator_tokens::last_used_at.lt(now)))
                .set(operator_tokens::last_used_at.eq(now))
                .execute(&mut conn)
                .await
                .map_err(from_diesel)?;
        }
        token.operator(tenant).map(Some)
    }

    async fn list_operator_tokens(&self, tenant: TenantId) -> Result<Vec<OperatorTokenInfo>, StorageError> {
        let mut conn = self.conn().await?;
        let rows: Vec<TokenRow> = operator_tokens::table
            .filter(operator_tokens::tenant_id.eq(tenant.as_uuid()))
            .filter(operator_tokens::revoked_at.is_null())
            .order((operator_tokens::created_at, operator_tokens::id))
            .select(TokenRow::as_select())
            .load(&mut conn)
            .await
            .map_err(from_diesel)?;
        rows.into_iter().map(TokenRow::into_domain).collect()
    }

    async fn revoke_operator_token(
        &self,
        tenant: TenantId,
        id: OperatorTokenId,
        audit: &AuditEntry,
    ) -> Result<bool, StorageError> {
        let mut conn = self.conn().await?;
        conn.transaction::<_, diesel::result::Error, _>(async |conn| {
            let revoked = diesel::update(
                operator_tokens::table
                    .filter(operator_tokens::tenant_id.eq(tenant.as_uuid()))
                    .filter(operator_tokens::id.eq(id.as_uuid()))
                    .filter(operator_tokens::revoked_at.is_null()),
            )
            .set(operator_tokens::revoked_at.eq(at(audit.at)))
            .execute(conn)
            .await?;
            if revoked == 0 {
                return Ok(false);
            }
            diesel::delete(console_sessions::table.filter(console_sessions::operator_token_id.eq(id.as_uuid())))
                .execute(conn)
                .await?;
            audit::write(conn, audit).await?;
            Ok(true)
        })
        .await
        .map_err(from_diesel)
    }

    async fn insert_console_session(&self, session: &ConsoleSessionRecord) -> Result<(), StorageError> {
        let mut conn = self.conn().await?;
        diesel::insert_into(console_sessions::table)
            .values((
                console_sessions::secret_hash.eq(session.secret_hash.as_bytes().to_vec()),
                console_sessions::tenant_id.eq(session.tenant_id.as_uuid()),
                console_sessions::operator_token_id.eq(session.token_id.as_uuid()),
                console_sessions::created_at.eq(at(session.created_at)),
                console_sessions::last_seen_at.eq(at(session.created_at)),
            ))
            .execute(&mut conn)
            .await
            .map(|_| ())
            .map_err(from_diesel)
    }

    async fn console_session_operator(
        &self,
        secret_hash: &SecretHash,
        idle_since: Timestamp,
        now: Timestamp,
    ) -> Result<Option<Operator>, StorageError> {
        let mut conn = self.conn().await?;
        let hash = secret_hash.as_bytes().to_vec();
        let found: Option<(TenantRow, TokenRow, time::OffsetDateTime)> = console_sessions::table
            .inner_join(operator_tokens::table.on(operator_tokens::id.eq(console_sessions::operator_token_id)))
            .inner_join(tenants::table.on(tenants::id.eq(console_sessions::tenant_id)))
            .filter(console_sessions::secret_hash.eq(&hash))
            .filter(console_sessions::last_seen_at.gt(at(idle_since)))
            .filter(operator_tokens::revoked_at.is_null())
            .select((TenantRow::as_select(), TokenRow::as_select(), console_sessions::last_seen_at))
            .first(&mut conn)
            .await
            .optional()
            .map_err(from_diesel)?;
        let Some((tenant, token, last_seen)) = found else { return Ok(None) };
        let now = at(now);
        if now - last_seen >= RECORD_USE_EVERY {
            diesel::update(console_sessions::table.find(&hash))
                .filter(console_sessions::last_seen_at.lt(now))
                .set(console_sessions::last_seen_at.eq(now))
                .execute(&mut conn)
                .await
                .map_err(from_diesel)?;
        }
        token.operator(tenant).map(Some)
    }

    async fn delete_console_session(&self, secret_hash: &SecretHash) -> Result<(), StorageError> {
        let mut conn = self.conn().await?;
        diesel::delete(console_sessions::table.find(secret_hash.as_bytes().to_vec()))
            .execute(&mut conn)
            .await
            .map(|_| ())
            .map_err(from_diesel)
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

    async fn set_legal_name(&self, id: TenantId, legal_name: Option<&Name>) -> Result<bool, StorageError> {
        let mut conn = self.conn().await?;
        let updated = diesel::update(tenants::table.find(id.as_uuid()))
            .set(tenants::legal_name.eq(legal_name.map(|n| n.as_str().to_owned())))
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

impl PgStore {
    /// Deletes console sessions last seen before `before` (idle ones, which no longer sign anyone
    /// in); how many.
    pub async fn purge_console_sessions(&self, before: Timestamp) -> Result<usize, StorageError> {
        let mut conn = self.conn().await?;
        diesel::delete(console_sessions::table.filter(console_sessions::last_seen_at.lt(at(before))))
            .execute(&mut conn)
            .await
            .map_err(from_diesel)
    }
}

/// Verified events of the tenant in the period, summed over the counter's shards. A [`Statement`]
/// (diesel would not keep a `sql()` select prepared): every verification of a tenant with a quota
/// runs it, twice near the limit.
pub(crate) async fn period_usage(
    conn: &mut crate::connection::DbConnection,
    tenant: TenantId,
    period: &QuotaPeriod,
) -> QueryResult<i64> {
    // sum(bigint) is numeric in PostgreSQL; the counts always fit a bigint.
    let usage: Usage = Statement::new(
        "SELECT COALESCE(sum(events), 0)::bigint AS events FROM usage_counters \
         WHERE tenant_id = $1 AND period_start = $2",
        vec![Value::Uuid(*tenant.as_uuid()), Value::At(at(period.start))],
    )
    .get_result(conn)
    .await?;
    Ok(usage.events)
}

#[derive(QueryableByName)]
struct Usage {
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    events: i64,
}
