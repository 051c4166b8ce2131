//! `clickwrap-server demo` on a machine where no PostgreSQL runs: when nothing answers at a local
//! `DATABASE_URL` and PostgreSQL's server programs are installed, the demo runs a private cluster
//! of its own (`clickwrap_postgres::cluster`, kept under the user's data directory) and stops it
//! when the demo stops. `serve` never does this.

use std::path::{Path, PathBuf};

use clickwrap_postgres::cluster::{ClusterError, Durability, LocalCluster, ServerPrograms, StopMode};
use clickwrap_postgres::database::{self, ConnectFailure, DatabaseUrl};

/// Why the private cluster could not be started.
#[derive(Debug, thiserror::Error)]
pub(crate) enum DemoClusterError {
    #[error("neither XDG_DATA_HOME nor HOME is set, so there is no data directory to keep it in")]
    NoDataDirectory,
    #[error("{0}")]
    Cluster(#[from] ClusterError),
}

impl DemoClusterError {
    /// What to tell the operator.
    pub(crate) fn explain(&self) -> String {
        format!(
            "the demo's private PostgreSQL could not be started: {self}\nStart a PostgreSQL server yourself, \
             or point DATABASE_URL at one."
        )
    }
}

/// A running private cluster; stopped when dropped.
#[derive(Debug)]
pub(crate) struct PrivateCluster {
    cluster: LocalCluster,
    url: DatabaseUrl,
}

/// A private cluster when the demo needs one: nothing answers at the configured local address and
/// the server programs are installed. `None` otherwise: the configured database is used as it is
/// (and an unreachable one is reported as `serve` reports it).
pub(crate) async fn start_if_needed(configured: &DatabaseUrl) -> Result<Option<PrivateCluster>, DemoClusterError> {
    if !configured.is_loopback() {
        return Ok(None);
    }
    if !matches!(database::probe(configured).await, Err(ConnectFailure::Refused { .. })) {
        return Ok(None);
    }
    let programs = match ServerPrograms::find() {
        Err(ClusterError::NotInstalled) => return Ok(None),
        found => found?,
    };
    let directory = data_home().ok_or(DemoClusterError::NoDataDirectory)?.join("clickwrap").join("demo-postgres");
    PrivateCluster::start(programs, directory, configured).map(Some)
}

impl PrivateCluster {
    fn start(programs: ServerPrograms, directory: PathBuf, configured: &DatabaseUrl) -> Result<Self, DemoClusterError> {
        let cluster = LocalCluster::start(programs, directory, Durability::Durable)?;
        let url = cluster.url(configured.database())?;
        for folder in cluster.opened_folders() {
            eprintln!(
                "Gave other accounts search permission (not read permission) on {}, so that PostgreSQL's \
                 account reaches the demo's data.",
                folder.display()
            );
        }
        eprintln!(
            "Nothing answers at {}:{} (DATABASE_URL), so the demo {} its private PostgreSQL on 127.0.0.1:{}, \
             data in {} (stopped when the demo stops; delete that directory to start afresh).",
            configured.host(),
            configured.port(),
            if cluster.was_running() { "uses" } else { "started" },
            cluster.port(),
            cluster.folder().display()
        );
        Ok(Self { cluster, url })
    }

    /// The private cluster's database, named as the configured one.
    pub(crate) fn url(&self) -> &DatabaseUrl {
        &self.url
    }

    /// Where its data (and the demo's master key) live.
    pub(crate) fn directory(&self) -> &Path {
        self.cluster.folder()
    }

    /// Where the cluster listens.
    pub(crate) fn port(&self) -> u16 {
        self.cluster.port()
    }
}

impl Drop for PrivateCluster {
    fn drop(&mut self) {
        match self.cluster.stop(StopMode::Fast) {
            Ok(()) => eprintln!("Stopped the demo's private PostgreSQL."),
            Err(error) => eprintln!("Stopping the demo's private PostgreSQL failed: {error}"),
        }
    }
}

/// `$XDG_DATA_HOME`, else `$HOME/.local/share`.
fn data_home() -> Option<PathBuf> {
    let absolute = |name: &str| std::env::var_os(name).map(PathBuf::from).filter(|path| path.is_absolute());
    absolute("XDG_DATA_HOME").or_else(|| absolute("HOME").map(|home| home.join(".local").join("share")))
}
