//! Two server processes on one database share a rate limit: each decides in memory and syncs its
//! hits every `CLICKWRAP_RATE_LIMIT_SYNC_MS`; together they admit at most the limit plus what the
//! deciding instance had not yet seen of the other's admissions (docs/operations.md), and once
//! both have synced, both refuse. Stopped gracefully, an instance adds its last hits to the shared
//! count.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use std::process::Command;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use clickwrap_postgres::test_db::TestDatabase;
use common::{DemoCredentials, Response, Server, drop_database, fresh_database_url, request};

const LIMIT: u64 = 4;

fn start_instance(url: &str, subcommand: &str, sync_ms: &str) -> Server {
    let mut command = common::command(url);
    command
        .env("CLICKWRAP_RATE_LIMIT_PER_HOUR", LIMIT.to_string())
        .env("CLICKWRAP_RATE_LIMIT_SYNC_MS", sync_ms)
        // The test speaks from 127.0.0.1; as a proxy there, it can also speak for other clients.
        .env("CLICKWRAP_TRUSTED_PROXIES", "127.0.0.1/32")
        .arg(subcommand);
    common::start_command(command)
}

/// One rate-limited request (the SDK's customizations) from 127.0.0.1.
fn customizations(server: &Server, demo: &DemoCredentials) -> Response {
    customizations_from(server, demo, &[])
}

fn customizations_from(server: &Server, demo: &DemoCredentials, headers: &[(&str, &str)]) -> Response {
    let path = format!(
        "/public-client/v1/clickwrap/customizations?appId={}&clickwrapTemplateId={}",
        demo.app_id, demo.template_id
    );
    let answer = request(&server.address, "GET", &path, headers, b"");
    assert!(answer.status == 200 || answer.status == 429, "{} {}", answer.status, answer.text());
    assert_eq!(answer.header("ratelimit-limit"), Some(LIMIT.to_string().as_str()));
    if answer.status == 429 {
        assert_eq!(answer.json()["code"], "RATE_LIMITED");
        assert_eq!(answer.header("ratelimit-remaining"), Some("0"));
        assert!(answer.header("retry-after").unwrap().parse::<u64>().unwrap() > 0);
    }
    answer
}

/// Waits until `server` has added every hit it counted to the shared count (its `/metrics` says
/// so), which also means it has learned the shared count of each key it synced.
fn wait_until_synced(server: &Server) {
    let started = Instant::now();
    loop {
        let metrics = common::get(&server.address, "/metrics");
        let unsynced = metrics
            .lines()
            .find_map(|line| line.strip_prefix("clickwrap_rate_limit_unsynced_hits "))
            .expect("/metrics shows the unsynced rate-limit hits");
        if unsynced.trim() == "0" {
            return;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no rate-limit sync within 60 s: {unsynced} hits unsynced"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn stop(mut server: Server) {
    let sent = Command::new("kill").args(["-TERM", &server.child.id().to_string()]).status().unwrap();
    assert!(sent.success());
    let status = server.child.wait().unwrap();
    assert!(status.success(), "{status:?}");
}

/// Every hit the shared table counts for a client.
fn shared_hits(url: &str, client_ip: &str) -> i64 {
    #[derive(diesel::QueryableByName)]
    struct Total {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        hits: i64,
    }
    let (url, client_ip) = (url.to_owned(), client_ip.to_owned());
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async move {
        use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
        let mut conn = AsyncPgConnection::establish(&url).await.unwrap();
        let total: Total = diesel::sql_query(
            "SELECT COALESCE(sum(hits), 0)::bigint AS hits FROM rate_limit_windows WHERE client_ip = $1",
        )
        .bind::<diesel::sql_types::Text, _>(client_ip)
        .get_result(&mut conn)
        .await
        .unwrap();
        total.hits
    })
}

#[test]
fn two_processes_on_one_database_share_the_limit_within_the_documented_bound() {
    // The windows are hours aligned to the epoch: stay clear of the turn of one.
    let into_hour = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs() % 3600;
    if into_hour > 3600 - 60 {
        std::thread::sleep(Duration::from_secs(3600 - into_hour + 1));
    }
    let db = TestDatabase::new_blocking();
    let url = fresh_database_url(&db);
    let one = start_instance(&url, "demo", "50");
    let demo = one.demo_credentials();
    let two = start_instance(&url, "serve", "50");
    let mut admitted = [0_u64; 2];
    let mut sent = 0_i64;
    let mut hit = |server: &Server, instance: usize| {
        sent += 1;
        let answer = customizations(server, &demo);
        if answer.status == 200 {
            admitted[instance] += 1;
        }
        answer.status
    };

    // Instance one alone, as a single instance decides: remaining counts down from the limit.
    assert_eq!(hit(&one, 0), 200);
    assert_eq!(hit(&one, 0), 200);
    wait_until_synced(&one);
    // Instance two has not seen the key's shared count (2) yet: it counts from its own hits, so
    // both are admitted; its sync then tells it the shared count, 4.
    assert_eq!(hit(&two, 1), 200);
    assert_eq!(hit(&two, 1), 200);
    wait_until_synced(&two);
    assert_eq!(hit(&two, 1), 429, "instance two has counted 2 of 4 itself: the limit is shared");
    // Instance one last synced before two's hits: one more is admitted there (the bound's case),
    // and after its next sync it refuses too.
    assert_eq!(hit(&one, 0), 200);
    wait_until_synced(&one);
    wait_until_synced(&two);
    assert_eq!(hit(&one, 0), 429, "instance one has counted 3 of 4 itself: the limit is shared");
    assert_eq!(hit(&two, 1), 429);

    // Hits of the last moments, not yet synced when the instances are stopped: each adds them to
    // the shared count as it stops, so the table has every hit, once.
    assert_eq!(hit(&one, 0), 429);
    assert_eq!(hit(&two, 1), 429);

    let combined = admitted[0] + admitted[1];
    // The documented bound: the limit plus what the other instance admitted that the deciding one
    // had not seen. Instance one's 3rd admission had not seen two's 2 (two's own admissions had
    // not seen one's 2 either, but with them they were still within the limit).
    let unseen_by_one = admitted[1];
    assert!(combined >= LIMIT, "the instances admitted {combined}, fewer than the limit");
    assert!(combined <= LIMIT + unseen_by_one, "admitted {combined} > {LIMIT} + {unseen_by_one}");
    assert_eq!(admitted, [3, 2]);

    stop(one);
    stop(two);
    assert_eq!(shared_hits(&url, "127.0.0.1"), sent, "every request counted once in the shared table");

    // An instance whose first sync is a minute away, stopped before it: the stop syncs its hits.
    let late = start_instance(&url, "serve", "60000");
    let client = [("X-Forwarded-For", "198.51.100.7")];
    for _ in 0..3 {
        assert_eq!(customizations_from(&late, &demo, &client).status, 200);
    }
    assert_eq!(shared_hits(&url, "198.51.100.7"), 0, "not synced yet");
    stop(late);
    assert_eq!(shared_hits(&url, "198.51.100.7"), 3, "synced when it stopped");
    drop_database(&db, &url);
}
