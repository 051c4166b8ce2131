//! `GET /openapi.json`: the OpenAPI 3.1 description of every route the binary serves (the API, and
//! the SDK scripts, the console, the demo and health routes the server adds), written by hand in
//! `docs/openapi.json` and compiled in, so the binary serves exactly the document in the repository.
//! The drift test (`tests/openapi.rs`) keeps it and the API's route table in step;
//! `crates/server/tests/openapi_routes.rs` does the same for the routes the server adds.

use actix_web::{HttpResponse, web};

/// The OpenAPI 3.1 document of every route the binary serves.
pub const OPENAPI_JSON: &str = include_str!("../../../docs/openapi.json");

/// Where the document is served.
pub const OPENAPI_PATH: &str = "/openapi.json";

/// Mounts `GET /openapi.json` (any other method: 405 with `Allow: GET`).
pub fn configure(config: &mut web::ServiceConfig) {
    config.service(crate::routes::resource(OPENAPI_PATH, "GET").route(web::get().to(document)));
}

/// The document, as `application/json`.
pub async fn document() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/json")
        .insert_header(("cache-control", "public, max-age=300"))
        .body(OPENAPI_JSON)
}
