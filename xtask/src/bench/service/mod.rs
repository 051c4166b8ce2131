//! `cargo xtask bench [--quick]`: the whole service, measured the way its users feel it, against
//! baselines the database itself sets in the same run on the same machine.
//!
//! It builds the release server, starts it as an operator would on a fresh database, makes an app and
//! ten templates through the operator API, writes a million verified events for 100,000 end users in
//! bulk, and then runs, each against its baseline:
//! - the SDK check `GET /clickwrap` for end users who already accepted (wrk) vs `pgbench -S`;
//! - the consent snapshot of a heavy end user, who holds one event in twenty (`GET /clickwrap` of
//!   each template and the status route), vs a new end user's: the command fails when it costs more
//!   than 1.5 times as much;
//! - the consent write `POST /clickwrap` + `POST /clickwrap/verify` (our flow client, since the second
//!   request needs the first's Signature) vs pgbench's TPC-B-like transaction;
//! - an events-list page at depth 0 and at depth 900,000 (wrk, one connection);
//! - webhook deliveries to a local HTTPS receiver: their rate during the write run, and the lag from
//!   the verification's answer to the delivery at a steady 200 verifications per second;
//! - the server's resident memory, idle and at its peak.
//!
//! Goals are reported, not enforced: the command fails only when something does not work (an error
//! answer, a lost delivery, a bad webhook signature) or when the heavy end user's snapshot costs more
//! than 1.5 times a new end user's (a ratio of the same run, so it holds on a noisy machine too).

pub(crate) mod client;
mod cpu;
pub(crate) mod data;
pub(crate) mod flows;
mod heavy;
pub(crate) mod receiver;
pub(crate) mod server;
mod tools;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use hyper::Method;
use serde_json::{Value, json};

use self::client::{Connection, query_value};
use self::cpu::{CpuAccount, CpuSample};
use self::data::{Installation, PUBLIC};
use self::flows::{FlowRun, Pace};
use self::heavy::HeavyUser;
use self::receiver::Receiver;
use self::server::Server;
use self::tools::{Load, Tools};

const SERVICE_DATABASE: &str = "clickwrap_bench_service";
const PGBENCH_DATABASE: &str = "clickwrap_bench_pgbench";
const TEMPLATES: u32 = 10;

const GOAL_CHECK_RATIO: f64 = 0.5;
const GOAL_WRITES_PER_SECOND: f64 = 1_000.0;
const GOAL_DEPTH_RATIO: f64 = 1.5;
const GOAL_LAG_P50_MS: f64 = 100.0;
const GOAL_IDLE_MIB: f64 = 64.0;

/// How big and how long.
#[derive(Debug, Clone, Copy)]
struct Sizes {
    quick: bool,
    /// Also record where the CPU goes with `perf` (an extra run of the check and of the write).
    profile: bool,
    end_users: u64,
    /// Each load run (and its baseline) lasts this long.
    run: Duration,
    /// Concurrent connections (wrk, flow workers, pgbench clients).
    connections: u32,
    /// Where the deep events-list page starts.
    depth: u64,
    pgbench_scale: u32,
    lag_rate: f64,
    lag_run: Duration,
    /// Measured rounds of the heavy end user's requests (each: every template's check and a status).
    heavy_rounds: usize,
}

impl Sizes {
    fn new(quick: bool, profile: bool) -> Self {
        if quick {
            Self {
                quick,
                profile,
                end_users: 2_000,
                run: Duration::from_secs(5),
                connections: 16,
                depth: 18_000,
                pgbench_scale: 1,
                lag_rate: 100.0,
                lag_run: Duration::from_secs(3),
                heavy_rounds: 30,
            }
        } else {
            Self {
                quick,
                profile,
                end_users: 100_000,
                run: Duration::from_secs(20),
                connections: 16,
                depth: 900_000,
                pgbench_scale: 10,
                lag_rate: 200.0,
                lag_run: Duration::from_secs(10),
                heavy_rounds: 100,
            }
        }
    }

    fn events(&self) -> u64 {
        self.end_users * u64::from(TEMPLATES)
    }

    /// The heavy end user's events, on top of `events()`.
    fn heavy_events(&self) -> u64 {
        heavy::heavy_events(self.events())
    }
}

