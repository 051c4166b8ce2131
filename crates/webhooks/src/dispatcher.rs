//! The dispatcher: works off the webhook outbox inside the server process.
//!
//! One claiming loop per dispatcher leases due deliveries in batches, as many as it has free
//! attempt slots (`concurrency`), and starts one task per delivery. Each task sends its attempt
//! outside any database transaction and hands the result to the recorder, which records every
//! attempt that finished while its previous statement was in flight with one statement (that ends
//! their leases), then frees their slots together, so that the next claim asks for all of them at
//! once. So a slow receiver holds one slot, never a batch, and the database sees one claim and one
//! record statement per batch, not per delivery.
//!
//! The claiming loop sleeps until it is woken ([`Waker`]: by this process's verifications and
//! redeliveries through the domain's `OutboxSignal`, by the PostgreSQL listener for other
//! instances' redeliveries and released leases) or its poll interval passes (deliveries other
//! instances wrote, retries falling due, leases of a dead instance run out). Wake-ups that arrive
//! while it claims fold into one more claim.
//!
//! Several dispatchers (server instances) may share one database: a delivery is leased to one of
//! them at a time. If one dies, its leases run out and the others take its deliveries over; on a
//! graceful stop it lets attempts in flight finish (for at most `shutdown_grace`), records them and
//! gives back its leases at once.

use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use bytes::Bytes;
use clickwrap_domain::apps::models::App;
use clickwrap_domain::ports::{DeliveryStore, OutboxSignal, StorageError};
use clickwrap_domain::service::ClickwrapService;
use clickwrap_domain::webhooks::dispatch::{AttemptOutcome, ClaimedDelivery, FinishedAttempt, LeaseOwner, is_success};
use clickwrap_domain::webhooks::models::{AttemptError, DeliveryAttempt};
use clickwrap_domain::webhooks::signing::{sign, sign_standard};
use clickwrap_domain::{AppId, Timestamp};
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore, mpsc, oneshot};
use tokio::task::JoinSet;

use crate::client::{ClientSetupError, Response, SendError, SignedHeaders, WebhookClient};
use crate::config::{ConfigError, DispatcherConfig};

/// The dispatcher could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum DispatcherError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Client(#[from] ClientSetupError),
}

/// Wakes a dispatcher: call [`Waker::wake`] when a delivery may have become due (the domain does
/// after a verification or a redelivery, as the service's `OutboxSignal`; the PostgreSQL adapter's
/// `deliveries::listen` does on every NOTIFY). Wake-ups given while the dispatcher is busy fold
/// into one. Cheap to clone.
#[derive(Clone)]
pub struct Waker(Arc<Notify>);

impl Waker {
    pub fn wake(&self) {
        self.0.notify_one();
    }
}

impl OutboxSignal for Waker {
    fn delivery_due(&self) {
        self.wake();
    }
}

impl fmt::Debug for Waker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Waker")
    }
}

/// Counters since the dispatcher started (for metrics).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DispatcherStats {
    /// Attempts made (requests sent or refused), whatever their outcome.
    pub attempts: u64,
    /// Deliveries that got their 200 (recorded).
    pub delivered: u64,
    /// Deliveries that failed their last attempt (recorded).
    pub failed: u64,
    /// Deliveries not sent because the app's webhook is off or has no URL.
    pub disabled: u64,
    /// Attempts in flight right now.
    pub in_flight: u64,
}

#[derive(Debug, Default)]
struct Counters {
    attempts: AtomicU64,
    delivered: AtomicU64,
    failed: AtomicU64,
    disabled: AtomicU64,
    in_flight: AtomicU64,
}

impl Counters {
    fn snapshot(&self) -> DispatcherStats {
        DispatcherStats {
            attempts: self.attempts.load(Ordering::Relaxed),
            delivered: self.delivered.load(Ordering::Relaxed),
            failed: self.failed.load(Ordering::Relaxed),
            disabled: self.disabled.load(Ordering::Relaxed),
            in_flight: self.in_flight.load(Ordering::Relaxed),
        }
    }
}

