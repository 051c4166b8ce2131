//! The evidence ledger from the command line, through the real binary: `export` writes a bundle
//! that `verify-bundle` accepts with nothing but the files, and any changed byte of it (a record,
//! a content, a certificate, a proof, the tree head) or a dropped event is named; `ledger check`
//! keeps a tree head and catches a rewritten history.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing, clippy::print_stderr)]

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use clickwrap_postgres::test_db::TestDatabase;
use common::{BINARY, DemoCredentials, command, drop_database, fresh_database_url, record_action, start, verify};
use serde_json::{Value, json};

fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("clickwrap-bundle-{name}-{}", uuid::Uuid::now_v7()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Verified events of the demo: accepted ones (with certificates), a declined one, and one with
/// placeholder values.
fn verified_events(address: &str, demo: &DemoCredentials) {
    let fill = Some(json!({"fullName": "Ada Lovelace"}));
    for (end_user, action, placeholders) in [
        ("user-a", "ACCEPTED", None),
        ("user-b", "DECLINED", None),
        ("user-c", "ACCEPTED", fill),
        ("user-d", "ACCEPTED", None),
    ] {
        let signature = record_action(address, demo, end_user, action, placeholders);
        let verified = verify(address, demo, &signature);
        assert_eq!(verified.status, 200, "{}", verified.text());
    }
}

fn export(url: &str, tenant: &str, out: &Path) -> Output {
    command(url).args(["export", "--tenant", tenant, "--out", out.to_str().unwrap()]).output().unwrap()
}

/// `verify-bundle` with no environment at all: no database, no key, no configuration.
fn verify_bundle(dir: &Path) -> (bool, String) {
    let output = Command::new(BINARY).env_clear().args(["verify-bundle", dir.to_str().unwrap()]).output().unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    (output.status.success(), text)
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

fn event_lines(bundle: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(bundle.join("events.ndjson")).unwrap();
    text.lines().map(|line| serde_json::from_str(line).unwrap()).collect()
}

fn write_event_lines(bundle: &Path, lines: &[Value]) {
    let text: String = lines.iter().map(|line| format!("{line}\n")).collect();
    std::fs::write(bundle.join("events.ndjson"), text).unwrap();
}

fn flip_byte(file: &Path, at: impl Fn(usize) -> usize) {
    let mut bytes = std::fs::read(file).unwrap();
    let index = at(bytes.len());
    bytes[index] ^= 0x01;
    std::fs::write(file, bytes).unwrap();
}

/// The hex text with its first digit changed.
fn first_digit_changed(hex: &str) -> String {
    match hex.strip_prefix('0') {
        Some(rest) => format!("1{rest}"),
        None => format!("0{}", &hex[1..]),
    }
}

/// A copy of the bundle, changed by `tamper`, must fail verification with `expected` in the output.
fn tampered_fails(bundle: &Path, case: &str, expected: &str, tamper: impl FnOnce(&Path)) {
    let copy = bundle.with_file_name(format!("{}-{case}", bundle.file_name().unwrap().to_str().unwrap()));
    copy_dir(bundle, &copy);
    tamper(&copy);
    let (ok, output) = verify_bundle(&copy);
    assert!(!ok, "{case}: a tampered bundle verified:\n{output}");
    assert!(output.contains(expected), "{case}: expected `{expected}` in:\n{output}");
    assert!(output.contains("NOT VERIFIED"), "{case}:\n{output}");
    std::fs::remove_dir_all(&copy).unwrap();
}

#[test]
fn an_exported_bundle_verifies_offline_and_every_tampering_is_named() {
    let db = TestDatabase::new_blocking();
    let url = fresh_database_url(&db);
    let server = start(&url, "demo");
    let demo = server.demo_credentials();
    verified_events(&server.address, &demo);

    let root = scratch_dir("export");
    let bundle = root.join("bundle");
    let exported = export(&url, &demo.tenant_id, &bundle);
    assert!(exported.status.success(), "{}", String::from_utf8_lossy(&exported.stderr));
    let report: Value = serde_json::from_slice(&exported.stdout).unwrap();
    assert_eq!(report["events"], 4, "{report}");
    assert_eq!(report["certificates"], 3, "{report}");
    assert_eq!(report["treeSize"], 4, "{report}");
    assert_eq!(report["verifiedBeforeLedger"], 0, "{report}");

    let (ok, output) = verify_bundle(&bundle);
    assert!(ok, "{output}");
    assert!(output.contains("verified: 4 events (3 certificates)"), "{output}");
    assert!(output.contains(report["rootHash"].as_str().unwrap()), "{output}");

    // What the bundle says, as a reader would check it.
    let lines = event_lines(&bundle);
    assert_eq!(lines.iter().map(|l| l["leafIndex"].as_u64().unwrap()).collect::<Vec<_>>(), [0, 1, 2, 3]);
    assert_eq!(lines[1]["record"]["action"], "DECLINED");
    assert_eq!(lines[1]["certificateFile"], Value::Null);
    assert_eq!(lines[2]["personalValues"]["endUserId"], "user-c");
    assert!(lines[2]["personalValues"]["templatePlaceholders"].as_str().unwrap().contains("Ada Lovelace"));
    let content = bundle.join(lines[2]["contentFile"].as_str().unwrap());
    assert!(std::fs::read_to_string(content).unwrap().contains("Ada Lovelace"));
    let manifest: Value = serde_json::from_slice(&std::fs::read(bundle.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["tenantId"], demo.tenant_id.as_str());
    assert_eq!(manifest["treeHead"]["treeSize"], 4);
    let first = lines[0]["eventId"].as_str().unwrap().to_owned();
    let declined = lines[1]["eventId"].as_str().unwrap().to_owned();

    tampered_fails(&bundle, "record", &format!("event {first}: the record does not hash to its leafHash"), |copy| {
        let mut lines = event_lines(copy);
        let name = lines[0]["record"]["templateName"].as_str().unwrap().to_owned();
        lines[0]["record"]["templateName"] = Value::from(name.replacen('e', "f", 1));
        write_event_lines(copy, &lines);
    });
    tampered_fails(&bundle, "content", "does not hash to the record's contentHash", |copy| {
        let file = copy.join(event_lines(copy)[0]["contentFile"].as_str().unwrap());
        flip_byte(&file, |len| len / 2);
    });
    tampered_fails(
        &bundle,
        "certificate",
        &format!("event {first}: the certificate certificates/{first}.pdf"),
        |copy| {
            flip_byte(&copy.join(format!("certificates/{first}.pdf")), |len| len / 3);
        },
    );
    tampered_fails(&bundle, "proof", &format!("event {declined}: the inclusion proof does not lead"), |copy| {
        let mut lines = event_lines(copy);
        let hash = lines[1]["auditPath"][0].as_str().unwrap();
        lines[1]["auditPath"][0] = Value::from(first_digit_changed(hash));
        write_event_lines(copy, &lines);
    });
    tampered_fails(&bundle, "tree-head", "tree head: its signature does not verify", |copy| {
        let path = copy.join("manifest.json");
        let text = std::fs::read_to_string(&path).unwrap();
        let root = manifest["treeHead"]["rootHash"].as_str().unwrap();
        std::fs::write(&path, text.replace(root, &first_digit_changed(root))).unwrap();
    });
    tampered_fails(&bundle, "dropped", "leaf index 2 where 1 was expected", |copy| {
        let mut lines = event_lines(copy);
        lines.remove(1);
        write_event_lines(copy, &lines);
    });
    tampered_fails(&bundle, "truncated", "the bundle lists 3 events but the tree head covers 4", |copy| {
        let mut lines = event_lines(copy);
        lines.pop();
        write_event_lines(copy, &lines);
    });
    tampered_fails(&bundle, "garbage", "line 2: not an event entry", |copy| {
        let text = std::fs::read_to_string(copy.join("events.ndjson")).unwrap();
        let mut lines: Vec<&str> = text.lines().collect();
        lines[1] = "{\"leafIndex\": \"not a number\"";
        std::fs::write(copy.join("events.ndjson"), lines.join("\n") + "\n").unwrap();
    });

    // The directory is not empty now: export refuses it and leaves it as it was.
    let again = export(&url, &demo.tenant_id, &bundle);
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("is not empty"), "{again:?}");
    assert!(verify_bundle(&bundle).0);

    let unknown = export(&url, &uuid::Uuid::now_v7().to_string(), &root.join("unknown"));
    assert!(!unknown.status.success());
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("no tenant"), "{unknown:?}");

    let (ok, output) = verify_bundle(&root.join("missing"));
    assert!(!ok);
    assert!(output.contains("is not a directory"), "{output}");

    drop(server);
    std::fs::remove_dir_all(&root).unwrap();
    drop_database(&db, &url);
}

/// After an end user's values and salt are erased (the one change the database allows to a leaf),
/// the bundle still proves the event's leaf in the log, and says that its record is gone.
#[test]
fn an_erased_event_keeps_its_proof_in_the_bundle() {
    let db = TestDatabase::new_blocking();
    let url = fresh_database_url(&db);
    let server = start(&url, "demo");
    let demo = server.demo_credentials();
    verified_events(&server.address, &demo);
    sql(&url, "UPDATE ledger_leaves SET salt = NULL WHERE leaf_index = 2");

    let root = scratch_dir("erased");
    let bundle = root.join("bundle");
    let exported = export(&url, &demo.tenant_id, &bundle);
    assert!(exported.status.success(), "{}", String::from_utf8_lossy(&exported.stderr));
    let report: Value = serde_json::from_slice(&exported.stdout).unwrap();
    assert_eq!((report["events"].as_u64(), report["erased"].as_u64()), (Some(4), Some(1)), "{report}");
    let lines = event_lines(&bundle);
    assert_eq!(
        (&lines[2]["record"], &lines[2]["personalValues"], &lines[2]["salt"]),
        (&Value::Null, &Value::Null, &Value::Null)
    );
    let (ok, output) = verify_bundle(&bundle);
    assert!(ok, "{output}");

    drop(server);
    std::fs::remove_dir_all(&root).unwrap();
    drop_database(&db, &url);
}

fn ledger_check(url: &str, tenant: &str, state: &Path) -> Output {
    command(url).args(["ledger", "check", "--tenant", tenant, "--state", state.to_str().unwrap()]).output().unwrap()
}

fn sql(url: &str, statements: &str) {
    let (url, statements) = (url.to_owned(), statements.to_owned());
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async move {
        use diesel_async::{AsyncConnection, AsyncPgConnection, SimpleAsyncConnection};
        let mut conn = AsyncPgConnection::establish(&url).await.unwrap();
        conn.batch_execute(&statements).await.unwrap();
    });
}

