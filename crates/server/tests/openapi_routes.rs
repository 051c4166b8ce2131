//! `docs/openapi.json` describes every route the binary serves, not only the API
//! (`crates/http/tests/openapi.rs` keeps the API's routes and the document in step): the SDK
//! scripts, the demo, the operator console's pages and forms, health, readiness, metrics and the
//! document itself.
//!
//! - Reading the source that registers them (every `.rs` file of `crates/server` and
//!   `crates/console`): the routes registered outside the API and the operations the document lists
//!   outside the API are the same set, so a route added without its documentation, or documented
//!   but gone, fails here. A way of registering routes this test cannot read fails it too.
//! - Probing the real binary (`clickwrap-server demo`, which serves every route): every documented
//!   operation outside the API is answered by its route (not the fallback's 404 or a 405), signed
//!   out, signed in without the CSRF token, and signed in with it, and each answer's status,
//!   media type and required headers are ones the document gives it; a documented 304 is really
//!   answered to `If-None-Match`; every method the document does not list on such a path is 404 or
//!   405.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

use clickwrap_http::openapi::{OPENAPI_JSON, OPENAPI_PATH};
use clickwrap_http::{OPERATOR_PREFIX, PUBLIC_PREFIX};
use clickwrap_postgres::test_db::TestDatabase;
use clickwrap_web_sdk as sdk;
use common::{Response, drop_database, fresh_database_url, request, start};
use serde_json::{Value, json};

/// The methods a path item can document, as actix names its route builders.
const METHODS: [&str; 8] = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/// Path constants the route source names instead of literals, and their values.
const PATH_CONSTANTS: [(&str, &str); 2] =
    [("sdk::CLICKWRAP_JS_PATH", sdk::CLICKWRAP_JS_PATH), ("sdk::CLICKWRAP_MJS_PATH", sdk::CLICKWRAP_MJS_PATH)];

fn document() -> Value {
    serde_json::from_str(OPENAPI_JSON).unwrap_or_else(|e| panic!("docs/openapi.json is not JSON: {e}"))
}

fn is_api_path(path: &str) -> bool {
    path.starts_with(&format!("{PUBLIC_PREFIX}/")) || path.starts_with(&format!("{OPERATOR_PREFIX}/"))
}

/// A path template with its parameters' names left out: `/console/apps/{}`.
fn shape(template: &str) -> String {
    let mut out = String::new();
    let mut in_parameter = false;
    for c in template.chars() {
        match c {
            '{' => {
                in_parameter = true;
                out.push('{');
            }
            '}' => {
                in_parameter = false;
                out.push('}');
            }
            _ if in_parameter => {}
            _ => out.push(c),
        }
    }
    out
}

/// The documented operations outside the API: (path template, method).
fn documented_outside_the_api(doc: &Value) -> Vec<(String, &'static str)> {
    let mut operations = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        if is_api_path(path) {
            continue;
        }
        for method in METHODS {
            if item.get(method).is_some() {
                operations.push((path.clone(), method));
            }
        }
    }
    operations
}

// ---------------------------------------------------------------------------------------------
// The document against the source that registers the routes.

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

/// The source with comments left out and no whitespace, so that registrations read the same
/// however `rustfmt` wraps them, and without its test code: a `#[cfg(test)] mod name;` line is
/// dropped (its file is left out by [`test_modules`]), an inline `#[cfg(test)]` module runs to the
/// end of the file (the house style).
fn compact_source(path: &Path) -> String {
    let code: String = std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let mut compact: String = code.split_whitespace().collect();
    while let Some(at) = compact.find("#[cfg(test)]") {
        let rest = &compact[at + "#[cfg(test)]".len()..];
        match rest.find(';').filter(|end| !rest[..*end].contains('{')) {
            Some(end) => compact.replace_range(at..at + "#[cfg(test)]".len() + end + 1, ""),
            None => compact.truncate(at),
        }
    }
    compact
}

/// The string literal at the start of `text`, if there is one.
fn literal(text: &str) -> Option<&str> {
    let rest = text.strip_prefix('"')?;
    Some(&rest[..rest.find('"')?])
}

