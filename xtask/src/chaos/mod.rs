//! `cargo xtask chaos`: the real server under a load of consent flows while it is SIGKILLed again
//! and again and while its PostgreSQL restarts and crashes, on a throwaway cluster of its own (so
//! nothing else on the machine is disturbed). Then it checks what the service promises:
//! - no verified event is lost: every event the service answered as verified is in the database,
//!   verified, each (all are ACCEPTED) with its certificate;
//! - each verified event's webhook arrives, signed, at least once after recovery (duplicates are
//!   counted: a delivery sent but not yet recorded when the server died is sent again once its
//!   lease runs out);
//! - no 5xx but 503, and every 503 carries `Retry-After`; no `storage failed` (a 500) or panic in
//!   the server's log;
//! - `/readyz` answers 200 again within seconds of each fault.
//!
//! It prints its figures and fails when a promise was broken.

mod load;

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use clickwrap_postgres::database::DatabaseUrl;
use clickwrap_postgres::test_cluster::{StopMode, ThrowawayCluster};
use diesel::QueryableByName;
use diesel::sql_types::{Bool, Text};
use hyper::Method;

use self::load::{Load, Tally};
use crate::bench::service::client::Connection;
use crate::bench::service::data::{self, Installation, PUBLIC};
use crate::bench::service::receiver::{Arrivals, Receiver};
use crate::bench::service::server::{self, Server};

const WORKERS: u32 = 4;
const TEMPLATES: u32 = 2;
const SERVER_KILLS: u32 = 3;
/// Load between two faults.
const BETWEEN_FAULTS: Duration = Duration::from_secs(4);
/// How long PostgreSQL stays down after its crash.
const DATABASE_DOWN: Duration = Duration::from_secs(2);
/// `/readyz` must answer 200 within this after a fault is over.
const READY_WITHIN: Duration = Duration::from_secs(15);
/// A killed server's webhook leases run out after 60 s; then another instance sends them.
const WEBHOOK_LEASE: Duration = Duration::from_secs(60);

/// Why the run cannot happen here, if it cannot.
pub(crate) fn unavailable_reason() -> Option<String> {
    ThrowawayCluster::unavailable_reason()
}

pub(crate) fn run(root: &Path) -> Result<(), String> {
    if let Some(reason) = unavailable_reason() {
        return Err(format!("no throwaway PostgreSQL cluster can be made: {reason}"));
    }
    let binary = server::build(root, false)?;
    let out = root.join("target").join("chaos");
    std::fs::create_dir_all(&out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let runtime = crate::bench::two_worker_runtime()?;
    runtime.block_on(chaos(&binary, &out))
}

/// A fault and how long `/readyz` took to answer 200 again once it was over.
#[derive(Debug)]
struct Recovery {
    fault: String,
    ready_after: Duration,
}

async fn chaos(binary: &Path, out: &Path) -> Result<(), String> {
    let started = Instant::now();
    println!("    starting a throwaway PostgreSQL cluster");
    let cluster = Arc::new(ThrowawayCluster::start()?);
    let database = cluster.url().with_database("clickwrap");
    let operator_token = server::fresh_tenant(binary, &database, "Chaos tenant").await?;

    let ca_file = out.join("webhook-receiver-ca.pem");
    let receiver = Receiver::start(&ca_file).await?;
    let address = server::free_address()?;
    let mut env = server::bench_env(database.expose(), &ca_file);
    env.push(("CLICKWRAP_WEBHOOK_RETRY_DELAYS", "1,2,4".to_owned()));
    let log = |n: u32| out.join(format!("server-{n}.log"));
    let mut server = Server::start(binary, address, &env, &log(0)).await?;
    let mut setup = Connection::open(address).await?;
    let installation = Arc::new(data::install(&mut setup, &operator_token, &receiver.url(), TEMPLATES).await?);
    drop(setup);
    println!("    ready in {:.1}s; load: {WORKERS} workers of consent flows", started.elapsed().as_secs_f64());

    let load_started = Instant::now();
    let load = Load::start(address, installation.clone(), WORKERS);
    let mut recoveries = Vec::new();
    tokio::time::sleep(BETWEEN_FAULTS).await;

    for kill in 1..=SERVER_KILLS {
        server.kill();
        let killed = Instant::now();
        server = Server::start(binary, address, &env, &log(kill)).await?;
        recoveries.push(Recovery {
            fault: format!("SIGKILL {kill} of the server (restarted at once)"),
            ready_after: killed.elapsed(),
        });
        println!(
            "    server SIGKILLed ({kill}/{SERVER_KILLS}); ready again after {:.1}s",
            killed.elapsed().as_secs_f64()
        );
        tokio::time::sleep(BETWEEN_FAULTS).await;
    }
    let last_kill = Instant::now();

    let restarting = cluster.clone();
    blocking(move || restarting.restart(StopMode::Fast)).await?;
    let ready_after = wait_ready(address).await?;
    recoveries.push(Recovery {
        fault: "PostgreSQL's fast restart (from when it accepted connections)".to_owned(),
        ready_after,
    });
    println!("    PostgreSQL restarted (fast); ready {:.1}s after it was back", ready_after.as_secs_f64());
    tokio::time::sleep(BETWEEN_FAULTS).await;

    let stopping = cluster.clone();
    blocking(move || stopping.stop(StopMode::Immediate)).await?;
    tokio::time::sleep(DATABASE_DOWN).await;
    let starting = cluster.clone();
    blocking(move || starting.start_again()).await?;
    let ready_after = wait_ready(address).await?;
    recoveries.push(Recovery {
        fault: "PostgreSQL's crash, down 2 s (from when it accepted connections)".to_owned(),
        ready_after,
    });
    println!(
        "    PostgreSQL crashed, down {DATABASE_DOWN:?}; ready {:.1}s after it was back",
        ready_after.as_secs_f64()
    );
    tokio::time::sleep(BETWEEN_FAULTS).await;

    let tally = load.stop().await;
    let load_time = load_started.elapsed();
    println!("    load stopped after {:.1}s; waiting for the webhooks", load_time.as_secs_f64());
    let arrivals =
        wait_for_webhooks(&receiver, &installation, &tally, last_kill + WEBHOOK_LEASE + Duration::from_secs(30)).await;
    let stored = stored_events(&database).await?;
    let certificates_served = certificates_served(address, &installation, &tally).await?;
    server.stop()?;
    let logged_errors = logged_errors(&(0..=SERVER_KILLS).map(log).collect::<Vec<_>>());

    let figures = Figures { tally, load_time, recoveries, arrivals, stored, certificates_served, logged_errors };
    figures.print();
    drop(receiver);
    let _ = std::fs::remove_file(&ca_file);
    drop(cluster);
    let problems = figures.problems();
    println!("    chaos run took {:.0}s", started.elapsed().as_secs_f64());
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!("the service broke a promise under faults: {}", problems.join("; ")))
    }
}

