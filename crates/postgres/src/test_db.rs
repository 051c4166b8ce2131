//! Throw-away databases for tests. A template database is migrated once per migration set (across
//! test processes, under an advisory lock); each test gets `CREATE DATABASE … TEMPLATE …`, which
//! takes milliseconds, and drops it `WITH (FORCE)` when the [`TestDatabase`] goes away.
//!
//! The server is `CLICKWRAP_TEST_DATABASE_URL` (default `postgres://postgres@127.0.0.1:5432/postgres`).
//! With `CLICKWRAP_TEST_POOLER_URL` (a transaction-mode pooler that maps every database name to
//! that server, like PgBouncer's `* = host=… port=…`), stores and test servers reach their
//! databases through the pooler instead, as operators behind one do.

#![allow(clippy::expect_used, clippy::panic)] // test support: a broken test database must stop the test.

use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};

use crate::PgStore;
use crate::database::{DatabaseUrl, PoolSettings, Statements, migrate, pool};

const DEFAULT_SERVER: &str = "postgres://postgres@127.0.0.1:5432/postgres";
const TEMPLATE_LOCK: i64 = 0x636c_6963_6b74_706c; // "clicktpl"

/// A fresh, migrated database of its own, dropped on drop.
#[derive(Debug)]
pub struct TestDatabase {
    url: DatabaseUrl,
    server: DatabaseUrl,
}

/// The transaction-mode pooler in front of the test server, when the tests are to go through one.
fn pooler_url() -> Option<DatabaseUrl> {
    let text = std::env::var("CLICKWRAP_TEST_POOLER_URL").ok().filter(|t| !t.is_empty())?;
    Some(DatabaseUrl::parse(&text).expect("CLICKWRAP_TEST_POOLER_URL must be a postgres:// URL"))
}

/// `url` through the pooler, when the tests go through one and `url` is a database of the test
/// server that the pooler's role reaches (other roles and other servers are not behind it).
pub fn through_pooler(url: &DatabaseUrl) -> Option<DatabaseUrl> {
    let pooler = pooler_url()?;
    let server = server_url();
    let behind = url.host() == server.host() && url.port() == server.port() && url.user() == pooler.user();
    behind.then(|| pooler.with_database(url.database()))
}

fn server_url() -> DatabaseUrl {
    let text = std::env::var("CLICKWRAP_TEST_DATABASE_URL").unwrap_or_else(|_| DEFAULT_SERVER.to_owned());
    DatabaseUrl::parse(&text).expect("CLICKWRAP_TEST_DATABASE_URL must be a postgres:// URL")
}

async fn admin(server: &DatabaseUrl) -> AsyncPgConnection {
    AsyncPgConnection::establish(&server.expose()).await.unwrap_or_else(|e| {
        panic!(
            "tests need PostgreSQL at {server}: {e}. Start it (e.g. `pg_ctlcluster <version> main start`) \
             or set CLICKWRAP_TEST_DATABASE_URL"
        )
    })
}

async fn exists(conn: &mut AsyncPgConnection, name: &str) -> bool {
    #[derive(diesel::QueryableByName)]
    struct Found {
        #[diesel(sql_type = diesel::sql_types::Bool)]
        found: bool,
    }
    let row: Found = diesel::sql_query("SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1) AS found")
        .bind::<diesel::sql_types::Text, _>(name)
        .get_result(conn)
        .await
        .expect("query pg_database");
    row.found
}

/// The migrated template, made once for this set of migrations.
async fn ensure_template(server: &DatabaseUrl) -> String {
    let name = format!("clickwrap_test_tpl_{}", env!("CLICKWRAP_MIGRATIONS_DIGEST"));
    let mut conn = admin(server).await;
    diesel::sql_query(format!("SELECT pg_advisory_lock({TEMPLATE_LOCK})")).execute(&mut conn).await.expect("lock");
    if !exists(&mut conn, &name).await {
        // Built under another name and renamed when complete, so a crash never leaves half a template.
        let building = format!("{name}_building");
        diesel::sql_query(format!("DROP DATABASE IF EXISTS {building} WITH (FORCE)"))
            .execute(&mut conn)
            .await
            .expect("drop");
        diesel::sql_query(format!("CREATE DATABASE {building}")).execute(&mut conn).await.expect("create template");
        migrate(&server.with_database(&building)).await.expect("migrate the template database");
        diesel::sql_query(format!("ALTER DATABASE {building} RENAME TO {name}"))
            .execute(&mut conn)
            .await
            .expect("rename");
        diesel::sql_query(format!("ALTER DATABASE {name} IS_TEMPLATE true")).execute(&mut conn).await.expect("mark");
    }
    diesel::sql_query(format!("SELECT pg_advisory_unlock({TEMPLATE_LOCK})")).execute(&mut conn).await.expect("unlock");
    name
}

impl TestDatabase {
    pub async fn new() -> Self {
        let server = server_url();
        let template = ensure_template(&server).await;
        let name = format!("clickwrap_test_{}", uuid::Uuid::new_v4().simple());
        let mut conn = admin(&server).await;
        // Two clones of one template at the same instant can collide; a short retry settles it.
        let mut tries = 0;
        loop {
            match diesel::sql_query(format!("CREATE DATABASE {name} TEMPLATE {template}")).execute(&mut conn).await {
                Ok(_) => break,
                Err(e) if tries < 20 && e.to_string().contains("being accessed by other users") => {
                    tries += 1;
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                }
                Err(e) => panic!("cannot create test database {name}: {e}"),
            }
        }
        Self { url: server.with_database(&name), server }
    }

    /// For tests without an async runtime of their own.
    pub fn new_blocking() -> Self {
        std::thread::spawn(|| {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
            runtime.block_on(Self::new())
        })
        .join()
        .expect("creating the test database")
    }

    pub fn url(&self) -> &DatabaseUrl {
        &self.url
    }

    /// A store on this database, through the pooler when there is one ([`through_pooler`]).
    pub fn store(&self) -> PgStore {
        let (url, statements) = match through_pooler(&self.url) {
            Some(pooled) => (pooled, Statements::Unnamed),
            None => (self.url.clone(), Statements::Prepared),
        };
        PgStore::new(pool(&url, PoolSettings { statements, ..PoolSettings::default() }).expect("pool"))
    }

    /// Ends every connection LISTENing on this database, as a restart of PostgreSQL or a cut
    /// network would; how many there were.
    pub async fn terminate_listeners(&self) -> i64 {
        #[derive(diesel::QueryableByName)]
        struct Terminated {
            #[diesel(sql_type = diesel::sql_types::BigInt)]
            count: i64,
        }
        let mut conn = admin(&self.server).await;
        let row: Terminated = diesel::sql_query(
            "SELECT count(pg_terminate_backend(pid)) AS count FROM pg_stat_activity \
             WHERE datname = $1 AND query LIKE 'LISTEN %'",
        )
        .bind::<diesel::sql_types::Text, _>(self.url.database())
        .get_result(&mut conn)
        .await
        .expect("terminate the listening connections");
        row.count
    }
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        let server = self.server.clone();
        let name = self.url.database().to_owned();
        // Drop cannot await, and may run inside a runtime: use a thread with a runtime of its own.
        let dropped = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().ok()?;
            runtime.block_on(async {
                let mut conn = AsyncPgConnection::establish(&server.expose()).await.ok()?;
                diesel::sql_query(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)")).execute(&mut conn).await.ok()
            })
        })
        .join();
        if !matches!(dropped, Ok(Some(_))) {
            tracing::warn!(database = %self.url.database(), "could not drop the test database");
        }
    }
}
