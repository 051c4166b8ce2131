//! Key handling through the real binary: the master key outside the database, server-key and
//! master-key rotation, and what a database dump alone gives away (nothing usable).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing, clippy::print_stderr)]

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

use clickwrap_domain::keys::management::{SIGNING_KEY_BINDING, server_key_binding};
use clickwrap_domain::keys::master::{MasterKey, MasterKeys};
use clickwrap_domain::secrets::SecretBox;
use clickwrap_postgres::test_db::TestDatabase;
use common::{
    TEST_MASTER_KEY, bare_command, command, drop_database, fresh_database_url, record_acceptance, start, start_command,
    verify,
};

fn run(mut command: impl std::borrow::BorrowMut<std::process::Command>, args: &[&str]) -> Output {
    command.borrow_mut().args(args).output().unwrap()
}

fn ok_json(output: Output) -> serde_json::Value {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&output.stdout)))
}

fn scratch_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("clickwrap-keys-{}", uuid::Uuid::now_v7()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The binary with the master key in a file (as operators run it) instead of the variable.
fn with_key_file(url: &str, key_file: &Path) -> std::process::Command {
    let mut command = bare_command(url);
    command.env("CLICKWRAP_MASTER_KEY_FILE", key_file);
    command
}

fn test_master_keys() -> MasterKeys {
    MasterKeys::new(MasterKey::from_bytes([0x42; 32]), None)
}

/// Rows of bytes, read with SQL.
fn bytes_of(url: &str, sql: &str) -> Vec<(String, Vec<u8>)> {
    let url = url.to_owned();
    let sql = sql.to_owned();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async move {
        use diesel::sql_types::{Bytea, Text};
        use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
        #[derive(diesel::QueryableByName)]
        struct Row {
            #[diesel(sql_type = Text)]
            id: String,
            #[diesel(sql_type = Bytea)]
            bytes: Vec<u8>,
        }
        let mut conn = AsyncPgConnection::establish(&url).await.unwrap();
        let rows: Vec<Row> = diesel::sql_query(sql).load(&mut conn).await.unwrap();
        rows.into_iter().map(|row| (row.id, row.bytes)).collect()
    })
}

/// Runs `demo` (as `command` prepares it), records one acceptance by `user` and stops the server:
/// the demo's credentials and the Signature, not yet verified.
fn signature_from_demo(mut command: std::process::Command, user: &str) -> (common::DemoCredentials, String) {
    command.arg("demo");
    let server = start_command(command);
    let demo = server.demo_credentials();
    let signature = record_acceptance(&server.address, &demo, user);
    (demo, signature)
}

#[test]
fn serve_without_a_master_key_refuses_to_start_and_says_how_to_make_one() {
    let db = TestDatabase::new_blocking();
    let url = fresh_database_url(&db);
    let output = run(bare_command(&url), &["serve"]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("CLICKWRAP_MASTER_KEY_FILE"), "{stderr}");
    assert!(stderr.contains("clickwrap-server master-key generate"), "{stderr}");

    let bad = run(bare_command(&url).env("CLICKWRAP_MASTER_KEY", "c2hvcnQ="), &["serve"]);
    assert_eq!(bad.status.code(), Some(2), "a malformed key is a configuration error");
    let stderr = String::from_utf8_lossy(&bad.stderr);
    assert!(stderr.contains("CLICKWRAP_MASTER_KEY=<hidden>") && stderr.contains("32 random bytes"), "{stderr}");
    assert!(!stderr.contains("c2hvcnQ="), "the key is never echoed: {stderr}");
    drop_database(&db, &url);
}

