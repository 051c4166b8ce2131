//! The server runs as a role that does not own the evidence tables: `migrate` as the owner (with
//! its own URL) grants the serving role what it needs, and the whole consent flow works as that role.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use clickwrap_postgres::database::DatabaseUrl;
use clickwrap_postgres::test_db::TestDatabase;
use common::{command, fresh_database_url, get, record_acceptance, start, verify};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl, SimpleAsyncConnection};

fn block_on<T>(future: impl Future<Output = T>) -> T {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(future)
}

/// A login role of its own for this test (roles are cluster-wide); on drop, the database the
/// binary made goes, then the role.
struct ServingRole {
    name: String,
    database: DatabaseUrl,
}

impl ServingRole {
    fn create(database: &str) -> Self {
        let database = DatabaseUrl::parse(database).unwrap();
        let name = format!("clickwrap_test_serving_{}", uuid::Uuid::new_v4().simple());
        block_on(async {
            let mut admin = AsyncPgConnection::establish(&database.with_database("postgres").expose()).await.unwrap();
            diesel::sql_query(format!("CREATE ROLE {name} LOGIN")).execute(&mut admin).await.unwrap();
        });
        Self { name, database }
    }

    fn url(&self) -> String {
        let d = &self.database;
        format!("postgres://{}@{}:{}/{}", self.name, d.host(), d.port(), d.database())
    }
}

impl Drop for ServingRole {
    fn drop(&mut self) {
        let admin = self.database.with_database("postgres").expose();
        let (database, name) = (self.database.database().to_owned(), self.name.clone());
        let _ = std::thread::spawn(move || {
            block_on(async {
                let mut conn = AsyncPgConnection::establish(&admin).await.ok()?;
                conn.batch_execute(&format!("DROP DATABASE IF EXISTS {database} WITH (FORCE); DROP ROLE {name}"))
                    .await
                    .ok()
            })
        })
        .join();
    }
}

#[test]
fn the_server_runs_as_a_role_that_does_not_own_the_schema() {
    let db = TestDatabase::new_blocking();
    let owner = fresh_database_url(&db);
    let role = ServingRole::create(&owner);

    // As the serving role alone, a missing database cannot be made: it is not the owner.
    let refused = command(&role.url()).arg("migrate").output().unwrap();
    assert!(!refused.status.success(), "a role without CREATEDB made the database");
    // Nor can it migrate one the owner made: it is told to migrate as the owner.
    let owner_url = DatabaseUrl::parse(&owner).unwrap();
    block_on(async {
        let mut admin = AsyncPgConnection::establish(&owner_url.with_database("postgres").expose()).await.unwrap();
        diesel::sql_query(format!("CREATE DATABASE {}", owner_url.database())).execute(&mut admin).await.unwrap();
    });
    let refused = command(&role.url()).arg("migrate").output().unwrap();
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success(), "the serving role migrated the schema");
    assert!(stderr.contains("Migrate as the owner: set CLICKWRAP_MIGRATION_DATABASE_URL"), "{stderr}");

    let migrated =
        command(&role.url()).env("CLICKWRAP_MIGRATION_DATABASE_URL", &owner).arg("migrate").output().unwrap();
    let stderr = String::from_utf8_lossy(&migrated.stderr);
    assert!(migrated.status.success(), "{stderr}");
    assert!(stderr.contains(&format!("the serving role \"{}\"", role.name)), "{stderr}");

    // The demo as the serving role, without the owner's URL: it makes a tenant, an app and a
    // template, and an acceptance is recorded and verified (event, certificate, ledger, webhook row).
    let server = start(&role.url(), "demo");
    let demo = server.demo_credentials();
    assert!(get(&server.address, "/readyz").starts_with("HTTP/1.1 200"));
    let signature = record_acceptance(&server.address, &demo, "alice");
    let verified = verify(&server.address, &demo, &signature);
    assert_eq!(verified.status, 200, "{}", verified.text());
    let event = verified.json()["clickwrapEventId"].as_str().unwrap().to_owned();

    // And the serving role cannot get round the evidence guards.
    let serving = DatabaseUrl::parse(&role.url()).unwrap();
    let attempt = |statement: String| {
        let url = serving.expose();
        block_on(async move {
            let mut conn = AsyncPgConnection::establish(&url).await.unwrap();
            conn.batch_execute(&statement).await.map_err(|e| e.to_string())
        })
    };
    let off = attempt("ALTER TABLE clickwrap_events DISABLE TRIGGER ALL".to_owned()).unwrap_err();
    assert!(off.contains("must be owner"), "{off}");
    let rewrite = attempt(format!("UPDATE clickwrap_events SET end_user_id = 'mallory' WHERE id = '{event}'"));
    assert!(rewrite.is_err(), "the serving role rewrote a verified event");
    drop(server);
}
