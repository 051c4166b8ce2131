//! Composition: the database, the adapters, the use cases and the HTTP server, and the order in
//! which they start and stop.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use actix_web::body::MessageBody;
use actix_web::dev::{ServerHandle, ServiceRequest, ServiceResponse};
use actix_web::http::ConnectionType;
use actix_web::middleware::{Next, from_fn};
use actix_web::{HttpResponse, HttpServer, web};
use clickwrap_console::ConsoleState;
use clickwrap_domain::consent::signature::unverified_purge_cutoff;
use clickwrap_domain::keys::management::{KeyringError, load_keyring};
use clickwrap_domain::keys::master::MasterKeys;
use clickwrap_domain::limits::rate::RateLimitPolicy;
use clickwrap_domain::ports::{Clock, CpuPool};
use clickwrap_domain::service::{ClickwrapService, Ports, Settings};
use clickwrap_domain::serving_cache::ServingCaches;
use clickwrap_domain::system::{OsRandom, SystemClock, UuidV7};
use clickwrap_domain::webhooks::retention::DeliveryRetention;
use clickwrap_http::client_ip::TrustedProxies;
use clickwrap_http::export::export_response;
use clickwrap_http::openapi::{DocumentedParameters, OpenApiError};
use clickwrap_http::problem::ApiError;
use clickwrap_http::{ApiState, api};
use clickwrap_postgres::PgStore;
use clickwrap_postgres::database::{self, ConnectFailure, DatabaseError, DatabaseUrl, PoolSettings, Statements};
use clickwrap_postgres::notifications;
use clickwrap_webhooks::{Dispatcher, DispatcherConfig, RunningDispatcher, Waker};
use std::path::PathBuf;
use std::sync::Mutex;
use tokio::sync::watch;