#[test]
fn ledger_check_keeps_the_tree_head_and_catches_a_rewritten_history() {
    let db = TestDatabase::new_blocking();
    let url = fresh_database_url(&db);
    let server = start(&url, "demo");
    let demo = server.demo_credentials();
    let dir = scratch_dir("monitor");
    let state = dir.join("ledger-state.json");
    let accept = |user: &str| {
        let signature = record_action(&server.address, &demo, user, "ACCEPTED", None);
        assert_eq!(verify(&server.address, &demo, &signature).status, 200);
    };
    accept("user-1");
    accept("user-2");

    let first = ledger_check(&url, &demo.tenant_id, &state);
    assert!(first.status.success(), "{}", String::from_utf8_lossy(&first.stderr));
    assert!(String::from_utf8_lossy(&first.stdout).contains("first tree head kept: size 2"), "{first:?}");
    let kept: Value = serde_json::from_slice(&std::fs::read(&state).unwrap()).unwrap();
    assert_eq!(kept["treeHead"]["treeSize"], 2);
    assert!(kept["ledgerKey"].as_str().unwrap().starts_with("-----BEGIN PUBLIC KEY-----"));

    accept("user-3");
    let second = ledger_check(&url, &demo.tenant_id, &state);
    assert!(second.status.success(), "{}", String::from_utf8_lossy(&second.stderr));
    assert!(String::from_utf8_lossy(&second.stdout).contains("consistent: size 2 -> 3"), "{second:?}");
    let unchanged = ledger_check(&url, &demo.tenant_id, &state);
    assert!(unchanged.status.success(), "{}", String::from_utf8_lossy(&unchanged.stderr));

    // Whoever runs the database rewrites the first leaf and lets the server sign the result.
    sql(
        &url,
        "ALTER TABLE ledger_leaves DISABLE TRIGGER USER;
         UPDATE ledger_leaves SET leaf_hash = sha256(leaf_hash) WHERE leaf_index = 0;
         ALTER TABLE ledger_leaves ENABLE TRIGGER USER;
         ALTER TABLE ledger_tree_heads DISABLE TRIGGER USER;
         DELETE FROM ledger_tree_heads;
         ALTER TABLE ledger_tree_heads ENABLE TRIGGER USER;
         ALTER TABLE ledger_frontiers DISABLE TRIGGER USER;
         DELETE FROM ledger_frontiers;
         ALTER TABLE ledger_frontiers ENABLE TRIGGER USER;",
    );
    let kept_before = std::fs::read(&state).unwrap();
    let rewritten = ledger_check(&url, &demo.tenant_id, &state);
    let stderr = String::from_utf8_lossy(&rewritten.stderr);
    assert!(!rewritten.status.success(), "{stderr}");
    assert!(stderr.contains("HISTORY WAS REWRITTEN"), "{stderr}");
    assert_eq!(std::fs::read(&state).unwrap(), kept_before, "the kept head is not replaced");

    // More events do not hide it: no consistency proof leads from the kept head.
    accept("user-4");
    let later = ledger_check(&url, &demo.tenant_id, &state);
    let stderr = String::from_utf8_lossy(&later.stderr);
    assert!(!later.status.success() && stderr.contains("HISTORY WAS REWRITTEN"), "{stderr}");

    drop(server);
    std::fs::remove_dir_all(&dir).unwrap();
    drop_database(&db, &url);
}
