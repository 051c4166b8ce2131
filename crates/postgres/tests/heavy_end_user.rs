//! An end user's consent lookups cost the same whatever their history: the consent snapshot (every
//! SDK check and status lookup) and their last acceptance read about as many buffers for an end
//! user with thousands of events as for one without any, under the plan PostgreSQL makes for the
//! values at hand and under the generic plan it may switch to after five executions of a prepared
//! statement. Nothing is timed: the statements the adapter sends are captured, prepared on a
//! connection of the test's own and run under `EXPLAIN (ANALYZE, BUFFERS)`.
//!
//! The statement log is shared by the whole process, so this test is alone in its binary.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code

use clickwrap_domain::consent::models::{Action, ClickwrapEvent};
use clickwrap_domain::contract::fixtures::{self, Seed, base_plus_secs};
use clickwrap_domain::contract::support::Stores;
use clickwrap_domain::ports::EventStore;
use clickwrap_domain::templates::models::Template;
use clickwrap_domain::templates::versioning::VersionNumber;
use clickwrap_domain::{EndUserId, EventId};
use clickwrap_postgres::PgStore;
use clickwrap_postgres::statement_log::{LoggedStatement, record_statements, take_statements};
use clickwrap_postgres::test_db::TestDatabase;
use diesel::QueryableByName;
use diesel::sql_types::Json;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl, SimpleAsyncConnection};
use serde_json::Value;

/// Copies of each event of the long history; ten kinds make 20,000 events.
const COPIES: u32 = 2_000;
/// Other end users, each with one acceptance per template.
const CROWD: u32 = 5_000;
/// How much more one end user's lookup may read than the other's: half as much again, plus a few
/// pages for a deeper index.
const RATIO: f64 = 1.5;
const EXTRA_BUFFERS: f64 = 10.0;

/// One event of an end user's history: its version, action, whether it was verified, and when.
struct Kind {
    version: (u32, u32),
    action: Action,
    verified: bool,
    at_secs: i64,
}

const fn kind(version: (u32, u32), action: Action, verified: bool, at_secs: i64) -> Kind {
    Kind { version, action, verified, at_secs }
}

/// Stores one event of each kind for `end_user`; the latest of each kind is the one returned.
async fn events_of(
    stores: &Stores<'_>,
    seed: &Seed,
    template: &Template,
    end_user: &EndUserId,
    kinds: &[Kind],
) -> Vec<ClickwrapEvent> {
    let mut stored = Vec::new();
    for k in kinds {
        let version = template.version(VersionNumber::new(k.version.0, k.version.1)).unwrap();
        let event = fixtures::event(&seed.app, template)
            .version(version)
            .end_user(end_user)
            .action(k.action)
            .action_at(base_plus_secs(k.at_secs))
            .build();
        stored.push(if k.verified {
            fixtures::verified_event(stores, event, base_plus_secs(k.at_secs + 1)).await
        } else {
            fixtures::stored_event(stores, event).await
        });
    }
    stored
}

/// Gives every event of `end_user` `COPIES` earlier copies, a second apart, so each event stays the
/// latest of its kind (kinds lie 10,000 s apart, so the copies of one kind do not reach the next),
/// and makes a crowd of other end users with one acceptance of the current version per template
/// (copies of `end_user`'s), so the statistics see many end users as a real installation's do.
async fn copy_history(conn: &mut AsyncPgConnection, end_user: &EndUserId) {
    let copy = |user: &str, times: &str, copies: u32, which: &str| {
        format!(
            "INSERT INTO clickwrap_events (id, tenant_id, app_id, template_id, template_name, version_major,
                 version_minor, effective_at, end_user_id, action, status, language, content_hash,
                 template_placeholders, technical_metadata, presentation_mode, agreement_mode, accept_label,
                 checkbox_label, scroll_required, presented_at, action_at, verified_at)
             SELECT gen_random_uuid(), tenant_id, app_id, template_id, template_name, version_major,
                 version_minor, effective_at, {user}, action, status, language, content_hash,
                 template_placeholders, technical_metadata, presentation_mode, agreement_mode, accept_label,
                 checkbox_label, scroll_required, {times}
             FROM clickwrap_events CROSS JOIN generate_series(1, {copies}) AS n
             WHERE end_user_id = {heavy} {which};",
            heavy = literal(end_user.as_str()),
        )
    };
    let crowd = copy(
        "'crowd-' || n",
        "presented_at, action_at, verified_at",
        CROWD,
        "AND status = 'ACCEPTED' AND version_major = 2",
    );
    let history = copy(
        "end_user_id",
        "presented_at - n * interval '1 second', action_at - n * interval '1 second', \
         verified_at - n * interval '1 second'",
        COPIES,
        "",
    );
    conn.batch_execute(&format!("{crowd} {history} ANALYZE clickwrap_events;")).await.expect("copy the history");
}

