//! The README's curl quickstart, run as a reader runs it: under `sh`, from a directory of its own,
//! against the real binary, with `clickwrap-server` on `PATH`. It must reach the end, and stop at
//! the first step that fails.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use clickwrap_postgres::test_db::TestDatabase;
use common::{BINARY, TEST_MASTER_KEY, drop_database, fresh_database_url, start};

/// The quickstart's script: the second `sh` block of its section.
fn quickstart_script() -> String {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md")).unwrap();
    let section = readme.split("## Five-minute quickstart with curl").nth(1).expect("the quickstart section");
    let section = section.split("\n## ").next().unwrap();
    let block = section.split("```sh\n").nth(2).expect("the quickstart's script block");
    block.split("```").next().unwrap().to_owned()
}

fn needs(tool: &str) {
    let found = Command::new("sh").args(["-c", &format!("command -v {tool}")]).output().unwrap();
    assert!(found.status.success(), "the README quickstart test needs {tool} (Debian: apt install {tool})");
}

fn run_script(script: &str, address: &str, database_url: &str, directory: &Path) -> Output {
    let binaries = Path::new(BINARY).parent().unwrap();
    let path = format!("{}:{}", binaries.display(), std::env::var("PATH").unwrap_or_default());
    Command::new("sh")
        .args(["-c", script])
        .current_dir(directory)
        .env_clear()
        .env("PATH", path)
        .env("CLICKWRAP_URL", format!("http://{address}"))
        .env("DATABASE_URL", database_url)
        .env("CLICKWRAP_MASTER_KEY", TEST_MASTER_KEY)
        .output()
        .unwrap()
}

#[test]
fn the_readme_quickstart_runs_under_sh_from_any_directory() {
    needs("curl");
    needs("jq");
    let db = TestDatabase::new_blocking();
    let url = fresh_database_url(&db);
    let server = start(&url, "serve");
    let directory: PathBuf = std::env::temp_dir().join(format!("clickwrap-quickstart-{}", uuid::Uuid::now_v7()));
    std::fs::create_dir_all(&directory).unwrap();

    let script = quickstart_script();
    let output = run_script(&script, &server.address, &url, &directory);
    let (stdout, stderr) = (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "the quickstart failed:\n{stdout}\n{stderr}");
    assert!(stdout.lines().any(|line| line == "ACCEPTED"), "{stdout}");
    assert!(std::fs::read(directory.join("certificate.pdf")).unwrap().starts_with(b"%PDF-"));
    assert!(std::fs::read_to_string(directory.join("signing-certificate.pem")).unwrap().contains("BEGIN CERTIFICATE"));

    // A step that fails stops the script there: an operator call with a wrong token.
    let broken = script.replace("\"Authorization: Bearer $TOKEN\"", "\"Authorization: Bearer ot_wrong\"");
    let output = run_script(&broken, &server.address, &url, &directory);
    assert!(!output.status.success(), "the script went on after a failed step");
    assert!(!String::from_utf8_lossy(&output.stdout).contains("Wrote certificate.pdf"));
    assert!(String::from_utf8_lossy(&output.stderr).contains("401"), "{}", String::from_utf8_lossy(&output.stderr));

    drop(server);
    drop_database(&db, &url);
    std::fs::remove_dir_all(&directory).unwrap();
}