/// The method of a route builder at the start of `text` (`web::get()` → `get`).
fn route_method(text: &str) -> Option<&'static str> {
    let rest = text.strip_prefix("web::")?;
    METHODS.into_iter().find(|m| rest.starts_with(&format!("{m}()")))
}

/// What a file registers: (full path, method). Understands the forms the server and the console
/// use; anything else that looks like a registration fails, so that a new form is taught here
/// rather than missed.
fn registrations(name: &str, source: &str) -> Vec<(String, &'static str)> {
    // A scope's prefix applies to what the file registers after it.
    let scopes: Vec<(usize, &str)> = source.match_indices("web::scope(").collect();
    assert!(scopes.len() <= 1, "{name}: more than one scope: teach this test their prefixes");
    let scope = scopes.first().map(|(at, marker)| {
        let prefix = literal(&source[at + marker.len()..])
            .unwrap_or_else(|| panic!("{name}: a scope whose prefix is not a literal: teach this test"));
        (*at, prefix)
    });

    // Every place a route or resource is registered, in order.
    let mut marks: Vec<(usize, &str)> = Vec::new();
    for marker in ["resource(", ".route(", ".configure(", ".service("] {
        marks.extend(source.match_indices(marker).map(|(at, _)| (at, marker)));
    }
    marks.retain(|(at, marker)| !(*marker == "resource(" && source[..*at].ends_with("fn")));
    marks.sort_unstable();

    let mut found = Vec::new();
    // The resource that `.route(web::get()…)` calls without a path of their own belong to.
    let mut resource: Option<(Vec<String>, Option<BTreeSet<String>>)> = None;
    for (at, marker) in marks {
        let rest = &source[at + marker.len()..];
        let prefix = scope.filter(|(scope_at, _)| at > *scope_at).map_or("", |(_, prefix)| prefix);
        match marker {
            ".service(" => {
                let known = ["web::scope(", "web::resource(", "clickwrap_http::resource(", "resource("];
                assert!(
                    known.iter().any(|k| rest.starts_with(k)),
                    "{name}: `.service({}…`: teach this test what it registers",
                    &rest[..rest.len().min(40)]
                );
            }
            ".configure(" => {
                assert!(
                    rest.starts_with("clickwrap_http::openapi::configure)"),
                    "{name}: `.configure({}…`: teach this test what it registers",
                    &rest[..rest.len().min(40)]
                );
                found.push((OPENAPI_PATH.to_owned(), "get"));
            }
            "resource(" => {
                if let Some(path) = literal(rest) {
                    let full = format!("{prefix}{path}");
                    // `clickwrap_http::resource("/path", "GET, POST")` lists its methods;
                    // `web::resource("/path")` has those of the routes that follow.
                    let allow = rest[path.len() + 2..].strip_prefix(',').and_then(literal);
                    let methods: Option<BTreeSet<String>> =
                        allow.map(|allow| allow.split(',').map(|m| m.trim().to_lowercase()).collect());
                    for method in methods.iter().flatten() {
                        let method = METHODS
                            .into_iter()
                            .find(|m| m == method)
                            .unwrap_or_else(|| panic!("{name}: unknown method {method}"));
                        found.push((full.clone(), method));
                    }
                    resource = Some((vec![full], methods));
                } else {
                    // `web::resource(path)` in a loop over path constants.
                    let paths: Vec<String> = PATH_CONSTANTS
                        .iter()
                        .filter(|(constant, _)| source.contains(constant))
                        .map(|(_, value)| format!("{prefix}{value}"))
                        .collect();
                    let named = source.matches("_PATH").count();
                    assert!(
                        !paths.is_empty() && named == paths.len(),
                        "{name}: a resource whose path is not a literal: add its constants to PATH_CONSTANTS"
                    );
                    resource = Some((paths, None));
                }
            }
            ".route(" => {
                if let Some(path) = literal(rest) {
                    // `.route("/path", web::post().to(…))`.
                    let after = rest[path.len() + 2..].strip_prefix(',').unwrap_or_default();
                    let method = route_method(after)
                        .unwrap_or_else(|| panic!("{name}: .route(\"{path}\", …) without a web::<method>()"));
                    found.push((format!("{prefix}{path}"), method));
                    resource = None;
                } else {
                    // `.route(web::get().to(…))` on the resource before it.
                    let method =
                        route_method(rest).unwrap_or_else(|| panic!("{name}: .route(…) that this test cannot read"));
                    let (paths, allowed) = resource
                        .as_ref()
                        .unwrap_or_else(|| panic!("{name}: .route(web::{method}()) outside a resource"));
                    match allowed {
                        Some(allowed) => {
                            assert!(
                                allowed.contains(method),
                                "{name}: {method} is routed but not in the allowed methods"
                            )
                        }
                        None => found.extend(paths.iter().map(|path| (path.clone(), method))),
                    }
                }
            }
            _ => unreachable!(),
        }
    }
    found
}

