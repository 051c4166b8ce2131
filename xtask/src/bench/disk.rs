//! `cargo xtask bench disk`: how many bytes of database one verified accepted event costs, measured
//! the way an operator would see it.
//!
//! It builds the release server, starts it on a fresh database with a webhook receiver, makes an app
//! and a template whose agreement (about 8 KB) is personalized by placeholders, and runs consent
//! flows through HTTP as the SDK and an operator's backend do: `GET /clickwrap` with the end user's
//! own placeholder values (so every end user sees a text of their own), `POST /clickwrap`, then
//! `POST /clickwrap/verify`, which records the event, signs its certificate and queues its webhook.
//! It waits until every webhook was delivered and its attempt recorded, then reports the growth of
//! `pg_database_size` per verified event over the measured flows (a warm-up runs first, so that the
//! tables' first pages are not counted), the growth of each table (heap, TOAST, indexes), the
//! certificate size, and the same once more after `VACUUM FULL` (the live data alone).

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use diesel::QueryableByName;
use diesel::sql_types::{BigInt, Double, Text};
use diesel_async::{AsyncPgConnection, RunQueryDsl, SimpleAsyncConnection};
use hyper::Method;
use serde_json::{Value, json};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use super::service::client::{Connection, query_value};
use super::service::data::{self, App, PUBLIC};
use super::service::flows::accept;
use super::service::receiver::Receiver;
use super::service::server::{self, Server};

const USAGE: &str = "\
cargo xtask bench disk [--events N] [--quick] [--server PATH]

  --events N     measured personalized accepted flows (default 2000), after a warm-up of a tenth as many
  --quick        300 flows: a smoke run
  --server PATH  measure this clickwrap-server binary instead of building the release server
                 (to compare two versions on the same machine, one run after the other)

The database server is CLICKWRAP_TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres);
the benchmark drops and recreates the database clickwrap_bench_disk on it. Results go to
target/bench/disk.json.";

const DATABASE: &str = "clickwrap_bench_disk";
const WORKERS: u64 = 8;

#[derive(Debug, Clone)]
struct Options {
    events: u64,
    server: Option<PathBuf>,
}

pub(super) fn run(root: &Path, args: &[String]) -> Result<(), String> {
    let options = parse_options(args)?;
    let started = Instant::now();
    println!("bench disk: {} personalized accepted flows with certificates and webhooks", options.events);
    let binary = match &options.server {
        Some(path) => path.clone(),
        None => server::build(root, true)?,
    };
    let out = root.join("target").join("bench");
    std::fs::create_dir_all(&out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let runtime = super::two_worker_runtime()?;
    let report = runtime.block_on(measure(&binary, &out, options.events))?;
    super::write_results(root, "disk.json", &report)?;
    println!("results written to target/bench/disk.json ({:.0}s in all)", started.elapsed().as_secs_f64());
    Ok(())
}

fn parse_options(args: &[String]) -> Result<Options, String> {
    let mut options = Options { events: 2_000, server: None };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--quick" => options.events = 300,
            "--events" => {
                options.events = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .filter(|n| *n > 0)
                    .ok_or(format!("--events takes a positive number\n\n{USAGE}"))?;
            }
            "--server" => {
                options.server =
                    Some(args.next().map(PathBuf::from).ok_or(format!("--server takes a path\n\n{USAGE}"))?);
            }
            other => return Err(format!("unknown option `{other}`\n\n{USAGE}")),
        }
    }
    Ok(options)
}

