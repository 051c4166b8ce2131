//! The verification's commit (`EventStore::commit_verification`): the event becomes ACCEPTED or
//! DECLINED at most once, together with its certificate, its webhook's outbox row, the tenant's
//! usage count and its evidence-ledger leaf. Without a quota that is one statement; with one, a
//! transaction, because the quota check must sit between the event's update and the writes.

use clickwrap_domain::consent::models::{ClickwrapEvent, EventStatus, VerificationRecord};
use clickwrap_domain::ports::CommitVerificationError;
use diesel::prelude::*;
use diesel::sql_types::Bool;
use diesel_async::{AsyncConnection, RunQueryDsl};
use futures_util::future::try_join4;

use super::rows::DeliveryRow;
use crate::connection::DbConnection;
use crate::convert::{at, count_i64};
use crate::errors::from_diesel;
use crate::schema::{certificates, clickwrap_events as events, webhook_deliveries};
use crate::statement::{Statement, Value, only_row};
use crate::tenants::period_usage;

/// Verifications of one tenant spread their usage count over this many rows.
const USAGE_SHARDS: u8 = 16;
/// Below this many events left in the quota, verifications of the tenant take turns (an advisory
/// lock) so the quota is exact; above it they run side by side.
const QUOTA_EXACT_MARGIN: i64 = 64;

/// Commits a verification: in one statement when the tenant has no quota, else in a transaction.
pub(super) async fn commit(
    conn: &mut DbConnection,
    record: &VerificationRecord,
) -> Result<(), CommitVerificationError> {
    if record.quota.is_none() {
        return commit_unlimited_verification(conn, record).await;
    }
    commit_within_quota(conn, record).await.map_err(CommitVerificationError::from)
}

/// The quota path: the event's update, the quota check, then the writes, in one transaction.
async fn commit_within_quota(conn: &mut DbConnection, record: &VerificationRecord) -> Result<(), CommitFailure> {
    let event = &record.event;
    let certificate = record.certificate.as_ref().map(|c| {
        (
            certificates::event_id.eq(*c.event_id.as_uuid()),
            certificates::tenant_id.eq(*event.tenant_id.as_uuid()),
            certificates::pdf.eq(c.pdf.clone()),
            certificates::sha256.eq(c.sha256.to_vec()),
            certificates::created_at.eq(at(c.created_at)),
            certificates::app_name.eq(c.app_name.clone()),
            certificates::operator_name.eq(c.operator_name.clone()),
        )
    });
    let delivery = DeliveryRow::from_domain(&record.delivery);
    conn.transaction::<_, CommitFailure, _>(async |conn| {
        // Verified at most once: only an UNVERIFIED row is updated.
        let updated = Statement::new(
            "UPDATE clickwrap_events SET status = $3, verified_at = $4 \
                 WHERE tenant_id = $1 AND id = $2 AND status = 'UNVERIFIED'",
            vec![
                Value::Uuid(*event.tenant_id.as_uuid()),
                Value::Uuid(*event.id.as_uuid()),
                Value::Text(event.status.as_str().to_owned()),
                Value::MaybeAt(event.verified_at.map(at)),
            ],
        )
        .execute(conn)
        .await?;
        if updated == 0 {
            return Err(why_not_verified(conn, event).await);
        }
        // Checked after the update, so a second verify says "already verified" even when
        // the quota is used up; the error rolls the update back.
        if !quota_allows(conn, record).await? {
            return Err(CommitFailure::QuotaExceeded);
        }
        // The four writes (the certificate, if any, the webhook delivery, the usage count and the
        // ledger leaf) are sent at once (pipelined); PostgreSQL still runs them in order.
        let mut shared: &DbConnection = conn;
        let certificate = certificate
            .as_ref()
            .map(|row| diesel::insert_into(certificates::table).values(row.clone()).execute(&mut shared));
        let certificate = async {
            match certificate {
                Some(insert) => insert.await,
                None => Ok(0),
            }
        };
        let delivery = diesel::insert_into(webhook_deliveries::table).values(&delivery).execute(&mut shared);
        let leaf = Statement::new(
            APPEND_LEAF_SQL,
            vec![
                Value::Uuid(*event.tenant_id.as_uuid()),
                Value::Uuid(*event.id.as_uuid()),
                Value::MaybeBytes(Some(record.ledger_leaf.leaf_hash.to_vec())),
                Value::MaybeBytes(Some(record.ledger_leaf.salt.to_vec())),
            ],
        )
        .execute(&mut shared);
        try_join4(certificate, delivery, count_usage(shared, record), leaf).await?;
        Ok(())
    })
    .await
}

