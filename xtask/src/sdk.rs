//! The browser tests in headless Chromium: the SDK's once against its mock server (every
//! behaviour, including faults), then the SDK's and the operator console's against the real
//! `clickwrap-server demo` on a database of its own (the real API, the real verify, the /demo page,
//! every console page with axe-core).

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

const SDK_DIR: &str = "crates/web-sdk";
const CONSOLE_DIR: &str = "crates/console";

/// Why the browser tests cannot run here, if they cannot.
pub(crate) fn missing_tools() -> Option<String> {
    let chromium = std::env::var("CHROMIUM_PATH").unwrap_or_else(|_| "/usr/bin/chromium".into());
    if !Path::new(&chromium).exists() {
        return Some(format!("no Chromium at {chromium} (set CHROMIUM_PATH, or install Debian's chromium)"));
    }
    let npm = Command::new("npm").arg("--version").stdout(Stdio::null()).stderr(Stdio::null()).status();
    if !npm.is_ok_and(|s| s.success()) {
        return Some("npm is not installed".into());
    }
    None
}

pub(crate) fn run(root: &Path) -> Result<(), String> {
    let sdk = root.join(SDK_DIR);
    let console = root.join(CONSOLE_DIR);
    for (dir, package) in [(&sdk, "playwright-core"), (&console, "axe-core")] {
        if !dir.join("node_modules").join(package).exists() {
            run_command(Command::new("npm").args(["ci", "--no-audit", "--no-fund"]).current_dir(dir), "npm ci")?;
        }
    }
    println!("    browser tests against the mock server");
    run_command(Command::new("npm").arg("test").current_dir(&sdk), "npm test (mock)")?;

    println!("    browser tests against the real server (clickwrap-server demo)");
    run_command(
        Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
            .args(["build", "--locked", "-p", "clickwrap-server"])
            .current_dir(root),
        "cargo build -p clickwrap-server",
    )?;
    let database = format!("clickwrap_sdk_ci_{}", std::process::id());
    let server_root = std::env::var("CLICKWRAP_TEST_DATABASE_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into());
    let database_url = match server_root.rsplit_once('/') {
        Some((server, _)) => format!("{server}/{database}"),
        None => return Err("CLICKWRAP_TEST_DATABASE_URL must be a postgres:// URL".into()),
    };
    let result = DemoServer::start(&root.join("target/debug/clickwrap-server"), &database_url).and_then(|server| {
        let with_server = |command: &mut Command| {
            command
                .arg("test")
                .env("CLICKWRAP_BASE_URL", &server.base_url)
                .env("CLICKWRAP_APP_ID", &server.app_id)
                .env("CLICKWRAP_APP_KEY", &server.app_key)
                .env("CLICKWRAP_TEMPLATE_ID", &server.template_id)
                .env("CLICKWRAP_OPERATOR_TOKEN", &server.operator_token)
                .env("CLICKWRAP_DEMO_URL", format!("{}/demo", server.base_url));
        };
        let mut sdk_tests = Command::new("npm");
        with_server(sdk_tests.current_dir(&sdk));
        let outcome = run_command(&mut sdk_tests, "npm test (real server)").and_then(|()| {
            println!("    operator console tests against the real server");
            let mut console_tests = Command::new("npm");
            with_server(console_tests.current_dir(&console));
            run_command(&mut console_tests, "npm test (operator console)")
        });
        drop(server);
        outcome
    });
    drop_database(&server_root, &database);
    result
}

fn run_command(command: &mut Command, what: &str) -> Result<(), String> {
    let status = command.status().map_err(|e| format!("could not start {what}: {e}"))?;
    if status.success() { Ok(()) } else { Err(format!("{what} failed ({status})")) }
}

/// `clickwrap-server demo` on a free port; killed on drop.
struct DemoServer {
    child: Child,
    base_url: String,
    app_id: String,
    app_key: String,
    template_id: String,
    operator_token: String,
}

impl DemoServer {
    fn start(binary: &PathBuf, database_url: &str) -> Result<Self, String> {
        let mut child = Command::new(binary)
            .arg("demo")
            .env("DATABASE_URL", database_url)
            // A fixed master key for a throwaway database (a real one is 32 random bytes).
            .env("CLICKWRAP_MASTER_KEY", "c2RrLXRlc3RzLW1hc3Rlci1rZXktMzItYnl0ZXMhISE=")
            .env("CLICKWRAP_LISTEN", "127.0.0.1:0")
            .env("CLICKWRAP_LOG_FORMAT", "json")
            .env("CLICKWRAP_LOG", "warn,clickwrap_server::app=info")
            // The console tests make a webhook that fails at once (nothing listens on port 9 of
            // loopback) and watch it go FAILED after one quick retry.
            .env("CLICKWRAP_WEBHOOK_ALLOW_CIDRS", "127.0.0.0/8")
            .env("CLICKWRAP_WEBHOOK_RETRY_DELAYS", "1")
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
