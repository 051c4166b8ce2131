//! What the core needs from the outside world. Adapters implement these traits; [`crate::memory`]
//! implements them in memory for tests. Storage ports take the tenant in every call that reads or
//! writes tenant data, so an adapter cannot forget it.

use std::fmt::Debug;

use async_trait::async_trait;

use crate::apps::models::App;
use crate::apps::models::AppUpdate;
use crate::audit::models::{AuditEntry, AuditPosition};
use crate::consent::acceptance::ConsentSnapshot;
use crate::consent::cursor::EventPosition;
use crate::consent::models::CertificateFacts;
use crate::consent::models::DailyCount;
use crate::consent::models::EventDetails;
use crate::consent::models::EventToVerify;
use crate::consent::models::StoredCertificate;
use crate::consent::models::VerificationRecord;
use crate::consent::models::{ClickwrapEvent, EventFilter, EventStatus};
use crate::keys::KeyId;
use crate::keys::models::StoredServerKey;
use crate::ledger::merkle::Hash;
use crate::ledger::models::StoredLeaf;
use crate::ledger::models::StoredLedgerKey;
use crate::ledger::tree_head::{SignedTreeHead, TreeHead};
use crate::limits::quota::QuotaPeriod;
use crate::limits::rate::WindowHits;
use crate::secrets::SecretHash;
use crate::templates::models::TemplateUpdate;
use crate::templates::models::{Template, TemplateVersion};
use crate::templates::versioning::VersionNumber;
use crate::tenants::models::{ConsoleSessionRecord, Operator, OperatorTokenInfo, OperatorTokenRecord, Tenant};
use crate::webhooks::dispatch::{AttemptOutcome, ClaimedDelivery, FinishedAttempt, LeaseOwner};
use crate::webhooks::models::Delivery;
use crate::webhooks::models::DeliveryAttempt;
use crate::webhooks::models::{DeliveryPosition, DeliveryRecord};
use crate::webhooks::url::WebhookUrl;
use crate::{AppId, DeliveryId, EndUserId, EventId, Name, OperatorTokenId, TemplateId, TenantId, Timestamp};

/// The time. A port so that tests can move it.
pub trait Clock: Send + Sync + Debug {
    fn now(&self) -> Timestamp;
}

/// New identifiers (UUIDs).
pub trait IdGenerator: Send + Sync + Debug {
    fn new_uuid(&self) -> uuid::Uuid;
}

/// Cryptographically secure random bytes for secrets, keys and nonces.
pub trait Random: Send + Sync + Debug {
    fn fill(&self, dest: &mut [u8]);

    fn bytes32(&self) -> [u8; 32] {
        let mut bytes = [0; 32];
        self.fill(&mut bytes);
        bytes
    }

    fn nonce12(&self) -> [u8; 12] {
        let mut bytes = [0; 12];
        self.fill(&mut bytes);
        bytes
    }
}

/// A failure of the storage itself, not of the request.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StorageError {
    /// The database cannot be reached or is overloaded: worth retrying later (HTTP 503).
    #[error("storage is unavailable: {0}")]
    Unavailable(String),
    /// Anything else that went wrong in storage (HTTP 500).
    #[error("storage failed: {0}")]
    Internal(String),
}

/// Tenants, their operator tokens and the operators' console sessions.
#[async_trait]
pub trait TenantStore: Send + Sync + Debug {
    async fn create_tenant(&self, tenant: &Tenant, token: &OperatorTokenRecord) -> Result<(), StorageError>;
    /// Another operator token for an existing tenant, audited; whether the tenant exists.
    async fn add_operator_token(&self, token: &OperatorTokenRecord, audit: &AuditEntry) -> Result<bool, StorageError>;
    async fn find_tenant(&self, id: TenantId) -> Result<Option<Tenant>, StorageError>;
    /// The operator of an unrevoked token, recording its use at `now` (at most once a minute).
    async fn operator_for_token(
        &self,
        token_hash: &SecretHash,
        now: Timestamp,
    ) -> Result<Option<Operator>, StorageError>;
    /// The tenant's unrevoked tokens, oldest first.
    async fn list_operator_tokens(&self, tenant: TenantId) -> Result<Vec<OperatorTokenInfo>, StorageError>;
    /// Revokes a token and ends its console sessions, audited; whether an unrevoked token of the
    /// tenant was revoked.
    async fn revoke_operator_token(
        &self,
        tenant: TenantId,
        id: OperatorTokenId,
        audit: &AuditEntry,
    ) -> Result<bool, StorageError>;
    async fn insert_console_session(&self, session: &ConsoleSessionRecord) -> Result<(), StorageError>;
    /// The operator of a console session last seen after `idle_since` whose token is not revoked,
    /// recording that it was seen at `now` (at most once a minute).
    async fn console_session_operator(
        &self,
        secret_hash: &SecretHash,
        idle_since: Timestamp,
        now: Timestamp,
    ) -> Result<Option<Operator>, StorageError>;
    async fn delete_console_session(&self, secret_hash: &SecretHash) -> Result<(), StorageError>;
    /// Whether the tenant exists.
    async fn set_event_quota(&self, id: TenantId, quota: Option<u64>) -> Result<bool, StorageError>;
    /// Sets or clears the tenant's legal name; false when there is no such tenant.
    async fn set_legal_name(&self, id: TenantId, legal_name: Option<&Name>) -> Result<bool, StorageError>;
    /// Verified events counted in the period.
    async fn events_in_period(&self, id: TenantId, period: &QuotaPeriod) -> Result<u64, StorageError>;
}