/// How a dispatcher stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShutdownReport {
    /// Attempts that were cut off because they outlasted the grace period.
    pub cut_off: usize,
    /// Leases given back (deliveries claimed but not finished).
    pub leases_released: u64,
    pub stats: DispatcherStats,
}

/// Counts an attempt in flight until dropped (also when the task is cut off).
struct InFlight<'a>(&'a AtomicU64);

impl<'a> InFlight<'a> {
    fn enter(counter: &'a AtomicU64) -> Self {
        counter.fetch_add(1, Ordering::Relaxed);
        Self(counter)
    }
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

struct Inner {
    config: DispatcherConfig,
    client: WebhookClient,
    service: ClickwrapService,
    store: Arc<dyn DeliveryStore>,
    owner: LeaseOwner,
    wake: Arc<Notify>,
    counters: Counters,
}

/// Sends the outbox's webhooks. Build it with [`Dispatcher::new`], then [`Dispatcher::start`] it
/// (or drive [`Dispatcher::run`] yourself).
#[derive(Clone)]
pub struct Dispatcher {
    inner: Arc<Inner>,
}

impl fmt::Debug for Dispatcher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Dispatcher")
            .field("owner", &self.inner.owner)
            .field("config", &self.inner.config)
            .field("stats", &self.inner.counters.snapshot())
            .finish_non_exhaustive()
    }
}

/// A started dispatcher.
#[derive(Debug)]
pub struct RunningDispatcher {
    dispatcher: Dispatcher,
    stop: Option<oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<ShutdownReport>,
}

impl RunningDispatcher {
    pub fn waker(&self) -> Waker {
        self.dispatcher.waker()
    }

    pub fn stats(&self) -> DispatcherStats {
        self.dispatcher.stats()
    }

    pub fn owner(&self) -> LeaseOwner {
        self.dispatcher.owner()
    }

    /// Stops claiming, lets attempts in flight finish (at most `shutdown_grace`), gives back the
    /// remaining leases.
    pub async fn shutdown(mut self) -> ShutdownReport {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let stats = self.dispatcher.stats();
        (&mut self.task).await.unwrap_or(ShutdownReport { cut_off: 0, leases_released: 0, stats })
    }
}

impl Dispatcher {
    /// A dispatcher over the service: its apps and their signing secrets, its clock, and the outbox
    /// (its [`DeliveryStore`] port). Each dispatcher holds leases under an owner id of its own.
    pub fn new(config: DispatcherConfig, service: ClickwrapService) -> Result<Self, DispatcherError> {
        config.validate()?;
        let store = service.ports().deliveries.clone();
        let client = WebhookClient::new(&config.client)?;
        let owner = LeaseOwner::from_uuid(uuid::Uuid::new_v4());
        let inner = Inner {
            config,
            client,
            service,
            store,
            owner,
            wake: Arc::new(Notify::new()),
            counters: Counters::default(),
        };
        Ok(Self { inner: Arc::new(inner) })
    }

    pub fn waker(&self) -> Waker {
        Waker(self.inner.wake.clone())
    }

    pub fn owner(&self) -> LeaseOwner {
        self.inner.owner
    }

    pub fn stats(&self) -> DispatcherStats {
        self.inner.counters.snapshot()
    }

    /// Runs on a task of the current Tokio runtime until [`RunningDispatcher::shutdown`].
    pub fn start(self) -> RunningDispatcher {
        let (stop, stopped) = oneshot::channel::<()>();
        let runner = self.clone();
        let task = tokio::spawn(async move {
            runner
                .run(async move {
                    let _ = stopped.await;
                })
                .await
        });
        RunningDispatcher { dispatcher: self, stop: Some(stop), task }
    }

