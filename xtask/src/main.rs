//! Project automation, run as `cargo xtask <command>` (see `.cargo/config.toml`).
//!
//! `ci` uses the standard library only. `bench` and `chaos` drive the storage adapter, the server and
//! a webhook receiver themselves (`chaos` also a throwaway PostgreSQL cluster), so the xtask depends
//! on the workspace's crates and on the HTTP crates the service already uses.

// A command-line tool reports to its user on stdout and stderr by design.
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod bench;
mod chaos;
mod ci;
mod clients;
mod cycles;
mod demo_server;
mod openapi_lint;
mod pgbouncer;
mod schemathesis;
mod sdk;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

const HELP: &str = "\
cargo xtask <command>

Commands:
  ci      run every check CI runs, stopping at the first failure:
            fmt      cargo fmt --all -- --check
            openapi  docs/openapi.json through Redocly, Spectral and openapi-python-client (below)
            clippy   cargo clippy --workspace --all-targets --locked -- -D warnings
            test     cargo nextest run (or cargo test when cargo-nextest is missing)
            pooler   the HTTP, storage and server suites once more through a PgBouncer in
                     transaction mode (skipped without pgbouncer; on CI, it must run)
            doctest  cargo test --workspace --doc --locked
            deny     cargo deny check bans licenses sources (skipped when cargo-deny is missing)
            browser  the browser SDK's tests in headless Chromium, against its mock server and
                     against a real `clickwrap-server demo` (skipped without Chromium and npm)
            react-native
                     the React Native SDK's tests in Node (jest), against a stand-in service
                     and against a real `clickwrap-server demo` (skipped without npm)
            clients  the Python and TypeScript server libraries (below)
            schemathesis
                     every API operation of /openapi.json against a real `clickwrap-server demo`,
                     all checks, stateful phase along the document's links (skipped without
                     schemathesis; on CI, with CI set, missing tools fail instead)
            chaos    the fault run below (skipped without PostgreSQL's initdb and pg_ctl)
  bench [--quick] [--profile] [--pooler]
          the whole service against same-run PostgreSQL baselines (SDK check vs pgbench -S,
          consent write vs pgbench TPC-B, events-list depth, webhook lag, resident memory, CPU
          per request; --profile adds perf profiles, --pooler puts PgBouncer in front);
          writes target/bench/results.json. `bench storage` and `bench webhooks` measure one
          adapter each, `bench bundle` the evidence bundle's verifier (no database),
          `bench disk` the database bytes per verified accepted event;
          `cargo xtask bench help` tells more (needs PostgreSQL)
  browser the browser SDK's tests alone (the `browser` step of `ci`)
  react-native
          the React Native SDK's tests alone (the `react-native` step of `ci`)
  clients [generate]
          the server libraries under clients/: their generated code must be what the pinned
          generators make of docs/openapi.json now, and their tests pass, unit and against a
          real `clickwrap-server demo` (the `clients` step of `ci`; needs npm, python3 and the
          pinned openapi-python-client); `generate` writes their generated code anew
  openapi docs/openapi.json as a new user takes it: Redocly's recommended rules (no error),
          Spectral's spectral:oas (no error, no warning), openapi-python-client generating every
          operation without a warning (the `openapi` step of `ci`; needs npm and the pinned generator)
  pooler  the HTTP, storage and server suites through a PgBouncer of its own in transaction mode
          (the `pooler` step of `ci`; needs pgbouncer)
  schemathesis
          schemathesis against the API alone (the `schemathesis` step of `ci`)
  chaos   the real server under a load of consent flows, SIGKILLed three times, and its
          PostgreSQL (a throwaway cluster in a temporary folder) restarted and crashed under
          that load; fails if a verified event, its certificate or its webhook was lost, if an
          answer was a 5xx other than 503, or if readiness did not come back within seconds;
          prints its figures (the `chaos` step of `ci`)
  cycles  the import cycles between the modules of each crate (strongly connected components of
          the graph of `use crate::…` / `super::…` paths), counted and listed per crate
  help    print this text
";

/// `cargo xtask cycles`: each crate's import cycles, for anyone to measure them again.
fn print_cycles(root: &Path) -> Result<(), String> {
    for (krate, graph) in cycles::workspace_graphs(root)? {
        let cycles = cycles::cycles(&graph);
        println!("{krate}: {} import cycle(s)", cycles.len());
        for cycle in cycles {
            println!("  {} modules: {}", cycle.len(), cycle.join(", "));
            for (module, targets) in cycles::cycle_edges(&graph, &cycle) {
                println!("    {module} -> {}", targets.join(", "));
            }
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let command = args.first().map(String::as_str);
    let rest = args.get(1..).unwrap_or_default();

    let result = match command {
        None | Some("help" | "-h" | "--help") => {
            print!("{HELP}");
            Ok(())
        }
        Some("ci") => no_arguments("ci", rest).and_then(|()| ci::run(&workspace_root())),
        Some("bench") => bench::run(&workspace_root(), rest),
        Some("browser") => no_arguments("browser", rest).and_then(|()| sdk::run(&workspace_root())),
        Some("react-native") => {
            no_arguments("react-native", rest).and_then(|()| sdk::run_react_native(&workspace_root()))
        }
        Some("clients") => match rest {
            [] => clients::run(&workspace_root()),
            [generate] if generate == "generate" => clients::generate(&workspace_root()),
            _ => Err("usage: cargo xtask clients [generate]".into()),
        },
        Some("schemathesis") => no_arguments("schemathesis", rest).and_then(|()| schemathesis::run(&workspace_root())),
        Some("chaos") => no_arguments("chaos", rest).and_then(|()| chaos::run(&workspace_root())),
        Some("openapi") => no_arguments("openapi", rest).and_then(|()| openapi_lint::run(&workspace_root())),
        Some("cycles") => no_arguments("cycles", rest).and_then(|()| print_cycles(&workspace_root())),
        Some("pooler") => no_arguments("pooler", rest).and_then(|()| pgbouncer::run_suites(&workspace_root())),
        Some(other) => Err(format!("unknown command `{other}`; try `cargo xtask help`")),
    };

    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

fn no_arguments(command: &str, rest: &[String]) -> Result<(), String> {
    match rest.first() {
        None => Ok(()),
        Some(arg) => Err(format!("`{command}` takes no arguments, got `{arg}`")),
    }
}

/// Runs `command` to its end; an error naming `what` unless it succeeded.
pub(crate) fn succeed(command: &mut Command, what: &str) -> Result<(), String> {
    let status = command.status().map_err(|e| format!("could not start {what}: {e}"))?;
    if status.success() { Ok(()) } else { Err(format!("{what} failed ({status})")) }
}

/// `npm ci` in `dir` (the versions of its lock file) unless `node_modules/<installed>` is there.
pub(crate) fn npm_ci_unless_installed(dir: &Path, installed: &str) -> Result<(), String> {
    if dir.join("node_modules").join(installed).exists() {
        return Ok(());
    }
    succeed(
        Command::new("npm").args(["ci", "--no-audit", "--no-fund"]).current_dir(dir),
        &format!("npm ci in {}", dir.display()),
    )
}

/// The workspace root: the parent of this package's directory. `cargo run` tells us that directory
/// at run time; the compile-time value is only a fallback, as it goes stale when the checkout moves.
fn workspace_root() -> PathBuf {
    let manifest_dir =
        std::env::var_os("CARGO_MANIFEST_DIR").map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")), PathBuf::from);
    manifest_dir.parent().map_or_else(|| manifest_dir.clone(), PathBuf::from)
}
