//! The RFC 3161 time-stamping authority over HTTP (`CLICKWRAP_TSA_URL`): POSTs the
//! `TimeStampReq` the pdf crate builds and hands its check the reply. Each call is bounded by a
//! timeout, so a slow TSA delays a verification by that much at most; then the certificate is
//! signed without a timestamp (see `clickwrap_pdf::PdfRenderer::with_timestamp_authority`).

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use bytes::Bytes;
use clickwrap_pdf::{
    PdfRenderer, TIMESTAMP_QUERY_MEDIA_TYPE, TIMESTAMP_REPLY_MEDIA_TYPE, TimestampAuthority, TimestampError,
    TimestampRequest,
};
use http::header::{ACCEPT, CONTENT_TYPE, HeaderValue, USER_AGENT};
use http::{Method, Request, Uri};
use http_body_util::{BodyExt, Full, Limited};
use hyper_rustls::HttpsConnector;
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;

use crate::app::StartError;
use crate::config::Config;

/// A reply larger than this is not a timestamp token.
const MAX_REPLY_BYTES: usize = 64 * 1024;

const USER_AGENT_VALUE: &str = concat!("clickwrap-server/", env!("CARGO_PKG_VERSION"));

/// The renderer, timestamping with the configured authority (if any), whose outcomes `/metrics`
/// then counts.
pub(crate) fn with_configured_authority(renderer: PdfRenderer, config: &Config) -> Result<PdfRenderer, StartError> {
    let Some(url) = &config.tsa_url else {
        tracing::info!("no time-stamping authority (CLICKWRAP_TSA_URL): certificates are signed PAdES B-B");
        return Ok(renderer);
    };
    let authority = HttpTimestampAuthority::new(url.clone(), config.tsa_timeout)
        .map_err(|e| StartError::Other(format!("the time-stamping authority client could not be built: {e}")))?;
    tracing::info!(tsa_host = ?url.host(), "certificates are timestamped (PAdES B-T)");
    let renderer = renderer.with_timestamp_authority(Arc::new(authority));
    crate::metrics::watch_certificate_timestamps(renderer.timestamp_counts());
    Ok(renderer)
}

/// A time-stamping authority at an `http://` or `https://` URL.
pub(crate) struct HttpTimestampAuthority {
    url: Uri,
    timeout: Duration,
    client: Client<HttpsConnector<HttpConnector>, Full<Bytes>>,
}

#[derive(Debug, thiserror::Error)]
pub(crate) enum TsaSetupError {
    #[error("the TLS configuration could not be built: {0}")]
    Tls(String),
}

impl HttpTimestampAuthority {
    /// Needs a Tokio runtime only when stamping. HTTPS is checked against Mozilla's root certificates.
    pub(crate) fn new(url: Uri, timeout: Duration) -> Result<Self, TsaSetupError> {
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let roots = rustls::RootCertStore { roots: webpki_roots::TLS_SERVER_ROOTS.to_vec() };
        let tls = rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|e| TsaSetupError::Tls(e.to_string()))?
            .with_root_certificates(roots)
            .with_no_client_auth();
        let https =
            hyper_rustls::HttpsConnectorBuilder::new().with_tls_config(tls).https_or_http().enable_http1().build();
        let client = Client::builder(TokioExecutor::new()).build(https);
        Ok(Self { url, timeout, client })
    }

    /// POSTs the request; the reply's body if it is a `200 application/timestamp-reply`.
    async fn post(&self, body: &[u8]) -> Result<Bytes, TimestampError> {
        let request = Request::builder()
            .method(Method::POST)
            .uri(self.url.clone())
            .header(CONTENT_TYPE, HeaderValue::from_static(TIMESTAMP_QUERY_MEDIA_TYPE))
            .header(ACCEPT, HeaderValue::from_static(TIMESTAMP_REPLY_MEDIA_TYPE))
            .header(USER_AGENT, HeaderValue::from_static(USER_AGENT_VALUE))
            .body(Full::new(Bytes::copy_from_slice(body)))
            .map_err(|e| TimestampError::Unreachable(e.to_string()))?;
        let response = self.client.request(request).await.map_err(|e| TimestampError::Unreachable(error_chain(&e)))?;
        let status = response.status();
        if !status.is_success() {
            return Err(TimestampError::HttpStatus(status.as_u16()));
        }
        let media_type = response.headers().get(CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or_default();
        if !media_type.trim().to_ascii_lowercase().starts_with(TIMESTAMP_REPLY_MEDIA_TYPE) {
            return Err(TimestampError::Malformed(format!(
                "the reply is {media_type:?}, not {TIMESTAMP_REPLY_MEDIA_TYPE}"
            )));
        }
        let body = Limited::new(response.into_body(), MAX_REPLY_BYTES)
            .collect()
            .await
            .map_err(|e| TimestampError::Malformed(format!("the reply could not be read: {e}")))?;
        Ok(body.to_bytes())
    }
}

