//! Test support: HTTPS receivers on loopback with a certificate made on the spot (trusted through
//! the CA-file setting), and a service over a throw-away PostgreSQL database whose verified events
//! fill the outbox.

#![allow(dead_code, unreachable_pub)]

use clickwrap_domain::tenants::models::Admin;
use std::collections::HashMap;
use std::convert::Infallible;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use bytes::Bytes;
use clickwrap_domain::apps::models::App;
use clickwrap_domain::apps::models::AppChanges;
use clickwrap_domain::apps::service::NewApp;
use clickwrap_domain::consent::models::{Action, ClickwrapEvent, Presentation, PresentationMode};
use clickwrap_domain::consent::service::{ClickwrapCheck, PresentedAction};
use clickwrap_domain::content::placeholders::PlaceholderValues;
use clickwrap_domain::contract::fixtures;
use clickwrap_domain::contract::support::Stores;
use clickwrap_domain::memory::{AllowAllWebhookTargets, TextCertificateRenderer};
use clickwrap_domain::ports::{DeliveryStore, WebhookTargetGuard};
use clickwrap_domain::secrets::WebhookSigningSecret;
use clickwrap_domain::service::{ClickwrapService, Ports, Settings};
use clickwrap_domain::system::{OsRandom, SystemClock, UuidV7};
use clickwrap_domain::templates::models::Template;
use clickwrap_domain::tenants::models::Tenant;
use clickwrap_domain::webhooks::cidr::AllowCidrs;
use clickwrap_domain::webhooks::dispatch::RetryPolicy;
use clickwrap_domain::webhooks::models::DeliveryRecord;
use clickwrap_domain::webhooks::url::WebhookUrl;
use clickwrap_domain::{EndUserId, Language, LanguagePreference, Name, Timestamp};
use clickwrap_postgres::PgStore;
use clickwrap_postgres::deliveries::{DeliveryListener, listen};
use clickwrap_postgres::test_db::TestDatabase;
use clickwrap_webhooks::guard::{Dial, Resolve, TcpDialer};
use clickwrap_webhooks::{AddressPolicy, ClientSettings, Dispatcher, DispatcherConfig, RunningDispatcher};
use http_body_util::{BodyExt, Full};
use hyper::service::service_fn;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, Issuer, KeyPair, KeyUsagePurpose};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinSet;

/// A CA made for one test, its certificate in a PEM file (the CA-file mechanism), and a server
/// certificate it issued for `localhost`, 127.0.0.1 and ::1.
#[derive(Debug)]
pub struct Tls {
    pub ca_file: PathBuf,
    pub server: Arc<rustls::ServerConfig>,
}

impl Tls {
    pub fn new() -> Self {
        let ca_key = KeyPair::generate().unwrap();
        let mut ca = CertificateParams::new(Vec::<String>::new()).unwrap();
        ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        ca.distinguished_name.push(DnType::CommonName, "clickwrap webhook test CA");
        ca.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign, KeyUsagePurpose::DigitalSignature];
        let ca_cert = ca.self_signed(&ca_key).unwrap();
        let issuer = Issuer::from_params(&ca, &ca_key);

        let leaf_key = KeyPair::generate().unwrap();
        let mut leaf =
            CertificateParams::new(vec!["localhost".to_owned(), "127.0.0.1".to_owned(), "::1".to_owned()]).unwrap();
        leaf.distinguished_name.push(DnType::CommonName, "receiver");
        let leaf_cert = leaf.signed_by(&leaf_key, &issuer).unwrap();

        let ca_file = std::env::temp_dir().join(format!("clickwrap-webhook-ca-{}.pem", uuid::Uuid::new_v4()));
        std::fs::write(&ca_file, ca_cert.pem()).unwrap();

        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(leaf_key.serialize_der()));
        let server = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(vec![CertificateDer::from(leaf_cert.der().to_vec())], key)
            .unwrap();
        Self { ca_file, server: Arc::new(server) }
    }
}

impl Drop for Tls {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.ca_file);
    }
}

/// A request a receiver got.
#[derive(Debug, Clone)]
pub struct Received {
    pub path: String,
    pub headers: http::HeaderMap,
    pub body: Bytes,
    pub at: Instant,
}