pub(super) fn run(root: &Path, args: &[String]) -> Result<(), String> {
    let mut quick = false;
    let mut profile = false;
    let mut pooler = false;
    for arg in args {
        match arg.as_str() {
            "--quick" => quick = true,
            "--profile" => profile = true,
            "--pooler" => pooler = true,
            other => return Err(format!("unknown option `{other}`\n\n{}", super::USAGE)),
        }
    }
    let sizes = Sizes::new(quick, profile);
    let started = Instant::now();
    println!(
        "bench: the service with {} verified events, {} end users and one with {} events, {TEMPLATES} templates{}{}",
        sizes.events(),
        sizes.end_users,
        sizes.heavy_events(),
        if quick { " (quick)" } else { "" },
        if pooler { ", through PgBouncer in transaction mode" } else { "" }
    );
    let tools = Tools::find_or_install()?;
    let binary = server::build(root, true)?;
    let out = root.join("target").join("bench");
    std::fs::create_dir_all(&out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let runtime = crate::bench::two_worker_runtime()?;
    let report = runtime.block_on(bench(&Bench { root: root.to_owned(), out, binary, tools, sizes, pooler }))?;
    super::write_results(root, "results.json", &report)?;
    println!("results written to target/bench/results.json ({:.0}s in all)", started.elapsed().as_secs_f64());
    Ok(())
}

#[derive(Debug)]
struct Bench {
    root: PathBuf,
    out: PathBuf,
    binary: PathBuf,
    tools: Tools,
    sizes: Sizes,
    /// The server reaches PostgreSQL through a PgBouncer in transaction mode
    /// (`CLICKWRAP_DATABASE_POOLER=transaction`, LISTEN on a direct URL); baselines stay direct.
    pooler: bool,
}

/// Everything measured.
#[derive(Debug)]
struct Figures {
    check: Load,
    check_cpu: CpuAccount,
    select_only: Load,
    heavy: HeavyUser,
    write: Load,
    write_cpu: CpuAccount,
    write_errors: Option<String>,
    tpc_b: Load,
    first_page: Load,
    deep_page: Load,
    depth: u64,
    deliveries: Deliveries,
    idle_mib: f64,
    peak_mib: f64,
    peak_during: &'static str,
    idle_after_mib: f64,
}

#[derive(Debug)]
struct Deliveries {
    /// Deliveries of the write run's events.
    count: usize,
    /// From the write run's start to its last event's delivery.
    per_second: f64,
    /// When the write run ended, how long until its last event was delivered.
    drained_after: Duration,
    lag_p50: Duration,
    lag_p99: Duration,
    lag_samples: usize,
    bad_signatures: usize,
    /// Deliveries of an event that had been delivered before (at-least-once delivery allows them).
    repeated: usize,
    /// Attempts that did not get a 2xx, by what went wrong (from the delivery history).
    failed_attempts: Vec<(String, i64)>,
}

async fn bench(bench: &Bench) -> Result<Value, String> {
    let sizes = bench.sizes;
    let server_url = super::database_server()?;
    let service_db = server_url.with_database(SERVICE_DATABASE);
    let pgbench_db = server_url.with_database(PGBENCH_DATABASE);

    let step = Instant::now();
    let operator_token = server::fresh_tenant(&bench.binary, &service_db, "Bench tenant").await?;

    let ca_file = bench.out.join("webhook-receiver-ca.pem");
    let receiver = Receiver::start(&ca_file).await?;
    let address = server::free_address()?;
    let pgbouncer = if bench.pooler { Some(crate::pgbouncer::Pgbouncer::start(&server_url)?) } else { None };
    let mut env = server::bench_env(service_db.expose(), &ca_file);
    if let Some(pgbouncer) = &pgbouncer {
        env.retain(|(name, _)| *name != "DATABASE_URL");
        env.extend([
            ("DATABASE_URL", pgbouncer.url(SERVICE_DATABASE).expose()),
            ("CLICKWRAP_DATABASE_POOLER", "transaction".to_owned()),
            ("CLICKWRAP_DATABASE_DIRECT_URL", service_db.expose()),
        ]);
    }
    let server = Server::start(&bench.binary, address, &env, &bench.out.join("server.log")).await?;
    let mut setup = Connection::open(address).await?;
    let installation = Arc::new(data::install(&mut setup, &operator_token, &receiver.url(), TEMPLATES).await?);
    let mut conn = super::connect(&service_db).await?;
    data::fill(&mut conn, &installation, sizes.end_users).await?;
    // A new connection: the server closes idle ones (keep-alive) while the data is written.
    let mut setup = Connection::open(address).await?;
    data::check_rule(&mut setup, &installation, sizes.end_users).await?;
    let machine = super::machine(&mut conn).await?;
    drop(conn);
    super::recreate_database(&pgbench_db, false).await?;
    bench.tools.initialize(&pgbench_db, sizes.pgbench_scale)?;
    println!("    ready in {:.1}s", step.elapsed().as_secs_f64());

    tokio::time::sleep(Duration::from_secs(2)).await;
    let idle_mib = server.resident_mib();

    // The SDK check, then its baseline.
    let since = Instant::now();
    let script = write_script(bench, "check.lua", &check_script(&installation, sizes.end_users))?;
    let cpu_before = CpuSample::now(server.pid());
    let check = bench.tools.wrk(&format!("http://{address}"), &script, sizes.connections, sizes.run)?;
    let check_cpu = CpuAccount::between(&cpu_before, &CpuSample::now(server.pid()), check.count);
    let check_peak = server.peak_mib_since(since);
    let select_only =
        bench.tools.pgbench(&pgbench_db, true, sizes.connections, sizes.run, &bench.out.join("pgbench"))?;
    println!("    SDK check: {}; pgbench -S: {}", describe(&check), describe(&select_only));
    println!("      {}", check_cpu.describe());

    // The heavy end user's consent snapshot against a new end user's.
    let heavy = heavy::measure(address, &installation, sizes.heavy_rounds).await?;
    println!(
        "    heavy end user: GET /clickwrap p50 {:.2} ms (new end user {:.2} ms), status p50 {:.2} ms ({:.2} ms)",
        super::millis(heavy.check_heavy),
        super::millis(heavy.check_new),
        super::millis(heavy.status_heavy),
        super::millis(heavy.status_new)
    );

    // Events-list pages at depth 0 and deep down.
    let (first_page, deep_page, depth) = list_pages(bench, address, &installation).await?;
    println!("    events list: depth 0 {}; depth {depth} {}", describe(&first_page), describe(&deep_page));

    // The consent write with its webhooks, then its baseline.
    let since = Instant::now();
    let cpu_before = CpuSample::now(server.pid());
    let writes = flows::run(address, installation.clone(), sizes.connections, sizes.run, Pace::Closed, "write").await;
    let write_cpu_after = CpuSample::now(server.pid());
    let write_peak = server.peak_mib_since(since);
    let write_ended = Instant::now();
    let write = flow_load(&writes);
    let write_cpu = CpuAccount::between(&cpu_before, &write_cpu_after, write.count);
    let tpc_b = bench.tools.pgbench(&pgbench_db, false, sizes.connections, sizes.run, &bench.out.join("pgbench"))?;
    println!("    consent write: {}; pgbench TPC-B: {}", describe(&write), describe(&tpc_b));
    println!("      {}", write_cpu.describe());
    let delivered = wait_for_deliveries(&receiver, &installation, &writes, Duration::from_secs(120)).await;
    let last_delivery = writes.verified.iter().filter_map(|(id, _)| delivered.by_event.get(id)).max().copied();

    // Delivery lag at a steady rate.
    let lag = flows::run(address, installation.clone(), 4, sizes.lag_run, Pace::PerSecond(sizes.lag_rate), "lag").await;
    let arrived = wait_for_deliveries(&receiver, &installation, &lag, Duration::from_secs(60)).await;
    let mut lags: Vec<Duration> = lag
        .verified
        .iter()
        .filter_map(|(id, answered)| arrived.by_event.get(id).map(|at| at.saturating_duration_since(*answered)))
        .collect();
    lags.sort_unstable();
    let write_count = writes.verified.iter().filter(|(id, _)| delivered.by_event.contains_key(id)).count();
    let write_span = last_delivery.map_or(Duration::ZERO, |last| last.saturating_duration_since(since));
    let failed_attempts = failed_attempts(&service_db).await?;
    let deliveries = Deliveries {
        count: write_count,
        per_second: if write_span.is_zero() { 0.0 } else { write_count as f64 / write_span.as_secs_f64() },
        drained_after: last_delivery.map_or(Duration::ZERO, |last| last.saturating_duration_since(write_ended)),
        lag_p50: super::percentile(&lags, 50),
        lag_p99: super::percentile(&lags, 99),
        lag_samples: lags.len(),
        bad_signatures: arrived.bad,
        failed_attempts,
        repeated: arrived.deliveries.saturating_sub(arrived.by_event.len() + arrived.bad),
    };

    if sizes.profile {
        profile_runs(bench, &server, &script, &installation).await?;
    }

    let (peak_mib, peak_during) =
        if write_peak >= check_peak { (write_peak, "consent write") } else { (check_peak, "SDK check") };
    tokio::time::sleep(Duration::from_secs(2)).await;
    let idle_after_mib = server.resident_mib();
    server.stop()?;
    drop(receiver);
    let _ = std::fs::remove_file(&ca_file);

    let figures = Figures {
        check,
        check_cpu,
        select_only,
        heavy,
        write,
        write_cpu,
        write_errors: writes.first_error.clone().or(lag.first_error.clone()),
        tpc_b,
        first_page,
        deep_page,
        depth,
        deliveries,
        idle_mib,
        peak_mib,
        peak_during,
        idle_after_mib,
    };
    print_table(&figures);
    let problems = problems(&figures, writes.verified.len() + lag.verified.len(), &arrived);
    let report = report(bench, &machine, &figures, &problems);
    for database in [&service_db, &pgbench_db] {
        super::drop_database(database).await?;
    }
    if problems.is_empty() {
        Ok(report)
    } else {
        super::write_results(&bench.root, "results.json", &report)?;
        Err(format!("the service did not work as it should under load: {}", problems.join("; ")))
    }
}

/// Runs the check and the write again, each under `perf record` of the whole machine, after the
/// measured runs (so the profiler's cost is in none of the figures).
async fn profile_runs(
    bench: &Bench,
    server: &Server,
    check_script: &Path,
    installation: &Arc<Installation>,
) -> Result<(), String> {
    let run = bench.sizes.run.min(Duration::from_secs(10));
    let base = format!("http://{}", server.address);
    let check = async { bench.tools.wrk(&base, check_script, bench.sizes.connections, run) };
    cpu::profile(&bench.out, "check", server.pid(), run, check).await??;
    let write = flows::run(server.address, installation.clone(), bench.sizes.connections, run, Pace::Closed, "profile");
    cpu::profile(&bench.out, "write", server.pid(), run, write).await?;
    Ok(())
}

/// The Lua script of the SDK check: a random (end user, template) pair that accepted the current
/// version, from that end user's own address.
fn check_script(installation: &Installation, end_users: u64) -> String {
    let templates: Vec<String> = installation.templates.iter().map(|t| lua_string(&t.id)).collect();
    format!(
        r#"-- Generated by `cargo xtask bench`: the SDK check for end users who accepted the current version.
local app = {app}
local templates = {{ {templates} }}
local users = {end_users}
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("seed", threads)
end
function init(args)
  math.randomseed(seed * 7919)
end
function request()
  local u, k
  repeat
    u = math.random(0, users - 1)
    k = math.random(0, #templates - 1)
  until (u + k) % 10 ~= 0 and (3 * u + k) % 20 ~= 1
  local path = string.format("{PUBLIC}/clickwrap?appId=%s&clickwrapTemplateId=%s&endUserId=bench-user-%06d",
    app, templates[k + 1], u)
  local ip = string.format("10.%d.%d.%d", math.floor(u / 65536) % 256, math.floor(u / 256) % 256, u % 256)
  return wrk.format("GET", path, {{ ["X-Forwarded-For"] = ip }})
end
{DONE}"#,
        app = lua_string(&installation.app.app_id),
        templates = templates.join(", "),
    )
}

/// The Lua script of one fixed server-side request.
fn fixed_script(installation: &Installation, path: &str) -> String {
    format!(
        "-- Generated by `cargo xtask bench`: one events-list page, again and again.\n\
         wrk.method = \"GET\"\n\
         wrk.path = {path}\n\
         wrk.headers[\"X-APP-ID\"] = {app}\n\
         wrk.headers[\"X-APP-KEY\"] = {key}\n\
         {DONE}",
        path = lua_string(path),
        app = lua_string(&installation.app.app_id),
        key = lua_string(&installation.app.app_key),
    )
}

/// Every script ends by printing one summary line that `Tools::wrk` reads.
const DONE: &str = r#"function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('BENCH {"requests":%d,"duration_us":%d,"non_2xx":%d,"socket_errors":%d,"p50_us":%d,"p99_us":%d}\n',
    summary.requests, summary.duration, e.status, e.connect + e.read + e.write + e.timeout,
    math.floor(latency:percentile(50)), math.floor(latency:percentile(99))))
