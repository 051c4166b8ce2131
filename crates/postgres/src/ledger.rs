//! The evidence ledger's storage. Leaves are appended by the verify statement (see
//! `events/verification.rs`); here: the ledger key, advancing the tree head over new leaves, and
//! what proofs are made from.

use async_trait::async_trait;
use clickwrap_domain::ledger::merkle::{Frontier, Hash};
use clickwrap_domain::ledger::models::{StoredLeaf, StoredLedgerKey};
use clickwrap_domain::ledger::tree_head::{SignedTreeHead, TreeHead};
use clickwrap_domain::ports::{LedgerStore, StorageError, TreeHeadSigner};
use clickwrap_domain::{EventId, TenantId, Timestamp};
use diesel::prelude::*;
use diesel_async::{AsyncConnection, RunQueryDsl};
use time::OffsetDateTime;

use crate::PgStore;
use crate::convert::{hash32, limit_i64, ts};
use crate::errors::{corrupt, from_diesel};
use crate::schema::{
    ledger_frontiers as frontiers, ledger_keys, ledger_leaves as leaves, ledger_logs as logs,
    ledger_tree_heads as heads,
};

/// Serializes the first start of several instances, so exactly one ledger key becomes current.
const LEDGER_KEY_LOCK: i64 = 0x636c_6963_6b6c_6467; // "clickldg"

/// At most this many new leaves are read per tree head (a larger backlog takes several rounds).
const LEAVES_PER_HEAD: i64 = 100_000;

/// A leaf row: index, event, hash, salt.
type LeafRow = (i64, uuid::Uuid, Vec<u8>, Option<Vec<u8>>);

type HeadRow = (i64, Vec<u8>, OffsetDateTime, Vec<u8>, String);

fn signed_head((size, root, at, signature, key_id): HeadRow) -> Result<SignedTreeHead, StorageError> {
    Ok(SignedTreeHead {
        head: TreeHead {
            tree_size: u64::try_from(size).map_err(|e| corrupt("tree head size", e))?,
            root_hash: hash32(&root, "tree head root")?,
            timestamp: ts(at),
        },
        signature,
        key_id,
    })
}

fn size_i64(size: u64) -> i64 {
    i64::try_from(size).unwrap_or(i64::MAX)
}

#[async_trait]
impl LedgerStore for PgStore {
    async fn ensure_ledger_key(&self, candidate: &StoredLedgerKey) -> Result<StoredLedgerKey, StorageError> {
        let mut conn = self.conn().await?;
        conn.transaction::<_, diesel::result::Error, _>(async |conn| {
            diesel::sql_query(format!("SELECT pg_advisory_xact_lock({LEDGER_KEY_LOCK})")).execute(conn).await?;
            let current: Option<(String, Vec<u8>, Vec<u8>)> = ledger_keys::table
                .filter(ledger_keys::is_current.eq(true))
                .select((ledger_keys::id, ledger_keys::private_key_sealed, ledger_keys::public_key_der))
                .first(conn)
                .await
                .optional()?;
            if let Some((id, private_key_sealed, public_key_der)) = current {
                return Ok(StoredLedgerKey { id, private_key_sealed, public_key_der });
            }
            diesel::insert_into(ledger_keys::table)
                .values((
                    ledger_keys::id.eq(&candidate.id),
                    ledger_keys::private_key_sealed.eq(&candidate.private_key_sealed),
                    ledger_keys::public_key_der.eq(&candidate.public_key_der),
                    ledger_keys::is_current.eq(true),
                    ledger_keys::created_at.eq(OffsetDateTime::now_utc()),
                ))
                .execute(conn)
                .await?;
            Ok(candidate.clone())
        })
        .await
        .map_err(from_diesel)
    }

    async fn tenants_with_unsigned_leaves(&self, limit: usize) -> Result<Vec<TenantId>, StorageError> {
        let mut conn = self.conn().await?;
        let tenants: Vec<uuid::Uuid> = logs::table
            .left_join(frontiers::table.on(frontiers::tenant_id.eq(logs::tenant_id)))
            .filter(frontiers::tree_size.is_null().or(frontiers::tree_size.lt(logs::tree_size)))
            .select(logs::tenant_id)
            .limit(limit_i64(limit))
            .load(&mut conn)
            .await
            .map_err(from_diesel)?;
        Ok(tenants.into_iter().map(TenantId::from_uuid).collect())
    }