#[test]
fn master_key_generate_writes_a_private_file_and_never_overwrites_one() {
    let dir = scratch_dir();
    let file = dir.join("master.key");
    let made = ok_json(run(
        bare_command("postgres://postgres@127.0.0.1:1/unused"),
        &["master-key", "generate", "--out", file.to_str().unwrap()],
    ));
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(text.trim().len(), 44, "32 bytes in base64: {text}");
    assert!(made["masterKeyId"].as_str().unwrap().starts_with("mk-"), "{made}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&file).unwrap().permissions().mode() & 0o777, 0o600);
    }
    let again = run(
        bare_command("postgres://postgres@127.0.0.1:1/unused"),
        &["master-key", "generate", "--out", file.to_str().unwrap()],
    );
    assert!(!again.status.success());
    assert_eq!(std::fs::read_to_string(&file).unwrap(), text, "the existing key is kept");

    let printed = run(bare_command("postgres://postgres@127.0.0.1:1/unused"), &["master-key", "generate"]);
    assert!(printed.status.success());
    assert_eq!(String::from_utf8_lossy(&printed.stdout).trim().len(), 44);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_database_dump_alone_yields_no_usable_secret() {
    let db = TestDatabase::new_blocking();
    let url = fresh_database_url(&db);
    let dir = scratch_dir();
    let key_file = dir.join("master.key");
    std::fs::write(&key_file, format!("{TEST_MASTER_KEY}\n")).unwrap();

    let server = start_command({
        let mut demo = with_key_file(&url, &key_file);
        demo.arg("demo");
        demo
    });
    let demo = server.demo_credentials();
    let signature = record_acceptance(&server.address, &demo, "dump-test-user");
    assert_eq!(verify(&server.address, &demo, &signature).status, 200);
    drop(server);

    let dump = run(
        {
            let mut pg_dump = std::process::Command::new("pg_dump");
            pg_dump.arg("--data-only").arg(format!("--dbname={url}"));
            pg_dump
        },
        &[],
    );
    assert!(dump.status.success(), "{}", String::from_utf8_lossy(&dump.stderr));
    let dump = String::from_utf8_lossy(&dump.stdout).to_lowercase();

    // Every secret the server holds, opened with the master key, which the dump does not have.
    let master = test_master_keys();
    let mut secrets: Vec<(String, Vec<u8>)> = Vec::new();
    for (id, sealed) in bytes_of(&url, "SELECT id, material_sealed AS bytes FROM server_keys") {
        let key_id = clickwrap_domain::keys::KeyId::parse(&id).unwrap();
        assert_eq!(SecretBox::key_id(&sealed).as_ref(), Some(master.current_id()), "server key {id} is sealed");
        secrets.push((format!("server key {id}"), master.open(&sealed, &server_key_binding(&key_id)).unwrap()));
    }
    for (id, sealed) in bytes_of(&url, "SELECT id::text, private_key_sealed AS bytes FROM signing_identities") {
        assert_eq!(SecretBox::key_id(&sealed).as_ref(), Some(master.current_id()));
        secrets.push((format!("signing key {id}"), master.open(&sealed, SIGNING_KEY_BINDING).unwrap()));
    }
    for (id, sealed) in bytes_of(&url, "SELECT id::text, webhook_secret_sealed AS bytes FROM apps") {
        assert_eq!(SecretBox::key_id(&sealed).as_ref(), Some(master.current_id()));
        let app = uuid::Uuid::parse_str(&id).unwrap();
        secrets.push((format!("webhook secret of {id}"), master.open(&sealed, app.as_bytes()).unwrap()));
    }
    secrets.push(("App Key".to_owned(), demo.app_key.clone().into_bytes()));
    secrets.push(("operator token".to_owned(), demo.operator_token.clone().into_bytes()));
    assert!(secrets.len() >= 5, "{:?}", secrets.iter().map(|s| &s.0).collect::<Vec<_>>());

    for (what, secret) in &secrets {
        let as_hex = hex::encode(secret);
        let as_text = String::from_utf8_lossy(secret).to_lowercase();
        assert!(!dump.contains(&as_hex), "{what} is in the dump (hex)");
        assert!(as_text.len() < 20 || !dump.contains(&as_text), "{what} is in the dump (text)");
    }
    drop_database(&db, &url);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn server_keys_rotate_and_the_old_key_is_deleted_after_its_signatures_expire() {
    let db = TestDatabase::new_blocking();
    let url = fresh_database_url(&db);
    let (_, before_rotation) = signature_from_demo(command(&url), "rotation-user-1");

    let listed = ok_json(run(command(&url), &["server-keys", "list"]));
    let old = listed[0]["id"].as_str().unwrap().to_owned();
    let rotated = ok_json(run(command(&url), &["server-keys", "rotate"]));
    let new = rotated["currentKeyId"].as_str().unwrap().to_owned();
    assert_ne!(new, old);
    let listed = ok_json(run(command(&url), &["server-keys", "list"]));
    assert_eq!(listed[0]["id"], new.as_str());
    assert_eq!(listed[0]["current"], true);
    assert_eq!(listed[1]["id"], old.as_str());
    assert!(listed[1]["deletableFrom"].is_string(), "{listed}");

    // Within the Signature lifetime the old key is kept: Signatures it made still verify.
    let refused = run(command(&url), &["server-keys", "delete", "--key-id", &old]);
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("can be deleted from"));
    let refused = run(command(&url), &["server-keys", "delete", "--key-id", &new]);
    assert!(String::from_utf8_lossy(&refused.stderr).contains("current key"));

    let server = start(&url, "demo");
    let demo = server.demo_credentials();
    assert_eq!(verify(&server.address, &demo, &before_rotation).status, 200, "made with the old key");
    let after_rotation = record_acceptance(&server.address, &demo, "rotation-user-2");
    drop(server);

    // Once its Signatures have expired (a one-second lifetime here), the old key goes.
    std::thread::sleep(std::time::Duration::from_millis(1100));
    let deleted = ok_json(run(
        {
            let mut short = command(&url);
            short.env("CLICKWRAP_SIGNATURE_TTL_SECS", "1");
            short
        },
        &["server-keys", "delete", "--key-id", &old],
    ));
    assert_eq!(deleted["deletedKeyId"], old.as_str());
    assert_eq!(ok_json(run(command(&url), &["server-keys", "list"])).as_array().unwrap().len(), 1);

    // The server starts again: nothing it needs was sealed with the deleted key.
    let server = start(&url, "demo");
    let demo = server.demo_credentials();
    assert_eq!(verify(&server.address, &demo, &after_rotation).status, 200, "made with the new key");
    let fresh = record_acceptance(&server.address, &demo, "rotation-user-3");
    assert_eq!(verify(&server.address, &demo, &fresh).status, 200);
    drop(server);
    drop_database(&db, &url);
}

#[test]
fn master_key_rotate_reseals_everything_so_the_old_key_is_no_longer_needed() {
    let db = TestDatabase::new_blocking();
    let url = fresh_database_url(&db);
    let dir = scratch_dir();
    let old_file = dir.join("old.key");
    let new_file = dir.join("new.key");
    std::fs::write(&old_file, format!("{TEST_MASTER_KEY}\n")).unwrap();
    let new_id = ok_json(run(bare_command(&url), &["master-key", "generate", "--out", new_file.to_str().unwrap()]))
        ["masterKeyId"]
        .as_str()
        .unwrap()
        .to_owned();

    let (_, signature) = signature_from_demo(with_key_file(&url, &old_file), "master-rotation-user");

    // The new key alone cannot open what the old one sealed: refused, naming both keys.
    let refused = run(with_key_file(&url, &new_file), &["serve"]);
    assert_eq!(refused.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains(&new_id) && stderr.contains(test_master_keys().current_id().as_str()), "{stderr}");
    assert!(stderr.contains("CLICKWRAP_MASTER_KEY_PREVIOUS_FILE"), "{stderr}");

    let mut rotate = with_key_file(&url, &new_file);
    rotate.env("CLICKWRAP_MASTER_KEY_PREVIOUS_FILE", &old_file);
    let report = ok_json(run(rotate, &["master-key", "rotate"]));
    assert_eq!(report["masterKeyId"], new_id.as_str());
    assert_eq!(report["serverKeys"], 1);
    assert_eq!(report["signingKeys"], 1);
    assert!(report["webhookSecrets"].as_u64().unwrap() >= 1, "{report}");

    // Only the new key from now on; the old one opens nothing.
    let server = start_command({
        let mut demo = with_key_file(&url, &new_file);
        demo.arg("demo");
        demo
    });
    assert_eq!(verify(&server.address, &server.demo_credentials(), &signature).status, 200);
    drop(server);
    let refused = run(with_key_file(&url, &old_file), &["serve"]);
    assert_eq!(refused.status.code(), Some(1), "{}", String::from_utf8_lossy(&refused.stderr));
    drop_database(&db, &url);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_database_made_before_master_keys_is_sealed_by_one_documented_command() {
    let db = TestDatabase::new_blocking();
    let url = fresh_database_url(&db);
    let (demo, signature) = signature_from_demo(command(&url), "legacy-user");

    // As a database of an earlier version keeps it: the server key in clear.
    let master = test_master_keys();
    let (id, sealed) = bytes_of(&url, "SELECT id, material_sealed AS bytes FROM server_keys").remove(0);
    let material =
        master.open(&sealed, &server_key_binding(&clickwrap_domain::keys::KeyId::parse(&id).unwrap())).unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
        let mut conn = AsyncPgConnection::establish(&url).await.unwrap();
        diesel::sql_query(format!(
            "UPDATE server_keys SET material = '\\x{}', material_sealed = NULL",
            hex::encode(&material)
        ))
        .execute(&mut conn)
        .await
        .unwrap();
    });

    let refused = run(command(&url), &["serve"]);
    assert_eq!(refused.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("clickwrap-server master-key rotate"), "{stderr}");

    let report = ok_json(run(command(&url), &["master-key", "rotate"]));
    assert_eq!(report["serverKeys"], 1);
    let (_, sealed) = bytes_of(&url, "SELECT id, material_sealed AS bytes FROM server_keys").remove(0);
    assert_eq!(SecretBox::key_id(&sealed).as_ref(), Some(master.current_id()));

    let server = start(&url, "serve");
    assert_eq!(verify(&server.address, &demo, &signature).status, 200, "the same key, now sealed");
    drop(server);
    drop_database(&db, &url);
}

