//! Query strings, parsed by hand so that every bad value gets a problem answer naming its parameter.

use std::collections::{HashMap, HashSet};
use std::str::FromStr;
use std::sync::LazyLock;

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use actix_web::{Error, ResponseError};
use serde_json::Value;

use crate::openapi::OPENAPI_JSON;
use crate::problem::{ApiError, ApiResult};

/// The decoded parameters of a query string, in order.
#[derive(Debug, Clone, Default)]
pub(crate) struct QueryParams(Vec<(String, String)>);

impl QueryParams {
    pub(crate) fn parse(query: &str) -> Self {
        Self(form_urlencoded::parse(query.as_bytes()).into_owned().collect())
    }

    /// The parameter's value; given twice is an error (which one would count?).
    pub(crate) fn get(&self, name: &str) -> ApiResult<Option<&str>> {
        let mut values = self.0.iter().filter(|(key, _)| key == name).map(|(_, value)| value.as_str());
        let first = values.next();
        if values.next().is_some() {
            return Err(ApiError::invalid_field(name, "may be given only once"));
        }
        Ok(first)
    }

    pub(crate) fn require(&self, name: &str) -> ApiResult<&str> {
        self.get(name)?.filter(|v| !v.is_empty()).ok_or_else(|| ApiError::invalid_field(name, "is required"))
    }

    pub(crate) fn all(&self, name: &str) -> Vec<&str> {
        self.0.iter().filter(|(key, _)| key == name).map(|(_, value)| value.as_str()).collect()
    }

    /// Parses a present value with `parse`, naming the parameter in the error.
    pub(crate) fn parsed<T, E: std::fmt::Display>(
        &self,
        name: &str,
        parse: impl FnOnce(&str) -> Result<T, E>,
    ) -> ApiResult<Option<T>> {
        self.get(name)?.map(|value| parse(value).map_err(|e| ApiError::invalid_field(name, e))).transpose()
    }

    pub(crate) fn number<T: FromStr>(&self, name: &str) -> ApiResult<Option<T>> {
        self.parsed(name, |v| v.parse::<T>().map_err(|_| "must be a whole number"))
    }
}

/// Whether credentials were put in the query string, where they leak into logs and histories: an
/// app's (`X-APP-ID`, `X-APP-KEY`, `appKey`) or an operator's (`access_token`, `token`,
/// `Authorization`, `operatorToken`), in any casing, with or without `-`/`_`. Reads only the
/// names, without collecting the parameters.
pub(crate) fn carries_credentials(query: &str) -> bool {
    form_urlencoded::parse(query.as_bytes()).any(|(key, _)| is_credential(&key))
}

/// A credential's name (`X-APP-KEY`, `appKey`, `access_token`, `Authorization`, …) in any casing.
/// Compared character by character, so a request's parameter names cost no allocation.
fn is_credential(name: &str) -> bool {
    const CREDENTIALS: [&str; 8] =
        ["xappid", "xappkey", "appkey", "accesstoken", "token", "authorization", "operatortoken", "bearer"];
    let folded = || name.chars().filter(|c| *c != '-' && *c != '_').flat_map(char::to_lowercase);
    CREDENTIALS.iter().any(|credential| folded().eq(credential.chars()))
}

/// The query parameters each API operation documents, as the compiled OpenAPI document declares
/// them. The document is the one list of what each route reads, so a parameter it does not name is
/// refused instead of silently ignored.
#[derive(Debug, Default)]
struct DocumentedParameters {
    /// By path template, then by method (upper case).
    by_pattern: HashMap<String, Vec<(String, HashSet<String>)>>,
    /// Path templates without `{…}` that no templated path also matches: a request for exactly
    /// such a path is routed to it, so it is found without asking the router for its pattern (the
    /// router writes the pattern into a new `String` on every call).
    unambiguous_static: HashSet<String>,
}

