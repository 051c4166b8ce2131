//! Every error response is `application/problem+json` (RFC 9457) with a stable `code` and a
//! `message` (the same text as `detail`, for clients of the hosted service).

use std::fmt;

use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderName, HeaderValue};
use actix_web::{HttpResponse, ResponseError};
use serde_json::{Map, Value, json};

pub const PROBLEM_JSON: &str = "application/problem+json";

/// One invalid field of a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    pub field: String,
    pub message: String,
}

/// An error answer of the API.
#[derive(Debug, Clone)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: &'static str,
    pub detail: String,
    pub errors: Vec<FieldError>,
    /// Extra members of the problem body (`clickwrapEventId` of an already verified Signature…).
    pub extra: Map<String, Value>,
    pub headers: Vec<(HeaderName, String)>,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, detail: impl Into<String>) -> Self {
        Self { status, code, detail: detail.into(), errors: Vec::new(), extra: Map::new(), headers: Vec::new() }
    }

    pub fn bad_request(code: &'static str, detail: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, code, detail)
    }

    /// 400 `VALIDATION_FAILED` naming the field.
    pub fn invalid_field(field: &str, message: impl fmt::Display) -> Self {
        let message = message.to_string();
        let mut error = Self::bad_request("VALIDATION_FAILED", format!("{field}: {message}"));
        error.errors.push(FieldError { field: field.to_owned(), message });
        error
    }

    pub fn unauthorized(detail: impl Into<String>) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, "UNAUTHORIZED", detail)
    }

    pub fn not_found(code: &'static str, detail: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, code, detail)
    }

    pub fn unavailable() -> Self {
        Self::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "SERVICE_UNAVAILABLE",
            "the service is temporarily unavailable; retry later",
        )
        .with_header(header::RETRY_AFTER, "5")
    }

    /// Nothing internal is said: the cause goes to the log only.
    pub fn internal() -> Self {
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, "INTERNAL_ERROR", "an internal error occurred")
    }

    pub fn with_extra(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.extra.insert(key.to_owned(), value.into());
        self
    }

    pub fn with_header(mut self, name: HeaderName, value: impl Into<String>) -> Self {
        self.headers.push((name, value.into()));
        self
    }

    pub fn body(&self) -> Value {
        let mut body = json!({
            "type": "about:blank",
            "title": self.status.canonical_reason().unwrap_or("Error"),
            "status": self.status.as_u16(),
            "detail": self.detail,
            "code": self.code,
            "message": self.detail,
        });
        if let Some(object) = body.as_object_mut() {
            if !self.errors.is_empty() {
                let errors = self.errors.iter().map(|e| json!({"field": e.field, "message": e.message})).collect();
                object.insert("errors".into(), Value::Array(errors));
            }
            for (key, value) in &self.extra {
                object.insert(key.clone(), value.clone());
            }
        }
        body
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}: {}", self.status.as_u16(), self.code, self.detail)
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        self.status
    }

    fn error_response(&self) -> HttpResponse {
        let mut response = HttpResponse::build(self.status);
        response.insert_header((header::CONTENT_TYPE, PROBLEM_JSON));
        for (name, value) in &self.headers {
            if let Ok(value) = HeaderValue::from_str(value) {
                response.append_header((name.clone(), value));
            }
        }
        let mut response = response.body(self.body().to_string());
        crate::middleware::add_security_headers(response.headers_mut());
        response
    }
}

pub type ApiResult<T> = Result<T, ApiError>;
