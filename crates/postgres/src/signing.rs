//! The certificate signing identity: one current key and certificate for every instance.

use clickwrap_domain::ports::StorageError;
use diesel::prelude::*;
use diesel_async::{AsyncConnection, RunQueryDsl};

use crate::PgStore;
use crate::errors::from_diesel;
use crate::schema::signing_identities as identities;

/// Serializes the first start of several instances, so exactly one identity becomes current.
const IDENTITY_LOCK: i64 = 0x636c_6963_6b69_6474; // "clickidt"

/// A stored identity: the sealed private key and the certificate, both DER.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredSigningIdentity {
    pub private_key_sealed: Vec<u8>,
    pub certificate_der: Vec<u8>,
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
            let current: Option<(Vec<u8>, Vec<u8>)> = identities::table
                .filter(identities::is_current.eq(true))
                .select((identities::private_key_sealed, identities::certificate_der))
                .first(conn)
                .await
                .optional()?;
            if let Some((private_key_sealed, certificate_der)) = current {
                return Ok(StoredSigningIdentity { private_key_sealed, certificate_der });
            }
            diesel::insert_into(identities::table)
                .values((
                    identities::id.eq(uuid::Uuid::now_v7()),
                    identities::private_key_sealed.eq(&candidate.private_key_sealed),
                    identities::certificate_der.eq(&candidate.certificate_der),
                    identities::is_current.eq(true),
                    identities::created_at.eq(time::OffsetDateTime::now_utc()),
                ))
                .execute(conn)
                .await?;
            Ok(candidate.clone())
        })
        .await
        .map_err(from_diesel)
    }
}
