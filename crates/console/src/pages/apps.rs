//! Apps: list, create (secrets shown once), edit, regenerate the App Key and the webhook signing
//! secret, and the webhook delivery history with redelivery.

use actix_web::HttpRequest;
use actix_web::web::{Bytes, Data, Path};
use clickwrap_domain::apps::models::AppChanges;
use clickwrap_domain::apps::models::{App, AppKeyOverlap, InvalidOrigins, Origin, parse_origins};
use clickwrap_domain::apps::service::{AppCredentialError, CreateAppError, NewApp, UpdateAppError};
use clickwrap_domain::consent::cursor::PageLimit;
use clickwrap_domain::webhooks::history::{ListDeliveriesError, RedeliverError};
use clickwrap_domain::webhooks::url::WebhookUrl;
use clickwrap_domain::{AppId, DeliveryId, Name};

use super::{PageResult, back_on_invalid, chrome, page};
use crate::ConsoleState;
use crate::error::ConsoleError;
use crate::form::{Form, lines};
use crate::session::{SignedIn, admin_change, redirect_with};
use crate::views::{self, Section};

fn app_id(text: &str) -> Result<AppId, ConsoleError> {
    AppId::parse(text).map_err(|_| ConsoleError::NotFound("the app"))
}

async fn find_app(state: &ConsoleState, session: &SignedIn, id: &str) -> Result<App, ConsoleError> {
    state.service.find_app(session.tenant_id(), app_id(id)?).await?.ok_or(ConsoleError::NotFound("the app"))
}

fn name(text: &str) -> Result<Name, ConsoleError> {
    Name::parse(text).map_err(|e| ConsoleError::invalid("Name", e))
}

fn webhook_url(state: &ConsoleState, text: &str) -> Result<WebhookUrl, ConsoleError> {
    WebhookUrl::parse_with_exemptions(text, |ip| state.webhook_allow.contains(ip))
        .map_err(|e| ConsoleError::invalid("Webhook URL", e))
}

fn origins(text: &str) -> Result<Vec<Origin>, ConsoleError> {
    parse_origins(&lines(text)).map_err(|e| match e {
        InvalidOrigins::Invalid { index, source } => {
            ConsoleError::Invalid(format!("Allowed origins, line {}: {source}", index + 1))
        }
        InvalidOrigins::TooMany => ConsoleError::invalid("Allowed origins", e),
    })
}

impl From<CreateAppError> for ConsoleError {
    fn from(error: CreateAppError) -> Self {
        match error {
            CreateAppError::WebhookUrlRejected(e) => ConsoleError::invalid("Webhook URL", e),
            CreateAppError::Storage(e) => e.into(),
        }
    }
}

impl From<UpdateAppError> for ConsoleError {
    fn from(error: UpdateAppError) -> Self {
        match error {
            UpdateAppError::NotFound => ConsoleError::NotFound("the app"),
            UpdateAppError::WebhookUrlRejected(e) => ConsoleError::invalid("Webhook URL", e),
            UpdateAppError::Storage(e) => e.into(),
        }
    }
}

impl From<AppCredentialError> for ConsoleError {
    fn from(error: AppCredentialError) -> Self {
        match error {
            AppCredentialError::NotFound => ConsoleError::NotFound("the app"),
            AppCredentialError::Storage(e) => e.into(),
        }
    }
}

/// `GET /console/apps`.
pub(super) async fn list(state: Data<ConsoleState>, session: SignedIn) -> PageResult {
    let apps = state.service.list_apps(session.tenant_id()).await?;
    Ok(page(&session, views::apps::list(&chrome(&session, Section::Apps), &apps)))
}

/// `POST /console/apps`: the new app's page, with its App Key and webhook signing secret shown
/// this once.
pub(super) async fn create(state: Data<ConsoleState>, request: HttpRequest, body: Bytes) -> PageResult {
    let (session, admin, form) = admin_change(&request, &body).await?;
    let result = async {
        let new = NewApp {
            name: name(form.text("name"))?,
            webhook_url: form.optional("webhook_url").map(|url| webhook_url(&state, url)).transpose()?,
            allowed_origins: origins(form.text("allowed_origins"))?,
        };
        let created = state.service.create_app(&admin, new).await?;
        let markup = views::apps::created(
            &chrome(&session, Section::Apps),
            &created.app,
            created.app_key.expose(),
            created.webhook_signing_secret.expose(),
        );
        Ok(page(&session, markup))
    }
    .await;
    back_on_invalid("/console/apps", result)
}

/// `GET /console/apps/{appId}`: settings, with the SSRF guard's verdict on the webhook URL.
pub(super) async fn detail(state: Data<ConsoleState>, session: SignedIn, path: Path<String>) -> PageResult {
    let app = find_app(&state, &session, &path).await?;
    let verdict = state.service.vet_webhook_target(&app).await.map(|verdict| match verdict {
        Ok(()) => (true, "Accepted: the host resolves to addresses webhooks may reach.".to_owned()),
        Err(rejected) => (false, format!("Rejected: {}", rejected.0)),
    });
    let verdict =
        verdict.as_ref().map(|(accepted, message)| views::apps::WebhookVerdict { accepted: *accepted, message });
    Ok(page(&session, views::apps::detail(&chrome(&session, Section::Apps), &app, verdict)))
}

