//! The operator console: the dashboard an operator runs the service from, served by the same binary
//! at `/console`.
//!
//! Server-rendered HTML over the same use cases as the operator API (`clickwrap_domain`'s
//! `ClickwrapService`), with no framework and no build step in the browser: a small script
//! (`assets/console.js`) only enhances pages that work without it. Pages are written with maud:
//! the markup is Rust, checked when the crate compiles, escaped by default and composed as plain
//! functions ([`views`]), so a page is a function of domain values that a unit test can render.
//!
//! - [`views`]: every page, pure (domain values in, markup out); [`diff`]: the line diff of two
//!   versions' content.
//! - `pages/`: the routes: sign the operator in, check the CSRF token of every change, call the use
//!   case, answer a page or a redirect with a one-time notice.
//! - `session.rs`: the session cookie (a server-side session, revocable), CSRF, notices.
//!
//! Sessions live in the database (`console_sessions`), so any instance serves any request.

pub mod assets;
pub mod diff;
pub mod views;

mod error;
mod form;
mod pages;
mod session;

use std::sync::Arc;

use actix_web::{HttpResponse, web};
use clickwrap_domain::TenantId;
use clickwrap_domain::consent::models::{EventFilter, ExportFormat};
use clickwrap_domain::service::ClickwrapService;
use clickwrap_domain::templates::models::DialogPreview;
use clickwrap_domain::webhooks::cidr::AllowCidrs;

/// Streams the export of a tenant's verified events that match a filter, in a format. The server
/// hands in the operator API's own, so both give the same file.
pub type ExportEvents =
    Arc<dyn Fn(&ClickwrapService, TenantId, EventFilter, ExportFormat) -> HttpResponse + Send + Sync>;

/// Writes the dialog preview's JSON, with the member names of `GET /clickwrap`'s answer. The
/// server hands in the HTTP crate's, the one place those names are written.
pub type DialogPreviewJson = fn(&DialogPreview) -> Vec<u8>;

/// What the console's pages share.
pub struct ConsoleState {
    pub service: ClickwrapService,
    /// Address ranges a webhook URL may point at although not public (`CLICKWRAP_WEBHOOK_ALLOW_CIDRS`).
    pub webhook_allow: AllowCidrs,
    /// Whether the session cookie is `Secure` (the public URL is https).
    pub secure_cookies: bool,
    pub export: ExportEvents,
    pub dialog_preview_json: DialogPreviewJson,
}

impl std::fmt::Debug for ConsoleState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ConsoleState").field("secure_cookies", &self.secure_cookies).finish_non_exhaustive()
    }
}

/// Signs an operator in with `token` as `POST /console/login` does (for the demo page's one-click
/// sign-in): 303 to `/console` with the session cookie, or the sign-in form with 401.
pub async fn sign_in(state: &ConsoleState, token: &str) -> HttpResponse {
    pages::sign_in(state, token).await.unwrap_or_else(|error| actix_web::ResponseError::error_response(&error))
}

/// Mounts the console at `/console`.
pub fn configure(config: &mut web::ServiceConfig, state: web::Data<ConsoleState>) {
    config.app_data(state);
    pages::configure(config);
}
