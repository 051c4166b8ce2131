//! `cargo xtask bench storage`: how the latency of an events-list page depends on its depth.
//!
//! The events list pages by keyset (newest first by `(action_at, id)`), so a page deep in the list
//! should cost what the first page costs. This fills a database of its own with one million verified
//! events, then asks the real adapter (`PgStore::list_verified_events`, a page of 20 plus one) for
//! the first page and for the last full page of several filter combinations, and prints the ratio
//! of their median latencies. The ratio, not the absolute figure, is the result: both sides are
//! measured in the same run, interleaved, on the same (shared, noisy) machine.
//!
//! It also captures the SQL the adapter sends for each deep page (diesel's instrumentation hands it
//! over verbatim), runs it under `EXPLAIN (ANALYZE, BUFFERS)` with both a custom and a generic plan,
//! and checks that each plan reads `clickwrap_events` with a single index scan on an `events_list*`
//! index, every condition in the index condition and no sort. A plan that fails the check fails the
//! command; a ratio over the goal is reported but does not.

use std::fmt::Debug;
use std::path::Path;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use clickwrap_domain::consent::cursor::EventPosition;
use clickwrap_domain::consent::models::{Action, EventFilter};
use clickwrap_domain::ports::EventStore;
use clickwrap_domain::{EndUserId, EventId, TemplateId, TenantId, Timestamp};
use clickwrap_postgres::PgStore;
use clickwrap_postgres::database::{self, PoolSettings};
use diesel::QueryableByName;
use diesel::connection::{Instrumentation, InstrumentationEvent};
use diesel::sql_types::{Json, Text, Timestamptz, Uuid as SqlUuid};
use diesel_async::{AsyncPgConnection, RunQueryDsl, SimpleAsyncConnection};
use serde_json::{Value, json};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;
use uuid::Uuid;

const USAGE: &str = "\
cargo xtask bench storage [--events N] [--quick] [--repetitions N]

  --events N        verified events of the measured tenant (default 1000000)
  --quick           50000 events and fewer repetitions: a smoke run, well under a minute
  --repetitions N   timed requests per page and filter (default 200, 100 with --quick)

The database server is CLICKWRAP_TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres);
the benchmark drops and recreates the database clickwrap_bench_storage on it. Results go to
target/bench/storage.json.";

const DATABASE: &str = "clickwrap_bench_storage";
/// A page of 20 plus one, as the service asks for (the extra item tells whether a next page exists).
const PAGE_LIMIT: usize = 21;
/// The goal for deep-page p50 over first-page p50.
const RATIO_GOAL: f64 = 1.5;
const WARM_UP: usize = 10;

/// The measured tenant and its small neighbour, whose events share end user ids and timestamps
/// with the measured tenant's, so that a missing tenant condition would show.
const TENANT: Uuid = Uuid::from_u128(0x0b3e_0c4a_0000_4000_8000_0000_0000_0001);
const NEIGHBOUR: Uuid = Uuid::from_u128(0x0b3e_0c4a_0000_4000_8000_0000_0000_0002);
const NEIGHBOUR_EVENTS: u64 = 2_000;
const TEMPLATES: u32 = 10;
const END_USERS: u32 = 100_000;
/// One end user in twenty events is this one (think of a shared kiosk or QA account), so that the
/// end user filter has a deep list too.
const HEAVY_USER: &str = "user-000000";
/// The events' `action_at` spans this year (UTC), in whole milliseconds.
const YEAR_START: &str = "2025-01-01T00:00:00Z";
const YEAR_MILLIS: i64 = 365 * 86_400 * 1_000;

#[derive(Debug)]
struct Options {
    events: u64,
    quick: bool,
    repetitions: usize,
}

/// Runs `cargo xtask bench storage` with `args` (the words after `storage`).
pub(crate) fn run(root: &Path, args: &[String]) -> Result<(), String> {
    if matches!(args.first().map(String::as_str), Some("help" | "-h" | "--help")) {
        println!("{USAGE}");
        return Ok(());
    }
    let options = parse_options(args)?;
    super::runtime()?.block_on(storage(root, &options))
}

