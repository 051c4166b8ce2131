//! `cargo xtask ci`: the checks CI runs, in order, stopping at the first failure.
//!
//! To add a step, add it to [`plan`]; every step is announced, timed and summed up the same way.

use std::ffi::OsString;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// One step of the run.
struct Step {
    name: &'static str,
    action: Action,
}

enum Action {
    /// Run `cargo` with these arguments; the step fails when it exits non-zero.
    Cargo(&'static [&'static str]),
    /// Run a step written in Rust.
    Task(fn(&Path) -> Result<(), String>),
    /// Do not run; say why.
    Skip(String),
}

/// The steps, decided up front so the header can say `[n/total]`.
fn plan(cargo: &OsString, root: &Path) -> Vec<Step> {
    let test = if cargo_subcommand_works(cargo, root, "nextest") {
        &["nextest", "run", "--workspace", "--locked"][..]
    } else {
        &["test", "--workspace", "--locked"][..]
    };
    let deny = if cargo_subcommand_works(cargo, root, "deny") {
        Action::Cargo(&["deny", "check", "bans", "licenses", "sources"])
    } else {
        Action::Skip(
            "cargo-deny is not installed (`cargo install --locked cargo-deny`); \
             bans, licenses and sources were NOT checked"
                .to_owned(),
        )
    };

    // On CI the browser tests must run (`.ci/run` installs what they need); elsewhere they may be skipped.
    let browser = match crate::sdk::missing_tools() {
        None => Action::Task(crate::sdk::run),
        Some(_) if std::env::var_os("CI").is_some() => Action::Task(|_| {
            Err(crate::sdk::missing_tools().unwrap_or_default() + " (CI must run the browser SDK tests)")
        }),
        Some(why) => Action::Skip(format!("{why}; the browser SDK tests were NOT run")),
    };

    // Likewise schemathesis (`.ci/run` installs the pinned version).
    let schemathesis = match crate::schemathesis::missing_tool() {
        None => Action::Task(crate::schemathesis::run),
        Some(_) if std::env::var_os("CI").is_some() => Action::Task(|_| {
            Err(crate::schemathesis::missing_tool().unwrap_or_default() + " (CI must run schemathesis)")
        }),
        Some(why) => Action::Skip(format!("{why}; the API was NOT checked against its OpenAPI document")),
    };

    // The fault run needs a PostgreSQL cluster of its own; on CI it must run, elsewhere it may be skipped.
    let chaos = match crate::chaos::unavailable_reason() {
        None => Action::Task(crate::chaos::run),
        Some(_) if std::env::var_os("CI").is_some() => Action::Task(|_| {
            Err(crate::chaos::unavailable_reason().unwrap_or_default() + " (CI must run the fault tests)")
        }),
        Some(why) => Action::Skip(format!("{why}; the fault run was NOT done")),
    };

    // The suites once more through PgBouncer in transaction mode (`.ci/run` installs it).
    let pooler = match crate::pgbouncer::unavailable_reason() {
        None => Action::Task(crate::pgbouncer::run_suites),
        Some(_) if std::env::var_os("CI").is_some() => Action::Task(|_| {
            Err(crate::pgbouncer::unavailable_reason().unwrap_or_default() + " (CI must run the suites through it)")
        }),
        Some(why) => Action::Skip(format!("{why}; the suites were NOT run through a transaction-mode pooler")),
    };

    // The document's lints (`.ci/run` installs the pinned tools).
    let openapi = match crate::openapi_lint::missing_tools() {
        None => Action::Task(crate::openapi_lint::run),
        Some(_) if std::env::var_os("CI").is_some() => Action::Task(|_| {
            Err(crate::openapi_lint::missing_tools().unwrap_or_default() + " (CI must lint the OpenAPI document)")
        }),
        Some(why) => Action::Skip(format!("{why}; docs/openapi.json was NOT linted")),
    };

    // The server libraries (`.ci/run` installs the pinned generator).
    let clients = match crate::clients::missing_tools() {
        None => Action::Task(crate::clients::run),
        Some(_) if std::env::var_os("CI").is_some() => Action::Task(|_| {
            Err(crate::clients::missing_tools().unwrap_or_default() + " (CI must test the server libraries)")
        }),
        Some(why) => Action::Skip(format!("{why}; the server libraries under clients/ were NOT tested")),
    };

    let react_native = match crate::sdk::react_native_missing_tools() {
        None => Action::Task(crate::sdk::run_react_native),
        Some(_) if std::env::var_os("CI").is_some() => Action::Task(|_| {
            Err(crate::sdk::react_native_missing_tools().unwrap_or_default() + " (CI must test the React Native SDK)")
        }),
        Some(why) => Action::Skip(format!("{why}; the React Native SDK was NOT tested")),
    };

    vec![
        Step { name: "fmt", action: Action::Cargo(&["fmt", "--all", "--", "--check"]) },
        Step { name: "openapi", action: openapi },
        Step {
            name: "clippy",
            action: Action::Cargo(&["clippy", "--workspace", "--all-targets", "--locked", "--", "-D", "warnings"]),
        },
        Step { name: "test", action: Action::Cargo(test) },
        Step { name: "pooler", action: pooler },
        // nextest does not run doc tests, so they always get their own step.
        Step { name: "doctest", action: Action::Cargo(&["test", "--workspace", "--doc", "--locked"]) },
        // Advisories are left out on purpose: they need a network database.
        Step { name: "deny", action: deny },
        Step { name: "browser", action: browser },
        Step { name: "react-native", action: react_native },
        Step { name: "clients", action: clients },
        Step { name: "schemathesis", action: schemathesis },
        Step { name: "chaos", action: chaos },
    ]
}

