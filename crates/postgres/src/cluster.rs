//! A PostgreSQL cluster of our own, for the demo (which keeps it) and for fault tests (which throw it
//! away): `initdb` in a folder, `pg_ctl` on a free port of 127.0.0.1 with a random password for the
//! `postgres` role, no Unix socket.
//!
//! The server programs are looked up in `CLICKWRAP_PG_BIN_DIR`, on `PATH`, through
//! `pg_config --bindir`, then where distributions put them, the newest version first. PostgreSQL
//! refuses to run as root, so as root every program runs as the `postgres` account (with
//! `runuser`): the cluster's `data/` and log belong to that account, the folder that holds them is
//! searchable but not listable by others (mode 711), and any folder above it that the account could
//! not pass through gets search permission for others (never read permission), as `/root` needs.

use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use clickwrap_domain::ports::Random;
use clickwrap_domain::system::OsRandom;

use crate::database::{DatabaseUrl, InvalidDatabaseUrl};

/// The account PostgreSQL runs as when we are root.
const SERVER_ACCOUNT: &str = "postgres";

/// Why a cluster cannot be found, made, started or stopped.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    #[error(
        "PostgreSQL's server programs (initdb, pg_ctl) are not installed (Debian: apt install postgresql), \
         or set CLICKWRAP_PG_BIN_DIR to their directory"
    )]
    NotInstalled,
    #[error("running as root, which PostgreSQL refuses, and there is no `{account}` account to run it as")]
    NoAccount { account: String },
    #[error(
        "running as root, which PostgreSQL refuses, and `runuser` (util-linux) is missing to run it as `{account}`"
    )]
    NoRunuser { account: String },
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("`{program}` failed: {output}")]
    Program { program: String, output: String },
    #[error("{0}")]
    Url(#[from] InvalidDatabaseUrl),
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> ClusterError + '_ {
    move |source| ClusterError::Io { path: path.to_path_buf(), source }
}

/// PostgreSQL's server programs and the account that runs them.
#[derive(Debug, Clone)]
pub struct ServerPrograms {
    bin_dir: PathBuf,
    /// The account that runs them, when we are root.
    run_as: Option<Account>,
}

/// A user account by name and ids.
#[derive(Debug, Clone)]
struct Account {
    name: String,
    uid: u32,
    gid: u32,
}

impl ServerPrograms {
    /// The installed programs, and as root the account to run them as.
    pub fn find() -> Result<Self, ClusterError> {
        let bin_dir = bin_dir().ok_or(ClusterError::NotInstalled)?;
        let run_as = server_account(is_root(), SERVER_ACCOUNT)?;
        Ok(Self { bin_dir, run_as })
    }

    /// A command running one of the programs (as the server's account when we are root), in
    /// `folder`: our own working directory may not be reachable by that account.
    fn command(&self, program: &str, folder: &Path) -> Command {
        let binary = self.bin_dir.join(program);
        let mut command = match &self.run_as {
            Some(account) => {
                let mut command = Command::new("runuser");
                command.args(["-u", &account.name, "--"]).arg(binary);
                command
            }
            None => Command::new(binary),
        };
        command.current_dir(folder);
        command
    }

    /// Gives `path` to the account that runs the programs (when that is not us).
    fn hand_over(&self, path: &Path) -> Result<(), ClusterError> {
        let Some(account) = &self.run_as else { return Ok(()) };
        std::os::unix::fs::chown(path, Some(account.uid), Some(account.gid)).map_err(io_error(path))
    }
}

/// How much a cluster's files are worth.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Durability {
    /// Kept from one run to the next (the demo's).
    Durable,
    /// Deleted after the run: `initdb` skips its fsyncs.
    Throwaway,
}

/// How the server is stopped (`pg_ctl stop -m`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopMode {
    /// Sessions are ended with `terminating connection due to administrator command`.
    Fast,
    /// Every process is killed at once, as in a crash; the next start recovers from the WAL.
    Immediate,
}

impl StopMode {
    fn as_str(self) -> &'static str {
        match self {
            StopMode::Fast => "fast",
            StopMode::Immediate => "immediate",
        }
    }
}

