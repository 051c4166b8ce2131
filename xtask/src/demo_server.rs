//! The real `clickwrap-server demo` on a throwaway database, for the steps that test against the
//! whole binary (the browser tests, schemathesis).

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// Builds the server, starts `clickwrap-server demo` on a database of its own with `extra_env`,
/// hands it to `with_server`, then stops it and drops the database.
pub(crate) fn with_demo_server<T>(
    root: &Path,
    extra_env: &[(&str, &str)],
    with_server: impl FnOnce(&DemoServer) -> Result<T, String>,
) -> Result<T, String> {
    let built = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
        .args(["build", "--locked", "-p", "clickwrap-server"])
        .current_dir(root)
        .status()
        .map_err(|e| format!("could not start cargo build -p clickwrap-server: {e}"))?;
    if !built.success() {
        return Err(format!("cargo build -p clickwrap-server failed ({built})"));
    }
    let database = format!("clickwrap_xtask_{}", std::process::id());
    let server_root = std::env::var("CLICKWRAP_TEST_DATABASE_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into());
    let database_url = match server_root.rsplit_once('/') {
        Some((server, _)) => format!("{server}/{database}"),
        None => return Err("CLICKWRAP_TEST_DATABASE_URL must be a postgres:// URL".into()),
    };
    let result = DemoServer::start(&root.join("target/debug/clickwrap-server"), &database_url, extra_env)
        .and_then(|server| with_server(&server));
    drop_database(&server_root, &database);
    result
}

/// `clickwrap-server demo` on a free port, with what it printed; killed on drop.
pub(crate) struct DemoServer {
    child: Child,
    pub(crate) base_url: String,
    pub(crate) app_id: String,
    pub(crate) app_key: String,
    pub(crate) template_id: String,
    pub(crate) operator_token: String,
}

impl DemoServer {
    /// Tells a test command where the server is and what the demo made, in the variables every
    /// suite that runs against it reads.
    pub(crate) fn describe_to<'c>(&self, command: &'c mut Command) -> &'c mut Command {
        command
            .env("CLICKWRAP_BASE_URL", &self.base_url)
            .env("CLICKWRAP_APP_ID", &self.app_id)
            .env("CLICKWRAP_APP_KEY", &self.app_key)
            .env("CLICKWRAP_TEMPLATE_ID", &self.template_id)
            .env("CLICKWRAP_OPERATOR_TOKEN", &self.operator_token)
    }

    fn start(binary: &PathBuf, database_url: &str, extra_env: &[(&str, &str)]) -> Result<Self, String> {
        let mut child = Command::new(binary)
            .arg("demo")
            .env("DATABASE_URL", database_url)
            // A fixed master key for a throwaway database (a real one is 32 random bytes).
            .env("CLICKWRAP_MASTER_KEY", "c2RrLXRlc3RzLW1hc3Rlci1rZXktMzItYnl0ZXMhISE=")
            .env("CLICKWRAP_LISTEN", "127.0.0.1:0")
            .env("CLICKWRAP_LOG_FORMAT", "json")
            .env("CLICKWRAP_LOG", "warn,clickwrap_server::app=info")
            .envs(extra_env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("could not start {}: {e}", binary.display()))?;
        let (sender, lines) = mpsc::channel::<(bool, String)>();
        for (is_log, stream) in [
            (false, child.stdout.take().map(|s| Box::new(s) as Box<dyn std::io::Read + Send>)),
            (true, child.stderr.take().map(|s| Box::new(s) as Box<dyn std::io::Read + Send>)),
        ] {
            let Some(stream) = stream else { continue };
            let sender = sender.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(stream).lines().map_while(Result::ok) {
                    if sender.send((is_log, line)).is_err() {
                        break;
                    }
                }
            });
        }
        let mut server = DemoServer {
            child,
            base_url: String::new(),
            app_id: String::new(),
            app_key: String::new(),
            template_id: String::new(),
            operator_token: String::new(),
        };
        while server.base_url.is_empty()
            || server.app_key.is_empty()
            || server.template_id.is_empty()
            || server.operator_token.is_empty()
        {
            let (is_log, line) = lines
                .recv_timeout(Duration::from_secs(120))
                .map_err(|_| "clickwrap-server demo did not start within two minutes".to_owned())?;
            if is_log {
                if let Some(address) = line.split("\"address\":\"").nth(1).and_then(|rest| rest.split('"').next()) {
                    server.base_url = format!("http://{address}");
                }
                continue;
            }
            let value = || line.split(':').skip(1).collect::<Vec<_>>().join(":").trim().to_owned();
            if line.trim_start().starts_with("App ID:") {
                server.app_id = value();
            } else if line.trim_start().starts_with("App Key:") {
                server.app_key = value();
            } else if line.trim_start().starts_with("Template ID:") {
                server.template_id = value();
            } else if line.trim_start().starts_with("Operator token:") {
                server.operator_token = value();
            }
        }
        Ok(server)
    }
}

impl Drop for DemoServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn drop_database(server_root: &str, database: &str) {
    let dropped = Command::new("psql")
        .args([server_root, "-q", "-c", &format!("DROP DATABASE IF EXISTS {database} WITH (FORCE)")])
        .stdout(Stdio::null())
        .status();
    if !dropped.is_ok_and(|s| s.success()) {
        eprintln!("warning: could not drop the database {database}");
    }
}