fn parse_options(args: &[String]) -> Result<Options, String> {
    let mut events = None;
    let mut repetitions = None;
    let mut quick = false;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--quick" => quick = true,
            "--events" => events = Some(number(args.next(), "--events")?),
            "--repetitions" => repetitions = Some(number(args.next(), "--repetitions")?),
            other => return Err(format!("unknown option `{other}`\n\n{USAGE}")),
        }
    }
    let events = events.unwrap_or(if quick { 50_000 } else { 1_000_000 });
    if events < 1_000 {
        return Err("--events must be at least 1000".to_owned());
    }
    let repetitions = repetitions.unwrap_or(if quick { 100 } else { 200 });
    Ok(Options { events, quick, repetitions: usize::try_from(repetitions).unwrap_or(usize::MAX).max(1) })
}

fn number(value: Option<&String>, option: &str) -> Result<u64, String> {
    value.and_then(|v| v.parse().ok()).ok_or_else(|| format!("{option} needs a whole number"))
}

/// One filter combination of the list.
#[derive(Debug)]
struct Case {
    name: &'static str,
    filter: EventFilter,
}

/// A case's measurements and plan.
#[derive(Debug)]
struct Outcome {
    name: &'static str,
    matching: i64,
    depth: i64,
    first: Summary,
    deep: Summary,
    plans: Vec<PlanReport>,
}

#[derive(Debug, Clone, Copy)]
struct Summary {
    p50: Duration,
    p99: Duration,
}

#[derive(Debug)]
struct PlanReport {
    /// "first" or "deep".
    page: &'static str,
    /// "custom" (planned for these values) or "generic" (planned once for any values).
    mode: &'static str,
    text: String,
    check: PlanCheck,
    /// The SQL the adapter sent (binds as `$n`).
    sql: String,
    /// Whether diesel keeps the statement prepared (so PostgreSQL may switch to a generic plan).
    kept_prepared: bool,
}

async fn storage(root: &Path, options: &Options) -> Result<(), String> {
    // Before any connection exists, so that every connection of the pool reports its queries.
    diesel::connection::set_default_instrumentation(capturing_instrumentation)
        .map_err(|e| format!("cannot install the query capture: {e}"))?;

    let url = super::database_server()?.with_database(DATABASE);

    println!("bench storage: {} verified events, {} repetitions per page", options.events, options.repetitions);
    let started = Instant::now();
    super::recreate(&url).await?;
    let mut conn = super::connect(&url).await?;
    fill(&mut conn, options.events).await?;
    println!("    data ready in {:.1}s", started.elapsed().as_secs_f64());

    let store = PgStore::new(
        database::pool(
            &url,
            PoolSettings { max_size: 1, wait_timeout: Duration::from_secs(30), ..PoolSettings::default() },
        )
        .map_err(|e| e.to_string())?,
    );
    let mut outcomes = Vec::new();
    for case in cases(&mut conn).await? {
        outcomes.push(measure(&store, &mut conn, case, options.repetitions).await?);
    }

    print_table(&outcomes);
    let machine = super::machine(&mut conn).await?;
    let report = report_json(options, &machine, &outcomes);
    super::write_results(root, "storage.json", &report)?;
    println!("results written to target/bench/storage.json ({:.0}s in all)", started.elapsed().as_secs_f64());

    let failed: Vec<String> = outcomes
        .iter()
        .flat_map(|o| o.plans.iter().map(move |p| (o.name, p)))
        .filter(|(_, p)| !p.check.problems.is_empty())
        .map(|(name, p)| format!("{name} ({} page, {} plan)", p.page, p.mode))
        .collect();
    if failed.is_empty() { Ok(()) } else { Err(format!("plans not as intended for: {}", failed.join(", "))) }
}

// ---------------------------------------------------------------------------------------------
// The database and its data

/// Fills the database with SQL that generates the rows on the server, in a few statements. Every
/// value is derived from the row number, so each run builds the same data. The events' secondary
/// indexes are set aside during the load and built afterwards from the migration's own definitions
/// (one sort each instead of a million insertions each); constraints and triggers stay in force.
async fn fill(conn: &mut AsyncPgConnection, events: u64) -> Result<(), String> {
    let steps = [
        ("tenants, apps, templates, versions, contents", setup_sql(events)),
        ("set aside the events_* indexes", super::SET_ASIDE_INDEXES.to_owned()),
        ("verified events", events_sql(false)),
        ("unverified events", events_sql(true)),
        ("build the events_* indexes", super::REBUILD_INDEXES.to_owned()),
        ("VACUUM ANALYZE", "VACUUM ANALYZE".to_owned()),
    ];
    for (what, sql) in steps {
        let step = Instant::now();
        conn.batch_execute(&sql).await.map_err(|e| format!("filling the database ({what}) failed: {e}"))?;
        println!("    {what}: {:.1}s", step.elapsed().as_secs_f64());
    }
    Ok(())
}

