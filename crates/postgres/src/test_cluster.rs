//! A throwaway PostgreSQL cluster for fault tests: made with `initdb` in a temporary folder, run with
//! `pg_ctl` on a free port of 127.0.0.1, and stopped, restarted or crashed at will without disturbing
//! any other server. Removed on drop.
//!
//! The binaries are looked up in `CLICKWRAP_PG_BIN_DIR`, then `pg_config --bindir`, then the newest
//! `/usr/lib/postgresql/<version>/bin`. PostgreSQL refuses to run as root, so as root the cluster is
//! made and run as the `postgres` account (with `runuser`).

#![allow(clippy::panic)] // test support: a cluster that cannot start must stop the test.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::database::DatabaseUrl;

/// How the server is stopped (`pg_ctl stop -m`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopMode {
    /// Sessions are ended with `terminating connection due to administrator command`.
    Fast,
    /// Every process is killed at once, as in a crash; the next start recovers from the WAL.
    Immediate,
}

impl StopMode {
    fn as_str(self) -> &'static str {
        match self {
            StopMode::Fast => "fast",
            StopMode::Immediate => "immediate",
        }
    }
}

/// A PostgreSQL server of its own; stopped and deleted on drop.
#[derive(Debug)]
pub struct ThrowawayCluster {
    bin_dir: PathBuf,
    /// Holds `data/` and `server.log`.
    folder: PathBuf,
    port: u16,
    /// The account that runs the server, when we are root.
    run_as: Option<String>,
}

impl ThrowawayCluster {
    /// Why a cluster cannot be made on this machine, if it cannot.
    pub fn unavailable_reason() -> Option<String> {
        match Self::bin_dir() {
            None => Some(
                "no PostgreSQL server binaries (initdb, pg_ctl) were found: set CLICKWRAP_PG_BIN_DIR, or \
                 install PostgreSQL (Debian: postgresql)"
                    .to_owned(),
            ),
            Some(_) if is_root() && !account_exists("postgres") => {
                Some("running as root and there is no `postgres` account to run PostgreSQL as".to_owned())
            }
            Some(_) if is_root() && !tool_runs("runuser") => {
                Some("running as root and `runuser` (util-linux) is missing".to_owned())
            }
            Some(_) => None,
        }
    }

    /// For a test: a started cluster, or `None` (the test then passes without checking, and says
    /// why on standard error) where none can be made. On CI (`CI` set) a missing cluster is a failure.
    #[allow(clippy::print_stderr)] // the skip must be seen
    pub fn start_or_skip() -> Option<Self> {
        if let Some(reason) = Self::unavailable_reason() {
            assert!(std::env::var_os("CI").is_none(), "CI must run the fault tests: {reason}");
            eprintln!("*** SKIPPED: no throwaway PostgreSQL cluster can be made: {reason} ***");
            return None;
        }
        Some(Self::start().unwrap_or_else(|e| panic!("cannot start a throwaway PostgreSQL cluster: {e}")))
    }

