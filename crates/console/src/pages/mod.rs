//! The console's routes: one handler per page or form, each driving the domain's use cases: the
//! operator API's, and a few only the console has (console sessions, the draft edited one language
//! at a time, the live preview, the overview's counts and failed deliveries, an end user's status
//! across the tenant). The security headers are added by the HTTP layer the server mounts the
//! console in (`clickwrap_http`), the one place that decides them: nosniff on every answer, and on
//! pages and PDFs a Content-Security-Policy without inline script and frame protection. It also
//! sets `Cache-Control: no-store` on every answer that does not say otherwise; the assets
//! (`no-cache`, with an ETag) and the events export (`private, no-store`, the operator API's
//! answer) do.

mod apps;
mod evidence;
mod operators;

pub(crate) use operators::sign_in;
mod templates;
#[cfg(test)]
mod tests;

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};
use clickwrap_domain::etag::if_none_match;
use maud::Markup;

use crate::assets::Asset;
use crate::error::ConsoleError;
use crate::session::{SignedIn, consume_notice};
use crate::views::{Chrome, Flash, Section};

/// Largest form body: a template draft carries a whole agreement.
const FORM_LIMIT: usize = 4 * 1024 * 1024;

pub(crate) type PageResult = Result<HttpResponse, ConsoleError>;

/// A user error (a value refused, a conflict) goes back to `back` as a notice, so the operator
/// stays on the form; anything else is the error page.
pub(crate) fn back_on_invalid(back: &str, result: PageResult) -> PageResult {
    match result {
        Err(ConsoleError::Invalid(message) | ConsoleError::Conflict(message)) => {
            Ok(crate::session::redirect_with(back, false, &message))
        }
        other => other,
    }
}

/// A page with `status` (the HTTP layer adds the security headers).
pub(crate) fn html(status: actix_web::http::StatusCode, markup: Markup) -> HttpResponse {
    HttpResponse::build(status).content_type("text/html; charset=utf-8").body(markup.into_string())
}

/// A signed-in page: the notice it showed is used up.
pub(crate) fn page(session: &SignedIn, markup: Markup) -> HttpResponse {
    let mut response = HttpResponse::Ok();
    consume_notice(&mut response, session);
    response.content_type("text/html; charset=utf-8").body(markup.into_string())
}

/// The page chrome for `session` in `section`.
pub(crate) fn chrome(session: &SignedIn, section: Section) -> Chrome<'_> {
    Chrome {
        tenant_name: session.operator.tenant.name.as_str(),
        operator_name: session.operator.token_name.as_str(),
        can_change: session.can_change(),
        csrf_token: &session.csrf,
        section,
        flash: session.notice.as_ref().map(|n| if n.ok { Flash::Success(&n.text) } else { Flash::Error(&n.text) }),
    }
}

pub(crate) fn configure(config: &mut web::ServiceConfig) {
    config.service(
        web::scope("/console")
            .app_data(web::PayloadConfig::new(FORM_LIMIT))
            .route("", web::get().to(operators::overview))
            .route("/login", web::get().to(operators::login_form))
            .route("/login", web::post().to(operators::login))
            .route("/logout", web::post().to(operators::logout))
            .route("/assets/{file}", web::get().to(asset))
            .route("/apps", web::get().to(apps::list))
            .route("/apps", web::post().to(apps::create))
            .route("/apps/{appId}", web::get().to(apps::detail))
            .route("/apps/{appId}", web::post().to(apps::update))
            .route("/apps/{appId}/app-key", web::post().to(apps::regenerate_key))
            .route("/apps/{appId}/webhook-signing-secret", web::post().to(apps::rotate_secret))
            .route("/apps/{appId}/webhooks", web::get().to(apps::deliveries))
            .route("/webhook-deliveries/{deliveryId}/redeliver", web::post().to(apps::redeliver))
            .route("/templates", web::get().to(templates::list))
            .route("/templates", web::post().to(templates::create))
            .route("/templates/{id}", web::get().to(templates::detail))
            .route("/templates/{id}/settings", web::post().to(templates::settings))
            .route("/templates/{id}/enable", web::post().to(templates::enable))
            .route("/templates/{id}/disable", web::post().to(templates::disable))
            .route("/templates/{id}/apps", web::post().to(templates::link_apps))
            .route("/templates/{id}/versions", web::post().to(templates::publish))
            .route("/templates/{id}/versions/{version}", web::get().to(templates::version))
            .route("/templates/{id}/diff", web::get().to(templates::diff))
            .route("/templates/{id}/draft", web::get().to(templates::draft))
            .route("/templates/{id}/draft", web::post().to(templates::save_draft))
            .route("/templates/{id}/customizations", web::get().to(templates::customizations))
            .route("/templates/{id}/customizations", web::post().to(templates::save_customizations))
            .route("/templates/{id}/preview-view", web::get().to(templates::preview_view))
            .route("/preview", web::post().to(templates::preview))
            .route("/events", web::get().to(evidence::list))
            .route("/events/export", web::get().to(evidence::export))
            .route("/events/{id}", web::get().to(evidence::detail))
            .route("/events/{id}/certificate", web::get().to(evidence::certificate))
            .route("/events/{id}/agreement", web::get().to(evidence::agreement))
            .route("/status", web::get().to(evidence::status))
            .route("/audit", web::get().to(operators::audit))
            .route("/tokens", web::get().to(operators::tokens))
            .route("/tokens", web::post().to(operators::create_token))
            .route("/tokens/{id}/revoke", web::post().to(operators::revoke_token))
            .default_service(web::to(not_found)),
    );
}

async fn not_found() -> PageResult {
    Err(ConsoleError::NotFound("this page"))
}

/// A static file with its ETag; an `If-None-Match` that matches it answers 304.
async fn asset(request: HttpRequest) -> PageResult {
    let (asset, etag) = Asset::find(request.path()).ok_or(ConsoleError::NotFound("this file"))?;
    let fresh = request
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|tags| if_none_match(tags, etag));
    let mut response = if fresh { HttpResponse::NotModified() } else { HttpResponse::Ok() };
    response.insert_header((header::ETAG, etag)).insert_header((header::CACHE_CONTROL, "no-cache"));
    Ok(if fresh { response.finish() } else { response.content_type(asset.content_type).body(asset.body) })
}