/// Runs a blocking cluster operation off the runtime's threads (the load keeps running).
async fn blocking(operation: impl FnOnce() -> Result<(), String> + Send + 'static) -> Result<(), String> {
    tokio::task::spawn_blocking(operation).await.map_err(|e| format!("a cluster operation failed: {e}"))?
}

/// How long until `/readyz` answers 200.
async fn wait_ready(address: std::net::SocketAddr) -> Result<Duration, String> {
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(60) {
        if let Ok(mut connection) = Connection::open(address).await
            && let Ok(answer) = connection.send(Method::GET, "/readyz", &[], None).await
            && answer.status.is_success()
        {
            return Ok(started.elapsed());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    Err("/readyz did not answer 200 within 60 s".to_owned())
}

/// The ERROR lines of the servers' logs (a 500 is logged as one; unavailability is a warning).
fn logged_errors(logs: &[std::path::PathBuf]) -> Vec<String> {
    logs.iter()
        .flat_map(|log| std::fs::read_to_string(log).unwrap_or_default().lines().map(str::to_owned).collect::<Vec<_>>())
        .filter(|line| line.contains(" ERROR "))
        .collect()
}

/// Waits until every verified event's webhook arrived, or `deadline`; returns what arrived.
async fn wait_for_webhooks(
    receiver: &Receiver,
    installation: &Installation,
    tally: &Tally,
    deadline: Instant,
) -> Arrivals {
    let secret = &installation.app.webhook_secret;
    while receiver.missing(secret, tally.verified.iter()) > 0 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    receiver.arrivals(secret)
}

#[derive(QueryableByName)]
struct StoredEvent {
    #[diesel(sql_type = Text)]
    id: String,
    #[diesel(sql_type = Text)]
    status: String,
    #[diesel(sql_type = Bool)]
    certified: bool,
}

/// Every verified event in the database: its status and whether it has a certificate.
async fn stored_events(database: &DatabaseUrl) -> Result<Vec<StoredEvent>, String> {
    use diesel_async::RunQueryDsl;
    let mut conn = crate::bench::connect(database).await?;
    diesel::sql_query(
        "SELECT e.id::text AS id, e.status, c.event_id IS NOT NULL AS certified \
         FROM clickwrap_events e LEFT JOIN certificates c ON c.event_id = e.id \
         WHERE e.status <> 'UNVERIFIED'",
    )
    .load(&mut conn)
    .await
    .map_err(|e| format!("cannot read the verified events: {e}"))
}

/// How many of (up to) ten verified events' certificates the API serves as a PDF.
async fn certificates_served(
    address: std::net::SocketAddr,
    installation: &Installation,
    tally: &Tally,
) -> Result<(usize, usize), String> {
    let step = (tally.verified.len() / 10).max(1);
    let sample: Vec<&String> = tally.verified.iter().step_by(step).take(10).collect();
    let credentials = installation.app.credentials();
    let mut connection = Connection::open(address).await?;
    let mut served = 0;
    for id in &sample {
        let path = format!("{PUBLIC}/clickwrap-events/{id}/certificate");
        let answer = connection.send(Method::GET, &path, &credentials, None).await?;
        if answer.status.is_success() && answer.body.starts_with(b"%PDF-") {
            served += 1;
        }
    }
    Ok((served, sample.len()))
}

#[derive(Debug)]
struct Figures {
    tally: Tally,
    load_time: Duration,
    recoveries: Vec<Recovery>,
    arrivals: Arrivals,
    stored: Vec<StoredEvent>,
    /// Certificates the API served as a PDF, of those asked for.
    certificates_served: (usize, usize),
    logged_errors: Vec<String>,
}

impl std::fmt::Debug for StoredEvent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {} certified={}", self.id, self.status, self.certified)
    }
}

