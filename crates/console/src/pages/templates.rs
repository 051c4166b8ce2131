//! Templates: list and create; settings, enable/disable, app links and publishing; the draft
//! editor with its live preview; dialog customizations; published versions and their diff.

use std::collections::{BTreeMap, BTreeSet};

use actix_web::http::StatusCode;
use actix_web::web::{Bytes, Data, Path};
use actix_web::{HttpRequest, HttpResponse};
use clickwrap_domain::content::placeholders::{PlaceholderName, PlaceholderValues, render};
use clickwrap_domain::content::sanitize::SanitizedHtml;
use clickwrap_domain::templates::customizations::{AgreementMode, ButtonStyle, Color, Customizations, TextOverrides};
use clickwrap_domain::templates::models::TemplateChanges;
use clickwrap_domain::templates::models::{PublishError, Template};
use clickwrap_domain::templates::service::{
    CreateTemplateError, EnableTemplateError, NewTemplate, PreviewContentError, PublishVersionError,
    SaveDraftLanguageError, SetTemplateAppsError, TemplateError,
};
use clickwrap_domain::templates::versioning::{VersionKind, VersionNumber};
use clickwrap_domain::{AppId, Language, Name, Tag, TemplateId, Timestamp};
use maud::PreEscaped;

use super::{PageResult, back_on_invalid, chrome, html as html_page, page};
use crate::ConsoleState;
use crate::error::ConsoleError;
use crate::form::{Form, comma_list, utc_datetime};
use crate::session::{SignedIn, admin_change, change, redirect_with};
use crate::views::{self, Section};

impl From<TemplateError> for ConsoleError {
    fn from(error: TemplateError) -> Self {
        match error {
            TemplateError::NotFound => ConsoleError::NotFound("the template"),
            TemplateError::Storage(e) => e.into(),
        }
    }
}

fn unknown_app(app: AppId) -> ConsoleError {
    ConsoleError::Invalid(format!("{app} is not an app of this tenant"))
}

impl From<CreateTemplateError> for ConsoleError {
    fn from(error: CreateTemplateError) -> Self {
        match error {
            CreateTemplateError::UnknownApp(app) => unknown_app(app),
            CreateTemplateError::Storage(e) => e.into(),
        }
    }
}

impl From<SetTemplateAppsError> for ConsoleError {
    fn from(error: SetTemplateAppsError) -> Self {
        match error {
            SetTemplateAppsError::NotFound => ConsoleError::NotFound("the template"),
            SetTemplateAppsError::UnknownApp(app) => unknown_app(app),
            SetTemplateAppsError::Storage(e) => e.into(),
        }
    }
}

impl From<SaveDraftLanguageError> for ConsoleError {
    fn from(error: SaveDraftLanguageError) -> Self {
        match error {
            SaveDraftLanguageError::NotFound => ConsoleError::NotFound("the template"),
            SaveDraftLanguageError::Content(e) => ConsoleError::invalid("Content", e),
            SaveDraftLanguageError::Stopping(_) => ConsoleError::Unavailable,
            SaveDraftLanguageError::Storage(e) => e.into(),
        }
    }
}

impl From<PublishVersionError> for ConsoleError {
    fn from(error: PublishVersionError) -> Self {
        match error {
            PublishVersionError::NotFound => ConsoleError::NotFound("the template"),
            PublishVersionError::Invalid(PublishError::EmptyDraft) => {
                ConsoleError::Invalid("The draft has no content to publish yet.".into())
            }
            PublishVersionError::Invalid(e) => ConsoleError::Invalid(format!("Cannot publish: {e}")),
            PublishVersionError::Conflict => {
                ConsoleError::Conflict("Another version was published at the same time; look again and retry.".into())
            }
            PublishVersionError::Storage(e) => e.into(),
        }
    }
}

impl From<EnableTemplateError> for ConsoleError {
    fn from(error: EnableTemplateError) -> Self {
        match error {
            EnableTemplateError::NotFound => ConsoleError::NotFound("the template"),
            EnableTemplateError::NoVersion(_) => {
                ConsoleError::Invalid("A template can be enabled only after a version was published.".into())
            }
            EnableTemplateError::Storage(e) => e.into(),
        }
    }
}

