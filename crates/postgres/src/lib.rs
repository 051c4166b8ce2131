//! PostgreSQL storage for the clickwrap consent service.
//!
//! [`PgStore`] implements every storage port of `clickwrap-domain` over a pool of diesel-async
//! connections of its own ([`database::DbConnection`]), which talk to PostgreSQL through
//! tokio-postgres (no libpq) directly or through a transaction-mode pooler. The schema lives in the
//! workspace's `migrations/` and is compiled into the binary ([`database::MIGRATIONS`]).

mod connection;
mod convert;
mod errors;
mod schema;
mod statement;

mod apps;
mod audit;
mod demo;
mod events;
mod keys;
mod ledger;
mod limits;
mod retention;
mod signing;
mod templates;
mod tenants;
mod unverified;

pub mod cluster;
pub mod database;
pub mod deliveries;
pub mod notifications;
pub use demo::{DemoInstallation, DemoSecrets, DemoSetupLock, lock_demo_setup};
pub use keys::{ResealAllError, ResealCounts};
pub use retention::{PurgedDeliveries, WEBHOOK_PURGE_LOCK};
pub use signing::{SigningIdentityRecord, StoredSigningIdentity};
#[cfg(feature = "test-support")]
pub mod statement_log;
#[cfg(feature = "test-support")]
pub mod test_cluster;
#[cfg(feature = "test-support")]
pub mod test_db;

use connection::DbConnection;
use database::PgPool;
use diesel_async::pooled_connection::deadpool::Object;

use clickwrap_domain::ports::StorageError;

/// Every storage port, backed by PostgreSQL.
#[derive(Clone)]
pub struct PgStore {
    pool: PgPool,
}

impl std::fmt::Debug for PgStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let status = self.pool.status();
        f.debug_struct("PgStore").field("size", &status.size).field("available", &status.available).finish()
    }
}

impl PgStore {
    pub fn new(pool: PgPool) -> Self {
        Self { pool }
    }

    pub fn pool(&self) -> &PgPool {
        &self.pool
    }

    /// Closes every idle pooled connection; the next checkouts open new ones on the runtime that
    /// asks. For the server's stop: a connection's socket is driven by a task of the runtime that
    /// opened it, so the connections the HTTP workers opened die with the workers' runtimes, and
    /// the last background work (the final rate-limit sync, the dispatcher giving back its claims)
    /// would meet them closed, possibly in the middle of a statement.
    pub fn close_idle_connections(&self) {
        self.pool.retain(|_, _| false);
    }

    async fn conn(&self) -> Result<Object<DbConnection>, StorageError> {
        self.pool.get().await.map_err(errors::from_pool)
    }

    /// Whether the database answers a trivial query (for readiness probes).
    pub async fn ping(&self) -> Result<(), StorageError> {
        use diesel_async::RunQueryDsl;
        let mut conn = self.conn().await?;
        diesel::sql_query("SELECT 1").execute(&mut conn).await.map(|_| ()).map_err(errors::from_diesel)
    }
}