    /// Works off the outbox until `shutdown` completes, then stops as [`RunningDispatcher::shutdown`]
    /// describes.
    pub async fn run(self, shutdown: impl Future<Output = ()> + Send) -> ShutdownReport {
        let inner = self.inner;
        let slots = Arc::new(Semaphore::new(inner.config.concurrency));
        let (finished, to_record) = mpsc::unbounded_channel();
        let recorder = tokio::spawn(inner.clone().record_finished(to_record));
        let mut tasks = JoinSet::new();
        let mut shutdown = std::pin::pin!(shutdown);
        tracing::info!(owner = %inner.owner, "webhook dispatcher started");
        loop {
            while tasks.try_join_next().is_some() {}
            let first = tokio::select! {
                biased;
                () = &mut shutdown => break,
                permit = slots.clone().acquire_owned() => match permit {
                    Ok(permit) => permit,
                    Err(_) => break,
                },
            };
            let mut permits = vec![first];
            while permits.len() < inner.config.batch_size {
                match slots.clone().try_acquire_owned() {
                    Ok(permit) => permits.push(permit),
                    Err(_) => break,
                }
            }
            let wanted = permits.len();
            let claimed = match inner.claim(wanted).await {
                Ok(claimed) => claimed,
                Err(error) => {
                    tracing::warn!(%error, "claiming webhook deliveries failed");
                    Vec::new()
                }
            };
            let more = claimed.len() == wanted;
            if claimed.len() > wanted {
                // A store must not do this; if one does, the extra deliveries are leased to us and
                // would wait out their lease unsent, so they are sent too, each with a slot.
                tracing::error!(wanted, claimed = claimed.len(), "the store claimed more deliveries than asked");
            }
            if !claimed.is_empty() {
                let apps = inner.apps_of(&claimed).await;
                let mut permits = permits.into_iter();
                for claim in claimed {
                    let permit = match permits.next() {
                        Some(permit) => permit,
                        None => match slots.clone().acquire_owned().await {
                            Ok(permit) => permit,
                            Err(_) => break,
                        },
                    };
                    let app = apps.get(&claim.delivery.app_id).cloned().flatten();
                    let inner = inner.clone();
                    let finished = finished.clone();
                    tasks.spawn(async move { inner.deliver(claim, app, permit, finished).await });
                }
            } else {
                drop(permits);
            }
            if !more {
                tokio::select! {
                    biased;
                    () = &mut shutdown => break,
                    () = inner.wake.notified() => {}
                    () = tokio::time::sleep(inner.config.poll_interval) => {}
                }
            }
        }
        inner.stop(tasks, finished, recorder).await
    }
}

/// An attempt that is over, on its way to the recorder with the slot it held.
struct Finished {
    attempt: FinishedAttempt,
    slot: OwnedSemaphorePermit,
}

/// At most this many attempts are recorded by one statement (a batch is bounded by `concurrency`
/// anyway; this bounds the statement if that is set very high).
const RECORD_BATCH_MAX: usize = 256;

impl Inner {
    fn now(&self) -> Timestamp {
        self.service.now()
    }

    async fn claim(&self, limit: usize) -> Result<Vec<ClaimedDelivery>, StorageError> {
        let now = self.now();
        let lease = time::Duration::try_from(self.config.lease).unwrap_or(time::Duration::MINUTE);
        self.store.claim_due(self.owner, now, now.saturating_add(lease), limit).await
    }

    /// The apps of a batch, each read once. `None` for an app that no longer exists; an app that
    /// cannot be read now is left out, and its deliveries wait for their lease to run out.
    async fn apps_of(&self, claimed: &[ClaimedDelivery]) -> HashMap<AppId, Option<Arc<App>>> {
        let mut apps = HashMap::new();
        for claim in claimed {
            let id = claim.delivery.app_id;
            if apps.contains_key(&id) {
                continue;
            }
            match self.service.ports().apps.app_by_id(id).await {
                Ok(app) => {
                    apps.insert(id, app.map(Arc::new));
                }
                Err(error) => tracing::warn!(app = %id, %error, "cannot read the app of a webhook delivery"),
            }
        }
        apps
    }

