//! Webhook delivery benchmark: `cargo bench -p clickwrap-webhooks --bench delivery [-- --quick]`
//! (`cargo xtask bench webhooks` runs it). Needs PostgreSQL, as the tests do.
//!
//! Everything runs on this machine: a throw-away database, an HTTPS receiver on 127.0.0.1 (with a
//! certificate made for the run) and one dispatcher with its defaults, bar the CA file and the
//! loopback exemption. Three measurements:
//!
//! 1. baseline: the bare HTTPS client posting to the receiver, `concurrency` at a time, no
//!    database: what this machine can do at all;
//! 2. throughput: a backlog of verified events drained by the dispatcher (claim, sign, send,
//!    record), in deliveries per second, and its ratio to the baseline;
//! 3. lag: events verified one after another at a steady rate while the dispatcher runs, each
//!    waking it in process after its commit as the service does; the time from
//!    `commit_verification` returning to the receiver having the request, p50 and p99.
//!
//! Goals: at least 1,000 deliveries per second, and a p50 lag under 100 ms. Results are printed and
//! written to `target/bench/webhooks.json`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]
#![allow(clippy::print_stdout, clippy::print_stderr)]

#[path = "../tests/support/mod.rs"]
mod support;

use std::collections::HashMap;
use std::time::{Duration, Instant};

use bytes::Bytes;
use clickwrap_domain::apps::models::App;
use clickwrap_domain::consent::models::ClickwrapEvent;
use clickwrap_domain::contract::fixtures;
use clickwrap_domain::contract::support::Stores;
use clickwrap_domain::webhooks::url::WebhookUrl;
use clickwrap_webhooks::{DispatcherConfig, RunningDispatcher, SignedHeaders, WebhookClient};
use support::{Receiver, Reply, World};

