//! The HTTPS client that sends one webhook attempt: HTTP/1.1 over rustls over the
//! [guarded connector](crate::guard::GuardedConnector), keep-alive connections pooled per receiver,
//! a time limit per attempt, redirects never followed (hyper does not follow them; a 3xx is
//! simply a response that is not 200).

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use clickwrap_domain::webhooks::dispatch::{RESPONSE_EXCERPT_MAX_BYTES, response_excerpt};
use clickwrap_domain::webhooks::models::AttemptError;
use clickwrap_domain::webhooks::url::WebhookUrl;
use http::header::{CONTENT_TYPE, HeaderValue, USER_AGENT};
use http::{Method, Request};
use http_body_util::{BodyExt, Full};
use hyper_rustls::HttpsConnector;
use hyper_util::client::legacy::Client;
use hyper_util::rt::{TokioExecutor, TokioTimer};
use rustls::RootCertStore;
use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject;

use crate::guard::{AddressPolicy, ConnectError, Dial, GuardedConnector, Resolve, SystemResolver, TcpDialer};
use clickwrap_domain::webhooks::signing::{WEBHOOK_ID_HEADER, WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TIMESTAMP_HEADER};

use crate::receiver::{SIGNATURE_HEADER, TIMESTAMP_HEADER};

/// What signs one attempt: the spec's two headers and the three of Standard Webhooks v1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignedHeaders {
    /// Unix seconds: `X-Service-Timestamp` and `webhook-timestamp`.
    pub timestamp_secs: i64,
    /// `X-Service-Signature`.
    pub service_signature: String,
    /// `webhook-id`: the message id.
    pub message_id: String,
    /// `webhook-signature`.
    pub standard_signature: String,
}

/// How the client reaches receivers.
#[derive(Clone)]
pub struct ClientSettings {
    /// The whole attempt: connecting, TLS, sending and the response's status line and headers
    /// (`CLICKWRAP_WEBHOOK_TIMEOUT_SECS`, default 10 s).
    pub timeout: Duration,
    /// Which addresses may be connected to (`CLICKWRAP_WEBHOOK_ALLOW_CIDRS` as exemptions).
    pub policy: AddressPolicy,
    /// Extra trusted root certificates, PEM (`CLICKWRAP_WEBHOOK_CA_FILE`), besides Mozilla's roots.
    pub ca_file: Option<PathBuf>,
    /// Host name lookups; the operating system's by default.
    pub resolver: Arc<dyn Resolve>,
    /// Opens TCP connections to the addresses the guard let through; plain `connect` by default.
    pub dialer: Arc<dyn Dial>,
    /// Idle keep-alive connections kept per receiver.
    pub max_idle_per_host: usize,
}

impl Default for ClientSettings {
    fn default() -> Self {
        Self {
            timeout: Duration::from_secs(10),
            policy: AddressPolicy::default(),
            ca_file: None,
            resolver: Arc::new(SystemResolver),
            dialer: Arc::new(TcpDialer),
            max_idle_per_host: 32,
        }
    }
}

impl fmt::Debug for ClientSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClientSettings")
            .field("timeout", &self.timeout)
            .field("policy", &self.policy)
            .field("ca_file", &self.ca_file)
            .field("resolver", &self.resolver)
            .field("dialer", &self.dialer)
            .field("max_idle_per_host", &self.max_idle_per_host)
            .finish()
    }
}

/// The client could not be built.
#[derive(Debug, thiserror::Error)]
pub enum ClientSetupError {
    #[error("cannot read the webhook CA file {path}: {reason}")]
    CaFile { path: PathBuf, reason: String },
    #[error("the webhook CA file {path} holds no certificate")]
    EmptyCaFile { path: PathBuf },
    #[error("cannot set up TLS: {0}")]
    Tls(String),
}

/// What the receiver answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    pub status: u16,
    /// The start of the body as text (see [`response_excerpt`]); what arrived within the time limit.
    pub excerpt: String,
}

/// Why no answer came.
#[derive(Debug, thiserror::Error)]
#[error("{class}: {detail}")]
pub struct SendError {
    pub class: AttemptError,
    pub detail: String,
}

/// Sends signed webhook requests. Cheap to clone; clones share the connection pool.
#[derive(Clone)]
pub struct WebhookClient {
    client: Client<HttpsConnector<GuardedConnector>, Full<Bytes>>,
    timeout: Duration,
}

impl fmt::Debug for WebhookClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WebhookClient").field("timeout", &self.timeout).finish_non_exhaustive()
    }
}

const USER_AGENT_VALUE: &str = concat!("clickwrap-webhooks/", env!("CARGO_PKG_VERSION"));

