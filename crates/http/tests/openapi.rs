//! `docs/openapi.json` and the router must not drift apart.
//!
//! - The document is OpenAPI 3.1, every `$ref` resolves, every error answer it names is a problem
//!   document (or, from an operator console page, an HTML page), and an independent validator
//!   (`openapi-spec-validator`) accepts it.
//! - Probing the real router: every documented operation under `/public-client/v1` and
//!   `/operator/v1` is answered (not `ROUTE_NOT_FOUND`, not 405), every other method on a
//!   documented path is 405 with an `Allow` that lists exactly the documented methods, and every
//!   probe's answer is one the operation documents.
//! - Reading the route table's source: every `resource("…")` path is documented, so a route the
//!   probes cannot find (a new path) fails here too. Every problem `code` in the source is listed.
//! - Real answers of a whole consent flow conform to the documented schemas, with no undocumented
//!   field.
//!
//! The routes the server binary adds (the SDK scripts, the console, the demo, health and metrics)
//! are checked against the document by `crates/server/tests/openapi_routes.rs`, against the whole
//! composed binary.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use actix_web::dev::Service;
use actix_web::http::Method;
use actix_web::test::{self, TestRequest};
use clickwrap_domain::limits::rate::RateLimitPolicy;
use clickwrap_domain::service::Settings;
use clickwrap_http::openapi::{OPENAPI_JSON, OPENAPI_PATH};
use clickwrap_http::{OPERATOR_PREFIX, PUBLIC_PREFIX, api};
use common::*;
use serde_json::{Value, json};

/// Every method a path item can document.
const METHODS: [&str; 8] = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/// The route files and the scope their paths live under.
const ROUTE_FILES: [(&str, &str); 3] =
    [("public.rs", PUBLIC_PREFIX), ("server.rs", PUBLIC_PREFIX), ("operator.rs", OPERATOR_PREFIX)];

fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn document_path() -> PathBuf {
    crate_dir().join("../../docs/openapi.json")
}

fn document() -> Value {
    serde_json::from_str(OPENAPI_JSON).unwrap_or_else(|e| panic!("docs/openapi.json is not JSON: {e}"))
}

fn is_api_path(path: &str) -> bool {
    path.starts_with(&format!("{PUBLIC_PREFIX}/")) || path.starts_with(&format!("{OPERATOR_PREFIX}/"))
}

/// The operator console's pages and forms (and the demo's console sign-in), which answer a browser
/// with HTML, errors included.
fn is_console_page(path: &str) -> bool {
    path == "/console" || path.starts_with("/console/") || path == "/demo/console"
}

/// Documented methods per path template.
fn operations(doc: &Value) -> BTreeMap<String, BTreeSet<&'static str>> {
    let paths = doc["paths"].as_object().expect("paths is an object");
    paths
        .iter()
        .map(|(path, item)| {
            let methods = METHODS.into_iter().filter(|m| item.get(*m).is_some()).collect();
            (path.clone(), methods)
        })
        .collect()
}

/// Follows `$ref`s (local JSON pointers) to the object they name.
fn resolve<'a>(doc: &'a Value, mut value: &'a Value) -> &'a Value {
    for _ in 0..16 {
        let Some(reference) = value.get("$ref").and_then(Value::as_str) else {
            return value;
        };
        let pointer = reference.strip_prefix('#').unwrap_or_else(|| panic!("non-local $ref {reference}"));
        value = doc.pointer(pointer).unwrap_or_else(|| panic!("$ref {reference} does not resolve"));
    }
    panic!("$ref chain too long")
}

/// Every value in the tree with its JSON pointer.
fn walk<'a>(value: &'a Value, at: String, out: &mut Vec<(String, &'a Value)>) {
    out.push((at.clone(), value));
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                walk(child, format!("{at}/{}", key.replace('~', "~0").replace('/', "~1")), out);
            }
        }
        Value::Array(items) => {
            for (index, child) in items.iter().enumerate() {
                walk(child, format!("{at}/{index}"), out);
            }
        }
        _ => {}
    }
}

