//! `cargo xtask openapi`: `docs/openapi.json` through tools nobody on the project wrote, as a new
//! user would take it: Redocly's recommended rules (no error; its warnings are explained in the
//! document's own description), Spectral's `spectral:oas` (no error, no warning), and
//! openapi-python-client, which must generate every operation without a warning. The npm tools are
//! pinned in `xtask/openapi-lint/package-lock.json`, the generator here; `.ci/run` installs both.

use std::path::Path;
use std::process::{Command, Stdio};

use crate::{npm_ci_unless_installed, succeed};

const TOOLS_DIR: &str = "xtask/openapi-lint";
const DOCUMENT: &str = "docs/openapi.json";

/// The openapi-python-client `.ci/run` installs; another version may parse the document otherwise.
pub(crate) const PYTHON_CLIENT_VERSION: &str = "0.29.1";

/// Why the linters cannot run here, if they cannot.
pub(crate) fn missing_tools() -> Option<String> {
    let npm = Command::new("npm").arg("--version").stdout(Stdio::null()).stderr(Stdio::null()).status();
    if !npm.is_ok_and(|status| status.success()) {
        return Some("npm is not installed".into());
    }
    let generator = Command::new("openapi-python-client").arg("--version").stderr(Stdio::null()).output();
    match generator {
        Ok(output) if String::from_utf8_lossy(&output.stdout).contains(PYTHON_CLIENT_VERSION) => None,
        Ok(output) => Some(format!(
            "openapi-python-client is {}, not {PYTHON_CLIENT_VERSION} (`pip install openapi-python-client=={PYTHON_CLIENT_VERSION}`)",
            String::from_utf8_lossy(&output.stdout).trim()
        )),
        Err(_) => Some(format!(
            "openapi-python-client is not installed (`pip install openapi-python-client=={PYTHON_CLIENT_VERSION}`)"
        )),
    }
}

pub(crate) fn run(root: &Path) -> Result<(), String> {
    let tools = root.join(TOOLS_DIR);
    let document = root.join(DOCUMENT);
    npm_ci_unless_installed(&tools, ".bin/redocly")?;
    npm_ci_unless_installed(&tools, ".bin/spectral")?;

    println!("    Redocly, recommended rules");
    succeed(
        Command::new(tools.join("node_modules/.bin/redocly"))
            .args(["lint", "--config", "redocly.yaml", "--format", "summary"])
            .arg(&document)
            .current_dir(&tools),
        "redocly lint",
    )?;

    println!("    Spectral, spectral:oas");
    succeed(
        Command::new(tools.join("node_modules/.bin/spectral"))
            .args(["lint", "--ruleset", "spectral.yaml", "--fail-severity", "warn"])
            .arg(&document)
            .current_dir(&tools),
        "spectral lint",
    )?;

    println!("    openapi-python-client {PYTHON_CLIENT_VERSION}: every operation, no warning");
    let output_dir = root.join("target/openapi-lint/python-client");
    let _ = std::fs::remove_dir_all(&output_dir);
    if let Some(parent) = output_dir.parent() {
        std::fs::create_dir_all(parent).map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    }
    let output = Command::new("openapi-python-client")
        .args(["generate", "--meta", "none", "--path"])
        .arg(&document)
        .arg("--output-path")
        .arg(&output_dir)
        .output()
        .map_err(|e| format!("could not start openapi-python-client: {e}"))?;
    let printed = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    if !output.status.success() || printed.to_ascii_lowercase().contains("warning") {
        return Err(format!("openapi-python-client did not take the document unaided:\n{printed}"));
    }
    Ok(())
}