fn roots(ca_file: Option<&Path>) -> Result<RootCertStore, ClientSetupError> {
    let mut roots = RootCertStore { roots: webpki_roots::TLS_SERVER_ROOTS.to_vec() };
    if let Some(path) = ca_file {
        let error = |reason: String| ClientSetupError::CaFile { path: path.to_owned(), reason };
        let certificates: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(path)
            .map_err(|e| error(e.to_string()))?
            .collect::<Result<_, _>>()
            .map_err(|e| error(e.to_string()))?;
        if certificates.is_empty() {
            return Err(ClientSetupError::EmptyCaFile { path: path.to_owned() });
        }
        for certificate in certificates {
            roots.add(certificate).map_err(|e| error(e.to_string()))?;
        }
    }
    Ok(roots)
}

impl WebhookClient {
    /// Builds the client (reading the CA file, if any). Needs a Tokio runtime only when sending.
    pub fn new(settings: &ClientSettings) -> Result<Self, ClientSetupError> {
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let tls = rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|e| ClientSetupError::Tls(e.to_string()))?
            .with_root_certificates(roots(settings.ca_file.as_deref())?)
            .with_no_client_auth();
        let tcp = GuardedConnector::new(settings.policy.clone(), settings.resolver.clone(), settings.dialer.clone());
        let https = hyper_rustls::HttpsConnectorBuilder::new()
            .with_tls_config(tls)
            .https_only()
            .enable_http1()
            .wrap_connector(tcp);
        let client = Client::builder(TokioExecutor::new())
            .pool_timer(TokioTimer::new())
            .pool_idle_timeout(Duration::from_secs(30))
            .pool_max_idle_per_host(settings.max_idle_per_host)
            .build(https);
        Ok(Self { client, timeout: settings.timeout })
    }

    /// POSTs `body` to `url` with the signature headers. `Ok` for any HTTP response, whatever its
    /// status; `Err` when none arrived in time.
    pub async fn post(&self, url: &WebhookUrl, signed: &SignedHeaders, body: Bytes) -> Result<Response, SendError> {
        let deadline = tokio::time::Instant::now() + self.timeout;
        let timestamp = signed.timestamp_secs.to_string();
        let request = Request::builder()
            .method(Method::POST)
            .uri(url.as_str())
            .header(CONTENT_TYPE, HeaderValue::from_static("application/json"))
            .header(USER_AGENT, HeaderValue::from_static(USER_AGENT_VALUE))
            .header(TIMESTAMP_HEADER, &timestamp)
            .header(SIGNATURE_HEADER, &signed.service_signature)
            .header(WEBHOOK_ID_HEADER, &signed.message_id)
            .header(WEBHOOK_TIMESTAMP_HEADER, &timestamp)
            .header(WEBHOOK_SIGNATURE_HEADER, &signed.standard_signature)
            .body(Full::new(body))
            .map_err(|e| SendError { class: AttemptError::Protocol, detail: e.to_string() })?;
        let response = match tokio::time::timeout_at(deadline, self.client.request(request)).await {
            Ok(Ok(response)) => response,
            Ok(Err(error)) => return Err(classify(&error)),
            Err(_) => return Err(timed_out(self.timeout)),
        };
        let status = response.status().as_u16();
        // The status decides the outcome; the body is kept for the history, as much as arrives in
        // time, up to the excerpt's size.
        let mut body = response.into_body();
        let mut head = Vec::new();
        while head.len() < RESPONSE_EXCERPT_MAX_BYTES {
            match tokio::time::timeout_at(deadline, body.frame()).await {
                Ok(Some(Ok(frame))) => {
                    if let Some(data) = frame.data_ref() {
                        head.extend_from_slice(data);
                    }
                }
                Ok(Some(Err(_)) | None) | Err(_) => break,
            }
        }
        Ok(Response { status, excerpt: response_excerpt(&head) })
    }
}

fn timed_out(timeout: Duration) -> SendError {
    SendError { class: AttemptError::Timeout, detail: format!("no response within {} ms", timeout.as_millis()) }
}

/// Names the failure from the error's chain of causes.
fn classify(error: &hyper_util::client::legacy::Error) -> SendError {
    let mut detail = error.to_string();
    let mut class = if error.is_connect() { AttemptError::Connect } else { AttemptError::Protocol };
    let mut source: Option<&(dyn std::error::Error + 'static)> = std::error::Error::source(error);
    while let Some(cause) = source {
        detail = format!("{detail}: {cause}");
        if let Some(connect) = cause.downcast_ref::<ConnectError>() {
            class = match connect {
                ConnectError::Blocked { .. } => AttemptError::BlockedAddress,
                ConnectError::Dns { .. } => AttemptError::Dns,
                ConnectError::Connect { .. } | ConnectError::NoHost => AttemptError::Connect,
            };
        } else if is_tls(cause) {
            class = AttemptError::Tls;
        }
        source = cause.source();
    }
    SendError { class, detail }
}

/// Whether the error is rustls's, possibly inside (nested) I/O errors, which is how the TLS
/// connector reports it. (`io::Error::source` skips the error it wraps, so look inside by hand.)
fn is_tls(error: &(dyn std::error::Error + 'static)) -> bool {
    if error.is::<rustls::Error>() {
        return true;
    }
    match error.downcast_ref::<std::io::Error>().and_then(std::io::Error::get_ref) {
        Some(inner) => is_tls(inner),
        None => false,
    }
}
