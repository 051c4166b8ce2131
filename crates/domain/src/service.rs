//! The application layer: [`ClickwrapService`] holds the ports and offers one method per use case.
//! The methods live next to their area (`apps/service.rs`, `templates/service.rs`, …); this file
//! holds what they share: the ports, the settings, the server keys and authentication.

use std::sync::Arc;

use time::Duration;

use crate::AppId;
use crate::apps::models::App;
use crate::keys::Keyring;
use crate::keys::management::{KeyringError, load_keyring};
use crate::keys::master::MasterKeys;
use crate::ledger::key::LoadLedgerKeyError;
use crate::ledger::tree_head::LedgerKey;
use crate::limits::counter::RateCounter;
use crate::limits::rate::{RateDecision, RateLimitKey, RateLimitPolicy};
use crate::ports::{
    AppStore, AuditLogStore, CertificateRenderer, Clock, CpuPool, DeliveryStore, EventStore, IdGenerator, InPlace,
    KeyStore, LedgerStore, NoOutboxSignal, OutboxSignal, Random, RateLimitStore, StorageError, TemplateStore,
    TenantStore, WebhookTargetGuard,
};
use crate::secrets::AppKey;
use crate::serving_cache::{AppsForgetOnWrite, ServingCacheTtl, ServingCaches, TemplatesForgetOnWrite};

/// Every port the use cases call.
#[derive(Debug, Clone)]
pub struct Ports {
    pub clock: Arc<dyn Clock>,
    pub ids: Arc<dyn IdGenerator>,
    pub random: Arc<dyn Random>,
    pub tenants: Arc<dyn TenantStore>,
    pub apps: Arc<dyn AppStore>,
    pub templates: Arc<dyn TemplateStore>,
    pub events: Arc<dyn EventStore>,
    pub rate_limits: Arc<dyn RateLimitStore>,
    pub keys: Arc<dyn KeyStore>,
    pub ledger: Arc<dyn LedgerStore>,
    pub audit: Arc<dyn AuditLogStore>,
    /// The webhook outbox: the delivery history and redeliveries.
    pub deliveries: Arc<dyn DeliveryStore>,
    pub webhook_guard: Arc<dyn WebhookTargetGuard>,
    pub certificates: Arc<dyn CertificateRenderer>,
    /// Where CPU-heavy work runs; in place unless [`Ports::with_cpu_pool`] says otherwise.
    pub cpu: Arc<dyn CpuPool>,
    /// Told when a delivery became due; nobody unless [`ClickwrapService::with_outbox_signal`] says
    /// otherwise.
    pub outbox: Arc<dyn OutboxSignal>,
}

impl Ports {
    /// Every storage port from one store that implements them all (as the PostgreSQL and the
    /// in-memory stores do), with the rest given.
    pub fn from_store<S>(
        store: Arc<S>,
        clock: Arc<dyn Clock>,
        ids: Arc<dyn IdGenerator>,
        random: Arc<dyn Random>,
        webhook_guard: Arc<dyn WebhookTargetGuard>,
        certificates: Arc<dyn CertificateRenderer>,
    ) -> Self
    where
        S: TenantStore
            + AppStore
            + TemplateStore
            + EventStore
            + RateLimitStore
            + KeyStore
            + LedgerStore
            + AuditLogStore
            + DeliveryStore
            + 'static,
    {
        Self {
            clock,
            ids,
            random,
            tenants: store.clone(),
            apps: store.clone(),
            templates: store.clone(),
            events: store.clone(),
            rate_limits: store.clone(),
            keys: store.clone(),
            ledger: store.clone(),
            audit: store.clone(),
            deliveries: store,
            webhook_guard,
            certificates,
            cpu: Arc::new(InPlace),
            outbox: Arc::new(NoOutboxSignal),
        }
    }

    /// The same ports with CPU-heavy work run on `cpu`.
    pub fn with_cpu_pool(self, cpu: Arc<dyn CpuPool>) -> Self {
        Self { cpu, ..self }
    }
}

