//! Tenant use cases: create a tenant with its first operator token, manage operator tokens, sign
//! operators in to the console, set the quota, read the usage.

use ring::hmac;
use time::Duration;

use super::models::{
    Admin, ConsoleSessionRecord, Operator, OperatorRole, OperatorTokenInfo, OperatorTokenRecord, Tenant,
};
use crate::audit::models::AuditAction;
use crate::keys::KeyPurpose;
use crate::limits::quota::QuotaPeriod;
use crate::name::{InvalidName, Name};
use crate::ports::StorageError;
use crate::secrets::{ConsoleSessionSecret, OperatorToken};
use crate::service::{AuthError, ClickwrapService};
use crate::{OperatorTokenId, TenantId};

/// A console session ends after this long without a request.
pub const CONSOLE_SESSION_IDLE: Duration = Duration::hours(12);

/// The name of the token `tenant create` prints.
const FIRST_TOKEN_NAME: &str = "First token";

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

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetLegalNameError {
    #[error("no such tenant")]
    UnknownTenant,
    #[error("legal name: {0}")]
    InvalidName(#[from] InvalidName),
    #[error(transparent)]
    Storage(#[from] StorageError),
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CreateOperatorTokenError {
    #[error(transparent)]
    InvalidName(#[from] InvalidName),
    #[error("no such tenant")]
    UnknownTenant,
    #[error(transparent)]
    Storage(#[from] StorageError),
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RevokeOperatorTokenError {
    /// Unknown, already revoked, or another tenant's (HTTP 404).
    #[error("the operator token could not be found")]
    NotFound,
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
    /// A new tenant and its first operator token, an ADMIN's (shown once; only its hash is kept).
    pub async fn create_tenant(
        &self,
        name: &str,
        event_quota: Option<u64>,
    ) -> Result<(Tenant, OperatorToken), CreateTenantError> {
        let now = self.now();
        let tenant = Tenant {
            id: TenantId::from_uuid(self.new_uuid()),
            name: Name::parse(name)?,
            legal_name: None,
            event_quota,
            created_at: now,
        };
        let (record, token) = self.new_operator_token(tenant.id, Name::parse(FIRST_TOKEN_NAME)?, OperatorRole::Admin);
        self.ports.tenants.create_tenant(&tenant, &record).await?;
        Ok((tenant, token))
    }

    /// Another operator token for the tenant (its secret is shown once); earlier tokens keep working.
    pub async fn create_operator_token(
        &self,
        admin: &Admin,
        name: &str,
        role: OperatorRole,
    ) -> Result<(OperatorTokenInfo, OperatorToken), CreateOperatorTokenError> {
        let (record, token) = self.new_operator_token(admin.tenant_id(), Name::parse(name)?, role);
        let audit = self
            .audit_entry(admin, AuditAction::OperatorTokenCreated, record.id)
            .with("name", record.name.as_str())
            .with("role", role.as_str());
        if !self.ports.tenants.add_operator_token(&record, &audit).await? {
            return Err(CreateOperatorTokenError::UnknownTenant);
        }
        let info = OperatorTokenInfo {
            id: record.id,
            name: record.name,
            role,
            created_at: record.created_at,
            last_used_at: None,
        };
        Ok((info, token))
    }

    /// The tenant's operator tokens (never their secrets).
    pub async fn list_operator_tokens(&self, tenant: TenantId) -> Result<Vec<OperatorTokenInfo>, StorageError> {
        self.ports.tenants.list_operator_tokens(tenant).await
    }

    /// Revokes a token: it and every console session signed in with it stop working at once.
    pub async fn revoke_operator_token(
        &self,
        admin: &Admin,
        id: OperatorTokenId,
    ) -> Result<(), RevokeOperatorTokenError> {
        let audit = self.audit_entry(admin, AuditAction::OperatorTokenRevoked, id);
        if self.ports.tenants.revoke_operator_token(admin.tenant_id(), id, &audit).await? {
            Ok(())
        } else {
            Err(RevokeOperatorTokenError::NotFound)
        }
    }

    /// The operator of a bearer token.
    pub async fn authenticate_operator(&self, token: &str) -> Result<Operator, AuthError> {
        let token = OperatorToken::parse(token).map_err(|_| AuthError::InvalidCredentials)?;
        // The token is 256 random bits, so looking it up by its hash leaks nothing useful by timing.
        self.ports.tenants.operator_for_token(&token.hash(), self.now()).await?.ok_or(AuthError::InvalidCredentials)
    }

    /// Signs an operator in to the console with an operator token: a new server-side session,
    /// whose secret goes into the session cookie.
    pub async fn sign_in_console(&self, token: &str) -> Result<(ConsoleSessionSecret, Operator), AuthError> {
        let operator = self.authenticate_operator(token).await?;
        let secret = ConsoleSessionSecret::from_random(self.ports.random.bytes32());
        let session = ConsoleSessionRecord {
            secret_hash: secret.hash(),
            tenant_id: operator.tenant.id,
            token_id: operator.token_id,
            created_at: self.now(),
        };
        self.ports.tenants.insert_console_session(&session).await?;
        Ok((secret, operator))
    }

    /// The operator of a console session cookie: unknown, idle for too long, signed out, or on a
    /// revoked token are all the same refusal.
    pub async fn console_operator(&self, secret: &str) -> Result<Operator, AuthError> {
        let secret = ConsoleSessionSecret::parse(secret).map_err(|_| AuthError::InvalidCredentials)?;
        let now = self.now();
        let idle_since = now.saturating_sub(CONSOLE_SESSION_IDLE);
        self.ports
            .tenants
            .console_session_operator(&secret.hash(), idle_since, now)
            .await?
            .ok_or(AuthError::InvalidCredentials)
    }

    /// Ends a console session (a malformed cookie has nothing to end).
    pub async fn sign_out_console(&self, secret: &str) -> Result<(), StorageError> {
        match ConsoleSessionSecret::parse(secret) {
            Ok(secret) => self.ports.tenants.delete_console_session(&secret.hash()).await,
            Err(_) => Ok(()),
        }
    }

    /// The CSRF token of a console session: a MAC of its secret, so nothing more is stored and a
    /// token from one session is worthless in another.
    pub fn console_csrf_token(&self, session_secret: &str) -> String {
        let key = self.keys.current().hmac_key(KeyPurpose::ConsoleCsrf);
        hex::encode(hmac::sign(&key, session_secret.as_bytes()).as_ref())
    }

    /// Whether `presented` is the session's CSRF token (under the current key or a previous one),
    /// compared in constant time.
    pub fn console_csrf_matches(&self, session_secret: &str, presented: &str) -> bool {
        let Ok(tag) = hex::decode(presented) else { return false };
        std::iter::once(self.keys.current())
            .chain(self.keys.previous())
            .any(|key| hmac::verify(&key.hmac_key(KeyPurpose::ConsoleCsrf), session_secret.as_bytes(), &tag).is_ok())
    }

    pub async fn set_event_quota(&self, tenant: TenantId, quota: Option<u64>) -> Result<(), SetQuotaError> {
        if self.ports.tenants.set_event_quota(tenant, quota).await? {
            Ok(())
        } else {
            Err(SetQuotaError::UnknownTenant)
        }
    }

    /// Sets (or, with `None`, clears) the operator's legal name that certificates print from now
    /// on; certificates already issued keep the name they were issued with.
    pub async fn set_legal_name(&self, tenant: TenantId, legal_name: Option<&str>) -> Result<(), SetLegalNameError> {
        let legal_name = legal_name.map(Name::parse).transpose()?;
        if self.ports.tenants.set_legal_name(tenant, legal_name.as_ref()).await? {
            Ok(())
        } else {
            Err(SetLegalNameError::UnknownTenant)
        }
    }

    pub async fn usage(&self, tenant: &Tenant) -> Result<Usage, StorageError> {
        let period = QuotaPeriod::containing(self.now());
        let used = self.ports.tenants.events_in_period(tenant.id, &period).await?;
        Ok(Usage { event_quota: tenant.event_quota, events_this_period: used, period })
    }

    fn new_operator_token(
        &self,
        tenant: TenantId,
        name: Name,
        role: OperatorRole,
    ) -> (OperatorTokenRecord, OperatorToken) {
        let token = OperatorToken::from_random(self.ports.random.bytes32());
        let record = OperatorTokenRecord {
            id: OperatorTokenId::from_uuid(self.new_uuid()),
            tenant_id: tenant,
            name,
            role,
            token_hash: token.hash(),
            created_at: self.now(),
        };
        (record, token)
    }
}
