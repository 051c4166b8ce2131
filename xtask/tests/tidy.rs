//! Tidy checks: architecture and hygiene rules that fail `cargo test` when broken.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Crates that belong in adapters, never in the domain's (normal or build) dependency tree.
/// `tokio` is fine as a dev-dependency of the domain, which `-e normal,build` leaves out.
const FORBIDDEN_IN_DOMAIN: &[&str] = &[
    "actix-web",
    "actix-http",
    "actix-rt",
    "diesel",
    "diesel-async",
    "hyper",
    "lopdf",
    "tokio-postgres",
    "pq-sys",
    "reqwest",
    "sqlx",
    "tokio",
];

const DOMAIN: &str = "clickwrap-domain";

/// The cargo and the package directory of this run (set by cargo and nextest at run time);
/// the compile-time values are only a fallback, as they go stale when the checkout moves.
fn env_or_compiled(name: &str, compiled: &str) -> PathBuf {
    std::env::var_os(name).map_or_else(|| PathBuf::from(compiled), PathBuf::from)
}

fn workspace_root() -> PathBuf {
    let manifest_dir = env_or_compiled("CARGO_MANIFEST_DIR", env!("CARGO_MANIFEST_DIR"));
    manifest_dir.parent().map_or_else(|| manifest_dir.clone(), Path::to_path_buf)
}

