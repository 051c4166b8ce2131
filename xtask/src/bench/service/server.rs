//! The server as an operator runs it: built with cargo, started as a process of its own
//! with its settings in the environment, stopped with SIGTERM (or killed). A sampler thread reads its resident
//! memory from /proc ten times a second.

use std::ffi::OsString;
use std::fs::File;
use std::net::{SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use clickwrap_postgres::database::DatabaseUrl;
use hyper::Method;

use super::client::Connection;

/// Builds `clickwrap-server` (in release mode when `release`) and returns the binary's path.
pub(crate) fn build(root: &Path, release: bool) -> Result<PathBuf, String> {
    let profile = if release { "release" } else { "debug" };
    println!(
        "    building the {profile} server (cargo build{} -p clickwrap-server)",
        if release { " --release" } else { "" }
    );
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| OsString::from("cargo"));
    let mut command = Command::new(cargo);
    command.args(["build", "--locked", "-p", "clickwrap-server"]).current_dir(root);
    if release {
        command.arg("--release");
    }
    let status = command.status().map_err(|e| format!("cannot run cargo: {e}"))?;
    if !status.success() {
        return Err(format!("building the {profile} server failed ({status})"));
    }
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from);
    Ok(target.join(profile).join("clickwrap-server"))
}

/// A fixed master key for the throwaway databases of the benchmarks and of the fault run (a real one
/// is 32 random bytes).
const BENCH_MASTER_KEY: &str = "YmVuY2gtbWFzdGVyLWtleS1mb3Itc2NyYXRjaC1kYiE=";

/// Makes `database` afresh, migrates it and creates a tenant named `tenant`, with the binary's own
/// commands as an operator would: the tenant's operator token.
pub(crate) async fn fresh_tenant(binary: &Path, database: &DatabaseUrl, tenant: &str) -> Result<String, String> {
    super::super::recreate_database(database, false).await?;
    let env = vec![("DATABASE_URL", database.expose()), ("CLICKWRAP_MASTER_KEY", BENCH_MASTER_KEY.to_owned())];
    run_once(binary, &["migrate"], &env)?;
    let created: serde_json::Value =
        serde_json::from_str(&run_once(binary, &["tenant", "create", "--name", tenant], &env)?)
            .map_err(|e| format!("tenant create printed no JSON: {e}"))?;
    created
        .get("operatorToken")
        .and_then(|v| v.as_str())
        .map(str::to_owned)
        .ok_or_else(|| "tenant create printed no operatorToken".to_owned())
}

/// The settings of a benchmarked (or fault-tested) server on `database_url`: the local client
/// addresses trusted as proxies, rate limits out of the way (the operator's backend verifies every
/// consent from one address: far beyond 1,000 an hour), webhooks allowed to the local receiver whose
/// CA is `ca_file`.
pub(crate) fn bench_env(database_url: String, ca_file: &Path) -> Vec<(&'static str, String)> {
    vec![
        ("DATABASE_URL", database_url),
        ("CLICKWRAP_MASTER_KEY", BENCH_MASTER_KEY.to_owned()),
        ("CLICKWRAP_TRUSTED_PROXIES", "127.0.0.1/32".to_owned()),
        ("CLICKWRAP_RATE_LIMIT_PER_HOUR", "1000000000".to_owned()),
        ("CLICKWRAP_WEBHOOK_ALLOW_CIDRS", "127.0.0.0/8".to_owned()),
        ("CLICKWRAP_WEBHOOK_CA_FILE", ca_file.display().to_string()),
        ("CLICKWRAP_LOG", "warn".to_owned()),
    ]
}

