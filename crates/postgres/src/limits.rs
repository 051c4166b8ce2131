use std::collections::HashMap;

use async_trait::async_trait;
use clickwrap_domain::Timestamp;
use clickwrap_domain::limits::rate::WindowHits;
use clickwrap_domain::ports::{RateLimitStore, StorageError};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text, Timestamptz, Uuid as SqlUuid};
use diesel_async::RunQueryDsl;
use time::OffsetDateTime;

use crate::PgStore;
use crate::convert::{at, count_i64, count_u64};
use crate::errors::from_diesel;
use crate::schema::rate_limit_windows as windows;
use crate::statement::{Statement, Value};

/// One statement for a whole batch: instances sharing the database count together, without a
/// read-modify-write race. The rows are upserted in one fixed order (the input's, sorted below), so
/// two instances syncing the same keys at once wait for each other instead of deadlocking. Every
/// instance runs it once per sync interval, so it is a [`Statement`], kept prepared.
const ADD_HITS: &str = "INSERT INTO rate_limit_windows (app_id, client_ip, route, window_start, hits) \
     SELECT app_id, client_ip, route, window_start, hits \
     FROM unnest($1::uuid[], $2::text[], $3::text[], $4::timestamptz[], $5::bigint[]) \
       WITH ORDINALITY AS batch (app_id, client_ip, route, window_start, hits, ordinal) \
     ORDER BY ordinal \
     ON CONFLICT (app_id, client_ip, route, window_start) DO UPDATE SET hits = rate_limit_windows.hits + EXCLUDED.hits \
     RETURNING app_id, client_ip, route, window_start, hits";

#[derive(QueryableByName)]
struct Added {
    #[diesel(sql_type = SqlUuid)]
    app_id: uuid::Uuid,
    #[diesel(sql_type = Text)]
    client_ip: String,
    #[diesel(sql_type = Text)]
    route: String,
    #[diesel(sql_type = Timestamptz)]
    window_start: OffsetDateTime,
    #[diesel(sql_type = BigInt)]
    hits: i64,
}

/// A row of `rate_limit_windows`, as the statement is given it and answers it.
type Row = (uuid::Uuid, String, &'static str, OffsetDateTime);

fn row(sent: &WindowHits) -> Row {
    (*sent.key.app_id.as_uuid(), sent.key.client_ip.clone(), sent.key.route.as_str(), at(sent.window_start))
}

#[async_trait]
impl RateLimitStore for PgStore {
    async fn add_hits(&self, batch: &[WindowHits]) -> Result<Vec<u64>, StorageError> {
        if batch.is_empty() {
            return Ok(Vec::new());
        }
        // Sorted and each row once (one row cannot be upserted twice by a statement).
        let mut rows: Vec<(Row, i64)> = batch.iter().map(|sent| (row(sent), count_i64(sent.hits))).collect();
        rows.sort_unstable_by(|(a, _), (b, _)| a.cmp(b));
        rows.dedup_by(|(later, hits), (first, total)| {
            let same = later == first;
            if same {
                *total = total.saturating_add(*hits);
            }
            same
        });
        let mut conn = self.conn().await?;
        let values = vec![
            Value::Uuids(rows.iter().map(|((app, ..), _)| *app).collect()),
            Value::Texts(rows.iter().map(|((_, ip, ..), _)| ip.clone()).collect()),
            Value::Texts(rows.iter().map(|((_, _, route, _), _)| (*route).to_owned()).collect()),
            Value::Ats(rows.iter().map(|((.., start), _)| *start).collect()),
            Value::BigInts(rows.iter().map(|(_, hits)| *hits).collect()),
        ];
        let added: Vec<Added> = Statement::new(ADD_HITS, values).load(&mut conn).await.map_err(from_diesel)?;
        let totals: HashMap<(uuid::Uuid, String, String, OffsetDateTime), i64> =
            added.into_iter().map(|a| ((a.app_id, a.client_ip, a.route, a.window_start), a.hits)).collect();
        batch
            .iter()
            .map(|sent| {
                let (app, ip, route, start) = row(sent);
                let total = totals.get(&(app, ip, route.to_owned(), start)).copied().ok_or_else(|| {
                    StorageError::Internal("the rate-limit batch did not answer one of its rows".to_owned())
                })?;
                count_u64(total, "rate limit count")
            })
            .collect()
    }
}

impl PgStore {
    /// Deletes rate-limit windows that ended before `before`; how many. Run now and then.
    pub async fn purge_rate_limit_windows(&self, before: Timestamp) -> Result<usize, StorageError> {
        let mut conn = self.conn().await?;
        diesel::delete(windows::table.filter(windows::window_start.lt(at(before))))
            .execute(&mut conn)
            .await
            .map_err(from_diesel)
    }
}
