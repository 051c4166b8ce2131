//! `cargo xtask bench [service|storage|webhooks]`: the benchmarks, and what they share (the
//! PostgreSQL server they use, the machine description, percentiles, the results folder).
//!
//! Every benchmark measures a baseline in the same run and reports ratios: the machines this runs on
//! are shared and noisy, so an absolute figure alone says little.

mod bundle;
mod disk;
pub(crate) mod service;
mod storage;
mod webhooks;

use std::path::Path;
use std::time::Duration;

use clickwrap_postgres::database::{self, DatabaseUrl};
use diesel::QueryableByName;
use diesel::sql_types::Text;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl, SimpleAsyncConnection};
use serde_json::{Value, json};

pub(crate) const USAGE: &str = "\
cargo xtask bench [--quick] [--profile] [--pooler]
          the whole service against the database's own limits, in one run: builds the release
          server, fills a fresh database (1,000,000 verified events, 100,000 end users, 10 templates),
          and measures the SDK check against `pgbench -S`, the consent write against `pgbench`
          TPC-B, events-list pages at depth 0 and 900,000, webhook deliveries and lag, and the
          server's resident memory; writes target/bench/results.json. --quick: small data and short
          runs (under two minutes). Each run also says how much CPU the server, PostgreSQL and
          the rest used per request. --profile: after the measured runs, runs the check and the
          write again under `perf record` of the whole machine and writes each one's costliest
          functions to target/bench/profile-{check,write}.txt (needs perf and root or
          kernel.perf_event_paranoid <= 1). --pooler: the server reaches PostgreSQL through a
          PgBouncer of its own in transaction mode (CLICKWRAP_DATABASE_POOLER=transaction, LISTEN
          on a direct URL); the baselines stay direct. Installs wrk when missing; needs pgbench
          and PostgreSQL (and pgbouncer for --pooler).
cargo xtask bench storage [--events N] [--quick] [--repetitions N]
          events-list page latency by depth through the PostgreSQL adapter, with query plans;
          writes target/bench/storage.json
cargo xtask bench disk [--events N] [--quick] [--server PATH]
          database bytes per verified accepted event: builds the release server, runs N (default
          2,000; --quick 300) personalized accepted flows through HTTP with certificates and
          webhooks, and reports the growth of pg_database_size and of each table (heap, TOAST,
          indexes) per event, the certificate size, and the same after VACUUM FULL; writes
          target/bench/disk.json. --server: measure that binary instead of building one
cargo xtask bench webhooks [--quick]
          the webhook dispatcher alone against a local HTTPS receiver; writes target/bench/webhooks.json
cargo xtask bench bundle [--events N] [--keep]
          `verify-bundle` over an evidence bundle of N synthetic events (default 100,000; no
          database), against merely parsing its events in the same run; --keep leaves the bundle

The PostgreSQL server is CLICKWRAP_TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres);
each benchmark drops and recreates databases of its own there (clickwrap_bench_*).";

const DEFAULT_SERVER: &str = "postgres://postgres@127.0.0.1:5432/postgres";

/// Runs `cargo xtask bench` with `args` (the words after `bench`).
pub(crate) fn run(root: &Path, args: &[String]) -> Result<(), String> {
    let rest = args.get(1..).unwrap_or_default();
    match args.first().map(String::as_str) {
        Some("help" | "-h" | "--help") => {
            println!("{USAGE}");
            Ok(())
        }
        Some("storage") => storage::run(root, rest),
        Some("webhooks") => webhooks::run(root, rest),
        Some("bundle") => bundle::run(root, rest),
        Some("disk") => disk::run(root, rest),
        Some("service") => service::run(root, rest),
        None => service::run(root, args),
        Some(option) if option.starts_with("--") => service::run(root, args),
        Some(other) => Err(format!("unknown benchmark `{other}`\n\n{USAGE}")),
    }
}

fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))
}

/// Two worker threads: for a run that drives a server and its clients at once (the service and
/// disk benchmarks, the fault run).
pub(crate) fn two_worker_runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))
}

/// The PostgreSQL server the benchmarks (and the `pooler` step's PgBouncer) create their databases on.
pub(crate) fn database_server() -> Result<DatabaseUrl, String> {
    let text = std::env::var("CLICKWRAP_TEST_DATABASE_URL").unwrap_or_else(|_| DEFAULT_SERVER.to_owned());
    DatabaseUrl::parse(&text).map_err(|e| format!("CLICKWRAP_TEST_DATABASE_URL: {e}"))
}

