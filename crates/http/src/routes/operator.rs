//! The operator API (`/operator/v1`, bearer operator token): apps, templates, usage and events.
//!
//! Every route is scoped to the token's tenant: another tenant's app or template is answered 404,
//! exactly like one that does not exist. The token is checked before the body is looked at, so a
//! caller without a valid token learns nothing, not even whether its body would have parsed.

use actix_web::http::{StatusCode, header};
use actix_web::{HttpRequest, HttpResponse, HttpResponseBuilder, web};
use clickwrap_domain::ports::run_on_cpu_pool;
use clickwrap_domain::templates::versioning::VersionNumber;
use clickwrap_domain::{AppId, DeliveryId, EventId, OperatorTokenId, TemplateId, Timestamp};
use serde_json::Value;

use super::ok;
use crate::auth::{AdminOperator, SignedInOperator};
use crate::list_query::{self, ListQuery};
use crate::middleware::resource;
use crate::problem::{ApiError, ApiResult};
use crate::query::QueryParams;
use crate::wire::JsonObject;
use crate::{ApiState, OPERATOR_PREFIX, wire};

pub(super) fn configure(config: &mut web::ServiceConfig) {
    config
        .service(resource("/apps", "GET, POST").route(web::get().to(list_apps)).route(web::post().to(create_app)))
        .service(
            resource("/apps/{appId}", "GET, PATCH").route(web::get().to(get_app)).route(web::patch().to(update_app)),
        )
        .service(resource("/apps/{appId}/app-key", "POST").route(web::post().to(regenerate_app_key)))
        .service(resource("/ledger/tree-head", "GET").route(web::get().to(ledger_tree_head)))
        .service(resource("/ledger/consistency", "GET").route(web::get().to(ledger_consistency)))
        .service(resource("/apps/{appId}/webhook-signing-secret", "POST").route(web::post().to(rotate_webhook_secret)))
        .service(resource("/apps/{appId}/webhook-deliveries", "GET").route(web::get().to(list_deliveries)))
        .service(resource("/webhook-deliveries/{deliveryId}/redeliver", "POST").route(web::post().to(redeliver)))
        .service(
            resource("/templates", "GET, POST")
                .route(web::get().to(list_templates))
                .route(web::post().to(create_template)),
        )
        .service(
            resource("/templates/{clickwrapTemplateId}", "GET, PATCH")
                .route(web::get().to(get_template))
                .route(web::patch().to(update_template)),
        )
        .service(resource("/templates/{clickwrapTemplateId}/draft", "PUT").route(web::put().to(save_draft)))
        .service(
            resource("/templates/{clickwrapTemplateId}/customizations", "PUT").route(web::put().to(set_customizations)),
        )
        .service(resource("/templates/{clickwrapTemplateId}/apps", "PUT").route(web::put().to(set_template_apps)))
        .service(resource("/templates/{clickwrapTemplateId}/versions", "POST").route(web::post().to(publish_version)))
        .service(resource("/templates/{clickwrapTemplateId}/enable", "POST").route(web::post().to(enable_template)))
        .service(resource("/templates/{clickwrapTemplateId}/disable", "POST").route(web::post().to(disable_template)))
        .service(
            resource("/templates/{clickwrapTemplateId}/versions/{version}", "GET").route(web::get().to(get_version)),
        )
        .service(resource("/usage", "GET").route(web::get().to(usage)))
        .service(resource("/events", "GET").route(web::get().to(list_events)))
        // Before `/events/{id}`, which would take `export` for an id.
        .service(resource("/events/export", "GET").route(web::get().to(export_events)))
        .service(resource("/events/{clickwrapEventId}", "GET").route(web::get().to(event_details)))
        .service(resource("/events/{clickwrapEventId}/certificate", "GET").route(web::get().to(event_certificate)))
        .service(resource("/events/{clickwrapEventId}/agreement", "GET").route(web::get().to(event_agreement)))
        .service(
            resource("/operator-tokens", "GET, POST")
                .route(web::get().to(list_operator_tokens))
                .route(web::post().to(create_operator_token)),
        )
        .service(
            resource("/operator-tokens/{operatorTokenId}", "DELETE").route(web::delete().to(revoke_operator_token)),
        )
        .service(resource("/audit-log", "GET").route(web::get().to(audit_log)));
}