impl DocumentedParameters {
    fn of(&self, method: &str, pattern: &str) -> Option<&HashSet<String>> {
        self.by_pattern.get(pattern)?.iter().find(|(m, _)| m == method).map(|(_, names)| names)
    }
}

static DOCUMENTED_QUERY_PARAMETERS: LazyLock<DocumentedParameters> =
    LazyLock::new(|| documented_query_parameters(&serde_json::from_str(OPENAPI_JSON).unwrap_or_default()));

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

/// 400 naming the first query parameter that the matched API operation does not document (the
/// console's pages and the server's own routes are left alone).
/// A query with credentials in it is left to the authentication extractors, which answer 401;
/// CORS preflights carry the query of the request they ask about, so they are not checked.
/// A request without unknown parameters (nearly all) costs no allocation here when its path has no
/// `{…}` part, as the SDK check's has not.
pub(crate) async fn reject_unknown_parameters(
    request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, Error> {
    let is_api =
        |pattern: &str| pattern.starts_with(crate::PUBLIC_PREFIX) || pattern.starts_with(crate::OPERATOR_PREFIX);
    // Credentials in the query are answered 401 by authentication, whatever else the query holds.
    let checked = request.method() != actix_web::http::Method::OPTIONS && !carries_credentials(request.query_string());
    let unknown = if !checked || request.query_string().is_empty() {
        None
    } else if DOCUMENTED_QUERY_PARAMETERS.unambiguous_static.contains(request.path()) {
        unknown_parameter(&request, request.path())
    } else {
        request
            .match_pattern()
            .filter(|pattern| is_api(pattern))
            .and_then(|pattern| unknown_parameter(&request, &pattern))
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
fn unknown_parameter(request: &ServiceRequest, pattern: &str) -> Option<String> {
    let documented = DOCUMENTED_QUERY_PARAMETERS.of(request.method().as_str(), pattern)?;
    form_urlencoded::parse(request.query_string().as_bytes())
        .find(|(name, _)| !documented.contains(name.as_ref()))
        .map(|(name, _)| name.into_owned())
}

#[cfg(test)]
mod tests {
    use super::{carries_credentials, documented_query_parameters, template_matches};

    #[test]
    fn credentials_are_found_by_name_in_any_spelling() {
        for query in [
            "appKey=k",
            "X-APP-KEY=k",
            "x_app_id=a",
            "APP_KEY=k",
            "access_token=t",
            "Authorization=Bearer%20t",
            "a=1&token=t",
        ] {
            assert!(carries_credentials(query), "{query}");
        }
        for query in ["", "limit=5", "appId=a", "nextPageCursor=token", "tokens=t", "app-key-id=k"] {
            assert!(!carries_credentials(query), "{query}");
        }
    }

    #[test]
    fn a_static_path_that_a_templated_one_also_matches_is_looked_up_through_the_router() {
        let document = serde_json::json!({"paths": {
            "/v1/items/{id}": {"get": {"parameters": [{"in": "query", "name": "expand"}]}},
            "/v1/items/export": {"get": {"parameters": [{"in": "query", "name": "format"}]}},
            "/v1/check": {"parameters": [{"in": "query", "name": "appId"}], "get": {}, "post": {}},
        }});
        let documented = documented_query_parameters(&document);
        assert!(documented.unambiguous_static.contains("/v1/check"));
        assert!(!documented.unambiguous_static.contains("/v1/items/export"), "also matched by /v1/items/{{id}}");
        assert!(!documented.unambiguous_static.contains("/v1/items/{id}"));
        assert!(documented.of("POST", "/v1/check").is_some_and(|names| names.contains("appId")));
        assert!(documented.of("GET", "/v1/items/export").is_some_and(|names| names.contains("format")));
        assert!(documented.of("DELETE", "/v1/check").is_none());
        assert!(template_matches("/a/{id}/b", "/a/7/b"));
        assert!(!template_matches("/a/{id}/b", "/a//b"));
        assert!(!template_matches("/a/{id}", "/a/7/b"));
    }
}
