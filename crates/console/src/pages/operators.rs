//! Signing in and out, the overview, the audit log and the operator tokens.

use actix_web::http::{StatusCode, header};
use actix_web::web::{Bytes, Data, Path};
use actix_web::{HttpRequest, HttpResponse};
use clickwrap_domain::OperatorTokenId;
use clickwrap_domain::audit::service::AuditLogError;
use clickwrap_domain::consent::cursor::PageLimit;
use clickwrap_domain::service::AuthError;
use clickwrap_domain::tenants::models::{OperatorRole, OperatorTokenInfo};
use clickwrap_domain::tenants::service::{CreateOperatorTokenError, RevokeOperatorTokenError};

use super::{PageResult, chrome, html, page};
use crate::ConsoleState;
use crate::error::ConsoleError;
use crate::form::Form;
use crate::session::{
    SESSION_COOKIE, SignedIn, admin_change, change, expired_cookie, redirect_with, session_cookie, state,
};
use crate::views::{self, Section};

/// Days in the overview's chart.
const CHART_DAYS: u16 = 30;
/// Failing deliveries listed on the overview.
const FAILING_SHOWN: usize = 10;
/// Entries per page of the audit log.
const AUDIT_PAGE: u8 = 50;

/// `GET /console/login`: the sign-in form (or the console, when already signed in).
pub(super) async fn login_form(request: HttpRequest) -> PageResult {
    if let Some(cookie) = request.cookie(SESSION_COOKIE)
        && state(&request)?.service.console_operator(cookie.value()).await.is_ok()
    {
        return Ok(HttpResponse::SeeOther().insert_header((header::LOCATION, "/console")).finish());
    }
    Ok(html(StatusCode::OK, views::login::page(None)))
}

/// `POST /console/login` (field `token`): a new session and its cookie; a wrong token is the form
/// again, with 401.
pub(super) async fn login(request: HttpRequest, body: Bytes) -> PageResult {
    let state = state(&request)?;
    sign_in(&state, Form::parse(&body).text("token")).await
}

/// Signs in with `token`: 303 to the console with the session cookie, or the form again with 401.
pub(crate) async fn sign_in(state: &ConsoleState, token: &str) -> PageResult {
    match state.service.sign_in_console(token).await {
        Ok((secret, operator)) => {
            tracing::info!(tenant = %operator.tenant.id, token = %operator.token_id, "console sign-in");
            Ok(HttpResponse::SeeOther()
                .insert_header((header::LOCATION, "/console"))
                .cookie(session_cookie(secret.expose(), state.secure_cookies))
                .finish())
        }
        Err(AuthError::InvalidCredentials) => Ok(html(
            StatusCode::UNAUTHORIZED,
            views::login::page(Some("That operator token is not valid, or it was revoked.")),
        )),
        Err(AuthError::Storage(e)) => Err(e.into()),
    }
}

/// `POST /console/logout`: ends the session (server-side too).
pub(super) async fn logout(request: HttpRequest, body: Bytes) -> PageResult {
    let (session, _) = change(&request, &body).await?;
    state(&request)?.service.sign_out_console(session.secret()).await?;
    Ok(HttpResponse::SeeOther()
        .insert_header((header::LOCATION, "/console/login"))
        .cookie(expired_cookie(SESSION_COOKIE))
        .finish())
}

/// `GET /console`: usage against the quota, verified events per day, failing webhooks.
pub(super) async fn overview(state: Data<ConsoleState>, session: SignedIn) -> PageResult {
    let tenant = session.tenant_id();
    let usage = state.service.usage(&session.operator.tenant).await?;
    let days: Vec<views::overview::DayCount> = state
        .service
        .daily_counts(tenant, CHART_DAYS)
        .await?
        .into_iter()
        .map(|c| views::overview::DayCount {
            day: c.day.as_datetime().date(),
            accepted: c.accepted,
            declined: c.declined,
        })
        .collect();
    let apps = state.service.list_apps(tenant).await?;
    let failing: Vec<views::overview::FailingDelivery> = state
        .service
        .failed_webhook_deliveries(tenant, FAILING_SHOWN)
        .await?
        .into_iter()
        .map(|record| {
            let d = &record.delivery;
            let newest = record.attempts.iter().max_by_key(|a| (a.started_at, a.number));
            views::overview::FailingDelivery {
                delivery_id: d.id.to_string(),
                app_id: d.app_id.to_string(),
                app_name: apps.iter().find(|a| a.id == d.app_id).map_or_else(String::new, |a| a.name.to_string()),
                event_id: d.event_id.to_string(),
                attempts: d.attempts,
                last_attempt_at: d.last_attempt_at,
                last_error: newest.and_then(|a| {
                    a.error.map(|e| match a.response_status {
                        Some(status) => format!("{} (HTTP {status})", e.describe()),
                        None => e.describe().to_owned(),
                    })
                }),
            }
        })
        .collect();
    let markup = views::overview::page(&chrome(&session, Section::Overview), &usage, &days, &failing);
    Ok(page(&session, markup))
}