/// Behaviour an operator can tune.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    /// How long a `serviceSignature` can be verified after it was issued.
    pub signature_ttl: Duration,
    pub rate_limit: RateLimitPolicy,
    /// How far in the future a client's `presentedAt` may lie (clock skew).
    pub presented_at_skew: Duration,
    /// How old a client's `presentedAt` may be.
    pub presented_at_max_age: Duration,
    /// How long the public endpoints may serve an app or template from memory while changes made
    /// through other instances are not announced to this one (see [`crate::serving_cache`]); zero
    /// turns the caches off.
    pub serving_cache_ttl: Duration,
    /// The same while changes are announced: a bound for an announcement that is lost. 10 s by
    /// default: a miss (an app and a template with its versions) costs the database about 2 ms, so at
    /// 1 s each instance pays that once a second for every app and template it serves; 10 s cuts it
    /// tenfold, while a lost announcement, a failure that goes unnoticed until the listening
    /// connection's next check, stays bounded by seconds (and so does `VERSION_SUPERSEDED`'s grace).
    pub serving_cache_ttl_announced: Duration,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            signature_ttl: Duration::days(7),
            rate_limit: RateLimitPolicy::per_hour(1000),
            presented_at_skew: Duration::minutes(5),
            presented_at_max_age: Duration::days(1),
            serving_cache_ttl: Duration::seconds(1),
            serving_cache_ttl_announced: Duration::seconds(10),
        }
    }
}

/// The use cases of the service over its ports.
#[derive(Debug, Clone)]
pub struct ClickwrapService {
    pub(crate) ports: Ports,
    pub(crate) keys: Keyring,
    /// Seals what the database keeps secret; never stored there.
    pub(crate) master: MasterKeys,
    /// Signs the evidence ledger's tree heads.
    pub(crate) ledger_key: Arc<LedgerKey>,
    pub(crate) settings: Settings,
    pub(crate) caches: ServingCaches,
    /// This instance's rate-limit counts, shared through [`Ports::rate_limits`] by
    /// [`Self::sync_rate_limits`].
    pub(crate) rate_counter: Arc<RateCounter>,
}

/// The caller could not be authenticated (HTTP 401). Deliberately says no more than that.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AuthError {
    #[error("the credentials are missing or wrong")]
    InvalidCredentials,
    #[error(transparent)]
    Storage(#[from] StorageError),
}