/// A cluster in a folder of its own (`data/`, `password`, `server.log`), running on 127.0.0.1.
/// Nothing is stopped or deleted on drop: the owner decides.
#[derive(Debug)]
pub struct LocalCluster {
    programs: ServerPrograms,
    folder: PathBuf,
    port: u16,
    password: String,
    was_running: bool,
    opened: Vec<PathBuf>,
}

impl LocalCluster {
    /// Makes the cluster in `folder` unless it holds one, and starts it on a free port unless it
    /// runs already (a killed owner left it running: it is ours all the same).
    pub fn start(programs: ServerPrograms, folder: PathBuf, durability: Durability) -> Result<Self, ClusterError> {
        let opened = prepare_folder(&programs, &folder)?;
        let password_file = folder.join("password");
        let data = folder.join("data");
        if !data.join("PG_VERSION").is_file() {
            let password = random_password();
            write_private(&password_file, &password)?;
            programs.hand_over(&password_file)?;
            let mut initdb = programs.command("initdb", &folder);
            initdb.arg("--pgdata").arg(&data).args([
                "--username=postgres",
                "--auth=scram-sha-256",
                "--encoding=UTF8",
                "--locale=C",
            ]);
            initdb.arg(format!("--pwfile={}", password_file.display()));
            if durability == Durability::Throwaway {
                initdb.arg("--no-sync");
            }
            run(&mut initdb)?;
            if durability == Durability::Throwaway {
                // `initdb` sizes `max_connections` to the shared memory it finds, as low as 20 in
                // some containers: too few for the tests' pools. 100 is PostgreSQL's own default.
                append(&data.join("postgresql.conf"), "\nmax_connections = 100\n")?;
            }
        }
        let password = std::fs::read_to_string(&password_file).map_err(io_error(&password_file))?.trim().to_owned();
        let mut cluster = Self { programs, folder, port: 0, password, was_running: false, opened };
        match cluster.running_port() {
            Some(port) => {
                cluster.port = port;
                cluster.was_running = true;
            }
            None => {
                cluster.port = free_port().map_err(io_error(&cluster.folder))?;
                cluster.start_again()?;
            }
        }
        Ok(cluster)
    }

