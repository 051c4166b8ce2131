//! What the server serves beyond the API: the browser SDK at a versioned path, and in demo mode the
//! `/demo` page with its small backend (verifying the demo app's Signatures, fetching its
//! certificates, signing the demo operator in to the console), which plays the part of an
//! operator's own server.

use std::io::Write as _;
use std::sync::Arc;

use actix_web::http::header::{self, AcceptEncoding, ContentEncoding, Encoding};
use actix_web::web::Bytes;
use actix_web::{HttpMessage as _, HttpRequest, HttpResponse, web};
use base64ct::{Base64, Encoding as _};
use clickwrap_console::ConsoleState;
use clickwrap_domain::EventId;
use clickwrap_domain::etag::{if_none_match, strong_etag};
use clickwrap_http::ApiState;
use clickwrap_http::problem::{ApiError, ApiResult};
use clickwrap_web_sdk as sdk;
use serde_json::Value;

use crate::demo::DemoCredentials;

/// `/sdk/v1/clickwrap.js` and `.mjs`, cacheable, with an `ETag` (`HEAD` too, as every GET route).
/// Every page that embeds a clickwrap loads the script, so it is compressed once, here, at the
/// best levels (brotli 11, gzip 9), which on-the-fly compression of other answers cannot afford.
pub(crate) fn sdk_routes(config: &mut web::ServiceConfig) {
    for (path, text) in [(sdk::CLICKWRAP_JS_PATH, sdk::CLICKWRAP_JS), (sdk::CLICKWRAP_MJS_PATH, sdk::CLICKWRAP_MJS)] {
        let script = Arc::new(Script::new(text));
        let serve = move |request: HttpRequest| {
            let script = script.clone();
            async move { script.answer(&request) }
        };
        config.service(web::resource(path).route(web::get().to(serve)));
    }
}

/// One SDK file in each encoding it is sent in, each with its own entity tag.
struct Script {
    identity: &'static str,
    brotli: Vec<u8>,
    gzip: Vec<u8>,
    etag: String,
}

impl Script {
    fn new(text: &'static str) -> Self {
        Self { identity: text, brotli: brotli_best(text), gzip: gzip_best(text), etag: strong_etag(text.as_bytes()) }
    }

    fn answer(&self, request: &HttpRequest) -> HttpResponse {
        let offered = [ContentEncoding::Brotli, ContentEncoding::Gzip, ContentEncoding::Identity].map(Encoding::Known);
        let encoding = request
            .get_header::<AcceptEncoding>()
            .and_then(|accepted| accepted.negotiate(offered.iter()))
            .map_or(ContentEncoding::Identity, |chosen| match chosen {
                Encoding::Known(known) => known,
                Encoding::Unknown(_) => ContentEncoding::Identity,
            });
        let (body, etag): (Bytes, String) = match encoding {
            ContentEncoding::Brotli => (Bytes::copy_from_slice(&self.brotli), self.etag_of("br")),
            ContentEncoding::Gzip => (Bytes::copy_from_slice(&self.gzip), self.etag_of("gzip")),
            _ => (Bytes::from_static(self.identity.as_bytes()), self.etag.clone()),
        };
        let fresh = request
            .headers()
            .get(header::IF_NONE_MATCH)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|tags| if_none_match(tags, &etag));
        let mut response = if fresh { HttpResponse::NotModified() } else { HttpResponse::Ok() };
        response
            .insert_header((header::CACHE_CONTROL, "public, max-age=3600"))
            .insert_header((header::VARY, "Accept-Encoding"))
            .insert_header((header::ETAG, etag))
            .insert_header((header::ACCESS_CONTROL_ALLOW_ORIGIN, "*"));
        if encoding != ContentEncoding::Identity {
            // Set here, the answer is left alone by the compression of other answers.
            response.insert_header((header::CONTENT_ENCODING, encoding.as_str()));
        }
        if fresh { response.finish() } else { response.content_type(sdk::JAVASCRIPT_CONTENT_TYPE).body(body) }
    }

    /// A representation's own strong tag: `"<hash>"` becomes `"<hash>-br"`.
    fn etag_of(&self, encoding: &str) -> String {
        format!("{}-{encoding}\"", self.etag.trim_end_matches('"'))
    }
}

fn brotli_best(text: &str) -> Vec<u8> {
    let mut compressed = Vec::new();
    {
        let mut writer = brotli::CompressorWriter::new(&mut compressed, 4096, 11, 22);
        // Writing to a Vec cannot fail.
        let _ = writer.write_all(text.as_bytes());
    }
    compressed
}

fn gzip_best(text: &str) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    // Writing to a Vec cannot fail.
    let _ = encoder.write_all(text.as_bytes());
    encoder.finish().unwrap_or_default()
}

