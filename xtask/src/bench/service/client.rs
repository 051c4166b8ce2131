//! A minimal HTTP/1.1 client over one keep-alive connection (hyper's connection API), for setting
//! the service up and for the consent-write load, whose second request needs the first's answer —
//! something a request-at-a-time load generator cannot chain.

use std::net::SocketAddr;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1::SendRequest;
use hyper::{HeaderMap, Method, Request, StatusCode};
use hyper_util::rt::TokioIo;
use serde_json::Value;
use tokio::net::TcpStream;

/// One connection to the service.
pub(crate) struct Connection {
    sender: SendRequest<Full<Bytes>>,
    host: String,
}

impl std::fmt::Debug for Connection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Connection").field("host", &self.host).finish_non_exhaustive()
    }
}

/// An answer: status, headers and body.
#[derive(Debug)]
pub(crate) struct Answer {
    pub(crate) status: StatusCode,
    pub(crate) headers: HeaderMap,
    pub(crate) body: Bytes,
}

impl Answer {
    pub(crate) fn json(&self) -> Result<Value, String> {
        serde_json::from_slice(&self.body)
            .map_err(|e| format!("answer {} is not JSON ({e}): {}", self.status, String::from_utf8_lossy(&self.body)))
    }

    /// The JSON body if the status is `expected`, else an error that shows what came instead.
    pub(crate) fn expect(self, expected: u16, what: &str) -> Result<Value, String> {
        if self.status.as_u16() == expected {
            self.json()
        } else {
            Err(format!("{what}: expected {expected}, got {}: {}", self.status, String::from_utf8_lossy(&self.body)))
        }
    }
}

impl Connection {
    pub(crate) async fn open(address: SocketAddr) -> Result<Self, String> {
        let tcp = TcpStream::connect(address).await.map_err(|e| format!("cannot connect to {address}: {e}"))?;
        tcp.set_nodelay(true).map_err(|e| e.to_string())?;
        let (sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(tcp))
            .await
            .map_err(|e| format!("HTTP handshake with {address} failed: {e}"))?;
        tokio::spawn(connection);
        Ok(Self { sender, host: address.to_string() })
    }

    /// Sends one request; `body` is sent as JSON.
    pub(crate) async fn send(
        &mut self,
        method: Method,
        path: &str,
        headers: &[(&str, &str)],
        body: Option<&Value>,
    ) -> Result<Answer, String> {
        let mut request = Request::builder().method(method).uri(path).header(hyper::header::HOST, &self.host);
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let payload = match body {
            Some(json) => {
                request = request.header(hyper::header::CONTENT_TYPE, "application/json");
                Bytes::from(json.to_string())
            }
            None => Bytes::new(),
        };
        let request = request.body(Full::new(payload)).map_err(|e| format!("bad request for {path}: {e}"))?;
        self.sender.ready().await.map_err(|e| format!("connection lost before {path}: {e}"))?;
        let response = self.sender.send_request(request).await.map_err(|e| format!("{path} failed: {e}"))?;
        let status = response.status();
        let headers = response.headers().clone();
        let body = response.into_body().collect().await.map_err(|e| format!("{path}: body lost: {e}"))?.to_bytes();
        Ok(Answer { status, headers, body })
    }
}

/// Percent-encodes a query parameter value (everything but RFC 3986's unreserved characters).
pub(crate) fn query_value(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}