    async fn deliver(
        self: Arc<Self>,
        claim: ClaimedDelivery,
        app: Option<Arc<App>>,
        permit: OwnedSemaphorePermit,
        finished: mpsc::UnboundedSender<Finished>,
    ) {
        let delivery = &claim.delivery;
        let Some(app) = app else {
            // Either unknown (cannot happen with the foreign key) or unreadable right now: let the
            // lease run out and try again later.
            tracing::warn!(delivery = %delivery.id, "the delivery's app is not available; retrying later");
            return;
        };
        let url = match (&app.webhook_url, app.webhook_enabled) {
            (Some(url), true) => url.clone(),
            _ => {
                match self.store.disable_leased(self.owner, delivery.tenant_id, delivery.id).await {
                    Ok(_) => {
                        self.counters.disabled.fetch_add(1, Ordering::Relaxed);
                    }
                    Err(error) => tracing::warn!(delivery = %delivery.id, %error, "cannot mark a delivery DISABLED"),
                }
                return;
            }
        };
        let in_flight = InFlight::enter(&self.counters.in_flight);
        let started_at = self.now();
        let clock = Instant::now();
        let result = match self.service.webhook_secret(&app) {
            Ok(secret) => {
                // A fresh timestamp for every attempt: the receiver checks it against its clock. The
                // message id stays, whatever the attempt: it is the receiver's idempotency key.
                let timestamp_secs = self.now().unix_seconds();
                let body = delivery.payload.as_bytes();
                let message_id = delivery.message_id();
                let signed = SignedHeaders {
                    timestamp_secs,
                    service_signature: sign(secret.expose().as_bytes(), timestamp_secs, body),
                    standard_signature: sign_standard(&secret.standard_key(), &message_id, timestamp_secs, body),
                    message_id,
                };
                self.client.post(&url, &signed, Bytes::from(delivery.payload.clone())).await
            }
            Err(error) => Err(SendError { class: AttemptError::SigningSecret, detail: error.to_string() }),
        };
        let duration_ms = u32::try_from(clock.elapsed().as_millis()).unwrap_or(u32::MAX);
        drop(in_flight);
        self.counters.attempts.fetch_add(1, Ordering::Relaxed);

        let (status, excerpt, error) = match result {
            Ok(Response { status, excerpt }) => {
                let error = (!is_success(status)).then_some(AttemptError::UnexpectedStatus);
                (Some(status), Some(excerpt), error)
            }
            Err(SendError { class, detail }) => {
                tracing::info!(delivery = %delivery.id, url = %url, error = %detail, "webhook attempt failed");
                (None, None, Some(class))
            }
        };
        let attempt = DeliveryAttempt {
            id: self.service.ports().ids.new_uuid(),
            tenant_id: delivery.tenant_id,
            delivery_id: delivery.id,
            number: claim.next_attempt_number(),
            request_body: delivery.payload.clone(),
            response_status: status,
            response_excerpt: excerpt,
            error,
            started_at,
            duration_ms,
        };
        let outcome = self.config.retry.outcome(error.is_none(), claim.round_attempts.saturating_add(1), self.now());
        // The recorder outlives every task (it stops when the last sender is gone).
        let _ = finished.send(Finished { attempt: FinishedAttempt { attempt, outcome }, slot: permit });
    }