pub(crate) async fn connect(url: &DatabaseUrl) -> Result<AsyncPgConnection, String> {
    AsyncPgConnection::establish(&url.expose()).await.map_err(|e| format!("cannot connect to {url}: {e}"))
}

/// Drops `url`'s database (with any sessions on it) and creates it empty, then migrates it if `migrated`.
async fn recreate_database(url: &DatabaseUrl, migrated: bool) -> Result<(), String> {
    drop_database(url).await?;
    database::create_database_if_missing(url).await.map_err(|e| e.to_string())?;
    if migrated { database::migrate(url).await.map_err(|e| e.to_string()) } else { Ok(()) }
}

/// Drops `url`'s database (a benchmark's, once measured: they take gigabytes).
async fn drop_database(url: &DatabaseUrl) -> Result<(), String> {
    let name = url.database();
    let mut admin = connect(&url.with_database("postgres")).await?;
    admin
        .batch_execute(&format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)"))
        .await
        .map_err(|e| format!("cannot drop {name}: {e}"))
}

/// Drops `url`'s database and creates it again, migrated.
async fn recreate(url: &DatabaseUrl) -> Result<(), String> {
    recreate_database(url, true).await
}

/// Bulk loads set the events' secondary indexes aside and build them afterwards from the
/// migration's own definitions: one sort each instead of a million insertions each.
const SET_ASIDE_INDEXES: &str = r"
CREATE TEMP TABLE bench_indexes AS
    SELECT indexname, indexdef FROM pg_indexes
    WHERE schemaname = 'public' AND tablename = 'clickwrap_events' AND indexname LIKE 'events\_%';
DO $$
DECLARE r record;
BEGIN
    FOR r IN SELECT indexname FROM bench_indexes LOOP
        EXECUTE format('DROP INDEX %I', r.indexname);
    END LOOP;
END $$;
";

const REBUILD_INDEXES: &str = r"
SET maintenance_work_mem = '256MB';
DO $$
DECLARE r record;
BEGIN
    FOR r IN SELECT indexdef FROM bench_indexes ORDER BY indexname LOOP
        EXECUTE r.indexdef;
    END LOOP;
END $$;
";

#[derive(QueryableByName)]
struct Version {
    #[diesel(sql_type = Text)]
    version: String,
}

/// What the figures were measured on.
async fn machine(conn: &mut AsyncPgConnection) -> Result<Value, String> {
    let postgres: Version =
        diesel::sql_query("SELECT version() AS version").get_result(conn).await.map_err(|e| e.to_string())?;
    let cpu = std::fs::read_to_string("/proc/cpuinfo").ok().and_then(|info| {
        info.lines()
            .find_map(|l| l.strip_prefix("model name").map(|v| v.trim_start_matches([' ', '\t', ':']).to_owned()))
    });
    let memory_mib = std::fs::read_to_string("/proc/meminfo").ok().and_then(|info| {
        info.lines().find_map(|l| l.strip_prefix("MemTotal:")?.trim().trim_end_matches(" kB").parse::<u64>().ok())
    });
    Ok(json!({
        "cpus": std::thread::available_parallelism().map(usize::from).unwrap_or(0),
        "cpu": cpu,
        "memory_mib": memory_mib.map(|kib| kib / 1024),
        "os": std::env::consts::OS,
        "arch": std::env::consts::ARCH,
        "postgres": postgres.version,
    }))
}

/// Writes `report` to `target/bench/<file>`.
fn write_results(root: &Path, file: &str, report: &Value) -> Result<(), String> {
    let out_dir = root.join("target").join("bench");
    std::fs::create_dir_all(&out_dir).map_err(|e| format!("cannot create {}: {e}", out_dir.display()))?;
    let out = out_dir.join(file);
    let text = serde_json::to_string_pretty(report).map_err(|e| e.to_string())?;
    std::fs::write(&out, text + "\n").map_err(|e| format!("cannot write {}: {e}", out.display()))
}

/// The `percent` percentile of sorted `times` (nearest rank, rounding up).
fn percentile(sorted: &[Duration], percent: usize) -> Duration {
    let index = (sorted.len().saturating_sub(1) * percent).div_ceil(100);
    sorted.get(index).copied().unwrap_or_default()
}

/// A SQL string literal (for the benchmarks' one-off statements; measured ones bind their values).
fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

fn millis(d: Duration) -> f64 {
    d.as_secs_f64() * 1_000.0
}