fn literal(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

/// A statement as the store sent it: its SQL and its bound values as SQL literals.
struct Sent {
    sql: String,
    arguments: String,
}

/// What the store sends for `call`, which must be a single statement.
async fn sent<T>(call: impl Future<Output = T>) -> Sent {
    take_statements();
    call.await;
    let runs: Vec<String> = take_statements()
        .into_iter()
        .filter_map(|entry| match entry {
            LoggedStatement::Run(text) => Some(text),
            LoggedStatement::Prepared(_) => None,
        })
        .collect();
    let [text] = runs.as_slice() else { panic!("expected one statement, the store ran {runs:#?}") };
    let (sql, binds) = text.rsplit_once(" -- binds: ").expect("a statement with its binds");
    // The values' Debug forms: ids, numbers and quoted end user ids (without commas or quotes).
    let binds = binds.strip_prefix('[').and_then(|b| b.strip_suffix(']')).expect("a list of binds");
    let arguments = binds.split(", ").map(|value| literal(value.trim_matches('"'))).collect::<Vec<_>>().join(", ");
    Sent { sql: sql.to_owned(), arguments }
}

#[derive(QueryableByName)]
struct Explained {
    #[diesel(sql_type = Json, column_name = "QUERY PLAN")]
    plan: Value,
}

/// Shared buffers (hit or read) the prepared statement `probe` reads when executed with `arguments`
/// under `plan_cache_mode`, and its plan as text for the failure message.
async fn buffers(conn: &mut AsyncPgConnection, plan_cache_mode: &str, arguments: &str) -> (u64, String) {
    conn.batch_execute(&format!("SET plan_cache_mode = {plan_cache_mode}")).await.unwrap();
    let explain = format!("EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, FORMAT JSON) EXECUTE probe({arguments})");
    // The first run may find pages outside the cache; the second reads what a warm instance does.
    diesel::sql_query(&explain)
        .get_result::<Explained>(conn)
        .await
        .unwrap_or_else(|e| panic!("{explain} failed (do the arguments still match the statement?): {e}"));
    let explained: Explained = diesel::sql_query(&explain).get_result(conn).await.unwrap();
    let root = explained.plan.get(0).and_then(|e| e.get("Plan")).expect("a plan");
    let blocks = |key: &str| root.get(key).and_then(Value::as_u64).unwrap_or_else(|| panic!("no {key} in {root}"));
    (blocks("Shared Hit Blocks") + blocks("Shared Read Blocks"), serde_json::to_string_pretty(root).unwrap())
}

/// Prepares the statement as `probe` and checks that the heavy end user's run and the new one's read
/// about as many buffers (within the allowance, either way), under a custom and a generic plan.
async fn assert_flat(conn: &mut AsyncPgConnection, what: &str, heavy: &Sent, newcomer: &Sent) {
    assert_eq!(heavy.sql, newcomer.sql, "{what}: one statement for every end user");
    let sql = &heavy.sql;
    conn.batch_execute(&format!("DEALLOCATE ALL; PREPARE probe AS {sql}"))
        .await
        .unwrap_or_else(|e| panic!("cannot prepare {what}: {e}\nSQL: {sql}"));
    for mode in ["force_custom_plan", "force_generic_plan"] {
        let (new_buffers, new_plan) = buffers(conn, mode, &newcomer.arguments).await;
        let (heavy_buffers, heavy_plan) = buffers(conn, mode, &heavy.arguments).await;
        // Either way: a plan that is cheap for the long history but not for a new end user fails too.
        let allowed = RATIO * new_buffers.min(heavy_buffers) as f64 + EXTRA_BUFFERS;
        assert!(
            new_buffers.max(heavy_buffers) as f64 <= allowed,
            "{what} under {mode}: the end user with a long history reads {heavy_buffers} buffers, a new one \
             {new_buffers} (at most {allowed} allowed)\nSQL: {sql}\nplan for the long history: {heavy_plan}\n\
             plan for the new end user: {new_plan}"
        );
    }
    conn.batch_execute("RESET plan_cache_mode; DEALLOCATE probe").await.unwrap();
}

fn id(event: &ClickwrapEvent) -> Option<EventId> {
    Some(event.id)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn consent_lookups_read_as_much_for_a_long_history_as_for_none() {
    record_statements();
    let db = TestDatabase::new().await;
    let store: PgStore = db.store();
    let stores = Stores::of(&store);
    let seed = fixtures::seed(&stores).await;
    let tenant = seed.tenant.id;
    let heavy = fixtures::end_user();
    let newcomer = fixtures::end_user();

    // Two templates with opposite histories, so that every lookup has to look past thousands of
    // events if it can: on the first the pending acceptances are the latest events, on the second
    // the verified ones; on both, declines of major 1 come after its acceptances.
    let pending_on_top = seed.template.clone();
    let verified_on_top = fixtures::stored_template(&stores, tenant, &[(1, 0), (1, 1), (2, 0)]).await;
    let major_one = [kind((1, 0), Action::Accepted, true, -50_000), kind((1, 1), Action::Declined, true, -40_000)];
    events_of(&stores, &seed, &pending_on_top, &heavy, &major_one).await;
    let first = events_of(
        &stores,
        &seed,
        &pending_on_top,
        &heavy,
        &[
            kind((2, 0), Action::Accepted, true, -30_000),
            kind((2, 0), Action::Declined, true, -20_000),
            kind((2, 0), Action::Accepted, false, -10_000),
        ],
    )
    .await;
    events_of(&stores, &seed, &verified_on_top, &heavy, &major_one).await;
    let second = events_of(
        &stores,
        &seed,
        &verified_on_top,
        &heavy,
        &[
            kind((2, 0), Action::Accepted, false, -30_000),
            kind((2, 0), Action::Declined, true, -20_000),
            kind((2, 0), Action::Accepted, true, -10_000),
        ],
    )
    .await;
    let mut conn = AsyncPgConnection::establish(&db.url().expose()).await.unwrap();
    copy_history(&mut conn, &heavy).await;

    // The adapter's answers for the long history are the latest events of each kind.
    let expectations =
        [(&pending_on_top, &first[1], &first[2], &first[0]), (&verified_on_top, &second[2], &second[0], &second[2])];
    for (template, latest_verified, latest_unverified, last_accepted) in expectations {
        let snapshot = store.consent_snapshot(tenant, &heavy, template.id, 2).await.unwrap();
        assert_eq!(snapshot.latest_verified.map(|s| s.event_id), id(latest_verified), "the latest verified event");
        assert_eq!(snapshot.latest_unverified.map(|s| s.event_id), id(latest_unverified), "the latest pending event");
        assert!(snapshot.accepted_earlier_major, "major 1 was accepted before");
        let accepted = store.last_accepted_event(tenant, &heavy, template.id).await.unwrap();
        assert_eq!(accepted.as_ref().and_then(id), id(last_accepted), "the last acceptance");
    }

    for template in [&pending_on_top, &verified_on_top] {
        for major in [1, 2, 3] {
            let snapshot = |end_user| sent(store.consent_snapshot(tenant, end_user, template.id, major));
            let (heavy_sent, new_sent) = (snapshot(&heavy).await, snapshot(&newcomer).await);
            assert_flat(&mut conn, &format!("the consent snapshot of major {major}"), &heavy_sent, &new_sent).await;
        }
        let last_accepted = |end_user| sent(store.last_accepted_event(tenant, end_user, template.id));
        let (heavy_sent, new_sent) = (last_accepted(&heavy).await, last_accepted(&newcomer).await);
        assert_flat(&mut conn, "the last acceptance", &heavy_sent, &new_sent).await;
    }
}
