//! The ledger's use cases: the leaf a verification appends, signing tree heads, and the proofs.

use crate::apps::models::App;
use crate::consent::models::ClickwrapEvent;
use crate::ids::{EventId, TenantId};
use crate::ledger::leaf::{evidence_record, leaf_bytes};
use crate::ledger::merkle::{self, Hash};
use crate::ledger::models::LedgerLeaf;
use crate::ledger::models::SALT_LEN;
use crate::ledger::tree_head::{SignedTreeHead, TreeHead};
use crate::ports::{Random, StorageError};
use crate::service::ClickwrapService;

/// How many tenants one round of the tree-head task signs for.
const TENANTS_PER_ROUND: usize = 100;

/// The leaf of a verified event: its evidence record, with a fresh salt for the commitments.
pub(crate) fn leaf_of(
    event: &ClickwrapEvent,
    certificate_sha256: Option<&[u8; 32]>,
    random: &dyn Random,
) -> Result<LedgerLeaf, StorageError> {
    let mut salt = [0_u8; SALT_LEN];
    random.fill(&mut salt);
    let record = evidence_record(event, certificate_sha256, &salt);
    let bytes = leaf_bytes(&record).map_err(|e| StorageError::Internal(format!("the evidence record: {e}")))?;
    Ok(LedgerLeaf { leaf_hash: merkle::leaf_hash(&bytes), salt })
}

/// An inclusion proof of one event, against a signed tree head.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InclusionProof {
    pub leaf_index: u64,
    pub leaf_hash: Hash,
    pub audit_path: Vec<Hash>,
    pub tree_head: SignedTreeHead,
    /// The record the leaf is the hash of (personal values as commitments only), rebuilt from the
    /// stored evidence; `None` once the event's personal values and salt were erased.
    pub evidence_record: Option<serde_json::Value>,
}

/// A consistency proof between two sizes of a tenant's log (RFC 9162 §2.1.4).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConsistencyProof {
    pub from_size: u64,
    pub to_size: u64,
    pub from_root: Hash,
    pub to_root: Hash,
    pub consistency_path: Vec<Hash>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InclusionProofError {
    /// The event is not in the log: unknown, not verified, or verified before the ledger existed.
    #[error("the event is not in the evidence ledger")]
    NotInLedger,
    #[error(transparent)]
    Storage(#[from] StorageError),
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConsistencyProofError {
    /// The sizes asked for are not `0 < from <= to <= the log's size`.
    #[error("from and to must satisfy 0 < from <= to <= {size}, the size of the log")]
    SizesOutOfRange { size: u64 },
    #[error(transparent)]
    Storage(#[from] StorageError),
}

impl ClickwrapService {
    /// The public key that verifies tree heads (SubjectPublicKeyInfo, PEM).
    pub fn ledger_public_key_pem(&self) -> String {
        self.ledger_key.public_key_pem()
    }

    /// One round of the tree-head task: signs a new head for every tenant whose log grew. Returns
    /// how many heads were signed.
    pub async fn sign_tree_heads(&self) -> Result<usize, StorageError> {
        let mut signed = 0;
        for tenant in self.ports.ledger.tenants_with_unsigned_leaves(TENANTS_PER_ROUND).await? {
            if self.advance(tenant).await?.is_some() {
                signed += 1;
            }
        }
        Ok(signed)
    }

    /// The tenant's newest signed tree head, covering every leaf appended so far.
    pub async fn latest_tree_head(&self, tenant: TenantId) -> Result<SignedTreeHead, StorageError> {
        let size = self.ports.ledger.ledger_size(tenant).await?;
        if let Some(head) = self.ports.ledger.latest_tree_head(tenant).await?
            && head.head.tree_size >= size
        {
            return Ok(head);
        }
        if let Some(head) = self.advance(tenant).await? {
            return Ok(head);
        }
        // Another instance was signing it just now: its head is stored once it commits.
        self.ports
            .ledger
            .latest_tree_head(tenant)
            .await?
            .ok_or_else(|| StorageError::Unavailable("the ledger's tree head is being signed; try again".to_owned()))
    }

    /// The inclusion proof of an event of `app`'s tenant (`GET /clickwrap-events/{id}/proof`).
    pub async fn inclusion_proof(&self, app: &App, event: EventId) -> Result<InclusionProof, InclusionProofError> {
        let tenant = app.tenant_id;
        let leaf = self.ports.ledger.ledger_leaf(tenant, event).await?.ok_or(InclusionProofError::NotInLedger)?;
        let tree_head = self.latest_tree_head(tenant).await?;
        let hashes = self.ports.ledger.leaf_hashes(tenant, tree_head.head.tree_size).await?;
        let audit_path = merkle::inclusion_proof(&hashes, leaf.leaf_index).ok_or(InclusionProofError::NotInLedger)?;
        let evidence_record = match leaf.salt {
            Some(salt) => self.evidence_record(tenant, event, &salt).await?,
            None => None,
        };
        Ok(InclusionProof {
            leaf_index: leaf.leaf_index,
            leaf_hash: leaf.leaf_hash,
            audit_path,
            tree_head,
            evidence_record,
        })
    }

    /// The event's evidence record, rebuilt from the stored (immutable) event, its certificate and
    /// the salt: the same record its leaf was made from, unless the evidence was tampered with, which
    /// then shows as a record whose hash is not the leaf's.
    async fn evidence_record(
        &self,
        tenant: TenantId,
        event: EventId,
        salt: &[u8; SALT_LEN],
    ) -> Result<Option<serde_json::Value>, StorageError> {
        let Some(stored) = self.ports.events.find_event(tenant, event).await? else { return Ok(None) };
        let certificate = self.ports.events.find_certificate(tenant, event).await?;
        Ok(Some(evidence_record(&stored, certificate.as_ref().map(|c| &c.sha256), salt)))
    }

    /// A consistency proof between two sizes of the tenant's log.
    pub async fn consistency_proof(
        &self,
        tenant: TenantId,
        from: u64,
        to: u64,
    ) -> Result<ConsistencyProof, ConsistencyProofError> {
        let size = self.latest_tree_head(tenant).await?.head.tree_size;
        let out_of_range = || ConsistencyProofError::SizesOutOfRange { size };
        if from == 0 || from > to || to > size {
            return Err(out_of_range());
        }
        let hashes = self.ports.ledger.leaf_hashes(tenant, to).await?;
        let old = hashes.get(..usize::try_from(from).unwrap_or(usize::MAX)).ok_or_else(out_of_range)?;
        let consistency_path = merkle::consistency_proof(&hashes, from).ok_or_else(out_of_range)?;
        Ok(ConsistencyProof {
            from_size: from,
            to_size: to,
            from_root: merkle::root(old),
            to_root: merkle::root(&hashes),
            consistency_path,
        })
    }

    async fn advance(&self, tenant: TenantId) -> Result<Option<SignedTreeHead>, StorageError> {
        let key = self.ledger_key.clone();
        let sign = move |head: &TreeHead| {
            let signature = key.sign(head).map_err(|e| StorageError::Internal(format!("signing a tree head: {e}")))?;
            Ok(SignedTreeHead { head: head.clone(), signature, key_id: key.key_id() })
        };
        self.ports.ledger.advance_tree_head(tenant, &sign, self.now()).await
    }
}
