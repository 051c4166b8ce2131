//! What storage announces to every instance with `NOTIFY`, and the one connection per instance that
//! hears it ([`listen`]).
//!
//! Two channels: [`WEBHOOKS`] (a webhook delivery became due: a redelivery, leases given back; see
//! [`crate::deliveries`]) and [`SERVING`] (an app or template changed: the `serving_changes_announced`
//! migration's triggers, [`serving_change`] reads the payload). `NOTIFY` is part of the writing
//! transaction and goes through a transaction-mode pooler; `LISTEN` needs a session of its own, so
//! [`listen`] takes the URL of a direct connection.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use clickwrap_domain::serving_cache::{ServingCaches, ServingChange};
use clickwrap_domain::{AppId, TemplateId, TenantId};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use futures_util::StreamExt;

use crate::database::DatabaseUrl;

/// A webhook delivery became due now (payload empty).
pub const WEBHOOKS: &str = "clickwrap_webhooks";
/// An app or template that the public endpoints serve changed (payload: see [`serving_change`]).
pub const SERVING: &str = "clickwrap_serving";

/// What a channel's notifications are for.
pub trait Subscriber: Send + Sync {
    /// The connection is (re)established and listening. Whatever was announced while it was not
    /// has been missed.
    fn connected(&self);
    /// The connection was lost: nothing is heard until the next [`Self::connected`].
    fn disconnected(&self) {}
    /// A notification on the channel.
    fn notified(&self, payload: &str);
}

/// Wakes the webhook dispatcher on each announcement and after each (re)connection.
pub struct WebhookWakeUps<F>(pub F);

impl<F> std::fmt::Debug for WebhookWakeUps<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("WebhookWakeUps")
    }
}

impl<F: Fn() + Send + Sync> Subscriber for WebhookWakeUps<F> {
    fn connected(&self) {
        (self.0)();
    }

    fn notified(&self, _payload: &str) {
        (self.0)();
    }
}

/// Keeps an instance's serving caches in step with changes made through any instance.
#[derive(Debug)]
pub struct ServingCacheUpdates(pub ServingCaches);

impl Subscriber for ServingCacheUpdates {
    fn connected(&self) {
        self.0.announcements_started();
    }

    fn disconnected(&self) {
        self.0.announcements_stopped();
    }

    fn notified(&self, payload: &str) {
        match serving_change(payload) {
            Some(change) => self.0.changed(change),
            None => {
                // Written by a migration of a newer version, maybe: forgetting everything is never wrong.
                tracing::warn!(payload, "an unknown serving change was announced; forgetting every cached entry");
                self.0.forget_all();
            }
        }
    }
}

/// What a [`SERVING`] payload names: `app <app id>` or `template <tenant id> <template id>`.
pub fn serving_change(payload: &str) -> Option<ServingChange> {
    let mut words = payload.split(' ');
    let change = match (words.next()?, words.next()?, words.next()) {
        ("app", app, None) => ServingChange::App(AppId::parse(app).ok()?),
        ("template", tenant, Some(template)) => {
            ServingChange::Template(TenantId::parse(tenant).ok()?, TemplateId::parse(template).ok()?)
        }
        _ => return None,
    };
    words.next().is_none().then_some(change)
}

/// A connection LISTENing, kept up by a background task until dropped or stopped.
#[derive(Debug)]
pub struct Listener {
    task: tokio::task::JoinHandle<()>,
}