/// Tenants, apps, templates with six versions each, their rendered contents, and a session table
/// `bench_plan` that says how many events each tenant gets.
fn setup_sql(events: u64) -> String {
    format!(
        "
SET synchronous_commit = off;
INSERT INTO tenants (id, name, event_quota, created_at) VALUES
    ('{TENANT}', 'Bench tenant', NULL, '2024-12-01T00:00:00Z'),
    ('{NEIGHBOUR}', 'Bench neighbour', NULL, '2024-12-01T00:00:00Z');

CREATE TEMP TABLE bench_plan (tenant_id uuid, tag text, events bigint, templates int, apps int);
INSERT INTO bench_plan VALUES ('{TENANT}', 'a', {events}, {TEMPLATES}, 3), ('{NEIGHBOUR}', 'b', {NEIGHBOUR_EVENTS}, 2, 1);

INSERT INTO apps (id, tenant_id, name, webhook_url, webhook_enabled, allowed_origins, app_key_hash,
                  webhook_secret_sealed, created_at, updated_at)
SELECT md5('bench:app:' || p.tag || ':' || n)::uuid, p.tenant_id, 'Bench app ' || n, NULL, false,
       ARRAY['https://app.example'], sha256(convert_to('bench app key ' || p.tag || n, 'UTF8')),
       sha256(convert_to('bench webhook secret ' || p.tag || n, 'UTF8')), '2024-12-01T00:00:00Z', '2024-12-01T00:00:00Z'
FROM bench_plan p, generate_series(0, p.apps - 1) AS n;

INSERT INTO templates (id, tenant_id, name, tags, default_language, draft, customizations,
                       always_require_acceptance, enabled, created_at, updated_at)
SELECT md5('bench:template:' || p.tag || ':' || k)::uuid, p.tenant_id, format('Bench template %s', k), ARRAY['bench'],
       'en', '{{}}', '{{}}', false, true, '2024-12-01T00:00:00Z', '2024-12-01T00:00:00Z'
FROM bench_plan p, generate_series(0, p.templates - 1) AS k;

-- Six versions per template (1.0, 1.1, 2.0, 2.1, 3.0, 3.1), the v-th effective from the v-th sixth of the year.
CREATE TEMP TABLE bench_versions AS
SELECT p.tenant_id, k, v, md5('bench:template:' || p.tag || ':' || k)::uuid AS template_id,
       format('Bench template %s', k) AS template_name, 1 + v / 2 AS major, v % 2 AS minor,
       timestamptz '{YEAR_START}' + v * {YEAR_MILLIS} / 6 * interval '1 millisecond' AS effective_at,
       format('Terms of bench template %s of %s, version %s.%s. ', k, p.tag, 1 + v / 2, v % 2)
           || repeat('The service is provided as is, without warranty of any kind. ', 40) AS content
FROM bench_plan p, generate_series(0, p.templates - 1) AS k, generate_series(0, 5) AS v;
ALTER TABLE bench_versions ADD COLUMN content_hash text;
UPDATE bench_versions SET content_hash = 'sha256:' || encode(sha256(convert_to(content, 'UTF8')), 'hex');

INSERT INTO template_versions (tenant_id, template_id, major, minor, effective_at, published_at, content)
SELECT tenant_id, template_id, major, minor, effective_at, effective_at - interval '1 day',
       jsonb_build_object('body', content)
FROM bench_versions;

INSERT INTO event_contents (content_hash, content) SELECT content_hash, content FROM bench_versions;
"
    )
}

