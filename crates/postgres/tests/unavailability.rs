//! A database that goes away, through a real PostgreSQL restarted under the store: every way the
//! connection is lost is `StorageError::Unavailable` (HTTP 503), never `Internal` (HTTP 500), and the
//! store recovers on its own once the server is back.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::{Duration, Instant};

use clickwrap_domain::TenantId;
use clickwrap_domain::ports::{StorageError, TenantStore};
use clickwrap_postgres::PgStore;
use clickwrap_postgres::database::{PoolSettings, create_database_if_missing, migrate, pool};
use clickwrap_postgres::test_cluster::{StopMode, ThrowawayCluster};

/// A migrated database on `cluster` and a store with one pooled connection, so that the connection
/// the server dropped is the one the next query gets.
async fn store(cluster: &ThrowawayCluster) -> PgStore {
    let url = cluster.url().with_database("clickwrap");
    create_database_if_missing(&url).await.unwrap();
    migrate(&url).await.unwrap();
    PgStore::new(
        pool(&url, PoolSettings { max_size: 1, wait_timeout: Duration::from_secs(2), ..PoolSettings::default() })
            .unwrap(),
    )
}

fn assert_unavailable<T: std::fmt::Debug>(result: Result<T, StorageError>, when: &str) {
    match result {
        Err(StorageError::Unavailable(_)) => {}
        other => panic!("{when}: expected Unavailable, got {other:?}"),
    }
}

/// Waits until the store answers again; how long that took.
async fn recovered(store: &PgStore) -> Duration {
    let started = Instant::now();
    loop {
        match store.ping().await {
            Ok(()) => return started.elapsed(),
            Err(StorageError::Unavailable(_)) if started.elapsed() < Duration::from_secs(30) => {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(other) => panic!("while recovering: {other:?}"),
        }
    }
}

#[tokio::test]
async fn a_connection_closed_by_a_fast_restart_is_unavailable_and_the_next_query_reconnects() {
    let Some(cluster) = ThrowawayCluster::start_or_skip() else { return };
    let store = store(&cluster).await;
    let tenant = TenantId::from_uuid(uuid::Uuid::nil());
    assert_eq!(store.find_tenant(tenant).await.unwrap(), None);

    // The pooled connection was ended by `terminating connection due to administrator command`.
    // The test's runtime has one thread, blocked during the restart, so the pool has not noticed
    // yet and hands that connection out: the query on it fails.
    cluster.restart(StopMode::Fast).unwrap();
    assert_unavailable(store.find_tenant(tenant).await, "on the connection the restart closed");
    recovered(&store).await;
    assert_eq!(store.find_tenant(tenant).await.unwrap(), None);
}

#[tokio::test]
async fn a_crashed_and_stopped_server_is_unavailable_until_it_is_back() {
    let Some(cluster) = ThrowawayCluster::start_or_skip() else { return };
    let store = store(&cluster).await;
    let tenant = TenantId::from_uuid(uuid::Uuid::nil());
    store.ping().await.unwrap();

    // Killed at once: the pooled connection is reset, and new ones are refused.
    cluster.stop(StopMode::Immediate).unwrap();
    assert_unavailable(store.find_tenant(tenant).await, "on the connection the crash reset");
    assert_unavailable(store.find_tenant(tenant).await, "while nothing listens");
    assert_unavailable(store.ping().await, "the readiness probe while nothing listens");

    // Crash recovery, then the store reconnects on its own.
    cluster.start_again().unwrap();
    let took = recovered(&store).await;
    assert!(took < Duration::from_secs(10), "the store took {took:?} to reconnect");
    assert_eq!(store.find_tenant(tenant).await.unwrap(), None);
}