/// Whether `program` runs; without it the test passes loudly, unless CI requires the validators.
fn available(program: &str) -> bool {
    let found = std::process::Command::new(program).arg("version").output().is_ok()
        || std::process::Command::new(program).arg("--version").output().is_ok();
    if !found {
        let required = std::env::var_os("CLICKWRAP_REQUIRE_VALIDATORS").is_some_and(|v| !v.is_empty() && v != "0");
        assert!(!required, "`{program}` is not installed but CLICKWRAP_REQUIRE_VALIDATORS is set");
        eprintln!("*** SKIPPED: `{program}` is not installed; CI installs it (.ci/run). ***");
    }
    found
}

fn openssl(dir: &Path, args: &[&str]) {
    let out = std::process::Command::new("openssl").current_dir(dir).args(args).output().unwrap();
    assert!(out.status.success(), "openssl {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn an_imported_ca_certificate_signs_pades_b_t_certificates_with_a_local_tsa_and_is_published_with_its_chain() {
    if !available("openssl") {
        return;
    }
    let dir = scratch_dir();
    // A throwaway CA and a signing certificate it issued, in a PKCS#12 file as OpenSSL writes it.
    std::fs::write(dir.join("leaf.ext"), "keyUsage=critical,digitalSignature,nonRepudiation\n").unwrap();
    openssl(
        &dir,
        &[
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:P-256",
            "-nodes",
            "-keyout",
            "ca.key",
            "-out",
            "ca.pem",
            "-days",
            "30",
            "-subj",
            "/CN=Throwaway Evidence CA",
            "-addext",
            "basicConstraints=critical,CA:TRUE",
            "-addext",
            "keyUsage=critical,keyCertSign,cRLSign",
        ],
    );
    openssl(
        &dir,
        &[
            "req",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:P-256",
            "-nodes",
            "-keyout",
            "leaf.key",
            "-out",
            "leaf.csr",
            "-subj",
            "/CN=Acme Consent Signing",
        ],
    );
    openssl(
        &dir,
        &[
            "x509",
            "-req",
            "-in",
            "leaf.csr",
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-out",
            "leaf.pem",
            "-days",
            "10",
            "-extfile",
            "leaf.ext",
        ],
    );
    openssl(
        &dir,
        &[
            "pkcs12",
            "-export",
            "-inkey",
            "leaf.key",
            "-in",
            "leaf.pem",
            "-certfile",
            "ca.pem",
            "-out",
            "id.p12",
            "-passout",
            "pass:s3cret",
        ],
    );
    let tsa_url = local_tsa(&dir);

    let db = TestDatabase::new_blocking();
    let url = fresh_database_url(&db);
    let server = start(&url, "demo");
    let generated = common::request(&server.address, "GET", "/public-client/v1/signing-certificate", &[], b"").text();
    drop(server);

    let mut wrong = command(&url);
    wrong.env("CLICKWRAP_PKCS12_PASSWORD", "wrong");
    let refused = run(wrong, &["signing-identity", "import", "--pkcs12", dir.join("id.p12").to_str().unwrap()]);
    assert!(!refused.status.success());
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("password"),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );

    let mut import = command(&url);
    import.env("CLICKWRAP_PKCS12_PASSWORD", "s3cret");
    let imported =
        ok_json(run(import, &["signing-identity", "import", "--pkcs12", dir.join("id.p12").to_str().unwrap()]));
    assert_eq!(imported["subject"], "Acme Consent Signing");
    assert_eq!(imported["issuer"], "Throwaway Evidence CA");
    assert_eq!(imported["chainLength"], 1);
    let listed = ok_json(run(command(&url), &["signing-identity", "list"]));
    assert_eq!(listed.as_array().unwrap().len(), 2);
    assert_eq!(listed[0]["fingerprint"], imported["fingerprint"]);
    assert_eq!(listed[0]["current"], true);
    assert_eq!(listed[1]["subject"], "Clickwrap certificate signing");
    assert!(listed[1]["replacedAt"].is_string());

    let server = start_command({
        let mut demo = command(&url);
        demo.env("CLICKWRAP_TSA_URL", &tsa_url).arg("demo");
        demo
    });
    let demo = server.demo_credentials();
    // The chain first (leaf, CA), then the earlier self-signed certificate, still trusted for what it signed.
    let published = common::request(&server.address, "GET", "/public-client/v1/signing-certificate", &[], b"").text();
    let leaf = std::fs::read_to_string(dir.join("leaf.pem")).unwrap();
    assert!(published.starts_with(leaf.trim()), "{published}");
    assert_eq!(published.matches("-----BEGIN CERTIFICATE-----").count(), 3, "{published}");
    assert!(published.contains(generated.trim()), "the earlier certificate is still published");

    let signature = record_acceptance(&server.address, &demo, "imported-identity-user");
    let verified = verify(&server.address, &demo, &signature);
    assert_eq!(verified.status, 200, "{}", verified.text());
    let event = verified.json()["clickwrapEventId"].as_str().unwrap().to_owned();
    let pdf = common::request(
        &server.address,
        "GET",
        &format!("/public-client/v1/clickwrap-events/{event}/certificate"),
        &[("X-APP-ID", &demo.app_id), ("X-APP-KEY", &demo.app_key)],
        b"",
    );
    assert_eq!(pdf.status, 200);
    let metrics = common::request(&server.address, "GET", "/metrics", &[], b"").text();
    assert!(metrics.contains("clickwrap_certificate_timestamps_total 1"), "{metrics}");
    drop(server);
    let pdf_path = dir.join("certificate.pdf");
    std::fs::write(&pdf_path, &pdf.body).unwrap();

    if available("pyhanko") {
        // Trusting the CA alone: the embedded chain leads to it.
        let out = std::process::Command::new("pyhanko")
            .args(["sign", "validate", "--no-revocation-check", "--trust"])
            .arg(dir.join("ca.pem"))
            .arg("--trust-replace")
            .arg(&pdf_path)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success() && text.contains(":INTACT:TRUSTED,TIMESTAMP_TOKEN<INTACT:TRUSTED>,UNTOUCHED"),
            "{text}"
        );
        // pyHanko's ETSI EN 319 102-1 validation with time: PAdES B-T.
        let out = std::process::Command::new("python3")
            .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/../pdf/tests/ades_level.py"))
            .arg(&pdf_path)
            .arg(dir.join("ca.pem"))
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
        for line in ["subfilter /ETSI.CAdES.detached", "timestamp yes", "indication AdESPassed.OK"] {
            assert!(text.contains(line), "{line}: {text}");
        }
    }
    drop_database(&db, &url);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A time-stamping authority on loopback: `openssl ts -reply` behind a minimal HTTP handler, with