/// A JSON value, extracted without failing so that the token is checked first.
type Extracted<T> = Result<web::Json<T>, actix_web::Error>;

/// A JSON object body read into `T`.
type Body<T> = Extracted<JsonObject<T>>;

/// The body, or the problem its extraction produced (the JSON config's answer).
fn body<T>(body: Body<T>) -> ApiResult<T> {
    extracted(body).map(|object| object.0)
}

fn extracted<T>(value: Extracted<T>) -> ApiResult<T> {
    value.map(web::Json::into_inner).map_err(|error| {
        error
            .as_error::<ApiError>()
            .cloned()
            .unwrap_or_else(|| ApiError::bad_request("INVALID_BODY", error.to_string()))
    })
}

/// A body that may be left out: an empty one is `T::default()`, whatever its `Content-Type`.
fn optional_body<T: Default>(request: &HttpRequest, extracted: Body<T>) -> ApiResult<T> {
    let length = request.headers().get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok());
    let empty = length.is_none_or(|l| l.trim() == "0") && !request.headers().contains_key(header::TRANSFER_ENCODING);
    match extracted {
        Err(_) if empty => Ok(T::default()),
        extracted => body(extracted),
    }
}

fn app_id(text: &str) -> ApiResult<AppId> {
    AppId::parse(text).map_err(|e| ApiError::invalid_field("appId", e))
}

fn template_id(text: &str) -> ApiResult<TemplateId> {
    TemplateId::parse(text).map_err(|e| ApiError::invalid_field("clickwrapTemplateId", e))
}

fn app_not_found() -> ApiError {
    ApiError::not_found("APP_NOT_FOUND", "the app could not be found")
}

fn now(state: &ApiState) -> Timestamp {
    state.service.now()
}

/// An answer that carries a secret: never stored by a cache.
fn secret(status: StatusCode, body: &Value) -> HttpResponse {
    HttpResponseBuilder::new(status)
        .content_type("application/json")
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .body(body.to_string())
}

/// 201 with the new resource's `Location`.
fn created(location: String, body: &Value) -> HttpResponse {
    HttpResponse::Created()
        .content_type("application/json")
        .insert_header((header::LOCATION, location))
        .body(body.to_string())
}

// ---------------------------------------------------------------------------------------------
// Apps
// ---------------------------------------------------------------------------------------------

/// `POST /apps`: 201 with the App Key and webhook signing secret, which are shown only here.
async fn create_app(
    state: web::Data<ApiState>,
    AdminOperator(admin): AdminOperator,
    new: Body<wire::operator::CreateAppBody>,
) -> ApiResult<HttpResponse> {
    let new = body(new)?.try_into_domain(&state.webhook_allow)?;
    let created = state.service.create_app(&admin, new).await?;
    let mut response = secret(StatusCode::CREATED, &wire::operator::created_app(&created));
    if let Ok(location) = header::HeaderValue::from_str(&format!("{OPERATOR_PREFIX}/apps/{}", created.app.id)) {
        response.headers_mut().insert(header::LOCATION, location);
    }
    Ok(response)
}

/// `GET /apps`.
async fn list_apps(
    state: web::Data<ApiState>,
    SignedInOperator(operator): SignedInOperator,
) -> ApiResult<HttpResponse> {
    let apps = state.service.list_apps(operator.tenant.id).await?;
    Ok(ok(&wire::operator::apps(&apps)))
}

