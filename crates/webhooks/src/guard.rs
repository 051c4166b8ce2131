//! The SSRF guard: webhooks reach public addresses only (and the operator's
//! `CLICKWRAP_WEBHOOK_ALLOW_CIDRS`), checked where the connection is made.
//!
//! A URL was checked when it was registered, but a name can resolve to anything, and to something
//! else by the time a delivery is sent (DNS rebinding). So the connector resolves the host itself,
//! drops every address the rule forbids, and connects only to what is left, by address: nothing
//! resolves the name again between the check and the connection. IP literals are checked the same
//! way. [`AddressGuard`] applies the same rule when an app's webhook URL is registered.

use std::fmt;
use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use async_trait::async_trait;
use clickwrap_domain::ports::{WebhookTargetGuard, WebhookTargetRejected};
use clickwrap_domain::webhooks::cidr::AllowCidrs;
use clickwrap_domain::webhooks::url::WebhookUrl;
use http::Uri;
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;

/// Looks up the addresses of a host name.
#[async_trait]
pub trait Resolve: Send + Sync + fmt::Debug {
    async fn resolve(&self, host: &str, port: u16) -> io::Result<Vec<IpAddr>>;
}

/// The operating system's resolver (`getaddrinfo`, on Tokio's blocking pool).
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemResolver;

#[async_trait]
impl Resolve for SystemResolver {
    async fn resolve(&self, host: &str, port: u16) -> io::Result<Vec<IpAddr>> {
        Ok(tokio::net::lookup_host((host, port)).await?.map(|address| address.ip()).collect())
    }
}

/// Opens the TCP connection to an address the guard let through.
#[async_trait]
pub trait Dial: Send + Sync + fmt::Debug {
    async fn dial(&self, address: SocketAddr) -> io::Result<TcpStream>;
}

/// Plain `connect(2)`, with `TCP_NODELAY` (a webhook is one small request and its answer).
#[derive(Debug, Default, Clone, Copy)]
pub struct TcpDialer;

#[async_trait]
impl Dial for TcpDialer {
    async fn dial(&self, address: SocketAddr) -> io::Result<TcpStream> {
        let stream = TcpStream::connect(address).await?;
        stream.set_nodelay(true)?;
        Ok(stream)
    }
}

/// Why no connection was made.
#[derive(Debug, thiserror::Error)]
pub enum ConnectError {
    /// Every address of the host is one webhooks may not reach.
    #[error("{host} leads only to addresses webhooks may not reach ({addresses})")]
    Blocked { host: String, addresses: String },
    #[error("cannot resolve {host}: {source}")]
    Dns { host: String, source: io::Error },
    #[error("cannot connect to {host}: {source}")]
    Connect { host: String, source: io::Error },
    #[error("the request URI has no host")]
    NoHost,
}

/// The address rule: public addresses, plus the operator's exemptions.
#[derive(Debug, Clone, Default)]
pub struct AddressPolicy {
    allow: AllowCidrs,
}

impl AddressPolicy {
    pub fn new(allow: AllowCidrs) -> Self {
        Self { allow }
    }

    pub fn allow_cidrs(&self) -> &AllowCidrs {
        &self.allow
    }

    pub fn permits(&self, ip: IpAddr) -> bool {
        self.allow.permits(ip)
    }
}

/// The host of a URI as an address, when it is an IP literal (`[::1]` without its brackets).
fn ip_literal(host: &str) -> Option<IpAddr> {
    let bare = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')).unwrap_or(host);
    bare.parse().ok()
}

fn list(addresses: &[IpAddr]) -> String {
    if addresses.is_empty() {
        return "none".to_owned();
    }
    addresses.iter().map(IpAddr::to_string).collect::<Vec<_>>().join(", ")
}

/// The TCP connector the HTTPS client runs on: resolve, filter by [`AddressPolicy`], dial what is
/// left in order until one answers.
#[derive(Clone)]
pub struct GuardedConnector {
    policy: AddressPolicy,
    resolver: Arc<dyn Resolve>,
    dialer: Arc<dyn Dial>,
}

impl fmt::Debug for GuardedConnector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GuardedConnector").field("policy", &self.policy).finish_non_exhaustive()
    }
}

impl GuardedConnector {
    pub fn new(policy: AddressPolicy, resolver: Arc<dyn Resolve>, dialer: Arc<dyn Dial>) -> Self {
        Self { policy, resolver, dialer }
    }