/// The files of the modules a file declares test-only (`#[cfg(test)] mod tests;`).
fn test_modules(file: &Path) -> Vec<PathBuf> {
    let text: String = std::fs::read_to_string(file).unwrap().split_whitespace().collect();
    let stem = file.file_stem().unwrap().to_str().unwrap();
    let dir = if ["mod", "lib", "main"].contains(&stem) {
        file.parent().unwrap().to_owned()
    } else {
        file.with_extension("")
    };
    text.split("#[cfg(test)]")
        .skip(1)
        .filter_map(|rest| {
            let rest = rest.strip_prefix("pub(crate)").or_else(|| rest.strip_prefix("pub")).unwrap_or(rest);
            let name = rest.strip_prefix("mod")?.split_once(';')?.0;
            name.chars().all(|c| c.is_alphanumeric() || c == '_').then(|| dir.join(format!("{name}.rs")))
        })
        .collect()
}

#[test]
fn the_routes_registered_outside_the_api_and_the_documented_ones_are_the_same() {
    let crates = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..").canonicalize().unwrap();
    let mut files = Vec::new();
    rust_files(&crates.join("server/src"), &mut files);
    rust_files(&crates.join("console/src"), &mut files);
    let test_only: BTreeSet<PathBuf> = files.iter().flat_map(|file| test_modules(file)).collect();
    assert!(!test_only.is_empty(), "the scan for test-only modules found none: fix test_modules");
    files.retain(|file| !test_only.contains(file));
    let mut registered: BTreeMap<(String, &str), String> = BTreeMap::new();
    for file in &files {
        let name = file.strip_prefix(&crates).unwrap_or(file).display().to_string();
        for (path, method) in registrations(&name, &compact_source(file)) {
            assert!(!is_api_path(&path), "{name} registers {path}, inside the API's prefixes");
            registered.insert((shape(&path), method), format!("{} {path} ({name})", method.to_uppercase()));
        }
    }
    for expected in ["/healthz", "/console/apps/{}", "/demo", sdk::CLICKWRAP_JS_PATH, OPENAPI_PATH] {
        assert!(registered.keys().any(|(p, _)| p == expected), "the source scan missed {expected}: fix this test");
    }

    let doc = document();
    let documented: BTreeMap<(String, &str), String> = documented_outside_the_api(&doc)
        .into_iter()
        .map(|(path, method)| ((shape(&path), method), format!("{} {path}", method.to_uppercase())))
        .collect();
    let undocumented: Vec<&String> =
        registered.iter().filter(|(key, _)| !documented.contains_key(*key)).map(|(_, name)| name).collect();
    assert!(undocumented.is_empty(), "served but not in docs/openapi.json:\n{undocumented:#?}");
    let stale: Vec<&String> =
        documented.iter().filter(|(key, _)| !registered.contains_key(*key)).map(|(_, name)| name).collect();
    assert!(stale.is_empty(), "in docs/openapi.json but registered nowhere:\n{stale:#?}");
}