#[async_trait]
impl TimestampAuthority for HttpTimestampAuthority {
    async fn timestamp(&self, message_imprint_sha256: [u8; 32]) -> Result<Vec<u8>, TimestampError> {
        let request = TimestampRequest::new(message_imprint_sha256)?;
        let reply = tokio::time::timeout(self.timeout, self.post(request.der()))
            .await
            .map_err(|_| TimestampError::Timeout)??;
        request.token_from_response(&reply)
    }
}

impl fmt::Debug for HttpTimestampAuthority {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The host only: a URL may carry credentials.
        f.debug_struct("HttpTimestampAuthority")
            .field("host", &self.url.host())
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

/// The error and its causes, one after the other ("client error (Connect): Connection refused").
fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use std::io::{Read, Write};
    use std::net::TcpListener;

    use super::*;

    /// A local HTTP endpoint answering every request with `reply` (status line, headers and body
    /// as given), and the request bodies it received.
    fn endpoint(reply: Vec<u8>) -> (Uri, std::sync::mpsc::Receiver<(String, Vec<u8>)>) {
        endpoint_with(move |_| reply.clone())
    }

    /// A local HTTP endpoint answering each request body with what `answer` makes of it.
    fn endpoint_with(
        answer: impl Fn(&[u8]) -> Vec<u8> + Send + 'static,
    ) -> (Uri, std::sync::mpsc::Receiver<(String, Vec<u8>)>) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url: Uri = format!("http://{}/tsa", listener.local_addr().unwrap()).parse().unwrap();
        let (sender, received) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { return };
                let (head, body) = read_request(&mut stream);
                let _ = stream.write_all(&answer(&body));
                let _ = sender.send((head, body));
            }
        });
        (url, received)
    }

    fn read_request(stream: &mut std::net::TcpStream) -> (String, Vec<u8>) {
        let mut bytes = Vec::new();
        let mut buffer = [0_u8; 4096];
        loop {
            let n = stream.read(&mut buffer).unwrap();
            bytes.extend_from_slice(&buffer[..n]);
            if let Some(end) = bytes.windows(4).position(|w| w == b"\r\n\r\n") {
                let head = String::from_utf8_lossy(&bytes[..end]).into_owned();
                let length: usize = head
                    .lines()
                    .find_map(|line| line.to_ascii_lowercase().strip_prefix("content-length:").map(str::to_owned))
                    .and_then(|v| v.trim().parse().ok())
                    .unwrap_or(0);
                while bytes.len() < end + 4 + length {
                    let n = stream.read(&mut buffer).unwrap();
                    bytes.extend_from_slice(&buffer[..n]);
                }
                return (head, bytes[end + 4..end + 4 + length].to_vec());
            }
        }
    }

    fn http_reply(status: &str, content_type: &str, body: &[u8]) -> Vec<u8> {
        let mut reply = format!(
            "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        )
        .into_bytes();
        reply.extend_from_slice(body);
        reply
    }

    #[tokio::test]
    async fn the_request_is_a_timestamp_query_and_a_refusal_is_an_error() {
        // TimeStampResp { status: { rejection (2) } }
        let rejection = [0x30, 0x05, 0x30, 0x03, 0x02, 0x01, 0x02];
        let (url, received) = endpoint(http_reply("200 OK", "application/timestamp-reply", &rejection));
        let tsa = HttpTimestampAuthority::new(url, Duration::from_secs(5)).unwrap();
        let error = tsa.timestamp([9; 32]).await.unwrap_err();
        assert!(matches!(error, TimestampError::Refused { .. }), "{error}");
        let (head, body) = received.recv().unwrap();
        assert!(head.starts_with("POST /tsa HTTP/1.1"), "{head}");
        assert!(head.to_ascii_lowercase().contains("content-type: application/timestamp-query"), "{head}");
        // The DER TimeStampReq carries the imprint.
        assert!(body.windows(32).any(|w| w == [9; 32]), "{body:?}");
    }

    #[tokio::test]
    async fn an_error_status_a_wrong_media_type_a_closed_port_and_silence_are_errors() {
        let (url, _received) = endpoint(http_reply("503 Service Unavailable", "text/plain", b"busy"));
        let tsa = HttpTimestampAuthority::new(url, Duration::from_secs(5)).unwrap();
        assert_eq!(tsa.timestamp([1; 32]).await.unwrap_err(), TimestampError::HttpStatus(503));

        let (url, _received) = endpoint(http_reply("200 OK", "text/html", b"<html>"));
        let tsa = HttpTimestampAuthority::new(url, Duration::from_secs(5)).unwrap();
        assert!(matches!(tsa.timestamp([1; 32]).await, Err(TimestampError::Malformed(_))));

        let closed = TcpListener::bind("127.0.0.1:0").unwrap();
        let url: Uri = format!("http://{}/", closed.local_addr().unwrap()).parse().unwrap();
        drop(closed);
        let tsa = HttpTimestampAuthority::new(url, Duration::from_secs(5)).unwrap();
        assert!(matches!(tsa.timestamp([1; 32]).await, Err(TimestampError::Unreachable(_))));

        // Accepts the connection, never answers.
        let silent = TcpListener::bind("127.0.0.1:0").unwrap();
        let url: Uri = format!("http://{}/", silent.local_addr().unwrap()).parse().unwrap();
        let tsa = HttpTimestampAuthority::new(url, Duration::from_millis(300)).unwrap();
        assert_eq!(tsa.timestamp([1; 32]).await.unwrap_err(), TimestampError::Timeout);
        drop(silent);
    }

    fn facts() -> clickwrap_domain::consent::models::CertificateFacts {
        use clickwrap_domain::contract::fixtures;
        let tenant = fixtures::tenant();
        let app = fixtures::app(tenant.id);
        let mut template = fixtures::template(tenant.id, &[app.id]);
        template.versions.push(fixtures::version(1, 0, fixtures::base_time()));
        let event = fixtures::event(&app, &template).build();
        clickwrap_domain::consent::models::CertificateFacts {
            event,
            app_name: "Acme Shop".to_owned(),
            operator_name: None,
        }
    }

    fn renderer(identity: clickwrap_pdf::SigningIdentity, tsa: HttpTimestampAuthority) -> PdfRenderer {
        PdfRenderer::new(
            identity,
            clickwrap_pdf::FontLibrary::from_env(),
            "https://consent.example.com/public-client/v1/signing-certificate",
        )
        .with_timestamp_authority(Arc::new(tsa))
    }

    #[tokio::test]
    async fn when_the_tsa_is_down_the_certificate_is_signed_without_a_timestamp_and_metrics_count_it() {
        use clickwrap_domain::ports::CertificateRenderer as _;
        let closed = TcpListener::bind("127.0.0.1:0").unwrap();
        let url: Uri = format!("http://{}/", closed.local_addr().unwrap()).parse().unwrap();
        drop(closed);
        let tsa = HttpTimestampAuthority::new(url, Duration::from_secs(2)).unwrap();
        let renderer = renderer(clickwrap_pdf::SigningIdentity::generate("Clickwrap test").unwrap(), tsa);
        let pdf = renderer.render_certificate(&facts()).await.unwrap();
        assert!(pdf.starts_with(b"%PDF-"));
        let metrics = crate::metrics::render_certificate_timestamps(&renderer.timestamp_counts());
        assert!(metrics.contains("\nclickwrap_certificate_timestamp_failures_total 1\n"), "{metrics}");
        assert!(metrics.contains("\nclickwrap_certificate_timestamps_total 0\n"), "{metrics}");
    }

    /// `openssl ts -reply` behind the local HTTP endpoint: a real RFC 3161 TSA, independent of ours.
    #[tokio::test]
    async fn an_openssl_tsa_over_http_timestamps_the_certificate() {
        use clickwrap_domain::ports::CertificateRenderer as _;
        if std::process::Command::new("openssl").arg("version").output().is_err() {
            assert!(
                std::env::var_os("CLICKWRAP_REQUIRE_VALIDATORS").is_none_or(|v| v.is_empty() || v == "0"),
                "openssl is not installed but CLICKWRAP_REQUIRE_VALIDATORS is set"
            );
            return;
        }
        let dir = std::env::temp_dir().join(format!("clickwrap-tsa-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let openssl = |args: &[&str]| {
            let out = std::process::Command::new("openssl").args(args).current_dir(&dir).output().unwrap();
            assert!(out.status.success(), "openssl {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        };
        openssl(&[
            "req",
            "-x509",
            "-new",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:P-256",
            "-nodes",
            "-keyout",
            "tsa.key",
            "-out",
            "tsa.pem",
            "-days",
            "30",
            "-subj",
            "/CN=Test TSA",
            "-addext",
            "extendedKeyUsage=critical,timeStamping",
            "-addext",
            "keyUsage=critical,digitalSignature",
        ]);
        std::fs::write(dir.join("serial"), "01\n").unwrap();
        std::fs::write(
            dir.join("tsa.cnf"),
            "[tsa]\ndefault_tsa = t\n[t]\nserial = serial\ncrypto_device = builtin\nsigner_cert = tsa.pem\n\
             signer_key = tsa.key\nsigner_digest = sha256\ndefault_policy = 1.3.6.1.4.1.99999.1\ndigests = sha256\n\
             ess_cert_id_alg = sha256\n",
        )
        .unwrap();
        let tsa_dir = dir.clone();
        let (url, received) = endpoint_with(move |query| {
            std::fs::write(tsa_dir.join("query.tsq"), query).unwrap();
            let out = std::process::Command::new("openssl")
                .args(["ts", "-reply", "-config", "tsa.cnf", "-queryfile", "query.tsq", "-out", "reply.tsr"])
                .current_dir(&tsa_dir)
                .output()
                .unwrap();
            assert!(out.status.success(), "openssl ts -reply: {}", String::from_utf8_lossy(&out.stderr));
            http_reply("200 OK", "application/timestamp-reply", &std::fs::read(tsa_dir.join("reply.tsr")).unwrap())
        });
        let tsa = HttpTimestampAuthority::new(url, Duration::from_secs(10)).unwrap();
        let identity = clickwrap_pdf::SigningIdentity::generate("Clickwrap test").unwrap();
        let renderer = renderer(identity.clone(), tsa);
        let pdf = renderer.render_certificate(&facts()).await.unwrap();
        let (head, _) = received.recv().unwrap();
        assert!(head.to_ascii_lowercase().contains("content-type: application/timestamp-query"), "{head}");
        assert_eq!((renderer.timestamp_counts().stamped(), renderer.timestamp_counts().failed()), (1, 0));
        let metrics = crate::metrics::render_certificate_timestamps(&renderer.timestamp_counts());
        assert!(metrics.contains("\nclickwrap_certificate_timestamps_total 1\n"), "{metrics}");

        // pyHanko, when installed, judges the timestamp (trusting the signer's and the TSA's certificates).
        if std::process::Command::new("pyhanko").arg("--version").output().is_ok() {
            std::fs::write(dir.join("certificate.pdf"), &pdf).unwrap();
            std::fs::write(dir.join("signer.pem"), identity.certificate_pem()).unwrap();
            let out = std::process::Command::new("pyhanko")
                .args(["sign", "validate", "--no-revocation-check", "--trust", "signer.pem", "--trust", "tsa.pem"])
                .args(["--trust-replace", "certificate.pdf"])
                .current_dir(&dir)
                .output()
                .unwrap();
            let text = String::from_utf8_lossy(&out.stdout);
            assert!(text.contains(":INTACT:TRUSTED,TIMESTAMP_TOKEN<INTACT:TRUSTED>,UNTOUCHED"), "{text}");
        }
    }
}