const UNKNOWN_DEFAULT_LANGUAGE: &str = "Default language: choose one of the list.";
const UNKNOWN_LANGUAGE: &str = "Language: choose one of the list.";

fn template_id(text: &str) -> Result<TemplateId, ConsoleError> {
    TemplateId::parse(text).map_err(|_| ConsoleError::NotFound("the template"))
}

fn here(id: TemplateId) -> String {
    format!("/console/templates/{id}")
}

fn now(state: &ConsoleState) -> Timestamp {
    state.service.now()
}

/// `GET /console/templates?tag=`.
pub(super) async fn list(state: Data<ConsoleState>, session: SignedIn, request: HttpRequest) -> PageResult {
    let query = Form::parse(request.query_string().as_bytes());
    let templates = state.service.list_templates(session.tenant_id()).await?;
    let all_tags: BTreeSet<String> =
        templates.iter().flat_map(|t| t.tags.iter().map(|tag| tag.as_str().to_owned())).collect();
    let all_tags: Vec<String> = all_tags.into_iter().collect();
    let filter = query.optional("tag");
    let shown: Vec<Template> = match filter.map(Tag::parse) {
        Some(Ok(tag)) => templates.into_iter().filter(|t| t.tags.contains(&tag)).collect(),
        Some(Err(_)) => Vec::new(),
        None => templates,
    };
    let markup = views::templates::list(&chrome(&session, Section::Templates), &shown, now(&state), filter, &all_tags);
    Ok(page(&session, markup))
}

/// `POST /console/templates`: a new draft, then its editor.
pub(super) async fn create(state: Data<ConsoleState>, request: HttpRequest, body: Bytes) -> PageResult {
    let (_, admin, form) = admin_change(&request, &body).await?;
    let result = async {
        let new = NewTemplate {
            name: Name::parse(form.text("name")).map_err(|e| ConsoleError::invalid("Name", e))?,
            tags: comma_list(form.text("tags"))
                .iter()
                .map(|t| Tag::parse(t).map_err(|e| ConsoleError::invalid("Tags", e)))
                .collect::<Result<_, _>>()?,
            app_ids: BTreeSet::new(),
            default_language: Language::from_code(form.text("default_language"))
                .ok_or_else(|| ConsoleError::Invalid(UNKNOWN_DEFAULT_LANGUAGE.into()))?,
            content: BTreeMap::new(),
            customizations: Customizations::default(),
            always_require_acceptance: false,
        };
        let template = state.service.create_template(&admin, new).await?;
        let editor = format!("/console/templates/{}/draft?language={}", template.id, template.default_language.code());
        Ok(redirect_with(&editor, true, "The template was created. Write its first draft."))
    }
    .await;
    back_on_invalid("/console/templates", result)
}

/// `GET /console/templates/{id}`.
pub(super) async fn detail(state: Data<ConsoleState>, session: SignedIn, path: Path<String>) -> PageResult {
    let template = state.service.get_template(session.tenant_id(), template_id(&path)?).await?;
    let apps = state.service.list_apps(session.tenant_id()).await?;
    let markup = views::templates::detail(&chrome(&session, Section::Templates), &template, now(&state), &apps);
    Ok(page(&session, markup))
}

/// `POST /console/templates/{id}/settings`: name, tags, default language, always-require.
pub(super) async fn settings(
    state: Data<ConsoleState>,
    request: HttpRequest,
    path: Path<String>,
    body: Bytes,
) -> PageResult {
    let (_, admin, form) = admin_change(&request, &body).await?;
    let id = template_id(&path)?;
    let result = async {
        let changes = TemplateChanges {
            name: Some(Name::parse(form.text("name")).map_err(|e| ConsoleError::invalid("Name", e))?),
            tags: Some(
                comma_list(form.text("tags"))
                    .iter()
                    .map(|t| Tag::parse(t).map_err(|e| ConsoleError::invalid("Tags", e)))
                    .collect::<Result<_, _>>()?,
            ),
            default_language: Some(
                Language::from_code(form.text("default_language"))
                    .ok_or_else(|| ConsoleError::Invalid(UNKNOWN_DEFAULT_LANGUAGE.into()))?,
            ),
            always_require_acceptance: Some(form.checked("always_require_acceptance")),
        };
        state.service.update_template(&admin, id, changes).await?;
        Ok(redirect_with(&here(id), true, "The settings were saved."))
    }
    .await;
    back_on_invalid(&here(id), result)
}

