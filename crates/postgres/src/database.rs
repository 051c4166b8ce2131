//! Reaching PostgreSQL: the connection URL, creating the database when it is missing, migrating
//! (one process at a time), and the connection pool.

use std::fmt;
use std::time::Duration;

use diesel::connection::SimpleConnection;
use diesel_async::async_connection_wrapper::AsyncConnectionWrapper;
use diesel_async::pooled_connection::deadpool::Pool;
use diesel_async::pooled_connection::{AsyncDieselConnectionManager, ManagerConfig, RecyclingMethod};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};

/// The SQL migrations of `migrations/` at the workspace root, compiled into the binary.
pub const MIGRATIONS: EmbeddedMigrations = embed_migrations!("../../migrations");

/// Any number will do, as long as nothing else in the database takes the same advisory lock.
const MIGRATION_LOCK: i64 = 0x636c_6963_6b77_7261; // "clickwra"

/// A `postgres://` URL. Its `Display` hides the password, so it can go into logs and errors.
#[derive(Clone, PartialEq, Eq)]
pub struct DatabaseUrl {
    /// Everything up to and including the `/` before the database name.
    prefix: String,
    database: String,
    /// `?…` with the leading `?`, or empty.
    query: String,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("DATABASE_URL must look like postgres://user[:password]@host[:port]/database")]
pub struct InvalidDatabaseUrl;

impl DatabaseUrl {
    pub fn parse(text: &str) -> Result<Self, InvalidDatabaseUrl> {
        let rest = text
            .strip_prefix("postgres://")
            .or_else(|| text.strip_prefix("postgresql://"))
            .ok_or(InvalidDatabaseUrl)?;
        let scheme_len = text.len() - rest.len();
        let slash = rest.find('/').ok_or(InvalidDatabaseUrl)?;
        let (authority, path) = rest.split_at(slash);
        let path = path.strip_prefix('/').unwrap_or(path);
        let (database, query) = match path.find('?') {
            Some(q) => path.split_at(q),
            None => (path, ""),
        };
        let valid_name = !database.is_empty()
            && database.len() <= 63
            && database.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        if authority.is_empty() || !valid_name {
            return Err(InvalidDatabaseUrl);
        }
        Ok(Self {
            prefix: text.get(..scheme_len + slash + 1).ok_or(InvalidDatabaseUrl)?.to_owned(),
            database: database.to_owned(),
            query: query.to_owned(),
        })
    }

    pub fn database(&self) -> &str {
        &self.database
    }

    /// The same server and credentials, another database.
    pub fn with_database(&self, database: &str) -> Self {
        Self { database: database.to_owned(), ..self.clone() }
    }

    /// The full URL, password included: for connecting only, never for printing.
    pub fn expose(&self) -> String {
        format!("{}{}{}", self.prefix, self.database, self.query)
    }
}

impl fmt::Display for DatabaseUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let full = self.expose();
        // Hide what lies between the user's `:` and the `@` of the authority.
        let scheme_end = full.find("://").map_or(0, |i| i + 3);
        let authority_end = self.prefix.len().saturating_sub(1);
        let authority = full.get(scheme_end..authority_end).unwrap_or_default();
        match (authority.rfind('@'), authority.find(':')) {
            (Some(at), Some(colon)) if colon < at => {
                let user = authority.get(..colon).unwrap_or_default();
                let host = authority.get(at..).unwrap_or_default();
                let head = full.get(..scheme_end).unwrap_or_default();
                let tail = full.get(authority_end..).unwrap_or_default();
                write!(f, "{head}{user}:***{host}{tail}")
            }
            _ => f.write_str(&full),
        }
    }
}

impl fmt::Debug for DatabaseUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "DatabaseUrl({self})")
    }
}

/// Why the database could not be prepared.
#[derive(Debug, thiserror::Error)]
pub enum DatabaseError {
    #[error("cannot connect to PostgreSQL at {url}: {source}")]
    Connect { url: DatabaseUrl, source: diesel::ConnectionError },
    #[error("cannot create database {database}: {source}")]
    Create { database: String, source: diesel::result::Error },
    #[error("migrating the database failed: {0}")]
    Migrate(String),
    #[error("cannot build the connection pool: {0}")]
    Pool(String),
}