#[test]
fn every_documented_operation_outside_the_api_has_a_tag_and_says_how_it_is_signed_in() {
    let doc = document();
    let tags: BTreeSet<&str> = doc["tags"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
    for tag in ["SDK scripts", "Demo", "Console (HTML)", "Service"] {
        assert!(tags.contains(tag), "the tag {tag} is not declared");
    }
    for (path, method) in documented_outside_the_api(&doc) {
        let op = &doc["paths"][&path][method];
        let name = format!("{} {path}", method.to_uppercase());
        let tag = op["tags"][0].as_str().unwrap_or_else(|| panic!("{name} has no tag"));
        assert!(tags.contains(tag), "{name}: undeclared tag {tag}");
        let expected = if path.starts_with("/sdk/") {
            "SDK scripts"
        } else if path == "/demo" || path.starts_with("/demo/") {
            "Demo"
        } else if path == "/console" || path.starts_with("/console/") {
            "Console (HTML)"
        } else {
            "Service"
        };
        assert_eq!(tag, expected, "{name}");
        if tag == "Demo" {
            assert!(op["description"].as_str().unwrap().contains("Only under `clickwrap-server demo`"), "{name}");
        }
        // Console pages are signed in by the session cookie, except the sign-in form and the assets.
        let public = path.starts_with("/console/login") || path.starts_with("/console/assets/");
        let session = op["security"] == json!([{"consoleSession": []}]);
        assert_eq!(session, tag == "Console (HTML)" && !public, "{name}: security");
        if session && method == "post" {
            let form = &op["requestBody"]["content"]["application/x-www-form-urlencoded"]["schema"];
            assert_eq!(form["properties"]["csrf_token"]["$ref"], "#/components/schemas/CsrfToken", "{name}");
            assert!(op["responses"]["403"].is_object(), "{name}: 403 without the CSRF token");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The document against the real binary.

/// Follows `$ref`s (local JSON pointers) to the object they name.
fn resolve<'a>(doc: &'a Value, mut value: &'a Value) -> &'a Value {
    for _ in 0..16 {
        let Some(reference) = value.get("$ref").and_then(Value::as_str) else {
            return value;
        };
        value = doc.pointer(reference.trim_start_matches('#')).unwrap_or_else(|| panic!("{reference}"));
    }
    panic!("$ref chain too long")
}

/// Whether an answer is one the operation documents: its status, its media type (or no body
/// where none is documented) and the headers marked required.
fn conforms(doc: &Value, template: &str, method: &str, reply: &Response) -> Result<(), String> {
    let op = &doc["paths"][template][method];
    let status = reply.status.to_string();
    let documented = op["responses"].get(&status).ok_or_else(|| format!("status {status} is not documented"))?;
    let response = resolve(doc, documented);
    for (name, header) in response["headers"].as_object().into_iter().flatten() {
        if resolve(doc, header)["required"] == true && reply.header(name).is_none() {
            return Err(format!("{status}: the required header {name} is missing"));
        }
    }
    match response["content"].as_object() {
        None if reply.body.is_empty() => Ok(()),
        None => Err(format!("{status}: a body where none is documented")),
        // A HEAD answer has the GET's headers and no body.
        Some(_) if method == "head" => Ok(()),
        Some(content) => {
            let media = reply.media_type().unwrap_or_default();
            let media_type =
                content.get(media).ok_or_else(|| format!("{status}: content type {media:?} is not documented"))?;
            if media.ends_with("json") {
                let body: Value =
                    serde_json::from_slice(&reply.body).map_err(|e| format!("{status}: not JSON: {e}"))?;
                if media == "application/problem+json" && !body["code"].is_string() {
                    return Err(format!("{status}: a problem without a code"));
                }
                let required = resolve(doc, &media_type["schema"])["required"].as_array().cloned().unwrap_or_default();
                if let Some(missing) = required.iter().filter_map(Value::as_str).find(|f| body.get(*f).is_none()) {
                    return Err(format!("{status}: the required field {missing} is missing"));
                }
            }
            Ok(())
        }
    }
}

/// Whether the answer came from the fallback rather than a route: the API's unknown route, the
/// console's unknown page, or a method the path does not have.
fn from_the_fallback(reply: &Response) -> bool {
    reply.status == 405
        || (reply.status == 404
            && (reply.text().contains("ROUTE_NOT_FOUND")
                || reply.text().contains("Sorry, this page could not be found")))
}

/// What the demo printed: its app, its template and the operator token.
struct Demo {
    app_id: String,
    template_id: String,
}

fn read_demo(server: &common::Server) -> Demo {
    let mut printed = BTreeMap::new();
    while printed.len() < 2 {
        let line = server.stdout.recv_timeout(Duration::from_secs(30)).expect("the demo prints its ids");
        if let Some((label, value)) = line.split_once(':') {
            printed.insert(label.trim().to_owned(), value.trim().to_owned());
        }
        printed.retain(|label, _| label == "App ID" || label == "Template ID");
    }
    Demo { app_id: printed["App ID"].clone(), template_id: printed["Template ID"].clone() }
}

/// A session of the demo operator: its cookie and its CSRF token.
struct Session {
    cookie: String,
    csrf: String,
}

fn sign_in(address: &str) -> Session {
    let signed_in = request(address, "POST", "/demo/console", &[], b"");
    assert_eq!(signed_in.status, 303, "{}", signed_in.text());
    let cookie = signed_in
        .headers("set-cookie")
        .find(|c| c.starts_with("clickwrap_console="))
        .and_then(|c| c.split(';').next())
        .expect("a session cookie")
        .to_owned();
    let page = request(address, "GET", "/console/tokens", &[("Cookie", &cookie)], b"");
    assert_eq!(page.status, 200, "{}", page.text());
    let html = page.text();
    let marker = "name=\"csrf_token\" value=\"";
    let at = html.find(marker).expect("a console form carries its CSRF token") + marker.len();
    let csrf = html[at..at + html[at..].find('"').unwrap()].to_owned();
    Session { cookie, csrf }
}

/// An accepted, verified event of the demo app, recorded as the demo page records one.
fn accepted_event(address: &str, demo: &Demo) -> String {
    let v1 = PUBLIC_PREFIX;
    let uri = format!("{v1}/clickwrap?appId={}&clickwrapTemplateId={}&endUserId=probe", demo.app_id, demo.template_id);
    let view = request(address, "GET", &uri, &[], b"").json();
    let action = json!({
        "appId": demo.app_id,
        "clickwrapTemplateId": demo.template_id,
        "clickwrapTemplateVersion": view["clickwrapTemplateVersion"],
        "clickwrapTemplateVersionMinor": view["clickwrapTemplateVersionMinor"],
        "endUserId": "probe",
        "action": "ACCEPTED",
        "language": view["language"],
        "contentHash": view["contentHash"],
        "presentedAt": view["effectiveAt"],
        "presentation": {"mode": "DIALOG", "agreementMode": view["agreementMode"], "acceptLabel": "Accept"},
    });
    let json = [("Content-Type", "application/json")];
    let recorded = request(address, "POST", &format!("{v1}/clickwrap"), &json, action.to_string().as_bytes());
    assert_eq!(recorded.status, 201, "{}", recorded.text());
    let signature = json!({"serviceSignature": recorded.json()["serviceSignature"]});
    let verified = request(address, "POST", "/demo/verify", &json, signature.to_string().as_bytes());
    assert_eq!(verified.status, 200, "{}", verified.text());
    verified.json()["clickwrapEventId"].as_str().unwrap().to_owned()
}

/// The template with its parameters filled in with values of the demo installation.
fn concrete(template: &str, demo: &Demo, event_id: &str) -> String {
    let mut out = String::new();
    let mut rest = template;
    while let Some(start) = rest.find('{') {
        out.push_str(&rest[..start]);
        let end = rest[start..].find('}').unwrap() + start;
        out.push_str(&match &rest[start + 1..end] {
            "appId" => demo.app_id.clone(),
            "clickwrapTemplateId" => demo.template_id.clone(),
            "clickwrapEventId" => event_id.to_owned(),
            "version" => "1.0".to_owned(),
            "file" => "console.css".to_owned(),
            "deliveryId" | "operatorTokenId" => uuid::Uuid::new_v4().to_string(),
            other => panic!("no probe value for the path parameter {other}: add one"),
        });
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    out
}

#[test]
fn the_binary_answers_every_documented_operation_outside_the_api_as_documented() {
    let doc = document();
    let db = TestDatabase::new_blocking();
    let url = fresh_database_url(&db);
    let server = start(&url, "demo");
    let address = server.address.as_str();
    let demo = read_demo(&server);
    let event_id = accepted_event(address, &demo);
    let session = sign_in(address);
    let form = [("Content-Type", "application/x-www-form-urlencoded")];
    let csrf_form = format!("csrf_token={}", session.csrf);

    let mut operations = documented_outside_the_api(&doc);
    // Signing out ends the session the other probes use: last.
    operations.sort_by_key(|(path, _)| path == "/console/logout");
    let mut problems = Vec::new();
    let mut probed = 0;
    for (template, method) in &operations {
        let name = format!("{} {template}", method.to_uppercase());
        let uri = concrete(template, &demo, &event_id);
        let verb = method.to_uppercase();
        let op = &doc["paths"][template][*method];
        let signed_in = op["security"] == json!([{"consoleSession": []}]);
        let check = |how: &str, reply: &Response| {
            if from_the_fallback(reply) {
                Some(format!("{name} ({how}) is not served: {} {}", reply.status, reply.text()))
            } else {
                let shown: String = reply.text().chars().take(300).collect();
                conforms(&doc, template, method, reply).err().map(|e| format!("{name} ({how}): {e}\n{shown}"))
            }
        };

        // Signed out (for the console: no session cookie).
        let anonymous = if verb == "POST" {
            request(address, &verb, &uri, &form, b"")
        } else {
            request(address, &verb, &uri, &[], b"")
        };
        problems.extend(check("signed out", &anonymous));
        if signed_in && (anonymous.status != 303 || anonymous.header("location") != Some("/console/login")) {
            problems.push(format!("{name} signed out: {} to {:?}", anonymous.status, anonymous.header("location")));
        }
        let cookie = [("Cookie", session.cookie.as_str()), form[0]];
        if signed_in && verb == "POST" {
            let refused = request(address, &verb, &uri, &cookie, b"");
            problems.extend(check("without the CSRF token", &refused));
            if refused.status != 403 || refused.media_type() != Some("text/html") {
                problems.push(format!("{name} without the CSRF token: {} {:?}", refused.status, refused.media_type()));
            }
        }

        // Signed in, with the CSRF token.
        let body = if verb == "POST" { csrf_form.as_bytes() } else { b"" };
        let reply = request(address, &verb, &uri, &cookie, body);
        problems.extend(check("signed in", &reply));
        if op["responses"].get("304").is_some() {
            let tag = reply.header("etag").unwrap_or_else(|| panic!("{name}: no ETag"));
            let again = request(address, &verb, &uri, &[("If-None-Match", tag)], b"");
            problems.extend(check("If-None-Match", &again));
            if again.status != 304 {
                problems.push(format!("{name}: If-None-Match with the current ETag answered {}", again.status));
            }
        }
        probed += 1;
    }
    assert!(probed > 40, "only {probed} operations probed");

    // Every other method on those paths is not served.
    let paths: BTreeSet<&String> = operations.iter().map(|(path, _)| path).collect();
    for template in paths {
        let uri = concrete(template, &demo, &event_id);
        let item = &doc["paths"][template.as_str()];
        for method in ["get", "post", "put", "delete", "patch"].into_iter().filter(|m| item.get(*m).is_none()) {
            let reply = request(address, &method.to_uppercase(), &uri, &[], b"");
            if ![404, 405].contains(&reply.status) {
                problems.push(format!(
                    "{} {template} is not documented but answers {}",
                    method.to_uppercase(),
                    reply.status
                ));
            }
        }
    }

    // A form over the console's limit is refused before it is read, as documented.
    let huge = request(
        address,
        "POST",
        "/console/preview",
        &[("Content-Type", "application/x-www-form-urlencoded"), ("Content-Length", "5000000")],
        b"",
    );
    if let Err(e) = conforms(&doc, "/console/preview", "post", &huge) {
        problems.push(format!("POST /console/preview over 4 MiB: {e}"));
    }
    assert_eq!(huge.status, 413, "{}", huge.text());

    assert!(problems.is_empty(), "the binary and docs/openapi.json disagree:\n{}", problems.join("\n"));
    drop(server);
    drop_database(&db, &url);
}