/// `POST /console/templates/{id}/enable`.
pub(super) async fn enable(
    state: Data<ConsoleState>,
    request: HttpRequest,
    path: Path<String>,
    body: Bytes,
) -> PageResult {
    let (_, admin, _) = admin_change(&request, &body).await?;
    let id = template_id(&path)?;
    let result = match state.service.enable_template(&admin, id).await {
        Ok(_) => Ok(redirect_with(&here(id), true, "The template is enabled: its effective version is served.")),
        Err(e) => Err(e.into()),
    };
    back_on_invalid(&here(id), result)
}

/// `POST /console/templates/{id}/disable` (confirmed by its checkbox).
pub(super) async fn disable(
    state: Data<ConsoleState>,
    request: HttpRequest,
    path: Path<String>,
    body: Bytes,
) -> PageResult {
    let (_, admin, form) = admin_change(&request, &body).await?;
    let id = template_id(&path)?;
    if !form.checked("confirm") {
        return Ok(redirect_with(&here(id), false, "Tick the confirmation box to disable the template."));
    }
    state.service.disable_template(&admin, id).await?;
    Ok(redirect_with(&here(id), true, "The template is disabled: it is no longer served."))
}

/// `POST /console/templates/{id}/apps`: the linked apps (`app_ids`; none = every app).
pub(super) async fn link_apps(
    state: Data<ConsoleState>,
    request: HttpRequest,
    path: Path<String>,
    body: Bytes,
) -> PageResult {
    let (_, admin, form) = admin_change(&request, &body).await?;
    let id = template_id(&path)?;
    let result = async {
        let app_ids: BTreeSet<AppId> = form
            .all("app_ids")
            .into_iter()
            .map(|a| AppId::parse(a).map_err(|e| ConsoleError::invalid("Apps", e)))
            .collect::<Result<_, _>>()?;
        state.service.set_template_apps(&admin, id, app_ids).await?;
        Ok(redirect_with(&here(id), true, "The linked apps were saved."))
    }
    .await;
    back_on_invalid(&here(id), result)
}

/// `POST /console/templates/{id}/versions`: publishes the draft (`kind`, optional `effective_at`).
pub(super) async fn publish(
    state: Data<ConsoleState>,
    request: HttpRequest,
    path: Path<String>,
    body: Bytes,
) -> PageResult {
    let (_, admin, form) = admin_change(&request, &body).await?;
    let id = template_id(&path)?;
    let result = async {
        let kind = VersionKind::parse(form.text("kind"))
            .ok_or_else(|| ConsoleError::Invalid("Kind: choose MAJOR or MINOR.".into()))?;
        let effective_at = form.optional("effective_at").map(|t| utc_datetime(t, "Effective from")).transpose()?;
        let (_, version) = state.service.publish_version(&admin, id, kind, effective_at).await?;
        let message = if version.effective_at > now(&state) {
            format!("Version {} is published and scheduled.", version.number)
        } else {
            format!("Version {} is published and in force.", version.number)
        };
        Ok(redirect_with(&here(id), true, &message))
    }
    .await;
    back_on_invalid(&here(id), result)
}

/// `GET /console/templates/{id}/versions/{major.minor}`: the content as published.
pub(super) async fn version(state: Data<ConsoleState>, session: SignedIn, path: Path<(String, String)>) -> PageResult {
    let (id, number) = path.into_inner();
    let template = state.service.get_template(session.tenant_id(), template_id(&id)?).await?;
    let number = VersionNumber::parse(&number).map_err(|_| ConsoleError::NotFound("the version"))?;
    let version = template.version(number).ok_or(ConsoleError::NotFound("the version"))?;
    let markup = views::templates::version(&chrome(&session, Section::Templates), &template, version, now(&state));
    Ok(page(&session, markup))
}