end
"#;

/// A Lua string literal (the values are ASCII ids, keys and URL paths).
fn lua_string(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

fn write_script(bench: &Bench, name: &str, text: &str) -> Result<PathBuf, String> {
    let path = bench.out.join(name);
    std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(path)
}

/// Walks the events list to `depth` by cursor (pages of 100), then measures the first page and the
/// page at that depth (20 events each, one connection, half a run each).
async fn list_pages(
    bench: &Bench,
    address: std::net::SocketAddr,
    installation: &Installation,
) -> Result<(Load, Load, u64), String> {
    let mut connection = Connection::open(address).await?;
    let credentials = installation.app.credentials();
    let target = bench.sizes.depth;
    let mut depth = 0_u64;
    let mut cursor: Option<String> = None;
    while depth < target {
        let limit = (target - depth).min(100);
        let mut path = format!("{PUBLIC}/clickwrap-events?limit={limit}");
        if let Some(cursor) = &cursor {
            path.push_str(&format!("&nextPageCursor={}", query_value(cursor)));
        }
        let page = connection.send(Method::GET, &path, &credentials, None).await?.expect(200, "events list")?;
        let items = page.get("items").and_then(|v| v.as_array()).map_or(0, Vec::len) as u64;
        depth += items;
        match page.get("nextPageCursor").and_then(|v| v.as_str()) {
            Some(next) if items > 0 => cursor = Some(next.to_owned()),
            _ => break,
        }
    }
    let deep_path = match &cursor {
        Some(cursor) => format!("{PUBLIC}/clickwrap-events?nextPageCursor={}", query_value(cursor)),
        None => return Err(format!("the events list ended at {depth}, before depth {target}")),
    };
    let half = (bench.sizes.run / 2).max(Duration::from_secs(2));
    let base = format!("http://{address}");
    let first =
        write_script(bench, "list-first.lua", &fixed_script(installation, &format!("{PUBLIC}/clickwrap-events")))?;
    let deep = write_script(bench, "list-deep.lua", &fixed_script(installation, &deep_path))?;
    let first = bench.tools.wrk(&base, &first, 1, half)?;
    let deep = bench.tools.wrk(&base, &deep, 1, half)?;
    Ok((first, deep, depth))
}

fn flow_load(run: &FlowRun) -> Load {
    Load {
        count: run.latencies.len() as u64,
        per_second: run.per_second(),
        p50: super::percentile(&run.latencies, 50),
        p99: super::percentile(&run.latencies, 99),
        errors: run.errors,
    }
}

/// Waits until every event `run` verified has been delivered, or `within` passed; returns what arrived.
async fn wait_for_deliveries(
    receiver: &Receiver,
    installation: &Installation,
    run: &FlowRun,
    within: Duration,
) -> receiver::Arrivals {
    let deadline = Instant::now() + within;
    let secret = &installation.app.webhook_secret;
    while receiver.missing(secret, run.verified.iter().map(|(id, _)| id)) > 0 && Instant::now() <= deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    receiver.arrivals(secret)
}

#[derive(diesel::QueryableByName)]
struct FailedAttempts {
    #[diesel(sql_type = diesel::sql_types::Text)]
    error: String,
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    count: i64,
}

/// Failed delivery attempts by error class, read from the delivery history.
async fn failed_attempts(database: &clickwrap_postgres::database::DatabaseUrl) -> Result<Vec<(String, i64)>, String> {
    use diesel_async::RunQueryDsl;
    let mut conn = super::connect(database).await?;
    let rows: Vec<FailedAttempts> = diesel::sql_query(
        "SELECT coalesce(error_class, 'status ' || response_status) AS error, count(*) AS count \
         FROM webhook_attempts WHERE response_status IS NULL OR response_status NOT BETWEEN 200 AND 299 \
         GROUP BY 1 ORDER BY 2 DESC",
    )
    .load(&mut conn)
    .await
    .map_err(|e| format!("cannot read the delivery history: {e}"))?;
    Ok(rows.into_iter().map(|r| (r.error, r.count)).collect())
}

/// What did not work (each a reason to fail the command).
fn problems(figures: &Figures, verified: usize, arrivals: &receiver::Arrivals) -> Vec<String> {
    let mut problems = Vec::new();
    for (name, load) in [
        ("SDK check", &figures.check),
        ("consent write", &figures.write),
        ("first events page", &figures.first_page),
        ("deep events page", &figures.deep_page),
    ] {
        if load.errors > 0 || load.count == 0 {
            problems.push(format!("{name}: {} errors in {} requests", load.errors, load.count));
        }
    }
    if let Some(error) = &figures.write_errors {
        problems.push(format!("first consent-write error: {error}"));
    }
    let missing = verified.saturating_sub(arrivals.by_event.len());
    if missing > 0 {
        problems.push(format!("{missing} of {verified} verified events were not delivered by webhook"));
    }
    for (error, count) in &figures.deliveries.failed_attempts {
        println!("    note: {count} webhook attempts failed ({error}) and were retried");
    }
    if arrivals.bad > 0 {
        problems.push(format!("{} webhook deliveries had a bad signature", arrivals.bad));
    }
    problems.extend(figures.heavy.problems());
    problems
}

fn describe(load: &Load) -> String {
    format!("{:.0}/s, p50 {:.2} ms, p99 {:.2} ms", load.per_second, super::millis(load.p50), super::millis(load.p99))
}

fn ratio(part: f64, whole: f64) -> f64 {
    if whole > 0.0 { part / whole } else { f64::NAN }
}

fn verdict(met: bool) -> &'static str {
    if met { "met" } else { "MISSED" }
}