/// The events of both tenants: verified ones (85 % accepted), or a further 2 % unverified ones
/// that the list must skip. Event `g` of a tenant's `n` happens at `g * year / n` into the year, every
/// tenth one in the same millisecond as the one before; template and end user are spread by a hash
/// of `g`, and one event in twenty belongs to the heavy end user.
fn events_sql(unverified: bool) -> String {
    // `position` runs from 0 to the tenant's event count: where in the year the event happens.
    let (series, position, status, verified_at) = if unverified {
        ("generate_series(p.events, p.events + p.events / 50 - 1)", "(g - p.events) * 50", "'UNVERIFIED'", "NULL")
    } else {
        ("generate_series(0, p.events - 1)", "g - (g % 10 = 9)::int", "s.action", "s.action_at + interval '1 second'")
    };
    format!(
        "
INSERT INTO clickwrap_events (id, tenant_id, app_id, template_id, template_name, version_major, version_minor,
    effective_at, end_user_id, action, status, language, content_hash, template_placeholders, technical_metadata,
    presentation_mode, agreement_mode, accept_label, checkbox_label, presented_at, action_at, verified_at)
SELECT md5('bench:event:' || p.tag || ':' || s.g)::uuid, p.tenant_id,
       md5('bench:app:' || p.tag || ':' || s.g % p.apps)::uuid, v.template_id, v.template_name, v.major, v.minor,
       v.effective_at, s.end_user_id, s.action, {status}, 'en', v.content_hash, NULL,
       '{{\"ip\":\"203.0.113.7\",\"userAgent\":\"bench\"}}', 'DIALOG', 'CHECKBOX', 'I agree',
       'I have read and accept the terms', s.action_at - interval '20 seconds', s.action_at, {verified_at}
FROM bench_plan p
CROSS JOIN LATERAL (
    SELECT g, t.action_at,
           (hashint8extended(g, 1) & 2147483647) % p.templates AS k,
           least(5, (t.millis * 6) / {YEAR_MILLIS})::int AS v,
           CASE WHEN g % 20 = 0 THEN '{HEAVY_USER}'
                ELSE 'user-' || lpad((1 + (hashint8extended(g, 2) & 2147483647) % {last_user})::text, 6, '0')
           END AS end_user_id,
           CASE WHEN (hashint8extended(g, 3) & 2147483647) % 100 < 85 THEN 'ACCEPTED' ELSE 'DECLINED' END AS action
    FROM {series} AS g
    CROSS JOIN LATERAL (SELECT ({position}) * {YEAR_MILLIS} / p.events AS millis) AS m
    CROSS JOIN LATERAL (SELECT timestamptz '{YEAR_START}' + m.millis * interval '1 millisecond' AS action_at,
                               m.millis) AS t
) AS s
JOIN bench_versions v ON v.tenant_id = p.tenant_id AND v.k = s.k AND v.v = s.v;
",
        last_user = END_USERS - 1,
    )
}

#[derive(QueryableByName)]
struct IdRow {
    #[diesel(sql_type = SqlUuid)]
    id: Uuid,
}

/// The filter combinations measured. `from`/`to` cover the middle half of the year.
async fn cases(conn: &mut AsyncPgConnection) -> Result<Vec<Case>, String> {
    let template: IdRow =
        diesel::sql_query("SELECT id FROM templates WHERE tenant_id = $1 AND name = 'Bench template 0'")
            .bind::<SqlUuid, _>(TENANT)
            .get_result(conn)
            .await
            .map_err(|e| format!("cannot find the bench template: {e}"))?;
    let template = TemplateId::from_uuid(template.id);
    let user = EndUserId::parse(HEAVY_USER).map_err(|e| e.to_string())?;
    let year = Timestamp::parse_rfc3339(YEAR_START).map_err(|e| e.to_string())?.unix_millis();
    let from = Timestamp::from_unix_millis(year + YEAR_MILLIS / 4);
    let to = Timestamp::from_unix_millis(year + YEAR_MILLIS * 3 / 4);
    let none = EventFilter::default();
    Ok(vec![
        Case { name: "none", filter: none.clone() },
        Case { name: "template", filter: EventFilter { template_id: Some(template), ..none.clone() } },
        Case { name: "end user", filter: EventFilter { end_user_id: Some(user.clone()), ..none.clone() } },
        Case { name: "status", filter: EventFilter { status: Some(Action::Declined), ..none.clone() } },
        Case {
            name: "all + from/to",
            filter: EventFilter {
                template_id: Some(template),
                end_user_id: Some(user),
                status: Some(Action::Accepted),
                from,
                to,
            },
        },
    ])
}

// ---------------------------------------------------------------------------------------------
// Measuring

#[derive(QueryableByName)]
struct DeepRow {
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    matching: i64,
    #[diesel(sql_type = diesel::sql_types::Nullable<Timestamptz>)]
    action_at: Option<OffsetDateTime>,
    #[diesel(sql_type = diesel::sql_types::Nullable<SqlUuid>)]
    id: Option<Uuid>,
}

