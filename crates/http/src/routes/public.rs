//! Public client routes: the App ID alone identifies the app (SDKs cannot keep a secret).

use actix_web::http::StatusCode;
use actix_web::middleware::from_fn;
use actix_web::{HttpRequest, HttpResponse, web};
use clickwrap_domain::consent::service::{ClickwrapCheck, ContentQuery};
use clickwrap_domain::content::placeholders::PlaceholderValues;
use clickwrap_domain::limits::rate::RateLimitedRoute;
use clickwrap_domain::templates::versioning::VersionNumber;
use clickwrap_domain::{EndUserId, LanguagePreference, TemplateId};
use serde_json::{Value, json};

use super::cors::cors;
use super::{json, ok, origin, rate_limit, user_agent, with_rate_headers};
use crate::ApiState;
use crate::middleware::resource;
use crate::problem::{ApiError, ApiResult};
use crate::query::QueryParams;
use crate::wire;
use crate::wire::JsonObject;

pub(super) fn configure(config: &mut web::ServiceConfig) {
    config
        .service(
            resource("/clickwrap", "GET, POST, OPTIONS")
                .wrap(from_fn(cors))
                .route(web::get().to(check))
                .route(web::post().to(record_action))
                .route(web::method(actix_web::http::Method::OPTIONS).to(HttpResponse::NoContent)),
        )
        .service(
            resource("/clickwrap/content", "GET, OPTIONS")
                .wrap(from_fn(cors))
                .route(web::get().to(content))
                .route(web::method(actix_web::http::Method::OPTIONS).to(HttpResponse::NoContent)),
        )
        .service(
            resource("/clickwrap/customizations", "GET, OPTIONS")
                .wrap(from_fn(cors))
                .route(web::get().to(customizations))
                .route(web::method(actix_web::http::Method::OPTIONS).to(HttpResponse::NoContent)),
        )
        .service(
            resource("/signing-certificate", "GET, OPTIONS")
                .wrap(from_fn(cors))
                .route(web::get().to(signing_certificate))
                .route(web::method(actix_web::http::Method::OPTIONS).to(HttpResponse::NoContent)),
        )
        .service(
            resource("/ledger-key", "GET, OPTIONS")
                .wrap(from_fn(cors))
                .route(web::get().to(ledger_key))
                .route(web::method(actix_web::http::Method::OPTIONS).to(HttpResponse::NoContent)),
        );
}

fn template_id(query: &QueryParams) -> ApiResult<TemplateId> {
    TemplateId::parse(query.require("clickwrapTemplateId")?)
        .map_err(|e| ApiError::invalid_field("clickwrapTemplateId", e))
}

fn language(query: &QueryParams) -> ApiResult<LanguagePreference> {
    Ok(query.parsed("language", LanguagePreference::parse)?.unwrap_or_default())
}

fn placeholders(query: &QueryParams) -> ApiResult<PlaceholderValues> {
    Ok(query.parsed("templatePlaceholders", PlaceholderValues::from_json_text)?.unwrap_or_default())
}

/// `GET /clickwrap`: the latest Effective version and whether this end user must accept it.
async fn check(state: web::Data<ApiState>, request: HttpRequest) -> ApiResult<HttpResponse> {
    let query = QueryParams::parse(request.query_string());
    let app = state.service.identify_public_app(query.require("appId")?, origin(&request)).await?;
    let decision = rate_limit(&state, &request, &app, RateLimitedRoute::ClickwrapCheck).await?;
    let check = ClickwrapCheck {
        template_id: template_id(&query)?,
        end_user_id: EndUserId::parse(query.require("endUserId")?)
            .map_err(|e| ApiError::invalid_field("endUserId", e))?,
        language: language(&query)?,
        placeholders: placeholders(&query)?,
    };
    let view = state.service.check_clickwrap(&app, &check).await?;
    let body = wire::public::clickwrap_view(&view).map_err(|e| {
        tracing::error!(error = %e, "the check's answer could not be written");
        ApiError::internal()
    })?;
    let answer = HttpResponse::Ok().content_type("application/json").body(body);
    Ok(with_rate_headers(answer, &decision))
}

