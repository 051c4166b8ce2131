//! The consent write as it happens in production: the browser posts the end user's action
//! (`POST /clickwrap`, from the end user's address) and the operator's backend verifies the returned
//! Signature (`POST /clickwrap/verify`, with the App Key), which records the event, signs its
//! certificate and queues its webhook in one transaction. Closed loop: each worker runs one flow
//! after another on its own two keep-alive connections; or paced, at a fixed rate over all workers.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use hyper::Method;
use serde_json::{Value, json};

use super::client::Connection;
use super::data::{App, Installation, PUBLIC};

/// What one run of flows did.
#[derive(Debug, Default)]
pub(super) struct FlowRun {
    /// Each completed flow's time, sorted.
    pub(super) latencies: Vec<Duration>,
    /// Each verified event and when its verification answered.
    pub(super) verified: Vec<(String, Instant)>,
    pub(super) errors: u64,
    pub(super) first_error: Option<String>,
    pub(super) elapsed: Duration,
}

impl FlowRun {
    pub(super) fn per_second(&self) -> f64 {
        let seconds = self.elapsed.as_secs_f64();
        if seconds > 0.0 { self.latencies.len() as f64 / seconds } else { 0.0 }
    }
}

/// How flows are started.
#[derive(Debug, Clone, Copy)]
pub(super) enum Pace {
    /// Each worker starts its next flow when the last one finished.
    Closed,
    /// Flows start at this many per second in all.
    PerSecond(f64),
}

/// Runs flows with `workers` workers for `duration`; end users are named `bench-<run>-<n>`.
pub(super) async fn run(
    address: SocketAddr,
    installation: Arc<Installation>,
    workers: u32,
    duration: Duration,
    pace: Pace,
    run: &str,
) -> FlowRun {
    let next = Arc::new(AtomicU64::new(0));
    let started = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..workers {
        let worker = Worker {
            address,
            installation: installation.clone(),
            next: next.clone(),
            started,
            end: started + duration,
            pace,
            run: run.to_owned(),
        };
        tasks.spawn(worker.work());
    }
    let mut total = FlowRun::default();
    while let Some(result) = tasks.join_next().await {
        let part = result.unwrap_or_else(|e| FlowRun {
            errors: 1,
            first_error: Some(format!("a worker failed: {e}")),
            ..FlowRun::default()
        });
        total.latencies.extend(part.latencies);
        total.verified.extend(part.verified);
        total.errors += part.errors;
        total.first_error = total.first_error.or(part.first_error);
    }
    total.elapsed = started.elapsed();
    total.latencies.sort_unstable();
    total
}

struct Worker {
    address: SocketAddr,
    installation: Arc<Installation>,
    next: Arc<AtomicU64>,
    started: Instant,
    end: Instant,
    pace: Pace,
    run: String,
}

impl Worker {
    async fn work(self) -> FlowRun {
        let mut done = FlowRun::default();
        let mut connections = None;
        loop {
            let n = self.next.fetch_add(1, Ordering::Relaxed);
            let start = match self.pace {
                Pace::Closed => Instant::now(),
                Pace::PerSecond(rate) => self.started + Duration::from_secs_f64(n as f64 / rate),
            };
            if start >= self.end {
                break;
            }
            tokio::time::sleep_until(start.into()).await;
            if connections.is_none() {
                match (Connection::open(self.address).await, Connection::open(self.address).await) {
                    (Ok(browser), Ok(backend)) => connections = Some((browser, backend)),
                    (Err(e), _) | (_, Err(e)) => {
                        done.errors += 1;
                        done.first_error.get_or_insert(e);
                        break;
                    }
                }
            }
            let Some((browser, backend)) = connections.as_mut() else { break };
            let began = Instant::now();
            match self.flow(browser, backend, n).await {
                Ok(event_id) => {
                    let answered = Instant::now();
                    done.latencies.push(answered - began);
                    done.verified.push((event_id, answered));
                }
                Err(e) => {
                    done.errors += 1;
                    done.first_error.get_or_insert(e);
                    connections = None;
                }
            }
        }
        done
    }

    /// One flow for a new end user; returns the verified event's id.
    async fn flow(&self, browser: &mut Connection, backend: &mut Connection, n: u64) -> Result<String, String> {
        let installation = &self.installation;
        let (action, ip) = installation.acceptance(n, &format!("bench-{}-{n}", self.run))?;
        let headers = [("x-forwarded-for", ip.as_str()), ("user-agent", "Mozilla/5.0 (bench)")];
        accept(browser, backend, &installation.app, &action, &headers).await
    }
}

/// The browser posts the end user's `action` (with the browser's `headers`), and the backend
/// verifies the Signature it got with the app's credentials: the verified event's id.
pub(crate) async fn accept(
    browser: &mut Connection,
    backend: &mut Connection,
    app: &App,
    action: &Value,
    headers: &[(&str, &str)],
) -> Result<String, String> {
    let recorded = browser
        .send(Method::POST, &format!("{PUBLIC}/clickwrap"), headers, Some(action))
        .await?
        .expect(201, "POST /clickwrap")?;
    let signature = recorded.get("serviceSignature").and_then(|v| v.as_str()).ok_or("no serviceSignature")?;
    verify(backend, app, signature).await
}

/// The backend's verification of a Signature with the app's credentials: the verified event's id.
pub(crate) async fn verify(backend: &mut Connection, app: &App, signature: &str) -> Result<String, String> {
    let credentials = app.credentials();
    let verified = backend
        .send(
            Method::POST,
            &format!("{PUBLIC}/clickwrap/verify"),
            &credentials,
            Some(&json!({"serviceSignature": signature})),
        )
        .await?
        .expect(200, "POST /clickwrap/verify")?;
    verified
        .get("clickwrapEventId")
        .and_then(|v| v.as_str())
        .map(str::to_owned)
        .ok_or_else(|| format!("no clickwrapEventId in {verified}"))
}
