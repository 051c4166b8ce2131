//! Several `serve` processes on one database, as operators run them behind a load balancer
//! (docs/operations.md, "Running several instances"): started at the same moment, they all become
//! ready and the database is created and migrated once; stopped, each drains (`/readyz` 503 while it
//! serves on), lets its requests in flight finish, hands back its webhook claims and exits 0 with
//! nothing logged above INFO; a rolling restart under load fails no request.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::Command;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Barrier, Mutex, mpsc};
use std::time::{Duration, Instant};

use clickwrap_postgres::test_db::TestDatabase;
use common::{DemoCredentials, Server};
use diesel::migration::MigrationSource;

/// `clickwrap-server <subcommand>` with a drain of `drain_secs`, and a rate limit that the load
/// of these tests (all from one address) does not reach.
fn instance(url: &str, subcommand: &str, drain_secs: u64) -> Command {
    let mut command = common::command(url);
    command
        .env("CLICKWRAP_SHUTDOWN_DRAIN_SECS", drain_secs.to_string())
        .env("CLICKWRAP_RATE_LIMIT_PER_HOUR", "1000000")
        .arg(subcommand);
    command
}

/// Starts every command at the same moment and waits until each listens.
fn start_together(commands: Vec<Command>) -> Vec<Server> {
    let barrier = Arc::new(Barrier::new(commands.len()));
    let starting: Vec<_> = commands
        .into_iter()
        .map(|command| {
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                barrier.wait();
                common::start_command(command)
            })
        })
        .collect();
    starting.into_iter().map(|start| start.join().expect("an instance did not start")).collect()
}

fn terminate(server: &Server) {
    let sent = Command::new("kill").args(["-TERM", &server.child.id().to_string()]).status().unwrap();
    assert!(sent.success());
}

/// Waits for the process to exit (at most a minute); its log, every line from the start.
fn wait_for_exit(mut server: Server) -> (std::process::ExitStatus, Vec<String>) {
    let started = Instant::now();
    let status = loop {
        if let Some(status) = server.child.try_wait().unwrap() {
            break status;
        }
        assert!(started.elapsed() < Duration::from_secs(60), "still running a minute after SIGTERM");
        std::thread::sleep(Duration::from_millis(20));
    };
    // The log's reader ends with the process's stderr.
    let mut lines = std::mem::take(&mut server.startup_logs);
    while let Ok(line) = server.logs.recv_timeout(Duration::from_secs(5)) {
        lines.push(line);
    }
    (status, lines)
}

/// Lines logged at `level` (JSON logs).
fn logged_at<'a>(lines: &'a [String], level: &str) -> Vec<&'a String> {
    lines
        .iter()
        .filter(|line| serde_json::from_str::<serde_json::Value>(line).is_ok_and(|entry| entry["level"] == level))
        .collect()
}

/// Lines logged at ERROR or WARN, but for the certificate fonts this machine may lack.
fn complaints(lines: &[String]) -> Vec<&String> {
    let mut found = logged_at(lines, "ERROR");
    found.extend(
        logged_at(lines, "WARN").into_iter().filter(|line| !line.contains("\"target\":\"clickwrap_pdf::fonts\"")),
    );
    found
}

fn messages(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter_map(|entry| entry["message"].as_str().map(str::to_owned))
        .collect()
}

/// One number from the database at `url`.
fn query_number(url: &str, sql: &str) -> i64 {
    #[derive(diesel::QueryableByName)]
    struct Number {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        n: i64,
    }
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
        let mut conn = AsyncPgConnection::establish(url).await.unwrap();
        diesel::sql_query(sql).get_result::<Number>(&mut conn).await.unwrap().n
    })
}

fn embedded_migrations() -> i64 {
    let migrations = MigrationSource::<diesel::pg::Pg>::migrations(&clickwrap_postgres::database::MIGRATIONS).unwrap();
    i64::try_from(migrations.len()).unwrap()
}

/// Starts three instances at once on `url`; each is ready, the schema was migrated by one of
/// them, and none logged a warning or an error.
fn three_start_together_and_migrate_once(url: &str) {
    let servers = start_together((0..3).map(|_| instance(url, "serve", 0)).collect());
    for server in &servers {
        assert_eq!(common::request(&server.address, "GET", "/readyz", &[], b"").status, 200);
    }
    assert_eq!(query_number(url, "SELECT count(*) AS n FROM __diesel_schema_migrations"), embedded_migrations());
    let mut migrated_by = 0;
    for server in servers {
        terminate(&server);
        let (status, lines) = wait_for_exit(server);
        assert!(status.success(), "{status:?}: {lines:#?}");
        assert!(complaints(&lines).is_empty(), "{lines:#?}");
        migrated_by += usize::from(messages(&lines).iter().any(|m| m == "database migrated"));
    }
    assert_eq!(migrated_by, 1, "one instance migrates, the others find nothing left to do");
}

