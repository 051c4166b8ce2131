use async_trait::async_trait;
use clickwrap_domain::keys::{KeyId, Keyring, SecretKey};
use clickwrap_domain::ports::{KeyStore, StorageError};
use diesel::prelude::*;
use diesel_async::{AsyncConnection, RunQueryDsl};

use crate::PgStore;
use crate::convert::hash32;
use crate::errors::{corrupt, from_diesel};
use crate::schema::server_keys;

/// Serializes the first start of several instances, so exactly one key becomes current.
const KEYRING_LOCK: i64 = 0x636c_6963_6b6b_6579; // "clickkey"

#[async_trait]
impl KeyStore for PgStore {
    async fn ensure_keyring(&self, candidate: &SecretKey) -> Result<Keyring, StorageError> {
        let mut conn = self.conn().await?;
        let rows: Vec<(String, Vec<u8>, bool)> = conn
            .transaction::<_, diesel::result::Error, _>(async |conn| {
                diesel::sql_query(format!("SELECT pg_advisory_xact_lock({KEYRING_LOCK})")).execute(conn).await?;
                let existing: i64 = server_keys::table.count().get_result(conn).await?;
                if existing == 0 {
                    diesel::insert_into(server_keys::table)
                        .values((
                            server_keys::id.eq(candidate.id().as_str()),
                            server_keys::material.eq(candidate.material().to_vec()),
                            server_keys::is_current.eq(true),
                            server_keys::created_at.eq(time::OffsetDateTime::now_utc()),
                        ))
                        .execute(conn)
                        .await?;
                }
                server_keys::table
                    .select((server_keys::id, server_keys::material, server_keys::is_current))
                    .order(server_keys::created_at.desc())
                    .load(conn)
                    .await
            })
            .await
            .map_err(from_diesel)?;
        let mut current = None;
        let mut previous = Vec::new();
        for (id, material, is_current) in rows {
            let key = SecretKey::new(
                KeyId::parse(&id).map_err(|e| corrupt("server key id", e))?,
                hash32(&material, "server key")?,
            );
            if is_current && current.is_none() {
                current = Some(key);
            } else {
                previous.push(key);
            }
        }
        let current = current.ok_or_else(|| corrupt("server keys", "no current key"))?;
        Keyring::new(current, previous).map_err(|e| corrupt("server keys", e))
    }
}
