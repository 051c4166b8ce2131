//! The established load generators: `wrk` for HTTP (installed from Debian's packages when missing)
//! and `pgbench` for the database's own baselines. Both report through files we parse here.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use clickwrap_postgres::database::DatabaseUrl;
use serde_json::Value;

/// Where the two programs are.
#[derive(Debug)]
pub(super) struct Tools {
    wrk: PathBuf,
    pgbench: PathBuf,
}

/// Throughput and latency of one load run.
#[derive(Debug, Clone, Copy)]
pub(super) struct Load {
    /// Completed requests (or transactions, or flows).
    pub(super) count: u64,
    pub(super) per_second: f64,
    pub(super) p50: Duration,
    pub(super) p99: Duration,
    /// Answers that were not 2xx, socket errors, or failed transactions.
    pub(super) errors: u64,
}

impl Tools {
    /// Finds wrk and pgbench, installing wrk with apt-get when it is missing (as root).
    pub(super) fn find_or_install() -> Result<Self, String> {
        let wrk = match on_path("wrk") {
            Some(path) => path,
            None => {
                install_debian_package("wrk")?;
                on_path("wrk").ok_or("wrk is still missing after installing it")?
            }
        };
        let pgbench = on_path("pgbench")
            .or_else(|| {
                let versions = std::fs::read_dir("/usr/lib/postgresql").ok()?;
                versions.filter_map(Result::ok).map(|v| v.path().join("bin/pgbench")).find(|p| p.is_file())
            })
            .ok_or("pgbench is missing: it comes with PostgreSQL (Debian: apt-get install postgresql-client)")?;
        Ok(Self { wrk, pgbench })
    }

    /// Runs wrk with a Lua `script` (which must print our `BENCH {...}` summary line in `done`).
    pub(super) fn wrk(
        &self,
        base_url: &str,
        script: &Path,
        connections: u32,
        duration: Duration,
    ) -> Result<Load, String> {
        let threads = connections.min(2);
        let output = Command::new(&self.wrk)
            .args(["--latency", "-t", &threads.to_string(), "-c", &connections.to_string()])
            .args(["-d", &format!("{}s", duration.as_secs().max(1)), "--timeout", "10s", "-s"])
            .arg(script)
            .arg(base_url)
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("cannot run wrk: {e}"))?;
        let stdout = String::from_utf8_lossy(&output.stdout);
        if !output.status.success() {
            return Err(format!("wrk failed ({}): {stdout}{}", output.status, String::from_utf8_lossy(&output.stderr)));
        }
        let summary: Value = stdout
            .lines()
            .find_map(|l| l.strip_prefix("BENCH "))
            .and_then(|json| serde_json::from_str(json).ok())
            .ok_or_else(|| format!("wrk printed no summary:\n{stdout}"))?;
        let number = |key: &str| summary.get(key).and_then(Value::as_u64).unwrap_or(0);
        let seconds = Duration::from_micros(number("duration_us")).as_secs_f64();
        let count = number("requests");
        Ok(Load {
            count,
            per_second: if seconds > 0.0 { count as f64 / seconds } else { 0.0 },
            p50: Duration::from_micros(number("p50_us")),
            p99: Duration::from_micros(number("p99_us")),
            errors: number("non_2xx") + number("socket_errors"),
        })
    }

    /// `pgbench -i` at `scale` into `database` (which must exist and be empty).
    pub(super) fn initialize(&self, database: &DatabaseUrl, scale: u32) -> Result<(), String> {
        let output = Command::new(&self.pgbench)
            .args(["-i", "-q", "-s", &scale.to_string()])
            .arg(database.expose())
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("cannot run pgbench: {e}"))?;
        if output.status.success() {
            Ok(())
        } else {
            Err(format!("pgbench -i failed: {}", String::from_utf8_lossy(&output.stderr)))
        }
    }

    /// A pgbench run (`select_only`: `-S`, else the TPC-B-like default) with prepared statements, its
    /// per-transaction log written under `log_dir` and read for the percentiles.
    pub(super) fn pgbench(
        &self,
        database: &DatabaseUrl,
        select_only: bool,
        clients: u32,
        duration: Duration,
        log_dir: &Path,
    ) -> Result<Load, String> {
        let _ = std::fs::remove_dir_all(log_dir);
        std::fs::create_dir_all(log_dir).map_err(|e| format!("cannot create {}: {e}", log_dir.display()))?;
        let mut command = Command::new(&self.pgbench);
        if select_only {
            command.arg("-S");
        }
        let output = command
            .args(["-M", "prepared", "-c", &clients.to_string(), "-j", &clients.min(2).to_string()])
            .args(["-T", &duration.as_secs().max(1).to_string(), "-l", "--log-prefix"])
            .arg(log_dir.join("tx"))
            .arg(database.expose())
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("cannot run pgbench: {e}"))?;
        let stdout = String::from_utf8_lossy(&output.stdout);
        if !output.status.success() {
            return Err(format!(
                "pgbench failed ({}): {stdout}{}",
                output.status,
                String::from_utf8_lossy(&output.stderr)
            ));
        }
        let field = |prefix: &str| {
            stdout.lines().find_map(|l| l.trim().strip_prefix(prefix)).and_then(|rest| {
                rest.trim_start_matches([' ', '=', ':']).split_whitespace().next().and_then(|n| n.parse::<f64>().ok())
            })
        };
        let per_second = field("tps").ok_or_else(|| format!("pgbench printed no tps:\n{stdout}"))?;
        let failed = field("number of failed transactions").unwrap_or(0.0);
        let mut latencies = transaction_log(log_dir)?;
        latencies.sort_unstable();
        Ok(Load {
            count: latencies.len() as u64,
            per_second,
            p50: super::super::percentile(&latencies, 50),
            p99: super::super::percentile(&latencies, 99),
            errors: failed as u64,
        })
    }
}

/// Latencies from pgbench's per-transaction logs (`client tx latency_us script epoch us …`).
fn transaction_log(dir: &Path) -> Result<Vec<Duration>, String> {
    let mut latencies = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))? {
        let path = entry.map_err(|e| e.to_string())?.path();
        let text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        latencies.extend(
            text.lines()
                .filter_map(|line| line.split_whitespace().nth(2)?.parse::<u64>().ok())
                .map(Duration::from_micros),
        );
    }
    let _ = std::fs::remove_dir_all(dir);
    Ok(latencies)
}

fn on_path(program: &str) -> Option<PathBuf> {
    std::env::var_os("PATH")
        .map(|paths| std::env::split_paths(&paths).map(|dir| dir.join(program)).collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .find(|candidate| candidate.is_file())
}

fn install_debian_package(package: &str) -> Result<(), String> {
    let hint = format!("{package} is missing; install it (Debian: apt-get install {package}) and run again");
    if on_path("apt-get").is_none() {
        return Err(hint);
    }
    println!("    installing {package} with apt-get");
    let install = || {
        Command::new("apt-get")
            .args(["install", "-y", "-qq", package])
            .env("DEBIAN_FRONTEND", "noninteractive")
            .stdout(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    // The package lists of a fresh machine may be empty: update them once if the first try fails.
    let updated =
        || Command::new("apt-get").args(["update", "-qq"]).stdout(Stdio::null()).status().is_ok_and(|s| s.success());
    if install() || (updated() && install()) { Ok(()) } else { Err(hint) }
}
