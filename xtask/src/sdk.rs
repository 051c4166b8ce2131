//! The browser tests in headless Chromium: the SDK's once against its mock server (every
//! behaviour, including faults), then the SDK's and the operator console's against the real
//! `clickwrap-server demo` on a database of its own (the real API, the real verify, the /demo page,
//! every console page with axe-core). And the React Native SDK's, in Node (jest with React Native's
//! test renderer), against a stand-in service and against the real server.

use std::path::Path;
use std::process::{Command, Stdio};

use crate::demo_server::with_demo_server;

const SDK_DIR: &str = "crates/web-sdk";
const CONSOLE_DIR: &str = "crates/console";
const REACT_NATIVE_DIR: &str = "sdks/react-native";

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
    // The console tests make a webhook that fails at once (nothing listens on port 9 of loopback)
    // and watch it go FAILED after one quick retry.
    let webhooks = [("CLICKWRAP_WEBHOOK_ALLOW_CIDRS", "127.0.0.0/8"), ("CLICKWRAP_WEBHOOK_RETRY_DELAYS", "1")];
    with_demo_server(root, &webhooks, |server| {
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
        run_command(&mut sdk_tests, "npm test (real server)")?;
        println!("    operator console tests against the real server");
        let mut console_tests = Command::new("npm");
        with_server(console_tests.current_dir(&console));
        run_command(&mut console_tests, "npm test (operator console)")
    })
}

/// Why the React Native SDK's tests cannot run here, if they cannot.
pub(crate) fn react_native_missing_tools() -> Option<String> {
    let npm = Command::new("npm").arg("--version").stdout(Stdio::null()).stderr(Stdio::null()).status();
    if npm.is_ok_and(|s| s.success()) { None } else { Some("npm is not installed".into()) }
}

/// `npm test` of the React Native SDK: types, the package as built, the example app's types, and
/// jest, whose last suite runs consent, verify and status against `clickwrap-server demo`.
pub(crate) fn run_react_native(root: &Path) -> Result<(), String> {
    let package = root.join(REACT_NATIVE_DIR);
    if !package.join("node_modules/react-native").exists() {
        run_command(Command::new("npm").args(["ci", "--no-audit", "--no-fund"]).current_dir(&package), "npm ci")?;
    }
    with_demo_server(root, &[], |server| {
        run_command(
            Command::new("npm")
                .arg("test")
                .env("CLICKWRAP_BASE_URL", &server.base_url)
                .env("CLICKWRAP_APP_ID", &server.app_id)
                .env("CLICKWRAP_APP_KEY", &server.app_key)
                .env("CLICKWRAP_TEMPLATE_ID", &server.template_id)
                .current_dir(&package),
            "npm test (sdks/react-native)",
        )
    })
}

fn run_command(command: &mut Command, what: &str) -> Result<(), String> {
    let status = command.status().map_err(|e| format!("could not start {what}: {e}"))?;
    if status.success() { Ok(()) } else { Err(format!("{what} failed ({status})")) }
}