async fn measure(
    store: &PgStore,
    conn: &mut AsyncPgConnection,
    case: Case,
    repetitions: usize,
) -> Result<Outcome, String> {
    // The last full page: its cursor is the item with exactly PAGE_LIMIT older ones (a one-off
    // query, by hand; only the measured queries are the adapter's).
    let conditions = conditions_sql(&case.filter);
    let deep: DeepRow = diesel::sql_query(format!(
        "SELECT (SELECT count(*) FROM clickwrap_events WHERE {conditions}) AS matching, c.action_at, c.id
         FROM (SELECT 1) AS one LEFT JOIN (
             SELECT action_at, id FROM clickwrap_events WHERE {conditions}
             ORDER BY action_at, id OFFSET {PAGE_LIMIT} LIMIT 1) AS c ON true"
    ))
    .get_result(conn)
    .await
    .map_err(|e| format!("cannot position the deep cursor for `{}`: {e}", case.name))?;
    let (Some(action_at), Some(id)) = (deep.action_at, deep.id) else {
        return Err(format!("filter `{}` matches only {} events: too few for a deep page", case.name, deep.matching));
    };
    let cursor = EventPosition { action_at: Timestamp::from_datetime(action_at), event_id: EventId::from_uuid(id) };
    let tenant = TenantId::from_uuid(TENANT);

    // The first call of each query is captured: the exact SQL and binds the adapter sends.
    start_capture();
    let deep_page = store.list_verified_events(tenant, &case.filter, Some(&cursor), PAGE_LIMIT).await;
    let deep_captured = stop_capture();
    let deep_page = deep_page.map_err(|e| format!("listing `{}` failed: {e}", case.name))?;
    start_capture();
    let first_page = store.list_verified_events(tenant, &case.filter, None, PAGE_LIMIT).await;
    let first_captured = stop_capture();
    let first_page = first_page.map_err(|e| format!("listing `{}` failed: {e}", case.name))?;
    if deep_page.len() != PAGE_LIMIT || first_page.len() != PAGE_LIMIT {
        return Err(format!(
            "filter `{}`: expected full pages of {PAGE_LIMIT}, got {} (first) and {} (deep)",
            case.name,
            first_page.len(),
            deep_page.len()
        ));
    }

    // Warm up (past PostgreSQL's five custom plans of a prepared statement), then alternate first
    // and deep pages so that a noisy neighbour hits both alike.
    for _ in 0..WARM_UP {
        list(store, &case, None).await?;
        list(store, &case, Some(&cursor)).await?;
    }
    let mut first = Vec::with_capacity(repetitions);
    let mut deep_times = Vec::with_capacity(repetitions);
    for _ in 0..repetitions {
        first.push(list(store, &case, None).await?);
        deep_times.push(list(store, &case, Some(&cursor)).await?);
    }

    let mut plans = explain(conn, &case, "deep", Some(&cursor), &deep_captured).await?;
    plans.extend(explain(conn, &case, "first", None, &first_captured).await?);
    Ok(Outcome {
        name: case.name,
        matching: deep.matching,
        depth: deep.matching - i64::try_from(PAGE_LIMIT).unwrap_or(0),
        first: summary(first),
        deep: summary(deep_times),
        plans,
    })
}

async fn list(store: &PgStore, case: &Case, after: Option<&EventPosition>) -> Result<Duration, String> {
    let started = Instant::now();
    let page = store
        .list_verified_events(TenantId::from_uuid(TENANT), &case.filter, after, PAGE_LIMIT)
        .await
        .map_err(|e| format!("listing `{}` failed: {e}", case.name))?;
    let took = started.elapsed();
    std::hint::black_box(page);
    Ok(took)
}

fn summary(mut times: Vec<Duration>) -> Summary {
    times.sort_unstable();
    Summary { p50: super::percentile(&times, 50), p99: super::percentile(&times, 99) }
}

