//! `GET /openapi.json`: the OpenAPI 3.1 description of every route the binary serves (the API, and
//! the SDK scripts, the console, the demo and health routes the server adds), written by hand in
//! `docs/openapi.json` and compiled in, so the binary serves exactly the document in the repository.
//! The drift test (`tests/openapi.rs`) keeps it and the API's route table in step;
//! `crates/server/tests/openapi_routes.rs` does the same for the routes the server adds.

use std::collections::{HashMap, HashSet};

use actix_web::{HttpResponse, web};
use serde_json::Value;

/// The OpenAPI 3.1 document of every route the binary serves.
pub const OPENAPI_JSON: &str = include_str!("../../../docs/openapi.json");

/// Where the document is served.
pub const OPENAPI_PATH: &str = "/openapi.json";

/// Mounts `GET /openapi.json` (any other method: 405 with `Allow: GET`).
pub fn configure(config: &mut web::ServiceConfig) {
    config.service(crate::middleware::resource(OPENAPI_PATH, "GET").route(web::get().to(document)));
}

/// The document, as `application/json`.
pub async fn document() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/json")
        .insert_header(("cache-control", "public, max-age=300"))
        .body(OPENAPI_JSON)
}

/// The query parameters each API operation documents, as the compiled OpenAPI document declares
/// them. The document is the one list of what each route reads, so a parameter it does not name is
/// refused instead of silently ignored.
#[derive(Debug, Default)]
pub struct DocumentedParameters {
    /// By path template, then by method (upper case).
    by_pattern: HashMap<String, Vec<(String, HashSet<String>)>>,
    /// Path templates without `{…}` that no templated path also matches: a request for exactly
    /// such a path is routed to it, so it is found without asking the router for its pattern (the
    /// router writes the pattern into a new `String` on every call).
    unambiguous_static: HashSet<String>,
}

impl DocumentedParameters {
    /// The parameters [`OPENAPI_JSON`] documents. The server reads them once, at start-up, and
    /// refuses to start without them: an unknown-parameter check that quietly checked nothing
    /// would let every misspelt parameter through.
    pub fn compiled() -> Result<Self, OpenApiError> {
        Self::from_document(OPENAPI_JSON)
    }

    /// The parameters an OpenAPI document (its JSON text) documents.
    pub fn from_document(text: &str) -> Result<Self, OpenApiError> {
        let document: Value = serde_json::from_str(text).map_err(|e| OpenApiError::NotJson(e.to_string()))?;
        if !document.get("paths").is_some_and(Value::is_object) {
            return Err(OpenApiError::NoPaths);
        }
        Ok(documented_query_parameters(&document))
    }

    /// The query parameters the operation of `method` (upper case) on the path template `pattern`
    /// documents; `None` for an operation the document does not list.
    pub(crate) fn of(&self, method: &str, pattern: &str) -> Option<&HashSet<String>> {
        self.by_pattern.get(pattern)?.iter().find(|(m, _)| m == method).map(|(_, names)| names)
    }

    /// Whether `path` has no `{…}` part and no templated path also matches it, so that it is its
    /// own pattern.
    pub(crate) fn is_unambiguous_static(&self, path: &str) -> bool {
        self.unambiguous_static.contains(path)
    }
}

/// Why the compiled OpenAPI document gives no list of parameters.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OpenApiError {
    #[error("the compiled OpenAPI document is not JSON: {0}")]
    NotJson(String),
    #[error("the compiled OpenAPI document has no `paths` object")]
    NoPaths,
}

fn documented_query_parameters(document: &Value) -> DocumentedParameters {
    // A parameter is written inline or as a local `$ref` (`#/components/parameters/…`).
    let resolve = |parameter: &Value| -> Option<Value> {
        match parameter.get("$ref").and_then(Value::as_str) {
            Some(reference) => document.pointer(reference.strip_prefix('#')?).cloned(),
            None => Some(parameter.clone()),
        }
    };
    let mut documented = DocumentedParameters::default();
    let paths = document.get("paths").and_then(Value::as_object).into_iter().flatten();
    for (path, item) in paths {
        let shared = item.get("parameters").and_then(Value::as_array).into_iter().flatten();
        let operations = item.as_object().into_iter().flatten().filter(|(key, _)| key.as_str() != "parameters");
        for (method, operation) in operations {
            let own = operation.get("parameters").and_then(Value::as_array).into_iter().flatten();
            let names = shared
                .clone()
                .chain(own)
                .filter_map(&resolve)
                .filter(|parameter| parameter.get("in").and_then(Value::as_str) == Some("query"))
                .filter_map(|parameter| parameter.get("name").and_then(Value::as_str).map(str::to_owned))
                .collect();
            documented.by_pattern.entry(path.clone()).or_default().push((method.to_ascii_uppercase(), names));
        }
    }
    let templated: Vec<&String> = documented.by_pattern.keys().filter(|p| p.contains('{')).collect();
    documented.unambiguous_static = documented
        .by_pattern
        .keys()
        .filter(|path| !path.contains('{') && !templated.iter().any(|t| template_matches(t, path)))
        .cloned()
        .collect();
    documented
}

/// Whether a path template (`/a/{id}/b`) matches a path, segment by segment.
fn template_matches(template: &str, path: &str) -> bool {
    let (mut template, mut path) = (template.split('/'), path.split('/'));
    loop {
        match (template.next(), path.next()) {
            (None, None) => return true,
            (Some(t), Some(p)) if t == p || (t.starts_with('{') && !p.is_empty()) => {}
            _ => return false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{DocumentedParameters, OpenApiError, documented_query_parameters, template_matches};

    #[test]
    fn a_static_path_that_a_templated_one_also_matches_is_looked_up_through_the_router() {
        let document = serde_json::json!({"paths": {
            "/v1/items/{id}": {"get": {"parameters": [{"in": "query", "name": "expand"}]}},
            "/v1/items/export": {"get": {"parameters": [{"in": "query", "name": "format"}]}},
            "/v1/check": {"parameters": [{"in": "query", "name": "appId"}], "get": {}, "post": {}},
        }});
        let documented = documented_query_parameters(&document);
        assert!(documented.is_unambiguous_static("/v1/check"));
        assert!(!documented.is_unambiguous_static("/v1/items/export"), "also matched by /v1/items/{{id}}");
        assert!(!documented.is_unambiguous_static("/v1/items/{id}"));
        assert!(documented.of("POST", "/v1/check").is_some_and(|names| names.contains("appId")));
        assert!(documented.of("GET", "/v1/items/export").is_some_and(|names| names.contains("format")));
        assert!(documented.of("DELETE", "/v1/check").is_none());
        assert!(template_matches("/a/{id}/b", "/a/7/b"));
        assert!(!template_matches("/a/{id}/b", "/a//b"));
        assert!(!template_matches("/a/{id}", "/a/7/b"));
    }

    #[test]
    fn a_document_without_parameters_to_read_is_a_start_up_error() {
        assert!(matches!(DocumentedParameters::from_document("{\"openapi\": "), Err(OpenApiError::NotJson(_))));
        assert_eq!(DocumentedParameters::from_document("{}").err(), Some(OpenApiError::NoPaths));
        assert_eq!(DocumentedParameters::from_document("{\"paths\": []}").err(), Some(OpenApiError::NoPaths));
        let compiled = DocumentedParameters::compiled().unwrap();
        assert!(compiled.of("GET", "/public-client/v1/clickwrap").is_some_and(|names| names.contains("appId")));
    }
}
