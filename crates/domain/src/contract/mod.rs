//! Contract test suites for the storage ports: what every adapter of [`crate::ports`] must do,
//! written once over the trait objects so that the same checks run against
//! [`crate::memory::MemoryStore`] and against the database adapters.
//!
//! Each suite takes a [`Stores`] (one `&dyn` per storage port) and creates the rows it needs
//! through the ports themselves, with fresh ids, so it runs against a store that already holds
//! data and against one that enforces foreign keys. An adapter's test build enables the `contract`
//! feature and calls, per suite, e.g.:
//!
//! ```ignore
//! let store = PgStore::connect(fresh_database().await).await?;
//! clickwrap_domain::contract::event_store_contract(&Stores::of(&store)).await;
//! ```
//!
//! A failing check panics with a message naming the suite, the check and what differed.

// Test support, compiled only for this crate's tests and for adapters' test builds (feature
// `contract`): asserting, unwrapping and indexing are what it is for.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

pub mod deliveries;
pub mod fixtures;

mod apps;
mod audit;
mod events;
mod keys;
mod ledger;
mod rate_limits;
mod templates;
mod tenants;

use std::future::Future;
use std::pin::Pin;

pub use apps::app_store_contract;
pub use audit::audit_log_contract;
pub use events::event_store_contract;
pub use keys::key_store_contract;
pub use ledger::ledger_store_contract;
pub use rate_limits::rate_limit_store_contract;
pub use templates::template_store_contract;
pub use tenants::tenant_store_contract;

use crate::ports::{
    AppStore, AuditLogStore, EventStore, KeyStore, LedgerStore, RateLimitStore, TemplateStore, TenantStore,
};

/// The storage ports under test. They may all be one adapter ([`Stores::of`]) or several.
#[derive(Debug, Clone, Copy)]
pub struct Stores<'a> {
    pub tenants: &'a dyn TenantStore,
    pub apps: &'a dyn AppStore,
    pub templates: &'a dyn TemplateStore,
    pub events: &'a dyn EventStore,
    pub rate_limits: &'a dyn RateLimitStore,
    pub keys: &'a dyn KeyStore,
    pub ledger: &'a dyn LedgerStore,
    pub audit: &'a dyn AuditLogStore,
}

impl<'a> Stores<'a> {
    /// Every port from one adapter that implements them all.
    pub fn of<S>(store: &'a S) -> Self
    where
        S: TenantStore
            + AppStore
            + TemplateStore
            + EventStore
            + RateLimitStore
            + KeyStore
            + LedgerStore
            + AuditLogStore,
    {
        Self {
            tenants: store,
            apps: store,
            templates: store,
            events: store,
            rate_limits: store,
            keys: store,
            ledger: store,
            audit: store,
        }
    }
}

/// Runs every suite, one after the other, against the same stores.
pub async fn all(stores: &Stores<'_>) {
    tenant_store_contract(stores).await;
    app_store_contract(stores).await;
    template_store_contract(stores).await;
    event_store_contract(stores).await;
    rate_limit_store_contract(stores).await;
    key_store_contract(stores).await;
    ledger_store_contract(stores).await;
    audit_log_contract(stores).await;
}

/// A boxed future of one concurrent call.
type Task<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Every task's output, in order, the tasks polled together: concurrent calls into an adapter
/// (which, for a database, run on separate connections) without needing a runtime.
async fn join_all<T>(tasks: Vec<Task<'_, T>>) -> Vec<T> {
    futures_util::future::join_all(tasks).await
}