/// Runs the binary once with `args` and `env` and returns its standard output.
pub(crate) fn run_once(binary: &Path, args: &[&str], env: &[(&str, String)]) -> Result<String, String> {
    let output = Command::new(binary)
        .args(args)
        .envs(env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run {}: {e}", binary.display()))?;
    if output.status.success() {
        Ok(String::from_utf8_lossy(&output.stdout).into_owned())
    } else {
        Err(format!(
            "clickwrap-server {} failed ({}): {}",
            args.join(" "),
            output.status,
            String::from_utf8_lossy(&output.stderr)
        ))
    }
}

/// A free port on 127.0.0.1 (asked of the kernel, then released for the server to take).
pub(crate) fn free_address() -> Result<SocketAddr, String> {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map_err(|e| format!("no free port: {e}"))
}

/// A running server.
#[derive(Debug)]
pub(crate) struct Server {
    child: Child,
    pub(crate) address: SocketAddr,
    log: PathBuf,
    memory: Arc<Mutex<Vec<(Instant, u64)>>>,
    sampling: Arc<AtomicBool>,
}

impl Server {
    /// Starts `serve` on `address` and waits until /readyz answers 200. Its log goes to `log`.
    pub(crate) async fn start(
        binary: &Path,
        address: SocketAddr,
        env: &[(&str, String)],
        log: &Path,
    ) -> Result<Self, String> {
        let log_file = File::create(log).map_err(|e| format!("cannot create {}: {e}", log.display()))?;
        let child = Command::new(binary)
            .arg("serve")
            .envs(env.iter().map(|(k, v)| (k, v)))
            .env("CLICKWRAP_LISTEN", address.to_string())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log_file)
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", binary.display()))?;
        let memory = Arc::new(Mutex::new(Vec::new()));
        let sampling = Arc::new(AtomicBool::new(true));
        let mut server = Self { child, address, log: log.to_owned(), memory, sampling };
        server.wait_ready().await?;
        server.sample_memory();
        Ok(server)
    }

    async fn wait_ready(&mut self) -> Result<(), String> {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Err(format!("the server stopped at start-up ({status}); its log:\n{}", self.log_tail()));
            }
            if let Ok(mut connection) = Connection::open(self.address).await
                && let Ok(answer) = connection.send(Method::GET, "/readyz", &[], None).await
                && answer.status.is_success()
            {
                return Ok(());
            }
            if Instant::now() > deadline {
                return Err(format!("the server was not ready within 60 s; its log:\n{}", self.log_tail()));
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    fn sample_memory(&self) {
        let status = PathBuf::from(format!("/proc/{}/status", self.child.id()));
        let memory = self.memory.clone();
        let sampling = self.sampling.clone();
        std::thread::spawn(move || {
            while sampling.load(Ordering::Relaxed) {
                if let Some(kib) = resident_kib(&status) {
                    memory.lock().unwrap_or_else(PoisonError::into_inner).push((Instant::now(), kib));
                }
                std::thread::sleep(Duration::from_millis(100));
            }
        });
    }

    /// The server's process id (for CPU accounting and profiles).
    pub(crate) fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The resident memory now, in MiB.
    pub(crate) fn resident_mib(&self) -> f64 {
        resident_kib(Path::new(&format!("/proc/{}/status", self.child.id()))).map_or(0.0, |kib| kib as f64 / 1024.0)
    }

    /// The highest resident memory sampled since `since`, in MiB.
    pub(crate) fn peak_mib_since(&self, since: Instant) -> f64 {
        let samples = self.memory.lock().unwrap_or_else(PoisonError::into_inner);
        samples.iter().filter(|(at, _)| *at >= since).map(|(_, kib)| *kib).max().map_or(0.0, |kib| kib as f64 / 1024.0)
    }

    /// The last lines of the server's log.
    pub(crate) fn log_tail(&self) -> String {
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        lines.iter().skip(lines.len().saturating_sub(20)).copied().collect::<Vec<_>>().join("\n")
    }

    /// Kills the server with SIGKILL, as a crash or the OOM killer would: no shutdown at all.
    pub(crate) fn kill(mut self) {
        self.sampling.store(false, Ordering::Relaxed);
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Stops the server with SIGTERM (as an orchestrator would), waiting up to 30 s before killing it.
    pub(crate) fn stop(mut self) -> Result<(), String> {
        self.sampling.store(false, Ordering::Relaxed);
        let _ = Command::new("kill").args(["-TERM", &self.child.id().to_string()]).status();
        let deadline = Instant::now() + Duration::from_secs(30);
        while Instant::now() < deadline {
            match self.child.try_wait() {
                Ok(Some(status)) if status.success() => return Ok(()),
                Ok(Some(status)) => return Err(format!("the server stopped with {status}:\n{}", self.log_tail())),
                _ => std::thread::sleep(Duration::from_millis(100)),
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        Err("the server did not stop within 30 s of SIGTERM and was killed".to_owned())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        // Stopped already (stop took the child's status) or on an error path: never leave it running.
        self.sampling.store(false, Ordering::Relaxed);
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn resident_kib(status: &Path) -> Option<u64> {
    let text = std::fs::read_to_string(status).ok()?;
    text.lines().find_map(|l| l.strip_prefix("VmRSS:")?.trim().trim_end_matches(" kB").trim().parse().ok())
}