/// The usage counter shard of a verification: chosen by the event id, so concurrent ones rarely collide.
fn usage_shard(record: &VerificationRecord) -> u8 {
    record.event.id.as_bytes().last().map_or(0, |b| b % USAGE_SHARDS)
}

/// Counts one verified event on its shard.
async fn count_usage(mut conn: &DbConnection, record: &VerificationRecord) -> QueryResult<()> {
    Statement::new(
        "INSERT INTO usage_counters (tenant_id, period_start, shard, events) VALUES ($1, $2, $3, 1) \
         ON CONFLICT (tenant_id, period_start, shard) DO UPDATE SET events = usage_counters.events + 1",
        vec![
            Value::Uuid(*record.event.tenant_id.as_uuid()),
            Value::At(at(record.period.start)),
            Value::SmallInt(i16::from(usage_shard(record))),
        ],
    )
    .execute(&mut conn)
    .await
    .map(|_| ())
}

/// Whether one more verification fits the quota, exactly: near the limit the tenant's
/// verifications take turns on an advisory lock held until the transaction ends.
async fn quota_allows(conn: &mut DbConnection, record: &VerificationRecord) -> QueryResult<bool> {
    let Some(quota) = record.quota.map(count_i64) else {
        return Ok(true);
    };
    let used = period_usage(conn, record.event.tenant_id, &record.period).await?;
    if quota - used > QUOTA_EXACT_MARGIN {
        return Ok(true);
    }
    Statement::new(
        "SELECT pg_advisory_xact_lock(hashtextextended($1::text, 0))",
        vec![Value::Text(format!("quota:{}", record.event.tenant_id))],
    )
    .execute(conn)
    .await?;
    Ok(period_usage(conn, record.event.tenant_id, &record.period).await? < quota)
}

/// Why the event was not verified: it was verified already (also by a concurrent verification), or
/// it does not exist. A statement of its own, so it sees what committed meanwhile.
async fn why_not_verified(conn: &mut DbConnection, event: &ClickwrapEvent) -> CommitFailure {
    let current = events::table
        .filter(events::tenant_id.eq(event.tenant_id.as_uuid()))
        .filter(events::id.eq(event.id.as_uuid()))
        .select(events::status)
        .first::<String>(conn)
        .await
        .optional();
    match current {
        Ok(status) => match status.as_deref().and_then(EventStatus::parse) {
            Some(status) => CommitFailure::AlreadyVerified(status),
            None => CommitFailure::Missing,
        },
        Err(e) => CommitFailure::Database(e),
    }
}

/// A verification for a tenant without an event quota, in one statement: the event's UPDATE, and
/// only if it updated a row, the certificate, the outbox entry and the usage count (one implicit
/// transaction, one round trip). With a quota, [`commit_within_quota`] takes a transaction instead,
/// as the quota check must sit between the update and the writes.
const VERIFY_UNLIMITED_SQL: &str = "
WITH verified AS (
    UPDATE clickwrap_events SET status = $3, verified_at = $4
     WHERE tenant_id = $1 AND id = $2 AND status = 'UNVERIFIED'
    RETURNING id),
certificate AS (
    INSERT INTO certificates (event_id, tenant_id, pdf, sha256, created_at, app_name, operator_name)
    SELECT $2, $1, $5, $6, $7, $19, $20 FROM verified WHERE $5 IS NOT NULL),
delivery AS (
    INSERT INTO webhook_deliveries (id, tenant_id, app_id, event_id, payload, state, attempts, next_attempt_at,
                                    last_attempt_at, last_response_status, created_at)
    SELECT $8, $1, $9, $2, $10, $11, $12, $13, $14, $15, $16 FROM verified),
usage AS (
    INSERT INTO usage_counters (tenant_id, period_start, shard, events)
    SELECT $1, $17, $18, 1 FROM verified
    ON CONFLICT (tenant_id, period_start, shard) DO UPDATE SET events = usage_counters.events + 1),