/// `GET /apps/{appId}`.
async fn get_app(
    state: web::Data<ApiState>,
    SignedInOperator(operator): SignedInOperator,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let app = state.service.find_app(operator.tenant.id, app_id(&path)?).await?.ok_or_else(app_not_found)?;
    Ok(ok(&wire::operator::app(&app)))
}

/// `PATCH /apps/{appId}`.
async fn update_app(
    state: web::Data<ApiState>,
    AdminOperator(admin): AdminOperator,
    path: web::Path<String>,
    changes: Body<wire::operator::UpdateAppBody>,
) -> ApiResult<HttpResponse> {
    let id = app_id(&path)?;
    let changes = body(changes)?.try_into_domain(&state.webhook_allow)?;
    let app = state.service.update_app(&admin, id, changes).await?;
    Ok(ok(&wire::operator::app(&app)))
}

/// `POST /apps/{appId}/app-key`: a new App Key; the old one fails from now on, or after the
/// overlap the optional body asks for (`expireOldAfterSecs`).
async fn regenerate_app_key(
    state: web::Data<ApiState>,
    AdminOperator(admin): AdminOperator,
    request: HttpRequest,
    path: web::Path<String>,
    overlap: Body<wire::operator::RegenerateAppKeyBody>,
) -> ApiResult<HttpResponse> {
    let id = app_id(&path)?;
    let overlap = optional_body(&request, overlap)?.try_into_domain()?;
    let regenerated = state.service.regenerate_app_key(&admin, id, overlap).await?;
    Ok(secret(StatusCode::OK, &wire::operator::regenerated_app_key(&regenerated)))
}

/// `POST /apps/{appId}/webhook-signing-secret`: deliveries from now on are signed with the new one.
async fn rotate_webhook_secret(
    state: web::Data<ApiState>,
    AdminOperator(admin): AdminOperator,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let secret_value = state.service.rotate_webhook_secret(&admin, app_id(&path)?).await?;
    Ok(secret(StatusCode::OK, &serde_json::json!({ "webhookSigningSecret": secret_value.expose() })))
}

// ---------------------------------------------------------------------------------------------
// Templates
// ---------------------------------------------------------------------------------------------

/// `POST /templates`: 201, a draft, disabled, with no version.
async fn create_template(
    state: web::Data<ApiState>,
    AdminOperator(admin): AdminOperator,
    new: Body<wire::operator::CreateTemplateBody>,
) -> ApiResult<HttpResponse> {
    let new = body(new)?;
    // Sanitizing is CPU work: on the pool, not on this request worker.
    let new = run_on_cpu_pool(&*state.service.ports().cpu, move || new.try_into_domain())
        .await
        .map_err(|_| ApiError::unavailable())??;
    let template = state.service.create_template(&admin, new).await?;
    let location = format!("{OPERATOR_PREFIX}/templates/{}", template.id);
    Ok(created(location, &wire::operator::template(&template, now(&state), true)))
}

/// `GET /templates`: without draft content (see [`wire::operator::templates`]).
async fn list_templates(
    state: web::Data<ApiState>,
    SignedInOperator(operator): SignedInOperator,
) -> ApiResult<HttpResponse> {
    let templates = state.service.list_templates(operator.tenant.id).await?;
    Ok(ok(&wire::operator::templates(&templates, now(&state))))
}

/// `GET /templates/{id}`.
async fn get_template(
    state: web::Data<ApiState>,
    SignedInOperator(operator): SignedInOperator,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let template = state.service.get_template(operator.tenant.id, template_id(&path)?).await?;
    Ok(ok(&wire::operator::template(&template, now(&state), true)))
}

/// `PATCH /templates/{id}`: name, tags, default language, `alwaysRequireAcceptance`.
async fn update_template(
    state: web::Data<ApiState>,
    AdminOperator(admin): AdminOperator,
    path: web::Path<String>,
    changes: Body<wire::operator::UpdateTemplateBody>,
) -> ApiResult<HttpResponse> {
    let id = template_id(&path)?;
    let changes = body(changes)?.try_into_domain()?;
    let template = state.service.update_template(&admin, id, changes).await?;
    Ok(ok(&wire::operator::template(&template, now(&state), true)))
}

