//! Purging unverified events whose Signature can no longer be verified. They are not evidence (the
//! event guard lets them, and only them, be deleted); kept, anyone holding a public App ID could
//! fill the database with them.

use clickwrap_domain::Timestamp;
use clickwrap_domain::ports::StorageError;
use diesel_async::RunQueryDsl;

use crate::PgStore;
use crate::convert::at;
use crate::errors::from_diesel;
use crate::statement::{Statement, Value};

/// One batch: the oldest unverified events before the cutoff, found through the partial index
/// `clickwrap_events_unverified_age`. Rows another instance's purge (or a verification) holds are
/// skipped, not waited for, so instances purging at once share the work instead of queueing.
const PURGE_BATCH_SQL: &str = "DELETE FROM clickwrap_events WHERE id IN (\
     SELECT id FROM clickwrap_events WHERE status = 'UNVERIFIED' AND action_at < $1 \
     ORDER BY action_at LIMIT $2 FOR UPDATE SKIP LOCKED)";

impl PgStore {
    /// Deletes unverified events whose action came before `before`, `batch` rows per statement
    /// (each its own short transaction); how many.
    pub async fn purge_unverified_events(&self, before: Timestamp, batch: u16) -> Result<usize, StorageError> {
        let batch = batch.max(1);
        let mut purged = 0;
        loop {
            let mut conn = self.conn().await?;
            let deleted = Statement::new(PURGE_BATCH_SQL, vec![Value::At(at(before)), Value::BigInt(i64::from(batch))])
                .execute(&mut conn)
                .await
                .map_err(from_diesel)?;
            purged += deleted;
            if deleted < usize::from(batch) {
                return Ok(purged);
            }
        }
    }
}