    async fn advance_tree_head(
        &self,
        tenant: TenantId,
        sign: &TreeHeadSigner<'_>,
        now: Timestamp,
    ) -> Result<Option<SignedTreeHead>, StorageError> {
        let tenant_id = *tenant.as_uuid();
        let mut conn = self.conn().await?;
        conn.transaction::<_, AdvanceError, _>(async |conn| {
            diesel::insert_into(frontiers::table)
                .values((
                    frontiers::tenant_id.eq(tenant_id),
                    frontiers::tree_size.eq(0),
                    frontiers::frontier.eq(Vec::<u8>::new()),
                ))
                .on_conflict_do_nothing()
                .execute(conn)
                .await?;
            // One instance at a time per tenant; the others skip it this round.
            let Some((signed_size, stored)): Option<(i64, Vec<u8>)> = frontiers::table
                .find(tenant_id)
                .select((frontiers::tree_size, frontiers::frontier))
                .for_update()
                .skip_locked()
                .first(conn)
                .await
                .optional()?
            else {
                return Ok(None);
            };
            let signed_size = u64::try_from(signed_size).map_err(|e| corrupt("frontier size", e))?;
            let mut frontier = Frontier::from_parts(signed_size, &stored).map_err(|e| corrupt("frontier", e))?;
            let new: Vec<(i64, Vec<u8>)> = leaves::table
                .filter(leaves::tenant_id.eq(tenant_id))
                .filter(leaves::leaf_index.ge(size_i64(signed_size)))
                .order(leaves::leaf_index.asc())
                .select((leaves::leaf_index, leaves::leaf_hash))
                .limit(LEAVES_PER_HEAD)
                .load(conn)
                .await?;
            let has_head =
                heads::table.filter(heads::tenant_id.eq(tenant_id)).count().get_result::<i64>(conn).await? > 0;
            if new.is_empty() && has_head {
                return Ok(None);
            }
            for (index, hash) in new {
                // The verify statement appends leaves under the log's row lock: always contiguous.
                if u64::try_from(index).ok() != Some(frontier.size()) {
                    return Err(corrupt("ledger leaves", format!("leaf {index} follows {}", frontier.size())).into());
                }
                frontier.push(hash32(&hash, "leaf hash")?);
            }
            let head = TreeHead { tree_size: frontier.size(), root_hash: frontier.root(), timestamp: now };
            let signed = sign(&head)?;
            diesel::insert_into(heads::table)
                .values((
                    heads::tenant_id.eq(tenant_id),
                    heads::tree_size.eq(size_i64(head.tree_size)),
                    heads::root_hash.eq(head.root_hash.to_vec()),
                    heads::signed_at.eq(head.timestamp.as_datetime()),
                    heads::signature.eq(&signed.signature),
                    heads::key_id.eq(&signed.key_id),
                ))
                .on_conflict_do_nothing()
                .execute(conn)
                .await?;
            diesel::update(frontiers::table.find(tenant_id))
                .set((frontiers::tree_size.eq(size_i64(frontier.size())), frontiers::frontier.eq(frontier.to_bytes())))
                .execute(conn)
                .await?;
            Ok(Some(signed))
        })
        .await
        .map_err(StorageError::from)
    }

    async fn latest_tree_head(&self, tenant: TenantId) -> Result<Option<SignedTreeHead>, StorageError> {
        let mut conn = self.conn().await?;
        let row: Option<HeadRow> = heads::table
            .filter(heads::tenant_id.eq(*tenant.as_uuid()))
            .order(heads::tree_size.desc())
            .select((heads::tree_size, heads::root_hash, heads::signed_at, heads::signature, heads::key_id))
            .first(&mut conn)
            .await
            .optional()
            .map_err(from_diesel)?;
        row.map(signed_head).transpose()
    }

    async fn ledger_leaf(&self, tenant: TenantId, event: EventId) -> Result<Option<StoredLeaf>, StorageError> {
        let mut conn = self.conn().await?;
        let row: Option<(i64, Vec<u8>, Option<Vec<u8>>)> = leaves::table
            .filter(leaves::event_id.eq(*event.as_uuid()))
            .filter(leaves::tenant_id.eq(*tenant.as_uuid()))
            .select((leaves::leaf_index, leaves::leaf_hash, leaves::salt))
            .first(&mut conn)
            .await
            .optional()
            .map_err(from_diesel)?;
        row.map(|(index, hash, salt)| {
            Ok(StoredLeaf {
                leaf_index: u64::try_from(index).map_err(|e| corrupt("leaf index", e))?,
                leaf_hash: hash32(&hash, "leaf hash")?,
                salt: salt.map(|s| s.try_into().map_err(|_| corrupt("leaf salt", "not 16 bytes"))).transpose()?,
            })
        })
        .transpose()
    }