use crate::config::{Config, Pooler};
use crate::cpu::{BoundedCpuPool, PooledRenderer};
use crate::metrics::{Metrics, Purged};
use crate::telemetry;

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub(crate) enum StartError {
    #[error("{0}")]
    Database(#[from] DatabaseError),
    #[error("the storage could not be prepared: {0}")]
    Storage(#[from] clickwrap_domain::ports::StorageError),
    #[error("cannot listen on {address}: {source}")]
    Listen { address: std::net::SocketAddr, source: std::io::Error },
    #[error("no master key is configured")]
    NoMasterKey,
    #[error(transparent)]
    Keyring(#[from] clickwrap_domain::keys::management::KeyringError),
    #[error(transparent)]
    LedgerKey(#[from] clickwrap_domain::ledger::key::LoadLedgerKeyError),
    /// The unknown-parameter check has no list to check against.
    #[error(transparent)]
    OpenApi(#[from] OpenApiError),
    #[error("{0}")]
    Other(String),
}

impl StartError {
    /// The process exit code: 3 when the database cannot be reached, 1 otherwise.
    pub(crate) fn exit_code(&self) -> u8 {
        match self {
            StartError::Database(DatabaseError::Connect { .. }) => 3,
            _ => 1,
        }
    }

    /// What to tell the operator, with a hint where one helps.
    pub(crate) fn explain(&self) -> String {
        match self {
            StartError::Database(DatabaseError::Connect { failure: ConnectFailure::Refused { .. }, .. }) => format!(
                "{self}\nStart a PostgreSQL server there (for example `pg_ctlcluster <version> main start` on \
                 Debian, or `docker run -p 5432:5432 -e POSTGRES_HOST_AUTH_METHOD=trust postgres`), or point \
                 DATABASE_URL at one. (`clickwrap-server demo` starts a private one itself when PostgreSQL's \
                 server programs are installed.)"
            ),
            StartError::Database(DatabaseError::Connect { failure: ConnectFailure::UnknownHost { .. }, .. }) => {
                format!("{self}\nCheck the host name in DATABASE_URL (and CLICKWRAP_MIGRATION_DATABASE_URL).")
            }
            StartError::Database(DatabaseError::Migrate(reason))
                if reason.contains("permission denied") || reason.contains("must be owner") =>
            {
                format!(
                    "{self}\nThe role in DATABASE_URL may not change the schema. Migrate as the owner: set \
                     CLICKWRAP_MIGRATION_DATABASE_URL to the owner's URL (docs/operations.md, least privilege)."
                )
            }
            StartError::NoMasterKey => {
                "no master key: set CLICKWRAP_MASTER_KEY_FILE to a file that holds 32 random bytes, \
                 base64 (the key that seals every secret the database holds; keep it outside the database \
                 and back it up). Make one with `clickwrap-server master-key generate --out FILE`."
                    .to_owned()
            }
            StartError::Keyring(KeyringError::NotSealed) => format!(
                "{self}.\nThis database was made before master keys. Seal its secrets once with the configured \
                 master key: `clickwrap-server master-key rotate` (see docs/operations.md)."
            ),
            StartError::Keyring(KeyringError::WrongMasterKey { .. }) => format!(
                "{self}.\nConfigure the master key this database was sealed with (CLICKWRAP_MASTER_KEY_FILE). While \
                 rotating to a new one, give the old one as CLICKWRAP_MASTER_KEY_PREVIOUS_FILE."
            ),
            other => other.to_string(),
        }
    }
}

/// The database is created when missing and migrated, as the schema's owner when
/// `CLICKWRAP_MIGRATION_DATABASE_URL` names one (the serving role is then granted what it needs),
/// else through `CLICKWRAP_DATABASE_DIRECT_URL` when given; the pool connects as `DATABASE_URL`.
pub(crate) async fn prepare_database(config: &Config) -> Result<PgStore, StartError> {
    let owner = config.schema_url();
    database::create_database_if_missing(owner).await?;
    database::migrate(owner).await?;
    if let Some(role) = serving_role(config) {
        database::grant_to_serving_role(owner, role).await?;
    }
    let statements = match config.database_pooler {
        Pooler::None => Statements::Prepared,
        Pooler::Transaction => Statements::Unnamed,
    };
    let pool = database::pool(
        &config.database_url,
        PoolSettings { max_size: config.pool_size, wait_timeout: Duration::from_secs(5), statements },
    )?;
    Ok(PgStore::new(pool))
}

/// The role `DATABASE_URL` connects as, when the schema is owned by another one.
pub(crate) fn serving_role(config: &Config) -> Option<&str> {
    let owner = config.migration_database_url.as_ref()?;
    config.database_url.user().filter(|role| Some(*role) != owner.user())
}

/// The configured master keys; starting without one is refused.
pub(crate) fn master_keys(config: &Config) -> Result<MasterKeys, StartError> {
    config.master_keys.clone().ok_or(StartError::NoMasterKey)
}

/// The use cases over the real adapters, and the PEM of the certificate signing identity.
pub(crate) async fn service(
    config: &Config,
    store: &PgStore,
    master: MasterKeys,
) -> Result<(ClickwrapService, String), StartError> {
    // The server keys first: a wrong master key is reported as such, before anything is made.
    let keyring = load_keyring(store, &OsRandom::default(), &master, SystemClock.now()).await?;
    let renderer = crate::certificates::renderer(config, store, &master).await?;
    let signing_certificate_pem = crate::certificates::published_pem(store, renderer.identity()).await?;
    let store = Arc::new(store.clone());
    let cpu: Arc<dyn CpuPool> = Arc::new(BoundedCpuPool::new(config.cpu_threads));
    let ports = Ports::from_store(
        store,
        Arc::new(SystemClock),
        Arc::new(UuidV7),
        Arc::new(OsRandom::default()),
        Arc::new(clickwrap_webhooks::AddressGuard::system(config.webhook_allow.clone())),
        Arc::new(PooledRenderer::new(Arc::new(renderer), cpu.clone())),
    )
    .with_cpu_pool(cpu);
    let settings = Settings {
        signature_ttl: time::Duration::try_from(config.signature_ttl).unwrap_or(time::Duration::days(7)),
        rate_limit: RateLimitPolicy::per_hour(config.rate_limit_per_hour),
        serving_cache_ttl: time::Duration::try_from(config.serving_cache_ttl).unwrap_or(time::Duration::ZERO),
        ..Settings::default()
    };
    Ok((ClickwrapService::start_with_keyring(ports, settings, master, keyring).await?, signing_certificate_pem))
}

/// Extra routes the server mounts next to the API.
pub(crate) type ExtraRoutes = Arc<dyn Fn(&mut web::ServiceConfig) + Send + Sync>;

/// Whether this instance is stopping. From the first stop signal on, `/readyz` answers 503 and
/// every answer carries `Connection: close`, so that load balancers and keep-alive clients move to
/// the other instances while this one still serves what reaches it.
#[derive(Debug, Clone, Default)]
pub(crate) struct Draining(Arc<AtomicBool>);

impl Draining {
    fn begin(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    fn is_on(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// SIGTERM and Ctrl-C (SIGINT), listened for from start-up on.
struct StopSignals {
    #[cfg(unix)]
    terminate: tokio::signal::unix::Signal,
}

impl StopSignals {
    fn listen() -> Result<Self, StartError> {
        Ok(Self {
            #[cfg(unix)]
            terminate: tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
                .map_err(|e| StartError::Other(format!("cannot listen for SIGTERM: {e}")))?,
        })
    }

    /// The next SIGTERM or Ctrl-C.
    async fn next(&mut self) {
        #[cfg(unix)]
        tokio::select! {
            _ = self.terminate.recv() => {}
            _ = tokio::signal::ctrl_c() => {}
        }
        #[cfg(not(unix))]
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// The stop (docs/operations.md, "Stopping"): on the first signal, `/readyz` answers 503 while the
/// instance serves on for `drain`, so that load balancers stop sending (a second signal cuts that
/// short); then the listener closes and requests in flight finish (at most 30 s).
async fn stop_on_signal(
    mut signals: StopSignals,
    server: ServerHandle,
    draining: Draining,
    drain: Duration,
    syncs: Arc<PeriodicSyncs>,
) {
    signals.next().await;
    draining.begin();
    tracing::info!(
        drain_secs = drain.as_secs(),
        "stop signal: /readyz answers 503; serving on for {} s so that load balancers stop sending",
        drain.as_secs()
    );
    tokio::select! {
        () = tokio::time::sleep(drain) => {}
        () = signals.next() => tracing::info!("second stop signal: the rest of the drain is skipped"),
    }
    tracing::info!("stopped accepting connections; letting requests in flight finish");
    syncs.end().await;
    server.stop(true).await;
}

/// The periodic rate-limit syncs, which end before the HTTP workers stop: a sync on a connection
/// the workers opened would be cut off when their runtimes end, mid-statement, counting its hits
/// twice (sent again) or not at all. The last sync runs after the stop, on a new connection.
#[derive(Debug, Default)]
struct PeriodicSyncs {
    /// Held by a sync while it runs, and by [`Self::end`] while it ends them.
    running: tokio::sync::Mutex<()>,
    ended: AtomicBool,
}

impl PeriodicSyncs {
    /// Waits for a sync in flight, and lets no other start.
    async fn end(&self) {
        let _running = self.running.lock().await;
        self.ended.store(true, Ordering::SeqCst);
    }
}

/// Answers `Connection: close` while draining, so a client's next request opens a connection
/// that the load balancer sends elsewhere, instead of meeting this instance's closing listener.
async fn close_connections_while_draining(
    request: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let draining = request.app_data::<web::Data<Draining>>().is_some_and(|draining| draining.is_on());
    let mut response = next.call(request).await?;
    if draining {
        response.response_mut().head_mut().set_connection_type(ConnectionType::Close);
    }
    Ok(response)
}

/// Serves until SIGTERM or Ctrl-C, then stops as [`stop_on_signal`] says, and stops the
/// background work: the webhook dispatcher records its attempts in flight and gives back its
/// claims, and the rate-limit counts are synced a last time.
pub(crate) async fn serve(
    config: Config,
    store: PgStore,
    (service, signing_certificate_pem): (ClickwrapService, String),
    extra: ExtraRoutes,
) -> Result<(), StartError> {
    // Before anything starts: without it, the API would take any misspelt query parameter.
    let documented_parameters = DocumentedParameters::compiled()?;
    let mut dispatcher_config = DispatcherConfig::with_settings(
        config.webhook_retry.clone(),
        config.webhook_timeout,
        config.webhook_allow.clone(),
        config.webhook_ca_file.clone().map(PathBuf::from),
    );
    dispatcher_config.poll_interval = config.poll_interval;
    let dispatcher = Dispatcher::new(dispatcher_config, service.clone())
        .map_err(|e| StartError::Other(format!("the webhook dispatcher could not start: {e}")))?;
    // This instance's verifications and redeliveries wake its dispatcher in process; other
    // instances' redeliveries and released leases arrive by NOTIFY, the rest by the poll.
    let service = service.with_outbox_signal(Arc::new(dispatcher.waker()));
    if config.listen_url().is_none() {
        tracing::info!(
            poll_ms = config.poll_interval.as_millis(),
            "DATABASE_URL is a transaction-mode pooler and CLICKWRAP_DATABASE_DIRECT_URL is not set: no LISTEN; this \
             instance polls for other instances' webhook deliveries, and serves their changes within \
             CLICKWRAP_SERVING_CACHE_MS"
        );
    }
    let listener = listen_for_announcements(config.listen_url().cloned(), dispatcher.waker(), service.serving_caches());
    // Shared with /metrics while serving, taken out for the graceful stop.
    let dispatcher = Arc::new(Mutex::new(Some(dispatcher.start())));
    let webhook_stats = WebhookStats(dispatcher.clone());

    let console = web::Data::new(ConsoleState {
        service: service.clone(),
        webhook_allow: config.webhook_allow.clone(),
        secure_cookies: config.public_url.starts_with("https://"),
        dialog_preview_json: clickwrap_http::dialog_preview_json,
        // The console's export is the operator API's, so both give the same file.
        export: Arc::new(|service, tenant, filter, format| {
            export_response(service, tenant, filter, format)
                .unwrap_or_else(|error| actix_web::ResponseError::error_response(&error))
        }),
    });
    let state = web::Data::new(ApiState {
        service,
        trusted_proxies: TrustedProxies::new(config.trusted_proxies.clone()),
        signing_certificate_pem,
        webhook_allow: config.webhook_allow.clone(),
        documented_parameters,
    });
    let metrics = web::Data::new(Metrics::default());
    let (stop_background, stopped) = watch::channel(false);
    let purge = tokio::spawn(purge_rate_limits(store.clone(), stopped.clone()));
    let periodic_syncs = Arc::new(PeriodicSyncs::default());
    let rate_limit_sync = tokio::spawn(sync_rate_limits(
        state.service.clone(),
        config.rate_limit_sync,
        periodic_syncs.clone(),
        stopped.clone(),
    ));
    let unverified_purge = tokio::spawn(purge_unverified_events(
        store.clone(),
        time::Duration::try_from(config.signature_ttl).unwrap_or(time::Duration::days(7)),
        time::Duration::try_from(config.unverified_event_grace).unwrap_or(time::Duration::ZERO),
        metrics.clone(),
        stopped.clone(),
    ));
    let webhook_purge = tokio::spawn(purge_webhook_deliveries(
        store.clone(),
        config.webhook_retention,
        metrics.clone(),
        stopped.clone(),
    ));
    let tree_heads = tokio::spawn(sign_tree_heads(state.service.clone(), stopped));

    let own_metrics_server = match config.metrics_listen {
        Some(address) => Some(metrics_server(
            address,
            metrics.clone(),
            store.clone(),
            webhook_stats.clone(),
            RateLimitStats(state.service.clone()),
        )?),
        None => None,
    };
    let metrics_here = own_metrics_server.is_none();
    let http_store = store.clone();
    let rate_limit_stats = web::Data::new(RateLimitStats(state.service.clone()));
    let draining = web::Data::new(Draining::default());
    let signals = StopSignals::listen()?;
    let http_draining = draining.clone();
    let server = HttpServer::new(move || {
        let store = http_store.clone();
        let extra = extra.clone();
        let console = console.clone();
        let draining = http_draining.clone();
        api(state.clone(), move |config| {
            system_routes(config, store, metrics_here, draining);
            clickwrap_console::configure(config, console);
            extra(config);
        })
        .app_data(metrics.clone())
        .app_data(web::Data::new(webhook_stats.clone()))
        .app_data(rate_limit_stats.clone())
        .app_data(http_draining.clone())
        .wrap(from_fn(close_connections_while_draining))
        .wrap(from_fn(telemetry::requests))
    })
    // Stopping is ours (`stop_on_signal`): actix would close the listener at the first signal.
    .disable_signals()
    .shutdown_timeout(30)
    .bind(config.listen)
    .map_err(|source| StartError::Listen { address: config.listen, source })?;
    for address in server.addrs() {
        tracing::info!(%address, "listening on http://{address}");
    }
    let own_metrics_server = own_metrics_server.map(|server| {
        let handle = server.handle();
        actix_web::rt::spawn(server);
        handle
    });
    let server = server.run();
    let stopper = tokio::spawn(stop_on_signal(
        signals,
        server.handle(),
        draining.get_ref().clone(),
        config.shutdown_drain,
        periodic_syncs,
    ));
    let served = server.await;
    stopper.abort();
    served.map_err(|e| StartError::Other(e.to_string()))?;
    tracing::info!("requests in flight are finished");
    if let Some(metrics) = own_metrics_server {
        metrics.stop(true).await;
    }

    // The connections the HTTP workers opened end with the workers' runtimes: the background
    // work's last statements run on new ones.
    store.close_idle_connections();
    tracing::info!("stopping background work");
    let _ = stop_background.send(true);
    let running = dispatcher.lock().ok().and_then(|mut slot| slot.take());
    if let Some(running) = running {
        let report = running.shutdown().await;
        tracing::info!(
            leases_released = report.leases_released,
            cut_off = report.cut_off,
            "webhook dispatcher stopped"
        );
    }
    if let Some(listener) = listener {
        listener.stop();
    }
    let _ = purge.await;
    let _ = rate_limit_sync.await;
    let _ = unverified_purge.await;
    let _ = webhook_purge.await;
    let _ = tree_heads.await;
    tracing::info!("stopped");
    Ok(())
}

/// One connection LISTENing for what every instance announces: webhook deliveries that became due
/// (they wake this instance's dispatcher) and changes of apps and templates (this instance's serving
/// caches forget them). Without a session connection to listen on, nobody does: the dispatcher finds
/// deliveries by its poll, and the caches keep the short time to live, which alone bounds how long a
/// change made through another instance goes unseen.
fn listen_for_announcements(
    url: Option<DatabaseUrl>,
    dispatcher: Waker,
    caches: &ServingCaches,
) -> Option<notifications::Listener> {
    let subscribers: Vec<(&'static str, Arc<dyn notifications::Subscriber>)> = vec![
        (notifications::WEBHOOKS, Arc::new(notifications::WebhookWakeUps(move || dispatcher.wake()))),
        (notifications::SERVING, Arc::new(notifications::ServingCacheUpdates(caches.clone()))),
    ];
    Some(notifications::listen(url?, subscribers))
}

/// `/metrics` alone on its own address (`CLICKWRAP_METRICS_LISTEN`), so that it can be kept off
/// the public listener; it stops with the main server.
fn metrics_server(
    address: std::net::SocketAddr,
    metrics: web::Data<Metrics>,
    store: PgStore,
    webhook_stats: WebhookStats,
    rate_limit_stats: RateLimitStats,
) -> Result<actix_web::dev::Server, StartError> {
    let server = HttpServer::new(move || {
        actix_web::App::new()
            .app_data(metrics.clone())
            .app_data(web::Data::new(store.clone()))
            .app_data(web::Data::new(webhook_stats.clone()))
            .app_data(web::Data::new(rate_limit_stats.clone()))
            .service(clickwrap_http::resource("/metrics", "GET").route(web::get().to(self::metrics)))
            .default_service(web::to(|| async {
                Err::<HttpResponse, _>(ApiError::not_found("ROUTE_NOT_FOUND", "only /metrics is served here"))
            }))
    })
    .workers(1)
    .disable_signals()
    .bind(address)
    .map_err(|source| StartError::Listen { address, source })?;
    for address in server.addrs() {
        tracing::info!(%address, "metrics on http://{address}/metrics");
    }
    Ok(server.run())
}

fn system_routes(config: &mut web::ServiceConfig, store: PgStore, with_metrics: bool, draining: web::Data<Draining>) {
    let ready_store = store.clone();
    config
        .app_data(web::Data::new(store))
        .service(
            clickwrap_http::resource("/healthz", "GET")
                .route(web::get().to(|| async { HttpResponse::Ok().json(serde_json::json!({"status": "ok"})) })),
        )
        .service(clickwrap_http::resource("/readyz", "GET").route(web::get().to(move || {
            let store = ready_store.clone();
            let draining = draining.clone();
            async move {
                if draining.is_on() {
                    return Err(ApiError::unavailable());
                }
                match store.ping().await {
                    Ok(()) => Ok(HttpResponse::Ok().json(serde_json::json!({"status": "ready"}))),
                    Err(_) => Err(ApiError::unavailable()),
                }
            }
        })))
        .configure(clickwrap_http::openapi::configure);
    if with_metrics {
        config.service(clickwrap_http::resource("/metrics", "GET").route(web::get().to(metrics)));
    }
}

/// The running webhook dispatcher, for its counters.
#[derive(Debug, Clone)]
pub(crate) struct WebhookStats(Arc<Mutex<Option<RunningDispatcher>>>);

/// The use cases, for the rate-limit counts this instance holds.
#[derive(Debug, Clone)]
pub(crate) struct RateLimitStats(ClickwrapService);

async fn metrics(
    metrics: web::Data<Metrics>,
    store: web::Data<PgStore>,
    webhooks: web::Data<WebhookStats>,
    rate_limits: web::Data<RateLimitStats>,
) -> HttpResponse {
    let status = store.pool().status();
    let mut text = metrics.render((status.size, status.available, status.max_size));
    if let Some(stats) = webhooks.0.lock().ok().and_then(|slot| slot.as_ref().map(RunningDispatcher::stats)) {
        text.push_str(&crate::metrics::render_webhooks(&stats));
    }
    text.push_str(&crate::metrics::render_rate_limits(
        rate_limits.0.unsynced_rate_limit_hits(),
        rate_limits.0.remembered_rate_limit_keys(),
    ));
    HttpResponse::Ok().content_type("text/plain; version=0.0.4").body(text)
}

/// How often each instance signs new tree heads for the evidence ledgers that grew.
const TREE_HEAD_INTERVAL: Duration = Duration::from_secs(2);

/// The ledger's tree-head task: every couple of seconds, a signed tree head for each tenant whose
/// log grew. Instances share the work (a tenant being signed by one is skipped by the others).
async fn sign_tree_heads(service: ClickwrapService, mut stop: watch::Receiver<bool>) {
    loop {
        tokio::select! {
            _ = tokio::time::sleep(TREE_HEAD_INTERVAL) => {}
            _ = stop.changed() => return,
        }
        match service.sign_tree_heads().await {
            Ok(0) => {}
            Ok(signed) => tracing::debug!(signed, "signed ledger tree heads"),
            Err(error) => tracing::warn!(%error, "signing ledger tree heads failed"),
        }
    }
}

/// Every `interval`: this instance's rate-limit hits are added to the shared counts, and it learns
/// what the other instances added (one statement, none when nothing moved). A failed sync (the
/// database away) keeps the hits for the next one; requests are decided in memory meanwhile. On
/// stop, after the last request, a last sync, so that the hits are not lost to the others.
async fn sync_rate_limits(
    service: ClickwrapService,
    interval: Duration,
    periodic: Arc<PeriodicSyncs>,
    mut stop: watch::Receiver<bool>,
) {
    let mut failing = false;
    loop {
        let stopping = tokio::select! {
            _ = tokio::time::sleep(interval) => false,
            _ = stop.changed() => true,
        };
        let _running = if stopping { None } else { Some(periodic.running.lock().await) };
        if !stopping && periodic.ended.load(Ordering::SeqCst) {
            continue;
        }
        match service.sync_rate_limits().await {
            Ok(keys) => {
                if failing {
                    tracing::info!(keys, "rate-limit counts are synced again");
                }
                failing = false;
            }
            // Once per outage, not every interval.
            Err(error) if !failing => {
                failing = true;
                tracing::warn!(%error, unsynced_hits = service.unsynced_rate_limit_hits(), "syncing rate-limit counts failed; retrying every interval");
            }
            Err(_) => {}
        }
        if stopping {
            return;
        }
    }
}

/// Every ten minutes: old rate-limit windows and idle console sessions are deleted.
async fn purge_rate_limits(store: PgStore, mut stop: watch::Receiver<bool>) {
    loop {
        tokio::select! {
            _ = tokio::time::sleep(PURGE_INTERVAL) => {}
            _ = stop.changed() => return,
        }
        let now = time::OffsetDateTime::now_utc();
        let before = clickwrap_domain::Timestamp::from_datetime(now - time::Duration::hours(2));
        match store.purge_rate_limit_windows(before).await {
            Ok(purged) => tracing::debug!(purged, "purged rate-limit windows"),
            Err(error) => tracing::warn!(%error, "purging rate-limit windows failed"),
        }
        let idle = clickwrap_domain::Timestamp::from_datetime(now)
            .saturating_sub(clickwrap_domain::tenants::service::CONSOLE_SESSION_IDLE);
        match store.purge_console_sessions(idle).await {
            Ok(purged) => tracing::debug!(purged, "purged idle console sessions"),
            Err(error) => tracing::warn!(%error, "purging idle console sessions failed"),
        }
    }
}

/// How often the retention purges run.
const PURGE_INTERVAL: Duration = Duration::from_secs(600);

/// How many unverified events one statement of the purge deletes.
const UNVERIFIED_PURGE_BATCH: u16 = 1000;

/// Every ten minutes (the first time at once): unverified events whose Signature expired more than
/// the grace period ago are deleted. Instances running it at once share the rows (see
/// [`PgStore::purge_unverified_events`]).
async fn purge_unverified_events(
    store: PgStore,
    signature_ttl: time::Duration,
    grace: time::Duration,
    metrics: web::Data<Metrics>,
    mut stop: watch::Receiver<bool>,
) {
    loop {
        let cutoff = unverified_purge_cutoff(
            clickwrap_domain::Timestamp::from_datetime(time::OffsetDateTime::now_utc()),
            signature_ttl,
            grace,
        );
        match store.purge_unverified_events(cutoff, UNVERIFIED_PURGE_BATCH).await {
            Ok(0) => {}
            Ok(purged) => {
                metrics.count_purged(Purged::UnverifiedEvents, u64::try_from(purged).unwrap_or(u64::MAX));
                tracing::info!(purged, "purged unverified events past their Signature's lifetime");
            }
            Err(error) => tracing::warn!(%error, "purging unverified events failed"),
        }
        tokio::select! {
            _ = tokio::time::sleep(PURGE_INTERVAL) => {}
            _ = stop.changed() => return,
        }
    }
}

/// How many webhook deliveries of each finished state (delivered, failed, disabled) one batch of
/// the purge deletes, with their attempts (one to four per round of retries).
const WEBHOOK_PURGE_BATCH: u16 = 500;

/// Every ten minutes (the first time at once): finished webhook deliveries past their retention
/// period are deleted with their attempts, batch after batch, each batch its own short transaction,
/// until none is left or the server stops. One instance purges at a time: when a batch finds another
/// instance purging, this one leaves the round to it (see [`PgStore::purge_webhook_delivery_batch`]).
async fn purge_webhook_deliveries(
    store: PgStore,
    retention: DeliveryRetention,
    metrics: web::Data<Metrics>,
    mut stop: watch::Receiver<bool>,
) {
    loop {
        let cutoffs = retention.cutoffs(clickwrap_domain::Timestamp::from_datetime(time::OffsetDateTime::now_utc()));
        let (mut deliveries, mut attempts) = (0, 0);
        while !*stop.borrow() {
            match store.purge_webhook_delivery_batch(cutoffs, WEBHOOK_PURGE_BATCH).await {
                Ok(Some(batch)) => {
                    metrics.count_purged(Purged::WebhookDeliveries, batch.deliveries);
                    metrics.count_purged(Purged::WebhookAttempts, batch.attempts);
                    deliveries += batch.deliveries;
                    attempts += batch.attempts;
                    if !batch.more {
                        break;
                    }
                }
                Ok(None) => {
                    tracing::debug!("another instance is purging webhook deliveries; leaving this round to it");
                    break;
                }
                Err(error) => {
                    tracing::warn!(%error, "purging webhook deliveries failed");
                    break;
                }
            }
        }
        if deliveries > 0 {
            tracing::info!(deliveries, attempts, "purged webhook deliveries past their retention period");
        }
        tokio::select! {
            _ = tokio::time::sleep(PURGE_INTERVAL) => {}
            _ = stop.changed() => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_openapi_document_without_parameters_stops_the_start_with_its_reason() {
        let error = StartError::from(DocumentedParameters::from_document("{}").unwrap_err());
        assert_eq!(error.exit_code(), 1);
        assert_eq!(error.explain(), "the compiled OpenAPI document has no `paths` object");
    }
}
