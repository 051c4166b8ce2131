//! The route table. Each path is a resource with its methods; any other method answers 405 with
//! `Allow`.

mod cors;
mod operator;
mod public;
mod server;

pub(crate) use server::pdf;

use actix_web::body::BoxBody;
use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, HttpResponseBuilder, web};
use clickwrap_domain::apps::models::App;
use clickwrap_domain::limits::rate::{RateDecision, RateLimitKey, RateLimitedRoute};
use serde_json::Value;

use crate::middleware::json_config;
use crate::problem::{ApiError, ApiResult};
use crate::{ApiState, OPERATOR_BODY_LIMIT, OPERATOR_PREFIX, PUBLIC_BODY_LIMIT, PUBLIC_PREFIX};

pub(crate) fn configure(config: &mut web::ServiceConfig) {
    config.service(
        web::scope(PUBLIC_PREFIX)
            .app_data(json_config(PUBLIC_BODY_LIMIT))
            .configure(public::configure)
            .configure(server::configure),
    );
    config
        .service(web::scope(OPERATOR_PREFIX).app_data(json_config(OPERATOR_BODY_LIMIT)).configure(operator::configure));
}

pub(crate) fn json(status: actix_web::http::StatusCode, body: &Value) -> HttpResponse {
    HttpResponseBuilder::new(status).content_type("application/json").body(body.to_string())
}

pub(crate) fn ok(body: &Value) -> HttpResponse {
    json(actix_web::http::StatusCode::OK, body)
}

/// Counts the request against its rate limit: 429 with `Retry-After` when over it. Decided in
/// memory, without waiting for the database (the counts are shared with other instances in batches).
pub(crate) async fn rate_limit(
    state: &ApiState,
    request: &HttpRequest,
    app: &App,
    route: RateLimitedRoute,
) -> ApiResult<RateDecision> {
    let client_ip = state.trusted_proxies.client_ip(request).map(|ip| ip.to_string()).unwrap_or_default();
    let decision = state.service.hit_rate_limit(&RateLimitKey { app_id: app.id, client_ip, route });
    if decision.allowed {
        return Ok(decision);
    }
    let mut error = ApiError::new(
        actix_web::http::StatusCode::TOO_MANY_REQUESTS,
        "RATE_LIMITED",
        format!("more than {} requests this hour; retry after {} seconds", decision.limit, decision.reset_after_secs),
    )
    .with_header(header::RETRY_AFTER, decision.reset_after_secs.to_string());
    error.headers.extend(rate_headers(&decision));
    Err(error)
}

pub(crate) fn rate_headers(decision: &RateDecision) -> Vec<(header::HeaderName, String)> {
    vec![
        (header::HeaderName::from_static("ratelimit-limit"), decision.limit.to_string()),
        (header::HeaderName::from_static("ratelimit-remaining"), decision.remaining.to_string()),
        (header::HeaderName::from_static("ratelimit-reset"), decision.reset_after_secs.to_string()),
    ]
}

pub(crate) fn with_rate_headers(mut response: HttpResponse<BoxBody>, decision: &RateDecision) -> HttpResponse<BoxBody> {
    for (name, value) in rate_headers(decision) {
        if let Ok(value) = header::HeaderValue::from_str(&value) {
            response.headers_mut().insert(name, value);
        }
    }
    response
}

pub(crate) fn user_agent(request: &HttpRequest) -> Option<String> {
    request.headers().get(header::USER_AGENT).and_then(|v| v.to_str().ok()).map(|ua| ua.chars().take(1024).collect())
}

pub(crate) fn origin(request: &HttpRequest) -> Option<&str> {
    request.headers().get(header::ORIGIN).and_then(|v| v.to_str().ok())
}
