//! The HTTP API of the clickwrap consent service, on actix-web.
//!
//! - `/public-client/v1`: the spec's API. Public client routes identify the app by its App ID
//!   alone (and answer CORS); server-side routes need `X-APP-ID` + `X-APP-KEY`.
//! - `/operator/v1`: what an operator does in a dashboard, with a bearer operator token.
//!
//! Wire types and their conversion to domain values live here; every domain error is mapped to a
//! problem answer once, in [`errors`]. Every error answer is `application/problem+json`.

mod auth;
mod errors;
pub mod export;
mod list_query;
mod middleware;
mod query;
mod routes;
mod state;
mod wire;

pub mod client_ip;
pub mod openapi;
pub mod problem;

pub use middleware::{CONTENT_SECURITY_POLICY, content_security_policy_with_inline};
pub use state::ApiState;
pub use wire::public::dialog_preview as dialog_preview_json;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceFactory, ServiceRequest, ServiceResponse};
use actix_web::middleware::from_fn;
use actix_web::{App, Error, web};

/// The API prefix of the spec.
pub const PUBLIC_PREFIX: &str = "/public-client/v1";
/// Where the certificate that signs Certificates of Acceptance is published (PEM), relative to the
/// service's public URL; the certificates name it.
pub const SIGNING_CERTIFICATE_PATH: &str = "/public-client/v1/signing-certificate";
/// The operator API prefix.
pub const OPERATOR_PREFIX: &str = "/operator/v1";

/// Largest JSON body of the public and server-side routes.
pub const PUBLIC_BODY_LIMIT: usize = 64 * 1024;
/// Largest JSON body of the operator routes (templates carry content in seven languages).
pub const OPERATOR_BODY_LIMIT: usize = 4 * 1024 * 1024;

/// The body `POST /clickwrap/verify` answers with, for servers that verify on a client's behalf
/// (the demo page).
pub fn verified_event_json(event: &clickwrap_domain::consent::models::ClickwrapEvent) -> serde_json::Value {
    wire::events::verified(event)
}

/// A path whose other methods answer 405 with `Allow: allow`, for the server's own routes.
pub fn resource(path: &str, allow: &'static str) -> actix_web::Resource {
    middleware::resource(path, allow)
}

/// A PDF download answer, as the certificate routes give it.
pub fn pdf_response(filename: &str, bytes: Vec<u8>) -> actix_web::HttpResponse {
    routes::pdf(filename, bytes)
}

/// The whole API as an actix `App`, ready to serve; `extra` adds the server's own routes (health,
/// metrics, the demo page), which get the same error handling.
pub fn api(
    state: web::Data<ApiState>,
    extra: impl FnOnce(&mut web::ServiceConfig) + 'static,
) -> App<
    impl ServiceFactory<
        ServiceRequest,
        Config = (),
        Response = ServiceResponse<impl MessageBody>,
        Error = Error,
        InitError = (),
    >,
> {
    let documented = state.clone();
    App::new()
        .app_data(state)
        .app_data(middleware::path_config())
        .configure(routes::configure)
        .configure(extra)
        .default_service(web::to(middleware::unknown_route))
        .wrap(from_fn(move |request, next| middleware::reject_unknown_parameters(documented.clone(), request, next)))
        .wrap(from_fn(middleware::head_as_get))
        .wrap(from_fn(middleware::negotiate))
        .wrap(from_fn(middleware::security_headers))
        .wrap(from_fn(middleware::compress))
        .wrap(from_fn(middleware::problem_responses))
        .wrap(from_fn(middleware::catch_panics))
}
