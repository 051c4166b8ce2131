//! What the suites share: the stores under test and concurrent calls into them.

use std::future::Future;
use std::pin::Pin;
use std::task::Poll;

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

/// Polls every future until all are done and returns their outputs in order: concurrent calls
/// into an adapter (which, for a database, run on separate connections) without needing a runtime.
pub(super) async fn join_all<T>(tasks: Vec<Task<'_, T>>) -> Vec<T> {
    let mut slots: Vec<Option<Task<'_, T>>> = tasks.into_iter().map(Some).collect();
    let mut outputs: Vec<Option<T>> = slots.iter().map(|_| None).collect();
    std::future::poll_fn(|cx| {
        let mut pending = false;
        for (slot, output) in slots.iter_mut().zip(outputs.iter_mut()) {
            if let Some(task) = slot {
                match task.as_mut().poll(cx) {
                    Poll::Ready(value) => {
                        *output = Some(value);
                        *slot = None;
                    }
                    Poll::Pending => pending = true,
                }
            }
        }
        if pending { Poll::Pending } else { Poll::Ready(()) }
    })
    .await;
    outputs.into_iter().map(|output| output.expect("every task finished")).collect()
}