/// Every token's name by id, revoked ones included (the audit log names them too).
fn token_name(tokens: &[OperatorTokenInfo], id: Option<OperatorTokenId>) -> String {
    match id {
        None => "server".to_owned(),
        Some(id) => {
            tokens.iter().find(|t| t.id == id).map_or_else(|| "a revoked token".to_owned(), |t| t.name.to_string())
        }
    }
}

/// `GET /console/audit?cursor=`.
pub(super) async fn audit(state: Data<ConsoleState>, session: SignedIn, request: HttpRequest) -> PageResult {
    let query = Form::parse(request.query_string().as_bytes());
    let limit = PageLimit::parse(i64::from(AUDIT_PAGE)).unwrap_or_default();
    let log = match state.service.audit_log(session.tenant_id(), query.optional("cursor"), limit).await {
        Ok(log) => log,
        Err(AuditLogError::InvalidCursor) => {
            return Ok(redirect_with("/console/audit", false, "That page link is not valid; here is the first page."));
        }
        Err(AuditLogError::Storage(e)) => return Err(e.into()),
    };
    let tokens = state.service.list_operator_tokens(session.tenant_id()).await?;
    let rows: Vec<views::audit::AuditRow> = log
        .items
        .iter()
        .map(|e| views::audit::AuditRow {
            at: e.at,
            operator_name: token_name(&tokens, e.operator_token_id),
            operator_token_id: e.operator_token_id.map(|t| t.to_string()),
            action: e.action.as_str().to_owned(),
            subject_type: e.action.subject().as_str().to_owned(),
            subject_id: e.subject_id.clone(),
            details: e.details.iter().map(|(k, v)| format!("{k}: {v}")).collect::<Vec<_>>().join("; "),
        })
        .collect();
    let markup = views::audit::page(&chrome(&session, Section::Audit), &rows, log.next_cursor.as_deref());
    Ok(page(&session, markup))
}

fn token_rows(tokens: &[OperatorTokenInfo], session: &SignedIn) -> Vec<views::tokens::TokenRow> {
    tokens
        .iter()
        .map(|t| views::tokens::TokenRow {
            id: t.id.to_string(),
            name: t.name.to_string(),
            role: t.role.as_str().to_owned(),
            created_at: t.created_at,
            last_used_at: t.last_used_at,
            is_current: t.id == session.operator.token_id,
        })
        .collect()
}

/// `GET /console/tokens`.
pub(super) async fn tokens(state: Data<ConsoleState>, session: SignedIn) -> PageResult {
    let tokens = state.service.list_operator_tokens(session.tenant_id()).await?;
    let markup = views::tokens::page(&chrome(&session, Section::Tokens), &token_rows(&tokens, &session), None);
    Ok(page(&session, markup))
}

/// `POST /console/tokens` (`name`, `role`): the new token's secret, shown this once.
pub(super) async fn create_token(state: Data<ConsoleState>, request: HttpRequest, body: Bytes) -> PageResult {
    let (session, admin, form) = admin_change(&request, &body).await?;
    let Some(role) = OperatorRole::parse(form.text("role")) else {
        return Ok(redirect_with("/console/tokens", false, "Role: choose ADMIN or VIEWER."));
    };
    let (info, token) = match state.service.create_operator_token(&admin, form.text("name"), role).await {
        Ok(created) => created,
        Err(CreateOperatorTokenError::InvalidName(e)) => {
            return Ok(redirect_with("/console/tokens", false, &format!("Name: {e}")));
        }
        Err(CreateOperatorTokenError::UnknownTenant) => return Err(ConsoleError::SignedOut),
        Err(CreateOperatorTokenError::Storage(e)) => return Err(e.into()),
    };
    let tokens = state.service.list_operator_tokens(session.tenant_id()).await?;
    let markup = views::tokens::page(
        &chrome(&session, Section::Tokens),
        &token_rows(&tokens, &session),
        Some((info.name.as_str(), token.expose())),
    );
    Ok(page(&session, markup))
}

/// `POST /console/tokens/{id}/revoke` (confirmed by its checkbox): the token and every session on
/// it stop working at once (this one too, when it is its own).
pub(super) async fn revoke_token(
    state: Data<ConsoleState>,
    request: HttpRequest,
    path: Path<String>,
    body: Bytes,
) -> PageResult {
    let (session, admin, form) = admin_change(&request, &body).await?;
    if !form.checked("confirm") {
        return Ok(redirect_with("/console/tokens", false, "Tick the confirmation box to revoke the token."));
    }
    let id = OperatorTokenId::parse(&path).map_err(|_| ConsoleError::NotFound("the operator token"))?;
    match state.service.revoke_operator_token(&admin, id).await {
        Ok(()) if id == session.operator.token_id => Ok(HttpResponse::SeeOther()
            .insert_header((header::LOCATION, "/console/login"))
            .cookie(expired_cookie(SESSION_COOKIE))
            .finish()),
        Ok(()) => Ok(redirect_with("/console/tokens", true, "The token was revoked; its sessions have ended.")),
        Err(RevokeOperatorTokenError::NotFound) => Err(ConsoleError::NotFound("the operator token")),
        Err(RevokeOperatorTokenError::Storage(e)) => Err(e.into()),
    }
}
