//! What the suites share: the stores under test and concurrent calls into them.

use std::future::Future;
use std::pin::Pin;

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

/// A boxed future of one concurrent call.
pub(super) type Task<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Every task's output, in order, the tasks polled together: concurrent calls into an adapter
/// (which, for a database, run on separate connections) without needing a runtime.
pub(super) async fn join_all<T>(tasks: Vec<Task<'_, T>>) -> Vec<T> {
    futures_util::future::join_all(tasks).await
}
