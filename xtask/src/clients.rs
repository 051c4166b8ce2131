//! The server libraries under `clients/`. `cargo xtask clients generate` writes their generated
//! code anew from `docs/openapi.json`; `cargo xtask clients` (the `clients` step of `ci`) fails when
//! the checked-in generated code differs from a fresh generation (the TypeScript library's own
//! tests check that of its one generated file), then runs each library's tests, unit and against a
//! real `clickwrap-server demo`: among them, real deliveries verified by the official Standard
//! Webhooks packages (`standardwebhooks` from PyPI and npm, pinned by each library's lock).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::demo_server::with_demo_server;
use crate::openapi_lint::PYTHON_CLIENT_VERSION;
use crate::{npm_ci_unless_installed, succeed};

const DOCUMENT: &str = "docs/openapi.json";
const PYTHON_DIR: &str = "clients/python";
const PYTHON_GENERATED: &str = "clients/python/clickwrap/generated";
const TYPESCRIPT_DIR: &str = "clients/typescript";
/// The one generated file of the TypeScript library, `schema.d.ts`, is in here; its own tests
/// (`npm test`) fail when it differs from a fresh generation.
const TYPESCRIPT_GENERATED_IN: &str = "clients/typescript/src";
/// Each library's tests receive webhooks over HTTPS with a certificate of a test CA of their own;
/// the server is told to trust both.
const TEST_CAS: [&str; 2] = ["clients/python/tests/tls/ca.pem", "clients/typescript/test/fixtures/webhook-tls/ca.pem"];

/// Why the libraries' checks cannot run here, if they cannot.
pub(crate) fn missing_tools() -> Option<String> {
    for (program, args) in [("npm", &["--version"][..]), ("python3", &["-m", "venv", "--help"][..])] {
        let works = Command::new(program).args(args).stdout(Stdio::null()).stderr(Stdio::null()).status();
        if !works.is_ok_and(|status| status.success()) {
            return Some(format!("`{program} {}` does not work", args.join(" ")));
        }
    }
    crate::openapi_lint::missing_tools()
}

/// `cargo xtask clients generate`: the generated code of both libraries, written in place.
pub(crate) fn generate(root: &Path) -> Result<(), String> {
    generate_python(root, &root.join(PYTHON_GENERATED))?;
    generate_typescript(root, &root.join(TYPESCRIPT_GENERATED_IN))?;
    println!("regenerated {PYTHON_GENERATED}/ and {TYPESCRIPT_GENERATED_IN}/schema.d.ts from {DOCUMENT}");
    Ok(())
}

/// `cargo xtask clients`: no drift, then every test of both libraries.
pub(crate) fn run(root: &Path) -> Result<(), String> {
    let scratch = root.join("target/clients");
    std::fs::create_dir_all(&scratch).map_err(|e| format!("cannot create {}: {e}", scratch.display()))?;

    println!("    the Python library's generated code is what the generator makes of {DOCUMENT} today");
    let fresh_python = scratch.join("python-generated");
    let _ = std::fs::remove_dir_all(&fresh_python);
    generate_python(root, &fresh_python)?;
    same_tree(&fresh_python, &root.join(PYTHON_GENERATED))?;
    // Named by its newest dependency, so that a tree installed before it came is installed anew.
    npm_ci_unless_installed(&root.join(TYPESCRIPT_DIR), "standardwebhooks")?;

    let python = python_with_test_dependencies(root, &scratch.join("python-venv"))?;
    let mut trusted = String::new();
    for ca in TEST_CAS {
        trusted += &std::fs::read_to_string(root.join(ca)).map_err(|e| format!("cannot read {ca}: {e}"))?;
    }
    let trusted_file = scratch.join("webhook-test-cas.pem");
    std::fs::write(&trusted_file, trusted).map_err(|e| format!("cannot write {}: {e}", trusted_file.display()))?;
    let trusted_file = trusted_file.to_string_lossy().into_owned();

    // Retries a second apart: the libraries' end-to-end tests see a retry and a redelivery keep the
    // message's `webhook-id`, and do not wait out the default minute.
    let server_env = [
        ("CLICKWRAP_WEBHOOK_ALLOW_CIDRS", "127.0.0.0/8"),
        ("CLICKWRAP_WEBHOOK_CA_FILE", trusted_file.as_str()),
        ("CLICKWRAP_WEBHOOK_RETRY_DELAYS", "1,1,1"),
    ];
    with_demo_server(root, &server_env, |server| {
        println!("    Python library: unit tests and the operator's flow against the real server");
        // The checked-in sources, not a copy installed earlier, are what is tested.
        let mut pytest = Command::new(&python);
        pytest.args(["-m", "pytest", "-q", "tests"]).env("PYTHONPATH", root.join(PYTHON_DIR));
        succeed(server.describe_to(pytest.current_dir(root.join(PYTHON_DIR))), "pytest (clients/python)")?;

        println!("    TypeScript library: types, unit tests and the operator's flow against the real server");
        let mut npm_test = Command::new("npm");
        succeed(
            server.describe_to(npm_test.arg("test").current_dir(root.join(TYPESCRIPT_DIR))),
            "npm test (clients/typescript)",
        )
    })
}

