//! Reaching PostgreSQL: the connection URL, creating the database when it is missing, migrating
//! (one process at a time), and the connection pool. Everything here works through a
//! transaction-mode pooler too: statements are unnamed ([`Statements::Unnamed`]) unless the pool
//! is told otherwise, and no lock or setting outlives a transaction.

use std::fmt;
use std::time::Duration;

use diesel::Connection;
use diesel::connection::SimpleConnection;
use diesel::migration::MigrationSource;
use diesel_async::RunQueryDsl;
use diesel_async::async_connection_wrapper::AsyncConnectionWrapper;
use diesel_async::pooled_connection::deadpool::Pool;
use diesel_async::pooled_connection::{AsyncDieselConnectionManager, ManagerConfig, RecyclingMethod};
use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};
use futures_util::FutureExt;

pub use crate::connection::{DbConnection, Statements};

/// The SQL migrations of `migrations/` at the workspace root, compiled into the binary.
pub const MIGRATIONS: EmbeddedMigrations = embed_migrations!("../../migrations");

/// Any number will do, as long as nothing else in the database takes the same advisory lock.
const MIGRATION_LOCK: i64 = 0x636c_6963_6b77_7261; // "clickwra"

/// Held (for one transaction) while the serving role is granted its privileges.
const GRANT_LOCK: i64 = 0x636c_6963_6b67_7261; // "clickgra"

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
        if authority.is_empty() || !valid_name || port_text(authority).is_some_and(|p| p.parse::<u16>().is_err()) {
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

    /// The role the URL connects as, when it names one.
    pub fn user(&self) -> Option<&str> {
        let (credentials, _) = self.authority().rsplit_once('@')?;
        let user = credentials.split(':').next().unwrap_or_default();
        (!user.is_empty()).then_some(user)
    }

    /// The host the URL names (an IPv6 address without its brackets).
    pub fn host(&self) -> &str {
        let address = host_and_port(self.authority());
        match address.strip_prefix('[') {
            Some(bracketed) => bracketed.split(']').next().unwrap_or_default(),
            None => address.split(':').next().unwrap_or_default(),
        }
    }

    /// The port the URL names, or PostgreSQL's 5432.
    pub fn port(&self) -> u16 {
        port_text(self.authority()).and_then(|p| p.parse().ok()).unwrap_or(5432)
    }

    /// Whether the host is this machine's loopback address.
    pub fn is_loopback(&self) -> bool {
        let host = self.host();
        host.eq_ignore_ascii_case("localhost") || host.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback())
    }

    /// `user[:password]@host[:port]`.
    fn authority(&self) -> &str {
        let start = self.prefix.find("://").map_or(0, |i| i + 3);
        self.prefix.get(start..self.prefix.len().saturating_sub(1)).unwrap_or_default()
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

/// `host[:port]` of an authority.
fn host_and_port(authority: &str) -> &str {
    authority.rsplit_once('@').map_or(authority, |(_, address)| address)
}

/// The port's text, when the authority names one.
fn port_text(authority: &str) -> Option<&str> {
    let address = host_and_port(authority);
    let after_host = match address.strip_prefix('[') {
        Some(bracketed) => bracketed.split_once(']').map(|(_, rest)| rest).unwrap_or_default(),
        None => address.find(':').map_or("", |colon| address.get(colon..).unwrap_or_default()),
    };
    after_host.strip_prefix(':')
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
    /// `url` is the configured one: it names the database that was wanted, also when the failed
    /// connection was to the server's `postgres` database (to create it).
    #[error("cannot connect to PostgreSQL for the database {} at {url}: {failure}", url.database())]
    Connect { url: DatabaseUrl, failure: ConnectFailure },
    #[error("cannot create database {database}: {source}")]
    Create { database: String, source: diesel::result::Error },
    #[error("migrating the database failed: {0}")]
    Migrate(String),
    #[error("cannot build the connection pool: {0}")]
    Pool(String),
    #[error("cannot grant the serving role {role} its privileges: {reason}")]
    Grant { role: String, reason: String },
}

/// Why no connection could be made.
#[derive(Debug, thiserror::Error)]
pub enum ConnectFailure {
    #[error("nothing answers at {address} (connection refused): is PostgreSQL running there, on that port?")]
    Refused { address: String },
    #[error("the host name {host:?} does not resolve (DNS: {detail})")]
    UnknownHost { host: String, detail: String },
    /// The server answered and refused us (authentication, a missing database, TLS), or the network
    /// failed otherwise: PostgreSQL's own words.
    #[error("{0}")]
    Other(String),
}

/// How long the reachability check waits for an address to accept a connection.
const PROBE_TIMEOUT: Duration = Duration::from_secs(3);

/// Whether anything accepts TCP connections at the URL's host and port: tells a host name that does
/// not resolve and a port where nothing listens from a server that is there.
pub async fn probe(url: &DatabaseUrl) -> Result<(), ConnectFailure> {
    let (host, port) = (url.host(), url.port());
    let addresses: Vec<std::net::SocketAddr> = tokio::net::lookup_host((host, port))
        .await
        .map_err(|e| ConnectFailure::UnknownHost { host: host.to_owned(), detail: e.to_string() })?
        .collect();
    let mut last_error = None;
    for address in &addresses {
        match tokio::time::timeout(PROBE_TIMEOUT, tokio::net::TcpStream::connect(*address)).await {
            Ok(Ok(_)) => return Ok(()),
            Ok(Err(error)) => last_error = Some(error),
            Err(_) => last_error = Some(std::io::ErrorKind::TimedOut.into()),
        }
    }
    match last_error {
        Some(error) if error.kind() == std::io::ErrorKind::ConnectionRefused => {
            Err(ConnectFailure::Refused { address: format!("{host}:{port}") })
        }
        Some(error) => Err(ConnectFailure::Other(format!("{host}:{port}: {error}"))),
        None => Err(ConnectFailure::UnknownHost { host: host.to_owned(), detail: "no address".to_owned() }),
    }
}

/// Connects to `target` (the configured database, or the server's `postgres` database to create
/// it); a failure is explained against `configured`.
async fn connect(configured: &DatabaseUrl, target: &DatabaseUrl) -> Result<DbConnection, DatabaseError> {
    match DbConnection::connect(&target.expose(), Statements::Unnamed).await {
        Ok(conn) => Ok(conn),
        Err(error) => {
            let failure = match probe(target).await {
                Ok(()) => ConnectFailure::Other(error.to_string()),
                Err(failure) => failure,
            };
            Err(DatabaseError::Connect { url: configured.clone(), failure })
        }
    }
}

/// Creates the database if it does not exist yet.
pub async fn create_database_if_missing(url: &DatabaseUrl) -> Result<(), DatabaseError> {
    // A database that takes the connection exists: a serving role need not reach `postgres`, which
    // a locked-down server may not let it connect to.
    if DbConnection::connect(&url.expose(), Statements::Unnamed).await.is_ok() {
        return Ok(());
    }
    let mut conn = connect(url, &url.with_database("postgres")).await?;
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
        Err(source) if created_meanwhile(&mut conn, url.database(), &source).await => Ok(()),
        Err(source) => Err(DatabaseError::Create { database: url.database().to_owned(), source }),
    }
}