ledger AS (
    INSERT INTO ledger_logs (tenant_id, tree_size) SELECT $1, 1 FROM verified
    ON CONFLICT (tenant_id) DO UPDATE SET tree_size = ledger_logs.tree_size + 1
    RETURNING tree_size - 1 AS leaf_index),
leaf AS (
    INSERT INTO ledger_leaves (tenant_id, leaf_index, event_id, leaf_hash, salt)
    SELECT $1, leaf_index, $2, $21, $22 FROM ledger)
SELECT EXISTS (SELECT 1 FROM verified) AS verified";

/// Appends a verified event's leaf to its tenant's evidence ledger (the quota path's transaction).
const APPEND_LEAF_SQL: &str = "
WITH ledger AS (
    INSERT INTO ledger_logs (tenant_id, tree_size) VALUES ($1, 1)
    ON CONFLICT (tenant_id) DO UPDATE SET tree_size = ledger_logs.tree_size + 1
    RETURNING tree_size - 1 AS leaf_index)
INSERT INTO ledger_leaves (tenant_id, leaf_index, event_id, leaf_hash, salt)
SELECT $1, leaf_index, $2, $3, $4 FROM ledger";

#[derive(QueryableByName)]
struct Verified {
    #[diesel(sql_type = Bool)]
    verified: bool,
}

async fn commit_unlimited_verification(
    conn: &mut DbConnection,
    record: &VerificationRecord,
) -> Result<(), CommitVerificationError> {
    let event = &record.event;
    let delivery = DeliveryRow::from_domain(&record.delivery);
    let certificate = record.certificate.as_ref();
    let values = vec![
        Value::Uuid(*event.tenant_id.as_uuid()),
        Value::Uuid(*event.id.as_uuid()),
        Value::Text(event.status.as_str().to_owned()),
        Value::MaybeAt(event.verified_at.map(at)),
        Value::MaybeBytes(certificate.map(|c| c.pdf.clone())),
        Value::MaybeBytes(certificate.map(|c| c.sha256.to_vec())),
        Value::MaybeAt(certificate.map(|c| at(c.created_at))),
        Value::Uuid(delivery.id),
        Value::Uuid(delivery.app_id),
        Value::Text(delivery.payload),
        Value::Text(delivery.state),
        Value::Int(delivery.attempts),
        Value::MaybeAt(delivery.next_attempt_at),
        Value::MaybeAt(delivery.last_attempt_at),
        Value::MaybeInt(delivery.last_response_status),
        Value::At(delivery.created_at),
        Value::At(at(record.period.start)),
        Value::SmallInt(i16::from(usage_shard(record))),
        Value::MaybeText(certificate.and_then(|c| c.app_name.clone())),
        Value::MaybeText(certificate.and_then(|c| c.operator_name.clone())),
        Value::MaybeBytes(Some(record.ledger_leaf.leaf_hash.to_vec())),
        Value::MaybeBytes(Some(record.ledger_leaf.salt.to_vec())),
    ];
    let row: Verified = Statement::new(VERIFY_UNLIMITED_SQL, values)
        .load(conn)
        .await
        .and_then(only_row)
        .map_err(|e| CommitVerificationError::from(from_diesel(e)))?;
    if row.verified {
        return Ok(());
    }
    Err(why_not_verified(conn, event).await.into())
}

/// Why a verification transaction rolled back.
enum CommitFailure {
    Database(diesel::result::Error),
    AlreadyVerified(EventStatus),
    Missing,
    QuotaExceeded,
}

impl From<diesel::result::Error> for CommitFailure {
    fn from(error: diesel::result::Error) -> Self {
        CommitFailure::Database(error)
    }
}

impl From<CommitFailure> for CommitVerificationError {
    fn from(failure: CommitFailure) -> Self {
        match failure {
            CommitFailure::AlreadyVerified(status) => CommitVerificationError::AlreadyVerified(status),
            CommitFailure::Missing => CommitVerificationError::EventMissing,
            CommitFailure::QuotaExceeded => CommitVerificationError::QuotaExceeded,
            CommitFailure::Database(e) => from_diesel(e).into(),
        }
    }
}
