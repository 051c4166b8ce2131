//! The storage port contracts (`clickwrap_domain::contract`) against the in-memory store, one
//! test per suite so a failure names its port. Each test has its own store;
//! `every_suite_on_one_store` runs them all, twice, on a shared one, as a database that already
//! holds data would be.

use clickwrap_domain::contract;
use clickwrap_domain::contract::support::Stores;
use clickwrap_domain::memory::MemoryStore;

#[tokio::test]
async fn tenant_store() {
    let store = MemoryStore::default();
    contract::tenant_store_contract(&Stores::of(&store)).await;
}

#[tokio::test]
async fn app_store() {
    let store = MemoryStore::default();
    contract::app_store_contract(&Stores::of(&store)).await;
}

#[tokio::test]
async fn template_store() {
    let store = MemoryStore::default();
    contract::template_store_contract(&Stores::of(&store)).await;
}

#[tokio::test]
async fn event_store() {
    let store = MemoryStore::default();
    contract::event_store_contract(&Stores::of(&store)).await;
}

#[tokio::test]
async fn rate_limit_store() {
    let store = MemoryStore::default();
    contract::rate_limit_store_contract(&Stores::of(&store)).await;
}

#[tokio::test]
async fn key_store() {
    let store = MemoryStore::default();
    contract::key_store_contract(&Stores::of(&store)).await;
}

#[tokio::test]
async fn ledger_store() {
    let store = MemoryStore::default();
    contract::ledger_store_contract(&Stores::of(&store)).await;
}

#[tokio::test]
async fn audit_log() {
    let store = MemoryStore::default();
    contract::audit_log_contract(&Stores::of(&store)).await;
}

#[tokio::test]
async fn every_suite_on_one_store() {
    let store = MemoryStore::default();
    let stores = Stores::of(&store);
    contract::all(&stores).await;
    // Twice: the suites do not assume an empty store.
    contract::all(&stores).await;
}

#[tokio::test]
async fn delivery_store() {
    let store = MemoryStore::default();
    contract::deliveries::delivery_store_contract(&Stores::of(&store), &store).await;
    // Twice: the suite does not assume an empty store.
    contract::deliveries::delivery_store_contract(&Stores::of(&store), &store).await;
}