    /// The recorder: records what finished, a batch per statement, until every sender is gone.
    /// Attempts that finish while a statement is in flight wait for the next one, so batches grow
    /// with the load and an idle dispatcher records at once.
    async fn record_finished(self: Arc<Self>, mut to_record: mpsc::UnboundedReceiver<Finished>) {
        let mut batch = Vec::new();
        while to_record.recv_many(&mut batch, RECORD_BATCH_MAX).await > 0 {
            let (attempts, slots): (Vec<FinishedAttempt>, Vec<OwnedSemaphorePermit>) =
                batch.drain(..).map(|f| (f.attempt, f.slot)).unzip();
            let updated = self.record(&attempts).await;
            for (done, updated) in attempts.iter().zip(updated) {
                if !updated {
                    continue;
                }
                match done.outcome {
                    AttemptOutcome::Delivered => self.counters.delivered.fetch_add(1, Ordering::Relaxed),
                    AttemptOutcome::Failed => self.counters.failed.fetch_add(1, Ordering::Relaxed),
                    AttemptOutcome::Retry { .. } => 0,
                };
            }
            // Freed as one, so the claiming loop, woken by the first, sees them all.
            let mut slots = slots.into_iter();
            if let Some(mut freed) = slots.next() {
                slots.for_each(|slot| freed.merge(slot));
                drop(freed);
            }
        }
    }

    /// Records attempts, retrying a few times while the database is briefly away: an attempt not
    /// recorded is sent again when its lease runs out. For each, whether its delivery took the
    /// outcome.
    async fn record(&self, attempts: &[FinishedAttempt]) -> Vec<bool> {
        let mut wait = Duration::from_millis(100);
        for _ in 0..4 {
            match self.store.record_attempts(self.owner, attempts).await {
                Ok(updated) => {
                    let updated: Vec<bool> =
                        (0..attempts.len()).map(|i| updated.get(i).copied().unwrap_or(false)).collect();
                    for (done, _) in attempts.iter().zip(&updated).filter(|(_, updated)| !**updated) {
                        tracing::warn!(
                            delivery = %done.attempt.delivery_id,
                            "the delivery's lease ran out, or it was redelivered, during the attempt"
                        );
                    }
                    return updated;
                }
                Err(error) => {
                    tracing::warn!(attempts = attempts.len(), %error, "cannot record webhook attempts yet");
                    tokio::time::sleep(wait).await;
                    wait *= 2;
                }
            }
        }
        // Not an error of ours: the database is away, and the lease makes the deliveries due again.
        for done in attempts {
            tracing::warn!(
                delivery = %done.attempt.delivery_id,
                "a webhook attempt could not be recorded; it will be sent again"
            );
        }
        vec![false; attempts.len()]
    }

    /// Gives back every lease, retrying a few times: at a stop, the pool may hand out a connection
    /// that closed with the HTTP workers that opened it (it is dropped, and the next try gets another).
    async fn release_leases(&self) -> u64 {
        let mut wait = Duration::from_millis(50);
        let mut last_error = None;
        for _ in 0..4 {
            match self.store.release_leases(self.owner).await {
                Ok(released) => return released,
                Err(error) => last_error = Some(error),
            }
            tokio::time::sleep(wait).await;
            wait *= 2;
        }
        if let Some(error) = last_error {
            tracing::warn!(%error, "cannot give back the webhook leases; they run out by themselves");
        }
        0
    }

    async fn stop(
        &self,
        mut tasks: JoinSet<()>,
        finished: mpsc::UnboundedSender<Finished>,
        recorder: tokio::task::JoinHandle<()>,
    ) -> ShutdownReport {
        let in_flight = tasks.len();
        let drained =
            tokio::time::timeout(self.config.shutdown_grace, async { while tasks.join_next().await.is_some() {} })
                .await;
        let cut_off = if drained.is_ok() { 0 } else { tasks.len() };
        tasks.shutdown().await;
        // Every task is gone: once this last sender is too, the recorder records what is left
        // and stops, before the leases are given back.
        drop(finished);
        if let Err(error) = recorder.await {
            tracing::error!(%error, "the webhook attempt recorder failed");
        }
        let leases_released = self.release_leases().await;
        let stats = self.counters.snapshot();
        tracing::info!(owner = %self.owner, in_flight, cut_off, leases_released, "webhook dispatcher stopped");
        ShutdownReport { cut_off, leases_released, stats }
    }
}