/// `PUT /templates/{id}/draft`: replaces the draft, sanitized; published versions are untouched.
async fn save_draft(
    state: web::Data<ApiState>,
    AdminOperator(admin): AdminOperator,
    path: web::Path<String>,
    draft: Body<wire::operator::DraftBody>,
) -> ApiResult<HttpResponse> {
    let id = template_id(&path)?;
    let draft = body(draft)?;
    let content = run_on_cpu_pool(&*state.service.ports().cpu, move || draft.try_into_domain())
        .await
        .map_err(|_| ApiError::unavailable())??;
    let template = state.service.save_draft(&admin, id, content).await?;
    Ok(ok(&wire::operator::template(&template, now(&state), true)))
}

/// `PUT /templates/{id}/customizations`: the whole customizations object; what is left out takes
/// its default.
async fn set_customizations(
    state: web::Data<ApiState>,
    AdminOperator(admin): AdminOperator,
    path: web::Path<String>,
    customizations: Extracted<Value>,
) -> ApiResult<HttpResponse> {
    let id = template_id(&path)?;
    // Any JSON value: the customizations reader names what is wrong with it.
    let customizations = wire::operator::customizations(&extracted(customizations)?, "")?;
    let template = state.service.set_customizations(&admin, id, customizations).await?;
    Ok(ok(&wire::operator::template(&template, now(&state), true)))
}

/// `PUT /templates/{id}/apps`: links the template to these apps only; `[]` makes it available to all.
async fn set_template_apps(
    state: web::Data<ApiState>,
    AdminOperator(admin): AdminOperator,
    path: web::Path<String>,
    apps: Body<wire::operator::TemplateAppsBody>,
) -> ApiResult<HttpResponse> {
    let id = template_id(&path)?;
    let app_ids = body(apps)?.try_into_domain()?;
    let template = state.service.set_template_apps(&admin, id, app_ids).await?;
    Ok(ok(&wire::operator::template(&template, now(&state), true)))
}

/// `POST /templates/{id}/versions`: publishes the draft; 201 with the version and its template.
async fn publish_version(
    state: web::Data<ApiState>,
    AdminOperator(admin): AdminOperator,
    path: web::Path<String>,
    publish: Body<wire::operator::PublishBody>,
) -> ApiResult<HttpResponse> {
    let id = template_id(&path)?;
    let (kind, effective_at) = body(publish)?.try_into_domain()?;
    let (template, version) = state.service.publish_version(&admin, id, kind, effective_at).await?;
    let location = format!("{OPERATOR_PREFIX}/templates/{}", template.id);
    Ok(created(location, &wire::operator::published(&template, &version, now(&state))))
}

/// `POST /templates/{id}/enable`: 400 `NO_VERSION` before the first publish.
async fn enable_template(
    state: web::Data<ApiState>,
    AdminOperator(admin): AdminOperator,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let template = state.service.enable_template(&admin, template_id(&path)?).await?;
    Ok(ok(&wire::operator::template(&template, now(&state), true)))
}

/// `POST /templates/{id}/disable`.
async fn disable_template(
    state: web::Data<ApiState>,
    AdminOperator(admin): AdminOperator,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let template = state.service.disable_template(&admin, template_id(&path)?).await?;
    Ok(ok(&wire::operator::template(&template, now(&state), true)))
}

// ---------------------------------------------------------------------------------------------
// Usage and events
// ---------------------------------------------------------------------------------------------

/// `GET /usage`: the quota and the verified events of the current period.
/// `GET /ledger/tree-head`: the newest signed tree head of the tenant's evidence ledger.
async fn ledger_tree_head(
    state: web::Data<ApiState>,
    SignedInOperator(operator): SignedInOperator,
) -> ApiResult<HttpResponse> {
    let head = state.service.latest_tree_head(operator.tenant.id).await?;
    Ok(ok(&wire::ledger::tree_head(&head)))
}