    async fn leaf_hashes(&self, tenant: TenantId, size: u64) -> Result<Vec<Hash>, StorageError> {
        let mut conn = self.conn().await?;
        let rows: Vec<Vec<u8>> = leaves::table
            .filter(leaves::tenant_id.eq(*tenant.as_uuid()))
            .filter(leaves::leaf_index.lt(size_i64(size)))
            .order(leaves::leaf_index.asc())
            .select(leaves::leaf_hash)
            .load(&mut conn)
            .await
            .map_err(from_diesel)?;
        rows.iter().map(|hash| hash32(hash, "leaf hash")).collect()
    }

    async fn ledger_size(&self, tenant: TenantId) -> Result<u64, StorageError> {
        let mut conn = self.conn().await?;
        let size: Option<i64> = logs::table
            .find(*tenant.as_uuid())
            .select(logs::tree_size)
            .first(&mut conn)
            .await
            .optional()
            .map_err(from_diesel)?;
        Ok(size.map_or(0, |size| u64::try_from(size).unwrap_or(0)))
    }
}

/// For exporting a tenant's log: its leaves page by page, and what the log leaves out.
impl PgStore {
    /// Up to `limit` of the tenant's leaves from index `from`, in index order, with their events.
    pub async fn ledger_leaves_from(
        &self,
        tenant: TenantId,
        from: u64,
        limit: usize,
    ) -> Result<Vec<(EventId, StoredLeaf)>, StorageError> {
        let mut conn = self.conn().await?;
        let rows: Vec<LeafRow> = leaves::table
            .filter(leaves::tenant_id.eq(*tenant.as_uuid()))
            .filter(leaves::leaf_index.ge(size_i64(from)))
            .order(leaves::leaf_index.asc())
            .select((leaves::leaf_index, leaves::event_id, leaves::leaf_hash, leaves::salt))
            .limit(limit_i64(limit))
            .load(&mut conn)
            .await
            .map_err(from_diesel)?;
        rows.into_iter()
            .map(|(index, event, hash, salt)| {
                Ok((
                    EventId::from_uuid(event),
                    StoredLeaf {
                        leaf_index: u64::try_from(index).map_err(|e| corrupt("leaf index", e))?,
                        leaf_hash: hash32(&hash, "leaf hash")?,
                        salt: salt
                            .map(|s| s.try_into().map_err(|_| corrupt("leaf salt", "not 16 bytes")))
                            .transpose()?,
                    },
                ))
            })
            .collect()
    }

    /// The tenant's verified events that have no leaf: those verified before the ledger existed.
    /// Every leaf is one verified event of the tenant, so they are the difference of two counts.
    pub async fn verified_events_outside_ledger(&self, tenant: TenantId) -> Result<u64, StorageError> {
        use crate::schema::clickwrap_events as events;
        let mut conn = self.conn().await?;
        let verified: i64 = events::table
            .filter(events::tenant_id.eq(*tenant.as_uuid()))
            .filter(events::status.eq_any(["ACCEPTED", "DECLINED"]))
            .count()
            .get_result(&mut conn)
            .await
            .map_err(from_diesel)?;
        let in_ledger: i64 = leaves::table
            .filter(leaves::tenant_id.eq(*tenant.as_uuid()))
            .count()
            .get_result(&mut conn)
            .await
            .map_err(from_diesel)?;
        Ok(u64::try_from(verified.saturating_sub(in_ledger)).unwrap_or(0))
    }
}

/// Why advancing a tree head stopped (rolled back).
enum AdvanceError {
    Database(diesel::result::Error),
    Storage(StorageError),
}

impl From<diesel::result::Error> for AdvanceError {
    fn from(error: diesel::result::Error) -> Self {
        AdvanceError::Database(error)
    }
}

impl From<StorageError> for AdvanceError {
    fn from(error: StorageError) -> Self {
        AdvanceError::Storage(error)
    }
}

impl From<AdvanceError> for StorageError {
    fn from(error: AdvanceError) -> Self {
        match error {
            AdvanceError::Database(error) => from_diesel(error),
            AdvanceError::Storage(error) => error,
        }
    }
}
