//! The server keys, and re-sealing every stored secret in one transaction.

use async_trait::async_trait;
use clickwrap_domain::AppId;
use clickwrap_domain::keys::KeyId;
use clickwrap_domain::keys::management::{ResealError, SealedSecret};
use clickwrap_domain::keys::models::{StoredKeyMaterial, StoredServerKey};
use clickwrap_domain::ports::{KeyStore, StorageError};
use diesel::prelude::*;
use diesel_async::{AsyncConnection, RunQueryDsl};
use time::OffsetDateTime;

use crate::PgStore;
use crate::connection::DbConnection;
use crate::convert::{hash32, ts};
use crate::errors::{corrupt, from_diesel};
use crate::schema::{apps, ledger_keys, server_keys, signing_identities};

/// Serializes the first start of several instances, so exactly one key becomes current.
const KEYRING_LOCK: i64 = 0x636c_6963_6b6b_6579; // "clickkey"

type KeyRow = (String, Option<Vec<u8>>, Option<Vec<u8>>, bool, OffsetDateTime, Option<OffsetDateTime>);

async fn load_keys(conn: &mut DbConnection) -> Result<Vec<KeyRow>, diesel::result::Error> {
    server_keys::table
        .select((
            server_keys::id,
            server_keys::material,
            server_keys::material_sealed,
            server_keys::is_current,
            server_keys::created_at,
            server_keys::replaced_at,
        ))
        .order((server_keys::is_current.desc(), server_keys::created_at.desc()))
        .load(conn)
        .await
}

fn stored_key(
    (id, clear, sealed, is_current, created_at, replaced_at): KeyRow,
) -> Result<StoredServerKey, StorageError> {
    let material = match (clear, sealed) {
        (None, Some(sealed)) => StoredKeyMaterial::Sealed(sealed),
        (Some(clear), None) => StoredKeyMaterial::Clear(hash32(&clear, "server key")?),
        _ => return Err(corrupt("server key", "neither or both of material and material_sealed")),
    };
    Ok(StoredServerKey {
        id: KeyId::parse(&id).map_err(|e| corrupt("server key id", e))?,
        material,
        is_current,
        created_at: ts(created_at),
        replaced_at: replaced_at.map(ts),
    })
}

fn sealed_material(key: &StoredServerKey) -> (Option<Vec<u8>>, Option<Vec<u8>>) {
    match &key.material {
        StoredKeyMaterial::Sealed(sealed) => (None, Some(sealed.clone())),
        StoredKeyMaterial::Clear(clear) => (Some(clear.to_vec()), None),
    }
}

async fn insert_key(conn: &mut DbConnection, key: &StoredServerKey) -> Result<(), diesel::result::Error> {
    let (clear, sealed) = sealed_material(key);
    diesel::insert_into(server_keys::table)
        .values((
            server_keys::id.eq(key.id.as_str()),
            server_keys::material.eq(clear),
            server_keys::material_sealed.eq(sealed),
            server_keys::is_current.eq(true),
            server_keys::created_at.eq(key.created_at.as_datetime()),
        ))
        .execute(conn)
        .await
        .map(|_| ())
}

#[async_trait]
impl KeyStore for PgStore {
    async fn ensure_keyring(&self, candidate: &StoredServerKey) -> Result<Vec<StoredServerKey>, StorageError> {
        let mut conn = self.conn().await?;
        let rows = conn
            .transaction::<_, diesel::result::Error, _>(async |conn| {
                diesel::sql_query(format!("SELECT pg_advisory_xact_lock({KEYRING_LOCK})")).execute(conn).await?;
                let existing: i64 = server_keys::table.count().get_result(conn).await?;
                if existing == 0 {
                    insert_key(conn, candidate).await?;
                }
                load_keys(conn).await
            })
            .await
            .map_err(from_diesel)?;
        rows.into_iter().map(stored_key).collect()
    }

    async fn server_keys(&self) -> Result<Vec<StoredServerKey>, StorageError> {
        let mut conn = self.conn().await?;
        load_keys(&mut conn).await.map_err(from_diesel)?.into_iter().map(stored_key).collect()
    }

    async fn add_current_server_key(&self, key: &StoredServerKey) -> Result<(), StorageError> {
        let mut conn = self.conn().await?;
        conn.transaction::<_, diesel::result::Error, _>(async |conn| {
            diesel::sql_query(format!("SELECT pg_advisory_xact_lock({KEYRING_LOCK})")).execute(conn).await?;
            diesel::update(server_keys::table.filter(server_keys::is_current.eq(true)))
                .set((server_keys::is_current.eq(false), server_keys::replaced_at.eq(key.created_at.as_datetime())))
                .execute(conn)
                .await?;
            insert_key(conn, key).await
        })
        .await
        .map_err(from_diesel)
    }