async fn measure(binary: &Path, out: &Path, flow_count: u64) -> Result<Value, String> {
    let database = super::database_server()?.with_database(DATABASE);
    let operator_token = server::fresh_tenant(binary, &database, "Disk bench").await?;

    let ca_file = out.join("disk-receiver-ca.pem");
    let receiver = Receiver::start(&ca_file).await?;
    let address = server::free_address()?;
    let env = server::bench_env(database.expose(), &ca_file);
    let server = Server::start(binary, address, &env, &out.join("disk-server.log")).await?;
    let mut setup = Connection::open(address).await?;
    let installation = Arc::new(install(&mut setup, &operator_token, &receiver.url()).await?);
    let mut conn = super::connect(&database).await?;
    let machine = super::machine(&mut conn).await?;
    // The live data of an installation without events, for the compacted figures.
    conn.batch_execute("VACUUM FULL").await.map_err(|e| format!("VACUUM FULL: {e}"))?;
    let empty = sizes(&mut conn).await?;

    let warm_up = (flow_count / 10).max(20);
    let warm = flows(address, &installation, 0, warm_up).await?;
    settle(&mut conn, &receiver, &installation, &warm).await?;
    let before = sizes(&mut conn).await?;
    let step = Instant::now();
    let measured = flows(address, &installation, warm_up, flow_count).await?;
    let flow_seconds = step.elapsed().as_secs_f64();
    settle(&mut conn, &receiver, &installation, &measured).await?;
    let after = sizes(&mut conn).await?;
    let stored = stored_sizes(&mut conn).await?;
    server.stop()?;
    drop(receiver);
    let _ = std::fs::remove_file(&ca_file);

    conn.batch_execute("VACUUM FULL").await.map_err(|e| format!("VACUUM FULL: {e}"))?;
    let compacted = sizes(&mut conn).await?;
    drop(conn);
    super::drop_database(&database).await?;

    let events = measured.len() as f64;
    let all_events = (warm.len() + measured.len()) as f64;
    let growth = Growth::between(&before, &after, events);
    let live = Growth::between(&empty, &compacted, all_events);
    println!(
        "    {} flows in {flow_seconds:.1}s; certificate {:.0} bytes, content as shown {:.0} bytes ({:.0} stored), \
         webhook payload {:.0} bytes",
        measured.len(),
        stored.certificate,
        stored.content_raw,
        stored.content_stored,
        stored.payload
    );
    print_table("as the operator sees it: growth over the measured flows", &growth);
    print_table("live data only: after VACUUM FULL, over all flows", &live);
    Ok(json!({
        "machine": machine,
        "flows": measured.len(),
        "warm_up_flows": warm.len(),
        "flow_seconds": flow_seconds,
        "bytes_per_event": growth.json(),
        "bytes_per_event_after_vacuum_full": live.json(),
        "certificate_bytes": stored.certificate,
        "content_as_shown_bytes": stored.content_raw,
        "content_stored_bytes": stored.content_stored,
        "webhook_payload_bytes": stored.payload,
    }))
}

/// The app and its personalized template.
#[derive(Debug)]
struct Installation {
    app: App,
    template_id: String,
}

async fn install(connection: &mut Connection, operator_token: &str, webhook_url: &str) -> Result<Installation, String> {
    let app = data::create_app(connection, operator_token, "Disk app", webhook_url).await?;
    let body = json!({"name": "Personalized terms", "content": {"en": agreement()}});
    let template_id = data::create_template(connection, operator_token, &body).await?;
    let effective_at = (OffsetDateTime::now_utc() - time::Duration::days(1)).format(&Rfc3339).unwrap_or_default();
    data::publish(connection, operator_token, &template_id, "MAJOR", &effective_at).await?;
    data::enable(connection, operator_token, &template_id).await?;
    Ok(Installation { app, template_id })
}

/// An agreement of about 8 KB, addressed to the end user by name, email and company.
fn agreement() -> String {
    let mut html = "<h1>Terms of Service</h1><p>These terms are between {{company}} and you, {{fullName}} \
                    ({{email}}). Please read them carefully.</p>"
        .to_owned();
    data::push_sections(&mut html, "");
    html.push_str("<p>Accepted by {{fullName}} for {{company}}.</p>");
    html
}

/// Runs flows `first .. first + count` with a few workers; the verified events' ids.
async fn flows(
    address: SocketAddr,
    installation: &Arc<Installation>,
    first: u64,
    count: u64,
) -> Result<Vec<String>, String> {
    let next = Arc::new(AtomicU64::new(first));
    let end = first + count;
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..WORKERS.min(count) {
        let next = next.clone();
        let installation = installation.clone();
        tasks.spawn(async move {
            let mut browser = Connection::open(address).await?;
            let mut backend = Connection::open(address).await?;
            let mut verified = Vec::new();
            loop {
                let n = next.fetch_add(1, Ordering::Relaxed);
                if n >= end {
                    return Ok::<_, String>(verified);
                }
                verified.push(flow(&mut browser, &mut backend, &installation, n).await?);
            }
        });
    }
    let mut verified = Vec::new();
    while let Some(result) = tasks.join_next().await {
        verified.extend(result.map_err(|e| format!("a flow worker failed: {e}"))??);
    }
    Ok(verified)
}

