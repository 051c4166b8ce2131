//! A throwaway PostgreSQL cluster for fault tests: the [`cluster`](crate::cluster) the demo uses too,
//! made in a temporary folder, stopped, restarted or crashed at will without disturbing any other
//! server, and removed on drop.

#![allow(clippy::panic)] // test support: a cluster that cannot start must stop the test.

pub use crate::cluster::StopMode;
use crate::cluster::{Durability, LocalCluster, ServerPrograms};
use crate::database::DatabaseUrl;

/// A PostgreSQL server of its own; stopped and deleted on drop.
#[derive(Debug)]
pub struct ThrowawayCluster {
    cluster: LocalCluster,
}

impl ThrowawayCluster {
    /// Why a cluster cannot be made on this machine, if it cannot.
    pub fn unavailable_reason() -> Option<String> {
        ServerPrograms::find().err().map(|error| error.to_string())
    }

    /// For a test: a started cluster, or `None` (the test then passes without checking, and says
    /// why on standard error) where none can be made. On CI (`CI` set) a missing cluster is a failure.
    #[allow(clippy::print_stderr)] // the skip must be seen
    pub fn start_or_skip() -> Option<Self> {
        let programs = match ServerPrograms::find() {
            Ok(programs) => programs,
            Err(reason) => {
                assert!(std::env::var_os("CI").is_none(), "CI must run the fault tests: {reason}");
                eprintln!("*** SKIPPED: no throwaway PostgreSQL cluster can be made: {reason} ***");
                return None;
            }
        };
        Some(Self::start_with(programs).unwrap_or_else(|e| panic!("cannot start a throwaway PostgreSQL cluster: {e}")))
    }

    /// Finds the server programs, makes a cluster and starts it.
    pub fn start() -> Result<Self, String> {
        Self::start_with(ServerPrograms::find().map_err(|e| e.to_string())?)
    }

    /// Makes a cluster with `programs` and starts it.
    pub fn start_with(programs: ServerPrograms) -> Result<Self, String> {
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
        let folder = std::env::temp_dir().join(format!("clickwrap-pg-{}-{nanos}", std::process::id()));
        match LocalCluster::start(programs, folder.clone(), Durability::Throwaway) {
            Ok(cluster) => Ok(Self { cluster }),
            Err(error) => {
                let _ = std::fs::remove_dir_all(&folder);
                Err(error.to_string())
            }
        }
    }

    /// The server's `postgres` database (make others with `create_database_if_missing`).
    pub fn url(&self) -> DatabaseUrl {
        self.cluster.url("postgres").unwrap_or_else(|_| unreachable!("the URL is well formed"))
    }

    pub fn port(&self) -> u16 {
        self.cluster.port()
    }

    /// Stops the server and waits until it is down.
    pub fn stop(&self, mode: StopMode) -> Result<(), String> {
        self.cluster.stop(mode).map_err(|e| e.to_string())
    }

    /// Starts the (stopped) server and waits until it accepts connections.
    pub fn start_again(&self) -> Result<(), String> {
        self.cluster.start_again().map_err(|e| e.to_string())
    }

    /// Stops the server with `mode` and starts it again.
    pub fn restart(&self, mode: StopMode) -> Result<(), String> {
        self.stop(mode)?;
        self.start_again()
    }

    /// The last lines of the server's log (for failure messages).
    pub fn log_tail(&self) -> String {
        self.cluster.log_tail()
    }
}

impl Drop for ThrowawayCluster {
    fn drop(&mut self) {
        let _ = self.cluster.stop(StopMode::Immediate);
        let _ = std::fs::remove_dir_all(self.cluster.folder());
    }
}
