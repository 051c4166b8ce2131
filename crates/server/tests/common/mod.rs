//! The real binary, started the way operators and the acceptance tests start it, and a small
//! HTTP/1.1 client to speak to it.

#![allow(dead_code, unreachable_pub, clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use clickwrap_postgres::test_db::TestDatabase;

pub const BINARY: &str = env!("CARGO_BIN_EXE_clickwrap-server");

/// A database URL of the test server for a database the binary must create itself.
pub fn fresh_database_url(db: &TestDatabase) -> String {
    db.url().with_database(&format!("{}_bin", db.url().database())).expose()
}

/// The master key the test servers run with (32 bytes of 0x42, base64).
pub const TEST_MASTER_KEY: &str = "QkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkI=";

/// The binary with a clean environment: the database, a free port, JSON logs, no drain period on
/// stop (tests that drain set one), [`TEST_MASTER_KEY`].
pub fn command(database_url: &str) -> Command {
    let mut command = bare_command(database_url);
    command.env("CLICKWRAP_MASTER_KEY", TEST_MASTER_KEY);
    command
}

/// [`command`] without a master key. When the tests run through a transaction-mode pooler
/// (`CLICKWRAP_TEST_POOLER_URL`), the server reaches the test server's databases through it, with
/// `CLICKWRAP_DATABASE_POOLER=transaction` and no direct URL.
pub fn bare_command(database_url: &str) -> Command {
    let mut command = Command::new(BINARY);
    command
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("DATABASE_URL", database_url)
        .env("CLICKWRAP_LISTEN", "127.0.0.1:0")
        .env("CLICKWRAP_LOG_FORMAT", "json")
        .env("CLICKWRAP_SHUTDOWN_DRAIN_SECS", "0")
        .stdin(Stdio::null());
    let pooled = clickwrap_postgres::database::DatabaseUrl::parse(database_url)
        .ok()
        .and_then(|url| clickwrap_postgres::test_db::through_pooler(&url));
    if let Some(pooled) = pooled {
        command.env("DATABASE_URL", pooled.expose()).env("CLICKWRAP_DATABASE_POOLER", "transaction");
    }
    command
}

/// A running server; killed on drop.
pub struct Server {
    pub child: Child,
    pub address: String,
    /// The log lines (stderr) up to the one that says where it listens.
    pub startup_logs: Vec<String>,
    /// Log lines (stderr) after those, as they come.
    pub logs: mpsc::Receiver<String>,
    /// What it printed (stdout), as it comes.
    pub stdout: mpsc::Receiver<String>,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn lines(stream: impl Read + Send + 'static) -> mpsc::Receiver<String> {
    let (sender, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stream).lines().map_while(Result::ok) {
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    lines
}

/// Starts `clickwrap-server <subcommand>` and waits until it listens.
pub fn start(database_url: &str, subcommand: &str) -> Server {
    let mut prepared = command(database_url);
    prepared.arg(subcommand);
    start_command(prepared)
}

/// Starts a prepared `clickwrap-server serve` or `demo` and waits until it listens.
pub fn start_command(mut command: Command) -> Server {
    let mut child = command.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let logs = lines(child.stderr.take().unwrap());
    let stdout = lines(child.stdout.take().unwrap());
    let mut startup_logs = Vec::new();
    let address = loop {
        let line = logs
            .recv_timeout(Duration::from_secs(60))
            .unwrap_or_else(|_| panic!("the server did not report its address; it logged {startup_logs:#?}"));
        let listening = serde_json::from_str::<serde_json::Value>(&line).ok().and_then(|entry| {
            let message = entry["message"].as_str()?;
            message.starts_with("listening on").then(|| entry["address"].as_str().map(str::to_owned))?
        });
        startup_logs.push(line);
        if let Some(address) = listening {
            break address;
        }
    };
    Server { child, address, startup_logs, logs, stdout }
}

/// Sends a raw request (which should say `Connection: close`) and returns the raw answer.
pub fn http(address: &str, request: &str) -> String {
    String::from_utf8_lossy(&exchange(address, request.as_bytes())).into_owned()
}

fn exchange(address: &str, request: &[u8]) -> Vec<u8> {
    let mut stream = TcpStream::connect(address).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    stream.write_all(request).unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).unwrap();
    response
}

pub fn get(address: &str, path: &str) -> String {
    http(address, &format!("GET {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n"))
}

/// An answer, read apart.
#[derive(Debug)]
pub struct Response {
    pub status: u16,
    /// Names in lowercase, in the order received.
    pub headers: Vec<(String, String)>,
    /// The body, de-chunked.
    pub body: Vec<u8>,
}

impl Response {
    pub fn header(&self, name: &str) -> Option<&str> {
        let name = name.to_ascii_lowercase();
        self.headers.iter().find(|(n, _)| *n == name).map(|(_, v)| v.as_str())
    }