impl Received {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap()
    }

    pub fn event_id(&self) -> String {
        self.json()["data"]["clickwrapEventId"].as_str().unwrap().to_owned()
    }
}

/// What a receiver answers.
#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    pub delay: Duration,
    pub location: Option<String>,
    pub body: String,
}

impl Reply {
    pub fn status(status: u16) -> Self {
        Self { status, delay: Duration::ZERO, location: None, body: format!("answered {status}") }
    }

    pub fn after(mut self, delay: Duration) -> Self {
        self.delay = delay;
        self
    }
}

pub type Behavior = Arc<dyn Fn(&Received) -> Reply + Send + Sync>;

/// An HTTPS server on 127.0.0.1 that records every request and answers as `behavior` says.
pub struct Receiver {
    pub address: SocketAddr,
    log: Arc<Mutex<Vec<Received>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Receiver {
    pub async fn start(tls: &Tls, behavior: impl Fn(&Received) -> Reply + Send + Sync + 'static) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let log = Arc::new(Mutex::new(Vec::new()));
        let acceptor = tokio_rustls::TlsAcceptor::from(tls.server.clone());
        let behavior: Behavior = Arc::new(behavior);
        let task_log = log.clone();
        let task = tokio::spawn(async move {
            let mut connections = JoinSet::new();
            loop {
                let Ok((tcp, _)) = listener.accept().await else { continue };
                let acceptor = acceptor.clone();
                let log = task_log.clone();
                let behavior = behavior.clone();
                connections.spawn(async move {
                    let Ok(stream) = acceptor.accept(tcp).await else { return };
                    let service = service_fn(move |request: Request<hyper::body::Incoming>| {
                        let log = log.clone();
                        let behavior = behavior.clone();
                        async move {
                            let path = request.uri().path().to_owned();
                            let headers = request.headers().clone();
                            let body = request.into_body().collect().await.map(|b| b.to_bytes()).unwrap_or_default();
                            let received = Received { path, headers, body, at: Instant::now() };
                            let reply = behavior(&received);
                            log.lock().unwrap().push(received);
                            tokio::time::sleep(reply.delay).await;
                            let mut response = Response::new(Full::new(Bytes::from(reply.body)));
                            *response.status_mut() = StatusCode::from_u16(reply.status).unwrap();
                            if let Some(location) = reply.location {
                                response.headers_mut().insert(http::header::LOCATION, location.parse().unwrap());
                            }
                            Ok::<_, Infallible>(response)
                        }
                    });
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), service)
                        .await;
                });
                while connections.try_join_next().is_some() {}
            }
        });
        Self { address, log, task }
    }

    pub fn url(&self, path: &str) -> String {
        format!("https://127.0.0.1:{}{path}", self.address.port())
    }

    pub fn received(&self) -> Vec<Received> {
        self.log.lock().unwrap().clone()
    }

    pub fn count(&self, path: &str) -> usize {
        self.log.lock().unwrap().iter().filter(|r| r.path == path).count()
    }

    /// Waits until at least `n` requests arrived.
    pub async fn wait_for(&self, n: usize, within: Duration) -> Vec<Received> {
        let deadline = Instant::now() + within;
        loop {
            let received = self.received();
            if received.len() >= n {
                return received;
            }
            assert!(
                Instant::now() < deadline,
                "the receiver got {} requests, not {n}, within {within:?}",
                received.len()
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
}

impl Drop for Receiver {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// A test database with a tenant and a published template, and a service over it.
pub struct World {
    pub db: TestDatabase,
    pub store: PgStore,
    pub service: ClickwrapService,
    pub tenant: Tenant,
    pub template: Template,
    pub tls: Tls,
}

/// Builds a service over `store` (its own pool), as a second server instance would.
pub async fn service_on(store: &PgStore, guard: Arc<dyn WebhookTargetGuard>) -> ClickwrapService {
    start(ports_on(store, guard)).await
}

/// The same, with the outbox reached through `deliveries` (a store wrapping `store`): what a
/// dispatcher over that service claims and records through.
pub async fn service_with_deliveries(store: &PgStore, deliveries: Arc<dyn DeliveryStore>) -> ClickwrapService {
    start(Ports { deliveries, ..ports_on(store, Arc::new(AllowAllWebhookTargets)) }).await
}

fn ports_on(store: &PgStore, guard: Arc<dyn WebhookTargetGuard>) -> Ports {
    Ports::from_store(
        Arc::new(store.clone()),
        Arc::new(SystemClock),
        Arc::new(UuidV7),
        Arc::new(OsRandom::default()),
        guard,
        Arc::new(TextCertificateRenderer),
    )
}

async fn start(ports: Ports) -> ClickwrapService {
    ClickwrapService::start(
        ports,
        Settings::default(),
        clickwrap_domain::keys::master::MasterKeys::new(
            clickwrap_domain::keys::master::MasterKey::from_bytes([7; 32]),
            None,
        ),
    )
    .await
    .unwrap()
}

pub fn loopback() -> AllowCidrs {
    AllowCidrs::new(clickwrap_domain::webhooks::cidr::Cidr::parse_list("127.0.0.0/8, ::1/128").unwrap())
}

impl World {
    pub async fn new() -> Self {
        let db = TestDatabase::new().await;
        let store = db.store();
        // Apps get whatever URL a test needs; the registration check has tests of its own.
        let service = service_on(&store, Arc::new(AllowAllWebhookTargets)).await;
        let stores = Stores::of(&store);
        let (tenant, _) = fixtures::stored_tenant(&stores).await;
        let template = fixtures::stored_template(&stores, tenant.id, &[(1, 0)]).await;
        Self { db, store, service, tenant, template, tls: Tls::new() }
    }

    pub fn now(&self) -> Timestamp {
        self.service.now()
    }

    /// A new app of the tenant with this webhook URL (any address), and its signing secret.
    pub async fn app(&self, url: &str) -> (App, WebhookSigningSecret) {
        let webhook_url = WebhookUrl::parse_with_exemptions(url, |_| true).unwrap();
        let new = NewApp {
            name: Name::parse(&format!("App {}", uuid::Uuid::new_v4())).unwrap(),
            webhook_url: Some(webhook_url),
            allowed_origins: Vec::new(),
        };
        let created = self.service.create_app(&Admin::server(self.tenant.id), new).await.unwrap();
        (created.app, created.webhook_signing_secret)
    }

    pub async fn change_app(&self, app: &App, changes: AppChanges) -> App {
        self.service.update_app(&Admin::server(self.tenant.id), app.id, changes).await.unwrap()
    }

    /// A verified event of `app`: its delivery is in the outbox, due now.
    pub async fn verified_event(&self, app: &App) -> ClickwrapEvent {
        let now = self.now();
        let event =
            fixtures::event(app, &self.template).action_at(now.saturating_sub(time::Duration::seconds(2))).build();
        fixtures::verified_event(&Stores::of(&self.store), event, now).await
    }

    /// Lets the SDK's calls use the world's template (stored disabled).
    pub async fn enable_template(&self) {
        self.service.enable_template(&Admin::server(self.tenant.id), self.template.id).await.unwrap();
    }

    /// A consent flow as the SDK and the operator's backend make it, through `service`: the check,
    /// the action (an UNVERIFIED event and its Signature), the verification. The verified event
    /// and the moment just before the verification was asked for.
    pub async fn consent_flow(&self, service: &ClickwrapService, app: &App) -> (ClickwrapEvent, Instant) {
        let end_user_id = EndUserId::parse(&format!("user-{}", uuid::Uuid::new_v4())).unwrap();
        let check = ClickwrapCheck {
            template_id: self.template.id,
            end_user_id: end_user_id.clone(),
            language: LanguagePreference::parse("en").unwrap(),
            placeholders: PlaceholderValues::default(),
        };
        let view = service.check_clickwrap(app, &check).await.unwrap();
        let action = PresentedAction {
            template_id: self.template.id,
            version: view.shown.rendered.version,
            end_user_id,
            action: Action::Accepted,
            language: Language::English,
            placeholders: PlaceholderValues::default(),
            content_hash: view.shown.rendered.content_hash.clone(),
            presented_at: self.now().saturating_sub(time::Duration::seconds(5)),
            presentation: Presentation {
                mode: PresentationMode::Dialog,
                agreement_mode: view.shown.customizations.agreement_mode,
                accept_label: "Accept".into(),
                checkbox_label: None,
                scroll_required: Some(false),
            },
            client_metadata: serde_json::Map::new(),
            client_ip: Some("203.0.113.7".into()),
            user_agent: Some("Mozilla/5.0 (test)".into()),
        };
        let recorded = service.record_action(app, action).await.unwrap();
        let asked = Instant::now();
        let verified = service.verify(app, recorded.signature.as_str()).await.unwrap();
        (verified.event, asked)
    }

    pub async fn delivery(&self, event: &ClickwrapEvent) -> DeliveryRecord {
        let delivery =
            clickwrap_domain::ports::EventStore::find_delivery_for_event(&self.store, self.tenant.id, event.id)
                .await
                .unwrap()
                .unwrap();
        self.store.find_delivery(self.tenant.id, delivery.id).await.unwrap().unwrap()
    }

    /// Waits until `done` holds for the delivery of every event.
    pub async fn wait_for_deliveries(
        &self,
        events: &[ClickwrapEvent],
        within: Duration,
        done: impl Fn(&DeliveryRecord) -> bool,
    ) -> Vec<DeliveryRecord> {
        let deadline = Instant::now() + within;
        loop {
            let mut records = Vec::new();
            for event in events {
                records.push(self.delivery(event).await);
            }
            if records.iter().all(&done) {
                return records;
            }
            assert!(Instant::now() < deadline, "deliveries not done within {within:?}: {records:#?}");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Settings for tests: loopback allowed, the test CA trusted, one-second attempts, short retries
    /// and leases.
    pub fn config(&self) -> DispatcherConfig {
        DispatcherConfig {
            concurrency: 16,
            batch_size: 8,
            retry: RetryPolicy::new(vec![time::Duration::milliseconds(100); 3]).unwrap(),
            lease: Duration::from_secs(3),
            poll_interval: Duration::from_millis(50),
            shutdown_grace: Duration::from_secs(2),
            client: ClientSettings {
                timeout: Duration::from_secs(1),
                policy: AddressPolicy::new(loopback()),
                ca_file: Some(self.tls.ca_file.clone()),
                ..ClientSettings::default()
            },
        }
    }

    /// A dispatcher on a store and service of its own (as another server instance), listening for
    /// wake-ups; started.
    pub async fn dispatcher(&self, config: DispatcherConfig) -> (RunningDispatcher, DeliveryListener) {
        let store = self.db.store();
        let service = service_on(&store, Arc::new(AllowAllWebhookTargets)).await;
        let dispatcher = Dispatcher::new(config, service).unwrap();
        let waker = dispatcher.waker();
        let listener = listen(self.db.url().clone(), move || waker.wake());
        (dispatcher.start(), listener)
    }
}

/// Resolves names from a fixed table.
#[derive(Debug, Default)]
pub struct StaticNames(pub HashMap<String, Vec<IpAddr>>);

#[async_trait]
impl Resolve for StaticNames {
    async fn resolve(&self, host: &str, _port: u16) -> io::Result<Vec<IpAddr>> {
        self.0.get(host).cloned().ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, "unknown test name"))
    }
}

/// Records every address dialed; dials loopback only, and never anything else (so a broken guard
/// cannot send a packet off this machine).
#[derive(Debug, Default)]
pub struct LoopbackOnlyDialer(pub Mutex<Vec<SocketAddr>>);

#[async_trait]
impl Dial for LoopbackOnlyDialer {
    async fn dial(&self, address: SocketAddr) -> io::Result<TcpStream> {
        self.0.lock().unwrap().push(address);
        let ip = match address.ip() {
            IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(IpAddr::V6(v6), IpAddr::V4),
            ip => ip,
        };
        if !ip.is_loopback() {
            return Err(io::Error::new(io::ErrorKind::PermissionDenied, "tests dial loopback only"));
        }
        TcpDialer.dial(address).await
    }
}
