//! A PgBouncer of our own in transaction mode, on a free port in front of a PostgreSQL server, for
//! the `pooler` step of `ci` (the API and storage suites once more through it) and for
//! `cargo xtask bench --pooler`. It maps every database name to the server and lets in the one
//! role named in the server's URL without a password (the server trusts it already).

use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use clickwrap_postgres::cluster::{free_port, is_root};
use clickwrap_postgres::database::DatabaseUrl;

/// How long PgBouncer may take to listen.
const START_WITHIN: Duration = Duration::from_secs(10);

/// A running PgBouncer; stopped, and its folder removed, on drop.
pub(crate) struct Pgbouncer {
    child: Child,
    folder: PathBuf,
    /// The server's URL with the pooler's address.
    url: DatabaseUrl,
}

/// Where the `pgbouncer` program is, if anywhere (Debian installs it in /usr/sbin, which is not
/// on every user's PATH).
pub(crate) fn program() -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(["/usr/sbin", "/usr/local/sbin"].map(PathBuf::from))
        .map(|folder| folder.join("pgbouncer"))
        .find(|candidate| candidate.is_file())
}

/// Why no PgBouncer can be started here, if it cannot.
pub(crate) fn unavailable_reason() -> Option<String> {
    program().is_none().then(|| "pgbouncer is not installed (Debian: apt-get install pgbouncer)".to_owned())
}

impl Pgbouncer {
    /// Starts one in front of the server `server` names (its host, port and role).
    pub(crate) fn start(server: &DatabaseUrl) -> Result<Self, String> {
        let program = program().ok_or_else(|| unavailable_reason().unwrap_or_default())?;
        let role = server.user().unwrap_or("postgres");
        let port = free_port().map_err(|e| format!("no free port: {e}"))?;
        let folder = std::env::temp_dir().join(format!("clickwrap-pgbouncer-{}-{port}", std::process::id()));
        std::fs::create_dir_all(&folder).map_err(|e| format!("cannot create {}: {e}", folder.display()))?;
        let users = folder.join("userlist.txt");
        write(&users, &format!("\"{role}\" \"\"\n"))?;
        let config = folder.join("pgbouncer.ini");
        write(
            &config,
            &format!(
                "[databases]\n\
                 * = host={host} port={server_port}\n\
                 [pgbouncer]\n\
                 listen_addr = 127.0.0.1\n\
                 listen_port = {port}\n\
                 unix_socket_dir =\n\
                 auth_type = trust\n\
                 auth_file = {users}\n\
                 pool_mode = transaction\n\
                 max_client_conn = 2000\n\
                 default_pool_size = 20\n\
                 max_db_connections = 40\n",
                host = server.host(),
                server_port = server.port(),
                users = users.display(),
            ),
        )?;
        let log = std::fs::File::create(folder.join("pgbouncer.log"))
            .map_err(|e| format!("cannot create PgBouncer's log in {}: {e}", folder.display()))?;
        let mut command = Command::new(program);
        // PgBouncer refuses to run as root; it switches to the server's own user itself then.
        if is_root() {
            command.args(["-u", "postgres"]);
        }
        let child = command
            .arg(&config)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .map_err(|e| format!("cannot start pgbouncer: {e}"))?;
        let url = DatabaseUrl::parse(&format!("postgres://{role}@127.0.0.1:{port}/{}", server.database()))
            .map_err(|e| e.to_string())?;
        let mut pgbouncer = Self { child, folder, url };
        pgbouncer.wait_until_listening(port)?;
        Ok(pgbouncer)
    }

    /// The URL of `database` through the pooler.
    pub(crate) fn url(&self, database: &str) -> DatabaseUrl {
        self.url.with_database(database)
    }

    fn wait_until_listening(&mut self, port: u16) -> Result<(), String> {
        let address = SocketAddr::from(([127, 0, 0, 1], port));
        let started = Instant::now();
        while started.elapsed() < START_WITHIN {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Err(format!("pgbouncer exited at start ({status}): {}", self.log()));
            }
            if TcpStream::connect_timeout(&address, Duration::from_millis(200)).is_ok() {
                return Ok(());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Err(format!("pgbouncer did not listen on {address} within {START_WITHIN:?}: {}", self.log()))
    }

    /// What PgBouncer logged.
    pub(crate) fn log(&self) -> String {
        std::fs::read_to_string(self.folder.join("pgbouncer.log")).unwrap_or_default()
    }
}

impl Drop for Pgbouncer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.folder);
    }
}

/// Written readable by all: PgBouncer may run as another user.
fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The suites that reach PostgreSQL the way the server does, run once more through a PgBouncer in
/// transaction mode: the HTTP API's, the storage adapter's and the server binary's (the `pooler`
/// step of `ci`). Their stores and servers then send unnamed statements only, and servers poll for
/// other instances' news (no direct URL for LISTEN).
pub(crate) fn run_suites(root: &Path) -> Result<(), String> {
    let pgbouncer = Pgbouncer::start(&crate::bench::database_server()?)?;
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let nextest = Command::new(&cargo).args(["nextest", "--version"]).output().is_ok_and(|o| o.status.success());
    // The whole workspace, as the `test` step builds it, so nothing is compiled again; nextest
    // then runs the three packages' tests only.
    let mut command = Command::new(&cargo);
    if nextest {
        command
            .args(["nextest", "run", "--workspace", "--locked", "--no-fail-fast", "-E"])
            .arg("package(clickwrap-http) | package(clickwrap-postgres) | package(clickwrap-server)");
    } else {
        command.args(["test", "--workspace", "--locked", "--no-fail-fast"]);
    }
    let status = command
        .env("CLICKWRAP_TEST_POOLER_URL", pgbouncer.url("postgres").expose())
        .current_dir(root)
        .status()
        .map_err(|e| format!("could not start cargo: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        let log = pgbouncer.log();
        let tail: Vec<&str> = log.lines().rev().take(20).collect();
        Err(format!(
            "the suites failed through PgBouncer ({status}); its last log lines:\n{}",
            tail.into_iter().rev().collect::<Vec<_>>().join("\n")
        ))
    }
}