/// A concrete path for a template: path parameters get example values.
fn concrete(template: &str) -> String {
    let mut out = String::new();
    let mut rest = template;
    while let Some(start) = rest.find('{') {
        out.push_str(&rest[..start]);
        let end = rest[start..].find('}').expect("unclosed path parameter") + start;
        let name = &rest[start + 1..end];
        if name == "endUserId" {
            out.push_str("user-1");
        } else {
            out.push_str(&uuid::Uuid::new_v4().to_string());
        }
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    out
}

fn path_parameters(template: &str) -> BTreeSet<String> {
    template.split('{').skip(1).filter_map(|part| part.split_once('}').map(|(name, _)| name.to_owned())).collect()
}

// ---------------------------------------------------------------------------------------------
// The document on its own.

#[test]
fn the_document_is_openapi_3_1_with_the_security_schemes() {
    let doc = document();
    let version = doc["openapi"].as_str().expect("openapi is a string");
    assert!(version.starts_with("3.1."), "openapi is {version}, not 3.1.x");
    assert!(doc["info"]["title"].is_string() && doc["info"]["version"].is_string());
    assert_eq!(doc["servers"][0]["url"], "/");
    let schemes = &doc["components"]["securitySchemes"];
    for (scheme, header) in [("appId", "X-APP-ID"), ("appKey", "X-APP-KEY")] {
        assert_eq!(schemes[scheme]["type"], "apiKey", "{scheme}");
        assert_eq!(schemes[scheme]["in"], "header", "{scheme}");
        assert_eq!(schemes[scheme]["name"], header, "{scheme}");
    }
    assert_eq!(schemes["operatorToken"]["type"], "http");
    assert_eq!(schemes["operatorToken"]["scheme"], "bearer");
    assert_eq!(schemes["consoleSession"]["type"], "apiKey");
    assert_eq!(schemes["consoleSession"]["in"], "cookie");
    assert_eq!(schemes["consoleSession"]["name"], "clickwrap_console");
    let ops = operations(&doc);
    for path in ["/healthz", "/readyz", "/metrics", OPENAPI_PATH] {
        assert!(ops.get(path).is_some_and(|m| m.contains("get")), "GET {path} is not documented");
    }
}

#[test]
fn the_webhooks_section_has_one_entry_per_event_type_with_its_data_fields_and_both_signatures() {
    use clickwrap_domain::webhooks::events::EventType;
    let doc = document();
    let hooks = doc["webhooks"].as_object().expect("a webhooks section");
    let mut documented = BTreeMap::new();
    for (name, hook) in hooks {
        let post = &hook["post"];
        let headers: BTreeSet<String> = post["parameters"]
            .as_array()
            .unwrap_or_else(|| panic!("webhook {name} documents no headers"))
            .iter()
            .map(|p| resolve(&doc, p))
            .inspect(|p| assert_eq!(p["in"], "header", "{name}"))
            .map(|p| p["name"].as_str().unwrap().to_ascii_lowercase())
            .collect();
        let expected =
            ["x-service-signature", "x-service-timestamp", "webhook-id", "webhook-timestamp", "webhook-signature"];
        assert_eq!(headers, expected.iter().map(|h| (*h).to_owned()).collect(), "{name}");
        let body = resolve(&doc, &post["requestBody"]["content"]["application/json"]["schema"]);
        let required: BTreeSet<&str> = body["required"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
        assert_eq!(required, BTreeSet::from(["eventType", "timestamp", "data"]), "{name}");
        let event_type = body["properties"]["eventType"]["const"].as_str().unwrap_or_else(|| panic!("{name}"));
        let data = resolve(&doc, &body["properties"]["data"]);
        let fields: BTreeSet<&str> = data["required"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
        let properties: BTreeSet<&str> = data["properties"].as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(fields, properties, "{name}: every data field is required");
        documented.insert(event_type.to_owned(), fields);
    }
    let types = &doc["components"]["schemas"]["WebhookEventType"]["enum"];
    let listed: Vec<&str> = types.as_array().unwrap().iter().filter_map(Value::as_str).collect();
    assert_eq!(listed, EventType::ALL.map(EventType::as_str));
    assert_eq!(documented.len(), EventType::ALL.len(), "one webhook per event type");
    for event_type in EventType::ALL {
        let fields =
            documented.get(event_type.as_str()).unwrap_or_else(|| panic!("{} is not documented", event_type.as_str()));
        let domain: BTreeSet<&str> = event_type.data_fields().iter().copied().collect();
        assert_eq!(fields, &domain, "{}", event_type.as_str());
    }
}

#[test]
fn every_reference_resolves_and_every_operation_id_is_unique() {
    let doc = document();
    let mut nodes = Vec::new();
    walk(&doc, String::new(), &mut nodes);
    for (at, node) in &nodes {
        if let Some(reference) = node.get("$ref").and_then(Value::as_str) {
            let pointer = reference.strip_prefix('#').unwrap_or_else(|| panic!("{at}: non-local $ref {reference}"));
            assert!(doc.pointer(pointer).is_some(), "{at}: $ref {reference} does not resolve");
        }
    }
    let mut ids = BTreeSet::new();
    for (path, methods) in operations(&doc) {
        for method in methods {
            let id = doc["paths"][&path][method]["operationId"]
                .as_str()
                .unwrap_or_else(|| panic!("{method} {path} has no operationId"));
            assert!(ids.insert(id.to_owned()), "operationId {id} is used twice");
        }
    }
}

/// What every operation must say about its answers, given what the middleware and extractors do.
#[test]
fn every_operation_documents_its_parameters_and_the_errors_it_can_answer() {
    let doc = document();
    for (path, methods) in operations(&doc) {
        let item = &doc["paths"][&path];
        for method in methods {
            let op = &item[method];
            let name = format!("{} {path}", method.to_uppercase());
            let responses = op["responses"].as_object().unwrap_or_else(|| panic!("{name}: no responses"));
            let has = |status: &str| responses.contains_key(status);

            // Path parameters: exactly those of the template, required.
            let mut declared = BTreeSet::new();
            let params = item["parameters"].as_array().into_iter().chain(op["parameters"].as_array()).flatten();
            for param in params {
                let param = resolve(&doc, param);
                assert!(param["schema"].is_object() || param["content"].is_object(), "{name}: {param} has no schema");
                if param["in"] == "path" {
                    assert_eq!(param["required"], true, "{name}: path parameter {} must be required", param["name"]);
                    declared.insert(param["name"].as_str().unwrap().to_owned());
                }
            }
            assert_eq!(declared, path_parameters(&path), "{name}: path parameters");

            // Error answers are problem documents; the console's pages answer theirs as pages.
            for (status, response) in responses {
                let response = resolve(&doc, response);
                assert!(response["description"].is_string(), "{name} {status}: no description");
                if status.starts_with('4') || status.starts_with('5') {
                    let content =
                        response["content"].as_object().unwrap_or_else(|| panic!("{name} {status}: no content"));
                    let media: Vec<&String> = content.keys().collect();
                    if !(is_console_page(&path) && media == ["text/html"]) {
                        assert_eq!(
                            media,
                            ["application/problem+json"],
                            "{name} {status}: an error is application/problem+json (or, from a console page, text/html)"
                        );
                        let schema = resolve(&doc, &content["application/problem+json"]["schema"]);
                        let is_problem = schema == resolve(&doc, &json!({"$ref": "#/components/schemas/Problem"}))
                            || schema["allOf"][0]["$ref"] == "#/components/schemas/Problem";
                        assert!(is_problem, "{name} {status}: the schema is not Problem");
                    }
                }
                if status == "429" || status == "503" {
                    assert_eq!(
                        resolve(&doc, &response["headers"]["Retry-After"])["required"],
                        true,
                        "{name} {status}: Retry-After"
                    );
                }
                if status == "429" {
                    for header in ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"] {
                        assert!(response["headers"][header].is_object(), "{name} 429: {header}");
                    }
                }
            }
            // A console form may only ever redirect (303) when it succeeds.
            let success = |s: &String| s.starts_with('2') || (is_console_page(&path) && s.starts_with('3'));
            assert!(responses.keys().any(success), "{name}: no success answer documented");
            if !is_api_path(&path) || method == "options" {
                continue;
            }
            // The two PEM documents are served from memory.
            let static_pem = [format!("{PUBLIC_PREFIX}/signing-certificate"), format!("{PUBLIC_PREFIX}/ledger-key")];
            if !static_pem.contains(&path) {
                assert!(has("503"), "{name}: 503 (storage unavailable) is not documented");
            }
            // The export's media type is chosen by its `format` parameter, not by `Accept`.
            let negotiated = !static_pem.contains(&path) && !path.ends_with("/events/export");
            assert_eq!(has("406"), negotiated, "{name}: 406 (Accept negotiation) documented exactly where answered");
            assert!(has("500"), "{name}: 500 is not documented");
            assert!(has("400"), "{name}: a query parameter it does not document answers 400, not documented");
            let security = op["security"].to_string();
            if security.contains("appKey") || security.contains("operatorToken") {
                assert!(has("401"), "{name}: 401 is not documented");
            }
            if op["requestBody"].is_object() {
                for status in ["400", "413", "415"] {
                    assert!(has(status), "{name}: a JSON body can answer {status}, not documented");
                }
            }
            if path.contains('{') {
                assert!(has("400") && has("404"), "{name}: a path id can answer 400 and 404");
            }
            if path.starts_with(OPERATOR_PREFIX) {
                assert!(security.contains("operatorToken"), "{name}: operator routes need the operator token");
            }
        }
    }
}

/// An independent validator of OpenAPI 3.1 documents. `.ci/run` installs it; off CI a missing
/// tool skips this test with a note.
#[test]
fn an_independent_validator_accepts_the_document() {
    let path = document_path();
    let attempts: [(&str, &[&str]); 2] =
        [("openapi-spec-validator", &[]), ("python3", &["-m", "openapi_spec_validator"])];
    for (program, prefix) in attempts {
        let output = Command::new(program).args(prefix).arg("--schema").arg("3.1").arg(&path).output();
        let Ok(output) = output else { continue };
        let text = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
        if text.contains("No module named") {
            continue;
        }
        let shown: String = text.chars().take(4000).collect();
        assert!(output.status.success(), "openapi-spec-validator rejects docs/openapi.json:\n{shown}");
        assert!(text.contains("OK"), "unexpected validator output:\n{shown}");
        return;
    }
    let reason = "openapi-spec-validator is not installed (pip install openapi-spec-validator)";
    assert!(std::env::var_os("CI").is_none(), "{reason}; .ci/run installs it");
    eprintln!("skipped: {reason}");
}

// ---------------------------------------------------------------------------------------------
// The document against the source of the route table.

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The source without `#[cfg(test)]` modules (from the first one to the end, the house style).
fn production_source(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    match text.find("#[cfg(test)]") {
        Some(at) => text[..at].to_owned(),
        None => text,
    }
}

/// The string literals that follow `marker` in `text` (whitespace between them ignored).
fn literals_after(text: &str, marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(marker) {
        rest = &rest[at + marker.len()..];
        let trimmed = rest.trim_start();
        if let Some(literal) = trimmed.strip_prefix('"') {
            found.push(literal[..literal.find('"').unwrap()].to_owned());
        }
    }
    found
}

#[test]
fn every_path_of_the_route_table_is_documented() {
    let doc = document();
    let ops = operations(&doc);
    let routes = crate_dir().join("src/routes");
    let mut files = Vec::new();
    rust_files(&routes, &mut files);
    let mut seen = 0;
    for file in files {
        let name = file.file_name().unwrap().to_str().unwrap().to_owned();
        let source = production_source(&file);
        let calls = source.matches("resource(").count() - source.matches("fn resource(").count();
        if name == "mod.rs" {
            continue;
        }
        let literals = literals_after(&source, "resource(");
        assert_eq!(
            literals.len(),
            calls,
            "{name}: every resource(…) call should name its path as a literal, so this test can read it"
        );
        assert_eq!(source.matches("web::scope(").count(), 0, "{name}: a nested scope: teach this test its prefix");
        if literals.is_empty() {
            continue;
        }
        let prefix = ROUTE_FILES
            .iter()
            .find(|(file, _)| *file == name)
            .map(|(_, prefix)| *prefix)
            .unwrap_or_else(|| panic!("routes/{name} declares routes: add it to ROUTE_FILES with its scope"));
        for path in literals {
            let full = format!("{prefix}{path}");
            assert!(ops.contains_key(&full), "routes/{name} serves {full}, which docs/openapi.json does not document");
            seen += 1;
        }
    }
    assert!(seen > 0, "no routes found");
    let served = production_source(&crate_dir().join("src/openapi.rs"));
    assert!(served.contains("resource(OPENAPI_PATH"), "src/openapi.rs should mount OPENAPI_PATH");
}

/// The codes of problem answers: literals given to the problem constructors, and the fallbacks of
/// the middleware.
fn problem_codes_in_source() -> BTreeSet<String> {
    let mut files = Vec::new();
    rust_files(&crate_dir().join("src"), &mut files);
    let mut codes = BTreeSet::new();
    for file in files {
        let source: String = production_source(&file).split_whitespace().collect();
        let mut found = literals_after(&source, "bad_request(");
        found.extend(literals_after(&source, "not_found("));
        let mut rest = source.as_str();
        while let Some(at) = rest.find("ApiError::new(") {
            rest = &rest[at + "ApiError::new(".len()..];
            if let Some((_, after)) = rest.split_once(',')
                && let Some(literal) = after.strip_prefix('"')
            {
                found.push(literal[..literal.find('"').unwrap()].to_owned());
            }
        }
        if file.ends_with("middleware.rs") {
            let body = source.split("fncode_for(").nth(1).unwrap_or_default();
            let body = &body[..body.find("\n}").unwrap_or(body.len())];
            found.extend(literals_after(body, "=>"));
        }
        if file.ends_with("problem.rs") {
            found.extend(literals_after(&source, "Self::new(StatusCode::UNAUTHORIZED,"));
            found.extend(literals_after(&source, "Self::new(StatusCode::SERVICE_UNAVAILABLE,"));
            found.extend(literals_after(&source, "Self::new(StatusCode::INTERNAL_SERVER_ERROR,"));
        }
        codes.extend(
            found.into_iter().filter(|c| !c.is_empty() && c.bytes().all(|b| b.is_ascii_uppercase() || b == b'_')),
        );
    }
    codes
}

#[test]
fn every_problem_code_is_documented_and_every_documented_code_exists() {
    let doc = document();
    assert_eq!(
        doc["components"]["schemas"]["Problem"]["properties"]["code"]["$ref"],
        "#/components/schemas/ProblemCode"
    );
    let documented: BTreeSet<String> = doc["components"]["schemas"]["ProblemCode"]["enum"]
        .as_array()
        .expect("ProblemCode is the enum of every code")
        .iter()
        .map(|c| c.as_str().unwrap().to_owned())
        .collect();
    let in_source = problem_codes_in_source();
    for required in ["VALIDATION_FAILED", "ROUTE_NOT_FOUND", "METHOD_NOT_ALLOWED", "UNAUTHORIZED", "RATE_LIMITED"] {
        assert!(in_source.contains(required), "the source scan missed {required}: fix problem_codes_in_source");
    }
    let undocumented: Vec<_> = in_source.difference(&documented).collect();
    assert!(undocumented.is_empty(), "problem codes in the source but not in ProblemCode: {undocumented:?}");
    let source_text: String = {
        let mut files = Vec::new();
        rust_files(&crate_dir().join("src"), &mut files);
        files.iter().map(|f| production_source(f)).collect()
    };
    let stale: Vec<_> = documented.iter().filter(|c| !source_text.contains(&format!("\"{c}\""))).collect();
    assert!(stale.is_empty(), "ProblemCode lists codes the source never answers: {stale:?}");
}

// ---------------------------------------------------------------------------------------------
// The document against the running router.

fn request(method: &str, uri: &str) -> TestRequest {
    TestRequest::default().method(Method::from_bytes(method.to_uppercase().as_bytes()).unwrap()).uri(uri)
}

/// Probes every method on every documented API path through the real router.
#[actix_web::test]
async fn the_router_answers_exactly_the_documented_operations() {
    let doc = document();
    let h = harness().await;
    let mut problems = Vec::new();
    for (template, documented) in operations(&doc) {
        if !is_api_path(&template) {
            continue;
        }
        let uri = concrete(&template);
        let reply = h.call(request("get", &uri)).await;
        if reply.status == 404 && reply.json()["code"] == "ROUTE_NOT_FOUND" {
            problems.push(format!("{template} is documented but the router does not serve it"));
            continue;
        }
        // HEAD is implied wherever GET is documented (and answered as the GET, without the body).
        let served = |method: &str| documented.contains(method) || (method == "head" && documented.contains("get"));
        for method in METHODS {
            let name = format!("{} {template}", method.to_uppercase());
            let reply = h.call(request(method, &uri)).await;
            let code =
                serde_json::from_slice::<Value>(&reply.body).ok().and_then(|b| b["code"].as_str().map(str::to_owned));
            if served(method) {
                let as_documented = if documented.contains(method) { method } else { "get" };
                if reply.status == 405 || code.as_deref() == Some("ROUTE_NOT_FOUND") {
                    problems.push(format!("{name} is documented but the router answers {} {code:?}", reply.status));
                } else if let Err(e) = conforms(&doc, &template, as_documented, &reply) {
                    problems.push(format!("{name}: the probe's answer is not documented: {e}"));
                }
            } else if reply.status != 405 {
                problems.push(format!("{name} is not documented but the router answers {} {code:?}", reply.status));
            } else {
                let allow: BTreeSet<String> =
                    reply.header("allow").unwrap_or_default().split(',').map(|m| m.trim().to_lowercase()).collect();
                let expected: BTreeSet<String> =
                    METHODS.into_iter().filter(|m| served(m)).map(|m| m.to_owned()).collect();
                if allow != expected {
                    problems.push(format!("{name}: 405 Allow {allow:?}, documented {expected:?}"));
                }
            }
        }
    }
    assert!(problems.is_empty(), "the router and docs/openapi.json disagree:\n{}", problems.join("\n"));
}

#[actix_web::test]
async fn the_document_is_served_at_openapi_json() {
    let h = harness().await;
    let app = test::init_service(api(h.state.clone(), clickwrap_http::openapi::configure)).await;
    let response = app.call(TestRequest::get().uri(OPENAPI_PATH).to_request()).await.unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers().get("content-type").unwrap(), "application/json");
    let body = actix_web::body::to_bytes(response.into_body()).await.ok().unwrap();
    assert_eq!(body, OPENAPI_JSON.as_bytes());
    let wrong = app.call(TestRequest::post().uri(OPENAPI_PATH).to_request()).await.unwrap();
    assert_eq!(wrong.status(), 405);
    assert_eq!(wrong.headers().get("allow").unwrap(), "GET, HEAD");
}

// ---------------------------------------------------------------------------------------------
// Real answers against the documented schemas.

/// Checks an answer against the operation's documented answer for its status: the status, the
/// media type, the headers marked required, and a JSON body against its schema.
fn conforms(doc: &Value, template: &str, method: &str, reply: &Reply) -> Result<(), String> {
    let op = &doc["paths"][template][method];
    let status = reply.status.as_u16().to_string();
    let documented = op["responses"].get(&status).or_else(|| op["responses"].get("default"));
    let response = resolve(doc, documented.ok_or_else(|| format!("status {status} is not documented"))?);
    if let Some(headers) = response["headers"].as_object() {
        for (name, header) in headers {
            if resolve(doc, header)["required"] == true && reply.header(name).is_none() {
                return Err(format!("{status}: the required header {name} is missing"));
            }
        }
    }
    let Some(content) = response["content"].as_object() else {
        return if reply.body.is_empty() { Ok(()) } else { Err(format!("{status}: a body where none is documented")) };
    };
    let media = reply.header("content-type").unwrap_or_default();
    let media = media.split(';').next().unwrap_or_default().trim();
    let media_type = content.get(media).ok_or_else(|| format!("{status}: content type {media:?} is not documented"))?;
    if media.ends_with("json") {
        let body: Value = serde_json::from_slice(&reply.body).map_err(|e| format!("{status}: not JSON: {e}"))?;
        let mut errors = Vec::new();
        check(doc, &media_type["schema"], &body, "$", true, &mut errors);
        if !errors.is_empty() {
            return Err(format!("{status}: {}", errors.join("; ")));
        }
    }
    Ok(())
}

/// The properties a schema (and its `allOf` parts) declares.
fn declared_properties(doc: &Value, schema: &Value, out: &mut BTreeSet<String>) {
    let schema = resolve(doc, schema);
    if let Some(properties) = schema["properties"].as_object() {
        out.extend(properties.keys().cloned());
    }
    for part in schema["allOf"].as_array().into_iter().flatten() {
        declared_properties(doc, part, out);
    }
}

fn type_matches(kind: &str, value: &Value) -> bool {
    match kind {
        "null" => value.is_null(),
        "boolean" => value.is_boolean(),
        "integer" => value.is_i64() || value.is_u64(),
        "number" => value.is_number(),
        "string" => value.is_string(),
        "array" => value.is_array(),
        "object" => value.is_object(),
        _ => false,
    }
}

/// A small JSON Schema check, enough for this document: `$ref`, `allOf`, `oneOf`/`anyOf`, `type`,
/// `const`, `enum`, `required`, `properties`, `additionalProperties`, `items`, lengths, bounds,
/// and the formats `uuid` and `date-time`. Objects are closed (`closed`): a property the
/// document does not declare is an error, so an undocumented field in an answer is caught.
fn check(doc: &Value, schema: &Value, value: &Value, at: &str, closed: bool, errors: &mut Vec<String>) {
    let schema = resolve(doc, schema);
    for part in schema["allOf"].as_array().into_iter().flatten() {
        check(doc, part, value, at, false, errors);
    }
    for key in ["oneOf", "anyOf"] {
        if let Some(options) = schema[key].as_array() {
            let fits = options.iter().any(|option| {
                let mut sub = Vec::new();
                check(doc, option, value, at, closed, &mut sub);
                sub.is_empty()
            });
            if !fits {
                errors.push(format!("{at}: {value} fits none of {key}"));
            }
        }
    }
    if let Some(expected) = schema.get("const")
        && expected != value
    {
        errors.push(format!("{at}: {value} is not {expected}"));
    }
    if let Some(options) = schema["enum"].as_array()
        && !options.contains(value)
    {
        errors.push(format!("{at}: {value} is not one of {options:?}"));
    }
    let kinds: Vec<&str> = match &schema["type"] {
        Value::String(kind) => vec![kind.as_str()],
        Value::Array(kinds) => kinds.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    if !kinds.is_empty() && !kinds.iter().any(|k| type_matches(k, value)) {
        errors.push(format!("{at}: {value} is not of type {kinds:?}"));
        return;
    }
    match value {
        Value::Object(map) => {
            for required in schema["required"].as_array().into_iter().flatten() {
                let name = required.as_str().unwrap();
                if !map.contains_key(name) {
                    errors.push(format!("{at}: the required field {name} is missing"));
                }
            }
            let mut declared = BTreeSet::new();
            declared_properties(doc, schema, &mut declared);
            for (key, child) in map {
                let child_at = format!("{at}.{key}");
                if let Some(property) = schema["properties"].get(key) {
                    check(doc, property, child, &child_at, true, errors);
                } else if let Some(additional) = schema.get("additionalProperties").filter(|a| a.is_object()) {
                    check(doc, additional, child, &child_at, true, errors);
                } else if closed
                    && !declared.contains(key)
                    && schema.get("additionalProperties").is_none_or(|a| a == false)
                    && (!declared.is_empty() || schema.get("additionalProperties") == Some(&Value::Bool(false)))
                {
                    errors.push(format!("{at}: the field {key} is not documented"));
                }
            }
        }
        Value::Array(items) => {
            if let Some(item_schema) = schema.get("items") {
                for (index, item) in items.iter().enumerate() {
                    check(doc, item_schema, item, &format!("{at}[{index}]"), true, errors);
                }
            }
        }
        Value::String(text) => {
            let length = text.chars().count() as u64;
            if schema["maxLength"].as_u64().is_some_and(|max| length > max)
                || schema["minLength"].as_u64().is_some_and(|min| length < min)
            {
                errors.push(format!("{at}: {text:?} has a length out of bounds"));
            }
            match schema["format"].as_str() {
                Some("uuid") if uuid::Uuid::parse_str(text).map(|u| u.hyphenated().to_string()) != Ok(text.clone()) => {
                    errors.push(format!("{at}: {text:?} is not a lowercase hyphenated UUID"));
                }
                Some("date-time") if !(text.len() == 24 && text.ends_with('Z') && text.as_bytes()[10] == b'T') => {
                    errors.push(format!("{at}: {text:?} is not an RFC 3339 UTC time with milliseconds"));
                }
                _ => {}
            }
        }
        Value::Number(number) => {
            if let Some(n) = number.as_f64()
                && (schema["minimum"].as_f64().is_some_and(|min| n < min)
                    || schema["maximum"].as_f64().is_some_and(|max| n > max))
            {
                errors.push(format!("{at}: {n} is out of bounds"));
            }
        }
        _ => {}
    }
}

/// Calls the router and checks the answer against the document.
async fn documented(h: &Harness, doc: &Value, template: &str, method: &str, request: TestRequest) -> Reply {
    let reply = h.call(request).await;
    if let Err(e) = conforms(doc, template, method, &reply) {
        panic!(
            "{} {template} answered {} against the document: {e}\nbody: {}",
            method.to_uppercase(),
            reply.status,
            String::from_utf8_lossy(&reply.body)
        );
    }
    reply
}

#[actix_web::test]
async fn the_answers_of_a_whole_consent_flow_match_the_documented_schemas() {
    let doc = document();
    let h = harness().await;
    let op = operator(&h, None).await;
    let t = template(&h, &op, "<h1>Terms</h1><p>Hello {{fullName}}</p>").await;
    let v1 = PUBLIC_PREFIX;
    let app = &op.app_id;

    let placeholders = "%7B%22fullName%22%3A%22Ada%22%7D";
    documented(
        &h,
        &doc,
        &format!("{v1}/clickwrap"),
        "get",
        get(&format!("{v1}/clickwrap?appId={app}&clickwrapTemplateId={t}&endUserId=alice&language=de&templatePlaceholders={placeholders}")),
    )
    .await
    .expect(200);
    documented(&h, &doc, &format!("{v1}/clickwrap"), "get", get(&format!("{v1}/clickwrap?appId={app}&endUserId=a")))
        .await
        .expect(400);
    let unknown_template = uuid::Uuid::new_v4();
    documented(
        &h,
        &doc,
        &format!("{v1}/clickwrap"),
        "get",
        get(&format!("{v1}/clickwrap?appId={app}&clickwrapTemplateId={unknown_template}&endUserId=a")),
    )
    .await
    .expect(404);
    let preflight =
        request("options", &format!("{v1}/clickwrap")).insert_header(("origin", "https://shop.example.com"));
    documented(&h, &doc, &format!("{v1}/clickwrap"), "options", preflight).await.expect(204);
    documented(
        &h,
        &doc,
        &format!("{v1}/clickwrap/content"),
        "get",
        get(&format!("{v1}/clickwrap/content?appId={app}&clickwrapTemplateId={t}&clickwrapTemplateVersion=1")),
    )
    .await
    .expect(200);
    documented(
        &h,
        &doc,
        &format!("{v1}/clickwrap/customizations"),
        "get",
        get(&format!("{v1}/clickwrap/customizations?appId={app}&clickwrapTemplateId={t}&language=fr")),
    )
    .await
    .expect(200);
    documented(&h, &doc, &format!("{v1}/signing-certificate"), "get", get(&format!("{v1}/signing-certificate")))
        .await
        .expect(200);

    let accepted = act(&h, &op, &t, "alice", "ACCEPTED").await;
    let mut errors = Vec::new();
    check(&doc, &json!({"$ref": "#/components/schemas/RecordActionResponse"}), &accepted, "$", true, &mut errors);
    assert!(errors.is_empty(), "POST /clickwrap: {errors:?}");
    let declined = act(&h, &op, &t, "bob", "DECLINED").await;
    let verify_path = format!("{v1}/clickwrap/verify");
    let signature = accepted["serviceSignature"].as_str().unwrap();
    let verify_request = |signature: &str| post(&verify_path, &json!({"serviceSignature": signature})).app(&op);
    documented(&h, &doc, &verify_path, "post", verify_request(signature)).await.expect(200);
    documented(&h, &doc, &verify_path, "post", verify_request(signature)).await.expect(409);
    documented(&h, &doc, &verify_path, "post", verify_request("forged")).await.expect(400);
    documented(&h, &doc, &verify_path, "post", verify_request(declined["serviceSignature"].as_str().unwrap()))
        .await
        .expect(200);
    documented(&h, &doc, &verify_path, "post", post(&verify_path, &json!({"serviceSignature": "x"}))).await.expect(401);

    let events = format!("{v1}/clickwrap-events");
    let page =
        documented(&h, &doc, &events, "get", get(&format!("{events}?limit=1")).app(&op)).await.expect(200).json();
    assert!(page["nextPageCursor"].is_string());
    documented(&h, &doc, &events, "get", get(&format!("{events}?limit=0")).app(&op)).await.expect(400);
    documented(&h, &doc, &events, "get", get(&events).app(&op).insert_header(("accept", "text/html")))
        .await
        .expect(406);
    let accepted_id = accepted["clickwrapEventId"].as_str().unwrap();
    let declined_id = declined["clickwrapEventId"].as_str().unwrap();
    let details = format!("{v1}/clickwrap-events/{{clickwrapEventId}}/details");
    for id in [accepted_id, declined_id] {
        let uri = format!("{v1}/clickwrap-events/{id}/details");
        documented(&h, &doc, &details, "get", get(&uri).app(&op)).await.expect(200);
    }
    let unknown = uuid::Uuid::new_v4();
    documented(&h, &doc, &details, "get", get(&format!("{v1}/clickwrap-events/{unknown}/details")).app(&op))
        .await
        .expect(404);
    let proof = format!("{v1}/clickwrap-events/{{clickwrapEventId}}/proof");
    for id in [accepted_id, declined_id] {
        documented(&h, &doc, &proof, "get", get(&format!("{v1}/clickwrap-events/{id}/proof")).app(&op))
            .await
            .expect(200);
    }
    documented(&h, &doc, &proof, "get", get(&format!("{v1}/clickwrap-events/{unknown}/proof")).app(&op))
        .await
        .expect(404);
    documented(&h, &doc, &format!("{v1}/ledger-key"), "get", get(&format!("{v1}/ledger-key"))).await.expect(200);
    let consistency = "/operator/v1/ledger/consistency";
    let bearer = ("authorization", format!("Bearer {}", op.token));
    documented(&h, &doc, consistency, "get", get(&format!("{consistency}?from=1&to=2")).insert_header(bearer))
        .await
        .expect(200);
    let certificate = format!("{v1}/clickwrap-events/{{clickwrapEventId}}/certificate");
    let pdf = documented(
        &h,
        &doc,
        &certificate,
        "get",
        get(&format!("{v1}/clickwrap-events/{accepted_id}/certificate")).app(&op),
    )
    .await
    .expect(200);
    assert_eq!(pdf.header("content-type"), Some("application/pdf"));
    documented(
        &h,
        &doc,
        &certificate,
        "get",
        get(&format!("{v1}/clickwrap-events/{declined_id}/certificate")).app(&op),
    )
    .await
    .expect(409);

    let agreement = format!("{v1}/clickwrap-events/{{clickwrapEventId}}/agreement");
    let uri = format!("{v1}/clickwrap-events/{accepted_id}/agreement");
    let pdf = documented(&h, &doc, &agreement, "get", get(&uri).app(&op)).await.expect(200);
    assert_eq!(pdf.header("content-type"), Some("application/pdf"));
    let uri = format!("{v1}/clickwrap-events/{declined_id}/agreement");
    documented(&h, &doc, &agreement, "get", get(&uri).app(&op)).await.expect(409);

    let status = format!("{v1}/clickwraps/{{endUserId}}/status");
    documented(&h, &doc, &status, "get", get(&format!("{v1}/clickwraps/alice/status")).app(&op)).await.expect(200);
    documented(
        &h,
        &doc,
        &status,
        "get",
        get(&format!("{v1}/clickwraps/nobody/status?clickwrapTemplateId={t}")).app(&op),
    )
    .await
    .expect(200);
    let templates = format!("{v1}/clickwrap-templates");
    documented(&h, &doc, &templates, "get", get(&format!("{templates}?tags=legal")).app(&op)).await.expect(200);
    let re_accept = format!("{v1}/clickwraps/re-accept");
    let body = json!({"endUserIds": ["alice", "bob"], "clickwrapTemplateIds": [t], "reason": "new terms"});
    documented(&h, &doc, &re_accept, "post", post(&re_accept, &body).app(&op)).await.expect(200);
    documented(&h, &doc, &re_accept, "post", post(&re_accept, &json!({"endUserIds": []})).app(&op)).await.expect(400);
}

#[actix_web::test]
async fn rate_limited_answers_match_the_document() {
    let doc = document();
    let h = harness_with(Settings { rate_limit: RateLimitPolicy::per_hour(1), ..Settings::default() }).await;
    let op = operator(&h, None).await;
    let t = template(&h, &op, "<p>Terms</p>").await;
    let v1 = PUBLIC_PREFIX;
    let uri = format!("{v1}/clickwrap/customizations?appId={}&clickwrapTemplateId={t}", op.app_id);
    let template = format!("{v1}/clickwrap/customizations");
    documented(&h, &doc, &template, "get", get(&uri)).await.expect(200);
    let limited = documented(&h, &doc, &template, "get", get(&uri)).await.expect(429);
    assert!(limited.header("ratelimit-reset").is_some());
}

#[actix_web::test]
async fn the_answers_of_the_operator_api_match_the_documented_schemas() {
    let doc = document();
    let h = harness().await;
    let op = operator(&h, Some(100)).await;
    let o = OPERATOR_PREFIX;
    let bearer = ("authorization", format!("Bearer {}", op.token));
    let call = |method: &str, uri: &str, body: Option<Value>| {
        let request = request(method, uri).insert_header(bearer.clone());
        match body {
            Some(body) => request.insert_header(("content-type", "application/json")).set_payload(body.to_string()),
            None => request,
        }
    };

    let apps = format!("{o}/apps");
    let app_template = format!("{o}/apps/{{appId}}");
    let body = json!({"name": "Mobile", "webhookUrl": "https://hooks.example.com/x", "allowedOrigins": ["https://app.example.com"]});
    let created = documented(&h, &doc, &apps, "post", call("post", &apps, Some(body))).await.expect(201).json();
    let app_id = created["appId"].as_str().unwrap().to_owned();
    let app = format!("{o}/apps/{app_id}");
    documented(&h, &doc, &apps, "post", call("post", &apps, Some(json!({"name": ""})))).await.expect(400);
    documented(&h, &doc, &apps, "get", call("get", &apps, None)).await.expect(200);
    documented(&h, &doc, &apps, "get", request("get", &apps)).await.expect(401);
    documented(&h, &doc, &app_template, "get", call("get", &app, None)).await.expect(200);
    documented(&h, &doc, &app_template, "get", call("get", &format!("{o}/apps/{}", uuid::Uuid::new_v4()), None))
        .await
        .expect(404);
    documented(&h, &doc, &app_template, "get", call("get", &format!("{o}/apps/nope"), None)).await.expect(400);
    let patch = json!({"webhookUrl": null, "webhookEnabled": false});
    documented(&h, &doc, &app_template, "patch", call("patch", &app, Some(patch))).await.expect(200);
    for (suffix, template) in [("app-key", "app-key"), ("webhook-signing-secret", "webhook-signing-secret")] {
        let path = format!("{o}/apps/{{appId}}/{template}");
        documented(&h, &doc, &path, "post", call("post", &format!("{app}/{suffix}"), None)).await.expect(200);
    }

    let templates = format!("{o}/templates");
    let template_path = format!("{o}/templates/{{clickwrapTemplateId}}");
    let body = json!({
        "name": "Privacy",
        "tags": ["privacy"],
        "content": {"en": "<p>Hello {{fullName}}</p>", "de": "<p>Hallo {{fullName}}</p>"},
        "customizations": {"agreementMode": "CHECKBOX", "texts": {"de": {"acceptButton": "Ja"}}},
    });
    let created =
        documented(&h, &doc, &templates, "post", call("post", &templates, Some(body))).await.expect(201).json();
    let id = created["clickwrapTemplateId"].as_str().unwrap().to_owned();
    let template = format!("{o}/templates/{id}");
    let sub = |name: &str| (format!("{template_path}/{name}"), format!("{template}/{name}"));
    let (enable_path, enable) = sub("enable");
    documented(&h, &doc, &enable_path, "post", call("post", &enable, None)).await.expect(400);
    let (draft_path, draft) = sub("draft");
    let body = json!({"content": {"en": "<p>Hello {{fullName}} of {{company}}</p>"}});
    documented(&h, &doc, &draft_path, "put", call("put", &draft, Some(body))).await.expect(200);
    let (custom_path, custom) = sub("customizations");
    let body = json!({"theme": {"primaryColor": "#123456", "borderRadius": 4}, "buttons": {"showDecline": false}});
    documented(&h, &doc, &custom_path, "put", call("put", &custom, Some(body))).await.expect(200);
    let (apps_path, template_apps) = sub("apps");
    let body = json!({"appIds": [app_id]});
    documented(&h, &doc, &apps_path, "put", call("put", &template_apps, Some(body))).await.expect(200);
    let (versions_path, versions) = sub("versions");
    documented(&h, &doc, &versions_path, "post", call("post", &versions, Some(json!({"kind": "MAJOR"}))))
        .await
        .expect(201);
    let future = json!({"kind": "MINOR", "effectiveAt": "2999-01-01T00:00:00.000Z"});
    documented(&h, &doc, &versions_path, "post", call("post", &versions, Some(future))).await.expect(201);
    documented(&h, &doc, &versions_path, "post", call("post", &versions, Some(json!({"kind": "HUGE"}))))
        .await
        .expect(400);
    documented(&h, &doc, &enable_path, "post", call("post", &enable, None)).await.expect(200);
    let (disable_path, disable) = sub("disable");
    documented(&h, &doc, &disable_path, "post", call("post", &disable, None)).await.expect(200);
    let body = json!({"name": "Privacy policy", "alwaysRequireAcceptance": true});
    documented(&h, &doc, &template_path, "patch", call("patch", &template, Some(body))).await.expect(200);
    documented(&h, &doc, &template_path, "get", call("get", &template, None)).await.expect(200);
    documented(&h, &doc, &template_path, "get", call("get", &format!("{o}/templates/{}", uuid::Uuid::new_v4()), None))
        .await
        .expect(404);
    documented(&h, &doc, &templates, "get", call("get", &templates, None)).await.expect(200);
    let huge = json!({"content": {"en": "a".repeat(600 * 1024)}});
    documented(&h, &doc, &draft_path, "put", call("put", &draft, Some(huge))).await.expect(413);

    let usage = format!("{o}/usage");
    documented(&h, &doc, &usage, "get", call("get", &usage, None)).await.expect(200);
    let tree_head = format!("{o}/ledger/tree-head");
    documented(&h, &doc, &tree_head, "get", call("get", &tree_head, None)).await.expect(200);
    let consistency = format!("{o}/ledger/consistency");
    // This tenant's log is empty, so there are no sizes to prove (a proof is checked with the
    // public API's verified events).
    documented(&h, &doc, &consistency, "get", call("get", &format!("{consistency}?from=1&to=1"), None))
        .await
        .expect(400);
    let events = format!("{o}/events");
    documented(&h, &doc, &events, "get", call("get", &format!("{events}?limit=5"), None)).await.expect(200);
    documented(&h, &doc, &events, "get", call("get", &format!("{events}?clickwrapEventStatus=MAYBE"), None))
        .await
        .expect(400);
}
