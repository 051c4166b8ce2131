//! What every request goes through, as [`crate::api`] stacks it: panics become a 500 problem,
//! every error answer becomes a problem document (actix's own included), `Accept` is honoured
//! (406), text answers are compressed when the client accepts it, `HEAD` is answered wherever `GET`
//! is, every answer carries the security headers and a cache policy, and a query parameter the API
//! operation does not document answers 400. Also the answers of what no handler takes: an unknown
//! route (404, or 308 to the path without its trailing slash), a method a path does not allow
//! (405 with `Allow`), a bad path segment and a bad or too large JSON body.

use std::panic::AssertUnwindSafe;

use actix_http::encoding::Encoder;
use actix_web::body::{BodySize, BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::error::{JsonPayloadError, PathError};
use actix_web::http::header::{self, AcceptEncoding, ContentEncoding, Encoding, HeaderMap, HeaderName, HeaderValue};
use actix_web::http::{Method, StatusCode};
use actix_web::middleware::Next;
use actix_web::{Error, HttpMessage as _, HttpRequest, HttpResponse, ResponseError, web};
use futures_util::FutureExt;

use crate::ApiState;
use crate::openapi::DocumentedParameters;
use crate::problem::{ApiError, PROBLEM_JSON};
use crate::query::carries_credentials;

/// A panic anywhere below answers 500 with nothing internal in it; the panic goes to the log.
/// (The request cannot be kept aside: actix needs it uniquely owned while routing, so the error
/// travels up and the server turns it into the problem answer.)
pub(crate) async fn catch_panics(
    request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, Error> {
    // The route's pattern, not the path: paths carry end user ids.
    let route = request.match_pattern().unwrap_or_else(|| "unmatched".into());
    match AssertUnwindSafe(next.call(request)).catch_unwind().await {
        Ok(result) => result.map(ServiceResponse::map_into_boxed_body),
        Err(_) => {
            tracing::error!(%route, "a request handler panicked");
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
    // A compressed body is not text to quote.
    let readable = !headers.contains_key(header::CONTENT_ENCODING);
    let detail = if status.is_client_error() && readable {
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

/// Media types also served under a generic name, for clients (generated ones among them) that ask
/// for bytes or for text: a PDF as `application/octet-stream`, PEM as `text/plain`. The answer is
/// the same; only its `Content-Type` follows what the client asked for.
const GENERIC_NAMES: [(&str, &str); 2] =
    [("application/pdf", "application/octet-stream"), ("application/x-pem-file", "text/plain; charset=utf-8")];

/// The generic name `media` is also served under, if any.
fn generic_name(media: &str) -> Option<&'static str> {
    GENERIC_NAMES.iter().find(|(specific, _)| *specific == media).map(|(_, generic)| *generic)
}

/// Whether `accept` admits `media` or the generic name it is also served under.
fn admits(accept: Option<&str>, media: &str) -> bool {
    accepts(accept, media) || generic_name(media).is_some_and(|generic| accepts(accept, essence(generic)))
}

/// A media type without its parameters.
fn essence(media: &str) -> &str {
    media.split(';').next().unwrap_or_default().trim()
}

/// 406 when `Accept` admits neither JSON (JSON routes) nor PDF (PDF routes); a PDF or PEM answer
/// goes by its generic name when the client asked for that one only ([`GENERIC_NAMES`]).
pub(crate) async fn negotiate(
    request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, Error> {
    let wanted = match produces(request.path()) {
        Produces::Json => Some("application/json"),
        Produces::Pdf => Some("application/pdf"),
        Produces::Other => None,
    };
    let accept = request.headers().get(header::ACCEPT).and_then(|v| v.to_str().ok()).map(str::to_owned);
    let accept = accept.as_deref();
    if let Some(media) = wanted
        && request.method() != actix_web::http::Method::OPTIONS
        && !admits(accept, media)
    {
        let problem = ApiError::new(
            StatusCode::NOT_ACCEPTABLE,
            "NOT_ACCEPTABLE",
            format!("this resource is available as {media} only"),
        );
        return Ok(request.into_response(problem.error_response()));
    }
    let mut response = next.call(request).await?.map_into_boxed_body();
    let answered = response.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).map(essence);
    if let Some(generic) = answered.and_then(generic_name)
        && answered.is_some_and(|media| !accepts(accept, media))
        && accepts(accept, essence(generic))
    {
        response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static(generic));
    }
    Ok(response)
}

/// `HEAD` is routed as `GET`: every GET route answers it, and the HTTP layer sends the GET's
/// headers (its `Content-Length` included) without the body, since it knows the request was HEAD.
pub(crate) async fn head_as_get(
    mut request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, Error> {
    if request.method() == Method::HEAD {
        request.head_mut().method = Method::GET;
    }
    next.call(request).await
}

/// Answers smaller than this are sent as they are: compressing them saves next to nothing.
const MIN_COMPRESSED_SIZE: u64 = 1024;

/// The encodings offered, best first; `identity` when the client accepts none of them (never 406).
const ENCODINGS: [Encoding; 3] = [
    Encoding::Known(ContentEncoding::Brotli),
    Encoding::Known(ContentEncoding::Gzip),
    Encoding::Known(ContentEncoding::Identity),
];

/// Brotli or gzip for text answers the client accepts them for; PDFs (compressed already) and
/// small answers go as they are. A streamed body (the events export) is compressed chunk by
/// chunk, so it still streams.
pub(crate) async fn compress(
    request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, Error> {
    let offered = request
        .get_header::<AcceptEncoding>()
        .and_then(|accepted| accepted.negotiate(ENCODINGS.iter()))
        .and_then(|encoding| match encoding {
            Encoding::Known(known) => Some(known),
            Encoding::Unknown(_) => None,
        })
        .unwrap_or(ContentEncoding::Identity);
    let response = next.call(request).await?;
    Ok(response.map_body(|head, body| {
        let worth_it = match body.size() {
            BodySize::Sized(size) => size >= MIN_COMPRESSED_SIZE,
            BodySize::Stream => true,
            BodySize::None => false,
        };
        let text = head.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).is_some_and(is_text);
        let encoding = if worth_it && text { offered } else { ContentEncoding::Identity };
        Encoder::response(encoding, head, body)
    }))
}

/// Media types that compress well: text, JSON, scripts, PEM.
fn is_text(content_type: &str) -> bool {
    let essence = content_type.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    essence.starts_with("text/")
        || essence.ends_with("+json")
        || matches!(
            essence.as_str(),
            "application/json" | "application/x-ndjson" | "application/javascript" | "application/x-pem-file"
        )
}

/// Every page's Content-Security-Policy: scripts, styles, fonts and images from this origin (and
/// agreement logos and images over https), frames only of our own pages, never framed, forms
/// posting only here.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
     img-src 'self' https: data:; frame-src 'self'; frame-ancestors 'none'; form-action 'self'; \
     base-uri 'none'; object-src 'none'";

/// [`CONTENT_SECURITY_POLICY`] with inline `<script>` and `<style>` elements allowed by their
/// hashes (`sha256-<base64>`), for a page that carries its script and style inline (the demo).
pub fn content_security_policy_with_inline(script_hashes: &[String], style_hashes: &[String]) -> String {
    let sources = |hashes: &[String]| hashes.iter().map(|hash| format!(" '{hash}'")).collect::<String>();
    CONTENT_SECURITY_POLICY
        .replace("script-src 'self'", &format!("script-src 'self'{}", sources(script_hashes)))
        .replace("style-src 'self'", &format!("style-src 'self'{}", sources(style_hashes)))
}

/// The security headers and the default cache policy, the one place that decides them: nothing is
/// sniffed; a page (or a PDF) is never framed and gets [`CONTENT_SECURITY_POLICY`] unless its
/// handler chose a stricter one; an answer that does not say how to cache it is `no-store`, since API answers
/// carry personal data (the scripts, the console's assets and the OpenAPI document say otherwise).
pub(crate) fn add_security_headers(headers: &mut HeaderMap) {
    let defaults = |headers: &mut HeaderMap, name: HeaderName, value: &'static str| {
        if !headers.contains_key(&name) {
            headers.insert(name, HeaderValue::from_static(value));
        }
    };
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    defaults(headers, header::CACHE_CONTROL, "no-store");
    // What a browser shows as a document (a page, a PDF opened in a tab) is never framed.
    let is_document = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/html") || v.starts_with("application/pdf"));
    if is_document {
        defaults(headers, header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY);
        defaults(headers, header::X_FRAME_OPTIONS, "DENY");
        defaults(headers, header::REFERRER_POLICY, "same-origin");
    }
}

/// [`add_security_headers`] on every answer that comes back as a response (error answers that
/// travel up as errors get them from [`ApiError`]'s response).
pub(crate) async fn security_headers(
    request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, Error> {
    let mut response = next.call(request).await?;
    add_security_headers(response.headers_mut());
    Ok(response)
}

/// 404 `ROUTE_NOT_FOUND`, except that a GET for a path with a trailing slash goes (308) to the
/// path without it: no route ends with one, and people type `/console/`.
pub(crate) async fn unknown_route(request: HttpRequest) -> Result<HttpResponse, ApiError> {
    if let Some(location) = without_trailing_slash(&request) {
        return Ok(HttpResponse::PermanentRedirect().insert_header((header::LOCATION, location)).finish());
    }
    Err(ApiError::not_found("ROUTE_NOT_FOUND", format!("no route {} {}", request.method(), request.path())))
}

/// Where a GET for `path/` is sent: `path`, with the query. Never to a path that starts with `//`
/// or holds a backslash, which a browser would read as another site.
fn without_trailing_slash(request: &HttpRequest) -> Option<String> {
    if request.method() != Method::GET {
        return None;
    }
    let trimmed = request.path().strip_suffix('/')?;
    if trimmed.is_empty() || trimmed.starts_with("//") || trimmed.contains('\\') {
        return None;
    }
    Some(match request.query_string() {
        "" => trimmed.to_owned(),
        query => format!("{trimmed}?{query}"),
    })
}

/// 400 naming the first query parameter that the matched API operation does not document (the
/// console's pages and the server's own routes are left alone), as the server's
/// [`DocumentedParameters`] list them ([`ApiState::documented_parameters`], which [`crate::api`]
/// hands over when it builds the app).
/// A query with credentials in it is left to the authentication extractors, which answer 401;
/// CORS preflights carry the query of the request they ask about, so they are not checked.
/// A request without unknown parameters (nearly all) costs no allocation here when its path has no
/// `{…}` part, as the SDK check's has not.
pub(crate) async fn reject_unknown_parameters(
    state: web::Data<ApiState>,
    request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, Error> {
    let is_api =
        |pattern: &str| pattern.starts_with(crate::PUBLIC_PREFIX) || pattern.starts_with(crate::OPERATOR_PREFIX);
    // Credentials in the query are answered 401 by authentication, whatever else the query holds.
    let checked = request.method() != Method::OPTIONS && !carries_credentials(request.query_string());
    let documented = &state.documented_parameters;
    let unknown = if !checked || request.query_string().is_empty() {
        None
    } else if documented.is_unambiguous_static(request.path()) {
        unknown_parameter(documented, &request, request.path())
    } else {
        request
            .match_pattern()
            .filter(|pattern| is_api(pattern))
            .and_then(|pattern| unknown_parameter(documented, &request, &pattern))
    };
    match unknown {
        Some(name) => {
            let problem = ApiError::invalid_field(&name, "is not a parameter of this operation");
            Ok(request.into_response(problem.error_response()))
        }
        None => next.call(request).await.map(ServiceResponse::map_into_boxed_body),
    }
}

/// The first parameter of the request's query that its operation does not document; `None` also
/// for an operation the document does not list.
fn unknown_parameter(documented: &DocumentedParameters, request: &ServiceRequest, pattern: &str) -> Option<String> {
    let names = documented.of(request.method().as_str(), pattern)?;
    form_urlencoded::parse(request.query_string().as_bytes())
        .find(|(name, _)| !names.contains(name.as_ref()))
        .map(|(name, _)| name.into_owned())
}

/// A path whose other methods answer 405 with `Allow: allow`.
pub(crate) fn resource(path: &str, allow: &'static str) -> actix_web::Resource {
    web::resource(path).default_service(method_not_allowed(allow))
}

/// 405 with `Allow` for a known path asked with another method; a path that answers GET answers
/// HEAD too ([`head_as_get`]).
pub(crate) fn method_not_allowed(allow: &'static str) -> actix_web::Route {
    let allow = allow_with_head(allow);
    web::to(move || {
        let allow = allow.clone();
        async move {
            Err::<HttpResponse, _>(
                ApiError::new(
                    StatusCode::METHOD_NOT_ALLOWED,
                    "METHOD_NOT_ALLOWED",
                    format!("allowed methods: {allow}"),
                )
                .with_header(header::ALLOW, allow),
            )
        }
    })
}

fn allow_with_head(allow: &str) -> String {
    let methods: Vec<&str> = allow.split(',').map(str::trim).collect();
    if methods.contains(&"GET") && !methods.contains(&"HEAD") { format!("{allow}, HEAD") } else { allow.to_owned() }
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

    #[test]
    fn a_pdf_or_pem_is_also_served_by_its_generic_name() {
        assert!(admits(Some("application/octet-stream"), "application/pdf"));
        assert!(admits(Some("application/pdf"), "application/pdf"));
        assert!(!admits(Some("application/json"), "application/pdf"));
        assert!(!admits(Some("application/octet-stream;q=0"), "application/pdf"));
        assert!(admits(Some("text/plain"), "application/x-pem-file"));
        assert!(!admits(Some("text/plain"), "application/json"));
        assert_eq!(generic_name("application/x-pem-file").map(essence), Some("text/plain"));
        assert_eq!(generic_name("application/json"), None);
    }

    #[test]
    fn a_trailing_slash_is_sent_to_the_path_without_it_on_this_site_only() {
        let to = |method: Method, uri: &str| {
            without_trailing_slash(&actix_web::test::TestRequest::default().method(method).uri(uri).to_http_request())
        };
        assert_eq!(to(Method::GET, "/console/").as_deref(), Some("/console"));
        assert_eq!(to(Method::GET, "/console/events/?endUserId=a").as_deref(), Some("/console/events?endUserId=a"));
        assert_eq!(to(Method::POST, "/console/"), None);
        assert_eq!(to(Method::GET, "/console"), None);
        assert_eq!(to(Method::GET, "/"), None);
        assert_eq!(to(Method::GET, "//evil.example/"), None);
        assert_eq!(to(Method::GET, "/%5Cevil.example/").as_deref(), Some("/%5Cevil.example"));
    }

    #[test]
    fn text_is_compressed_and_pdfs_are_not() {
        for text in ["application/json", "application/problem+json", "text/javascript; charset=utf-8", "text/csv"] {
            assert!(is_text(text), "{text}");
        }
        for binary in ["application/pdf", "image/png", "application/octet-stream"] {
            assert!(!is_text(binary), "{binary}");
        }
    }

    #[test]
    fn a_get_resource_allows_head() {
        assert_eq!(allow_with_head("GET"), "GET, HEAD");
        assert_eq!(allow_with_head("GET, POST"), "GET, POST, HEAD");
        assert_eq!(allow_with_head("POST"), "POST");
    }

    #[test]
    fn inline_sources_are_added_by_hash() {
        let policy = content_security_policy_with_inline(&["sha256-abc".into()], &["sha256-def".into()]);
        assert!(policy.contains("script-src 'self' 'sha256-abc';"), "{policy}");
        assert!(policy.contains("style-src 'self' 'sha256-def';"), "{policy}");
        assert!(!policy.contains("unsafe"), "{policy}");
    }
}
