//! The browser tests in headless Chromium: the SDK's once against its mock server (every
//! behaviour, including faults), then the SDK's and the operator console's against the real
//! `clickwrap-server demo` on a database of its own (the real API, the real verify, the /demo page,
//! every console page with axe-core). And the React Native SDK's, in Node (jest with React Native's
//! test renderer), against a stand-in service and against the real server.

use std::path::Path;
use std::process::{Command, Stdio};

use crate::demo_server::with_demo_server;
use crate::{npm_ci_unless_installed, succeed};

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
    npm_ci_unless_installed(&sdk, "playwright-core")?;
    npm_ci_unless_installed(&console, "axe-core")?;
    println!("    browser tests against the mock server");
    succeed(Command::new("npm").arg("test").current_dir(&sdk), "npm test (mock)")?;

    println!("    browser tests against the real server (clickwrap-server demo)");
    // The console tests make a webhook that fails at once (nothing listens on port 9 of loopback)
    // and watch it go FAILED after one quick retry.
    let webhooks = [("CLICKWRAP_WEBHOOK_ALLOW_CIDRS", "127.0.0.0/8"), ("CLICKWRAP_WEBHOOK_RETRY_DELAYS", "1")];
    with_demo_server(root, &webhooks, |server| {
        let demo_url = format!("{}/demo", server.base_url);
        let npm_test = |dir: &Path| {
            let mut command = Command::new("npm");
            server.describe_to(command.arg("test").env("CLICKWRAP_DEMO_URL", &demo_url).current_dir(dir));
            command
        };
        succeed(&mut npm_test(&sdk), "npm test (real server)")?;
        println!("    operator console tests against the real server");
        succeed(&mut npm_test(&console), "npm test (operator console)")
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
    npm_ci_unless_installed(&package, "react-native")?;
    with_demo_server(root, &[], |server| {
        succeed(
            server.describe_to(Command::new("npm").arg("test").current_dir(&package)),
            "npm test (sdks/react-native)",
        )
    })
}
