//! The certificate signing identities: one current key and certificate (with its chain) for every
//! instance, and the earlier ones, kept so that their certificates can still be published.

use clickwrap_domain::ports::StorageError;
use diesel::prelude::*;
use diesel_async::{AsyncConnection, RunQueryDsl};
use time::OffsetDateTime;

use crate::PgStore;
use crate::connection::DbConnection;
use crate::errors::from_diesel;
use crate::schema::signing_identities as identities;

/// Serializes the first start of several instances, so exactly one identity becomes current.
const IDENTITY_LOCK: i64 = 0x636c_6963_6b69_6474; // "clickidt"

/// A stored identity: the sealed private key, the certificate and the chain above it, all DER.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredSigningIdentity {
    pub private_key_sealed: Vec<u8>,
    pub certificate_der: Vec<u8>,
    /// The certificates from the leaf's issuer up to the root; empty for a self-signed one.
    pub chain_der: Vec<Vec<u8>>,
}

/// An identity as `signing-identity list` shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SigningIdentityRecord {
    pub id: uuid::Uuid,
    pub identity: StoredSigningIdentity,
    pub is_current: bool,
    pub created_at: OffsetDateTime,
    pub replaced_at: Option<OffsetDateTime>,
}

const IDENTITY_COLUMNS: (
    identities::id,
    identities::private_key_sealed,
    identities::certificate_der,
    identities::chain_der,
    identities::is_current,
    identities::created_at,
    identities::replaced_at,
) = (
    identities::id,
    identities::private_key_sealed,
    identities::certificate_der,
    identities::chain_der,
    identities::is_current,
    identities::created_at,
    identities::replaced_at,
);

type IdentityRow = (uuid::Uuid, Vec<u8>, Vec<u8>, Vec<Vec<u8>>, bool, OffsetDateTime, Option<OffsetDateTime>);

fn record(
    (id, private_key_sealed, certificate_der, chain_der, is_current, created_at, replaced_at): IdentityRow,
) -> SigningIdentityRecord {
    SigningIdentityRecord {
        id,
        identity: StoredSigningIdentity { private_key_sealed, certificate_der, chain_der },
        is_current,
        created_at,
        replaced_at,
    }
}

async fn insert_current(
    conn: &mut DbConnection,
    identity: &StoredSigningIdentity,
    now: OffsetDateTime,
) -> Result<(), diesel::result::Error> {
    diesel::insert_into(identities::table)
        .values((
            identities::id.eq(uuid::Uuid::now_v7()),
            identities::private_key_sealed.eq(&identity.private_key_sealed),
            identities::certificate_der.eq(&identity.certificate_der),
            identities::chain_der.eq(&identity.chain_der),
            identities::is_current.eq(true),
            identities::created_at.eq(now),
        ))
        .execute(conn)
        .await
        .map(|_| ())
}

impl PgStore {
    /// The current signing identity; `candidate` becomes it when there is none yet.
    pub async fn ensure_signing_identity(
        &self,
        candidate: &StoredSigningIdentity,
    ) -> Result<StoredSigningIdentity, StorageError> {
        let mut conn = self.conn().await?;
        conn.transaction::<_, diesel::result::Error, _>(async |conn| {
            diesel::sql_query(format!("SELECT pg_advisory_xact_lock({IDENTITY_LOCK})")).execute(conn).await?;
            let current: Option<IdentityRow> = identities::table
                .filter(identities::is_current.eq(true))
                .select(IDENTITY_COLUMNS)
                .first(conn)
                .await
                .optional()?;
            if let Some(current) = current {
                return Ok(record(current).identity);
            }
            insert_current(conn, candidate, OffsetDateTime::now_utc()).await?;
            Ok(candidate.clone())
        })
        .await
        .map_err(from_diesel)
    }

    /// Makes `identity` the current one from now on; the one before is kept, replaced now.
    pub async fn replace_signing_identity(&self, identity: &StoredSigningIdentity) -> Result<(), StorageError> {
        let mut conn = self.conn().await?;
        conn.transaction::<_, diesel::result::Error, _>(async |conn| {
            diesel::sql_query(format!("SELECT pg_advisory_xact_lock({IDENTITY_LOCK})")).execute(conn).await?;
            let now = OffsetDateTime::now_utc();
            diesel::update(identities::table.filter(identities::is_current.eq(true)))
                .set((identities::is_current.eq(false), identities::replaced_at.eq(now)))
                .execute(conn)
                .await?;
            insert_current(conn, identity, now).await
        })
        .await
        .map_err(from_diesel)
    }

    /// Every signing identity, the current one first, then newest first.
    pub async fn signing_identities(&self) -> Result<Vec<SigningIdentityRecord>, StorageError> {
        let mut conn = self.conn().await?;
        let rows: Vec<IdentityRow> = identities::table
            .select(IDENTITY_COLUMNS)
            .order((identities::is_current.desc(), identities::created_at.desc()))
            .load(&mut conn)
            .await
            .map_err(from_diesel)?;
        Ok(rows.into_iter().map(record).collect())
    }
}