/// One personalized flow of end user `n`: the check with their placeholder values, the acceptance
/// of the text it rendered, the backend's verification. Returns the event id.
async fn flow(
    browser: &mut Connection,
    backend: &mut Connection,
    installation: &Installation,
    n: u64,
) -> Result<String, String> {
    let end_user = format!("disk-user-{n:07}");
    // Values as the browser SDK sends them: each URL-encoded once.
    let placeholders = json!({
        "fullName": format!("Ada%20Lovelace%20{n}"),
        "email": format!("ada.{n}%40example.com"),
        "company": format!("Analytical%20Engines%20{}%20Ltd", n % 97),
    });
    let ip = format!("10.{}.{}.{}", 100 + n / 65_536 % 100, n / 256 % 256, n % 256);
    let headers = [("x-forwarded-for", ip.as_str()), ("user-agent", "Mozilla/5.0 (X11; Linux x86_64) disk-bench")];
    let check = format!(
        "{PUBLIC}/clickwrap?appId={}&clickwrapTemplateId={}&endUserId={}&templatePlaceholders={}",
        installation.app.app_id,
        installation.template_id,
        query_value(&end_user),
        query_value(&placeholders.to_string())
    );
    let shown = browser.send(Method::GET, &check, &headers, None).await?.expect(200, "GET /clickwrap")?;
    let app = &installation.app;
    let action =
        data::acceptance(&app.app_id, &installation.template_id, &data::version(shown)?, &end_user, &placeholders);
    accept(browser, backend, app, &action, &headers).await
}

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = BigInt)]
    count: i64,
}