    pub fn headers(&self, name: &str) -> impl Iterator<Item = &str> {
        let name = name.to_ascii_lowercase();
        self.headers.iter().filter(move |(n, _)| *n == name).map(|(_, v)| v.as_str())
    }

    /// The media type, without parameters.
    pub fn media_type(&self) -> Option<&str> {
        self.header("content-type").map(|v| v.split(';').next().unwrap_or_default().trim())
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text()))
    }
}

/// Sends `method path` with `headers` and `body` over a new connection and reads the answer.
pub fn request(address: &str, method: &str, path: &str, headers: &[(&str, &str)], body: &[u8]) -> Response {
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n");
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    let sized = headers.iter().any(|(name, _)| name.eq_ignore_ascii_case("content-length"));
    if !sized && (!body.is_empty() || method == "POST") {
        head.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    head.push_str("\r\n");
    let mut raw = head.into_bytes();
    raw.extend_from_slice(body);
    parse(&exchange(address, &raw))
}

fn parse(raw: &[u8]) -> Response {
    let end = raw.windows(4).position(|w| w == b"\r\n\r\n").expect("an HTTP answer has a head");
    let head = String::from_utf8_lossy(&raw[..end]);
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap_or_default();
    let status = status_line.split(' ').nth(1).and_then(|s| s.parse().ok()).expect("a status line");
    let headers: Vec<(String, String)> = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.trim().to_ascii_lowercase(), value.trim().to_owned()))
        .collect();
    let rest = &raw[end + 4..];
    let chunked = headers.iter().any(|(n, v)| n == "transfer-encoding" && v.eq_ignore_ascii_case("chunked"));
    let body = if chunked { dechunk(rest) } else { rest.to_vec() };
    Response { status, headers, body }
}

fn dechunk(mut rest: &[u8]) -> Vec<u8> {
    let mut body = Vec::new();
    while let Some(line_end) = rest.windows(2).position(|w| w == b"\r\n") {
        let size_text = String::from_utf8_lossy(&rest[..line_end]);
        let size =
            usize::from_str_radix(size_text.split(';').next().unwrap_or_default().trim(), 16).expect("a chunk size");
        rest = &rest[line_end + 2..];
        if size == 0 {
            break;
        }
        body.extend_from_slice(&rest[..size]);
        rest = &rest[size + 2..];
    }
    body
}

pub fn drop_database(db: &TestDatabase, url: &str) {
    let name = url.rsplit('/').next().unwrap().to_owned();
    let admin = db.url().with_database("postgres").expose();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async move {
        use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
        let mut conn = AsyncPgConnection::establish(&admin).await.unwrap();
        diesel::sql_query(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)")).execute(&mut conn).await.unwrap();
    });
}

/// What `clickwrap-server demo` prints about the installation it made.
#[derive(Debug, Clone)]
pub struct DemoCredentials {
    pub tenant_id: String,
    pub app_id: String,
    pub app_key: String,
    pub operator_token: String,
    pub template_id: String,
}