impl Listener {
    /// Stops listening and closes the connection.
    pub fn stop(self) {
        self.task.abort();
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// How long a silent listener connection goes before it is checked with a query.
const HEALTH_CHECK_EVERY: Duration = Duration::from_secs(30);
/// How long the check, or a connection attempt, may take.
const CHECK_TIMEOUT: Duration = Duration::from_secs(5);
/// The wait before reconnecting after the connection failed.
const RECONNECT_AFTER: Duration = Duration::from_secs(1);

/// LISTENs on every channel of `subscribers` over one connection to `url` (a session, not through
/// a transaction-mode pooler), and passes each notification to its channel's subscriber. Each is
/// told when the connection is (re)established and when it is lost. A dead connection is noticed
/// (the server closed it, or a periodic check failed) and replaced. Must be called within a Tokio
/// runtime; the listening runs on a task of its own.
pub fn listen(url: DatabaseUrl, subscribers: Vec<(&'static str, Arc<dyn Subscriber>)>) -> Listener {
    Listener { task: tokio::spawn(listen_loop(url, subscribers)) }
}

async fn listen_loop(url: DatabaseUrl, subscribers: Vec<(&'static str, Arc<dyn Subscriber>)>) {
    loop {
        match with_timeout(listening_connection(&url, &subscribers)).await {
            Ok(mut conn) => {
                for (_, subscriber) in &subscribers {
                    subscriber.connected();
                }
                let reason = serve(&mut conn, &subscribers).await;
                tracing::warn!(%reason, "the connection listening for notifications was lost; reconnecting");
                for (_, subscriber) in &subscribers {
                    subscriber.disconnected();
                }
            }
            Err(reason) => tracing::warn!(%url, %reason, "cannot listen for notifications; retrying"),
        }
        tokio::time::sleep(RECONNECT_AFTER).await;
    }
}

async fn listening_connection(
    url: &DatabaseUrl,
    subscribers: &[(&'static str, Arc<dyn Subscriber>)],
) -> Result<AsyncPgConnection, String> {
    let mut conn = AsyncPgConnection::establish(&url.expose()).await.map_err(|e| e.to_string())?;
    for (channel, _) in subscribers {
        diesel::sql_query(format!("LISTEN {channel}")).execute(&mut conn).await.map_err(|e| e.to_string())?;
    }
    Ok(conn)
}

async fn with_timeout<T>(work: impl Future<Output = Result<T, String>>) -> Result<T, String> {
    tokio::time::timeout(CHECK_TIMEOUT, work).await.unwrap_or_else(|_| Err("timed out".to_owned()))
}

/// Passes notifications on until the connection fails; why it did.
async fn serve(conn: &mut AsyncPgConnection, subscribers: &[(&'static str, Arc<dyn Subscriber>)]) -> String {
    loop {
        {
            let mut notifications = std::pin::pin!(conn.notifications_stream());
            loop {
                match tokio::time::timeout(HEALTH_CHECK_EVERY, notifications.next()).await {
                    Ok(Some(Ok(notification))) => {
                        let to = subscribers.iter().filter(|(channel, _)| *channel == notification.channel);
                        for (_, subscriber) in to {
                            subscriber.notified(&notification.payload);
                        }
                    }
                    Ok(Some(Err(error))) => return error.to_string(),
                    Ok(None) => return "the connection closed".to_owned(),
                    // Quiet for a while: check that the connection is alive (outside the stream's borrow).
                    Err(_) => break,
                }
            }
        }
        // Notifications that arrive meanwhile are buffered and read by the next stream.
        let check =
            with_timeout(async { diesel::sql_query("SELECT 1").execute(conn).await.map_err(|e| e.to_string()) });
        if let Err(reason) = check.await {
            return reason;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serving_payloads_name_an_app_or_a_tenants_template_and_nothing_else() {
        let app = "0190a0b0-0000-7000-8000-000000000001";
        let tenant = "0190a0b0-0000-7000-8000-000000000002";
        let template = "0190a0b0-0000-7000-8000-000000000003";
        assert_eq!(serving_change(&format!("app {app}")), Some(ServingChange::App(AppId::parse(app).unwrap())));
        assert_eq!(
            serving_change(&format!("template {tenant} {template}")),
            Some(ServingChange::Template(TenantId::parse(tenant).unwrap(), TemplateId::parse(template).unwrap()))
        );
        for unknown in [
            String::new(),
            "app".to_owned(),
            format!("app {app} {app}"),
            format!("template {tenant}"),
            format!("template {tenant} {template} more"),
            format!("tenant {tenant}"),
            "app not-an-id".to_owned(),
        ] {
            assert_eq!(serving_change(&unknown), None, "{unknown:?}");
        }
    }
}
