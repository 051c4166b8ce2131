//! `clickwrap-server demo` on a machine where no PostgreSQL runs: when nothing answers at a local
//! `DATABASE_URL` and PostgreSQL's server programs are installed, the demo runs a private cluster
//! of its own (a data directory under the user's data directory, a free port on 127.0.0.1, a
//! password of its own) and stops it when the demo stops. `serve` never does this.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use clickwrap_domain::ports::Random;
use clickwrap_domain::system::OsRandom;
use clickwrap_postgres::database::{self, ConnectFailure, DatabaseUrl};

/// Why the private cluster could not be started.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ClusterError {
    #[error("neither XDG_DATA_HOME nor HOME is set, so there is no data directory to keep it in")]
    NoDataDirectory,
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("`{program}` failed: {output}")]
    Program { program: String, output: String },
    #[error("{0}")]
    Url(#[from] database::InvalidDatabaseUrl),
}

impl ClusterError {
    /// What to tell the operator.
    pub(crate) fn explain(&self) -> String {
        format!(
            "the demo's private PostgreSQL could not be started: {self}\nStart a PostgreSQL server yourself \
             (PostgreSQL's server programs refuse to run as root), or point DATABASE_URL at one."
        )
    }
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> ClusterError + '_ {
    move |source| ClusterError::Io { path: path.to_path_buf(), source }
}

/// A running private cluster; stopped when dropped.
#[derive(Debug)]
pub(crate) struct PrivateCluster {
    programs: PathBuf,
    directory: PathBuf,
    url: DatabaseUrl,
}

/// A private cluster when the demo needs one: nothing answers at the configured local address and
/// the server programs are installed. `None` otherwise: the configured database is used as it is
/// (and an unreachable one is reported as `serve` reports it).
pub(crate) async fn start_if_needed(configured: &DatabaseUrl) -> Result<Option<PrivateCluster>, ClusterError> {
    if !configured.is_loopback() {
        return Ok(None);
    }
    if !matches!(database::probe(configured).await, Err(ConnectFailure::Refused { .. })) {
        return Ok(None);
    }
    let Some(programs) = server_programs() else { return Ok(None) };
    let directory = data_home().ok_or(ClusterError::NoDataDirectory)?.join("clickwrap").join("demo-postgres");
    PrivateCluster::start(programs, directory, configured).map(Some)
}

impl PrivateCluster {
    fn start(programs: PathBuf, directory: PathBuf, configured: &DatabaseUrl) -> Result<Self, ClusterError> {
        private_directory(&directory)?;
        let data = directory.join("data");
        let password_file = directory.join("password");
        if !data.join("PG_VERSION").exists() {
            write_private(&password_file, &hex::encode(OsRandom::default().bytes32()))?;
            run(Command::new(programs.join("initdb"))
                .arg("--pgdata")
                .arg(&data)
                .args(["--username=postgres", "--auth=scram-sha-256", "--encoding=UTF8", "--locale=C"])
                .arg(format!("--pwfile={}", password_file.display())))?;
        }
        let password = std::fs::read_to_string(&password_file).map_err(io_error(&password_file))?;

        let pg_ctl = programs.join("pg_ctl");
        let (port, started) = match running_port(&pg_ctl, &data) {
            // A demo that was killed left it running: it is ours all the same.
            Some(port) => (port, false),
            None => {
                let port = free_port().map_err(io_error(&directory))?;
                let mut start = Command::new(&pg_ctl);
                start
                    .arg("--pgdata")
                    .arg(&data)
                    .arg("--log")
                    .arg(directory.join("postgres.log"))
                    .args(["--wait", "--timeout=120", "--silent", "start", "--options"])
                    // TCP on the loopback address only; no Unix socket, whose usual directory may
                    // not be writable.
                    .arg(format!("-p {port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=''"));
                // Its own process group: a Ctrl-C at the terminal stops the demo, which then stops
                // PostgreSQL once the server is done with it.
                std::os::unix::process::CommandExt::process_group(&mut start, 0);
                run(&mut start)?;
                (port, true)
            }
        };
        let url = DatabaseUrl::parse(&format!(
            "postgres://postgres:{}@127.0.0.1:{port}/{}",
            password.trim(),
            configured.database()
        ))?;
        eprintln!(
            "Nothing answers at {}:{} (DATABASE_URL), so the demo {} its private PostgreSQL on 127.0.0.1:{port}, \
             data in {} (stopped when the demo stops; delete that directory to start afresh).",
            configured.host(),
            configured.port(),
            if started { "started" } else { "uses" },
            directory.display()
        );
        Ok(Self { programs, directory, url })
    }

