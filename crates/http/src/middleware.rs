//! What every request goes through: panics become a 500 problem, every error answer becomes a
//! problem document (actix's own included), and `Accept` is honoured (406).

use std::panic::AssertUnwindSafe;

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::error::{JsonPayloadError, PathError};
use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderMap};
use actix_web::middleware::Next;
use actix_web::{Error, HttpRequest, HttpResponse, ResponseError, web};
use futures_util::FutureExt;

use crate::problem::{ApiError, PROBLEM_JSON};

/// A panic anywhere below answers 500 with nothing internal in it; the panic goes to the log.
/// (The request cannot be kept aside: actix needs it uniquely owned while routing, so the error
/// travels up and the server turns it into the problem answer.)
pub(crate) async fn catch_panics(
    request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, Error> {
    let path = request.path().to_owned();
    match AssertUnwindSafe(next.call(request)).catch_unwind().await {
        Ok(result) => result.map(ServiceResponse::map_into_boxed_body),
        Err(_) => {
            tracing::error!(%path, "a request handler panicked");
            Err(ApiError::internal().into())
        }
    }
}

/// Turns any error answer that is not a problem document yet (actix's 404, 405, 413, a JSON body
/// that does not parse …) into one, keeping its status and headers such as `Allow`.
pub(crate) async fn problem_responses(
    request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, Error> {
    let response = match next.call(request).await {
        Ok(response) => response.map_into_boxed_body(),
        Err(error) => return Err(as_problem(error)),
    };
    let status = response.status();
    let content_type = response.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok());
    let is_problem = content_type.is_some_and(|v| v.starts_with(PROBLEM_JSON));
    // The operator console answers its browser with pages, errors included (a wrong token is the
    // sign-in form again, with 401): an HTML answer was meant as it is.
    let is_page = content_type.is_some_and(|v| v.starts_with("text/html"));
    if !(status.is_client_error() || status.is_server_error()) || is_problem || is_page {
        return Ok(response);
    }
    let (request, response) = response.into_parts();
    let headers = response.headers().clone();
    let detail = if status.is_client_error() {
        let bytes = actix_web::body::to_bytes(response.into_body()).await.unwrap_or_default();
        let text = String::from_utf8_lossy(&bytes);
        let text: String = text.chars().take(500).collect();
        if text.trim().is_empty() { default_detail(status) } else { text }
    } else {
        default_detail(status)
    };
    let mut problem = ApiError::new(status, code_for(status), detail);
    keep_headers(&mut problem, &headers);
    Ok(ServiceResponse::new(request, problem.error_response()))
}

/// An error that travels up instead of a response, as a problem.
fn as_problem(error: Error) -> Error {
    let response = error.error_response();
    let is_problem = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with(PROBLEM_JSON));
    if is_problem {
        return error;
    }
    let status = response.status();
    let detail = if status.is_client_error() { error.to_string() } else { default_detail(status) };
    let mut problem = ApiError::new(status, code_for(status), detail);
    keep_headers(&mut problem, response.headers());
    problem.into()
}

fn keep_headers(problem: &mut ApiError, headers: &HeaderMap) {
    for name in [header::ALLOW, header::RETRY_AFTER, header::WWW_AUTHENTICATE] {
        for value in headers.get_all(&name) {
            if let Ok(value) = value.to_str() {
                problem.headers.push((name.clone(), value.to_owned()));
            }
        }
    }
}

fn code_for(status: StatusCode) -> &'static str {
    match status {
        StatusCode::BAD_REQUEST => "BAD_REQUEST",
        StatusCode::UNAUTHORIZED => "UNAUTHORIZED",
        StatusCode::FORBIDDEN => "FORBIDDEN",
        StatusCode::NOT_FOUND => "NOT_FOUND",
        StatusCode::METHOD_NOT_ALLOWED => "METHOD_NOT_ALLOWED",
        StatusCode::NOT_ACCEPTABLE => "NOT_ACCEPTABLE",
        StatusCode::PAYLOAD_TOO_LARGE => "PAYLOAD_TOO_LARGE",
        StatusCode::UNSUPPORTED_MEDIA_TYPE => "UNSUPPORTED_MEDIA_TYPE",
        StatusCode::TOO_MANY_REQUESTS => "RATE_LIMITED",
        StatusCode::SERVICE_UNAVAILABLE => "SERVICE_UNAVAILABLE",
        s if s.is_server_error() => "INTERNAL_ERROR",
        _ => "BAD_REQUEST",
    }
}

fn default_detail(status: StatusCode) -> String {
    match status {
        s if s.is_server_error() => "an internal error occurred".into(),
        s => s.canonical_reason().unwrap_or("the request failed").to_lowercase(),
    }
}

/// What a route answers with, for `Accept` negotiation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Produces {
    Json,
    Pdf,
    /// Pages, scripts, PEM and metrics: not negotiated.
    Other,
}

fn produces(path: &str) -> Produces {
    let api = path.starts_with(crate::PUBLIC_PREFIX) || path.starts_with(crate::OPERATOR_PREFIX);
    // The export's format is chosen by its `format` parameter, not by `Accept`; the PEM keys are PEM.
    if !api
        || path.ends_with("/signing-certificate")
        || path.ends_with("/ledger-key")
        || path.ends_with("/events/export")
    {
        Produces::Other
    } else if path.ends_with("/certificate") || path.ends_with("/agreement") {
        Produces::Pdf
    } else {
        Produces::Json
    }
}

