//! Purging finished webhook deliveries, and their attempts, past their retention period (see
//! `clickwrap_domain::webhooks::retention`). Never a PENDING delivery, never an event or a
//! certificate: the evidence stays; what goes is the record of sending it.

use clickwrap_domain::ports::StorageError;
use clickwrap_domain::webhooks::retention::RetentionCutoffs;
use diesel::QueryableByName;
use diesel::sql_types::{BigInt, Bool};
use diesel_async::RunQueryDsl;

use crate::PgStore;
use crate::convert::{at, count_u64};
use crate::errors::from_diesel;
use crate::statement::{Statement, Value, only_row};

/// Held by the transaction of each batch, so that one instance purges at a time; the others skip
/// their round instead of queueing. Transaction-scoped, so it holds through a transaction-mode pooler.
pub const WEBHOOK_PURGE_LOCK: i64 = 0x636c_6963_6b72_746e; // "clickrtn"

/// One batch, one statement (so one short transaction): the lock, then, of each finished state, at
/// most `$3` deliveries last active before its cutoff, oldest first, then their attempts and
/// themselves. Each state is read apart, in the order of the partial index
/// `webhook_deliveries_finished (state, COALESCE(last_attempt_at, created_at))`, so that every plan
/// (generic ones too) walks the index from its oldest entry and stops at the limit instead of
/// reading the table. Rows someone holds (a redelivery, another purge) are skipped, not waited for;
/// a redelivery that commits first makes its row PENDING, which the row lock re-checks.
const PURGE_BATCH_SQL: &str = "\
     WITH turn AS (SELECT pg_try_advisory_xact_lock($4) AS ours), \
     delivered AS MATERIALIZED ( \
         SELECT id, tenant_id FROM webhook_deliveries \
          WHERE state = 'DELIVERED' AND COALESCE(last_attempt_at, created_at) < $1 AND (SELECT ours FROM turn) \
          ORDER BY COALESCE(last_attempt_at, created_at) LIMIT $3 FOR UPDATE SKIP LOCKED), \
     failed AS MATERIALIZED ( \
         SELECT id, tenant_id FROM webhook_deliveries \
          WHERE state = 'FAILED' AND COALESCE(last_attempt_at, created_at) < $2 AND (SELECT ours FROM turn) \
          ORDER BY COALESCE(last_attempt_at, created_at) LIMIT $3 FOR UPDATE SKIP LOCKED), \
     disabled AS MATERIALIZED ( \
         SELECT id, tenant_id FROM webhook_deliveries \
          WHERE state = 'DISABLED' AND COALESCE(last_attempt_at, created_at) < $2 AND (SELECT ours FROM turn) \
          ORDER BY COALESCE(last_attempt_at, created_at) LIMIT $3 FOR UPDATE SKIP LOCKED), \
     doomed AS ( \
         SELECT id, tenant_id FROM delivered UNION ALL SELECT id, tenant_id FROM failed \
         UNION ALL SELECT id, tenant_id FROM disabled), \
     attempts AS ( \
         DELETE FROM webhook_attempts AS a USING doomed \
          WHERE a.tenant_id = doomed.tenant_id AND a.delivery_id = doomed.id RETURNING 1), \
     deliveries AS ( \
         DELETE FROM webhook_deliveries AS d USING doomed WHERE d.id = doomed.id RETURNING 1) \
     SELECT (SELECT ours FROM turn) AS ours, \
            (SELECT count(*) FROM deliveries) AS deliveries, \
            (SELECT count(*) FROM attempts) AS attempts, \
            ((SELECT count(*) FROM delivered) >= $3 OR (SELECT count(*) FROM failed) >= $3 \
             OR (SELECT count(*) FROM disabled) >= $3) AS full";

#[derive(QueryableByName)]
struct BatchRow {
    #[diesel(sql_type = Bool)]
    ours: bool,
    #[diesel(sql_type = BigInt)]
    deliveries: i64,
    #[diesel(sql_type = BigInt)]
    attempts: i64,
    /// Whether the limit cut any state short.
    #[diesel(sql_type = Bool)]
    full: bool,
}

/// What one batch of the webhook purge deleted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PurgedDeliveries {
    /// Deliveries deleted.
    pub deliveries: u64,
    /// Their attempts, deleted with them.
    pub attempts: u64,
    /// Whether the batch was full for some state, so that more may be waiting.
    pub more: bool,
}

impl PgStore {
    /// One batch of the webhook purge: deletes up to `batch` DELIVERED deliveries last active
    /// before `cutoffs.delivered_before`, and up to `batch` FAILED and `batch` DISABLED ones last
    /// active before `cutoffs.failed_before`, oldest first, with their attempts. `None` when another instance is purging
    /// at this moment (it holds the purge lock): this one skips its round.
    pub async fn purge_webhook_delivery_batch(
        &self,
        cutoffs: RetentionCutoffs,
        batch: u16,
    ) -> Result<Option<PurgedDeliveries>, StorageError> {
        let batch = i64::from(batch.max(1));
        let mut conn = self.conn().await?;
        let row: BatchRow = Statement::new(
            PURGE_BATCH_SQL,
            vec![
                Value::At(at(cutoffs.delivered_before)),
                Value::At(at(cutoffs.failed_before)),
                Value::BigInt(batch),
                Value::BigInt(WEBHOOK_PURGE_LOCK),
            ],
        )
        .load(&mut conn)
        .await
        .and_then(only_row)
        .map_err(from_diesel)?;
        if !row.ours {
            return Ok(None);
        }
        Ok(Some(PurgedDeliveries {
            deliveries: count_u64(row.deliveries, "purged deliveries")?,
            attempts: count_u64(row.attempts, "purged attempts")?,
            more: row.full,
        }))
    }
}
