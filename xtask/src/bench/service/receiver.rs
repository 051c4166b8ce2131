//! The operator's webhook endpoint, played by the benchmark: an HTTPS server on 127.0.0.1 with a
//! certificate from a CA made for this run (the server trusts it through its CA-file setting). It
//! answers 200 at once and notes when each delivery arrived; signatures are checked afterwards,
//! outside the lock the receiving side takes, and each delivery once, so checking does not slow
//! receiving.

use std::collections::HashMap;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, Issuer, KeyPair, KeyUsagePurpose};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use tokio::net::TcpListener;

/// One delivery as it arrived.
#[derive(Debug, Clone)]
struct Delivery {
    at: Instant,
    signature: Option<String>,
    timestamp: Option<String>,
    standard: StandardHeaders,
    body: Bytes,
}

/// The Standard Webhooks headers of a delivery, as they arrived.
#[derive(Debug, Clone)]
struct StandardHeaders {
    id: Option<String>,
    signature: Option<String>,
    timestamp: Option<String>,
}

#[derive(Debug)]
pub(crate) struct Receiver {
    pub(crate) address: SocketAddr,
    log: Arc<Mutex<Vec<Delivery>>>,
    /// How many deliveries of the log are checked, and what they came to.
    checked: Mutex<(usize, Arrivals)>,
    task: tokio::task::JoinHandle<()>,
}

/// What arrived, checked.
#[derive(Debug, Default, Clone)]
pub(crate) struct Arrivals {
    /// Arrival time of each delivered event, first arrival only.
    pub(crate) by_event: HashMap<String, Instant>,
    /// Deliveries in all (a redelivered event counts each time).
    pub(crate) deliveries: usize,
    /// Deliveries whose signatures (the spec's and the Standard Webhooks one) did not both check
    /// out, or whose body had no event id.
    pub(crate) bad: usize,
}