fn print_table(f: &Figures) {
    let ms = super::millis;
    let check_ratio = ratio(f.check.per_second, f.select_only.per_second);
    let write_ratio = ratio(f.write.per_second, f.tpc_b.per_second);
    let depth_ratio = ratio(ms(f.deep_page.p50), ms(f.first_page.p50));
    let d = &f.deliveries;
    println!();
    println!("{:<34} {:<40} {:<40} {:>6}  goal", "scenario", "service", "baseline (same run)", "ratio");
    println!(
        "{:<34} {:<40} {:<40} {:>6.2}  ≥ {GOAL_CHECK_RATIO} of baseline: {}",
        "SDK check GET /clickwrap",
        describe(&f.check),
        format!("pgbench -S {}", describe(&f.select_only)),
        check_ratio,
        verdict(check_ratio >= GOAL_CHECK_RATIO)
    );
    for (route, heavy, new, ratio) in [
        ("GET /clickwrap", f.heavy.check_heavy, f.heavy.check_new, f.heavy.check_ratio()),
        ("status", f.heavy.status_heavy, f.heavy.status_new, f.heavy.status_ratio()),
    ] {
        println!(
            "{:<34} {:<40} {:<40} {:>6.2}  ≤ {}: {}",
            format!("heavy end user {route} p50"),
            format!("{:.2} ms", ms(heavy)),
            format!("new end user: {:.2} ms", ms(new)),
            ratio,
            heavy::GOAL_RATIO,
            verdict(ratio <= heavy::GOAL_RATIO)
        );
    }
    println!(
        "{:<34} {:<40} {:<40} {:>6.2}  ≥ {GOAL_WRITES_PER_SECOND}/s: {}",
        "consent write POST + verify",
        describe(&f.write),
        format!("TPC-B {}", describe(&f.tpc_b)),
        write_ratio,
        verdict(f.write.per_second >= GOAL_WRITES_PER_SECOND)
    );
    println!(
        "{:<34} {:<40} {:<40} {:>6.2}  ≤ {GOAL_DEPTH_RATIO}: {}",
        format!("events page p50, depth {}", f.depth),
        format!("{:.2} ms", ms(f.deep_page.p50)),
        format!("depth 0: {:.2} ms", ms(f.first_page.p50)),
        depth_ratio,
        verdict(depth_ratio <= GOAL_DEPTH_RATIO)
    );
    println!(
        "{:<34} {:<40} {:<40} {:>6}  p50 < {GOAL_LAG_P50_MS} ms: {}",
        "webhooks",
        format!("{:.0}/s during writes, lag p50 {:.1} ms", d.per_second, ms(d.lag_p50)),
        format!("lag p99 {:.1} ms; drained {:.1} s after", ms(d.lag_p99), d.drained_after.as_secs_f64()),
        "",
        verdict(ms(d.lag_p50) < GOAL_LAG_P50_MS)
    );
    println!(
        "{:<34} {:<40} {:<40} {:>6}  idle ≤ {GOAL_IDLE_MIB} MiB: {}",
        "server resident memory",
        format!("idle {:.1} MiB, peak {:.1} MiB", f.idle_mib, f.peak_mib),
        format!("(peak during {}; idle after {:.1} MiB)", f.peak_during, f.idle_after_mib),
        "",
        verdict(f.idle_mib <= GOAL_IDLE_MIB)
    );
    println!();
}

