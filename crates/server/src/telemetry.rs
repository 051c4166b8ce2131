//! Logs: `tracing` to standard error (standard output is for command results), human-readable by
//! default and JSON with `CLICKWRAP_LOG_FORMAT=json`; every request's lines carry its request id.
//! Query strings, headers and bodies are never logged, so App Keys and tokens cannot leak there.

use std::time::Instant;

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::middleware::Next;
use tracing::Instrument;
use tracing_subscriber::EnvFilter;

use crate::config::LogFormat;
use crate::metrics::Metrics;

pub(crate) fn init(format: LogFormat) {
    let filter = EnvFilter::try_from_env("CLICKWRAP_LOG").unwrap_or_else(|_| EnvFilter::new("info"));
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).with_ansi(ansi);
    let _ = match format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder.json().flatten_event(true).with_current_span(true).try_init(),
    };
}

const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// Gives every request an id (the caller's `X-Request-Id` when it is sane, else a new one), logs
/// one line per request inside a span carrying it, echoes it back, and counts the request.
pub(crate) async fn requests(
    request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let id = request
        .headers()
        .get(&REQUEST_ID)
        .and_then(|v| v.to_str().ok())
        .filter(|v| !v.is_empty() && v.len() <= 64 && v.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
        .map_or_else(|| uuid::Uuid::new_v4().to_string(), str::to_owned);
    let metrics = request.app_data::<actix_web::web::Data<Metrics>>().cloned();
    let span = tracing::info_span!("request", request_id = %id, method = %request.method(), path = %request.path());
    let started = Instant::now();
    async move {
        let result = next.call(request).await;
        let elapsed = started.elapsed();
        match result {
            Ok(mut response) => {
                let status = response.status().as_u16();
                let route = response.request().match_pattern().unwrap_or_else(|| "unmatched".into());
                tracing::info!(status, route = %route, latency_ms = elapsed.as_secs_f64() * 1000.0, "request");
                if let Some(metrics) = &metrics {
                    metrics.observe_request(response.request().method().as_str(), &route, status, elapsed);
                }
                if let Ok(value) = HeaderValue::from_str(&id) {
                    response.headers_mut().insert(REQUEST_ID, value);
                }
                Ok(response.map_into_boxed_body())
            }
            Err(error) => {
                let status = error.as_response_error().status_code().as_u16();
                tracing::warn!(status, latency_ms = elapsed.as_secs_f64() * 1000.0, "request failed");
                if let Some(metrics) = &metrics {
                    metrics.observe_request("?", "unmatched", status, elapsed);
                }
                Err(error)
            }
        }
    }
    .instrument(span)
    .await
}
