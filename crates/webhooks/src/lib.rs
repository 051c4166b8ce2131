//! Durable, signed webhook delivery for the clickwrap consent service.
//!
//! - [`dispatcher`]: works off the outbox that verification writes (`webhook_deliveries`), through
//!   the domain's [`DeliveryStore`](clickwrap_domain::ports::DeliveryStore) port: leases due
//!   deliveries, sends each attempt with fresh signatures (the spec's `X-Service-Signature` and
//!   the Standard Webhooks `webhook-signature`, under a `webhook-id` that every attempt and
//!   redelivery of the message shares), records it, retries on the domain's
//!   [`RetryPolicy`](clickwrap_domain::webhooks::dispatch::RetryPolicy).
//! - [`client`]: the HTTPS client (hyper 1, rustls with Mozilla's roots plus an optional CA file),
//!   one time limit per attempt, redirects not followed.
//! - [`guard`]: the SSRF guard, applied when connecting (resolve, drop forbidden addresses, dial
//!   by address) and when a webhook URL is registered ([`guard::AddressGuard`], the domain's
//!   `WebhookTargetGuard`).
//! - [`receiver`]: the receiving side's signature check, the reference handler's.
//!
//! Wiring, in the server (`crates/server/src/app.rs`), whose configuration reads the
//! `CLICKWRAP_WEBHOOK_*` variables:
//!
//! ```ignore
//! let config = DispatcherConfig::with_settings(retry, timeout, allow_cidrs, ca_file)?;
//! let dispatcher = Dispatcher::new(config, service.clone(), Arc::new(pg_store.clone()))?;
//! // This process's verifications and redeliveries wake the dispatcher after their commit…
//! let service = service.with_outbox_signal(Arc::new(dispatcher.waker()));
//! // …other instances' redeliveries and released leases by `LISTEN clickwrap_webhooks`
//! // (`clickwrap_postgres::notifications`, waking `dispatcher.waker()`); the rest by the poll.
//! let running = dispatcher.start();
//! // … on shutdown:
//! running.shutdown().await;
//! ```

pub mod client;
pub mod config;
pub mod dispatcher;
pub mod guard;
pub mod receiver;

pub use client::{ClientSettings, SignedHeaders, WebhookClient};
pub use config::DispatcherConfig;
pub use dispatcher::{Dispatcher, DispatcherError, DispatcherStats, RunningDispatcher, ShutdownReport, Waker};
pub use guard::{AddressGuard, AddressPolicy};
