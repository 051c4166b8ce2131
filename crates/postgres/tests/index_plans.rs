//! Every index of the event path is read by the statement that needs it (docs/storage.md, "Every
//! index, the statement that needs it"). A throw-away database gets 96,000 events with their
//! contents, certificates, deliveries, attempts and leaves, across three tenants, and rate-limit
//! windows, so that reading a whole table is not the cheapest plan; then each statement is sent
//! through the adapter's own API, captured as it was sent (SQL and bound values), prepared on a
//! connection of the test's own and explained for those values (EXPLAIN without ANALYZE). The plan
//! must read the index the table in docs/storage.md names for it. Keys that only guard a uniqueness
//! are checked by the duplicate they refuse.
//!
//! The statement log is shared by the whole process, so this test is alone in its binary.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code

use clickwrap_domain::EndUserId;
use clickwrap_domain::consent::models::{Action, ClickwrapEvent, EventFilter};
use clickwrap_domain::contract::fixtures::{self, Seed, base_plus_secs};
use clickwrap_domain::contract::support::Stores;
use clickwrap_domain::ports::{DeliveryStore, EventStore, LedgerStore};
use clickwrap_domain::templates::models::Template;
use clickwrap_domain::webhooks::dispatch::LeaseOwner;
use clickwrap_domain::webhooks::retention::RetentionCutoffs;
use clickwrap_postgres::PgStore;
use clickwrap_postgres::statement_log::{LoggedStatement, record_statements, take_statements};
use clickwrap_postgres::test_db::TestDatabase;
use diesel::QueryableByName;
use diesel::sql_types::Json;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl, SimpleAsyncConnection};
use serde_json::Value;

/// Copies of each tenant's two events: 3 tenants × 2 templates × 16,000 make 96,000 events.
const COPIES: u32 = 16_000;
/// End users the copies are spread over, each with 20 events per template.
const END_USERS: u32 = 800;
const MINUTE: i64 = 60;

/// A statement as the store sent it: its SQL and the Debug forms of its bound values.
struct Sent {
    sql: String,
    values: Vec<String>,
}

/// The first statement the store sends for `call` whose SQL contains `containing`.
async fn sent<T, E: std::fmt::Debug>(call: impl Future<Output = Result<T, E>>, containing: &str) -> Sent {
    take_statements();
    call.await.expect("the store's call");
    let runs: Vec<String> = take_statements()
        .into_iter()
        .filter_map(|entry| match entry {
            LoggedStatement::Run(text) => Some(text),
            LoggedStatement::Prepared(_) => None,
        })
        .collect();
    let text = runs
        .iter()
        .find(|text| text.contains(containing))
        .unwrap_or_else(|| panic!("no statement with {containing:?}; the store ran {runs:#?}"));
    let (sql, binds) = text.rsplit_once(" -- binds: ").expect("a statement with its binds");
    let binds = binds.strip_prefix('[').and_then(|b| b.strip_suffix(']')).expect("a list of binds");
    Sent { sql: sql.to_owned(), values: top_level(binds).into_iter().map(str::to_owned).collect() }
}

/// `list` (Debug forms separated by `, `) cut at the commas outside brackets and quotes.
fn top_level(list: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut quoted, mut escaped, mut start) = (0, false, false, 0);
    for (i, c) in list.char_indices() {
        if quoted {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => quoted = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => quoted = true,
            '[' | '(' => depth += 1,
            ']' | ')' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(list.get(start..i).unwrap_or_default().trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    if !list.trim().is_empty() {
        parts.push(list.get(start..).unwrap_or_default().trim());
    }
    parts
}

/// A bound value's Debug form as the text PostgreSQL reads for a parameter of type `parameter`:
/// `None` is NULL, `Some(x)` is `x`, a list of bytes a `bytea`, any other list an array, a quoted
/// string its contents; ids, numbers and times are written as they are.
fn text_of(value: &str, parameter: &str) -> Option<String> {
    if value == "None" {
        return None;
    }
    if let Some(inner) = value.strip_prefix("Some(").and_then(|v| v.strip_suffix(')')) {
        return text_of(inner, parameter);
    }
    if let Some(items) = value.strip_prefix('[').and_then(|v| v.strip_suffix(']')) {
        if parameter == "bytea" {
            let bytes = top_level(items).into_iter().map(|b| format!("{:02x}", b.parse::<u8>().expect("a byte")));
            return Some(format!("\\x{}", bytes.collect::<String>()));
        }
        let elements: Vec<String> = top_level(items)
            .into_iter()
            .map(|item| match text_of(item, "") {
                None => "NULL".to_owned(),
                Some(text) => format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\"")),
            })
            .collect();
        return Some(format!("{{{}}}", elements.join(",")));
    }
    if let Some(text) = value.strip_prefix('"').and_then(|v| v.strip_suffix('"')) {
        return Some(text.replace("\\\"", "\"").replace("\\\\", "\\"));
    }
    Some(value.to_owned())
}