/// `GET /console/templates/{id}/diff?a=1.0&b=2.0&language=en`.
pub(super) async fn diff(
    state: Data<ConsoleState>,
    session: SignedIn,
    path: Path<String>,
    request: HttpRequest,
) -> PageResult {
    let template = state.service.get_template(session.tenant_id(), template_id(&path)?).await?;
    let query = Form::parse(request.query_string().as_bytes());
    let pick = |name: &str| {
        VersionNumber::parse(query.text(name)).ok().and_then(|n| template.version(n)).ok_or_else(|| {
            ConsoleError::Invalid(format!("Compare: choose two published versions ({name} is missing)."))
        })
    };
    let result = (|| {
        let (a, b) = (pick("a")?, pick("b")?);
        let language = Language::from_code(query.text("language")).unwrap_or(template.default_language);
        let text = |v: &clickwrap_domain::templates::models::TemplateVersion| {
            v.content.get(&language).map(SanitizedHtml::as_str).unwrap_or_default().to_owned()
        };
        let lines = crate::diff::diff_lines(&text(a), &text(b));
        Ok(views::templates::diff(&chrome(&session, Section::Templates), &template, a, b, language, &lines))
    })();
    match result {
        Ok(markup) => Ok(page(&session, markup)),
        Err(ConsoleError::Invalid(message)) => Ok(redirect_with(&here(template.id), false, &message)),
        Err(e) => Err(e),
    }
}

/// `GET /console/templates/{id}/draft?language=xx`: the editor, with the preview as rendered.
pub(super) async fn draft(
    state: Data<ConsoleState>,
    session: SignedIn,
    path: Path<String>,
    request: HttpRequest,
) -> PageResult {
    let template = state.service.get_template(session.tenant_id(), template_id(&path)?).await?;
    let query = Form::parse(request.query_string().as_bytes());
    let language = Language::from_code(query.text("language")).unwrap_or(template.default_language);
    let preview = template.draft.get(&language).map(|html| render(html, &PlaceholderValues::default()));
    let markup = views::templates::draft(
        &chrome(&session, Section::Templates),
        &template,
        language,
        preview.as_deref().unwrap_or_default(),
    );
    Ok(page(&session, markup))
}

/// `POST /console/templates/{id}/draft`: one language's content (blank removes the language).
pub(super) async fn save_draft(
    state: Data<ConsoleState>,
    request: HttpRequest,
    path: Path<String>,
    body: Bytes,
) -> PageResult {
    let (_, admin, form) = admin_change(&request, &body).await?;
    let id = template_id(&path)?;
    let Some(language) = Language::from_code(form.text("language")) else {
        return Ok(redirect_with(&format!("{}/draft", here(id)), false, UNKNOWN_LANGUAGE));
    };
    let editor = format!("/console/templates/{id}/draft?language={}", language.code());
    let content = form.optional("content").map(str::to_owned);
    let result = match state.service.save_draft_language(&admin, id, language, content).await {
        Ok(_) => {
            Ok(redirect_with(&editor, true, "The draft was saved (sanitized: scripts and event handlers are removed)."))
        }
        Err(e) => Err(e.into()),
    };
    back_on_invalid(&editor, result)
}

/// `POST /console/preview` (`content`, `language`, `sample.<placeholder>`): the content as the
/// SDK would show it, sanitized and filled, as a document for the preview frame.
pub(super) async fn preview(state: Data<ConsoleState>, request: HttpRequest, body: Bytes) -> PageResult {
    let (_, form) = change(&request, &body).await?;
    let language =
        Language::from_code(form.text("language")).ok_or_else(|| ConsoleError::Invalid(UNKNOWN_LANGUAGE.into()))?;
    let mut values = PlaceholderValues::default();
    for (name, value) in form.with_prefix("sample.") {
        if let Ok(name) = PlaceholderName::parse(name)
            && !value.is_empty()
        {
            // A value the domain refuses is left out of the preview, as the SDK would leave it out.
            let _ = values.insert(name, value);
        }
    }
    let shown =
        state.service.preview_content(form.get("content").unwrap_or_default().to_owned(), &values).await.map_err(
            |e| match e {
                PreviewContentError::Content(e) => ConsoleError::invalid("Content", e),
                PreviewContentError::Stopping(_) => ConsoleError::Unavailable,
            },
        )?;
    Ok(html_page(StatusCode::OK, PreEscaped(views::components::agreement_document(&shown, language))))
}