    /// The database `database` of the cluster, as `postgres` with its password.
    pub fn url(&self, database: &str) -> Result<DatabaseUrl, ClusterError> {
        Ok(DatabaseUrl::parse(&format!("postgres://postgres:{}@127.0.0.1:{}/{database}", self.password, self.port))?)
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// The folder that holds `data/`, `password` and `server.log`.
    pub fn folder(&self) -> &Path {
        &self.folder
    }

    /// Whether `start` found it running already.
    pub fn was_running(&self) -> bool {
        self.was_running
    }

    /// The folders above the cluster that `start` made searchable for the server's account.
    pub fn opened_folders(&self) -> &[PathBuf] {
        &self.opened
    }

    /// Starts the (stopped) server on its port and waits until it accepts connections.
    pub fn start_again(&self) -> Result<(), ClusterError> {
        let mut start = self.programs.command("pg_ctl", &self.folder);
        start
            .arg("--pgdata")
            .arg(self.data())
            .arg("--log")
            .arg(self.log())
            .args(["--wait", "--timeout=120", "--silent", "start", "--options"])
            // TCP on the loopback address only; no Unix socket, whose usual directory may not be
            // writable.
            .arg(format!("-p {} -c listen_addresses=127.0.0.1 -c unix_socket_directories=''", self.port));
        // Its own process group: a Ctrl-C at the terminal reaches the program that started it,
        // which stops the server once it is done with it.
        std::os::unix::process::CommandExt::process_group(&mut start, 0);
        run(&mut start).map(|_| ())
    }

    /// Stops the server and waits until it is down.
    pub fn stop(&self, mode: StopMode) -> Result<(), ClusterError> {
        let mut stop = self.programs.command("pg_ctl", &self.folder);
        stop.arg("--pgdata").arg(self.data()).args(["--mode", mode.as_str(), "--wait", "--timeout=60", "stop"]);
        run(&mut stop).map(|_| ())
    }

    /// The last lines of the server's log (for failure messages).
    pub fn log_tail(&self) -> String {
        let text = std::fs::read_to_string(self.log()).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        lines.get(lines.len().saturating_sub(20)..).unwrap_or_default().join("\n")
    }

    fn data(&self) -> PathBuf {
        self.folder.join("data")
    }

    fn log(&self) -> PathBuf {
        self.folder.join("server.log")
    }

    /// The port of the running server (from its `postmaster.pid`), if it runs.
    fn running_port(&self) -> Option<u16> {
        let mut status = self.programs.command("pg_ctl", &self.folder);
        status.arg("status").arg("--pgdata").arg(self.data());
        run(&mut status).ok()?;
        // The fourth line of postmaster.pid is the port.
        std::fs::read_to_string(self.data().join("postmaster.pid")).ok()?.lines().nth(3)?.trim().parse().ok()
    }
}

/// Makes `folder` (private to us) and, as root, what the server's account needs: `data/` and the log
/// its own, and a way in. The folders that were there and had to be made searchable for the
/// account, outermost first.
fn prepare_folder(programs: &ServerPrograms, folder: &Path) -> Result<Vec<PathBuf>, ClusterError> {
    let make = |path: &Path, mode: u32| {
        std::fs::DirBuilder::new().recursive(true).mode(mode).create(path).map_err(io_error(path))
    };
    let Some(account) = &programs.run_as else {
        make(folder, 0o700)?;
        return Ok(Vec::new());
    };
    // Others may pass through the folders made here, not list them.
    make(folder, 0o711)?;
    set_mode(folder, 0o711)?;
    let mut opened = Vec::new();
    let mut above: Vec<&Path> = folder.ancestors().skip(1).collect();
    above.reverse();
    for directory in above {
        // Whether the server's account may pass through it, asked of the account itself.
        if !succeeds(Command::new("runuser").args(["-u", &account.name, "--", "test", "-x"]).arg(directory)) {
            let mode = std::fs::metadata(directory).map_err(io_error(directory))?.permissions().mode();
            set_mode(directory, mode | 0o001)?;
            opened.push(directory.to_path_buf());
        }
    }

    let data = folder.join("data");
    make(&data, 0o700)?;
    programs.hand_over(&data)?;
    let log = folder.join("server.log");
    let mut options = std::fs::OpenOptions::new();
    options.append(true).create(true).mode(0o600);
    options.open(&log).map_err(io_error(&log))?;
    programs.hand_over(&log)?;
    Ok(opened)
}

fn set_mode(path: &Path, mode: u32) -> Result<(), ClusterError> {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).map_err(io_error(path))
}

/// The account's user (`-u`) or group (`-g`) id.
fn account_id(account: &str, which: &str) -> Result<u32, ClusterError> {
    let output = run(Command::new("id").args([which, account]))?;
    let text = String::from_utf8_lossy(&output.stdout);
    text.trim().parse().map_err(|_| ClusterError::Program {
        program: "id".to_owned(),
        output: format!("`id {which} {account}` printed {text:?}, not a number"),
    })
}

/// The account to run the server as: none unless we are root, and then one that exists and
/// `runuser` to switch to it.
fn server_account(root: bool, name: &str) -> Result<Option<Account>, ClusterError> {
    if !root {
        return Ok(None);
    }
    // `id -u` fails for an account that does not exist.
    let uid = account_id(name, "-u").map_err(|_| ClusterError::NoAccount { account: name.to_owned() })?;
    if !succeeds(Command::new("runuser").arg("--version")) {
        return Err(ClusterError::NoRunuser { account: name.to_owned() });
    }
    Ok(Some(Account { name: name.to_owned(), uid, gid: account_id(name, "-g")? }))
}

/// The directory that holds `initdb` and `pg_ctl`.
fn bin_dir() -> Option<PathBuf> {
    let has_programs = |dir: &Path| dir.join("initdb").is_file() && dir.join("pg_ctl").is_file();
    if let Some(dir) = std::env::var_os("CLICKWRAP_PG_BIN_DIR") {
        return Some(PathBuf::from(dir)).filter(|dir| has_programs(dir));
    }
    let on_path: Vec<PathBuf> =
        std::env::var_os("PATH").map(|path| std::env::split_paths(&path).collect()).unwrap_or_default();
    let from_pg_config = Command::new("pg_config")
        .arg("--bindir")
        .stderr(Stdio::null())
        .output()
        .ok()
        .filter(|output| output.status.success())
        .map(|output| PathBuf::from(String::from_utf8_lossy(&output.stdout).trim()));
    // Debian and Ubuntu, PGDG's RPMs, Homebrew.
    let usual = [
        ("/usr/lib/postgresql", ""),
        ("/usr", "pgsql-"),
        ("/opt/homebrew/opt", "postgresql"),
        ("/usr/local/opt", "postgresql"),
    ]
    .into_iter()
    .flat_map(|(parent, prefix)| versions_under(Path::new(parent), prefix));
    on_path.into_iter().chain(from_pg_config).chain(usual).find(|dir| has_programs(dir))
}