    /// The addresses of `host` the policy permits, in the resolver's order.
    pub async fn permitted_addresses(&self, host: &str, port: u16) -> Result<Vec<IpAddr>, ConnectError> {
        let candidates = match ip_literal(host) {
            Some(ip) => vec![ip],
            None => self
                .resolver
                .resolve(host, port)
                .await
                .map_err(|source| ConnectError::Dns { host: host.to_owned(), source })?,
        };
        if candidates.is_empty() {
            let source = io::Error::new(io::ErrorKind::NotFound, "no addresses");
            return Err(ConnectError::Dns { host: host.to_owned(), source });
        }
        let (permitted, refused): (Vec<IpAddr>, Vec<IpAddr>) =
            candidates.into_iter().partition(|ip| self.policy.permits(*ip));
        if !refused.is_empty() {
            tracing::warn!(host, refused = %list(&refused), "webhook host resolves to forbidden addresses; skipped");
        }
        if permitted.is_empty() {
            return Err(ConnectError::Blocked { host: host.to_owned(), addresses: list(&refused) });
        }
        Ok(permitted)
    }

    async fn connect(&self, uri: Uri) -> Result<TokioIo<TcpStream>, ConnectError> {
        let host = uri.host().ok_or(ConnectError::NoHost)?;
        let port = uri.port_u16().unwrap_or(443);
        let mut last_error = None;
        for ip in self.permitted_addresses(host, port).await? {
            // Checked again right at the dial, so no code path can reach `dial` unchecked.
            if !self.policy.permits(ip) {
                continue;
            }
            match self.dialer.dial(SocketAddr::new(ip, port)).await {
                Ok(stream) => return Ok(TokioIo::new(stream)),
                Err(error) => last_error = Some(error),
            }
        }
        let source = last_error.unwrap_or_else(|| io::Error::other("no address could be dialed"));
        Err(ConnectError::Connect { host: host.to_owned(), source })
    }
}

impl tower_service::Service<Uri> for GuardedConnector {
    type Response = TokioIo<TcpStream>;
    type Error = ConnectError;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Self::Error>> + Send>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, uri: Uri) -> Self::Future {
        let connector = self.clone();
        Box::pin(async move { connector.connect(uri).await })
    }
}

/// The registration check of a webhook URL (`WebhookTargetGuard`): its host must resolve, and every
/// address it resolves to must be permitted. Stricter than the connector, which skips forbidden
/// addresses among permitted ones: a URL that leads anywhere forbidden is not accepted at all.
#[derive(Clone)]
pub struct AddressGuard {
    policy: AddressPolicy,
    resolver: Arc<dyn Resolve>,
}

impl fmt::Debug for AddressGuard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AddressGuard").field("policy", &self.policy).field("resolver", &self.resolver).finish()
    }
}

impl AddressGuard {
    pub fn new(policy: AddressPolicy, resolver: Arc<dyn Resolve>) -> Self {
        Self { policy, resolver }
    }

    /// With the system resolver.
    pub fn system(allow: AllowCidrs) -> Self {
        Self::new(AddressPolicy::new(allow), Arc::new(SystemResolver))
    }
}

#[async_trait]
impl WebhookTargetGuard for AddressGuard {
    async fn vet(&self, url: &WebhookUrl) -> Result<(), WebhookTargetRejected> {
        let addresses = match url.ip_literal() {
            Some(ip) => vec![ip],
            None => self
                .resolver
                .resolve(url.host(), url.port())
                .await
                .map_err(|e| WebhookTargetRejected(format!("{} does not resolve: {e}", url.host())))?,
        };
        if addresses.is_empty() {
            return Err(WebhookTargetRejected(format!("{} does not resolve", url.host())));
        }
        let refused: Vec<IpAddr> = addresses.into_iter().filter(|ip| !self.policy.permits(*ip)).collect();
        if refused.is_empty() {
            Ok(())
        } else {
            Err(WebhookTargetRejected(format!(
                "{} resolves to an address webhooks may not reach ({})",
                url.host(),
                list(&refused)
            )))
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::sync::Mutex;

    use super::*;
    use clickwrap_domain::webhooks::cidr::Cidr;

    #[derive(Debug, Default)]
    struct Names(HashMap<String, Vec<IpAddr>>);

    #[async_trait]
    impl Resolve for Names {
        async fn resolve(&self, host: &str, _port: u16) -> io::Result<Vec<IpAddr>> {
            self.0.get(host).cloned().ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, "unknown name"))
        }
    }