    /// Makes a cluster (trust authentication for `postgres`) and starts it.
    pub fn start() -> Result<Self, String> {
        if let Some(reason) = Self::unavailable_reason() {
            return Err(reason);
        }
        let bin_dir = Self::bin_dir().ok_or("no PostgreSQL binaries")?;
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
        let folder = std::env::temp_dir().join(format!("clickwrap-pg-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&folder).map_err(|e| format!("cannot create {}: {e}", folder.display()))?;
        let run_as = is_root().then(|| "postgres".to_owned());
        let cluster = Self { bin_dir, folder, port: free_port()?, run_as };
        if let Some(account) = &cluster.run_as {
            run(Command::new("chown").args([&format!("{account}:"), &cluster.folder.display().to_string()]))?;
        }
        let data = cluster.data().display().to_string();
        cluster.pg(
            "initdb",
            &["-D", &data, "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync"],
        )?;
        let settings = format!(
            "\nport = {}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = ''\nmax_connections = 100\n",
            cluster.port
        );
        append(&cluster.data().join("postgresql.conf"), &settings)?;
        cluster.start_again()?;
        Ok(cluster)
    }

    /// The server's `postgres` database (make others with `create_database_if_missing`).
    pub fn url(&self) -> DatabaseUrl {
        DatabaseUrl::parse(&format!("postgres://postgres@127.0.0.1:{}/postgres", self.port))
            .unwrap_or_else(|_| unreachable!("the URL is well formed"))
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// Stops the server and waits until it is down.
    pub fn stop(&self, mode: StopMode) -> Result<(), String> {
        let data = self.data().display().to_string();
        self.pg("pg_ctl", &["-D", &data, "-m", mode.as_str(), "-w", "-t", "60", "stop"]).map(|_| ())
    }

    /// Starts the (stopped) server and waits until it accepts connections.
    pub fn start_again(&self) -> Result<(), String> {
        let data = self.data().display().to_string();
        let log = self.folder.join("server.log").display().to_string();
        self.pg("pg_ctl", &["-D", &data, "-l", &log, "-w", "-t", "60", "start"]).map(|_| ())
    }

    /// Stops the server with `mode` and starts it again.
    pub fn restart(&self, mode: StopMode) -> Result<(), String> {
        self.stop(mode)?;
        self.start_again()
    }

    /// The last lines of the server's log (for failure messages).
    pub fn log_tail(&self) -> String {
        let text = std::fs::read_to_string(self.folder.join("server.log")).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        lines.get(lines.len().saturating_sub(20)..).unwrap_or_default().join("\n")
    }

    fn data(&self) -> PathBuf {
        self.folder.join("data")
    }

    /// Runs one of the PostgreSQL binaries (as the server's account when we are root).
    fn pg(&self, program: &str, args: &[&str]) -> Result<Output, String> {
        let binary = self.bin_dir.join(program);
        let mut command = match &self.run_as {
            Some(account) => {
                let mut command = Command::new("runuser");
                command.args(["-u", account, "--"]).arg(&binary);
                command
            }
            None => Command::new(&binary),
        };
        // The cluster's own folder: the user's may not be readable by the server's account.
        command.args(args).current_dir(&self.folder);
        run(&mut command)
    }

    fn bin_dir() -> Option<PathBuf> {
        let has_tools = |dir: &Path| dir.join("initdb").is_file() && dir.join("pg_ctl").is_file();
        if let Some(dir) = std::env::var_os("CLICKWRAP_PG_BIN_DIR") {
            return Some(PathBuf::from(dir)).filter(|d| has_tools(d));
        }
        let from_pg_config = Command::new("pg_config")
            .arg("--bindir")
            .stderr(Stdio::null())
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()));
        if let Some(dir) = from_pg_config.filter(|d| has_tools(d)) {
            return Some(dir);
        }
        let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
            .ok()?
            .filter_map(Result::ok)
            .filter_map(|entry| Some((entry.file_name().to_str()?.parse().ok()?, entry.path().join("bin"))))
            .filter(|(_, dir)| has_tools(dir))
            .collect();
        versions.sort();
        versions.pop().map(|(_, dir)| dir)
    }
}

impl Drop for ThrowawayCluster {
    fn drop(&mut self) {
        let _ = self.stop(StopMode::Immediate);
        let _ = std::fs::remove_dir_all(&self.folder);
    }
}

fn run(command: &mut Command) -> Result<Output, String> {
    let output =
        command.stdin(Stdio::null()).output().map_err(|e| format!("cannot run {:?}: {e}", command.get_program()))?;
    if output.status.success() {
        Ok(output)
    } else {
        Err(format!(
            "{:?} {:?} failed ({}): {}{}",
            command.get_program(),
            command.get_args().collect::<Vec<_>>(),
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ))
    }
}

fn append(file: &Path, text: &str) -> Result<(), String> {
    use std::io::Write;
    std::fs::OpenOptions::new()
        .append(true)
        .open(file)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .map_err(|e| format!("cannot write {}: {e}", file.display()))
}

/// A port nothing listens on now (asked of the kernel, then released for the server to take).
fn free_port() -> Result<u16, String> {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|address| address.port())
        .map_err(|e| format!("no free port: {e}"))
}

fn is_root() -> bool {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
}

fn account_exists(name: &str) -> bool {
    Command::new("id")
        .args(["-u", name])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn tool_runs(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}