/// Whether a failed `CREATE DATABASE` lost a race: another process created the database between
/// our check and our statement, which is what we wanted. PostgreSQL reports that as a unique
/// violation on `pg_database` (both inserted at once; ours waited for theirs to commit) or as
/// duplicate_database (42P04: theirs had committed already), reported with
/// the unknown kind; either way the database now exists, so the check is whether it does.
async fn created_meanwhile(conn: &mut DbConnection, name: &str, failure: &diesel::result::Error) -> bool {
    use diesel::result::DatabaseErrorKind::{UniqueViolation, Unknown};
    let lost_race = matches!(failure, diesel::result::Error::DatabaseError(UniqueViolation | Unknown, _));
    lost_race && database_exists(conn, name).await.unwrap_or(false)
}

async fn database_exists(conn: &mut DbConnection, name: &str) -> Result<bool, diesel::result::Error> {
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

/// Applies every pending migration, all in one transaction. Several processes may start at once:
/// a transaction-level advisory lock lets one migrate while the others wait, then find nothing left
/// to do; a lock held by the transaction (not the session) is also what a transaction-mode pooler
/// can carry. A database that is up to date is only read, so a role that does not own the schema
/// (see [`grant_to_serving_role`]) can start.
pub async fn migrate(url: &DatabaseUrl) -> Result<(), DatabaseError> {
    let mut conn = connect(url, url).await?;
    if is_up_to_date(&mut conn).await {
        return Ok(());
    }
    tokio::task::spawn_blocking(move || {
        let mut conn: AsyncConnectionWrapper<DbConnection> = AsyncConnectionWrapper::from(conn);
        let applied = conn
            .transaction(|conn| {
                conn.batch_execute(&format!("SELECT pg_advisory_xact_lock({MIGRATION_LOCK})"))?;
                conn.run_pending_migrations(MIGRATIONS).map(|versions| versions.len())
            })
            .map_err(|e| DatabaseError::Migrate(e.to_string()))?;
        if applied > 0 {
            tracing::info!(applied, "database migrated");
        }
        Ok(())
    })
    .await
    .map_err(|e| DatabaseError::Migrate(e.to_string()))?
}

/// Whether the database has applied every embedded migration. Read with a plain query: diesel's
/// own check creates its bookkeeping table first, which a role without CREATE may not do. Anything
/// that cannot be read counts as not up to date, and the migration then says what is wrong.
async fn is_up_to_date(conn: &mut DbConnection) -> bool {
    #[derive(diesel::QueryableByName)]
    struct Applied {
        #[diesel(sql_type = diesel::sql_types::Text)]
        version: String,
    }
    let Ok(applied) = diesel::sql_query("SELECT version FROM __diesel_schema_migrations").load::<Applied>(conn).await
    else {
        return false;
    };
    let Ok(embedded) = MigrationSource::<diesel::pg::Pg>::migrations(&MIGRATIONS) else { return false };
    embedded.iter().all(|m| applied.iter().any(|a| a.version == m.name().version().to_string()))
}

/// Lets `role` do what the server does at run time, and no more: read and write rows (the evidence
/// tables' triggers still refuse changes to the evidence), use the sequences. It does not own the
/// tables, so it cannot alter them, switch their triggers off or truncate them, and it cannot change
/// the migrations' bookkeeping. Default privileges cover tables a later migration adds; the grants
/// are renewed after every migration all the same.
///
/// Several processes may start at once: PostgreSQL refuses concurrent grants on one object
/// ("tuple concurrently updated"), so they take turns under a lock that ends with the transaction.
pub async fn grant_to_serving_role(owner_url: &DatabaseUrl, role: &str) -> Result<(), DatabaseError> {
    let mut conn = connect(owner_url, owner_url).await?;
    let role = quote_identifier(role);
    let database = quote_identifier(owner_url.database());
    let statements = format!(
        "BEGIN;
         SELECT pg_advisory_xact_lock({GRANT_LOCK});
         GRANT CONNECT ON DATABASE {database} TO {role};
         GRANT USAGE ON SCHEMA public TO {role};
         GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {role};
         REVOKE INSERT, UPDATE, DELETE ON __diesel_schema_migrations FROM {role};
         GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {role};
         ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO {role};
         ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO {role};
         COMMIT;"
    );
    diesel_async::SimpleAsyncConnection::batch_execute(&mut conn, &statements)
        .await
        .map_err(|e| DatabaseError::Grant { role, reason: e.to_string() })
}

/// `"name"`, with inner quotes doubled: safe for any name in SQL.
fn quote_identifier(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// Pool settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolSettings {
    pub max_size: usize,
    /// How long a request waits for a free connection before the database counts as unavailable.
    pub wait_timeout: Duration,
    /// How the pool's connections send statements: [`Statements::Unnamed`] when the URL leads to
    /// a transaction-mode pooler.
    pub statements: Statements,
}

impl Default for PoolSettings {
    fn default() -> Self {
        Self { max_size: 16, wait_timeout: Duration::from_secs(5), statements: Statements::Prepared }
    }
}

pub type PgPool = Pool<DbConnection>;

/// A pool of connections. Connections are opened lazily, on first use.
pub fn pool(url: &DatabaseUrl, settings: PoolSettings) -> Result<PgPool, DatabaseError> {
    // Fast recycling: a pooled connection is handed out without a `SELECT 1` first (that would be a
    // round trip, and a statement to parse, on every checkout). A connection that died in the pool
    // fails its next query, is marked broken and is not returned to the pool.
    let mut config = ManagerConfig::default();
    config.recycling_method = RecyclingMethod::Fast;
    let statements = settings.statements;
    config.custom_setup = Box::new(move |url| DbConnection::connect(url, statements).boxed());
    let manager = AsyncDieselConnectionManager::<DbConnection>::new_with_config(url.expose(), config);
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
        for bad in [
            "",
            "mysql://x/y",
            "postgres://host",
            "postgres:///db",
            "postgres://h/db;drop",
            "postgres://h/",
            "postgres://h:port/db",
            "postgres://h:70000/db",
        ] {
            assert!(DatabaseUrl::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_user_host_and_port_are_read_from_the_authority() {
        let url = DatabaseUrl::parse("postgres://app:s3cr3t@db.internal:6432/clickwrap").unwrap();
        assert_eq!((url.user(), url.host(), url.port()), (Some("app"), "db.internal", 6432));
        assert!(!url.is_loopback());
        let plain = DatabaseUrl::parse("postgresql://localhost/clickwrap").unwrap();
        assert_eq!((plain.user(), plain.host(), plain.port()), (None, "localhost", 5432));
        assert!(plain.is_loopback());
        let v6 = DatabaseUrl::parse("postgres://owner@[::1]:5433/clickwrap").unwrap();
        assert_eq!((v6.user(), v6.host(), v6.port()), (Some("owner"), "::1", 5433));
        assert!(v6.is_loopback());
        assert!(DatabaseUrl::parse("postgres://postgres@127.0.0.1:5432/x").unwrap().is_loopback());
    }

    #[test]
    fn identifiers_are_quoted_whatever_they_hold() {
        assert_eq!(quote_identifier("clickwrap_app"), "\"clickwrap_app\"");
        assert_eq!(quote_identifier("a\"; DROP TABLE x; --"), "\"a\"\"; DROP TABLE x; --\"");
    }
}
