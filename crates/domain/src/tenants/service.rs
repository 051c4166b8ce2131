//! Tenant use cases: create a tenant with its first operator token, set its quota, read its usage.

use super::models::{OperatorTokenRecord, Tenant};
use crate::limits::quota::QuotaPeriod;
use crate::name::{InvalidName, Name};
use crate::ports::StorageError;
use crate::secrets::OperatorToken;
use crate::service::ClickwrapService;
use crate::{OperatorTokenId, TenantId};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CreateTenantError {
    #[error(transparent)]
    InvalidName(#[from] InvalidName),
    #[error(transparent)]
    Storage(#[from] StorageError),
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetQuotaError {
    #[error("no such tenant")]
    UnknownTenant,
    #[error(transparent)]
    Storage(#[from] StorageError),
}

/// The quota and how much of it the current period used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Usage {
    pub event_quota: Option<u64>,
    pub events_this_period: u64,
    pub period: QuotaPeriod,
}

impl ClickwrapService {
    /// A new tenant and its first operator token (shown once; only its hash is kept).
    pub async fn create_tenant(
        &self,
        name: &str,
        event_quota: Option<u64>,
    ) -> Result<(Tenant, OperatorToken), CreateTenantError> {
        let now = self.now();
        let tenant =
            Tenant { id: TenantId::from_uuid(self.new_uuid()), name: Name::parse(name)?, event_quota, created_at: now };
        let token = OperatorToken::from_random(self.ports.random.bytes32());
        let record = OperatorTokenRecord {
            id: OperatorTokenId::from_uuid(self.new_uuid()),
            tenant_id: tenant.id,
            token_hash: token.hash(),
            created_at: now,
        };
        self.ports.tenants.create_tenant(&tenant, &record).await?;
        Ok((tenant, token))
    }

    /// Another operator token for the tenant (shown once); earlier tokens keep working.
    pub async fn issue_operator_token(&self, tenant: TenantId) -> Result<OperatorToken, SetQuotaError> {
        let token = OperatorToken::from_random(self.ports.random.bytes32());
        let record = OperatorTokenRecord {
            id: OperatorTokenId::from_uuid(self.new_uuid()),
            tenant_id: tenant,
            token_hash: token.hash(),
            created_at: self.now(),
        };
        if self.ports.tenants.add_operator_token(&record).await? {
            Ok(token)
        } else {
            Err(SetQuotaError::UnknownTenant)
        }
    }

    pub async fn set_event_quota(&self, tenant: TenantId, quota: Option<u64>) -> Result<(), SetQuotaError> {
        if self.ports.tenants.set_event_quota(tenant, quota).await? {
            Ok(())
        } else {
            Err(SetQuotaError::UnknownTenant)
        }
    }

    pub async fn usage(&self, tenant: &Tenant) -> Result<Usage, StorageError> {
        let period = QuotaPeriod::containing(self.now());
        let used = self.ports.tenants.events_in_period(tenant.id, &period).await?;
        Ok(Usage { event_quota: tenant.event_quota, events_this_period: used, period })
    }
}