impl Server {
    /// Reads the demo's printed credentials (call once, right after start).
    pub fn demo_credentials(&self) -> DemoCredentials {
        let mut value = std::collections::HashMap::new();
        while value.len() < 5 {
            let line = self.stdout.recv_timeout(Duration::from_secs(30)).expect("the demo prints its credentials");
            for label in ["Tenant ID", "App ID", "App Key", "Operator token", "Template ID"] {
                if let Some(rest) = line.trim().strip_prefix(&format!("{label}:")) {
                    value.insert(label, rest.split_whitespace().next().unwrap_or_default().to_owned());
                }
            }
        }
        DemoCredentials {
            tenant_id: value["Tenant ID"].clone(),
            app_id: value["App ID"].clone(),
            app_key: value["App Key"].clone(),
            operator_token: value["Operator token"].clone(),
            template_id: value["Template ID"].clone(),
        }
    }
}

/// `POST /clickwrap` for a new end user accepting the demo template's current version; the
/// Service Signature.
pub fn record_acceptance(address: &str, demo: &DemoCredentials, end_user: &str) -> String {
    record_action(address, demo, end_user, "ACCEPTED", None)
}

/// `POST /clickwrap` for a new end user's `action` (ACCEPTED or DECLINED) on the demo template's
/// current version, with placeholder values (a JSON object) if given; the Service Signature.
pub fn record_action(
    address: &str,
    demo: &DemoCredentials,
    end_user: &str,
    action: &str,
    placeholders: Option<serde_json::Value>,
) -> String {
    record_action_with(address, demo, end_user, action, placeholders, &[])
}

/// [`record_action`] with extra request `headers` (a browser's `User-Agent`) on both calls.
pub fn record_action_with(
    address: &str,
    demo: &DemoCredentials,
    end_user: &str,
    action: &str,
    placeholders: Option<serde_json::Value>,
    headers: &[(&str, &str)],
) -> String {
    let placeholder_query = placeholders.as_ref().map_or_else(String::new, |values| {
        let encoded: String = values
            .to_string()
            .bytes()
            .map(|b| if b.is_ascii_alphanumeric() { char::from(b).to_string() } else { format!("%{b:02X}") })
            .collect();
        format!("&templatePlaceholders={encoded}")
    });
    let check = request(
        address,
        "GET",
        &format!(
            "/public-client/v1/clickwrap?appId={}&clickwrapTemplateId={}&endUserId={end_user}{placeholder_query}",
            demo.app_id, demo.template_id
        ),
        headers,
        b"",
    );
    assert_eq!(check.status, 200, "{}", check.text());
    let version = check.json();
    let action = serde_json::json!({
        "appId": demo.app_id,
        "clickwrapTemplateId": demo.template_id,
        "clickwrapTemplateVersion": version["clickwrapTemplateVersion"],
        "clickwrapTemplateVersionMinor": version["clickwrapTemplateVersionMinor"],
        "endUserId": end_user,
        "action": action,
        "language": version["language"],
        "templatePlaceholders": placeholders,
        "contentHash": version["contentHash"],
        "presentedAt": time::OffsetDateTime::now_utc().format(&time::format_description::well_known::Rfc3339).unwrap(),
        "presentation": {"mode": "INLINE", "agreementMode": "CHECKBOX", "acceptLabel": "Accept", "checkboxLabel": "I agree"},
    });
    let json = [("Content-Type", "application/json")];
    let recorded = request(
        address,
        "POST",
        "/public-client/v1/clickwrap",
        &[&json[..], headers].concat(),
        action.to_string().as_bytes(),
    );
    assert_eq!(recorded.status, 201, "{}", recorded.text());
    recorded.json()["serviceSignature"].as_str().expect("a Service Signature").to_owned()
}

/// `POST /clickwrap/verify` with the demo app's credentials.
pub fn verify(address: &str, demo: &DemoCredentials, signature: &str) -> Response {
    request(
        address,
        "POST",
        "/public-client/v1/clickwrap/verify",
        &[("Content-Type", "application/json"), ("X-APP-ID", &demo.app_id), ("X-APP-KEY", &demo.app_key)],
        serde_json::json!({"serviceSignature": signature}).to_string().as_bytes(),
    )
}