/// The conditions of the list for `filter`, as SQL with literal values (for the one-off queries).
fn conditions_sql(filter: &EventFilter) -> String {
    let mut sql = format!("tenant_id = '{TENANT}' AND status <> 'UNVERIFIED'");
    if let Some(template) = filter.template_id {
        sql += &format!(" AND template_id = '{template}'");
    }
    if let Some(user) = &filter.end_user_id {
        sql += &format!(" AND end_user_id = {}", super::quote(user.as_str()));
    }
    if let Some(action) = filter.status {
        sql += &format!(" AND status = '{}'", action.as_str());
    }
    if let Some(from) = filter.from {
        sql += &format!(" AND action_at >= '{}'", from.to_rfc3339());
    }
    if let Some(to) = filter.to {
        sql += &format!(" AND action_at <= '{}'", to.to_rfc3339());
    }
    sql
}

// ---------------------------------------------------------------------------------------------
// Capturing the adapter's SQL

/// What the instrumentation saw while capturing: the last query's text with its binds, and the
/// statements diesel put into its prepared-statement cache (the pool's health check is one).
#[derive(Debug, Default)]
struct Captured {
    query: Option<String>,
    cached: Vec<String>,
}

static CAPTURE: Mutex<Option<Captured>> = Mutex::new(None);

fn capturing_instrumentation() -> Option<Box<dyn Instrumentation>> {
    Some(Box::new(|event: InstrumentationEvent<'_>| {
        let Ok(mut slot) = CAPTURE.lock() else { return };
        let Some(captured) = slot.as_mut() else { return };
        match event {
            InstrumentationEvent::StartQuery { query, .. } => captured.query = Some(query.to_string()),
            InstrumentationEvent::CacheQuery { sql, .. } => captured.cached.push(sql.to_owned()),
            _ => {}
        }
    }))
}

fn start_capture() {
    if let Ok(mut slot) = CAPTURE.lock() {
        *slot = Some(Captured::default());
    }
}

fn stop_capture() -> Captured {
    CAPTURE.lock().ok().and_then(|mut slot| slot.take()).unwrap_or_default()
}

/// A value the adapter binds to its list query.
#[derive(Debug)]
enum Bind {
    Uuid(Uuid),
    Text(String),
    Timestamptz(OffsetDateTime),
    BigInt(i64),
}

impl Bind {
    /// As diesel's debug output shows it (the `Debug` of the bound Rust value).
    fn debug(&self) -> &dyn Debug {
        match self {
            Bind::Uuid(v) => v,
            Bind::Text(v) => v,
            Bind::Timestamptz(v) => v,
            Bind::BigInt(v) => v,
        }
    }

    fn literal(&self) -> Result<String, String> {
        Ok(match self {
            Bind::Uuid(v) => format!("'{v}'"),
            Bind::Text(v) => super::quote(v),
            Bind::Timestamptz(v) => super::quote(&v.format(&Rfc3339).map_err(|e| e.to_string())?),
            Bind::BigInt(v) => v.to_string(),
        })
    }
}

/// The values `list_verified_events` binds for `filter` after `cursor`, in its order. The capture
/// is checked against this list, so a change of the adapter's query is noticed, not misread.
fn adapter_binds(filter: &EventFilter, cursor: Option<&EventPosition>) -> Vec<Bind> {
    let mut binds = vec![Bind::Uuid(TENANT)];
    binds.extend(filter.template_id.map(|t| Bind::Uuid(*t.as_uuid())));
    binds.extend(filter.end_user_id.as_ref().map(|u| Bind::Text(u.as_str().to_owned())));
    binds.extend(filter.status.map(|s| Bind::Text(s.as_str().to_owned())));
    binds.extend(filter.from.map(|t| Bind::Timestamptz(t.as_datetime())));
    binds.extend(filter.to.map(|t| Bind::Timestamptz(t.as_datetime())));
    if let Some(cursor) = cursor {
        binds.push(Bind::Timestamptz(cursor.action_at.as_datetime()));
        binds.push(Bind::Uuid(*cursor.event_id.as_uuid()));
    }
    binds.push(Bind::BigInt(i64::try_from(PAGE_LIMIT).unwrap_or(i64::MAX)));
    binds
}

#[derive(QueryableByName)]
struct PlanLine {
    #[diesel(sql_type = Text, column_name = "QUERY PLAN")]
    line: String,
}

#[derive(QueryableByName)]
struct PlanJson {
    #[diesel(sql_type = Json, column_name = "QUERY PLAN")]
    plan: Value,
}