/// A literal of no type, which PostgreSQL reads as the type of the parameter it is given for.
fn literal(value: &str, parameter: &str) -> String {
    match text_of(value, parameter) {
        None => "NULL".to_owned(),
        Some(text) => format!("'{}'", text.replace('\'', "''")),
    }
}

#[derive(QueryableByName)]
struct Parameters {
    #[diesel(sql_type = diesel::sql_types::Array<diesel::sql_types::Text>)]
    types: Vec<String>,
}

#[derive(QueryableByName)]
struct Explained {
    #[diesel(sql_type = Json, column_name = "QUERY PLAN")]
    plan: Value,
}

/// Every index named anywhere in `plan` (scans of subqueries, CTEs and init plans included).
fn index_names(plan: &Value, found: &mut Vec<String>) {
    match plan {
        Value::Object(fields) => {
            for (key, value) in fields {
                match (key.as_str(), value.as_str()) {
                    ("Index Name", Some(name)) => found.push(name.to_owned()),
                    _ => index_names(value, found),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| index_names(item, found)),
        _ => {}
    }
}

/// Prepares `sql` as `probe`. A parameter whose context does not tell its type (`$n IS NOT NULL`)
/// is declared `text`, one at a time as PostgreSQL names them; it infers the others (`unknown`).
async fn prepare(conn: &mut AsyncPgConnection, sql: &str, parameters: usize) {
    let mut declared = vec!["unknown"; parameters];
    loop {
        let types = if parameters == 0 { String::new() } else { format!("({})", declared.join(", ")) };
        let Err(error) = conn.batch_execute(&format!("DEALLOCATE ALL; PREPARE probe {types} AS {sql}")).await else {
            return;
        };
        let message = error.to_string();
        let untyped = message
            .split_once("could not determine data type of parameter $")
            .and_then(|(_, number)| number.trim().parse::<usize>().ok())
            .and_then(|number| number.checked_sub(1));
        match untyped.and_then(|index| declared.get_mut(index)) {
            Some(parameter) if *parameter == "unknown" => *parameter = "text",
            _ => panic!("cannot prepare {sql}: {message}"),
        }
    }
}

/// The indexes the plan PostgreSQL makes for `sent`'s values reads, and that plan as text. The
/// statement is prepared and explained for its values, as the store's prepared statements are on
/// their first executions (EXPLAIN without ANALYZE: nothing is run).
async fn indexes_read(conn: &mut AsyncPgConnection, sent: &Sent) -> (Vec<String>, String) {
    let sql = &sent.sql;
    prepare(conn, sql, sent.values.len()).await;
    conn.batch_execute("SET plan_cache_mode = force_custom_plan").await.unwrap();
    let parameters: Parameters =
        diesel::sql_query("SELECT parameter_types::text[] AS types FROM pg_prepared_statements WHERE name = 'probe'")
            .get_result(conn)
            .await
            .unwrap();
    assert_eq!(parameters.types.len(), sent.values.len(), "one value per parameter of {sql}");
    let arguments: Vec<String> =
        sent.values.iter().zip(&parameters.types).map(|(value, parameter)| literal(value, parameter)).collect();
    let arguments = arguments.join(", ");
    let explain = format!("EXPLAIN (FORMAT JSON) EXECUTE probe({arguments})");
    let explained: Explained = diesel::sql_query(&explain)
        .get_result(conn)
        .await
        .unwrap_or_else(|e| panic!("{explain} failed for {sql}: {e}"));
    conn.batch_execute("DEALLOCATE probe; RESET plan_cache_mode").await.unwrap();
    let mut found = Vec::new();
    index_names(&explained.plan, &mut found);
    (found, format!("values: {arguments}\nplan: {}", serde_json::to_string_pretty(&explained.plan).unwrap()))
}

/// The plans checked so far: each that read its index, and a report of each that did not.
struct Checks<'c> {
    conn: &'c mut AsyncPgConnection,
    proven: Vec<String>,
    failures: Vec<String>,
}

impl Checks<'_> {
    async fn reads(&mut self, index: &str, what: &str, sent: &Sent) {
        let (found, plan) = indexes_read(self.conn, sent).await;
        if found.iter().any(|name| name == index) {
            self.proven.push(format!("{index}: {what}"));
        } else {
            self.failures
                .push(format!("{index} is not read by {what}; the plan reads {found:?}\nSQL: {}\n{plan}", sent.sql));
        }
    }
}

