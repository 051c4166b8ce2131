//! `cargo xtask bench bundle [--events N]`: how long `verify-bundle` takes over a bundle of N
//! synthetic events (default 100,000). No database: the benchmark itself
//! (`crates/bundle/benches/verify.rs`) makes the bundle with the writer `export` uses, then times
//! the verifier and, as a same-run baseline, merely parsing the events.

use std::ffi::OsString;
use std::path::Path;
use std::process::Command;

pub(crate) fn run(root: &Path, args: &[String]) -> Result<(), String> {
    let mut events = "100000".to_owned();
    let mut keep = false;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--events" => {
                let n = rest.next().ok_or("--events takes a number")?;
                n.parse::<u64>().map_err(|_| format!("--events takes a number, not `{n}`"))?;
                n.clone_into(&mut events);
            }
            "--keep" => keep = true,
            other => return Err(format!("unknown option `{other}` for `bench bundle`")),
        }
    }
    let mut forwarded = vec!["--events".to_owned(), events];
    if keep {
        forwarded.push("--keep".to_owned());
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| OsString::from("cargo"));
    let status = Command::new(cargo)
        .current_dir(root)
        .args(["bench", "--package", "clickwrap-bundle", "--bench", "verify", "--"])
        .args(&forwarded)
        .status()
        .map_err(|e| format!("cannot run cargo bench: {e}"))?;
    if status.success() { Ok(()) } else { Err(format!("the bundle benchmark failed ({status})")) }
}
