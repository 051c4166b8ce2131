//! In-memory implementations of every port: for the domain's own tests, for contract tests that run
//! one suite against these and the real adapters, and for trying the core without a database.
//! Nothing here is meant for production: data lives in one process and is lost with it.

mod deliveries;
mod store;
mod support;

pub use store::MemoryStore;
pub use support::{AllowAllWebhookTargets, ManualClock, SeededRandom, SequentialIds, TextCertificateRenderer};

use std::sync::Arc;

use crate::service::Ports;

/// Ports backed by one [`MemoryStore`], a [`ManualClock`] and deterministic ids and randomness.
pub fn ports(clock: Arc<ManualClock>) -> (Ports, Arc<MemoryStore>) {
    let store = Arc::new(MemoryStore::default());
    let ports = Ports::from_store(
        store.clone(),
        clock,
        Arc::new(SequentialIds::default()),
        Arc::new(SeededRandom::default()),
        Arc::new(AllowAllWebhookTargets),
        Arc::new(TextCertificateRenderer),
    );
    (ports, store)
}
