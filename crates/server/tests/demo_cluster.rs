//! `clickwrap-server demo` where no PostgreSQL answers: it starts a private cluster of its own
//! (PostgreSQL's server programs are installed on the machines that run these tests), says so,
//! serves, and stops the cluster when the demo is stopped. Run again, it keeps its App Key and
//! operator token. The machine's own PostgreSQL is never touched. As root (as on CI) the demo runs
//! as root and PostgreSQL as the `postgres` account, with the data in a home only root may enter.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use std::net::TcpStream;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use common::{DemoCredentials, Server, bare_command, get, request, start_command};

fn running_as_root() -> bool {
    std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
}

/// A home of its own, closed to everyone else as root's usually is.
fn temporary_home() -> PathBuf {
    let home = std::env::temp_dir().join(format!("clickwrap-demo-home-{}", uuid::Uuid::now_v7()));
    std::fs::create_dir_all(&home).unwrap();
    std::fs::set_permissions(&home, std::fs::Permissions::from_mode(0o700)).unwrap();
    home
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

/// The user id of an account.
fn user_id(account: &str) -> u32 {
    let output = Command::new("id").args(["-u", account]).output().unwrap();
    assert!(output.status.success(), "no `{account}` account");
    String::from_utf8_lossy(&output.stdout).trim().parse().unwrap()
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn start_demo(home: &Path, database_url: &str) -> Server {
    let mut demo = bare_command(database_url);
    demo.env("HOME", home).env("XDG_DATA_HOME", home.join("data")).arg("demo");
    start_command(demo)
}

/// The demo's `Database:` line: the private cluster's port and data directory.
fn private_cluster(server: &Server) -> (u16, PathBuf) {
    loop {
        let line = server.stdout.recv_timeout(Duration::from_secs(30)).expect("the demo names its database");
        let Some(rest) = line.trim().strip_prefix("Database:") else { continue };
        let port = rest.split("127.0.0.1:").nth(1).unwrap().split(',').next().unwrap().parse().unwrap();
        let directory = rest.split("data in ").nth(1).unwrap().split(" (").next().unwrap();
        return (port, PathBuf::from(directory));
    }
}

fn stop(mut server: Server, signal: &str) {
    let sent = Command::new("kill").args([signal, &server.child.id().to_string()]).status().unwrap();
    assert!(sent.success());
    let status = server.child.wait().unwrap();
    assert!(status.success(), "{status:?}");
    // Everything it said until it closed its standard error.
    let said: Vec<String> = std::iter::from_fn(|| server.logs.recv_timeout(Duration::from_secs(10)).ok()).collect();
    assert!(said.iter().any(|l| l.contains("Stopped the demo's private PostgreSQL")), "{said:#?}");
}

fn audit_entries(address: &str, demo: &DemoCredentials) -> usize {
    let auth = format!("Bearer {}", demo.operator_token);
    let log = request(address, "GET", "/operator/v1/audit-log?limit=100", &[("Authorization", &auth)], b"");
    assert_eq!(log.status, 200, "{}", log.text());
    log.json()["items"].as_array().unwrap().len()
}

#[test]
fn demo_without_postgresql_runs_a_private_cluster_and_stops_it() {
    let home = temporary_home();
    // Nothing listens there; the machine's own PostgreSQL (on another port) is left alone.
    let url = format!("postgres://postgres@127.0.0.1:{}/clickwrap", free_port());

    let server = start_demo(&home, &url);
    let first = server.demo_credentials();
    let (port, directory) = private_cluster(&server);
    assert!(directory.starts_with(home.join("data").join("clickwrap")), "{}", directory.display());
    assert!(directory.join("data").join("PG_VERSION").is_file());
    assert!(directory.join("data").join("postmaster.pid").is_file(), "the cluster runs while the demo does");
    assert!(directory.join("master.key").is_file(), "the demo's master key lives with its database");
    assert_eq!(mode(&directory.join("master.key")), 0o600);
    assert_eq!(mode(&directory.join("password")), 0o600);
    assert_eq!(mode(&directory.join("data")), 0o700);
    if running_as_root() {
        // PostgreSQL's account owns the data and passes through the folders on the way, which
        // it may not list.
        assert_eq!(std::fs::metadata(directory.join("data")).unwrap().uid(), user_id("postgres"));
        assert_eq!(std::fs::metadata(&directory).unwrap().uid(), 0);
        assert_eq!(mode(&directory), 0o711);
        assert_eq!(mode(&home), 0o701, "the home gets search permission for others, nothing more");
    } else {
        assert_eq!(mode(&directory), 0o700);
        assert_eq!(mode(&home), 0o700);
    }
    assert!(get(&server.address, "/readyz").starts_with("HTTP/1.1 200"));
    assert!(get(&server.address, "/demo").starts_with("HTTP/1.1 200"));
    let entries = audit_entries(&server.address, &first);
    stop(server, "-TERM");
    assert!(!directory.join("data").join("postmaster.pid").exists(), "the cluster was left running");
    assert!(TcpStream::connect(("127.0.0.1", port)).is_err(), "something still listens on the cluster's port");

    // Again, stopped with Ctrl-C this time: the same cluster, App Key and operator token, and no
    // new operator token or key in the audit log.
    let server = start_demo(&home, &url);
    let again = server.demo_credentials();
    let (_, same_directory) = private_cluster(&server);
    assert_eq!(same_directory, directory);
    assert_eq!(again.app_id, first.app_id);
    assert_eq!(again.app_key, first.app_key, "the App Key changed on restart");
    assert_eq!(again.operator_token, first.operator_token, "a new operator token on restart");
    assert_eq!(audit_entries(&server.address, &again), entries, "the restart changed credentials");
    stop(server, "-INT");
    assert!(!directory.join("data").join("postmaster.pid").exists(), "the cluster was left running");

    std::fs::remove_dir_all(&home).unwrap();
}
