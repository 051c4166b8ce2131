//! Logs: `tracing` to standard error (standard output is for command results), human-readable by
//! default and JSON with `CLICKWRAP_LOG_FORMAT=json`; every request's lines carry its request id.
//! Query strings, headers and bodies are never logged, so App Keys and tokens cannot leak there.

use std::time::Instant;

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::middleware::Next;
use tracing::{Instrument, Metadata};
use tracing_subscriber::filter::{EnvFilter, LevelFilter, filter_fn};
use tracing_subscriber::layer::SubscriberExt as _;
use tracing_subscriber::util::SubscriberInitExt as _;

use crate::config::LogFormat;
use crate::metrics::Metrics;

/// Starts logging with `filter` (`CLICKWRAP_LOG`, validated by the configuration). Whatever the
/// filter says, the database driver's debug and trace lines stay out: they carry the statements'
/// parameters, which are end users' names, emails, user agents and content. A failed write to
/// standard error (a closed pipe) loses the line and nothing else: no panic, no message.
pub(crate) fn init(format: LogFormat, filter: &str) {
    let filter = EnvFilter::builder().with_default_directive(LevelFilter::INFO.into()).parse_lossy(filter);
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let layer =
        tracing_subscriber::fmt::layer().with_writer(std::io::stderr).with_ansi(ansi).log_internal_errors(false);
    let registry =
        tracing_subscriber::registry().with(filter).with(filter_fn(|metadata| !carries_personal_data(metadata)));
    let _ = match format {
        LogFormat::Text => registry.with(layer).try_init(),
        LogFormat::Json => registry.with(layer.json().flatten_event(true).with_current_span(true)).try_init(),
    };
}

/// Log targets whose lines below INFO quote the values of statements, requests or bodies.
const QUOTING_TARGETS: [&str; 2] = ["tokio_postgres", "postgres_protocol"];

fn carries_personal_data(metadata: &Metadata<'_>) -> bool {
    let target = metadata.target();
    *metadata.level() > tracing::Level::INFO
        && QUOTING_TARGETS
            .iter()
            .any(|quoting| target.strip_prefix(quoting).is_some_and(|rest| rest.is_empty() || rest.starts_with("::")))
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
    // The route's pattern (`/clickwraps/{endUserId}/status`), never the path: paths carry end user ids.
    let route = request.match_pattern().unwrap_or_else(|| "unmatched".into());
    let span = tracing::info_span!("request", request_id = %id, method = %request.method(), route = %route);
    let started = Instant::now();
    async move {
        let result = next.call(request).await;
        let elapsed = started.elapsed();
        match result {
            Ok(mut response) => {
                let status = response.status().as_u16();
                tracing::info!(status, latency_ms = elapsed.as_secs_f64() * 1000.0, "request");
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
                    metrics.observe_request("?", &route, status, elapsed);
                }
                Err(error)
            }
        }
    }
    .instrument(span)
    .await
}