    async fn delete_server_key(&self, id: &KeyId) -> Result<bool, StorageError> {
        let mut conn = self.conn().await?;
        let deleted = diesel::delete(
            server_keys::table.filter(server_keys::id.eq(id.as_str())).filter(server_keys::is_current.eq(false)),
        )
        .execute(&mut conn)
        .await
        .map_err(from_diesel)?;
        Ok(deleted > 0)
    }
}

/// How many secrets [`PgStore::reseal_all`] sealed again, by kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ResealCounts {
    pub server_keys: usize,
    pub signing_keys: usize,
    pub ledger_keys: usize,
    pub webhook_secrets: usize,
}

/// Re-sealing stopped; nothing was changed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ResealAllError {
    #[error(transparent)]
    Reseal(#[from] ResealError),
    #[error(transparent)]
    Storage(#[from] StorageError),
}

impl PgStore {
    /// Replaces every sealed secret (server keys, certificate signing keys, webhook secrets) with
    /// what `reseal` makes of it, in one transaction that locks them all: either every secret is
    /// sealed again or none is.
    pub async fn reseal_all(
        &self,
        reseal: &(dyn Fn(SealedSecret<'_>) -> Result<Vec<u8>, ResealError> + Send + Sync),
    ) -> Result<ResealCounts, ResealAllError> {
        let mut conn = self.conn().await?;
        conn.transaction::<_, ResealAllError, _>(async |conn| {
            diesel::sql_query(format!("SELECT pg_advisory_xact_lock({KEYRING_LOCK})")).execute(conn).await?;
            reseal_in(conn, reseal).await
        })
        .await
    }
}

impl From<diesel::result::Error> for ResealAllError {
    fn from(error: diesel::result::Error) -> Self {
        ResealAllError::Storage(from_diesel(error))
    }
}

async fn reseal_in(
    conn: &mut DbConnection,
    reseal: &(dyn Fn(SealedSecret<'_>) -> Result<Vec<u8>, ResealError> + Send + Sync),
) -> Result<ResealCounts, ResealAllError> {
    let mut counts = ResealCounts::default();

    for row in load_keys(conn).await? {
        let key = stored_key(row)?;
        let sealed = reseal(SealedSecret::ServerKey { id: &key.id, material: &key.material })?;
        diesel::update(server_keys::table.find(key.id.as_str()))
            .set((server_keys::material.eq(None::<Vec<u8>>), server_keys::material_sealed.eq(Some(sealed))))
            .execute(conn)
            .await?;
        counts.server_keys += 1;
    }

    let identities: Vec<(uuid::Uuid, Vec<u8>)> = signing_identities::table
        .select((signing_identities::id, signing_identities::private_key_sealed))
        .for_update()
        .load(conn)
        .await?;
    for (id, sealed) in identities {
        let resealed = reseal(SealedSecret::SigningKey { sealed: &sealed })?;
        diesel::update(signing_identities::table.find(id))
            .set(signing_identities::private_key_sealed.eq(resealed))
            .execute(conn)
            .await?;
        counts.signing_keys += 1;
    }

    let ledger: Vec<(String, Vec<u8>)> =
        ledger_keys::table.select((ledger_keys::id, ledger_keys::private_key_sealed)).for_update().load(conn).await?;
    for (id, sealed) in ledger {
        let resealed = reseal(SealedSecret::LedgerKey { sealed: &sealed })?;
        diesel::update(ledger_keys::table.find(id))
            .set(ledger_keys::private_key_sealed.eq(resealed))
            .execute(conn)
            .await?;
        counts.ledger_keys += 1;
    }

    let secrets: Vec<(uuid::Uuid, Vec<u8>)> =
        apps::table.select((apps::id, apps::webhook_secret_sealed)).for_update().load(conn).await?;
    for (id, sealed) in secrets {
        let resealed = reseal(SealedSecret::WebhookSecret { app_id: AppId::from_uuid(id), sealed: &sealed })?;
        diesel::update(apps::table.find(id)).set(apps::webhook_secret_sealed.eq(resealed)).execute(conn).await?;
        counts.webhook_secrets += 1;
    }
    Ok(counts)
}