/// `GET /console/templates/{id}/customizations`.
pub(super) async fn customizations(state: Data<ConsoleState>, session: SignedIn, path: Path<String>) -> PageResult {
    let template = state.service.get_template(session.tenant_id(), template_id(&path)?).await?;
    Ok(page(&session, views::templates::customizations(&chrome(&session, Section::Templates), &template)))
}

/// The customizations a form describes; what is left blank takes its default.
fn parse_customizations(form: &Form) -> Result<Customizations, ConsoleError> {
    let color = |field: &str, label: &str| {
        form.optional(field).map(|c| Color::parse(c).map_err(|e| ConsoleError::invalid(label, e))).transpose()
    };
    let style = |field: &str, label: &str| match form.optional(field) {
        Some(s) => ButtonStyle::parse(s).map_err(|e| ConsoleError::invalid(label, e)),
        None => Ok(ButtonStyle::default()),
    };
    let mut result = Customizations {
        agreement_mode: match form.optional("agreement_mode") {
            Some(mode) => AgreementMode::parse(mode)
                .ok_or_else(|| ConsoleError::Invalid("Agreement: choose SCROLL or CHECKBOX.".into()))?,
            None => AgreementMode::default(),
        },
        ..Customizations::default()
    };
    result.theme.primary_color = color("primary_color", "Primary colour")?;
    result.theme.background_color = color("background_color", "Background colour")?;
    result.theme.text_color = color("text_color", "Text colour")?;
    result.theme.border_radius =
        form.optional("border_radius")
            .map(|r| {
                r.parse::<u64>().ok().and_then(|r| Customizations::parse_border_radius(r).ok()).ok_or_else(|| {
                    ConsoleError::Invalid("Corner radius: a whole number of pixels from 0 to 48.".into())
                })
            })
            .transpose()?;
    result.buttons.accept_style = style("accept_style", "Accept button")?;
    result.buttons.decline_style = style("decline_style", "Decline button")?;
    result.buttons.show_decline = form.checked("show_decline");
    result.logo_url = form
        .optional("logo_url")
        .map(|u| Customizations::parse_logo_url(u).map_err(|e| ConsoleError::invalid("Logo URL", e)))
        .transpose()?;
    for language in Language::ALL {
        let text = |key: &str| {
            let field = format!("texts.{}.{key}", language.code());
            form.optional(&field)
                .map(|t| {
                    Customizations::parse_text(t)
                        .map_err(|e| ConsoleError::Invalid(format!("{} ({}): {e}", key, language.code())))
                })
                .transpose()
        };
        let overrides = TextOverrides {
            title: text("title")?,
            accept_button: text("accept_button")?,
            decline_button: text("decline_button")?,
            checkbox_label: text("checkbox_label")?,
            version_label: text("version_label")?,
        };
        if overrides != TextOverrides::default() {
            result.texts.insert(language, overrides);
        }
    }
    Ok(result)
}

/// `POST /console/templates/{id}/customizations`.
pub(super) async fn save_customizations(
    state: Data<ConsoleState>,
    request: HttpRequest,
    path: Path<String>,
    body: Bytes,
) -> PageResult {
    let (_, admin, form) = admin_change(&request, &body).await?;
    let id = template_id(&path)?;
    let back = format!("/console/templates/{id}/customizations");
    let result = async {
        state.service.set_customizations(&admin, id, parse_customizations(&form)?).await?;
        Ok(redirect_with(&back, true, "The dialog customizations were saved."))
    }
    .await;
    back_on_invalid(&back, result)
}

/// `GET /console/templates/{id}/preview-view?language=xx`: what the SDK's dialog needs to show
/// the draft (the shape of `GET /clickwrap`), for the dialog preview on the customizations page.
pub(super) async fn preview_view(
    state: Data<ConsoleState>,
    session: SignedIn,
    path: Path<String>,
    request: HttpRequest,
) -> PageResult {
    let query = Form::parse(request.query_string().as_bytes());
    let language = Language::from_code(query.text("language"));
    let view = state.service.dialog_preview(session.tenant_id(), template_id(&path)?, language).await?;
    // The page's script lays the customization form's values over this (saved or not), so only
    // the wording in this language comes from here.
    Ok(HttpResponse::Ok().content_type("application/json").body((state.dialog_preview_json)(&view)))
}