    /// The private cluster's database, named as the configured one.
    pub(crate) fn url(&self) -> &DatabaseUrl {
        &self.url
    }

    /// Where its data (and the demo's master key) live.
    pub(crate) fn directory(&self) -> &Path {
        &self.directory
    }

    /// Where the cluster listens.
    pub(crate) fn port(&self) -> u16 {
        self.url.port()
    }
}

impl Drop for PrivateCluster {
    fn drop(&mut self) {
        let stopped = run(Command::new(self.programs.join("pg_ctl"))
            .arg("--pgdata")
            .arg(self.directory.join("data"))
            .args(["--mode=fast", "--wait", "--silent", "stop"]));
        match stopped {
            Ok(()) => eprintln!("Stopped the demo's private PostgreSQL."),
            Err(error) => eprintln!("Stopping the demo's private PostgreSQL failed: {error}"),
        }
    }
}

/// The directory that holds `initdb` and `pg_ctl`: on `PATH`, else where distributions put them
/// (Debian and Ubuntu, PGDG's RPMs, Homebrew), the newest version first.
fn server_programs() -> Option<PathBuf> {
    let on_path: Vec<PathBuf> =
        std::env::var_os("PATH").map(|p| std::env::split_paths(&p).collect()).unwrap_or_default();
    let usual = [
        ("/usr/lib/postgresql", ""),
        ("/usr", "pgsql-"),
        ("/opt/homebrew/opt", "postgresql"),
        ("/usr/local/opt", "postgresql"),
    ]
    .into_iter()
    .flat_map(|(parent, prefix)| versions_under(Path::new(parent), prefix));
    on_path.into_iter().chain(usual).find(|dir| dir.join("initdb").is_file() && dir.join("pg_ctl").is_file())
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

/// `$XDG_DATA_HOME`, else `$HOME/.local/share`.
fn data_home() -> Option<PathBuf> {
    let absolute = |name: &str| std::env::var_os(name).map(PathBuf::from).filter(|path| path.is_absolute());
    absolute("XDG_DATA_HOME").or_else(|| absolute("HOME").map(|home| home.join(".local").join("share")))
}

/// The cluster's port when it is running (from its `postmaster.pid`).
fn running_port(pg_ctl: &Path, data: &Path) -> Option<u16> {
    let status = Command::new(pg_ctl).arg("status").arg("--pgdata").arg(data).output().ok()?;
    if !status.status.success() {
        return None;
    }
    // The fourth line of postmaster.pid is the port.
    std::fs::read_to_string(data.join("postmaster.pid")).ok()?.lines().nth(3)?.trim().parse().ok()
}

fn free_port() -> std::io::Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

fn private_directory(path: &Path) -> Result<(), ClusterError> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(path).map_err(io_error(path))
}

fn write_private(path: &Path, text: &str) -> Result<(), ClusterError> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(path).map_err(io_error(path))?;
    file.write_all(text.as_bytes()).map_err(io_error(path))
}

/// Runs a PostgreSQL program to its end; its own words when it fails.
fn run(command: &mut Command) -> Result<(), ClusterError> {
    let program = command.get_program().to_string_lossy().into_owned();
    let output = command.output().map_err(io_error(Path::new(&program)))?;
    if output.status.success() {
        return Ok(());
    }
    let words: Vec<String> = [output.stderr, output.stdout]
        .iter()
        .map(|bytes| String::from_utf8_lossy(bytes).trim().to_owned())
        .filter(|text| !text.is_empty())
        .collect();
    Err(ClusterError::Program { program, output: words.join("\n") })
}

#[cfg(test)]
mod tests {
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
}