/// Runs a captured list query under EXPLAIN ANALYZE and checks the plan: planned for its values,
/// and, when diesel keeps the statement prepared (PostgreSQL may then switch to a plan made once for
/// any values after five executions), planned generically as well.
async fn explain(
    conn: &mut AsyncPgConnection,
    case: &Case,
    page: &'static str,
    cursor: Option<&EventPosition>,
    captured: &Captured,
) -> Result<Vec<PlanReport>, String> {
    let text = captured.query.as_deref().ok_or_else(|| format!("no query captured for `{}`", case.name))?;
    let (sql, sent_binds) =
        text.rsplit_once(" -- binds: ").ok_or_else(|| format!("unexpected capture for `{}`: {text}", case.name))?;
    let binds = adapter_binds(&case.filter, cursor);
    let expected = format!("{:?}", binds.iter().map(Bind::debug).collect::<Vec<_>>());
    if sent_binds != expected {
        return Err(format!(
            "the adapter's list query binds other values than this benchmark expects; update `adapter_binds`\n  \
             sent:     {sent_binds}\n  expected: {expected}\n  sql: {sql}"
        ));
    }
    let arguments = binds.iter().map(Bind::literal).collect::<Result<Vec<_>, _>>()?.join(", ");
    conn.batch_execute(&format!("DEALLOCATE ALL; PREPARE bench_list AS {sql}"))
        .await
        .map_err(|e| format!("cannot prepare the captured query of `{}`: {e}\n  sql: {sql}", case.name))?;
    let kept_prepared = captured.cached.iter().any(|cached| cached == sql);
    let modes: &[(&str, &str)] = if kept_prepared {
        &[("custom", "force_custom_plan"), ("generic", "force_generic_plan")]
    } else {
        &[("custom", "force_custom_plan")]
    };
    let mut plans = Vec::new();
    for &(mode, setting) in modes {
        conn.batch_execute(&format!("SET plan_cache_mode = {setting}")).await.map_err(|e| e.to_string())?;
        let execute = format!("EXECUTE bench_list({arguments})");
        let lines: Vec<PlanLine> = diesel::sql_query(format!("EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) {execute}"))
            .load(conn)
            .await
            .map_err(|e| format!("EXPLAIN of `{}` failed: {e}", case.name))?;
        let json: PlanJson = diesel::sql_query(format!("EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, FORMAT JSON) {execute}"))
            .get_result(conn)
            .await
            .map_err(|e| format!("EXPLAIN of `{}` failed: {e}", case.name))?;
        let text = lines.into_iter().map(|l| l.line).collect::<Vec<_>>().join("\n");
        plans.push(PlanReport { page, mode, text, check: check_plan(&json.plan), sql: sql.to_owned(), kept_prepared });
    }
    conn.batch_execute("RESET plan_cache_mode; DEALLOCATE bench_list").await.map_err(|e| e.to_string())?;
    Ok(plans)
}

// ---------------------------------------------------------------------------------------------
// Checking a plan

#[derive(Debug, Default)]
struct PlanCheck {
    /// Node types, depth first.
    nodes: Vec<String>,
    /// The index `clickwrap_events` was read with.
    events_index: Option<String>,
    problems: Vec<String>,
}

fn check_plan(explain: &Value) -> PlanCheck {
    let mut check = PlanCheck::default();
    let Some(root) = explain.get(0).and_then(|e| e.get("Plan")) else {
        check.problems.push("EXPLAIN returned no plan".to_owned());
        return check;
    };
    let mut event_scans = Vec::new();
    walk(root, &mut check.nodes, &mut event_scans);
    for node in &check.nodes {
        if matches!(node.as_str(), "Sort" | "Incremental Sort" | "Hash Join" | "Merge Join" | "Gather" | "Gather Merge")
        {
            check.problems.push(format!("has a {node} node"));
        }
    }
    match event_scans.as_slice() {
        [scan] => {
            let node_type = scan.get("Node Type").and_then(Value::as_str).unwrap_or_default();
            let index = scan.get("Index Name").and_then(Value::as_str).unwrap_or_default();
            check.events_index = Some(index.to_owned());
            if !matches!(node_type, "Index Scan" | "Index Only Scan") {
                check.problems.push(format!("clickwrap_events is read by a {node_type}"));
            }
            if !index.starts_with("events_list") {
                check.problems.push(format!("clickwrap_events is read through {index:?}, not an events_list index"));
            }
            if let Some(filter) = scan.get("Filter").and_then(Value::as_str) {
                check.problems.push(format!("the scan filters rows instead of bounding its range: {filter}"));
            }
        }
        scans => check.problems.push(format!("clickwrap_events is read {} times", scans.len())),
    }
    check
}

