use crate::name::Name;
use crate::secrets::SecretHash;
use crate::{OperatorTokenId, TenantId, Timestamp};

/// An operator organisation. Everything stored belongs to one tenant and no tenant sees another's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tenant {
    pub id: TenantId,
    pub name: Name,
    /// Verified events allowed per calendar month (UTC); `None` means unlimited.
    pub event_quota: Option<u64>,
    pub created_at: Timestamp,
}

/// A stored operator token: only its hash is kept.
#[derive(Debug, Clone)]
pub struct OperatorTokenRecord {
    pub id: OperatorTokenId,
    pub tenant_id: TenantId,
    pub token_hash: SecretHash,
    pub created_at: Timestamp,
}
