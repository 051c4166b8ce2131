//! Who is using the console: the session cookie, the CSRF token every change must carry, and the
//! one-time notice a redirect leaves for the next page.

use std::future::Future;
use std::pin::Pin;

use actix_web::cookie::{Cookie, SameSite, time::Duration as CookieDuration};
use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpRequest, HttpResponse, HttpResponseBuilder, web};
use clickwrap_domain::tenants::models::{Admin, Operator};

use crate::ConsoleState;
use crate::error::ConsoleError;
use crate::form::Form;

/// The session cookie: the session's secret, sent only to `/console`.
pub(crate) const SESSION_COOKIE: &str = "clickwrap_console";
/// A notice for the page a redirect leads to, read once.
const NOTICE_COOKIE: &str = "clickwrap_console_notice";
const CSRF_FIELD: &str = "csrf_token";
const CSRF_HEADER: &str = "x-csrf-token";

pub(crate) fn state(request: &HttpRequest) -> Result<web::Data<ConsoleState>, ConsoleError> {
    request.app_data::<web::Data<ConsoleState>>().cloned().ok_or(ConsoleError::Internal)
}

/// A signed-in operator, with what the pages need to act for them.
#[derive(Debug)]
pub(crate) struct SignedIn {
    pub(crate) operator: Operator,
    secret: String,
    /// The token every change must carry.
    pub(crate) csrf: String,
    /// What the previous request (a redirect) left to say.
    pub(crate) notice: Option<Notice>,
}

/// A one-time message shown at the top of the next page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Notice {
    pub(crate) ok: bool,
    pub(crate) text: String,
}

impl SignedIn {
    /// The right to change things, which VIEWER tokens do not have.
    pub(crate) fn admin(&self) -> Result<Admin, ConsoleError> {
        Ok(self.operator.admin()?)
    }

    pub(crate) fn can_change(&self) -> bool {
        self.operator.admin().is_ok()
    }

    pub(crate) fn secret(&self) -> &str {
        &self.secret
    }

    pub(crate) fn tenant_id(&self) -> clickwrap_domain::TenantId {
        self.operator.tenant.id
    }

    fn csrf_matches(&self, state: &ConsoleState, presented: Option<&str>) -> bool {
        presented.is_some_and(|token| state.service.console_csrf_matches(&self.secret, token))
    }
}

async fn signed_in(request: &HttpRequest) -> Result<SignedIn, ConsoleError> {
    let state = state(request)?;
    let cookie = request.cookie(SESSION_COOKIE).ok_or(ConsoleError::SignedOut)?;
    let secret = cookie.value().to_owned();
    let operator = state.service.console_operator(&secret).await?;
    let csrf = state.service.console_csrf_token(&secret);
    let notice = request.cookie(NOTICE_COOKIE).and_then(|c| parse_notice(c.value()));
    Ok(SignedIn { operator, secret, csrf, notice })
}

impl FromRequest for SignedIn {
    type Error = ConsoleError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, ConsoleError>>>>;

    fn from_request(request: &HttpRequest, _: &mut Payload) -> Self::Future {
        let request = request.clone();
        Box::pin(async move { signed_in(&request).await })
    }
}

/// A state-changing request: signed in, and carrying the session's CSRF token (form field
/// `csrf_token` or header `X-CSRF-Token`). Checked before anything else is looked at.
pub(crate) async fn change(request: &HttpRequest, body: &[u8]) -> Result<(SignedIn, Form), ConsoleError> {
    let session = signed_in(request).await?;
    let state = state(request)?;
    let form = Form::parse(body);
    let header = request.headers().get(CSRF_HEADER).and_then(|v| v.to_str().ok());
    if !session.csrf_matches(&state, form.get(CSRF_FIELD).or(header)) {
        return Err(ConsoleError::Csrf);
    }
    Ok((session, form))
}

/// A change only an ADMIN may make: as [`change`], then the role (403 for a VIEWER).
pub(crate) async fn admin_change(request: &HttpRequest, body: &[u8]) -> Result<(SignedIn, Admin, Form), ConsoleError> {
    let (session, form) = change(request, body).await?;
    let admin = session.admin()?;
    Ok((session, admin, form))
}

/// The session cookie for a new session (ending with the browser; the server ends it after
/// 12 hours idle).
pub(crate) fn session_cookie(secret: &str, secure: bool) -> Cookie<'static> {
    Cookie::build(SESSION_COOKIE, secret.to_owned())
        .path("/console")
        .http_only(true)
        .same_site(SameSite::Strict)
        .secure(secure)
        .finish()
}

/// A cookie that removes `name`.
pub(crate) fn expired_cookie(name: &'static str) -> Cookie<'static> {
    let mut cookie = Cookie::build(name, "").path("/console").http_only(true).same_site(SameSite::Strict).finish();
    cookie.make_removal();
    cookie
}

/// 303 to `location`, leaving `notice` for the page there.
pub(crate) fn redirect_with(location: &str, ok: bool, notice: &str) -> HttpResponse {
    let value: String = format!("{}{}", if ok { "ok:" } else { "error:" }, notice).chars().take(400).collect();
    let encoded = percent_encoding::utf8_percent_encode(&value, percent_encoding::NON_ALPHANUMERIC).to_string();
    let cookie = Cookie::build(NOTICE_COOKIE, encoded)
        .path("/console")
        .http_only(true)
        .same_site(SameSite::Strict)
        .max_age(CookieDuration::seconds(60))
        .finish();
    HttpResponse::SeeOther()
        .insert_header((actix_web::http::header::LOCATION, location.to_owned()))
        .cookie(cookie)
        .finish()
}

/// Clears the notice once a page has shown it.
pub(crate) fn consume_notice(response: &mut HttpResponseBuilder, session: &SignedIn) {
    if session.notice.is_some() {
        response.cookie(expired_cookie(NOTICE_COOKIE));
    }
}

fn parse_notice(value: &str) -> Option<Notice> {
    let decoded = percent_encoding::percent_decode_str(value).decode_utf8().ok()?;
    if let Some(text) = decoded.strip_prefix("ok:") {
        Some(Notice { ok: true, text: text.to_owned() })
    } else {
        decoded.strip_prefix("error:").map(|text| Notice { ok: false, text: text.to_owned() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notices_survive_their_cookie_round_trip() {
        let response = redirect_with("/console/apps", false, "name: must be 1 to 200 characters; “quoted” & <b>");
        let cookie = response.cookies().find(|c| c.name() == NOTICE_COOKIE).unwrap();
        assert_eq!(
            parse_notice(cookie.value()),
            Some(Notice { ok: false, text: "name: must be 1 to 200 characters; “quoted” & <b>".into() })
        );
        assert_eq!(parse_notice("garbage"), None);
    }
}
