//! In-memory implementations of every port: for the domain's own tests, for contract tests that run
//! one suite against these and the real adapters, and for trying the core without a database.
//! Nothing here is meant for production: data lives in one process and is lost with it.

mod store;
mod support;

pub use store::MemoryStore;
pub use support::{AllowAllWebhookTargets, ManualClock, SeededRandom, SequentialIds, TextCertificateRenderer};

use std::sync::Arc;

use crate::service::Ports;

/// Ports backed by one [`MemoryStore`], a [`ManualClock`] and deterministic ids and randomness.
pub fn ports(clock: Arc<ManualClock>) -> (Ports, Arc<MemoryStore>) {
    let store = Arc::new(MemoryStore::default());
    let ports = Ports {
        clock,
        ids: Arc::new(SequentialIds::default()),
        random: Arc::new(SeededRandom::default()),
        tenants: store.clone(),
        apps: store.clone(),
        templates: store.clone(),
        events: store.clone(),
        rate_limits: store.clone(),
        keys: store.clone(),
        webhook_guard: Arc::new(AllowAllWebhookTargets),
        certificates: Arc::new(TextCertificateRenderer),
    };
    (ports, store)
}