#[test]
fn instances_started_at_once_on_a_missing_database_all_become_ready() {
    let db = TestDatabase::new_blocking();
    let url = common::fresh_database_url(&db);
    three_start_together_and_migrate_once(&url);
    common::drop_database(&db, &url);
}

#[test]
fn instances_started_at_once_on_an_empty_database_all_become_ready() {
    let db = TestDatabase::new_blocking();
    let url = common::fresh_database_url(&db);
    let name = url.rsplit('/').next().unwrap().to_owned();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
        let mut admin = AsyncPgConnection::establish(&db.url().with_database("postgres").expose()).await.unwrap();
        diesel::sql_query(format!("CREATE DATABASE {name}")).execute(&mut admin).await.unwrap();
    });
    three_start_together_and_migrate_once(&url);
    common::drop_database(&db, &url);
}

#[test]
fn demos_started_at_once_on_a_missing_database_make_one_demo_and_print_working_keys() {
    let db = TestDatabase::new_blocking();
    let url = common::fresh_database_url(&db);
    let servers = start_together((0..3).map(|_| instance(&url, "demo", 0)).collect());
    let demos: Vec<DemoCredentials> = servers.iter().map(Server::demo_credentials).collect();
    for (server, demo) in servers.iter().zip(&demos) {
        assert_eq!(demo.tenant_id, demos[0].tenant_id, "one demo tenant for all");
        assert_eq!(demo.app_key, demos[0].app_key, "the first one's key is kept, not replaced");
        // The key each printed works on every instance.
        let signature = common::record_acceptance(&server.address, demo, &format!("racer-{}", server.child.id()));
        assert_eq!(common::verify(&servers[0].address, demo, &signature).status, 200);
    }
    assert_eq!(query_number(&url, "SELECT count(*) AS n FROM tenants"), 1);
    drop(servers);
    common::drop_database(&db, &url);
}

/// A webhook receiver that accepts connections and never answers: an attempt to it stays in
/// flight until the webhook timeout. Says on `connected` when the first one arrives.
fn silent_receiver() -> (String, mpsc::Receiver<()>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("https://127.0.0.1:{}/hook", listener.local_addr().unwrap().port());
    let (connected, arrived) = mpsc::channel();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for stream in listener.incoming().map_while(Result::ok) {
            held.push(stream);
            let _ = connected.send(());
        }
    });
    (url, arrived)
}

/// A keep-alive HTTP/1.1 connection: sends a request and reads its answer, leaving the connection
/// open when the server does.
struct KeepAlive(BufReader<TcpStream>);

impl KeepAlive {
    fn open(address: &str) -> Self {
        let stream = TcpStream::connect(address).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        Self(BufReader::new(stream))
    }