impl Figures {
    fn verified_ids(&self) -> std::collections::HashSet<&str> {
        self.tally.verified.iter().map(String::as_str).collect()
    }

    /// Events answered as verified that the database does not have verified.
    fn lost(&self) -> usize {
        let stored: std::collections::HashSet<&str> = self.stored.iter().map(|e| e.id.as_str()).collect();
        self.verified_ids().iter().filter(|id| !stored.contains(*id)).count()
    }

    /// Verified events (all ACCEPTED) stored with their certificate.
    fn certified(&self) -> usize {
        let ids = self.verified_ids();
        self.stored.iter().filter(|e| ids.contains(e.id.as_str()) && e.status == "ACCEPTED" && e.certified).count()
    }

    /// Events verified in the database that no answer told the client about.
    fn unannounced(&self) -> usize {
        let ids = self.verified_ids();
        self.stored.iter().filter(|e| !ids.contains(e.id.as_str())).count()
    }

    /// Logged errors that mean a 500 (other ERROR lines, such as a webhook attempt that could not be
    /// recorded while the database was away, are reported but expected under faults).
    fn internal_errors(&self) -> usize {
        self.logged_errors.iter().filter(|line| line.contains("storage failed") || line.contains("panicked")).count()
    }

    fn webhooks_missing(&self) -> usize {
        self.tally.verified.iter().filter(|id| !self.arrivals.by_event.contains_key(*id)).count()
    }

    fn duplicates(&self) -> usize {
        self.arrivals.deliveries.saturating_sub(self.arrivals.by_event.len() + self.arrivals.bad)
    }

    fn print(&self) {
        let t = &self.tally;
        let verified = t.verified.len();
        println!("    chaos figures:");
        println!(
            "      flows                  {} in {:.0}s ({WORKERS} workers)",
            t.flows,
            self.load_time.as_secs_f64()
        );
        println!(
            "      faults                 {SERVER_KILLS} server SIGKILLs, 2 PostgreSQL restarts (fast; crash + {DATABASE_DOWN:?} down)"
        );
        for recovery in &self.recoveries {
            println!(
                "      ready again            {:.2}s after {}",
                recovery.ready_after.as_secs_f64(),
                recovery.fault
            );
        }
        println!(
            "      verified               {verified} ({} of them answered 409 with their id on a retried verify)",
            t.verified_on_retry
        );
        println!("      lost                   {}", self.lost());
        println!(
            "      certificates           {} stored of {verified}; {} of {} sampled served as PDF",
            self.certified(),
            self.certificates_served.0,
            self.certificates_served.1
        );
        println!("      verified, never told   {}", self.unannounced());
        println!(
            "      webhooks               {} of {verified} events delivered; {} deliveries, {} duplicates, {} bad signatures",
            verified - self.webhooks_missing(),
            self.arrivals.deliveries,
            self.duplicates(),
            self.arrivals.bad
        );
        println!(
            "      503 answers            {} (each retried); lost connections {}",
            t.unavailable, t.lost_connections
        );
        println!("      unexpected answers     {}", t.unexpected.len());
        for answer in t.unexpected.iter().take(10) {
            println!("        {answer}");
        }
        println!(
            "      errors logged          {} ({} of them a 500 or a panic)",
            self.logged_errors.len(),
            self.internal_errors()
        );
        for line in self.logged_errors.iter().take(10) {
            println!("        {line}");
        }
    }

    fn problems(&self) -> Vec<String> {
        let mut problems = Vec::new();
        let verified = self.tally.verified.len();
        if verified == 0 {
            problems.push("no flow completed".to_owned());
        }
        let counts = [
            (self.lost(), "verified events lost"),
            (verified - self.certified().min(verified), "verified events without a certificate"),
            (self.webhooks_missing(), "verified events whose webhook never arrived"),
            (self.arrivals.bad, "webhooks with a bad signature"),
            (self.tally.unexpected.len(), "unexpected answers (a 5xx but 503, a 4xx, a 503 without Retry-After)"),
            (self.internal_errors(), "500s or panics in the server's log (`storage failed`, `panicked`)"),
        ];
        for (count, what) in counts {
            if count > 0 {
                problems.push(format!("{count} {what}"));
            }
        }
        if self.certificates_served.0 < self.certificates_served.1 {
            problems.push("a sampled certificate was not served as a PDF".to_owned());
        }
        for recovery in &self.recoveries {
            if recovery.ready_after > READY_WITHIN {
                problems.push(format!("not ready within {READY_WITHIN:?} after {}", recovery.fault));
            }
        }
        problems
    }
}