fn walk<'a>(node: &'a Value, nodes: &mut Vec<String>, event_scans: &mut Vec<&'a Value>) {
    nodes.push(node.get("Node Type").and_then(Value::as_str).unwrap_or("?").to_owned());
    if node.get("Relation Name").and_then(Value::as_str) == Some("clickwrap_events") {
        event_scans.push(node);
    }
    for child in node.get("Plans").and_then(Value::as_array).into_iter().flatten() {
        walk(child, nodes, event_scans);
    }
}

// ---------------------------------------------------------------------------------------------
// Reporting

fn ratio(o: &Outcome) -> f64 {
    let first = super::millis(o.first.p50);
    if first > 0.0 { super::millis(o.deep.p50) / first } else { f64::NAN }
}

fn print_table(outcomes: &[Outcome]) {
    println!();
    println!(
        "{:<14} {:>9} {:>9} {:>10} {:>10} {:>7} {:>10} {:>10}  plan (deep page)",
        "filter", "matching", "depth", "p50 first", "p50 deep", "ratio", "p99 first", "p99 deep"
    );
    for o in outcomes {
        let plan = o
            .plans
            .iter()
            .filter(|p| p.page == "deep")
            .map(|p| {
                let verdict = if p.check.problems.is_empty() { "ok" } else { "NOT OK" };
                format!("{} {} {verdict}", p.mode, p.check.events_index.as_deref().unwrap_or("?"))
            })
            .collect::<Vec<_>>()
            .join(", ");
        println!(
            "{:<14} {:>9} {:>9} {:>8.3}ms {:>8.3}ms {:>7.2} {:>8.3}ms {:>8.3}ms  {plan}",
            o.name,
            o.matching,
            o.depth,
            super::millis(o.first.p50),
            super::millis(o.deep.p50),
            ratio(o),
            super::millis(o.first.p99),
            super::millis(o.deep.p99),
        );
    }
    let worst = outcomes.iter().map(ratio).fold(0.0, f64::max);
    let verdict = if worst <= RATIO_GOAL { "within" } else { "OVER" };
    println!("worst ratio {worst:.2}: {verdict} the goal of {RATIO_GOAL}");
    let plans: Vec<_> = outcomes.iter().flat_map(|o| o.plans.iter().map(move |p| (o.name, p))).collect();
    let good = plans.iter().filter(|(_, p)| p.check.problems.is_empty()).count();
    let prepared = plans.iter().filter(|(_, p)| p.kept_prepared).count();
    println!(
        "plans: {good} of {} (first and deep pages) read clickwrap_events with one events_list* index scan, \
         every condition in the index condition, no sort; {}",
        plans.len(),
        if prepared == 0 {
            "the adapter's list statements are planned per request (not kept prepared)".to_owned()
        } else {
            format!("{prepared} plans are generic ones of statements the adapter keeps prepared")
        }
    );
    for (name, p) in plans {
        for problem in &p.check.problems {
            println!("    {name}, {} page, {} plan: {problem}", p.page, p.mode);
        }
    }
    println!();
}

fn report_json(options: &Options, machine: &Value, outcomes: &[Outcome]) -> Value {
    let summary = |s: &Summary| json!({ "p50_ms": super::millis(s.p50), "p99_ms": super::millis(s.p99) });
    json!({
        "benchmark": "storage: list_verified_events page latency by depth",
        "events": options.events,
        "quick": options.quick,
        "repetitions": options.repetitions,
        "page_limit": PAGE_LIMIT,
        "ratio_goal": RATIO_GOAL,
        "machine": machine,
        "cases": outcomes.iter().map(|o| json!({
            "filter": o.name,
            "matching": o.matching,
            "depth": o.depth,
            "first_page": summary(&o.first),
            "deep_page": summary(&o.deep),
            "ratio_p50": ratio(o),
            "plans": o.plans.iter().map(|p| json!({
                "page": p.page,
                "mode": p.mode,
                "ok": p.check.problems.is_empty(),
                "problems": p.check.problems,
                "events_index": p.check.events_index,
                "nodes": p.check.nodes,
                "kept_prepared": p.kept_prepared,
                "sql": p.sql,
                "explain": p.text,
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    })
}
