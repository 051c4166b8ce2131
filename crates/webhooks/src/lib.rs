//! Durable, signed webhook delivery for the clickwrap consent service.
//!
//! - [`dispatcher`]: works off the outbox that verification writes (`webhook_deliveries`), through
//!   the domain's [`DeliveryStore`](clickwrap_domain::ports::DeliveryStore) port: leases due
//!   deliveries, sends each attempt with a fresh signature, records it, retries on the domain's
//!   [`RetryPolicy`](clickwrap_domain::webhooks::dispatch::RetryPolicy).
//! - [`client`]: the HTTPS client (hyper 1, rustls with Mozilla's roots plus an optional CA file),
//!   one time limit per attempt, redirects not followed.
//! - [`guard`]: the SSRF guard, applied when connecting (resolve, drop forbidden addresses, dial
//!   by address) and when a webhook URL is registered ([`guard::AddressGuard`], the domain's
//!   `WebhookTargetGuard`).
//! - [`receiver`]: the receiving side's signature check, the reference handler's.
//!
//! Wiring, in the server:
//!
//! ```ignore
//! let config = DispatcherConfig::from_env(|name| std::env::var(name).ok())?;
//! let dispatcher = Dispatcher::new(config, service.clone(), Arc::new(pg_store.clone()))?;
//! // This process's verifications and redeliveries wake the dispatcher after their commit…
//! let service = service.with_outbox_signal(Arc::new(dispatcher.waker()));
//! // …other instances' redeliveries and released leases by NOTIFY; the rest is found by the poll.
//! let waker = dispatcher.waker();
//! let listener = clickwrap_postgres::deliveries::listen(database_url, move || waker.wake());
//! let running = dispatcher.start();
//! // … on shutdown:
//! running.shutdown().await;
//! listener.stop();
//! ```

pub mod client;
pub mod config;
pub mod dispatcher;
pub mod guard;
pub mod receiver;

pub use client::{ClientSettings, WebhookClient};
pub use config::DispatcherConfig;
pub use dispatcher::{Dispatcher, DispatcherError, DispatcherStats, RunningDispatcher, ShutdownReport, Waker};
pub use guard::{AddressGuard, AddressPolicy};
