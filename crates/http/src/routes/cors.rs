//! CORS for the public client routes only: the browser SDK calls them from operators' pages.
//! Whether an origin may use an app is decided per app (`allowedOrigins`, 403 otherwise); here the
//! browser is only told it may read the answer.

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderValue};
use actix_web::http::{Method, StatusCode};
use actix_web::middleware::Next;
use actix_web::{Error, HttpResponse};

pub(crate) async fn cors(
    request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, Error> {
    let origin = request.headers().get(header::ORIGIN).cloned();
    if request.method() == Method::OPTIONS {
        let mut response = HttpResponse::build(StatusCode::NO_CONTENT);
        if let Some(origin) = origin {
            response
                .insert_header((header::ACCESS_CONTROL_ALLOW_ORIGIN, origin))
                .insert_header((header::ACCESS_CONTROL_ALLOW_METHODS, "GET, POST, OPTIONS"))
                .insert_header((header::ACCESS_CONTROL_ALLOW_HEADERS, "content-type, accept"))
                .insert_header((header::ACCESS_CONTROL_MAX_AGE, "600"))
                .insert_header((header::VARY, "Origin"));
        }
        return Ok(request.into_response(response.finish()));
    }
    let mut response = next.call(request).await?.map_into_boxed_body();
    if let Some(origin) = origin {
        let headers = response.headers_mut();
        headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, origin);
        headers.insert(header::VARY, HeaderValue::from_static("Origin"));
        headers.insert(
            header::ACCESS_CONTROL_EXPOSE_HEADERS,
            HeaderValue::from_static("Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset"),
        );
    }
    Ok(response)
}