fn load_json(load: &Load) -> Value {
    json!({
        "count": load.count,
        "per_second": load.per_second,
        "p50_ms": super::millis(load.p50),
        "p99_ms": super::millis(load.p99),
        "errors": load.errors,
    })
}

fn report(bench: &Bench, machine: &Value, f: &Figures, problems: &[String]) -> Value {
    let s = &bench.sizes;
    let d = &f.deliveries;
    let ms = super::millis;
    json!({
        "benchmark": "service: the release server against same-run PostgreSQL baselines",
        "quick": s.quick,
        "pooler": if bench.pooler { "pgbouncer, transaction mode" } else { "none" },
        "machine": machine,
        "data": {
            "verified_events": s.events(),
            "end_users": s.end_users,
            "templates": TEMPLATES,
            "versions_per_template": 3,
            "heavy_end_user_events": s.heavy_events(),
        },
        "connections": s.connections,
        "run_seconds": s.run.as_secs(),
        "sdk_check": {
            "service": load_json(&f.check),
            "cpu": f.check_cpu.to_json(),
            "baseline_pgbench_select_only": load_json(&f.select_only),
            "ratio": ratio(f.check.per_second, f.select_only.per_second),
            "goal_ratio_at_least": GOAL_CHECK_RATIO,
        },
        "heavy_end_user": f.heavy.to_json(),
        "consent_write": {
            "service": load_json(&f.write),
            "cpu": f.write_cpu.to_json(),
            "baseline_pgbench_tpc_b": load_json(&f.tpc_b),
            "ratio": ratio(f.write.per_second, f.tpc_b.per_second),
            "goal_per_second_at_least": GOAL_WRITES_PER_SECOND,
        },
        "events_list": {
            "depth": f.depth,
            "first_page": load_json(&f.first_page),
            "deep_page": load_json(&f.deep_page),
            "ratio_p50": ratio(ms(f.deep_page.p50), ms(f.first_page.p50)),
            "goal_ratio_at_most": GOAL_DEPTH_RATIO,
        },
        "webhooks": {
            "delivered_of_write_run": d.count,
            "per_second_during_writes": d.per_second,
            "drained_seconds_after_writes": d.drained_after.as_secs_f64(),
            "lag_rate_per_second": s.lag_rate,
            "lag_samples": d.lag_samples,
            "lag_p50_ms": ms(d.lag_p50),
            "lag_p99_ms": ms(d.lag_p99),
            "bad_signatures": d.bad_signatures,
            "repeated_deliveries": d.repeated,
            "failed_attempts": d.failed_attempts.iter().map(|(class, n)| json!({"error": class, "count": n})).collect::<Vec<_>>(),
            "goal_lag_p50_ms_below": GOAL_LAG_P50_MS,
        },
        "resident_memory_mib": {
            "idle": f.idle_mib,
            "peak": f.peak_mib,
            "peak_during": f.peak_during,
            "idle_after_load": f.idle_after_mib,
            "goal_idle_at_most": GOAL_IDLE_MIB,
        },
        "problems": problems,
    })
}
