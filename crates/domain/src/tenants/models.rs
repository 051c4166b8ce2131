use crate::name::Name;
use crate::secrets::SecretHash;
use crate::{OperatorTokenId, TenantId, Timestamp};

/// An operator organisation. Everything stored belongs to one tenant and no tenant sees another's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tenant {
    pub id: TenantId,
    pub name: Name,
    /// The operator's legal name (the company that records the consent), printed on every
    /// Certificate of Acceptance; `None` until set.
    pub legal_name: Option<Name>,
    /// Verified events allowed per calendar month (UTC); `None` means unlimited.
    pub event_quota: Option<u64>,
    pub created_at: Timestamp,
}

string_enum! {
    /// What an operator token may do: an ADMIN changes things, a VIEWER only reads.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum OperatorRole {
        Admin => "ADMIN",
        Viewer => "VIEWER",
    }
}

/// How often a token's last use and a console session's last request are written: at most once
/// this long, so that reading with a token does not mean writing every time.
pub const RECORD_USE_EVERY: time::Duration = time::Duration::minutes(1);

/// A stored operator token: only its hash is kept.
#[derive(Debug, Clone)]
pub struct OperatorTokenRecord {
    pub id: OperatorTokenId,
    pub tenant_id: TenantId,
    pub name: Name,
    pub role: OperatorRole,
    pub token_hash: SecretHash,
    pub created_at: Timestamp,
}

/// An operator token as the operator lists it: never its secret.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OperatorTokenInfo {
    pub id: OperatorTokenId,
    pub name: Name,
    pub role: OperatorRole,
    pub created_at: Timestamp,
    /// Rounded to the minute: the last use is recorded at most once a minute.
    pub last_used_at: Option<Timestamp>,
}

/// An authenticated operator: the tenant, and the token (or console session) it came with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Operator {
    pub tenant: Tenant,
    pub token_id: OperatorTokenId,
    pub token_name: Name,
    pub role: OperatorRole,
}

/// The operator's token is a VIEWER's, and the request would change something (HTTP 403
/// `FORBIDDEN_ROLE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("this operator token has the VIEWER role, which cannot change anything")]
pub struct ForbiddenRole;

impl Operator {
    /// The right to change the tenant's data, which only an ADMIN token has.
    pub fn admin(&self) -> Result<Admin, ForbiddenRole> {
        match self.role {
            OperatorRole::Admin => Ok(Admin { tenant_id: self.tenant.id, token_id: Some(self.token_id) }),
            OperatorRole::Viewer => Err(ForbiddenRole),
        }
    }
}

/// Proof that the caller may change the tenant's data, and who it is for the audit log. Every
/// use case that changes a tenant's apps, templates, deliveries or tokens takes one, so a VIEWER's
/// request cannot reach them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Admin {
    tenant_id: TenantId,
    /// `None` for the server binary itself (the demo installation).
    token_id: Option<OperatorTokenId>,
}

impl Admin {
    /// The server binary acting for a tenant on its own (the demo installation, command-line
    /// maintenance): audited with no operator token.
    pub fn server(tenant_id: TenantId) -> Self {
        Self { tenant_id, token_id: None }
    }

    pub fn tenant_id(&self) -> TenantId {
        self.tenant_id
    }

    pub fn token_id(&self) -> Option<OperatorTokenId> {
        self.token_id
    }
}

/// A signed-in console session as stored: the hash of its secret, whose token it runs on.
#[derive(Debug, Clone)]
pub struct ConsoleSessionRecord {
    pub secret_hash: SecretHash,
    pub tenant_id: TenantId,
    pub token_id: OperatorTokenId,
    pub created_at: Timestamp,
}