/// `<parent>/<prefix>[@]<version>/bin`, the highest major version first.
fn versions_under(parent: &Path, prefix: &str) -> Vec<PathBuf> {
    let mut found: Vec<(u32, PathBuf)> = std::fs::read_dir(parent)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            let version = name.strip_prefix(prefix)?.trim_start_matches('@');
            let major = version.split('.').next()?.parse::<u32>().ok()?;
            Some((major, entry.path().join("bin")))
        })
        .collect();
    found.sort_by_key(|(major, _)| std::cmp::Reverse(*major));
    found.into_iter().map(|(_, path)| path).collect()
}

fn random_password() -> String {
    OsRandom::default().bytes32().iter().map(|byte| format!("{byte:02x}")).collect()
}

/// Appends `text` to the file at `path`, which keeps its owner and mode.
fn append(path: &Path, text: &str) -> Result<(), ClusterError> {
    let mut file = std::fs::OpenOptions::new().append(true).open(path).map_err(io_error(path))?;
    file.write_all(text.as_bytes()).map_err(io_error(path))
}

fn write_private(path: &Path, text: &str) -> Result<(), ClusterError> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true).mode(0o600);
    let mut file = options.open(path).map_err(io_error(path))?;
    file.write_all(text.as_bytes()).map_err(io_error(path))
}

/// A port of 127.0.0.1 nothing listens on now (asked of the kernel, then released for a server to
/// take).
pub fn free_port() -> std::io::Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

/// Whether this process runs as root (which PostgreSQL and PgBouncer refuse to run as).
pub fn is_root() -> bool {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
}

fn succeeds(command: &mut Command) -> bool {
    command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success())
}

/// Runs a program to its end; its own words when it fails.
fn run(command: &mut Command) -> Result<Output, ClusterError> {
    let program = command.get_program().to_string_lossy().into_owned();
    let output = command.stdin(Stdio::null()).output().map_err(io_error(Path::new(&program)))?;
    if output.status.success() {
        return Ok(output);
    }
    let words: Vec<String> = [&output.stderr, &output.stdout]
        .iter()
        .map(|bytes| String::from_utf8_lossy(bytes).trim().to_owned())
        .filter(|text| !text.is_empty())
        .collect();
    let arguments: Vec<String> = command.get_args().map(|arg| arg.to_string_lossy().into_owned()).collect();
    Err(ClusterError::Program { program: format!("{program} {}", arguments.join(" ")), output: words.join("\n") })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]

    use super::*;

    #[test]
    fn distribution_directories_are_tried_newest_first() {
        let root = std::env::temp_dir().join(format!("clickwrap-pg-dirs-{}", uuid::Uuid::now_v7()));
        for name in ["9.6", "15", "13", "notes"] {
            std::fs::create_dir_all(root.join(name)).unwrap();
        }
        let found = versions_under(&root, "");
        let names: Vec<String> =
            found.iter().map(|p| p.parent().unwrap().file_name().unwrap().to_string_lossy().into_owned()).collect();
        assert_eq!(names, ["15", "13", "9.6"]);
        assert!(found.iter().all(|p| p.ends_with("bin")));
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn as_root_without_the_server_account_the_message_names_it() {
        let error = server_account(true, "clickwrap-no-such-account").unwrap_err();
        assert!(matches!(&error, ClusterError::NoAccount { account } if account == "clickwrap-no-such-account"));
        assert_eq!(
            error.to_string(),
            "running as root, which PostgreSQL refuses, and there is no `clickwrap-no-such-account` account to run it as"
        );
    }

    #[test]
    fn not_as_root_no_account_is_needed() {
        assert!(server_account(false, "clickwrap-no-such-account").unwrap().is_none());
    }
}
