//! Durable, signed webhook delivery for the clickwrap consent service.
//!
//! - [`dispatcher`]: works off the outbox that verifications and redeliveries write
//!   (`webhook_deliveries`), through the domain's
//!   [`DeliveryStore`](clickwrap_domain::ports::DeliveryStore) port: leases due deliveries in
//!   batches, sends each attempt with fresh signatures (the spec's `X-Service-Signature` and the
//!   Standard Webhooks `webhook-signature`, under a `webhook-id` that every attempt and redelivery
//!   of the message shares), records the attempts that finished together in one statement, retries
//!   on the domain's
//!   [`RetryPolicy`](clickwrap_domain::webhooks::dispatch::RetryPolicy).
//! - [`config`]: the dispatcher's settings ([`DispatcherConfig`]), with the spec's defaults and the
//!   operator's four (`with_settings`), checked to work together.
//! - [`client`]: the HTTPS client (hyper 1, HTTP/1.1, rustls with Mozilla's roots plus an optional
//!   CA file, keep-alive connections pooled per receiver), one time limit per attempt, redirects
//!   not followed.
//! - [`guard`]: the SSRF guard, applied when connecting (resolve, drop forbidden addresses, dial
//!   by address) and, as [`guard::AddressGuard`] (the domain's `WebhookTargetGuard`), when a
//!   webhook URL is registered or changed and when the console shows an app's.
//! - [`receiver`]: the receiving side's signature check, the reference handler's.
//!
//! Wiring, in the server (`crates/server/src/app.rs`), whose configuration reads the
//! `CLICKWRAP_WEBHOOK_*` variables:
//!
//! ```ignore
//! let mut config = DispatcherConfig::with_settings(retry, timeout, allow_cidrs, ca_file);
//! config.poll_interval = poll_interval; // `CLICKWRAP_POLL_MS`
//! // The outbox is the service's `DeliveryStore` port, the time its clock.
//! let dispatcher = Dispatcher::new(config, service.clone())?;
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