fn generate_python(root: &Path, into: &Path) -> Result<(), String> {
    succeed(
        Command::new("openapi-python-client")
            .args(["generate", "--meta", "none", "--overwrite", "--config"])
            .arg(root.join(PYTHON_DIR).join("openapi-python-client.yaml"))
            .arg("--path")
            .arg(root.join(DOCUMENT))
            .arg("--output-path")
            .arg(into),
        &format!("openapi-python-client {PYTHON_CLIENT_VERSION}"),
    )
}

fn generate_typescript(root: &Path, into: &Path) -> Result<(), String> {
    let package = root.join(TYPESCRIPT_DIR);
    npm_ci_unless_installed(&package, "openapi-typescript")?;
    succeed(
        Command::new("node").arg(package.join("scripts/generate.js")).arg(into).current_dir(&package),
        "openapi-typescript (clients/typescript/scripts/generate.js)",
    )
}

/// A virtual environment under `target/` with the library's dependencies and pytest, at the
/// versions `constraints.txt` pins; its python.
fn python_with_test_dependencies(root: &Path, venv: &Path) -> Result<PathBuf, String> {
    let python = venv.join("bin/python");
    if !python.exists() {
        succeed(Command::new("python3").args(["-m", "venv"]).arg(venv), "python3 -m venv")?;
    }
    let package = root.join(PYTHON_DIR);
    succeed(
        Command::new(&python)
            .args(["-m", "pip", "install", "-q", "--disable-pip-version-check", "-c"])
            .arg(package.join("constraints.txt"))
            .arg(format!("{}[test]", package.display())),
        "pip install clients/python[test]",
    )?;
    Ok(python)
}

/// Fails, naming the first difference, unless `fresh` and `checked_in` (files or folders) hold the
/// same files with the same bytes. Python's byte-code caches are not part of either.
fn same_tree(fresh: &Path, checked_in: &Path) -> Result<(), String> {
    let stale = || {
        format!(
            "{} differs from what the generator makes of {DOCUMENT} now; run `cargo xtask clients generate` and commit",
            checked_in.display()
        )
    };
    if fresh.is_file() {
        let (a, b) = (std::fs::read(fresh), std::fs::read(checked_in));
        return match (a, b) {
            (Ok(a), Ok(b)) if a == b => Ok(()),
            _ => Err(stale()),
        };
    }
    let (fresh_names, checked_in_names) = (entries(fresh)?, entries(checked_in)?);
    if fresh_names != checked_in_names {
        return Err(format!("{} (files differ: {:?} vs {:?})", stale(), fresh_names, checked_in_names));
    }
    for name in fresh_names {
        same_tree(&fresh.join(&name), &checked_in.join(&name))?;
    }
    Ok(())
}

fn entries(folder: &Path) -> Result<Vec<String>, String> {
    let mut names: Vec<String> = std::fs::read_dir(folder)
        .map_err(|e| format!("cannot read {}: {e}", folder.display()))?
        .filter_map(Result::ok)
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|name| name != "__pycache__")
        .collect();
    names.sort();
    Ok(names)
}
