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
    /// Fail at once; say why.
    Fail(String),
}

/// A step that needs tools: run when `missing` is `None`; else fail on CI (`CI` set), where
/// `.ci/run` installed them and they must run, and skip elsewhere, saying what was not done.
fn needing(missing: Option<String>, task: fn(&Path) -> Result<(), String>, not_done: &str) -> Action {
    match missing {
        None => Action::Task(task),
        Some(why) if std::env::var_os("CI").is_some() => Action::Fail(format!("{why} (CI must run this step)")),
        Some(why) => Action::Skip(format!("{why}; {not_done}")),
    }
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

    // Steps that need tools `.ci/run` installs: on CI they must run, elsewhere they may be skipped.
    let browser = needing(crate::sdk::missing_tools(), crate::sdk::run, "the browser SDK tests were NOT run");
    let schemathesis = needing(
        crate::schemathesis::missing_tool(),
        crate::schemathesis::run,
        "the API was NOT checked against its OpenAPI document",
    );
    // The fault run needs a PostgreSQL cluster of its own.
    let chaos = needing(crate::chaos::unavailable_reason(), crate::chaos::run, "the fault run was NOT done");
    // The suites once more through PgBouncer in transaction mode.
    let pooler = needing(
        crate::pgbouncer::unavailable_reason(),
        crate::pgbouncer::run_suites,
        "the suites were NOT run through a transaction-mode pooler",
    );
    let openapi =
        needing(crate::openapi_lint::missing_tools(), crate::openapi_lint::run, "docs/openapi.json was NOT linted");
    let clients = needing(
        crate::clients::missing_tools(),
        crate::clients::run,
        "the server libraries under clients/ were NOT tested",
    );
    let react_native = needing(
        crate::sdk::react_native_missing_tools(),
        crate::sdk::run_react_native,
        "the React Native SDK was NOT tested",
    );

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
            Action::Fail(message) => {
                println!("==> [{number}/{total}] {}", step.name);
                return Err(format!(
                    "ci FAILED at step {number}/{total} `{}`: {message}; total {}",
                    step.name,
                    format_duration(started.elapsed())
                ));
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
