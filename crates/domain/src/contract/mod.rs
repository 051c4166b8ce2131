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
pub mod support;

mod apps;
mod audit;
mod events;
mod keys;
mod ledger;
mod rate_limits;
mod templates;
mod tenants;

pub use apps::app_store_contract;
pub use audit::audit_log_contract;
pub use events::event_store_contract;
pub use keys::key_store_contract;
pub use ledger::ledger_store_contract;
pub use rate_limits::rate_limit_store_contract;
pub use templates::template_store_contract;
pub use tenants::tenant_store_contract;

use support::Stores;

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