/// Waits until every event of `verified` arrived at the receiver and no delivery is pending any more
/// (its attempt is recorded), at most two minutes.
async fn settle(
    conn: &mut AsyncPgConnection,
    receiver: &Receiver,
    installation: &Installation,
    verified: &[String],
) -> Result<(), String> {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let missing = receiver.missing(&installation.app.webhook_secret, verified.iter());
        let pending: Count =
            diesel::sql_query("SELECT count(*) AS count FROM webhook_deliveries WHERE state = 'PENDING'")
                .get_result(conn)
                .await
                .map_err(|e| e.to_string())?;
        if missing == 0 && pending.count == 0 {
            return Ok(());
        }
        if Instant::now() > deadline {
            return Err(format!(
                "{missing} webhooks not received and {} deliveries pending after two minutes",
                pending.count
            ));
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[derive(QueryableByName, Debug, Clone)]
struct TableSize {
    #[diesel(sql_type = Text)]
    name: String,
    /// The table's own pages with its free space and visibility maps.
    #[diesel(sql_type = BigInt)]
    heap: i64,
    /// Its TOAST table with the TOAST index.
    #[diesel(sql_type = BigInt)]
    toast: i64,
    #[diesel(sql_type = BigInt)]
    indexes: i64,
}

#[derive(QueryableByName, Debug, Clone)]
struct IndexSize {
    #[diesel(sql_type = Text)]
    table: String,
    #[diesel(sql_type = Text)]
    name: String,
    #[diesel(sql_type = BigInt)]
    bytes: i64,
    /// Index scans since the statistics were reset: which indexes the flows use.
    #[diesel(sql_type = BigInt)]
    scans: i64,
}

#[derive(Debug)]
struct Sizes {
    database: i64,
    tables: Vec<TableSize>,
    indexes: Vec<IndexSize>,
}

async fn sizes(conn: &mut AsyncPgConnection) -> Result<Sizes, String> {
    let database: Count = diesel::sql_query("SELECT pg_database_size(current_database()) AS count")
        .get_result(conn)
        .await
        .map_err(|e| e.to_string())?;
    let tables: Vec<TableSize> = diesel::sql_query(
        "SELECT c.relname::text AS name, \
             pg_table_size(c.oid) - COALESCE(pg_total_relation_size(NULLIF(c.reltoastrelid, 0)), 0) AS heap, \
             COALESCE(pg_total_relation_size(NULLIF(c.reltoastrelid, 0)), 0) AS toast, \
             pg_indexes_size(c.oid) AS indexes \
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace \
         WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY c.relname",
    )
    .load(conn)
    .await
    .map_err(|e| e.to_string())?;
    let indexes: Vec<IndexSize> = diesel::sql_query(
        "SELECT relname::text AS table, indexrelname::text AS name, pg_relation_size(indexrelid) AS bytes, \
             idx_scan AS scans \
         FROM pg_stat_user_indexes WHERE schemaname = 'public' ORDER BY relname, indexrelname",
    )
    .load(conn)
    .await
    .map_err(|e| e.to_string())?;
    Ok(Sizes { database: database.count, tables, indexes })
}

#[derive(QueryableByName)]
struct Stored {
    #[diesel(sql_type = Double)]
    certificate: f64,
    #[diesel(sql_type = Double)]
    content_raw: f64,
    #[diesel(sql_type = Double)]
    content_stored: f64,
    #[diesel(sql_type = Double)]
    payload: f64,
}

/// Average sizes of what one event stores: its certificate, its content as shown (its UTF-8 bytes
/// and what the column takes after compression), its webhook payload.
async fn stored_sizes(conn: &mut AsyncPgConnection) -> Result<Stored, String> {
    diesel::sql_query(
        "SELECT (SELECT COALESCE(avg(octet_length(pdf)), 0)::float8 FROM certificates) AS certificate, \
             (SELECT COALESCE(avg(octet_length(content)), 0)::float8 FROM event_contents) AS content_raw, \
             (SELECT COALESCE(avg(pg_column_size(content)), 0)::float8 FROM event_contents) AS content_stored, \
             (SELECT COALESCE(avg(octet_length(payload)), 0)::float8 FROM webhook_deliveries) AS payload",
    )
    .get_result(conn)
    .await
    .map_err(|e| e.to_string())
}

/// Bytes per event, per table and in all.
#[derive(Debug)]
struct Growth {
    database: f64,
    /// (table, heap, toast, indexes), tables that grew, largest first.
    tables: Vec<(String, f64, f64, f64)>,
    /// (table, index, bytes, scans during the interval), indexes that grew, largest first.
    indexes: Vec<(String, String, f64, i64)>,
}

impl Growth {
    fn between(before: &Sizes, after: &Sizes, events: f64) -> Self {
        let per = |bytes: i64| if events > 0.0 { bytes as f64 / events } else { 0.0 };
        let mut tables: Vec<(String, f64, f64, f64)> = after
            .tables
            .iter()
            .map(|a| {
                let b = before.tables.iter().find(|b| b.name == a.name);
                let (heap, toast, indexes) = b.map_or((0, 0, 0), |b| (b.heap, b.toast, b.indexes));
                (a.name.clone(), per(a.heap - heap), per(a.toast - toast), per(a.indexes - indexes))
            })
            .filter(|(_, heap, toast, indexes)| *heap != 0.0 || *toast != 0.0 || *indexes != 0.0)
            .collect();
        tables.sort_by(|a, b| (b.1 + b.2 + b.3).total_cmp(&(a.1 + a.2 + a.3)));
        let mut indexes: Vec<(String, String, f64, i64)> = after
            .indexes
            .iter()
            .map(|a| {
                let b = before.indexes.iter().find(|b| b.name == a.name);
                let (bytes, scans) = b.map_or((0, 0), |b| (b.bytes, b.scans));
                (a.table.clone(), a.name.clone(), per(a.bytes - bytes), a.scans - scans)
            })
            .filter(|(_, _, bytes, _)| *bytes != 0.0)
            .collect();
        indexes.sort_by(|a, b| b.2.total_cmp(&a.2));
        Self { database: per(after.database - before.database), tables, indexes }
    }

    fn json(&self) -> Value {
        let tables: Vec<Value> = self
            .tables
            .iter()
            .map(|(name, heap, toast, indexes)| {
                json!({"table": name, "heap": heap.round(), "toast": toast.round(), "indexes": indexes.round(),
                       "total": (heap + toast + indexes).round()})
            })
            .collect();
        let indexes: Vec<Value> = self
            .indexes
            .iter()
            .map(|(table, name, bytes, scans)| json!({"table": table, "index": name, "bytes": bytes.round(), "scans": scans}))
            .collect();
        let sum: f64 = self.tables.iter().map(|(_, h, t, i)| h + t + i).sum();
        json!({"database": self.database.round(), "tables_sum": sum.round(), "tables": tables, "indexes": indexes})
    }
}

fn print_table(title: &str, growth: &Growth) {
    println!("\n  bytes per verified accepted event, {title}");
    println!("  {:<24} {:>9} {:>9} {:>9} {:>9}", "table", "heap", "TOAST", "indexes", "total");
    let mut sum = 0.0;
    for (name, heap, toast, indexes) in &growth.tables {
        let total = heap + toast + indexes;
        sum += total;
        println!("  {name:<24} {heap:>9.0} {toast:>9.0} {indexes:>9.0} {total:>9.0}");
    }
    println!("  {:<24} {:>39.0}", "tables in all", sum);
    let indexes: Vec<String> = growth.indexes.iter().map(|(_, name, bytes, _)| format!("{name} {bytes:.0}")).collect();
    println!("  indexes: {}", indexes.join(", "));
    println!("  {:<24} {:>39.0}  ({:.1} KiB)", "pg_database_size", growth.database, growth.database / 1024.0);
}
