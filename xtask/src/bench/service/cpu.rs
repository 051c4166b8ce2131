//! Where the machine's CPU goes during a run: the server, PostgreSQL (every `postgres` process) and
//! everything else (the load generator, the kernel's own work for them, other jobs), read from
//! `/proc` before and after. With `--profile`, `perf record` adds the functions that cost most.
//!
//! `/proc` counts CPU time in USER_HZ ticks, which Linux fixes at 100 per second for user space.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

const TICKS_PER_SECOND: f64 = 100.0;

/// CPU time used so far, in ticks.
#[derive(Debug, Clone, Copy)]
pub(super) struct CpuSample {
    /// All cores: time not idle (and not waiting for IO).
    busy: u64,
    /// All cores: all time.
    total: u64,
    server: u64,
    postgres: u64,
}

impl CpuSample {
    pub(super) fn now(server_pid: u32) -> Self {
        let (busy, total) = machine_ticks();
        Self { busy, total, server: process_ticks(server_pid), postgres: postgres_ticks() }
    }
}

/// CPU per operation (request or flow) of one run, in milliseconds.
#[derive(Debug, Clone, Copy)]
pub(super) struct CpuAccount {
    pub(super) server_ms: f64,
    pub(super) postgres_ms: f64,
    /// The load generator, the kernel for all of them, and anything else on the machine.
    pub(super) other_ms: f64,
    /// Share of the machine's cores left idle during the run.
    pub(super) idle_share: f64,
}

impl CpuAccount {
    pub(super) fn between(before: &CpuSample, after: &CpuSample, operations: u64) -> Self {
        let per_op = |ticks: u64| {
            if operations == 0 { 0.0 } else { ticks as f64 / TICKS_PER_SECOND * 1000.0 / operations as f64 }
        };
        let busy = after.busy.saturating_sub(before.busy);
        let total = after.total.saturating_sub(before.total);
        let server = after.server.saturating_sub(before.server);
        let postgres = after.postgres.saturating_sub(before.postgres);
        Self {
            server_ms: per_op(server),
            postgres_ms: per_op(postgres),
            other_ms: per_op(busy.saturating_sub(server + postgres)),
            idle_share: if total == 0 { 0.0 } else { 1.0 - busy as f64 / total as f64 },
        }
    }

    pub(super) fn describe(&self) -> String {
        format!(
            "CPU per operation: server {:.3} ms, PostgreSQL {:.3} ms, other {:.3} ms; {:.0} % idle",
            self.server_ms,
            self.postgres_ms,
            self.other_ms,
            self.idle_share * 100.0
        )
    }

    pub(super) fn to_json(self) -> Value {
        json!({
            "server_ms_per_operation": self.server_ms,
            "postgres_ms_per_operation": self.postgres_ms,
            "other_ms_per_operation": self.other_ms,
            "idle_share": self.idle_share,
        })
    }
}

/// `cpu` line of /proc/stat: user nice system idle iowait irq softirq steal …
fn machine_ticks() -> (u64, u64) {
    let text = std::fs::read_to_string("/proc/stat").unwrap_or_default();
    let fields: Vec<u64> = text
        .lines()
        .find(|l| l.starts_with("cpu "))
        .map(|l| l.split_whitespace().skip(1).filter_map(|n| n.parse().ok()).collect())
        .unwrap_or_default();
    let total: u64 = fields.iter().take(8).sum();
    let idle = fields.get(3).copied().unwrap_or(0) + fields.get(4).copied().unwrap_or(0);
    (total.saturating_sub(idle), total)
}

/// utime + stime of a process (all its threads), fields 14 and 15 of /proc/PID/stat.
fn process_ticks(pid: u32) -> u64 {
    stat_ticks(&Path::new("/proc").join(pid.to_string()).join("stat")).map_or(0, |(_, ticks)| ticks)
}

fn postgres_ticks() -> u64 {
    let Ok(entries) = std::fs::read_dir("/proc") else { return 0 };
    entries
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().bytes().all(|b| b.is_ascii_digit()))
        .filter_map(|e| stat_ticks(&e.path().join("stat")))
        .filter(|(name, _)| name == "postgres")
        .map(|(_, ticks)| ticks)
        .sum()
}

/// The command name and utime + stime of one /proc/PID/stat.
fn stat_ticks(path: &Path) -> Option<(String, u64)> {
    let text = std::fs::read_to_string(path).ok()?;
    // The name is in parentheses and may hold spaces; the fields after it are plain.
    let open = text.find('(')?;
    let close = text.rfind(')')?;
    let name = text.get(open + 1..close)?.to_owned();
    let rest: Vec<&str> = text.get(close + 1..)?.split_whitespace().collect();
    // After the name: state is field 3, so utime (14) and stime (15) are at 11 and 12.
    let utime: u64 = rest.get(11)?.parse().ok()?;
    let stime: u64 = rest.get(12)?.parse().ok()?;
    Some((name, utime + stime))
}

/// `perf record` of the whole machine while `load` runs, summarised into `out/profile-NAME.txt`:
/// the share of each program, then the server's and PostgreSQL's costliest functions.
pub(super) async fn profile<F, T>(
    out: &Path,
    name: &str,
    server_pid: u32,
    seconds: Duration,
    load: F,
) -> Result<T, String>
where
    F: std::future::Future<Output = T>,
{
    let data = out.join(format!("perf-{name}.data"));
    let mut recorder = Command::new("perf")
        .args(["record", "-a", "-F", "499", "-o"])
        .arg(&data)
        .args(["--", "sleep", &seconds.as_secs().max(1).to_string()])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot run perf (Debian: apt-get install linux-perf): {e}"))?;
    let result = load.await;
    let status = recorder.wait().map_err(|e| format!("perf record failed: {e}"))?;
    if !status.success() {
        return Err(format!("perf record failed ({status}); is kernel.perf_event_paranoid at most 1, or are we root?"));
    }
    // Only the table rows: perf's comment lines and the symbol column's padding say nothing.
    let report = |args: &[&str]| -> String {
        let output = Command::new("perf")
            .args(["report", "--stdio", "--no-children", "-i"])
            .arg(&data)
            .args(args)
            .stderr(Stdio::null())
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
            .unwrap_or_default();
        output
            .lines()
            .map(str::trim_end)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let pid = server_pid.to_string();
    let text = format!(
        "# {name}: share of the whole machine's CPU, by program\n{}\n\n\
         # the server's costliest functions, as shares of the server's CPU\n{}\n\n\
         # PostgreSQL's costliest functions, as shares of PostgreSQL's CPU\n{}\n",
        report(&["--sort", "comm", "--percent-limit", "1"]),
        report(&["--pid", &pid, "--percentage", "relative", "--sort", "dso,sym", "--percent-limit", "1.5"]),
        report(&["--comms", "postgres", "--percentage", "relative", "--sort", "dso,sym", "--percent-limit", "1.5"]),
    );
    let summary = out.join(format!("profile-{name}.txt"));
    std::fs::write(&summary, text).map_err(|e| format!("cannot write {}: {e}", summary.display()))?;
    let _ = std::fs::remove_file(&data);
    println!("    profile of the {name} run written to {}", summary.display());
    Ok(result)
}