/// The service could not start: its server keys or its ledger key could not be loaded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StartServiceError {
    #[error(transparent)]
    Keyring(#[from] KeyringError),
    #[error(transparent)]
    LedgerKey(#[from] LoadLedgerKeyError),
}

/// Identifying the app of a public (App ID only) request failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PublicAppError {
    /// Unknown or malformed App ID (HTTP 404 "App ID not valid").
    #[error("the App ID is not valid")]
    UnknownApp,
    /// A browser origin the app does not allow (HTTP 403).
    #[error("this origin is not allowed to use the app")]
    OriginNotAllowed,
    #[error(transparent)]
    Storage(#[from] StorageError),
}

impl ClickwrapService {
    /// Loads the server keyring with the master keys, creating it on the very first start.
    pub async fn start(ports: Ports, settings: Settings, master: MasterKeys) -> Result<Self, StartServiceError> {
        let keys = load_keyring(&*ports.keys, &*ports.random, &master, ports.clock.now()).await?;
        Ok(Self::start_with_keyring(ports, settings, master, keys).await?)
    }

    /// [`Self::start`] with the keyring already loaded (by [`load_keyring`], with `master`), for a
    /// caller that loads it first to report a wrong master key before anything else is made.
    pub async fn start_with_keyring(
        mut ports: Ports,
        settings: Settings,
        master: MasterKeys,
        keys: Keyring,
    ) -> Result<Self, LoadLedgerKeyError> {
        let ledger_key = Arc::new(crate::ledger::key::load_ledger_key(&*ports.ledger, &*ports.random, &master).await?);
        let caches = ServingCaches::new(ServingCacheTtl {
            unannounced: settings.serving_cache_ttl,
            announced: settings.serving_cache_ttl_announced,
        });
        ports.apps = Arc::new(AppsForgetOnWrite { inner: ports.apps, cache: caches.apps.clone() });
        ports.templates = Arc::new(TemplatesForgetOnWrite { inner: ports.templates, cache: caches.templates.clone() });
        let rate_counter = Arc::new(RateCounter::new(settings.rate_limit));
        Ok(Self { ports, keys, master, ledger_key, settings, caches, rate_counter })
    }

    /// The same service telling `outbox` (the local webhook dispatcher) about deliveries that
    /// became due. The server sets it once the dispatcher exists, which needs the service first.
    pub fn with_outbox_signal(mut self, outbox: Arc<dyn OutboxSignal>) -> Self {
        self.ports.outbox = outbox;
        self
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    pub fn ports(&self) -> &Ports {
        &self.ports
    }

    /// What the public endpoints keep in memory, for whoever hears of changes made elsewhere.
    pub fn serving_caches(&self) -> &ServingCaches {
        &self.caches
    }

    /// The time by the service's clock: what adapters show states as of (a version SCHEDULED or
    /// EFFECTIVE), so that they never reach around the service for a port.
    pub fn now(&self) -> crate::Timestamp {
        self.ports.clock.now()
    }

    pub(crate) fn new_uuid(&self) -> uuid::Uuid {
        self.ports.ids.new_uuid()
    }

    /// The app of an `X-APP-ID` + `X-APP-KEY` pair; both must belong to the same integration.
    pub async fn authenticate_app(&self, app_id: &str, app_key: &str) -> Result<App, AuthError> {
        let app_id = AppId::parse(app_id).map_err(|_| AuthError::InvalidCredentials)?;
        // Always read from storage, never from the serving cache: a replaced key fails on every
        // instance the moment it was replaced (or its overlap ended).
        let app = self.ports.apps.app_by_id(app_id).await?.ok_or(AuthError::InvalidCredentials)?;
        let key_matches = app.accepts_app_key(app_key, self.now());
        if key_matches && AppKey::parse(app_key).is_ok() { Ok(app) } else { Err(AuthError::InvalidCredentials) }
    }

    /// The app of a public request that carries only the App ID, checked against its allowed origins.
    pub async fn identify_public_app(&self, app_id: &str, origin: Option<&str>) -> Result<Arc<App>, PublicAppError> {
        let app_id = AppId::parse(app_id).map_err(|_| PublicAppError::UnknownApp)?;
        let now = self.now();
        // A copy that refuses the origin may predate a change made through another instance (the
        // origin was allowed a moment ago): then storage decides.
        if let Some(app) = self.caches.apps.fresh(&app_id, now)
            && app.allows_origin(origin)
        {
            return Ok(app);
        }
        let loading = self.caches.apps.loading(now);
        let app = Arc::new(self.ports.apps.app_by_id(app_id).await?.ok_or(PublicAppError::UnknownApp)?);
        self.caches.apps.keep(app_id, app.clone(), loading);
        if app.allows_origin(origin) { Ok(app) } else { Err(PublicAppError::OriginNotAllowed) }
    }

    /// Seals a secret for storage with the master key; `binding` ties it to its row.
    pub fn seal_at_rest(&self, plaintext: &[u8], binding: &[u8]) -> Result<Vec<u8>, StorageError> {
        self.master
            .seal(plaintext, self.ports.random.nonce12(), binding)
            .map_err(|e| StorageError::Internal(e.to_string()))
    }

    /// Opens what [`Self::seal_at_rest`] sealed.
    pub fn open_at_rest(&self, sealed: &[u8], binding: &[u8]) -> Result<Vec<u8>, crate::secrets::OpenSecretError> {
        self.master.open(sealed, binding)
    }

    /// Counts a request against its rate limit and decides at once, in memory: from the key's
    /// shared count as of this instance's last [`Self::sync_rate_limits`] and its hits since.
    pub fn hit_rate_limit(&self, key: &RateLimitKey) -> RateDecision {
        self.rate_counter.hit(key, self.now())
    }

    /// Adds the rate-limit hits counted here since the last sync to the shared counts, in one
    /// statement, and learns those counts (what other instances added); how many keys it sent.
    /// Nothing moved: no statement. Failed: the hits are kept for the next sync.
    pub async fn sync_rate_limits(&self) -> Result<usize, StorageError> {
        let batch = self.rate_counter.take_unsynced(self.now());
        if batch.is_empty() {
            return Ok(0);
        }
        match self.ports.rate_limits.add_hits(&batch).await {
            Ok(totals) => {
                self.rate_counter.synced(&batch, &totals);
                Ok(batch.len())
            }
            Err(error) => {
                self.rate_counter.sync_failed(&batch);
                Err(error)
            }
        }
    }

    /// Rate-limit hits counted here and not yet in the shared counts.
    pub fn unsynced_rate_limit_hits(&self) -> u64 {
        self.rate_counter.unsynced_hits()
    }

    /// Rate-limit keys this instance counts in the current window.
    pub fn remembered_rate_limit_keys(&self) -> usize {
        self.rate_counter.remembered_keys()
    }
}
