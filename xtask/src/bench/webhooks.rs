//! `cargo xtask bench webhooks [--quick]`: the webhook delivery benchmark. It lives in the webhooks
//! crate (`crates/webhooks/benches/delivery.rs`, which has the HTTPS receiver and the test world it
//! needs), so this only runs it, optimized: deliveries per second draining a backlog against a local
//! HTTPS receiver, its ratio to the bare client's rate measured in the same run, and the
//! commit-to-delivery lag (p50, p99). Needs PostgreSQL; writes `target/bench/webhooks.json`.

use std::ffi::OsString;
use std::path::Path;
use std::process::Command;

pub(crate) const USAGE: &str = "\
  bench webhooks [--quick]
          deliveries per second through the dispatcher to a local HTTPS receiver (and the ratio to
          the bare client), and commit-to-delivery lag p50/p99; writes target/bench/webhooks.json
          (needs PostgreSQL)";

/// Runs the benchmark with `args` (the words after `webhooks`).
pub(crate) fn run(root: &Path, args: &[String]) -> Result<(), String> {
    let mut passed = Vec::new();
    for arg in args {
        match arg.as_str() {
            "--quick" => passed.push(arg.clone()),
            other => return Err(format!("unknown option `{other}`\n\n{USAGE}")),
        }
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| OsString::from("cargo"));
    let status = Command::new(cargo)
        .args(["bench", "--locked", "-p", "clickwrap-webhooks", "--bench", "delivery", "--"])
        .args(&passed)
        .current_dir(root)
        .status()
        .map_err(|error| format!("could not start cargo: {error}"))?;
    if status.success() { Ok(()) } else { Err(format!("the webhook benchmark failed ({status})")) }
}