/// `GET /ledger/consistency?from=N&to=M`: the RFC 9162 consistency proof between two sizes.
async fn ledger_consistency(
    state: web::Data<ApiState>,
    request: HttpRequest,
    SignedInOperator(operator): SignedInOperator,
) -> ApiResult<HttpResponse> {
    let query = QueryParams::parse(request.query_string());
    let size = |name: &str| {
        query
            .parsed(name, |text| text.parse::<u64>().map_err(|_| "must be a whole number"))?
            .ok_or_else(|| ApiError::invalid_field(name, "is required"))
    };
    let proof = state.service.consistency_proof(operator.tenant.id, size("from")?, size("to")?).await?;
    Ok(ok(&wire::ledger::consistency(&proof)))
}

async fn usage(state: web::Data<ApiState>, SignedInOperator(operator): SignedInOperator) -> ApiResult<HttpResponse> {
    let usage = state.service.usage(&operator.tenant).await?;
    Ok(ok(&wire::operator::usage(&usage)))
}

/// `GET /events`: the filters and cursor of `/public-client/v1/clickwrap-events`, over every app
/// of the tenant.
async fn list_events(
    state: web::Data<ApiState>,
    request: HttpRequest,
    SignedInOperator(operator): SignedInOperator,
) -> ApiResult<HttpResponse> {
    let list = ListQuery::parse(&QueryParams::parse(request.query_string()))?;
    let page = state.service.list_events(operator.tenant.id, &list.filter, list.cursor.as_deref(), list.limit).await?;
    Ok(ok(&wire::events::page(&page)))
}

/// `GET /apps/{appId}/webhook-deliveries?limit&nextPageCursor`: attempts newest first.
async fn list_deliveries(
    state: web::Data<ApiState>,
    SignedInOperator(operator): SignedInOperator,
    path: web::Path<String>,
    request: HttpRequest,
) -> ApiResult<HttpResponse> {
    let query = QueryParams::parse(request.query_string());
    let limit = list_query::page_limit(&query)?;
    let cursor = query.get("nextPageCursor")?;
    let page = state.service.list_webhook_deliveries(operator.tenant.id, app_id(&path)?, cursor, limit).await?;
    Ok(ok(&wire::operator::delivery_page(&page)))
}

/// `POST /webhook-deliveries/{id}/redeliver`: sent again now, with a fresh round of retries.
async fn redeliver(
    state: web::Data<ApiState>,
    AdminOperator(admin): AdminOperator,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let id = DeliveryId::parse(&path).map_err(|e| ApiError::invalid_field("deliveryId", e))?;
    state.service.redeliver_webhook(&admin, id).await?;
    let record = state.service.find_webhook_delivery(admin.tenant_id(), id).await?;
    let body = record.map_or(Value::Null, |r| wire::operator::delivery(&r));
    Ok(HttpResponse::Accepted().content_type("application/json").body(body.to_string()))
}

/// `GET /templates/{id}/versions/{major.minor}`: a published version with its content in every
/// language, exactly as published.
async fn get_version(
    state: web::Data<ApiState>,
    SignedInOperator(operator): SignedInOperator,
    path: web::Path<(String, String)>,
) -> ApiResult<HttpResponse> {
    let (id, number) = path.into_inner();
    let number = VersionNumber::parse(&number).map_err(|e| ApiError::invalid_field("version", e))?;
    let template = state.service.get_template(operator.tenant.id, template_id(&id)?).await?;
    let version = template
        .version(number)
        .ok_or_else(|| ApiError::not_found("VERSION_NOT_FOUND", format!("the template has no version {number}")))?;
    Ok(ok(&wire::operator::version_with_content(&template, version, now(&state))))
}

// ---------------------------------------------------------------------------------------------
// Evidence
// ---------------------------------------------------------------------------------------------

