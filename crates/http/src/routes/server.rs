//! Server-side routes: the operator's backend, with `X-APP-ID` + `X-APP-KEY`.

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};
use clickwrap_domain::limits::rate::RateLimitedRoute;
use clickwrap_domain::{EndUserId, EventId, Tag, TemplateId};
use serde::Deserialize;

use super::{ok, rate_limit, with_rate_headers};
use crate::ApiState;
use crate::auth::AuthenticatedApp;
use crate::list_query::ListQuery;
use crate::middleware::resource;
use crate::problem::{ApiError, ApiResult};
use crate::query::QueryParams;
use crate::wire;
use crate::wire::JsonObject;

pub(super) fn configure(config: &mut web::ServiceConfig) {
    config
        .service(resource("/clickwrap/verify", "POST").route(web::post().to(verify)))
        .service(resource("/clickwrap-events", "GET").route(web::get().to(list_events)))
        .service(resource("/clickwrap-events/{clickwrapEventId}/details", "GET").route(web::get().to(details)))
        .service(resource("/clickwrap-events/{clickwrapEventId}/certificate", "GET").route(web::get().to(certificate)))
        .service(resource("/clickwrap-events/{clickwrapEventId}/agreement", "GET").route(web::get().to(agreement)))
        .service(resource("/clickwrap-events/{clickwrapEventId}/proof", "GET").route(web::get().to(proof)))
        .service(resource("/clickwraps/re-accept", "POST").route(web::post().to(re_accept)))
        .service(resource("/clickwraps/{endUserId}/status", "GET").route(web::get().to(status)))
        .service(resource("/clickwrap-templates", "GET").route(web::get().to(templates)));
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct VerifyBody {
    service_signature: String,
}

/// The query string of a server-side route (credentials in it were refused by the extractor).
fn query(request: &HttpRequest) -> QueryParams {
    QueryParams::parse(request.query_string())
}

pub(crate) fn event_id(text: &str) -> ApiResult<EventId> {
    EventId::parse(text).map_err(|e| ApiError::invalid_field("clickwrapEventId", e))
}

/// `POST /clickwrap/verify`.
async fn verify(
    state: web::Data<ApiState>,
    request: HttpRequest,
    AuthenticatedApp(app): AuthenticatedApp,
    body: web::Json<JsonObject<VerifyBody>>,
) -> ApiResult<HttpResponse> {
    let decision = rate_limit(&state, &request, &app, RateLimitedRoute::Verify).await?;
    let verified = state.service.verify(&app, &body.service_signature).await?;
    Ok(with_rate_headers(ok(&wire::events::verified(&verified.event)), &decision))
}

/// `GET /clickwrap-events`.
async fn list_events(
    state: web::Data<ApiState>,
    request: HttpRequest,
    AuthenticatedApp(app): AuthenticatedApp,
) -> ApiResult<HttpResponse> {
    let list = ListQuery::parse(&query(&request))?;
    let page = state.service.list_events(app.tenant_id, &list.filter, list.cursor.as_deref(), list.limit).await?;
    Ok(ok(&wire::events::page(&page)))
}

/// `GET /clickwrap-events/{id}/details`.
async fn details(
    state: web::Data<ApiState>,
    AuthenticatedApp(app): AuthenticatedApp,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let details = state.service.event_details(app.tenant_id, event_id(&path)?).await?;
    Ok(ok(&wire::events::details(&details)))
}

/// `GET /clickwrap-events/{id}/certificate`: the signed PDF stored at verification.
async fn certificate(
    state: web::Data<ApiState>,
    AuthenticatedApp(app): AuthenticatedApp,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let (event, certificate) = state.service.certificate(app.tenant_id, event_id(&path)?).await?;
    Ok(pdf(&format!("certificate-{}.pdf", event.id), certificate.pdf))
}

/// `GET /clickwrap-events/{id}/agreement`: the content as shown, then the certificate, signed.
async fn agreement(
    state: web::Data<ApiState>,
    AuthenticatedApp(app): AuthenticatedApp,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let (event, pdf_bytes) = state.service.agreement(app.tenant_id, event_id(&path)?).await?;
    Ok(pdf(&format!("agreement-{}.pdf", event.id), pdf_bytes))
}

/// `GET /clickwrap-events/{id}/proof`: the event's inclusion proof in its tenant's evidence ledger.
async fn proof(
    state: web::Data<ApiState>,
    AuthenticatedApp(app): AuthenticatedApp,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let proof = state.service.inclusion_proof(&app, event_id(&path)?).await?;
    Ok(ok(&wire::ledger::inclusion(&proof)))
}

pub(crate) fn pdf(filename: &str, bytes: Vec<u8>) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/pdf")
        .insert_header((header::CONTENT_DISPOSITION, format!("attachment; filename=\"{filename}\"")))
        .insert_header((header::CACHE_CONTROL, "private, no-store"))
        .body(bytes)
}

/// `GET /clickwraps/{endUserId}/status`.
async fn status(
    state: web::Data<ApiState>,
    request: HttpRequest,
    AuthenticatedApp(app): AuthenticatedApp,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let end_user = EndUserId::parse(&path).map_err(|e| ApiError::invalid_field("endUserId", e))?;
    let only = query(&request).parsed("clickwrapTemplateId", TemplateId::parse)?;
    let view = state.service.consent_status(&app, &end_user, only).await?;
    Ok(ok(&wire::public::consent_status(&view)))
}

/// `POST /clickwraps/re-accept`.
async fn re_accept(
    state: web::Data<ApiState>,
    AuthenticatedApp(app): AuthenticatedApp,
    body: web::Json<JsonObject<wire::public::ReAcceptBody>>,
) -> ApiResult<HttpResponse> {
    let (users, templates) = body.parse_ids()?;
    let results = state.service.request_re_accept(&app, &users, &templates, body.reason.as_deref()).await?;
    Ok(ok(&wire::public::re_accept_results(&results)))
}

/// `GET /clickwrap-templates[?tags=a&tags=b]`.
async fn templates(
    state: web::Data<ApiState>,
    request: HttpRequest,
    AuthenticatedApp(app): AuthenticatedApp,
) -> ApiResult<HttpResponse> {
    let query = query(&request);
    let tags = query
        .all("tags")
        .into_iter()
        .flat_map(|t| t.split(','))
        .map(|t| Tag::parse(t).map_err(|e| ApiError::invalid_field("tags", e)))
        .collect::<ApiResult<Vec<_>>>()?;
    let templates = state.service.available_templates(&app, &tags).await?;
    Ok(ok(&wire::public::available_templates(&templates)))
}
