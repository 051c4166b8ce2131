use async_trait::async_trait;
use clickwrap_domain::Timestamp;
use clickwrap_domain::limits::rate::RateLimitKey;
use clickwrap_domain::ports::{RateLimitStore, StorageError};
use diesel::prelude::*;
use diesel_async::RunQueryDsl;

use crate::PgStore;
use crate::convert::{at, count_u64};
use crate::errors::from_diesel;
use crate::schema::rate_limit_windows as windows;
use crate::statement::{Statement, Value, only_row};

#[derive(QueryableByName)]
struct Hits {
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    hits: i64,
}

#[async_trait]
impl RateLimitStore for PgStore {
    async fn hit(&self, key: &RateLimitKey, window_start: Timestamp) -> Result<u64, StorageError> {
        let mut conn = self.conn().await?;
        // One statement: instances sharing the database count together, without a read-modify-write race.
        let row: Hits = Statement::new(
            "INSERT INTO rate_limit_windows (app_id, client_ip, route, window_start, hits) VALUES ($1, $2, $3, $4, 1) \
             ON CONFLICT (app_id, client_ip, route, window_start) DO UPDATE SET hits = rate_limit_windows.hits + 1 \
             RETURNING hits",
            vec![
                Value::Uuid(*key.app_id.as_uuid()),
                Value::Text(key.client_ip.clone()),
                Value::Text(key.route.as_str().to_owned()),
                Value::At(at(window_start)),
            ],
        )
        .load(&mut conn)
        .await
        .and_then(only_row)
        .map_err(from_diesel)?;
        let hits = row.hits;
        count_u64(hits, "rate limit count")
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
