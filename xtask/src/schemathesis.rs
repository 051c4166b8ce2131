//! schemathesis against the real `clickwrap-server demo`: every API operation of
//! `/openapi.json` gets generated cases (examples, coverage, fuzzing) and the stateful phase
//! follows the document's links (create an app and a template, publish, enable, show, record,
//! verify, read the evidence). Every check runs; the settings and the few operations a check
//! cannot apply to, each with its reason, are in `xtask/schemathesis.toml`.

use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::demo_server::with_demo_server;

/// The API's route families: what a client of the service calls. The console's pages, the demo
/// page and the SDK scripts answer a browser with HTML and scripts, and have their own browser tests.
const API_TAGS: &str = "^(Public client|Server-side|Operator|Service)$";

/// The version `.ci/run` installs; another one may generate other cases and check differently.
pub(crate) const VERSION: &str = "4.32.5";

/// Why schemathesis cannot run here, if it cannot.
pub(crate) fn missing_tool() -> Option<String> {
    let output = Command::new("schemathesis").arg("--version").stderr(Stdio::null()).output();
    match output {
        Ok(output) if output.status.success() => {
            let version = String::from_utf8_lossy(&output.stdout);
            if version.contains(VERSION) {
                None
            } else {
                Some(format!(
                    "schemathesis is {}, not {VERSION} (`pip install schemathesis=={VERSION}`)",
                    version.trim()
                ))
            }
        }
        _ => Some(format!("schemathesis is not installed (`pip install schemathesis=={VERSION}`)")),
    }
}

pub(crate) fn run(root: &Path) -> Result<(), String> {
    let report_dir = root.join("target/schemathesis");
    std::fs::create_dir_all(&report_dir).map_err(|e| format!("could not create {}: {e}", report_dir.display()))?;
    let report = report_dir.join("report.json");
    let _ = std::fs::remove_file(&report);
    // The run makes thousands of public requests from one address; the rate limit is not under test.
    let settings = [("CLICKWRAP_RATE_LIMIT_PER_HOUR", "1000000")];
    let status = with_demo_server(root, &settings, |server| {
        Command::new("schemathesis")
            // The configuration names its hooks and cache relative to the repository's root.
            .current_dir(root)
            .arg("--config-file")
            .arg(root.join("xtask/schemathesis.toml"))
            .arg("run")
            .arg(format!("{}/openapi.json", server.base_url))
            .args(["--include-tag-regex", API_TAGS, "--report", "json", "--no-color"])
            .arg("--report-json-path")
            .arg(&report)
            .env("CLICKWRAP_APP_ID", &server.app_id)
            .env("CLICKWRAP_APP_KEY", &server.app_key)
            .env("CLICKWRAP_OPERATOR_TOKEN", &server.operator_token)
            .status()
            .map_err(|e| format!("could not start schemathesis: {e}"))
    })?;
    let summary = summary(&report)?;
    println!(
        "    schemathesis: {} cases generated, {} failures, {} errors",
        summary.generated, summary.failures, summary.errors
    );
    if status.success() && summary.failures == 0 && summary.errors == 0 {
        Ok(())
    } else {
        Err(format!(
            "schemathesis found {} failures and {} errors ({status}); the report is {}",
            summary.failures,
            summary.errors,
            report.display()
        ))
    }
}

struct Summary {
    generated: u64,
    failures: u64,
    errors: u64,
}

/// The counts of schemathesis's JSON report.
fn summary(report: &Path) -> Result<Summary, String> {
    let text = std::fs::read_to_string(report)
        .map_err(|e| format!("schemathesis wrote no report {}: {e}", report.display()))?;
    let report: Value = serde_json::from_str(&text).map_err(|e| format!("the schemathesis report is not JSON: {e}"))?;
    let count = |pointer: &str| report.pointer(pointer).and_then(Value::as_u64).unwrap_or(0);
    let sum = |pointer: &str| {
        report.pointer(pointer).and_then(Value::as_array).map_or(0, |groups| {
            groups.iter().map(|group| group.get("count").and_then(Value::as_u64).unwrap_or(1)).sum()
        })
    };
    Ok(Summary { generated: count("/test_cases/generated"), failures: sum("/failures"), errors: sum("/errors") })
}