pub(crate) fn run(root: &Path) -> Result<(), String> {
    let cargo = cargo_program();
    let steps = plan(&cargo, root);
    let total = steps.len();
    let started = Instant::now();
    let mut skipped = Vec::new();

    for (index, step) in steps.iter().enumerate() {
        let number = index + 1;
        match &step.action {
            Action::Skip(reason) => {
                println!("==> [{number}/{total}] {}: SKIPPED: {reason}", step.name);
                skipped.push(step.name);
            }
            Action::Task(task) => {
                println!("==> [{number}/{total}] {}", step.name);
                let step_started = Instant::now();
                if let Err(message) = task(root) {
                    return Err(format!(
                        "ci FAILED at step {number}/{total} `{}`: {message}; total {}",
                        step.name,
                        format_duration(started.elapsed())
                    ));
                }
                println!("    {} ok in {}", step.name, format_duration(step_started.elapsed()));
            }
            Action::Cargo(args) => {
                println!("==> [{number}/{total}] {}: cargo {}", step.name, args.join(" "));
                let step_started = Instant::now();
                let status = Command::new(&cargo)
                    .args(*args)
                    .current_dir(root)
                    .status()
                    .map_err(|error| format!("could not start cargo: {error}"))?;
                let took = format_duration(step_started.elapsed());
                if !status.success() {
                    return Err(format!(
                        "ci FAILED at step {number}/{total} `{}` ({status}) after {took}; \
                         total {}",
                        step.name,
                        format_duration(started.elapsed()),
                    ));
                }
                println!("    {} ok in {took}", step.name);
            }
        }
    }

    let passed = total - skipped.len();
    let skipped_note = if skipped.is_empty() {
        String::new()
    } else {
        format!(", {} skipped ({})", skipped.len(), skipped.join(", "))
    };
    println!("ci passed: {passed}/{total} steps ok{skipped_note} in {}", format_duration(started.elapsed()));
    Ok(())
}

/// The cargo that runs us (`CARGO` is set by `cargo run`), else the one on `PATH`.
fn cargo_program() -> OsString {
    std::env::var_os("CARGO").unwrap_or_else(|| OsString::from("cargo"))
}

/// Whether `cargo <subcommand> --version` succeeds, i.e. the tool is installed.
fn cargo_subcommand_works(cargo: &OsString, root: &Path, subcommand: &str) -> bool {
    Command::new(cargo)
        .args([subcommand, "--version"])
        .current_dir(root)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success())
}

fn format_duration(duration: Duration) -> String {
    let seconds = duration.as_secs_f64();
    if seconds < 60.0 {
        format!("{seconds:.1}s")
    } else {
        let whole = duration.as_secs();
        format!("{}m{:02}s", whole / 60, whole % 60)
    }
}