impl Receiver {
    /// Starts the receiver and writes the CA's certificate to `ca_file`.
    pub(crate) async fn start(ca_file: &Path) -> Result<Self, String> {
        let tls = tls(ca_file)?;
        let listener = TcpListener::bind("127.0.0.1:0").await.map_err(|e| format!("receiver: {e}"))?;
        let address = listener.local_addr().map_err(|e| e.to_string())?;
        let log: Arc<Mutex<Vec<Delivery>>> = Arc::new(Mutex::new(Vec::new()));
        let acceptor = tokio_rustls::TlsAcceptor::from(tls);
        let task_log = log.clone();
        let task = tokio::spawn(async move {
            loop {
                let Ok((tcp, _)) = listener.accept().await else { continue };
                let acceptor = acceptor.clone();
                let log = task_log.clone();
                tokio::spawn(async move {
                    let Ok(stream) = acceptor.accept(tcp).await else { return };
                    let service = service_fn(move |request: Request<hyper::body::Incoming>| {
                        let log = log.clone();
                        async move {
                            let header = |name: &str| {
                                request.headers().get(name).and_then(|v| v.to_str().ok()).map(str::to_owned)
                            };
                            let signature = header("x-service-signature");
                            let timestamp = header("x-service-timestamp");
                            let standard = StandardHeaders {
                                id: header("webhook-id"),
                                signature: header("webhook-signature"),
                                timestamp: header("webhook-timestamp"),
                            };
                            let body = request.into_body().collect().await.map(|b| b.to_bytes()).unwrap_or_default();
                            let delivery = Delivery { at: Instant::now(), signature, timestamp, standard, body };
                            log.lock().unwrap_or_else(PoisonError::into_inner).push(delivery);
                            Ok::<_, Infallible>(Response::new(Full::new(Bytes::from_static(b"ok"))))
                        }
                    });
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), service)
                        .await;
                });
            }
        });
        Ok(Self { address, log, checked: Mutex::default(), task })
    }

    pub(crate) fn url(&self) -> String {
        format!("https://127.0.0.1:{}/clickwrap-webhook", self.address.port())
    }

    /// Every delivery so far, each signature checked with `secret`.
    pub(crate) fn arrivals(&self, secret: &str) -> Arrivals {
        self.with_arrivals(secret, Arrivals::clone)
    }

    /// How many of `events` have not arrived yet.
    pub(crate) fn missing<'a>(&self, secret: &str, events: impl Iterator<Item = &'a String>) -> usize {
        self.with_arrivals(secret, |arrivals| events.filter(|id| !arrivals.by_event.contains_key(*id)).count())
    }

    /// Checks the deliveries that arrived since the last call (copied out of the log first, so the
    /// receiving side is not held up), then hands what arrived in all to `read`.
    fn with_arrivals<R>(&self, secret: &str, read: impl FnOnce(&Arrivals) -> R) -> R {
        let mut checked = self.checked.lock().unwrap_or_else(PoisonError::into_inner);
        let new: Vec<Delivery> = {
            let log = self.log.lock().unwrap_or_else(PoisonError::into_inner);
            log.get(checked.0..).unwrap_or_default().to_vec()
        };
        checked.0 += new.len();
        let now = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(0));
        let arrivals = &mut checked.1;
        for delivery in new {
            arrivals.deliveries += 1;
            // Both signatures must hold: the spec's and the Standard Webhooks one.
            let signed = clickwrap_webhooks::receiver::verify_values(
                secret,
                delivery.signature.as_deref(),
                delivery.timestamp.as_deref(),
                &delivery.body,
                now,
            )
            .and_then(|()| {
                let standard = &delivery.standard;
                clickwrap_webhooks::receiver::verify_standard_values(
                    secret,
                    standard.id.as_deref(),
                    standard.signature.as_deref(),
                    standard.timestamp.as_deref(),
                    &delivery.body,
                    now,
                )
            });
            let event_id = serde_json::from_slice::<serde_json::Value>(&delivery.body)
                .ok()
                .and_then(|v| v.pointer("/data/clickwrapEventId").and_then(|id| id.as_str()).map(str::to_owned));
            match (signed, event_id) {
                (Ok(()), Some(id)) => {
                    arrivals.by_event.entry(id).or_insert(delivery.at);
                }
                _ => arrivals.bad += 1,
            }
        }
        read(&checked.1)
    }
}

impl Drop for Receiver {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// A CA for this run (its certificate written to `ca_file`) and a certificate it issued for 127.0.0.1.
fn tls(ca_file: &Path) -> Result<Arc<rustls::ServerConfig>, String> {
    let fail = |e: rcgen::Error| format!("cannot make the receiver's certificate: {e}");
    let ca_key = KeyPair::generate().map_err(fail)?;
    let mut ca = CertificateParams::new(Vec::<String>::new()).map_err(fail)?;
    ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca.distinguished_name.push(DnType::CommonName, "clickwrap benchmark CA");
    ca.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign, KeyUsagePurpose::DigitalSignature];
    let ca_cert = ca.self_signed(&ca_key).map_err(fail)?;
    let issuer = Issuer::from_params(&ca, &ca_key);
    let leaf_key = KeyPair::generate().map_err(fail)?;
    let mut leaf = CertificateParams::new(vec!["127.0.0.1".to_owned()]).map_err(fail)?;
    leaf.distinguished_name.push(DnType::CommonName, "benchmark webhook receiver");
    let leaf_cert = leaf.signed_by(&leaf_key, &issuer).map_err(fail)?;
    std::fs::write(ca_file, ca_cert.pem()).map_err(|e| format!("cannot write {}: {e}", ca_file.display()))?;

    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(leaf_key.serialize_der()));
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .and_then(|b| {
            b.with_no_client_auth().with_single_cert(vec![CertificateDer::from(leaf_cert.der().to_vec())], key)
        })
        .map_err(|e| format!("receiver TLS: {e}"))?;
    Ok(Arc::new(config))
}