fn event_id(text: &str) -> ApiResult<EventId> {
    EventId::parse(text).map_err(|e| ApiError::invalid_field("clickwrapEventId", e))
}

/// `GET /events/{id}`: the details of a verified event of any app of the tenant.
async fn event_details(
    state: web::Data<ApiState>,
    SignedInOperator(operator): SignedInOperator,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let details = state.service.event_details(operator.tenant.id, event_id(&path)?).await?;
    Ok(ok(&wire::events::details(&details)))
}

/// `GET /events/{id}/certificate`: the signed Certificate of Acceptance.
async fn event_certificate(
    state: web::Data<ApiState>,
    SignedInOperator(operator): SignedInOperator,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let (event, certificate) = state.service.certificate(operator.tenant.id, event_id(&path)?).await?;
    Ok(super::pdf(&format!("certificate-{}.pdf", event.id), certificate.pdf))
}

/// `GET /events/{id}/agreement`: the content as shown, then the certificate, signed.
async fn event_agreement(
    state: web::Data<ApiState>,
    SignedInOperator(operator): SignedInOperator,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let (event, pdf_bytes) = state.service.agreement(operator.tenant.id, event_id(&path)?).await?;
    Ok(super::pdf(&format!("agreement-{}.pdf", event.id), pdf_bytes))
}

/// `GET /events/export?format=ndjson|csv` with the events list's filters: every matching event,
/// streamed.
async fn export_events(
    state: web::Data<ApiState>,
    request: HttpRequest,
    SignedInOperator(operator): SignedInOperator,
) -> ApiResult<HttpResponse> {
    crate::export::events_export(&state.service, operator.tenant.id, request.query_string())
}

// ---------------------------------------------------------------------------------------------
// Operator tokens and the audit log
// ---------------------------------------------------------------------------------------------

/// `GET /operator-tokens`: id, name, role and dates of every unrevoked token; never a secret.
async fn list_operator_tokens(
    state: web::Data<ApiState>,
    SignedInOperator(operator): SignedInOperator,
) -> ApiResult<HttpResponse> {
    let tokens = state.service.list_operator_tokens(operator.tenant.id).await?;
    Ok(ok(&wire::operator::operator_tokens(&tokens)))
}

/// `POST /operator-tokens` `{"name", "role"}`: 201 with the token, shown only here.
async fn create_operator_token(
    state: web::Data<ApiState>,
    AdminOperator(admin): AdminOperator,
    new: Body<wire::operator::CreateOperatorTokenBody>,
) -> ApiResult<HttpResponse> {
    let (name, role) = body(new)?.try_into_domain()?;
    let (info, token) = state.service.create_operator_token(&admin, &name, role).await?;
    let mut response = secret(StatusCode::CREATED, &wire::operator::created_operator_token(&info, &token));
    if let Ok(location) = header::HeaderValue::from_str(&format!("{OPERATOR_PREFIX}/operator-tokens/{}", info.id)) {
        response.headers_mut().insert(header::LOCATION, location);
    }
    Ok(response)
}

/// `DELETE /operator-tokens/{id}`: 204; the token and its console sessions stop working at once.
async fn revoke_operator_token(
    state: web::Data<ApiState>,
    AdminOperator(admin): AdminOperator,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let id = OperatorTokenId::parse(&path).map_err(|e| ApiError::invalid_field("operatorTokenId", e))?;
    state.service.revoke_operator_token(&admin, id).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// `GET /audit-log?limit&nextPageCursor`: operator actions, newest first.
async fn audit_log(
    state: web::Data<ApiState>,
    request: HttpRequest,
    SignedInOperator(operator): SignedInOperator,
) -> ApiResult<HttpResponse> {
    let query = QueryParams::parse(request.query_string());
    let limit = list_query::page_limit(&query)?;
    let cursor = query.get("nextPageCursor")?;
    let page = state.service.audit_log(operator.tenant.id, cursor, limit).await?;
    Ok(ok(&wire::operator::audit_page(&page)))
}