/// `/demo`, `POST /demo/verify`, `GET /demo/certificate/{id}` for the demo installation.
pub(crate) fn demo_routes(config: &mut web::ServiceConfig, credentials: DemoCredentials) {
    let page =
        sdk::demo_page(&credentials.installation.app_id.to_string(), &credentials.installation.template_id.to_string());
    let policy = demo_content_security_policy(&page);
    config
        .app_data(web::Data::new(credentials))
        .route(
            "/demo",
            web::get().to(move || {
                let (page, policy) = (page.clone(), policy.clone());
                async move {
                    HttpResponse::Ok()
                        .content_type("text/html; charset=utf-8")
                        .insert_header((header::CONTENT_SECURITY_POLICY, policy))
                        .body(page)
                }
            }),
        )
        .route("/demo/verify", web::post().to(demo_verify))
        .route("/demo/console", web::post().to(demo_console))
        .route("/demo/certificate/{clickwrapEventId}", web::get().to(demo_certificate));
}

/// The pages' policy with the demo page's own inline script and style allowed by their SHA-256
/// (the page is one file that runs without a build step), and nothing else inline.
fn demo_content_security_policy(page: &str) -> String {
    let hashes = |open: &str, close: &str| -> Vec<String> {
        inline_blocks(page, open, close)
            .map(|block| {
                let digest = ring::digest::digest(&ring::digest::SHA256, block.as_bytes());
                format!("sha256-{}", Base64::encode_string(digest.as_ref()))
            })
            .collect()
    };
    clickwrap_http::content_security_policy_with_inline(
        &hashes("<script>", "</script>"),
        &hashes("<style>", "</style>"),
    )
}

/// The text of every `open`…`close` element (exactly `open`: an element with attributes, such
/// as `<script src>`, is not inline).
fn inline_blocks<'a>(page: &'a str, open: &'a str, close: &'a str) -> impl Iterator<Item = &'a str> {
    page.split(open).skip(1).filter_map(move |rest| rest.split_once(close).map(|(block, _)| block))
}

/// `POST /demo/console`: signs the demo operator in to the console with one click.
async fn demo_console(console: web::Data<ConsoleState>, demo: web::Data<DemoCredentials>) -> HttpResponse {
    clickwrap_console::sign_in(&console, &demo.operator_token).await
}

async fn demo_verify(
    state: web::Data<ApiState>,
    demo: web::Data<DemoCredentials>,
    body: web::Json<Value>,
) -> ApiResult<HttpResponse> {
    let signature = body
        .get("serviceSignature")
        .and_then(Value::as_str)
        .ok_or_else(|| ApiError::invalid_field("serviceSignature", "is required"))?;
    let app = state.service.authenticate_app(&demo.installation.app_id.to_string(), &demo.app_key).await?;
    let verified = state.service.verify(&app, signature).await?;
    let mut answer = clickwrap_http::verified_event_json(&verified.event);
    if let Some(fields) = answer.as_object_mut() {
        let url = verified.certificate_sha256.map(|_| format!("/demo/certificate/{}", verified.event.id));
        fields.insert("certificateUrl".into(), url.map_or(Value::Null, Value::from));
    }
    Ok(HttpResponse::Ok().json(answer))
}

async fn demo_certificate(
    state: web::Data<ApiState>,
    demo: web::Data<DemoCredentials>,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let id = EventId::parse(&path).map_err(|e| ApiError::invalid_field("clickwrapEventId", e))?;
    let (event, certificate) = state.service.certificate(demo.installation.tenant_id, id).await?;
    Ok(clickwrap_http::pdf_response(&format!("certificate-{}.pdf", event.id), certificate.pdf))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn etags_differ_per_file_and_are_stable() {
        let etag = |text: &str| strong_etag(text.as_bytes());
        assert_eq!(etag(sdk::CLICKWRAP_JS), etag(sdk::CLICKWRAP_JS));
        assert_ne!(etag(sdk::CLICKWRAP_JS), etag(sdk::CLICKWRAP_MJS));
    }

    #[test]
    fn the_demo_policy_allows_exactly_its_inline_script_and_style() {
        let page = sdk::demo_page("app", "template");
        let policy = demo_content_security_policy(&page);
        assert_eq!(inline_blocks(&page, "<script>", "</script>").count(), 1, "one inline script");
        assert_eq!(inline_blocks(&page, "<style>", "</style>").count(), 1, "one inline style sheet");
        assert!(!policy.contains("unsafe"), "{policy}");
        assert!(policy.contains("script-src 'self' 'sha256-") && policy.contains("style-src 'self' 'sha256-"));
        assert!(!page.contains(" style=\""), "style attributes would need 'unsafe-inline'");
        assert!(!page.contains(" onclick="), "event handler attributes would need 'unsafe-inline'");
    }
}