/// A tenant with two templates and one verified event on each, stored through the adapter (so its
/// content, certificate, delivery and ledger leaf are as a verification writes them).
async fn tenant(stores: &Stores<'_>) -> Seed {
    let seed = fixtures::seed(stores).await;
    let second = fixtures::stored_template(stores, seed.tenant.id, &[(1, 0), (2, 0)]).await;
    for template in [&seed.template, &second] {
        let event = fixtures::event(&seed.app, template).action_at(base_plus_secs(0)).build();
        fixtures::verified_event(stores, event, base_plus_secs(1)).await;
    }
    seed
}

/// The SQL of a copy's content hash: distinct per copy, as when placeholders personalize the text.
const COPY_HASH: &str = "'sha256:' || encode(sha256(convert_to(e.id::text || '/' || n, 'UTF8')), 'hex')";

/// Copies the stored events `COPIES` times (a minute apart going back, over `END_USERS` end
/// users, a quarter declined, a tenth left unverified), each with its own content, and gives the
/// copies what verifying them writes: a certificate per acceptance, a delivery (mostly DELIVERED,
/// some FAILED, DISABLED, PENDING, and leased), an attempt per delivery tried, a ledger leaf; and
/// each app rate-limit windows for 200 minutes. Then VACUUM ANALYZE, as autovacuum would: the
/// planner knows the tables, and index-only scans know which pages need no visit.
async fn fill(conn: &mut AsyncPgConnection) {
    let base = "'2026-11-22T07:00:00Z'::timestamptz";
    conn.batch_execute(&format!(
        "INSERT INTO event_contents (content_hash, content)
         SELECT {COPY_HASH}, 'Terms for user-' || (n % {END_USERS}) || ', copy ' || n
         FROM clickwrap_events e CROSS JOIN generate_series(1, {COPIES}) AS n;

         INSERT INTO clickwrap_events (id, tenant_id, app_id, template_id, template_name, version_major,
             version_minor, effective_at, end_user_id, action, status, language, content_hash,
             template_placeholders, technical_metadata, presentation_mode, agreement_mode, accept_label,
             checkbox_label, scroll_required, presented_at, action_at, verified_at)
         SELECT gen_random_uuid(), tenant_id, app_id, template_id, template_name, version_major, version_minor,
             effective_at, 'user-' || (n % {END_USERS}),
             CASE WHEN n % 4 = 0 THEN 'DECLINED' ELSE 'ACCEPTED' END,
             CASE WHEN n % 10 = 0 THEN 'UNVERIFIED' WHEN n % 4 = 0 THEN 'DECLINED' ELSE 'ACCEPTED' END,
             language, {COPY_HASH}, template_placeholders, technical_metadata, presentation_mode, agreement_mode,
             accept_label, checkbox_label, scroll_required,
             presented_at - n * interval '1 minute', action_at - n * interval '1 minute',
             CASE WHEN n % 10 <> 0 THEN action_at - n * interval '1 minute' + interval '1 second' END
         FROM clickwrap_events e CROSS JOIN generate_series(1, {COPIES}) AS n;

         INSERT INTO certificates (event_id, tenant_id, pdf, sha256, created_at)
         SELECT id, tenant_id, convert_to('%PDF-1.7 certificate of ' || id, 'UTF8'),
             sha256(convert_to(id::text, 'UTF8')), verified_at
         FROM clickwrap_events e
         WHERE status = 'ACCEPTED' AND NOT EXISTS (SELECT 1 FROM certificates c WHERE c.event_id = e.id);

         WITH numbered AS (
             SELECT e.id, e.tenant_id, e.app_id, e.verified_at, row_number() OVER (ORDER BY e.id) AS k
             FROM clickwrap_events e
             WHERE e.status <> 'UNVERIFIED'
               AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id)),
         staged AS (
             SELECT *, CASE k % 50 WHEN 0 THEN 'PENDING' WHEN 1 THEN 'FAILED' WHEN 2 THEN 'DISABLED'
                 ELSE 'DELIVERED' END AS state
             FROM numbered)
         INSERT INTO webhook_deliveries (id, tenant_id, app_id, event_id, payload, state, attempts,
             next_attempt_at, last_attempt_at, last_response_status, lease_owner, lease_until, created_at)
         SELECT gen_random_uuid(), tenant_id, app_id, id, '{{\"eventId\":\"' || id || '\"}}', state,
             CASE WHEN state = 'PENDING' THEN 0 ELSE 1 END,
             CASE WHEN state = 'PENDING' THEN verified_at + interval '1 minute' END,
             CASE WHEN state <> 'PENDING' THEN verified_at + interval '1 second' END,
             CASE state WHEN 'DELIVERED' THEN 200 WHEN 'FAILED' THEN 500 END,
             CASE WHEN k % 100 = 0 THEN gen_random_uuid() END,
             CASE WHEN k % 100 = 0 THEN verified_at + interval '2 minutes' END,
             verified_at
         FROM staged;

         INSERT INTO webhook_attempts (id, tenant_id, delivery_id, attempt, response_status, started_at, duration_ms)
         SELECT gen_random_uuid(), tenant_id, id, 1, last_response_status, last_attempt_at, 40
         FROM webhook_deliveries d
         WHERE attempts > 0 AND NOT EXISTS (SELECT 1 FROM webhook_attempts a WHERE a.delivery_id = d.id);

         INSERT INTO ledger_leaves (tenant_id, leaf_index, event_id, leaf_hash)
         SELECT tenant_id, 1000 + row_number() OVER (PARTITION BY tenant_id ORDER BY verified_at, id), id,
             sha256(convert_to(id::text, 'UTF8'))
         FROM clickwrap_events e
         WHERE status <> 'UNVERIFIED' AND NOT EXISTS (SELECT 1 FROM ledger_leaves l WHERE l.event_id = e.id);

         INSERT INTO rate_limit_windows (app_id, client_ip, route, window_start, hits)
         SELECT a.id, '192.0.2.' || ip, 'check', {base} - m * interval '1 minute', 3
         FROM apps a CROSS JOIN generate_series(1, 50) AS ip CROSS JOIN generate_series(1, 200) AS m;"
    ))
    .await
    .expect("fill the database");
    // Alone in its string: VACUUM cannot run inside the transaction of several statements.
    conn.batch_execute("VACUUM ANALYZE").await.expect("vacuum");
}