/// `POST /console/apps/{appId}`: name, webhook URL and switch, allowed origins.
pub(super) async fn update(
    state: Data<ConsoleState>,
    request: HttpRequest,
    path: Path<String>,
    body: Bytes,
) -> PageResult {
    let (_, admin, form) = admin_change(&request, &body).await?;
    let id = app_id(&path)?;
    let here = format!("/console/apps/{id}");
    let result = async {
        let changes = AppChanges {
            name: Some(name(form.text("name"))?),
            webhook_url: Some(form.optional("webhook_url").map(|url| webhook_url(&state, url)).transpose()?),
            webhook_enabled: Some(form.checked("webhook_enabled")),
            allowed_origins: Some(origins(form.text("allowed_origins"))?),
        };
        state.service.update_app(&admin, id, changes).await?;
        Ok(redirect_with(&here, true, "The app was saved."))
    }
    .await;
    back_on_invalid(&here, result)
}

/// Which of an app's secrets a rotation replaces.
#[derive(Debug, Clone, Copy)]
enum AppSecret {
    AppKey,
    WebhookSigningSecret,
}

/// `POST /console/apps/{appId}/app-key`: a new App Key, shown once; the old one fails at once.
pub(super) async fn regenerate_key(
    state: Data<ConsoleState>,
    request: HttpRequest,
    path: Path<String>,
    body: Bytes,
) -> PageResult {
    rotate(&state, &request, &path, &body, AppSecret::AppKey).await
}

/// `POST /console/apps/{appId}/webhook-signing-secret`: a new secret, shown once.
pub(super) async fn rotate_secret(
    state: Data<ConsoleState>,
    request: HttpRequest,
    path: Path<String>,
    body: Bytes,
) -> PageResult {
    rotate(&state, &request, &path, &body, AppSecret::WebhookSigningSecret).await
}

/// Replaces one of the app's secrets once the change is confirmed by its checkbox, and shows the
/// new one this once.
async fn rotate(state: &ConsoleState, request: &HttpRequest, path: &str, body: &[u8], which: AppSecret) -> PageResult {
    let (session, admin, form) = admin_change(request, body).await?;
    let id = app_id(path)?;
    if !form.checked("confirm") {
        return Ok(redirect_with(&format!("/console/apps/{id}"), false, "Tick the confirmation box to go ahead."));
    }
    let (what, secret) = match which {
        AppSecret::AppKey => {
            let regenerated = state.service.regenerate_app_key(&admin, id, AppKeyOverlap::NONE).await?;
            ("App Key", regenerated.app_key.expose().to_owned())
        }
        AppSecret::WebhookSigningSecret => {
            ("webhook signing secret", state.service.rotate_webhook_secret(&admin, id).await?.expose().to_owned())
        }
    };
    let app = find_app(state, &session, path).await?;
    Ok(page(&session, views::apps::regenerated(&chrome(&session, Section::Apps), &app, what, &secret)))
}

/// `GET /console/apps/{appId}/webhooks?cursor=`: deliveries, newest first, with every attempt.
pub(super) async fn deliveries(
    state: Data<ConsoleState>,
    session: SignedIn,
    path: Path<String>,
    request: HttpRequest,
) -> PageResult {
    let app = find_app(&state, &session, &path).await?;
    let query = Form::parse(request.query_string().as_bytes());
    let listed = state
        .service
        .list_webhook_deliveries(session.tenant_id(), app.id, query.optional("cursor"), PageLimit::DEFAULT)
        .await;
    let delivery_page = match listed {
        Ok(delivery_page) => delivery_page,
        Err(ListDeliveriesError::AppNotFound) => return Err(ConsoleError::NotFound("the app")),
        Err(ListDeliveriesError::InvalidCursor) => {
            return Err(ConsoleError::Invalid(
                "The page link is not valid any more; start from the first page.".into(),
            ));
        }
        Err(ListDeliveriesError::Storage(e)) => return Err(e.into()),
    };
    Ok(page(&session, views::apps::deliveries(&chrome(&session, Section::Apps), &app, &delivery_page)))
}

/// `POST /console/webhook-deliveries/{id}/redeliver` (field `app_id`, to come back to).
pub(super) async fn redeliver(
    state: Data<ConsoleState>,
    request: HttpRequest,
    path: Path<String>,
    body: Bytes,
) -> PageResult {
    let (_, admin, form) = admin_change(&request, &body).await?;
    let id = DeliveryId::parse(&path).map_err(|_| ConsoleError::NotFound("the webhook delivery"))?;
    let back = match AppId::parse(form.text("app_id")) {
        Ok(app) => format!("/console/apps/{app}/webhooks"),
        Err(_) => "/console".to_owned(),
    };
    match state.service.redeliver_webhook(&admin, id).await {
        Ok(()) => Ok(redirect_with(&back, true, "The delivery was queued to be sent again now.")),
        Err(RedeliverError::NotFound) => Err(ConsoleError::NotFound("the webhook delivery")),
        Err(RedeliverError::Storage(e)) => Err(e.into()),
    }
}
