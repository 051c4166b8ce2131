use async_trait::async_trait;
use clickwrap_domain::Timestamp;
use clickwrap_domain::limits::rate::RateLimitKey;
use clickwrap_domain::ports::{RateLimitStore, StorageError};
use diesel::prelude::*;
use diesel::upsert::excluded;
use diesel_async::RunQueryDsl;

use crate::PgStore;
use crate::convert::{at, count_u64};
use crate::errors::from_diesel;
use crate::schema::rate_limit_windows as windows;

#[async_trait]
impl RateLimitStore for PgStore {
    async fn hit(&self, key: &RateLimitKey, window_start: Timestamp) -> Result<u64, StorageError> {
        let mut conn = self.conn().await?;
        // One statement: instances sharing the database count together, without a read-modify-write race.
        let hits: i64 = diesel::insert_into(windows::table)
            .values((
                windows::app_id.eq(key.app_id.as_uuid()),
                windows::client_ip.eq(&key.client_ip),
                windows::route.eq(key.route.as_str()),
                windows::window_start.eq(at(window_start)),
                windows::hits.eq(1i64),
            ))
            .on_conflict((windows::app_id, windows::client_ip, windows::route, windows::window_start))
            .do_update()
            .set(windows::hits.eq(windows::hits + excluded(windows::hits)))
            .returning(windows::hits)
            .get_result(&mut conn)
            .await
            .map_err(from_diesel)?;
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