/// a TSA certificate from the test CA in `dir`. Its URL.
fn local_tsa(dir: &Path) -> String {
    std::fs::write(dir.join("tsa.ext"), "keyUsage=critical,digitalSignature\nextendedKeyUsage=critical,timeStamping\n")
        .unwrap();
    openssl(
        dir,
        &[
            "req",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:P-256",
            "-nodes",
            "-keyout",
            "tsa.key",
            "-out",
            "tsa.csr",
            "-subj",
            "/CN=Throwaway Time-Stamping Authority",
        ],
    );
    openssl(
        dir,
        &[
            "x509",
            "-req",
            "-in",
            "tsa.csr",
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-out",
            "tsa.pem",
            "-days",
            "10",
            "-extfile",
            "tsa.ext",
        ],
    );
    std::fs::write(dir.join("tsa-serial"), "01\n").unwrap();
    std::fs::write(
        dir.join("tsa.cnf"),
        format!(
            "[tsa]\ndefault_tsa = tsa_config\n[tsa_config]\nserial = {d}/tsa-serial\ncrypto_device = builtin\n\
             signer_cert = {d}/tsa.pem\ncerts = {d}/ca.pem\nsigner_key = {d}/tsa.key\nsigner_digest = sha256\n\
             default_policy = 1.3.6.1.4.1.99999.1\ndigests = sha256\naccuracy = secs:1\nordering = no\n\
             tsa_name = yes\ness_cert_id_chain = no\ness_cert_id_alg = sha256\n",
            d = dir.display()
        ),
    )
    .unwrap();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/tsa", listener.local_addr().unwrap());
    let dir = dir.to_owned();
    std::thread::spawn(move || {
        use std::io::{Read, Write};
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { return };
            let mut bytes = Vec::new();
            let mut buffer = [0_u8; 4096];
            let body = loop {
                let Ok(n) = stream.read(&mut buffer) else { break Vec::new() };
                if n == 0 {
                    break Vec::new();
                }
                bytes.extend_from_slice(&buffer[..n]);
                let Some(end) = bytes.windows(4).position(|w| w == b"\r\n\r\n") else { continue };
                let head = String::from_utf8_lossy(&bytes[..end]).to_ascii_lowercase();
                let length: usize = head
                    .lines()
                    .find_map(|line| line.strip_prefix("content-length:").and_then(|v| v.trim().parse().ok()))
                    .unwrap_or(0);
                if bytes.len() >= end + 4 + length {
                    break bytes[end + 4..end + 4 + length].to_vec();
                }
            };
            std::fs::write(dir.join("query.tsq"), &body).unwrap();
            let reply = std::process::Command::new("openssl")
                .current_dir(&dir)
                .args(["ts", "-reply", "-queryfile", "query.tsq", "-config", "tsa.cnf", "-out", "reply.tsr"])
                .output()
                .unwrap();
            assert!(reply.status.success(), "{}", String::from_utf8_lossy(&reply.stderr));
            let token = std::fs::read(dir.join("reply.tsr")).unwrap();
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: application/timestamp-reply\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                token.len()
            );
            let _ = stream.write_all(head.as_bytes());
            let _ = stream.write_all(&token);
        }
    });
    url
}
