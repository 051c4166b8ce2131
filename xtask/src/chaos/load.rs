//! The fault run's load: consent flows (`POST /clickwrap`, then `POST /clickwrap/verify`) as an
//! operator's frontend and backend should run them against a service that may vanish at any moment.
//! A 503 or a lost connection is retried (the same request again, on a new connection); a verify
//! that was recorded but whose answer was lost answers its retry 409 with the event's id. Any other
//! answer (a 500, a 4xx, a 503 without `Retry-After`) is a failure of the service.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use hyper::{Method, StatusCode};
use serde_json::{Value, json};

use crate::bench::service::client::{Answer, Connection};
use crate::bench::service::data::{Installation, PUBLIC};

/// How long one request is retried before the flow gives up (a failure of the run).
const GIVE_UP_AFTER: Duration = Duration::from_secs(60);
const RETRY_PAUSE: Duration = Duration::from_millis(100);

/// What the workers saw.
#[derive(Debug, Default)]
pub(super) struct Tally {
    pub(super) flows: u64,
    /// The id of every event the service said it verified (200, or 409 to a retried verify).
    pub(super) verified: Vec<String>,
    /// Retried verifies answered 409 with the event id: recorded before the answer was lost.
    pub(super) verified_on_retry: u64,
    /// 503 answers (each with `Retry-After`).
    pub(super) unavailable: u64,
    /// Requests that got no answer, or no connection.
    pub(super) lost_connections: u64,
    /// Answers that should never come (each with what came).
    pub(super) unexpected: Vec<String>,
}

impl Tally {
    fn add(&mut self, other: Tally) {
        self.flows += other.flows;
        self.verified.extend(other.verified);
        self.verified_on_retry += other.verified_on_retry;
        self.unavailable += other.unavailable;
        self.lost_connections += other.lost_connections;
        self.unexpected.extend(other.unexpected);
    }
}

/// Workers running flows until [`Load::stop`].
#[derive(Debug)]
pub(super) struct Load {
    running: Arc<AtomicBool>,
    workers: tokio::task::JoinSet<Tally>,
}

impl Load {
    pub(super) fn start(address: SocketAddr, installation: Arc<Installation>, workers: u32) -> Self {
        let running = Arc::new(AtomicBool::new(true));
        let next = Arc::new(AtomicU64::new(0));
        let mut set = tokio::task::JoinSet::new();
        for _ in 0..workers {
            let worker = Worker {
                address,
                installation: installation.clone(),
                running: running.clone(),
                next: next.clone(),
                browser: None,
                backend: None,
                tally: Tally::default(),
            };
            set.spawn(worker.work());
        }
        Self { running, workers: set }
    }

    /// Lets each worker finish the flow it is in, and sums up.
    pub(super) async fn stop(mut self) -> Tally {
        self.running.store(false, Ordering::Relaxed);
        let mut total = Tally::default();
        while let Some(result) = self.workers.join_next().await {
            match result {
                Ok(tally) => total.add(tally),
                Err(e) => total.unexpected.push(format!("a worker failed: {e}")),
            }
        }
        total
    }
}

struct Worker {
    address: SocketAddr,
    installation: Arc<Installation>,
    running: Arc<AtomicBool>,
    next: Arc<AtomicU64>,
    browser: Option<Connection>,
    backend: Option<Connection>,
    tally: Tally,
}

/// Which of the worker's two connections a request goes over.
#[derive(Clone, Copy)]
enum Side {
    Browser,
    Backend,
}

impl Worker {
    async fn work(mut self) -> Tally {
        while self.running.load(Ordering::Relaxed) {
            let n = self.next.fetch_add(1, Ordering::Relaxed);
            if let Err(e) = self.flow(n).await {
                self.tally.unexpected.push(e);
            }
            self.tally.flows += 1;
        }
        self.tally
    }

    /// One flow for a new end user.
    async fn flow(&mut self, n: u64) -> Result<(), String> {
        let installation = self.installation.clone();
        let (action, ip) = installation.acceptance(n, &format!("chaos-{n}"))?;
        let headers = [("x-forwarded-for", ip.as_str()), ("user-agent", "Mozilla/5.0 (chaos)")];
        let (recorded, _) =
            self.send_until_answered(Side::Browser, &format!("{PUBLIC}/clickwrap"), &headers, &action).await?;
        if recorded.status != StatusCode::CREATED {
            return Err(describe("POST /clickwrap", &recorded));
        }
        let signature = recorded.json()?.get("serviceSignature").and_then(Value::as_str).map(str::to_owned);
        let signature = signature.ok_or("POST /clickwrap answered no serviceSignature")?;

        let credentials = installation.app.credentials();
        let body = json!({"serviceSignature": signature});
        let (verified, retried) =
            self.send_until_answered(Side::Backend, &format!("{PUBLIC}/clickwrap/verify"), &credentials, &body).await?;
        let problem = verified.json().ok();
        let code = problem.as_ref().and_then(|p| p.get("code")).and_then(Value::as_str);
        match (verified.status, code) {
            (StatusCode::OK, _) => {}
            (StatusCode::CONFLICT, Some("SIGNATURE_ALREADY_VERIFIED")) if retried => self.tally.verified_on_retry += 1,
            _ => return Err(describe("POST /clickwrap/verify", &verified)),
        }
        let event_id = problem.as_ref().and_then(|v| v.get("clickwrapEventId")).and_then(Value::as_str);
        let event_id =
            event_id.ok_or_else(|| describe("POST /clickwrap/verify without clickwrapEventId", &verified))?;
        self.tally.verified.push(event_id.to_owned());
        Ok(())
    }

    /// Sends a JSON POST until it gets an answer other than 503; whether it was sent more than once.
    async fn send_until_answered(
        &mut self,
        side: Side,
        path: &str,
        headers: &[(&str, &str)],
        body: &Value,
    ) -> Result<(Answer, bool), String> {
        let started = Instant::now();
        let mut sent = 0_u32;
        loop {
            let slot = match side {
                Side::Browser => &mut self.browser,
                Side::Backend => &mut self.backend,
            };
            if slot.is_none() {
                *slot = Connection::open(self.address).await.ok();
            }
            if let Some(connection) = slot.as_mut() {
                sent += 1;
                match connection.send(Method::POST, path, headers, Some(body)).await {
                    Ok(answer) if answer.status == StatusCode::SERVICE_UNAVAILABLE => {
                        self.tally.unavailable += 1;
                        if !answer.headers.contains_key(hyper::header::RETRY_AFTER) {
                            self.tally.unexpected.push(describe(&format!("{path} (503 without Retry-After)"), &answer));
                        }
                    }
                    Ok(answer) => return Ok((answer, sent > 1)),
                    Err(_) => {
                        self.tally.lost_connections += 1;
                        *slot = None;
                    }
                }
            } else {
                self.tally.lost_connections += 1;
            }
            if started.elapsed() > GIVE_UP_AFTER {
                return Err(format!("{path}: no answer but 503 or a lost connection for {GIVE_UP_AFTER:?}"));
            }
            tokio::time::sleep(RETRY_PAUSE).await;
        }
    }
}

fn describe(what: &str, answer: &Answer) -> String {
    let body = String::from_utf8_lossy(&answer.body);
    format!("{what}: {} {}", answer.status, body.chars().take(300).collect::<String>())
}
