//! The server can run as a role that does not own the schema: granted what
//! `grant_to_serving_role` grants, it does every piece of storage work, and it cannot switch the
//! evidence triggers off, alter a table, truncate one, or rewrite a verified event. The owner can
//! switch a trigger off, which is why the server should not run as the owner.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code

use clickwrap_domain::contract;
use clickwrap_domain::contract::fixtures::{self, base_plus_secs};
use clickwrap_domain::contract::support::Stores;
use clickwrap_postgres::PgStore;
use clickwrap_postgres::database::{DatabaseUrl, PoolSettings, grant_to_serving_role, migrate, pool};
use clickwrap_postgres::test_db::TestDatabase;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl, SimpleAsyncConnection};

/// A login role of its own for this test (roles are cluster-wide), dropped at the end, with
/// what it was granted in `database`.
struct Role {
    name: String,
    database: DatabaseUrl,
}

impl Role {
    async fn create(database: &DatabaseUrl) -> Self {
        let name = format!("clickwrap_test_serving_{}", uuid::Uuid::new_v4().simple());
        let mut admin = AsyncPgConnection::establish(&database.expose()).await.unwrap();
        diesel::sql_query(format!("CREATE ROLE {name} LOGIN")).execute(&mut admin).await.unwrap();
        Self { name, database: database.clone() }
    }

    /// The URL of `database` on the same server, connecting as this role.
    fn url(&self, database: &DatabaseUrl) -> DatabaseUrl {
        let text = format!("postgres://{}@{}:{}/{}", self.name, database.host(), database.port(), database.database());
        DatabaseUrl::parse(&text).unwrap()
    }
}

impl Drop for Role {
    fn drop(&mut self) {
        let database = self.database.expose();
        let name = self.name.clone();
        // Drop cannot await, and may run inside a runtime: a thread with a runtime of its own.
        let _ = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().ok()?;
            runtime.block_on(async {
                let mut conn = AsyncPgConnection::establish(&database).await.ok()?;
                conn.batch_execute(&format!("DROP OWNED BY {name}; DROP ROLE {name}")).await.ok()
            })
        })
        .join();
    }
}

async fn as_url(url: &DatabaseUrl, statement: &str) -> Result<(), String> {
    let mut conn = AsyncPgConnection::establish(&url.expose()).await.unwrap();
    conn.batch_execute(statement).await.map_err(|e| e.to_string())
}

fn refused(result: Result<(), String>, because: &str, what: &str) {
    match result {
        Ok(()) => panic!("the serving role was allowed to {what}"),
        Err(message) => assert!(message.contains(because), "{what}: expected {because:?}, got {message:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_serving_role_does_the_storage_work_and_cannot_touch_the_evidence_guards() {
    let db = TestDatabase::new().await;
    let role = Role::create(db.url()).await;
    grant_to_serving_role(db.url(), &role.name).await.unwrap();
    let serving = role.url(db.url());

    // Start-up as this role: the database is up to date, so migrating only reads.
    migrate(&serving).await.expect("an up-to-date database needs no owner to start");

    // Every storage contract, as this role: the grants are enough for everything the server does.
    let store = PgStore::new(pool(&serving, PoolSettings::default()).unwrap());
    let stores = Stores::of(&store);
    contract::all(&stores).await;
    contract::deliveries::delivery_store_contract(&stores, &store).await;

    let seed = fixtures::seed(&stores).await;
    let event = fixtures::verified_event(&stores, seed.event().build(), base_plus_secs(10)).await;

    // What the owner can do, and the serving role cannot.
    let switch_off = "BEGIN; ALTER TABLE clickwrap_events DISABLE TRIGGER clickwrap_events_guard; ROLLBACK;";
    as_url(db.url(), switch_off).await.expect("the owner can switch the guard off");
    refused(as_url(&serving, switch_off).await, "must be owner", "switch the event guard off");
    refused(
        as_url(&serving, "ALTER TABLE clickwrap_events DISABLE TRIGGER ALL").await,
        "must be owner",
        "switch every trigger off",
    );
    refused(
        as_url(&serving, "DROP TRIGGER clickwrap_events_guard ON clickwrap_events").await,
        "must be owner",
        "drop the event guard",
    );
    refused(
        as_url(&serving, "ALTER TABLE clickwrap_events ADD COLUMN forged text").await,
        "must be owner",
        "alter the events table",
    );
    refused(
        as_url(&serving, "SET session_replication_role = replica").await,
        "permission denied",
        "skip triggers for its session",
    );
    refused(as_url(&serving, "TRUNCATE clickwrap_events CASCADE").await, "permission denied", "truncate the events");
    refused(
        as_url(
            &serving,
            "CREATE TRIGGER t BEFORE UPDATE ON clickwrap_events EXECUTE FUNCTION clickwrap_refuse_change()",
        )
        .await,
        "permission denied",
        "add a trigger",
    );
    refused(
        as_url(&serving, "DELETE FROM __diesel_schema_migrations").await,
        "permission denied",
        "forget the applied migrations",
    );
    // The guard refuses the rewrite itself, and the role cannot get round it.
    let rewrite = format!("UPDATE clickwrap_events SET end_user_id = 'someone-else' WHERE id = '{}'", event.id);
    let refusal = as_url(&serving, &rewrite).await.expect_err("the serving role rewrote a verified event");
    assert!(!refusal.contains("permission denied"), "the role may update rows; the trigger must refuse: {refusal}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn processes_granting_at_the_same_moment_all_succeed() {
    let db = TestDatabase::new().await;
    let role = Role::create(db.url()).await;
    let grants: Vec<_> = (0..6)
        .map(|_| {
            let (url, name) = (db.url().clone(), role.name.clone());
            tokio::spawn(async move { grant_to_serving_role(&url, &name).await })
        })
        .collect();
    for grant in grants {
        grant.await.unwrap().unwrap();
    }
    let serving = role.url(db.url());
    as_url(&serving, "SELECT count(*) FROM tenants").await.unwrap();
}