    /// The status and the `Connection` header of the answer to `GET path`.
    fn get(&mut self, path: &str) -> (u16, Option<String>) {
        write!(self.0.get_mut(), "GET {path} HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
        let mut status_line = String::new();
        self.0.read_line(&mut status_line).unwrap();
        let status = status_line.split(' ').nth(1).and_then(|s| s.parse().ok()).expect("a status line");
        let (mut length, mut connection) = (0, None);
        loop {
            let mut line = String::new();
            self.0.read_line(&mut line).unwrap();
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            let (name, value) = line.split_once(':').unwrap();
            match name.trim().to_ascii_lowercase().as_str() {
                "content-length" => length = value.trim().parse().unwrap(),
                "connection" => connection = Some(value.trim().to_ascii_lowercase()),
                _ => {}
            }
        }
        let mut body = vec![0; length];
        self.0.read_exact(&mut body).unwrap();
        (status, connection)
    }

    /// Whether the server closed the connection (end of stream, nothing more to read).
    fn closed_by_server(&mut self) -> bool {
        let mut rest = Vec::new();
        self.0.read_to_end(&mut rest).is_ok_and(|_| rest.is_empty())
    }
}

#[test]
fn a_stopping_instance_drains_finishes_its_requests_hands_back_its_claims_and_exits_cleanly() {
    let db = TestDatabase::new_blocking();
    let url = common::fresh_database_url(&db);
    let mut command = instance(&url, "demo", 2);
    command.env("CLICKWRAP_WEBHOOK_ALLOW_CIDRS", "127.0.0.0/8").env("CLICKWRAP_WEBHOOK_TIMEOUT_SECS", "3");
    let server = common::start_command(command);
    let address = server.address.clone();
    let demo = server.demo_credentials();

    // An app whose webhook receiver never answers: its delivery stays claimed by this instance.
    let (receiver_url, receiver_connected) = silent_receiver();
    let created = common::request(
        &address,
        "POST",
        "/operator/v1/apps",
        &[("Authorization", &format!("Bearer {}", demo.operator_token)), ("Content-Type", "application/json")],
        serde_json::json!({"name": "Hooked app", "webhookUrl": receiver_url}).to_string().as_bytes(),
    );
    assert_eq!(created.status, 201, "{}", created.text());
    let hooked = DemoCredentials {
        app_id: created.json()["appId"].as_str().unwrap().to_owned(),
        app_key: created.json()["appKey"].as_str().unwrap().to_owned(),
        ..demo.clone()
    };
    let signature = common::record_acceptance(&address, &hooked, "drain-user");
    assert_eq!(common::verify(&address, &hooked, &signature).status, 200);
    receiver_connected.recv_timeout(Duration::from_secs(10)).expect("the webhook attempt started");
    let claimed = "SELECT count(*) AS n FROM webhook_deliveries WHERE lease_owner IS NOT NULL";
    assert_eq!(query_number(&url, claimed), 1);

    // A keep-alive connection, idle when the signal comes.
    let mut idle = KeepAlive::open(&address);
    assert_eq!(idle.get("/healthz"), (200, None));

    terminate(&server);
    let deadline = Instant::now() + Duration::from_secs(1);
    let not_ready = loop {
        let answer = common::request(&address, "GET", "/readyz", &[], b"");
        if answer.status != 200 {
            break answer;
        }
        assert!(Instant::now() < deadline, "/readyz still 200 a second after SIGTERM");
        std::thread::sleep(Duration::from_millis(10));
    };
    assert_eq!(not_ready.status, 503, "{}", not_ready.text());
    assert_eq!(not_ready.json()["code"], "SERVICE_UNAVAILABLE");

    // Draining: the API still answers, and asks its clients to reconnect (elsewhere).
    assert_eq!(idle.get("/healthz"), (200, Some("close".to_owned())), "the idle connection's next request");
    assert!(idle.closed_by_server());
    let check = common::request(
        &address,
        "GET",
        &format!(
            "/public-client/v1/clickwrap?appId={}&clickwrapTemplateId={}&endUserId=drain-check",
            demo.app_id, demo.template_id
        ),
        &[],
        b"",
    );
    assert_eq!(check.status, 200, "{}", check.text());

    // A request whose body is still arriving when the listener closes is answered.
    let mut in_flight = TcpStream::connect(&address).unwrap();
    in_flight.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let body = r#"{"serviceSignature":"x"}"#;
    write!(
        in_flight,
        "POST /public-client/v1/clickwrap/verify HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{}",
        body.len(),
        &body[..5]
    )
    .unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while TcpStream::connect(&address).is_ok() {
        assert!(Instant::now() < deadline, "still accepting connections 10 s after SIGTERM");
        std::thread::sleep(Duration::from_millis(20));
    }
    in_flight.write_all(&body.as_bytes()[5..]).unwrap();
    let mut answer = String::new();
    in_flight.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 401"), "{answer}");

    let (status, lines) = wait_for_exit(server);
    assert!(status.success(), "{status:?}: {lines:#?}");
    assert!(complaints(&lines).is_empty(), "{lines:#?}");
    let said = messages(&lines);
    for step in ["stop signal", "stopped accepting connections", "requests in flight are finished", "stopped"] {
        assert!(said.iter().any(|m| m.starts_with(step)), "no {step:?} in {said:#?}");
    }
    // The attempt in flight was recorded, and no claim outlives the process.
    assert_eq!(query_number(&url, "SELECT count(*) AS n FROM webhook_attempts"), 1);
    assert_eq!(query_number(&url, claimed), 0);
    common::drop_database(&db, &url);
}

/// A request through a new connection: its status, or why there was none.
fn try_get(address: &str, path: &str) -> Result<u16, String> {
    let mut stream = TcpStream::connect(address).map_err(|e| format!("connect: {e}"))?;
    stream.set_read_timeout(Some(Duration::from_secs(30))).map_err(|e| e.to_string())?;
    write!(stream, "GET {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n")
        .map_err(|e| format!("send: {e}"))?;
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).map_err(|e| format!("read: {e}"))?;
    let head = String::from_utf8_lossy(&answer);
    head.split(' ').nth(1).and_then(|s| s.parse().ok()).ok_or_else(|| format!("no answer: {head:?}"))
}