/// The list's first page for `filter`, as the events list asks for it.
fn filter(template: Option<&Template>, end_user: Option<&EndUserId>, status: Option<Action>) -> EventFilter {
    EventFilter {
        template_id: template.map(|t| t.id),
        end_user_id: end_user.cloned(),
        status,
        ..EventFilter::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_index_of_the_event_path_is_read_by_its_statement() {
    record_statements();
    let db = TestDatabase::new().await;
    let store: PgStore = db.store();
    let stores = Stores::of(&store);
    let tenants = [tenant(&stores).await, tenant(&stores).await, tenant(&stores).await];
    let mut conn = AsyncPgConnection::establish(&db.url().expose()).await.unwrap();
    fill(&mut conn).await;

    let [_, ours, _] = &tenants;
    let tenant = ours.tenant.id;
    let template = &ours.template;
    let end_user = fixtures::end_user_named("user-7");
    let page = 21;
    // An acceptance among the copies, with its certificate, delivery and leaf.
    let accepted = filter(Some(template), Some(&end_user), Some(Action::Accepted));
    let listed: Vec<ClickwrapEvent> = store.list_verified_events(tenant, &accepted, None, page).await.unwrap();
    let event = listed.get(3).expect("the end user's acceptances").clone();
    let delivery = store.find_delivery_for_event(tenant, event.id).await.unwrap().expect("the event's delivery");

    let mut checks = Checks { conn: &mut conn, proven: Vec::new(), failures: Vec::new() };

    // The events list: one index per combination of filters (docs/storage.md, "Why eight list indexes").
    let list_indexes = [
        ("events_list", filter(None, None, None)),
        ("events_list_t", filter(Some(template), None, None)),
        ("events_list_u", filter(None, Some(&end_user), None)),
        ("events_list_s", filter(None, None, Some(Action::Declined))),
        ("events_list_tu", filter(Some(template), Some(&end_user), None)),
        ("events_list_ts", filter(Some(template), None, Some(Action::Declined))),
        ("events_list_us", filter(None, Some(&end_user), Some(Action::Accepted))),
        ("events_list_tus", filter(Some(template), Some(&end_user), Some(Action::Accepted))),
    ];
    for (index, filter) in &list_indexes {
        let list = sent(store.list_verified_events(tenant, filter, None, page), "clickwrap_events").await;
        checks.reads(index, &format!("the events list filtered by {filter:?}"), &list).await;
    }
    let last = listed.last().expect("a page");
    let position = clickwrap_domain::consent::cursor::EventPosition { action_at: last.action_at, event_id: last.id };
    let next_page =
        sent(store.list_verified_events(tenant, &accepted, Some(&position), page), "clickwrap_events").await;
    checks.reads("events_list_tus", "the next page of the events list with all three filters", &next_page).await;
    let last_accepted = sent(store.last_accepted_event(tenant, &end_user, template.id), "clickwrap_events").await;
    checks.reads("events_list_tus", "the end user's last acceptance", &last_accepted).await;
    let daily = sent(store.daily_counts(tenant, base_plus_secs(-2 * 24 * 3600), base_plus_secs(0)), "date_trunc").await;
    checks.reads("events_list_s", "the dashboard's daily counts", &daily).await;

    let snapshot = sent(store.consent_snapshot(tenant, &end_user, template.id, 2), "clickwrap_events").await;
    checks.reads("events_consent", "the consent snapshot", &snapshot).await;

    let find_event = sent(store.find_event(tenant, event.id), "clickwrap_events").await;
    checks.reads("clickwrap_events_tenant_id_id_key", "find_event", &find_event).await;
    checks.reads("event_contents_pkey", "the content of a found event", &find_event).await;
    let listed_page =
        sent(store.list_verified_events(tenant, &EventFilter::default(), None, page), "event_contents").await;
    checks.reads("event_contents_pkey", "the contents of a page of the events list", &listed_page).await;
    let to_verify = fixtures::stored_event(&stores, fixtures::event(&ours.app, template).build()).await;
    let verification = sent(store.find_event_to_verify(tenant, to_verify.id), "clickwrap_events").await;
    checks.reads("clickwrap_events_tenant_id_id_key", "find_event_to_verify", &verification).await;
    // Without a quota, the verification's UPDATE is the first part of one statement; with a quota, a
    // statement of its own.
    let record = fixtures::verification(&to_verify, base_plus_secs(2), None);
    let update = sent(store.commit_verification(&record), "UPDATE clickwrap_events SET status").await;
    checks.reads("clickwrap_events_tenant_id_id_key", "the verification (no quota)", &update).await;
    let to_verify = fixtures::stored_event(&stores, fixtures::event(&ours.app, template).build()).await;
    let record = fixtures::verification(&to_verify, base_plus_secs(2), Some(1_000_000));
    let update = sent(store.commit_verification(&record), "UPDATE clickwrap_events SET status").await;
    checks.reads("clickwrap_events_tenant_id_id_key", "the verification's UPDATE (with a quota)", &update).await;

    let certificate = sent(store.find_certificate(tenant, event.id), "certificates").await;
    checks.reads("certificates_pkey", "the certificate download", &certificate).await;

    let latest = sent(store.find_delivery_for_event(tenant, event.id), "webhook_deliveries").await;
    checks.reads("webhook_deliveries_by_event", "the latest delivery of an event", &latest).await;
    let export = sent(
        store.list_verified_event_details(tenant, &EventFilter::default(), None, page),
        "DISTINCT ON (d.event_id)",
    )
    .await;
    checks.reads("webhook_deliveries_by_event", "the latest deliveries of an export batch", &export).await;
    let find_delivery = sent(store.find_delivery(tenant, delivery.id), "FROM webhook_deliveries").await;
    checks.reads("webhook_deliveries_tenant_id_id_key", "find_delivery", &find_delivery).await;
    let attempts = sent(store.find_delivery(tenant, delivery.id), "FROM webhook_attempts").await;
    checks.reads("webhook_attempts_by_delivery", "the attempts of a delivery", &attempts).await;
    let app = ours.app.id;
    let history = sent(store.list_deliveries(tenant, app, None, 20), "FROM webhook_deliveries").await;
    checks.reads("webhook_deliveries_by_app", "the delivery history of an app", &history).await;
    let history_attempts = sent(store.list_deliveries(tenant, app, None, 20), "FROM webhook_attempts").await;
    checks.reads("webhook_attempts_by_delivery", "the attempts of a page of deliveries", &history_attempts).await;
    let failed = sent(store.failed_deliveries(tenant, 20), "'FAILED'").await;
    checks.reads("webhook_deliveries_failed", "the console's failing webhooks", &failed).await;

    // The dispatcher: a claim once every pending delivery is due, and a stopping dispatcher's leases.
    let owner = LeaseOwner::from_uuid(uuid::Uuid::new_v4());
    let claim =
        sent(store.claim_due(owner, base_plus_secs(2 * MINUTE), base_plus_secs(3 * MINUTE), 32), "UPDATE").await;
    checks.reads("webhook_deliveries_due", "the dispatcher's claim (its due rows)", &claim).await;
    checks.reads("webhook_deliveries_pkey", "the dispatcher's claim (its update)", &claim).await;
    let release = sent(store.release_leases(owner), "lease_owner = $1").await;
    checks.reads("webhook_deliveries_leases", "handing back a dispatcher's leases", &release).await;

    let leaves = sent(store.ledger_leaves_from(tenant, 1_000, 100), "ledger_leaves").await;
    checks.reads("ledger_leaves_pkey", "the export's leaves in index order", &leaves).await;
    let hashes = sent(store.leaf_hashes(tenant, 1_100), "ledger_leaves").await;
    checks.reads("ledger_leaves_pkey", "the leaf hashes of a tree head", &hashes).await;
    let leaf = sent(store.ledger_leaf(tenant, event.id), "ledger_leaves").await;
    checks.reads("ledger_leaves_event_id_key", "an event's leaf", &leaf).await;

    // The purges, last, as they delete: what is older than two days (a tenth of the rows or less).
    let two_days_ago = base_plus_secs(-2 * 24 * 3600);
    let cutoffs = RetentionCutoffs { delivered_before: two_days_ago, failed_before: two_days_ago };
    let webhook_purge = sent(store.purge_webhook_delivery_batch(cutoffs, 500), "delivered AS MATERIALIZED").await;
    checks.reads("webhook_deliveries_finished", "the webhook retention purge", &webhook_purge).await;
    // The unverified purge, in the server's batches of 1,000: the first batch of the 7,872
    // unverified copies older than two days. With a batch that large, a table of fewer events
    // (24,000 were tried) is cheaper to read whole and hash-join than to look 1,000 ids up in
    // `clickwrap_events_pkey`; hence the 96,000 events.
    let purge = sent(store.purge_unverified_events(two_days_ago, 1_000), "DELETE FROM clickwrap_events").await;
    checks.reads("clickwrap_events_unverified_age", "the unverified purge (oldest first)", &purge).await;
    checks.reads("clickwrap_events_pkey", "the unverified purge (DELETE … WHERE id IN)", &purge).await;
    let windows = sent(store.purge_rate_limit_windows(base_plus_secs(-190 * MINUTE)), "rate_limit_windows").await;
    checks.reads("rate_limit_windows_age", "expiring old rate-limit windows", &windows).await;

    let Checks { proven, failures, .. } = checks;
    assert!(
        failures.is_empty(),
        "{} of {} checks failed:\n\n{}\n\nread as expected:\n  {}",
        failures.len(),
        failures.len() + proven.len(),
        failures.join("\n\n"),
        proven.join("\n  ")
    );

    // Uniqueness: one leaf per event (an evidence guarantee, besides the event's leaf lookup above),
    // and the attempts' primary key, which no statement reads (attempts are read by delivery).
    let second_leaf = format!(
        "INSERT INTO ledger_leaves (tenant_id, leaf_index, event_id, leaf_hash)
         SELECT tenant_id, leaf_index + 1000000, event_id, leaf_hash FROM ledger_leaves WHERE event_id = '{}'",
        event.id
    );
    let same_attempt = "INSERT INTO webhook_attempts (id, tenant_id, delivery_id, attempt, started_at, duration_ms)
         SELECT id, tenant_id, delivery_id, attempt + 1, started_at, duration_ms FROM webhook_attempts LIMIT 1";
    for (key, duplicate) in
        [("ledger_leaves_event_id_key", second_leaf.as_str()), ("webhook_attempts_pkey", same_attempt)]
    {
        let refused = conn.batch_execute(duplicate).await.expect_err("a duplicate");
        assert!(refused.to_string().contains(key), "refused by {key}: {refused}");
    }
}