/// Whether an `Accept` header admits `media` (`type/subtype`); a missing header admits all. As in
/// RFC 9110, the most specific range that matches decides, so `application/json;q=0, */*` refuses
/// JSON; a weight of 0 refuses (the parameter name in any case).
fn accepts(accept: Option<&str>, media: &str) -> bool {
    let Some(accept) = accept.filter(|a| !a.trim().is_empty()) else {
        return true;
    };
    let (kind, _) = media.split_once('/').unwrap_or((media, ""));
    let matching: Vec<(u8, bool)> = accept
        .split(',')
        .filter_map(|range| {
            let mut parts = range.split(';');
            let range = parts.next().unwrap_or_default().trim().to_ascii_lowercase();
            let specificity = if range == media
                || (media == "application/json" && (range == PROBLEM_JSON || range.ends_with("+json")))
            {
                3
            } else if range == format!("{kind}/*") {
                2
            } else if range == "*/*" {
                1
            } else {
                return None;
            };
            let refused = parts.filter_map(|p| p.split_once('=')).any(|(name, q)| {
                name.trim().eq_ignore_ascii_case("q") && q.trim().parse::<f32>().is_ok_and(|q| q <= 0.0)
            });
            Some((specificity, !refused))
        })
        .collect();
    let most_specific = matching.iter().map(|&(specificity, _)| specificity).max();
    matching.iter().any(|&(specificity, admitted)| admitted && Some(specificity) == most_specific)
}

/// 406 when `Accept` admits neither JSON (JSON routes) nor PDF (PDF routes).
pub(crate) async fn negotiate(
    request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, Error> {
    let wanted = match produces(request.path()) {
        Produces::Json => Some("application/json"),
        Produces::Pdf => Some("application/pdf"),
        Produces::Other => None,
    };
    let accept = request.headers().get(header::ACCEPT).and_then(|v| v.to_str().ok());
    if let Some(media) = wanted
        && request.method() != actix_web::http::Method::OPTIONS
        && !accepts(accept, media)
    {
        let problem = ApiError::new(
            StatusCode::NOT_ACCEPTABLE,
            "NOT_ACCEPTABLE",
            format!("this resource is available as {media} only"),
        );
        return Ok(request.into_response(problem.error_response()));
    }
    next.call(request).await.map(ServiceResponse::map_into_boxed_body)
}

pub(crate) async fn unknown_route(request: HttpRequest) -> Result<HttpResponse, ApiError> {
    Err(ApiError::not_found("ROUTE_NOT_FOUND", format!("no route {} {}", request.method(), request.path())))
}

/// 405 with `Allow` for a known path asked with another method.
pub(crate) fn method_not_allowed(allow: &'static str) -> actix_web::Route {
    web::to(move || async move {
        Err::<HttpResponse, _>(
            ApiError::new(StatusCode::METHOD_NOT_ALLOWED, "METHOD_NOT_ALLOWED", format!("allowed methods: {allow}"))
                .with_header(header::ALLOW, allow),
        )
    })
}

pub(crate) fn path_config() -> web::PathConfig {
    web::PathConfig::default()
        .error_handler(|error: PathError, _| ApiError::bad_request("INVALID_PATH", error.to_string()).into())
}

pub(crate) fn json_config(limit: usize) -> web::JsonConfig {
    web::JsonConfig::default().limit(limit).error_handler(move |error: JsonPayloadError, _| {
        let problem = match &error {
            JsonPayloadError::Overflow { .. } | JsonPayloadError::OverflowKnownLength { .. } => ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "PAYLOAD_TOO_LARGE",
                format!("the body is larger than {limit} bytes"),
            ),
            JsonPayloadError::ContentType => ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "UNSUPPORTED_MEDIA_TYPE",
                "the body must be JSON (Content-Type: application/json)",
            ),
            JsonPayloadError::Deserialize(e) => {
                ApiError::bad_request("INVALID_JSON", format!("the body is not valid: {e}"))
            }
            other => ApiError::bad_request("INVALID_BODY", other.to_string()),
        };
        problem.into()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accept_negotiation() {
        assert!(accepts(None, "application/json"));
        assert!(accepts(Some("*/*"), "application/pdf"));
        assert!(accepts(Some("text/html, application/*;q=0.5"), "application/json"));
        assert!(accepts(Some("application/problem+json"), "application/json"));
        assert!(!accepts(Some("text/html"), "application/json"));
        assert!(!accepts(Some("application/json;q=0"), "application/json"));
        assert!(!accepts(Some("application/json"), "application/pdf"));
    }

    #[test]
    fn the_most_specific_range_decides() {
        // `*/*` used to admit what a more specific range refused, and `Q=0` was not read as a weight.
        assert!(!accepts(Some("application/json;q=0, */*"), "application/json"));
        assert!(!accepts(Some("application/*;q=0, */*;q=1"), "application/json"));
        assert!(!accepts(Some("application/pdf; Q=0, */*"), "application/pdf"));
        assert!(accepts(Some("*/*;q=0, application/json"), "application/json"));
        assert!(accepts(Some("application/*;q=0, application/json;q=0.1"), "application/json"));
        assert!(accepts(Some("application/json;q=zero"), "application/json"));
    }
}