/// Runs cargo in the workspace root; its stdout, or a message with its stderr.
fn cargo(args: &[&str]) -> Result<String, String> {
    let output = Command::new(env_or_compiled("CARGO", env!("CARGO")))
        .args(args)
        .current_dir(workspace_root())
        .output()
        .map_err(|error| format!("could not run cargo {}: {error}", args.join(" ")))?;
    if !output.status.success() {
        return Err(format!(
            "cargo {} failed ({}):\n{}",
            args.join(" "),
            output.status,
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

#[test]
fn domain_depends_on_no_adapter_crate() {
    let tree = cargo(&[
        "tree",
        "--package",
        DOMAIN,
        "--edges",
        "normal,build",
        "--target",
        "all",
        "--prefix",
        "none",
        "--format",
        "{p}",
    ])
    .unwrap_or_else(|message| panic!("{message}"));
    // Lines look like `ring v0.17.14` or `ring v0.17.14 (*)`.
    let names: Vec<&str> = tree.lines().filter_map(|line| line.split_whitespace().next()).collect();
    assert!(names.contains(&DOMAIN), "`cargo tree` did not list {DOMAIN}; got:\n{tree}");

    let mut offenders = String::new();
    for forbidden in FORBIDDEN_IN_DOMAIN {
        if names.contains(forbidden) {
            let path = cargo(&[
                "tree",
                "--package",
                DOMAIN,
                "--edges",
                "normal,build",
                "--target",
                "all",
                "--invert",
                forbidden,
            ])
            .unwrap_or_else(|message| message);
            offenders
                .push_str(&format!("\n`{forbidden}` is in the domain's dependency tree; it comes in through:\n{path}"));
        }
    }
    assert!(
        offenders.is_empty(),
        "{DOMAIN} must depend on no adapter, framework or IO crate \
         (those belong in the adapter crates):{offenders}"
    );
}

#[test]
fn no_todo_or_unimplemented_in_crate_sources() {
    let mut files = Vec::new();
    let crates = crate_dirs().unwrap_or_else(|message| panic!("{message}"));
    for krate in crates {
        cycles::rust_files(&krate.join("src"), &mut files).unwrap_or_else(|message| panic!("{message}"));
    }
    assert!(!files.is_empty(), "found no Rust sources under crates/*/src");

    let mut offenders = Vec::new();
    for file in &files {
        let text =
            std::fs::read_to_string(file).unwrap_or_else(|error| panic!("cannot read {}: {error}", file.display()));
        for (number, line) in text.lines().enumerate() {
            if line.contains("todo!(") || line.contains("unimplemented!(") {
                offenders.push(format!("{}:{}: {}", relative(file).display(), number + 1, line.trim()));
            }
        }
    }
    assert!(offenders.is_empty(), "unfinished code (todo!/unimplemented!) in crate sources:\n{}", offenders.join("\n"));
}

/// The console drives use cases: no page reaches a port (the clock, the CPU pool, a store) around
/// the service, so whatever a use case checks, audits or announces cannot be skipped from a page.
#[test]
fn the_console_calls_no_port_around_the_use_cases() {
    let mut files = Vec::new();
    cycles::rust_files(&workspace_root().join("crates/console/src"), &mut files)
        .unwrap_or_else(|message| panic!("{message}"));
    assert!(!files.is_empty(), "found no Rust sources under crates/console/src");
    let mut offenders = Vec::new();
    for file in &files {
        let text =
            std::fs::read_to_string(file).unwrap_or_else(|error| panic!("cannot read {}: {error}", file.display()));
        for (number, line) in text.lines().enumerate() {
            if line.contains(".ports()") || line.contains("run_on_cpu_pool") {
                offenders.push(format!("{}:{}: {}", relative(file).display(), number + 1, line.trim()));
            }
        }
    }
    assert!(offenders.is_empty(), "the console reaches a port around the use cases:\n{}", offenders.join("\n"));
}

/// A build that takes minutes must show cargo's progress: neither the `cargo xtask` alias (whose
/// first run builds the xtask and the crates it benchmarks) nor a build the xtask starts is quiet.
#[test]
fn no_build_we_start_is_silent() {
    let root = workspace_root();
    let mut files = vec![root.join(".cargo").join("config.toml")];
    cycles::rust_files(&root.join("xtask").join("src"), &mut files).unwrap_or_else(|message| panic!("{message}"));
    let mut offenders = Vec::new();
    for file in &files {
        let text =
            std::fs::read_to_string(file).unwrap_or_else(|error| panic!("cannot read {}: {error}", file.display()));
        for (number, line) in text.lines().enumerate() {
            let code = line.split('#').next().unwrap_or_default().split("//").next().unwrap_or_default();
            if code.contains("--quiet") {
                offenders.push(format!("{}:{}: {}", relative(file).display(), number + 1, line.trim()));
            }
        }
    }
    assert!(offenders.is_empty(), "quiet cargo runs hide minutes of building:\n{}", offenders.join("\n"));
}

#[test]
fn every_member_uses_the_workspace_lints() {
    let root = workspace_root();
    let mut manifests: Vec<PathBuf> = crate_dirs()
        .unwrap_or_else(|message| panic!("{message}"))
        .into_iter()
        .map(|dir| dir.join("Cargo.toml"))
        .collect();
    manifests.push(root.join("xtask").join("Cargo.toml"));

    let mut offenders = Vec::new();
    for manifest in &manifests {
        let text = std::fs::read_to_string(manifest)
            .unwrap_or_else(|error| panic!("cannot read {}: {error}", manifest.display()));
        if !uses_workspace_lints(&text) {
            offenders.push(relative(manifest).display().to_string());
        }
    }
    assert!(offenders.is_empty(), "these members lack `[lints]\\nworkspace = true`: {}", offenders.join(", "));
}

/// `[lints]` followed (before the next table) by `workspace = true`, or `lints.workspace = true`.
fn uses_workspace_lints(manifest: &str) -> bool {
    let mut in_lints = false;
    for line in manifest.lines().map(str::trim) {
        let compact: String = line.chars().filter(|c| !c.is_whitespace()).collect();
        if compact == "lints.workspace=true" {
            return true;
        }
        if compact.starts_with('[') {
            in_lints = compact == "[lints]";
        } else if in_lints && compact == "workspace=true" {
            return true;
        }
    }
    false
}

/// Every `crates/*` directory that holds a Cargo package (as `cargo xtask cycles` lists them).
fn crate_dirs() -> Result<Vec<PathBuf>, String> {
    cycles::crate_dirs(&workspace_root())
}

fn relative(path: &Path) -> &Path {
    let root = workspace_root();
    path.strip_prefix(&root).unwrap_or(path)
}

#[test]
fn nothing_links_libpq() {
    // diesel-async reaches PostgreSQL through tokio-postgres; pq-sys would mean a C libpq at build
    // and run time, which a fresh machine does not have.
    let tree =
        cargo(&["tree", "--workspace", "--edges", "all", "--target", "all", "--prefix", "none", "--format", "{p}"])
            .unwrap_or_else(|message| panic!("{message}"));
    let linked: Vec<&str> =
        tree.lines().filter(|line| line.starts_with("pq-sys ") || line.starts_with("mysqlclient-sys ")).collect();
    assert!(linked.is_empty(), "the workspace must not link a C database client: {linked:?}");
    assert!(
        tree.lines().any(|line| line.starts_with("tokio-postgres ")),
        "expected tokio-postgres in the tree:\n{tree}"
    );
}

/// The module graph and its cycles, as `cargo xtask cycles` computes them.
#[allow(dead_code, reason = "the tidy tests use only part of what the xtask command does")]
#[path = "../src/cycles.rs"]
mod cycles;

fn domain_graph() -> Result<cycles::ModuleGraph, String> {
    cycles::module_graph(&workspace_root().join("crates").join("domain").join("src"))
}

/// Models ← ports ← services: a port names the data it carries, never a use case's module.
#[test]
fn no_ports_module_of_the_domain_imports_a_service_module() {
    let graph = domain_graph().unwrap_or_else(|message| panic!("{message}"));
    let is = |module: &str, name: &str| module.rsplit("::").next() == Some(name);
    let mut offenders = Vec::new();
    for (module, targets) in &graph {
        if is(module, "ports") {
            offenders.extend(
                targets.iter().filter(|target| is(target, "service")).map(|target| format!("{module} -> {target}")),
            );
        }
    }
    assert!(graph.contains_key("ports"), "found no `ports` module in the domain: {:?}", graph.keys());
    assert!(offenders.is_empty(), "a ports module imports from a service module: {}", offenders.join(", "));
}

/// The domain's modules import each other without a cycle, so that each layer (models, ports,
/// services) can be read and changed from the bottom up. `cargo xtask cycles` lists every crate's.
#[test]
fn the_domain_has_no_import_cycle() {
    let found = cycles::cycles(&domain_graph().unwrap_or_else(|message| panic!("{message}")));
    let listed: Vec<String> = found.iter().map(|cycle| cycle.join(", ")).collect();
    assert!(
        listed.is_empty(),
        "import cycles in the domain (`cargo xtask cycles` shows the imports):\n{}",
        listed.join("\n")
    );
}