/// `POST /clickwrap`: the end user acted; records the event and returns the Signature.
async fn record_action(
    state: web::Data<ApiState>,
    request: HttpRequest,
    body: web::Json<JsonObject<wire::public::RecordActionBody>>,
) -> ApiResult<HttpResponse> {
    let body = body.into_inner().0;
    let app = state.service.identify_public_app(&body.app_id, origin(&request)).await?;
    let decision = rate_limit(&state, &request, &app, RateLimitedRoute::ClickwrapRecord).await?;
    let client_ip = state.trusted_proxies.client_ip(&request).map(|ip| ip.to_string());
    let action = body.try_into_domain(client_ip, user_agent(&request))?;
    let recorded = state.service.record_action(&app, action).await?;
    let created = json(
        StatusCode::CREATED,
        &json!({
            "serviceSignature": recorded.signature.as_str(),
            "clickwrapEventId": recorded.event.id.to_string(),
            "clickwrapEventStatus": recorded.event.status.as_str(),
        }),
    );
    Ok(with_rate_headers(created, &decision))
}

/// `GET /clickwrap/content`: a version's rendered content (also what an end user accepted).
async fn content(state: web::Data<ApiState>, request: HttpRequest) -> ApiResult<HttpResponse> {
    let query = QueryParams::parse(request.query_string());
    let app = state.service.identify_public_app(query.require("appId")?, origin(&request)).await?;
    let major = query.number::<u32>("clickwrapTemplateVersion")?;
    let minor = query.number::<u32>("clickwrapTemplateVersionMinor")?;
    let version = match (major, minor) {
        (Some(major), minor) => Some(VersionNumber::new(major, minor.unwrap_or(0))),
        (None, Some(_)) => {
            return Err(ApiError::invalid_field(
                "clickwrapTemplateVersion",
                "is required with clickwrapTemplateVersionMinor",
            ));
        }
        (None, None) => None,
    };
    let content_query = ContentQuery {
        template_id: template_id(&query)?,
        version,
        language: language(&query)?,
        placeholders: placeholders(&query)?,
        end_user_id: query.parsed("endUserId", EndUserId::parse)?,
    };
    let rendered = state.service.clickwrap_content(&app, &content_query).await?;
    Ok(ok(&Value::Object(wire::public::rendered(&rendered))))
}

/// `GET /clickwrap/customizations`: how the dialog looks, texts in the resolved language.
async fn customizations(state: web::Data<ApiState>, request: HttpRequest) -> ApiResult<HttpResponse> {
    let query = QueryParams::parse(request.query_string());
    let app = state.service.identify_public_app(query.require("appId")?, origin(&request)).await?;
    let decision = rate_limit(&state, &request, &app, RateLimitedRoute::Customizations).await?;
    let (customizations, _, texts) =
        state.service.clickwrap_customizations(&app, template_id(&query)?, &language(&query)?).await?;
    Ok(with_rate_headers(ok(&wire::customizations(&customizations, &texts)), &decision))
}

/// `GET /ledger-key`: the public key (PEM) that verifies the evidence ledger's tree heads.
async fn ledger_key(state: web::Data<ApiState>) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/x-pem-file")
        .insert_header(("cache-control", "public, max-age=3600"))
        .body(state.service.ledger_public_key_pem())
}

/// `GET /signing-certificate`: the X.509 certificate that signs Certificates of Acceptance.
async fn signing_certificate(state: web::Data<ApiState>) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/x-pem-file")
        .insert_header(("cache-control", "public, max-age=3600"))
        .body(state.signing_certificate_pem.clone())
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_published_signing_certificate_path_is_the_route_served() {
        // Certificates name SIGNING_CERTIFICATE_PATH; `configure` serves "/signing-certificate"
        // (a literal, as the route-table test wants) under the public prefix.
        assert_eq!(crate::SIGNING_CERTIFICATE_PATH, format!("{}/signing-certificate", crate::PUBLIC_PREFIX));
    }
}