struct Sizes {
    baseline: usize,
    backlog: usize,
    lag_events: usize,
    lag_rate_per_sec: u32,
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let sizes = if quick {
        Sizes { baseline: 1_000, backlog: 1_000, lag_events: 200, lag_rate_per_sec: 100 }
    } else {
        Sizes { baseline: 5_000, backlog: 5_000, lag_events: 1_000, lag_rate_per_sec: 200 }
    };
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    runtime.block_on(run(sizes));
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let rank = ((sorted.len() as f64) * p).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Inserts and verifies `n` events of `app`, eight at a time.
async fn verify_events(world: &World, app: &App, n: usize) -> Vec<ClickwrapEvent> {
    let writers = 8;
    let mut tasks = tokio::task::JoinSet::new();
    for writer in 0..writers {
        let store = world.store.clone();
        let (app, template, service) = (app.clone(), world.template.clone(), world.service.clone());
        let count = n / writers + usize::from(writer < n % writers);
        tasks.spawn(async move {
            let stores = Stores::of(&store);
            let mut events = Vec::with_capacity(count);
            for _ in 0..count {
                let now = service.now();
                let event =
                    fixtures::event(&app, &template).action_at(now.saturating_sub(time::Duration::seconds(1))).build();
                events.push(fixtures::verified_event(&stores, event, now).await);
            }
            events
        });
    }
    let mut events = Vec::with_capacity(n);
    while let Some(written) = tasks.join_next().await {
        events.extend(written.unwrap());
    }
    events
}

/// Deliveries of `app` in the database by state.
async fn states(world: &World, app: &App) -> Vec<(String, i64)> {
    use diesel_async::RunQueryDsl;
    #[derive(diesel::QueryableByName)]
    struct Row {
        #[diesel(sql_type = diesel::sql_types::Text)]
        state: String,
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        count: i64,
    }
    let mut conn = world.store.pool().get().await.unwrap();
    let rows: Vec<Row> = diesel::sql_query(
        "SELECT state, count(*) AS count FROM webhook_deliveries WHERE app_id = $1 GROUP BY state ORDER BY state",
    )
    .bind::<diesel::sql_types::Uuid, _>(app.id.as_uuid())
    .load(&mut conn)
    .await
    .unwrap();
    rows.into_iter().map(|r| (r.state, r.count)).collect()
}

async fn run(sizes: Sizes) {
    let world = World::new().await;
    let receiver = Receiver::start(&world.tls, |_| Reply::status(200)).await;
    let mut config = world.config();
    // The production defaults, bar what the test world needs (CA file, loopback exemption).
    let defaults = DispatcherConfig::default();
    config.concurrency = defaults.concurrency;
    config.batch_size = defaults.batch_size;
    config.retry = defaults.retry.clone();
    config.lease = defaults.lease;
    config.poll_interval = defaults.poll_interval;
    config.client.timeout = defaults.client.timeout;

    // 1. Baseline: the client alone.
    let client = WebhookClient::new(&config.client).unwrap();
    let signed = SignedHeaders {
        timestamp_secs: 1,
        service_signature: "sha256=00".to_owned(),
        message_id: "msg_1".to_owned(),
        standard_signature: "v1,AA==".to_owned(),
    };
    let url = WebhookUrl::parse_with_exemptions(&receiver.url("/baseline"), |_| true).unwrap();
    let body = Bytes::from(vec![b'x'; 600]);
    let started = Instant::now();
    let per_task = sizes.baseline / config.concurrency;
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..config.concurrency {
        let client = client.clone();
        let url = url.clone();
        let body = body.clone();
        let signed = signed.clone();
        tasks.spawn(async move {
            for _ in 0..per_task {
                let response = client.post(&url, &signed, body.clone()).await.unwrap();
                assert_eq!(response.status, 200);
            }
        });
    }
    while tasks.join_next().await.is_some() {}
    let baseline_count = per_task * config.concurrency;
    let baseline_rate = baseline_count as f64 / started.elapsed().as_secs_f64();
    println!("baseline: {baseline_count} HTTPS posts, no database: {baseline_rate:.0}/s");

    // 2. Throughput: drain a backlog.
    let (app, _) = world.app(&receiver.url("/backlog")).await;
    let fill = Instant::now();
    let backlog = verify_events(&world, &app, sizes.backlog).await;
    println!("backlog: {} verified events written in {:.1} s", backlog.len(), fill.elapsed().as_secs_f64());
    let started = Instant::now();
    let (dispatcher, listener) = world.dispatcher(config.clone()).await;
    let deadline = started + Duration::from_secs(120);
    while receiver.count("/backlog") < backlog.len() {
        assert!(Instant::now() < deadline, "the backlog was not drained in time");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let sent = started.elapsed();
    // Wait for the last results to be recorded, then check every one.
    let recorded = recorded(&dispatcher, backlog.len(), started, deadline).await;
    assert_eq!(states(&world, &app).await, vec![("DELIVERED".to_owned(), backlog.len() as i64)]);
    let drain_rate = backlog.len() as f64 / sent.as_secs_f64();
    println!(
        "throughput: {} deliveries sent in {:.2} s ({drain_rate:.0}/s; all recorded after {:.2} s); {:.2} x baseline",
        backlog.len(),
        sent.as_secs_f64(),
        recorded.as_secs_f64(),
        drain_rate / baseline_rate
    );
    let duplicates = receiver.count("/backlog") - backlog.len();

    // 3. Lag: a steady stream of verifications.
    let (app, _) = world.app(&receiver.url("/lag")).await;
    let stores = Stores::of(&world.store);
    let mut committed: HashMap<String, Instant> = HashMap::new();
    let interval = Duration::from_secs(1) / sizes.lag_rate_per_sec;
    let mut ticker = tokio::time::interval(interval);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    for _ in 0..sizes.lag_events {
        ticker.tick().await;
        let event = fixtures::event(&app, &world.template)
            .action_at(world.now().saturating_sub(time::Duration::seconds(1)))
            .build();
        let event = fixtures::stored_event(&stores, event).await;
        let record = fixtures::verification(&event, world.now(), None);
        stores.events.commit_verification(&record).await.unwrap();
        committed.insert(event.id.to_string(), Instant::now());
        // What the service's verification does after its commit (`OutboxSignal`): no NOTIFY.
        dispatcher.waker().wake();
    }
    let deadline = Instant::now() + Duration::from_secs(60);
    while receiver.count("/lag") < sizes.lag_events {
        assert!(Instant::now() < deadline, "the lag events were not all delivered");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let mut lags: Vec<Duration> = receiver
        .received()
        .iter()
        .filter(|r| r.path == "/lag")
        .map(|r| r.at.saturating_duration_since(committed[&r.event_id()]))
        .collect();
    lags.sort();
    let (p50, p99, max) = (percentile(&lags, 0.50), percentile(&lags, 0.99), percentile(&lags, 1.0));
    println!(
        "lag: {} events at {}/s, commit to receipt: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        lags.len(),
        sizes.lag_rate_per_sec,
        ms(p50),
        ms(p99),
        ms(max)
    );

    let stats = dispatcher.shutdown().await.stats;
    listener.stop();
    let throughput_ok = drain_rate >= 1000.0;
    let lag_ok = p50 < Duration::from_millis(100);
    println!(
        "goals: >= 1000 deliveries/s: {} ({drain_rate:.0}/s); p50 lag < 100 ms: {} ({:.1} ms); duplicates: {duplicates}",
        if throughput_ok { "met" } else { "NOT met" },
        if lag_ok { "met" } else { "NOT met" },
        ms(p50)
    );
    let report = serde_json::json!({
        "baselinePostsPerSec": baseline_rate,
        "deliveriesPerSec": drain_rate,
        "ratioToBaseline": drain_rate / baseline_rate,
        "backlog": backlog.len(),
        "lagEvents": lags.len(),
        "lagRatePerSec": sizes.lag_rate_per_sec,
        "lagP50Ms": ms(p50),
        "lagP99Ms": ms(p99),
        "lagMaxMs": ms(max),
        "duplicates": duplicates,
        "attempts": stats.attempts,
        "goalsMet": throughput_ok && lag_ok,
    });
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/bench");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("webhooks.json"), serde_json::to_string_pretty(&report).unwrap()).unwrap();
}

/// Waits until the dispatcher has recorded `n` deliveries; how long since `started`.
async fn recorded(dispatcher: &RunningDispatcher, n: usize, started: Instant, deadline: Instant) -> Duration {
    while dispatcher.stats().delivered < n as u64 {
        assert!(Instant::now() < deadline, "not every delivery was recorded");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    started.elapsed()
}