/// What a load balancer knows: each backend's address and whether its last health check passed.
type Backends = Arc<Mutex<Vec<(String, bool)>>>;

#[test]
fn a_rolling_restart_under_load_fails_no_request() {
    let db = TestDatabase::new_blocking();
    let url = common::fresh_database_url(&db);
    let mut servers = start_together((0..2).map(|_| instance(&url, "demo", 1)).collect());
    let demo = servers[0].demo_credentials();
    let path = format!(
        "/public-client/v1/clickwrap?appId={}&clickwrapTemplateId={}&endUserId=rolling",
        demo.app_id, demo.template_id
    );
    let backends: Backends = Arc::new(Mutex::new(servers.iter().map(|s| (s.address.clone(), true)).collect()));
    let done = Arc::new(AtomicBool::new(false));

    // The load balancer's health check, every 100 ms (shorter than the drain).
    let checker = {
        let (backends, done) = (backends.clone(), done.clone());
        std::thread::spawn(move || {
            while !done.load(Ordering::Relaxed) {
                let addresses: Vec<String> = backends.lock().unwrap().iter().map(|(a, _)| a.clone()).collect();
                let health: Vec<bool> = addresses.iter().map(|a| try_get(a, "/readyz") == Ok(200)).collect();
                for (backend, healthy) in backends.lock().unwrap().iter_mut().zip(health) {
                    backend.1 = healthy;
                }
                std::thread::sleep(Duration::from_millis(100));
            }
        })
    };
    // Two clients, sending round-robin to the healthy backends.
    let (served, failures) = (Arc::new(AtomicU64::new(0)), Arc::new(Mutex::new(Vec::new())));
    let clients: Vec<_> = (0..2)
        .map(|client| {
            let (backends, done, path) = (backends.clone(), done.clone(), path.clone());
            let (served, failures) = (served.clone(), failures.clone());
            std::thread::spawn(move || {
                let mut turn = client;
                while !done.load(Ordering::Relaxed) {
                    let healthy: Vec<String> =
                        backends.lock().unwrap().iter().filter(|(_, ok)| *ok).map(|(a, _)| a.clone()).collect();
                    turn += 1;
                    let Some(address) = healthy.get(turn % healthy.len().max(1)) else {
                        std::thread::sleep(Duration::from_millis(10));
                        continue;
                    };
                    match try_get(address, &path) {
                        Ok(200) => {
                            served.fetch_add(1, Ordering::Relaxed);
                        }
                        other => failures.lock().unwrap().push(format!("{address}: {other:?}")),
                    }
                }
            })
        })
        .collect();

    // Each instance in turn: stopped, then a new one started in its place.
    for index in 0..servers.len() {
        std::thread::sleep(Duration::from_millis(500));
        let old = servers.remove(index);
        let old_address = old.address.clone();
        terminate(&old);
        let (status, lines) = wait_for_exit(old);
        assert!(status.success(), "{status:?}: {lines:#?}");
        assert!(complaints(&lines).is_empty(), "{lines:#?}");
        let new = common::start_command(instance(&url, "demo", 1));
        // Takes the old one's place behind the load balancer, healthy after its first check.
        for backend in backends.lock().unwrap().iter_mut().filter(|(a, _)| *a == old_address) {
            *backend = (new.address.clone(), false);
        }
        servers.insert(index, new);
    }
    std::thread::sleep(Duration::from_millis(500));
    done.store(true, Ordering::Relaxed);
    checker.join().unwrap();
    for client in clients {
        client.join().unwrap();
    }
    let failures = failures.lock().unwrap();
    assert!(failures.is_empty(), "{} served, failed: {failures:#?}", served.load(Ordering::Relaxed));
    assert!(served.load(Ordering::Relaxed) > 0);
    drop(servers);
    common::drop_database(&db, &url);
}
