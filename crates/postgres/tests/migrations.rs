//! Migrating: creating the database when missing, and several processes migrating at once.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)] // test code

use clickwrap_postgres::database::{DatabaseUrl, create_database_if_missing, migrate};
use clickwrap_postgres::test_db::TestDatabase;

#[tokio::test]
async fn a_missing_database_is_created_and_concurrent_migrations_do_not_collide() {
    // A fresh, empty database of the test server, made here by name (not from the template).
    let scratch = TestDatabase::new().await;
    let name = format!("{}_fresh", scratch.url().database());
    let url: DatabaseUrl = scratch.url().with_database(&name);

    create_database_if_missing(&url).await.unwrap();
    create_database_if_missing(&url).await.unwrap(); // idempotent
    let (a, b, c) = tokio::join!(migrate(&url), migrate(&url), migrate(&url));
    a.unwrap();
    b.unwrap();
    c.unwrap();
    migrate(&url).await.unwrap(); // nothing left to do

    let store = clickwrap_postgres::PgStore::new(clickwrap_postgres::database::pool(&url, Default::default()).unwrap());
    store.ping().await.unwrap();
    drop(store);
    // Clean up the extra database through a second throw-away handle on the same server.
    let admin = scratch.url().with_database("postgres");
    drop_database(&admin, &name).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn processes_creating_a_missing_database_at_the_same_moment_all_succeed() {
    let scratch = TestDatabase::new().await;
    let name = format!("{}_race", scratch.url().database());
    let url: DatabaseUrl = scratch.url().with_database(&name);

    // Several rounds, so that the statements do meet: each finds the database missing, and all
    // but one lose the race to create it.
    for _ in 0..5 {
        let creators: Vec<_> = (0..6)
            .map(|_| {
                let url = url.clone();
                tokio::spawn(async move { create_database_if_missing(&url).await })
            })
            .collect();
        for creator in creators {
            creator.await.unwrap().unwrap();
        }
        drop_database(&scratch.url().with_database("postgres"), &name).await;
    }
}

async fn drop_database(admin: &DatabaseUrl, name: &str) {
    use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
    let mut conn = AsyncPgConnection::establish(&admin.expose()).await.unwrap();
    diesel::sql_query(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)")).execute(&mut conn).await.unwrap();
}

#[tokio::test]
async fn an_unreachable_database_is_unavailable_not_a_crash() {
    use clickwrap_domain::TenantId;
    use clickwrap_domain::ports::{StorageError, TenantStore};
    // Nothing listens on port 1.
    let url = DatabaseUrl::parse("postgres://postgres@127.0.0.1:1/clickwrap").unwrap();
    let settings = clickwrap_postgres::database::PoolSettings {
        max_size: 1,
        wait_timeout: std::time::Duration::from_millis(500),
        ..Default::default()
    };
    let store = clickwrap_postgres::PgStore::new(clickwrap_postgres::database::pool(&url, settings).unwrap());
    let error = store.find_tenant(TenantId::from_uuid(uuid::Uuid::nil())).await.unwrap_err();
    assert!(matches!(error, StorageError::Unavailable(_)), "{error:?}");
    assert!(matches!(store.ping().await, Err(StorageError::Unavailable(_))));
}