/// The audit log as the operator reads it. Entries are written by the storage methods that make
/// the changes they record, in the same transaction.
#[async_trait]
pub trait AuditLogStore: Send + Sync + Debug {
    /// The tenant's entries, newest first by (`at`, id), strictly after `after`.
    async fn list_audit_entries(
        &self,
        tenant: TenantId,
        after: Option<&AuditPosition>,
        limit: usize,
    ) -> Result<Vec<AuditEntry>, StorageError>;
}

#[async_trait]
pub trait AppStore: Send + Sync + Debug {
    async fn insert_app(&self, app: &App, audit: &AuditEntry) -> Result<(), StorageError>;
    /// By the public App ID alone: only to identify the caller of a public or server-side route.
    async fn app_by_id(&self, id: AppId) -> Result<Option<App>, StorageError>;
    async fn find_app(&self, tenant: TenantId, id: AppId) -> Result<Option<App>, StorageError>;
    async fn list_apps(&self, tenant: TenantId) -> Result<Vec<App>, StorageError>;
    /// Writes one change to the tenant's app and sets its `updated_at` to `at`, audited, in one
    /// step; the app as stored afterwards, or none when there is no such app.
    async fn update_app(
        &self,
        tenant: TenantId,
        id: AppId,
        update: &AppUpdate,
        at: Timestamp,
        audit: &AuditEntry,
    ) -> Result<Option<App>, StorageError>;
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InsertVersionError {
    /// Another publish took this version number first.
    #[error("version {0} was published concurrently")]
    Conflict(VersionNumber),
    #[error(transparent)]
    Storage(#[from] StorageError),
}

#[async_trait]
pub trait TemplateStore: Send + Sync + Debug {
    async fn insert_template(&self, template: &Template, audit: &AuditEntry) -> Result<(), StorageError>;
    /// The template with all its versions.
    async fn find_template(&self, tenant: TenantId, id: TemplateId) -> Result<Option<Template>, StorageError>;
    async fn list_templates(&self, tenant: TenantId) -> Result<Vec<Template>, StorageError>;
    /// Writes one change to the tenant's template and sets its `updated_at` to `at`, audited, in
    /// one step; the template as stored afterwards (with its versions), or none when there is no
    /// such template.
    async fn update_template(
        &self,
        tenant: TenantId,
        id: TemplateId,
        update: &TemplateUpdate,
        at: Timestamp,
        audit: &AuditEntry,
    ) -> Result<Option<Template>, StorageError>;
    async fn insert_version(
        &self,
        tenant: TenantId,
        template: TemplateId,
        version: &TemplateVersion,
        audit: &AuditEntry,
    ) -> Result<(), InsertVersionError>;
}

/// Signs a tree head (with the ledger key); called by [`LedgerStore::advance_tree_head`].
pub type TreeHeadSigner<'a> = dyn Fn(&TreeHead) -> Result<SignedTreeHead, StorageError> + Send + Sync + 'a;

/// The evidence ledger: per tenant, an append-only Merkle log of verified events (leaves are
/// appended by [`EventStore::commit_verification`]) and its signed tree heads.
#[async_trait]
pub trait LedgerStore: Send + Sync + Debug {
    /// The current ledger key; `candidate` becomes it when there is none yet (safe when several
    /// instances start at once).
    async fn ensure_ledger_key(&self, candidate: &StoredLedgerKey) -> Result<StoredLedgerKey, StorageError>;

    /// Tenants whose log has leaves that no tree head covers yet (at most `limit`).
    async fn tenants_with_unsigned_leaves(&self, limit: usize) -> Result<Vec<TenantId>, StorageError>;

    /// Covers the leaves appended since the tenant's last tree head with a new one, which `sign`
    /// signs, and stores it; also makes the first (possibly empty) head of a log. `None` when
    /// there is nothing new, or when another instance is doing it at this moment.
    async fn advance_tree_head(
        &self,
        tenant: TenantId,
        sign: &TreeHeadSigner<'_>,
        now: Timestamp,
    ) -> Result<Option<SignedTreeHead>, StorageError>;

    /// The tenant's newest tree head.
    async fn latest_tree_head(&self, tenant: TenantId) -> Result<Option<SignedTreeHead>, StorageError>;

    /// The event's leaf, if the event is in the tenant's log.
    async fn ledger_leaf(&self, tenant: TenantId, event: EventId) -> Result<Option<StoredLeaf>, StorageError>;

    /// The hashes of the tenant's first `size` leaves, in order (fewer when the log is shorter).
    async fn leaf_hashes(&self, tenant: TenantId, size: u64) -> Result<Vec<Hash>, StorageError>;

    /// How many leaves the tenant's log has.
    async fn ledger_size(&self, tenant: TenantId) -> Result<u64, StorageError>;
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CommitVerificationError {
    /// Someone verified it first; nothing was written.
    #[error("the event was already verified as {}", .0.as_str())]
    AlreadyVerified(EventStatus),
    /// The tenant's quota for the period is used up; nothing was written.
    #[error("the event quota is used up")]
    QuotaExceeded,
    #[error("the event does not exist")]
    EventMissing,
    #[error(transparent)]
    Storage(#[from] StorageError),
}

#[async_trait]
pub trait EventStore: Send + Sync + Debug {
    /// Stores a new UNVERIFIED event.
    async fn insert_event(&self, event: &ClickwrapEvent) -> Result<(), StorageError>;
    async fn find_event(&self, tenant: TenantId, id: EventId) -> Result<Option<ClickwrapEvent>, StorageError>;
    /// The event with what verifying it needs of its tenant, in one read (a verification's only
    /// read before it commits).
    async fn find_event_to_verify(&self, tenant: TenantId, id: EventId) -> Result<Option<EventToVerify>, StorageError>;
    /// Moves the event to its verified state and writes certificate, outbox row and usage count,
    /// all or nothing, verifying at most once.
    async fn commit_verification(&self, record: &VerificationRecord) -> Result<(), CommitVerificationError>;
    /// Verified events matching `filter`, newest first by (`actionAt`, id), strictly after `after`.
    async fn list_verified_events(
        &self,
        tenant: TenantId,
        filter: &EventFilter,
        after: Option<&EventPosition>,
        limit: usize,
    ) -> Result<Vec<ClickwrapEvent>, StorageError>;
    /// Like [`Self::list_verified_events`], each with its certificate digest and webhook delivery
    /// (for exports: one query per batch, not per event).
    async fn list_verified_event_details(
        &self,
        tenant: TenantId,
        filter: &EventFilter,
        after: Option<&EventPosition>,
        limit: usize,
    ) -> Result<Vec<EventDetails>, StorageError>;
    /// What counts for acceptance of one template's `major` version by one end user.
    async fn consent_snapshot(
        &self,
        tenant: TenantId,
        end_user: &EndUserId,
        template: TemplateId,
        major: u32,
    ) -> Result<ConsentSnapshot, StorageError>;
    /// The end user's latest verified acceptance of the template (latest by `actionAt`), with
    /// the content exactly as it was shown.
    async fn last_accepted_event(
        &self,
        tenant: TenantId,
        end_user: &EndUserId,
        template: TemplateId,
    ) -> Result<Option<ClickwrapEvent>, StorageError>;
    async fn request_re_accept(
        &self,
        tenant: TenantId,
        end_user: &EndUserId,
        template: TemplateId,
        reason: Option<&str>,
        at: Timestamp,
    ) -> Result<(), StorageError>;
    async fn find_certificate(
        &self,
        tenant: TenantId,
        event: EventId,
    ) -> Result<Option<StoredCertificate>, StorageError>;
    async fn find_delivery_for_event(&self, tenant: TenantId, event: EventId)
    -> Result<Option<Delivery>, StorageError>;
    /// Verified events per UTC day of their `action_at` (when the end user acted) in
    /// [`from`, `to`), by action; days without events are left out.
    async fn daily_counts(
        &self,
        tenant: TenantId,
        from: Timestamp,
        to: Timestamp,
    ) -> Result<Vec<DailyCount>, StorageError>;
}

#[async_trait]
pub trait RateLimitStore: Send + Sync + Debug {
    /// Adds each entry's hits to the shared count of its key and window, all at once (instances
    /// sharing the store add up without a read-modify-write race); the shared counts after it, in
    /// the order of `batch`. Each key and window appears at most once; an empty batch does nothing.
    async fn add_hits(&self, batch: &[WindowHits]) -> Result<Vec<u64>, StorageError>;
}

#[async_trait]
pub trait KeyStore: Send + Sync + Debug {
    /// Every server key, the current one first, then the others newest first. `candidate` (which
    /// must be current) becomes the first key when there is none yet. Safe when several instances
    /// start at once: they all get the same keys.
    async fn ensure_keyring(&self, candidate: &StoredServerKey) -> Result<Vec<StoredServerKey>, StorageError>;

    /// Every server key, in the same order; none when there are none yet.
    async fn server_keys(&self) -> Result<Vec<StoredServerKey>, StorageError>;

    /// Makes `key` the current key; the key that was current is kept, replaced at `key.created_at`.
    async fn add_current_server_key(&self, key: &StoredServerKey) -> Result<(), StorageError>;

    /// Deletes a key that is not current; false when there is no such key (or it is current).
    async fn delete_server_key(&self, id: &KeyId) -> Result<bool, StorageError>;
}

/// Resolves a webhook URL's host and refuses it when it leads to a forbidden address.
#[async_trait]
pub trait WebhookTargetGuard: Send + Sync + Debug {
    async fn vet(&self, url: &WebhookUrl) -> Result<(), WebhookTargetRejected>;
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the webhook URL is rejected: {0}")]
pub struct WebhookTargetRejected(pub String);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the certificate could not be rendered: {0}")]
pub struct RenderError(pub String);

/// Renders and signs the Certificate of Acceptance (a PDF).
#[async_trait]
pub trait CertificateRenderer: Send + Sync + Debug {
    /// The Certificate of Acceptance, made once when the event is verified and stored. Async
    /// because its signature may be timestamped by a time-stamping authority (a network call); a
    /// renderer whose authority fails still renders, without the timestamp.
    async fn render_certificate(&self, facts: &CertificateFacts) -> Result<Vec<u8>, RenderError>;

    /// The agreement exactly as the end user was shown it (`facts.event.content`), followed by the
    /// certificate page(s), signed the same way (`GET /clickwrap-events/{id}/agreement`). CPU work,
    /// no IO (the use case runs it on the [`CpuPool`]): rendered again for every download, it is the same file each time (never timestamped).
    fn render_agreement(&self, facts: &CertificateFacts) -> Result<Vec<u8>, RenderError>;
}

/// Where CPU-heavy work runs (sanitizing content, rendering PDFs): in the server, a bounded pool of
/// threads apart from the ones that answer requests, so that one tenant's heavy request cannot
/// hold up another's (or `/healthz`). [`run_on_cpu_pool`] is the typed way to call it.
#[async_trait]
pub trait CpuPool: Send + Sync + Debug {
    /// Runs `work` to its end. A panic in `work` is resumed in the caller. Work the pool drops
    /// unrun (only while the process stops) is [`CpuPoolStopped`].
    async fn run(&self, work: Box<dyn FnOnce() + Send>) -> Result<(), CpuPoolStopped>;
}

/// The pool stopped before it ran the work: the process is stopping.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the service is stopping")]
pub struct CpuPoolStopped;

/// Runs `work` on `pool` and returns its result.
pub async fn run_on_cpu_pool<T, F>(pool: &dyn CpuPool, work: F) -> Result<T, CpuPoolStopped>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    let slot = std::sync::Arc::new(std::sync::Mutex::new(None));
    let filled = slot.clone();
    pool.run(Box::new(move || {
        let result = work();
        *filled.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(result);
    }))
    .await?;
    let result = slot.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take();
    result.ok_or(CpuPoolStopped)
}

/// Runs the work at once on the calling thread: for tests and tools that serve no requests.
#[derive(Debug, Default, Clone, Copy)]
pub struct InPlace;

#[async_trait]
impl CpuPool for InPlace {
    async fn run(&self, work: Box<dyn FnOnce() + Send>) -> Result<(), CpuPoolStopped> {
        work();
        Ok(())
    }
}

/// Tells the webhook dispatcher of this process that a delivery became due just now (a verification
/// committed one, an operator redelivered one), so that it claims it without waiting for its next
/// poll and without a database round trip. Only a hint: the outbox is what counts, and a dispatcher
/// that misses a hint finds the delivery by its poll. Called after the commit, never inside it.
pub trait OutboxSignal: Send + Sync + Debug {
    fn delivery_due(&self);
}

/// An [`OutboxSignal`] that tells no one: for tests and tools that run no dispatcher.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoOutboxSignal;

impl OutboxSignal for NoOutboxSignal {
    fn delivery_due(&self) {}
}

/// The webhook outbox as the dispatcher and the delivery history see it. Rows are written by
/// [`EventStore::commit_verification`]; this port leases them to dispatchers, records attempts and
/// serves the history. Every method that changes a delivery is conditional on the lease, so two
/// dispatchers on one store never work on the same delivery at once.
#[async_trait]
pub trait DeliveryStore: Send + Sync + Debug {
    /// Leases up to `limit` PENDING deliveries due at `now` (`next_attempt_at <= now`) whose lease
    /// is free or expired (`lease_until <= now`) to `owner` until `lease_until`, earliest due first.
    /// Concurrent callers never get the same delivery; an expired lease is taken over.
    async fn claim_due(
        &self,
        owner: LeaseOwner,
        now: Timestamp,
        lease_until: Timestamp,
        limit: usize,
    ) -> Result<Vec<ClaimedDelivery>, StorageError>;

    /// Records attempts and what became of their deliveries, each as if recorded alone and in
    /// order: the attempt row is always written (the request was sent); the delivery moves to the
    /// outcome (attempt counts up, lease cleared) only while `owner` still holds its lease and it is
    /// PENDING. All are recorded or, on an error, none. For each attempt, in order, whether its
    /// delivery was updated. One round trip for the whole batch, however many there are.
    async fn record_attempts(&self, owner: LeaseOwner, finished: &[FinishedAttempt])
    -> Result<Vec<bool>, StorageError>;

    /// [`Self::record_attempts`] of one attempt. Whether the delivery was updated.
    async fn record_attempt(
        &self,
        owner: LeaseOwner,
        attempt: &DeliveryAttempt,
        outcome: AttemptOutcome,
    ) -> Result<bool, StorageError> {
        let finished = [FinishedAttempt { attempt: attempt.clone(), outcome }];
        let updated = self.record_attempts(owner, &finished).await?;
        match updated.as_slice() {
            [updated] => Ok(*updated),
            other => Err(StorageError::Internal(format!("one attempt recorded, {} answers", other.len()))),
        }
    }

    /// Marks a leased delivery DISABLED without an attempt (its app's webhook is switched off or
    /// has no URL). Whether `owner` held the lease.
    async fn disable_leased(&self, owner: LeaseOwner, tenant: TenantId, id: DeliveryId) -> Result<bool, StorageError>;

    /// Gives up every lease `owner` holds (a dispatcher stopping): those deliveries are free to
    /// be claimed at once. How many were released.
    async fn release_leases(&self, owner: LeaseOwner) -> Result<u64, StorageError>;

    /// The app's deliveries, newest first by (`created_at`, id), strictly after `after`, each
    /// with its attempts (newest first).
    async fn list_deliveries(
        &self,
        tenant: TenantId,
        app: AppId,
        after: Option<&DeliveryPosition>,
        limit: usize,
    ) -> Result<Vec<DeliveryRecord>, StorageError>;

    /// One delivery of the tenant with its attempts (newest first).
    async fn find_delivery(&self, tenant: TenantId, id: DeliveryId) -> Result<Option<DeliveryRecord>, StorageError>;

    /// Sends a delivery again: a DELIVERED, FAILED or DISABLED one becomes PENDING, due at `now`,
    /// with a new round of attempts (the retry schedule starts over; the attempt count and history
    /// stay); a PENDING one becomes due at `now` if it was due later. Any lease ends, so an attempt
    /// in flight is history but no longer decides the delivery. Audited. Whether it exists.
    async fn redeliver(
        &self,
        tenant: TenantId,
        id: DeliveryId,
        now: Timestamp,
        audit: &AuditEntry,
    ) -> Result<bool, StorageError>;

    /// The tenant's FAILED deliveries, most recently failed first, each with its attempts.
    async fn failed_deliveries(&self, tenant: TenantId, limit: usize) -> Result<Vec<DeliveryRecord>, StorageError>;
}