    /// Records what would be dialed and dials nothing.
    #[derive(Debug, Default)]
    struct NoDial(Mutex<Vec<SocketAddr>>);

    #[async_trait]
    impl Dial for NoDial {
        async fn dial(&self, address: SocketAddr) -> io::Result<TcpStream> {
            self.0.lock().unwrap().push(address);
            Err(io::Error::new(io::ErrorKind::ConnectionRefused, "test dialer"))
        }
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    fn names() -> Arc<Names> {
        Arc::new(Names(HashMap::from([
            ("public.test".to_owned(), vec![ip("203.0.114.10")]),
            ("private.test".to_owned(), vec![ip("10.1.2.3")]),
            ("mixed.test".to_owned(), vec![ip("10.1.2.3"), ip("198.51.99.1"), ip("169.254.169.254")]),
            ("empty.test".to_owned(), vec![]),
        ])))
    }

    #[tokio::test]
    async fn the_connector_dials_only_permitted_addresses() {
        let dialer = Arc::new(NoDial::default());
        let connector = GuardedConnector::new(AddressPolicy::default(), names(), dialer.clone());
        for (uri, blocked) in [
            ("https://10.0.0.1/", true),
            ("https://169.254.169.254/latest/meta-data/", true),
            ("https://127.0.0.1:9/", true),
            ("https://[::1]:9/", true),
            ("https://[::ffff:127.0.0.1]:9/", true),
            ("https://[fd00:ec2::254]/", true),
            ("https://private.test/", true),
            ("https://mixed.test/", false),
            ("https://public.test:8443/", false),
        ] {
            let error = connector.connect(uri.parse().unwrap()).await.unwrap_err();
            assert_eq!(matches!(error, ConnectError::Blocked { .. }), blocked, "{uri}: {error}");
        }
        // Only the permitted addresses were ever dialed: the public one of mixed.test and public.test.
        let dialed = dialer.0.lock().unwrap().clone();
        assert_eq!(dialed, vec!["198.51.99.1:443".parse().unwrap(), "203.0.114.10:8443".parse().unwrap()]);
    }

    #[tokio::test]
    async fn unresolvable_names_are_dns_errors() {
        let connector = GuardedConnector::new(AddressPolicy::default(), names(), Arc::new(NoDial::default()));
        for uri in ["https://unknown.test/", "https://empty.test/"] {
            let error = connector.connect(uri.parse().unwrap()).await.unwrap_err();
            assert!(matches!(error, ConnectError::Dns { .. }), "{uri}: {error}");
        }
    }

    #[tokio::test]
    async fn exemptions_let_their_ranges_through() {
        let dialer = Arc::new(NoDial::default());
        let allow = AllowCidrs::new(Cidr::parse_list("127.0.0.0/8").unwrap());
        let connector = GuardedConnector::new(AddressPolicy::new(allow), names(), dialer.clone());
        let error = connector.connect("https://127.0.0.1:9/".parse().unwrap()).await.unwrap_err();
        assert!(matches!(error, ConnectError::Connect { .. }), "{error}");
        let error = connector.connect("https://[::1]:9/".parse().unwrap()).await.unwrap_err();
        assert!(matches!(error, ConnectError::Blocked { .. }), "{error}");
        assert_eq!(dialer.0.lock().unwrap().clone(), vec!["127.0.0.1:9".parse().unwrap()]);
    }

    #[tokio::test]
    async fn registration_refuses_any_forbidden_address() {
        let guard = AddressGuard::new(AddressPolicy::default(), names());
        let url = |text: &str| WebhookUrl::parse_with_exemptions(text, |_| true).unwrap();
        assert_eq!(guard.vet(&url("https://public.test/hook")).await, Ok(()));
        assert_eq!(guard.vet(&url("https://203.0.114.10/hook")).await, Ok(()));
        for text in [
            "https://private.test/",
            "https://mixed.test/",
            "https://unknown.test/",
            "https://empty.test/",
            "https://127.0.0.1/",
            "https://10.0.0.1/",
            "https://[::1]/",
        ] {
            assert!(guard.vet(&url(text)).await.is_err(), "{text}");
        }
        let exempt =
            AddressGuard::new(AddressPolicy::new(AllowCidrs::new(Cidr::parse_list("10.0.0.0/8").unwrap())), names());
        assert_eq!(exempt.vet(&url("https://private.test/")).await, Ok(()));
        assert!(exempt.vet(&url("https://mixed.test/")).await.is_err(), "169.254.169.254 is not exempt");
    }
}