/// Creates the database if it does not exist yet.
pub async fn create_database_if_missing(url: &DatabaseUrl) -> Result<(), DatabaseError> {
    let maintenance = url.with_database("postgres");
    let mut conn = AsyncPgConnection::establish(&maintenance.expose())
        .await
        .map_err(|source| DatabaseError::Connect { url: maintenance.clone(), source })?;
    let exists = database_exists(&mut conn, url.database())
        .await
        .map_err(|source| DatabaseError::Create { database: url.database().to_owned(), source })?;
    if exists {
        return Ok(());
    }
    // The name was checked to be [A-Za-z0-9_-] when the URL was parsed, so quoting is enough.
    let create = format!("CREATE DATABASE \"{}\"", url.database());
    match diesel::sql_query(create).execute(&mut conn).await {
        Ok(_) => Ok(()),
        // Another process created it at the same moment: that is what we wanted.
        Err(diesel::result::Error::DatabaseError(_, info)) if info.message().contains("already exists") => Ok(()),
        Err(source) => Err(DatabaseError::Create { database: url.database().to_owned(), source }),
    }
}

async fn database_exists(conn: &mut AsyncPgConnection, name: &str) -> Result<bool, diesel::result::Error> {
    use diesel::sql_types::Text;
    #[derive(diesel::QueryableByName)]
    struct Found {
        #[diesel(sql_type = diesel::sql_types::Bool)]
        found: bool,
    }
    let row: Found = diesel::sql_query("SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1) AS found")
        .bind::<Text, _>(name)
        .get_result(conn)
        .await?;
    Ok(row.found)
}

/// Applies every pending migration. Several processes may start at once: an advisory lock lets one
/// migrate while the others wait, then find nothing left to do.
pub async fn migrate(url: &DatabaseUrl) -> Result<(), DatabaseError> {
    let conn = AsyncPgConnection::establish(&url.expose())
        .await
        .map_err(|source| DatabaseError::Connect { url: url.clone(), source })?;
    tokio::task::spawn_blocking(move || {
        let mut conn: AsyncConnectionWrapper<AsyncPgConnection> = AsyncConnectionWrapper::from(conn);
        conn.batch_execute(&format!("SELECT pg_advisory_lock({MIGRATION_LOCK})"))
            .map_err(|e| DatabaseError::Migrate(e.to_string()))?;
        let applied = conn.run_pending_migrations(MIGRATIONS).map(|versions| versions.len());
        let unlocked = conn.batch_execute(&format!("SELECT pg_advisory_unlock({MIGRATION_LOCK})"));
        let applied = applied.map_err(|e| DatabaseError::Migrate(e.to_string()))?;
        unlocked.map_err(|e| DatabaseError::Migrate(e.to_string()))?;
        if applied > 0 {
            tracing::info!(applied, "database migrated");
        }
        Ok(())
    })
    .await
    .map_err(|e| DatabaseError::Migrate(e.to_string()))?
}

/// Pool settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolSettings {
    pub max_size: usize,
    /// How long a request waits for a free connection before the database counts as unavailable.
    pub wait_timeout: Duration,
}

impl Default for PoolSettings {
    fn default() -> Self {
        Self { max_size: 16, wait_timeout: Duration::from_secs(5) }
    }
}

pub type PgPool = Pool<AsyncPgConnection>;

/// A pool of connections. Connections are opened lazily, on first use.
pub fn pool(url: &DatabaseUrl, settings: PoolSettings) -> Result<PgPool, DatabaseError> {
    // Fast recycling: a pooled connection is handed out without a `SELECT 1` first (that would be a
    // round trip, and a statement to parse, on every checkout). A connection that died in the pool
    // fails its next query, is marked broken and is not returned to the pool.
    let mut config = ManagerConfig::default();
    config.recycling_method = RecyclingMethod::Fast;
    let manager = AsyncDieselConnectionManager::<AsyncPgConnection>::new_with_config(url.expose(), config);
    Pool::builder(manager)
        .max_size(settings.max_size)
        .wait_timeout(Some(settings.wait_timeout))
        .create_timeout(Some(settings.wait_timeout))
        .runtime(deadpool::Runtime::Tokio1)
        .build()
        .map_err(|e| DatabaseError::Pool(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_keep_their_parts_and_hide_the_password() {
        let url = DatabaseUrl::parse("postgres://app:s3cr3t@db.internal:5432/clickwrap?sslmode=require").unwrap();
        assert_eq!(url.database(), "clickwrap");
        assert_eq!(url.to_string(), "postgres://app:***@db.internal:5432/clickwrap?sslmode=require");
        assert_eq!(
            url.with_database("postgres").expose(),
            "postgres://app:s3cr3t@db.internal:5432/postgres?sslmode=require"
        );
        let plain = DatabaseUrl::parse("postgres://postgres@127.0.0.1:5432/clickwrap").unwrap();
        assert_eq!(plain.to_string(), "postgres://postgres@127.0.0.1:5432/clickwrap");
        for bad in ["", "mysql://x/y", "postgres://host", "postgres:///db", "postgres://h/db;drop", "postgres://h/"] {
            assert!(DatabaseUrl::parse(bad).is_err(), "{bad}");
        }
    }
}
