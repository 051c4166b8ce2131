//! The operator API on the wire: request bodies parsed into domain values (every bad value named by
//! its field), and apps, templates, versions and usage written out field by field. Secrets appear
//! only in the answers that create or regenerate them.

use std::collections::{BTreeMap, BTreeSet};

use clickwrap_domain::apps::models::AppChanges;
use clickwrap_domain::apps::models::{App, AppKeyOverlap, InvalidAppKeyOverlap, InvalidOrigins, Origin, parse_origins};
use clickwrap_domain::apps::service::{CreatedApp, NewApp, RegeneratedAppKey};
use clickwrap_domain::audit::models::AuditEntry;
use clickwrap_domain::audit::service::AuditPage;
use clickwrap_domain::content::sanitize::{ContentRejected, sanitize};
use clickwrap_domain::secrets::OperatorToken;
use clickwrap_domain::templates::customizations::{
    AgreementMode, ButtonStyle, Color, Customizations, InvalidCustomization, TextOverrides,
};
use clickwrap_domain::templates::models::TemplateChanges;
use clickwrap_domain::templates::models::{LocalizedContent, Template, TemplateVersion};
use clickwrap_domain::templates::service::NewTemplate;
use clickwrap_domain::templates::versioning::{VersionKind, VersionState};
use clickwrap_domain::tenants::models::{OperatorRole, OperatorTokenInfo};
use clickwrap_domain::tenants::service::Usage;
use clickwrap_domain::webhooks::cidr::AllowCidrs;
use clickwrap_domain::webhooks::url::WebhookUrl;
use clickwrap_domain::{AppId, Language, Name, Tag, Timestamp};
use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value, json};

use super::timestamp;
use crate::problem::{ApiError, ApiResult, FieldError};

// ---------------------------------------------------------------------------------------------
// Parsing helpers
// ---------------------------------------------------------------------------------------------

/// For `PATCH` bodies: a member that is present (even as `null`) is `Some`, an absent one `None`.
fn present<'de, D, T>(deserializer: D) -> Result<Option<Option<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(deserializer).map(Some)
}

/// A `PATCH` member that may be left out but not set to `null`.
fn not_null<T>(field: &str, value: Option<Option<T>>) -> ApiResult<Option<T>> {
    match value {
        Some(None) => Err(ApiError::invalid_field(field, "may not be null")),
        Some(Some(value)) => Ok(Some(value)),
        None => Ok(None),
    }
}

fn field<T, E: std::fmt::Display>(name: &str, result: Result<T, E>) -> ApiResult<T> {
    result.map_err(|e| ApiError::invalid_field(name, e))
}

fn name(text: &str) -> ApiResult<Name> {
    field("name", Name::parse(text))
}

const UNSUPPORTED_LANGUAGE: &str = "is not a supported language code; supported: en, de, fr, es, zh, hi, ru";

fn default_language(code: &str) -> ApiResult<Language> {
    Language::from_code(code).ok_or_else(|| ApiError::invalid_field("defaultLanguage", UNSUPPORTED_LANGUAGE))
}

/// A webhook URL: syntax errors and addresses that are forbidden as written answer like the
/// guard's refusal after resolving the host, 400 `WEBHOOK_URL_REJECTED`.
fn webhook_url(text: &str, allow: &AllowCidrs) -> ApiResult<WebhookUrl> {
    WebhookUrl::parse_with_exemptions(text, |ip| allow.contains(ip)).map_err(|e| {
        let mut error = ApiError::bad_request("WEBHOOK_URL_REJECTED", format!("webhookUrl: {e}"));
        error.errors.push(FieldError { field: "webhookUrl".into(), message: e.to_string() });
        error
    })
}

fn origins(texts: &[String]) -> ApiResult<Vec<Origin>> {
    parse_origins(texts).map_err(|e| match e {
        InvalidOrigins::Invalid { index, source } => {
            ApiError::invalid_field(&format!("allowedOrigins[{index}]"), source)
        }
        InvalidOrigins::TooMany => ApiError::invalid_field("allowedOrigins", e),
    })
}

fn tags(texts: &[String]) -> ApiResult<BTreeSet<Tag>> {
    texts.iter().enumerate().map(|(i, text)| field(&format!("tags[{i}]"), Tag::parse(text))).collect()
}

fn app_ids(texts: &[String]) -> ApiResult<BTreeSet<AppId>> {
    texts.iter().enumerate().map(|(i, text)| field(&format!("appIds[{i}]"), AppId::parse(text))).collect()
}

/// Content per language, sanitized on the way in. Too large a language answers 413; one that nests
/// too deep or makes too many elements 400.
fn content(raw: &BTreeMap<String, String>) -> ApiResult<LocalizedContent> {
    raw.iter()
        .map(|(code, html)| {
            let name = format!("content.{code}");
            let language =
                Language::from_code(code).ok_or_else(|| ApiError::invalid_field(&name, UNSUPPORTED_LANGUAGE))?;
            let html = sanitize(html).map_err(|e| {
                let (status, code) = match e {
                    ContentRejected::TooLarge { .. } => {
                        (actix_web::http::StatusCode::PAYLOAD_TOO_LARGE, "CONTENT_TOO_LARGE")
                    }
                    ContentRejected::TooDeep => (actix_web::http::StatusCode::BAD_REQUEST, "CONTENT_TOO_DEEP"),
                    ContentRejected::TooManyElements => {
                        (actix_web::http::StatusCode::BAD_REQUEST, "CONTENT_TOO_MANY_ELEMENTS")
                    }
                };
                let mut error = ApiError::new(status, code, format!("{name}: {e}"));
                error.errors.push(FieldError { field: name.clone(), message: e.to_string() });
                error
            })?;
            Ok((language, html))
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Customizations, parsed by hand so that every bad value (a wrong type included) names its field
// ---------------------------------------------------------------------------------------------

/// `prefix.key`, or `key` at the top of the body.
fn path(prefix: &str, key: &str) -> String {
    if prefix.is_empty() { key.to_owned() } else { format!("{prefix}.{key}") }
}

/// The object's members, refusing any not in `known`.
fn members<'a>(value: &'a Value, at: &str, known: &[&str]) -> ApiResult<&'a Map<String, Value>> {
    let object = value.as_object().ok_or_else(|| ApiError::invalid_field(at, "must be an object"))?;
    if let Some(unknown) = object.keys().find(|key| !known.contains(&key.as_str())) {
        return Err(ApiError::invalid_field(&path(at, unknown), "is not a known field"));
    }
    Ok(object)
}

/// A member's value; `null` counts as left out.
fn member<'a>(object: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    object.get(key).filter(|value| !value.is_null())
}

fn text_member<'a>(object: &'a Map<String, Value>, prefix: &str, key: &str) -> ApiResult<Option<&'a str>> {
    member(object, key)
        .map(|value| value.as_str().ok_or_else(|| ApiError::invalid_field(&path(prefix, key), "must be a string")))
        .transpose()
}

fn customization<T>(prefix: &str, key: &str, result: Result<T, InvalidCustomization>) -> ApiResult<T> {
    result.map_err(|e| ApiError::invalid_field(&path(prefix, key), e))
}

fn color(object: &Map<String, Value>, prefix: &str, key: &str) -> ApiResult<Option<Color>> {
    text_member(object, prefix, key)?.map(|text| customization(prefix, key, Color::parse(text))).transpose()
}

fn button_style(object: &Map<String, Value>, prefix: &str, key: &str) -> ApiResult<Option<ButtonStyle>> {
    text_member(object, prefix, key)?.map(|text| customization(prefix, key, ButtonStyle::parse(text))).transpose()
}

fn dialog_text(object: &Map<String, Value>, prefix: &str, key: &str) -> ApiResult<Option<String>> {
    text_member(object, prefix, key)?
        .map(|text| customization(prefix, key, Customizations::parse_text(text)))
        .transpose()
}

/// The customizations object (at `prefix` in the body: `customizations`, or `""` when it is the
/// whole body). Anything left out or `null` takes its default.
pub(crate) fn customizations(value: &Value, prefix: &str) -> ApiResult<Customizations> {
    let at = if prefix.is_empty() { "customizations" } else { prefix };
    let object = value.as_object().ok_or_else(|| ApiError::invalid_field(at, "must be an object"))?;
    let known = ["agreementMode", "theme", "buttons", "logoUrl", "texts"];
    if let Some(unknown) = object.keys().find(|key| !known.contains(&key.as_str())) {
        return Err(ApiError::invalid_field(&path(prefix, unknown), "is not a known field"));
    }
    let mut result = Customizations::default();
    if let Some(mode) = text_member(object, prefix, "agreementMode")? {
        result.agreement_mode = AgreementMode::parse(mode)
            .ok_or_else(|| ApiError::invalid_field(&path(prefix, "agreementMode"), "must be SCROLL or CHECKBOX"))?;
    }
    if let Some(theme) = member(object, "theme") {
        let at = path(prefix, "theme");
        let theme = members(theme, &at, &["primaryColor", "backgroundColor", "textColor", "borderRadius"])?;
        result.theme.primary_color = color(theme, &at, "primaryColor")?;
        result.theme.background_color = color(theme, &at, "backgroundColor")?;
        result.theme.text_color = color(theme, &at, "textColor")?;
        result.theme.border_radius = member(theme, "borderRadius")
            .map(|value| {
                let radius = super::whole_number(value).ok_or(InvalidCustomization::BorderRadius);
                customization(&at, "borderRadius", radius.and_then(Customizations::parse_border_radius))
            })
            .transpose()?;
    }
    if let Some(buttons) = member(object, "buttons") {
        let at = path(prefix, "buttons");
        let buttons = members(buttons, &at, &["acceptStyle", "declineStyle", "showDecline"])?;
        if let Some(style) = button_style(buttons, &at, "acceptStyle")? {
            result.buttons.accept_style = style;
        }
        if let Some(style) = button_style(buttons, &at, "declineStyle")? {
            result.buttons.decline_style = style;
        }
        if let Some(show) = member(buttons, "showDecline") {
            result.buttons.show_decline = show
                .as_bool()
                .ok_or_else(|| ApiError::invalid_field(&path(&at, "showDecline"), "must be true or false"))?;
        }
    }
    if let Some(url) = text_member(object, prefix, "logoUrl")? {
        result.logo_url = Some(customization(prefix, "logoUrl", Customizations::parse_logo_url(url))?);
    }
    if let Some(texts) = member(object, "texts") {
        let at = path(prefix, "texts");
        let texts = texts.as_object().ok_or_else(|| ApiError::invalid_field(&at, "must be an object"))?;
        for (code, overrides) in texts {
            let at = path(&at, code);
            let language =
                Language::from_code(code).ok_or_else(|| ApiError::invalid_field(&at, UNSUPPORTED_LANGUAGE))?;
            if overrides.is_null() {
                continue;
            }
            let known = ["title", "acceptButton", "declineButton", "checkboxLabel", "versionLabel"];
            let overrides = members(overrides, &at, &known)?;
            let parsed = TextOverrides {
                title: dialog_text(overrides, &at, "title")?,
                accept_button: dialog_text(overrides, &at, "acceptButton")?,
                decline_button: dialog_text(overrides, &at, "declineButton")?,
                checkbox_label: dialog_text(overrides, &at, "checkboxLabel")?,
                version_label: dialog_text(overrides, &at, "versionLabel")?,
            };
            if parsed != TextOverrides::default() {
                result.texts.insert(language, parsed);
            }
        }
    }
    Ok(result)
}

// ---------------------------------------------------------------------------------------------
// Request bodies
// ---------------------------------------------------------------------------------------------

/// `POST /apps`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct CreateAppBody {
    name: String,
    #[serde(default)]
    webhook_url: Option<String>,
    #[serde(default)]
    allowed_origins: Option<Vec<String>>,
}

impl CreateAppBody {
    pub(crate) fn try_into_domain(self, allow: &AllowCidrs) -> ApiResult<NewApp> {
        Ok(NewApp {
            name: name(&self.name)?,
            webhook_url: self.webhook_url.as_deref().map(|url| webhook_url(url, allow)).transpose()?,
            allowed_origins: origins(&self.allowed_origins.unwrap_or_default())?,
        })
    }
}

/// `PATCH /apps/{appId}`: members left out stay as they are; `"webhookUrl": null` removes the URL.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct UpdateAppBody {
    #[serde(default, deserialize_with = "present")]
    name: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    webhook_url: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    webhook_enabled: Option<Option<bool>>,
    #[serde(default, deserialize_with = "present")]
    allowed_origins: Option<Option<Vec<String>>>,
}

impl UpdateAppBody {
    pub(crate) fn try_into_domain(self, allow: &AllowCidrs) -> ApiResult<AppChanges> {
        Ok(AppChanges {
            name: not_null("name", self.name)?.as_deref().map(name).transpose()?,
            webhook_url: self
                .webhook_url
                .map(|url| url.as_deref().map(|url| webhook_url(url, allow)).transpose())
                .transpose()?,
            webhook_enabled: not_null("webhookEnabled", self.webhook_enabled)?,
            allowed_origins: not_null("allowedOrigins", self.allowed_origins)?.map(|o| origins(&o)).transpose()?,
        })
    }
}

/// `POST /apps/{appId}/app-key`; the body may be left out.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct RegenerateAppKeyBody {
    /// Kept as any JSON value so that a string or fraction is named as this field's error.
    #[serde(default)]
    expire_old_after_secs: Option<Value>,
}

impl RegenerateAppKeyBody {
    pub(crate) fn try_into_domain(self) -> ApiResult<AppKeyOverlap> {
        let secs = match self.expire_old_after_secs {
            None | Some(Value::Null) => return Ok(AppKeyOverlap::NONE),
            // A whole number as JSON Schema counts it (`600` and `600.0` alike); fractions are refused.
            Some(value) => super::whole_number(&value).and_then(|n| i64::try_from(n).ok()).ok_or(InvalidAppKeyOverlap),
        };
        secs.and_then(AppKeyOverlap::from_secs).map_err(|e| ApiError::invalid_field("expireOldAfterSecs", e))
    }
}

/// `POST /apps/{appId}/app-key`: the new App Key, shown this once, and when the old one stops.
pub(crate) fn regenerated_app_key(regenerated: &RegeneratedAppKey) -> Value {
    json!({
        "appKey": regenerated.app_key.expose(),
        "oldKeyExpiresAt": timestamp(regenerated.old_key_expires_at),
    })
}

/// `POST /templates`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct CreateTemplateBody {
    name: String,
    #[serde(default)]
    tags: Option<Vec<String>>,
    #[serde(default)]
    app_ids: Option<Vec<String>>,
    #[serde(default)]
    default_language: Option<String>,
    content: BTreeMap<String, String>,
    #[serde(default)]
    customizations: Option<Value>,
    #[serde(default)]
    always_require_acceptance: Option<bool>,
}

impl CreateTemplateBody {
    pub(crate) fn try_into_domain(self) -> ApiResult<NewTemplate> {
        Ok(NewTemplate {
            name: name(&self.name)?,
            tags: tags(&self.tags.unwrap_or_default())?,
            app_ids: app_ids(&self.app_ids.unwrap_or_default())?,
            default_language: self
                .default_language
                .as_deref()
                .map(default_language)
                .transpose()?
                .unwrap_or(Language::English),
            content: content(&self.content)?,
            customizations: self
                .customizations
                .as_ref()
                .map(|c| customizations(c, "customizations"))
                .transpose()?
                .unwrap_or_default(),
            always_require_acceptance: self.always_require_acceptance.unwrap_or(false),
        })
    }
}

/// `PATCH /templates/{id}`: the settings; members left out stay as they are.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct UpdateTemplateBody {
    #[serde(default, deserialize_with = "present")]
    name: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    tags: Option<Option<Vec<String>>>,
    #[serde(default, deserialize_with = "present")]
    default_language: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    always_require_acceptance: Option<Option<bool>>,
}

impl UpdateTemplateBody {
    pub(crate) fn try_into_domain(self) -> ApiResult<TemplateChanges> {
        Ok(TemplateChanges {
            name: not_null("name", self.name)?.as_deref().map(name).transpose()?,
            tags: not_null("tags", self.tags)?.map(|t| tags(&t)).transpose()?,
            default_language: not_null("defaultLanguage", self.default_language)?
                .as_deref()
                .map(default_language)
                .transpose()?,
            always_require_acceptance: not_null("alwaysRequireAcceptance", self.always_require_acceptance)?,
        })
    }
}

/// `PUT /templates/{id}/draft`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct DraftBody {
    content: BTreeMap<String, String>,
}

impl DraftBody {
    pub(crate) fn try_into_domain(self) -> ApiResult<LocalizedContent> {
        content(&self.content)
    }
}

/// `PUT /templates/{id}/apps`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct TemplateAppsBody {
    app_ids: Vec<String>,
}

impl TemplateAppsBody {
    pub(crate) fn try_into_domain(self) -> ApiResult<BTreeSet<AppId>> {
        app_ids(&self.app_ids)
    }
}

/// `POST /templates/{id}/versions`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct PublishBody {
    kind: String,
    #[serde(default)]
    effective_at: Option<String>,
}

impl PublishBody {
    pub(crate) fn try_into_domain(self) -> ApiResult<(VersionKind, Option<Timestamp>)> {
        let kind = VersionKind::parse(&self.kind.to_ascii_uppercase())
            .ok_or_else(|| ApiError::invalid_field("kind", "must be MAJOR or MINOR"))?;
        let effective_at = self.effective_at.as_deref().map(Timestamp::parse_rfc3339).transpose();
        Ok((kind, field("effectiveAt", effective_at)?))
    }
}

// ---------------------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------------------

fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

/// An app as every answer but its creation shows it: no secrets.
pub(crate) fn app(a: &App) -> Value {
    json!({
        "appId": a.id.to_string(),
        "name": a.name.as_str(),
        "webhookUrl": a.webhook_url.as_ref().map(WebhookUrl::as_str),
        "webhookEnabled": a.webhook_enabled,
        "allowedOrigins": a.allowed_origins.iter().map(Origin::as_str).collect::<Vec<_>>(),
        "createdAt": timestamp(a.created_at),
        "updatedAt": timestamp(a.updated_at),
    })
}

/// `POST /apps`: the app with its App Key and webhook signing secret, shown this once.
pub(crate) fn created_app(created: &CreatedApp) -> Value {
    let mut fields = object(app(&created.app));
    fields.insert("appKey".into(), Value::from(created.app_key.expose()));
    fields.insert("webhookSigningSecret".into(), Value::from(created.webhook_signing_secret.expose()));
    Value::Object(fields)
}

pub(crate) fn apps(apps: &[App]) -> Value {
    json!({ "items": apps.iter().map(app).collect::<Vec<_>>() })
}

/// The customizations as stored: texts per language, `null` where the built-in wording is used.
pub(crate) fn stored_customizations(c: &Customizations) -> Value {
    let texts: Map<String, Value> = c
        .texts
        .iter()
        .map(|(language, t)| {
            let texts = json!({
                "title": t.title,
                "acceptButton": t.accept_button,
                "declineButton": t.decline_button,
                "checkboxLabel": t.checkbox_label,
                "versionLabel": t.version_label,
            });
            (language.code().to_owned(), texts)
        })
        .collect();
    json!({
        "agreementMode": c.agreement_mode.as_str(),
        "theme": {
            "primaryColor": c.theme.primary_color.as_ref().map(Color::as_str),
            "backgroundColor": c.theme.background_color.as_ref().map(Color::as_str),
            "textColor": c.theme.text_color.as_ref().map(Color::as_str),
            "borderRadius": c.theme.border_radius,
        },
        "buttons": {
            "acceptStyle": c.buttons.accept_style.as_str(),
            "declineStyle": c.buttons.decline_style.as_str(),
            "showDecline": c.buttons.show_decline,
        },
        "logoUrl": c.logo_url,
        "texts": texts,
    })
}

fn localized(content: &LocalizedContent) -> Value {
    Value::Object(
        content.iter().map(|(language, html)| (language.code().to_owned(), Value::from(html.as_str()))).collect(),
    )
}

/// A published version (its content stays out: it is locked and served by the public routes).
pub(crate) fn version(v: &TemplateVersion, state: VersionState) -> Map<String, Value> {
    object(json!({
        "clickwrapTemplateVersion": v.number.major,
        "clickwrapTemplateVersionMinor": v.number.minor,
        "effectiveAt": timestamp(v.effective_at),
        "publishedAt": timestamp(v.published_at),
        "state": state.as_str(),
        "languages": v.languages().iter().map(|l| l.code()).collect::<Vec<_>>(),
    }))
}

/// A template with its versions' states at `now`; `with_draft` adds the draft's content.
pub(crate) fn template(t: &Template, now: Timestamp, with_draft: bool) -> Value {
    let versions: Vec<Value> =
        t.version_states(now).into_iter().map(|(v, state)| Value::Object(version(v, state))).collect();
    let mut fields = object(json!({
        "clickwrapTemplateId": t.id.to_string(),
        "name": t.name.as_str(),
        "tags": t.tags.iter().map(Tag::as_str).collect::<Vec<_>>(),
        "appIds": t.app_ids.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "defaultLanguage": t.default_language.code(),
        "alwaysRequireAcceptance": t.always_require_acceptance,
        "enabled": t.enabled,
        "customizations": stored_customizations(&t.customizations),
        "versions": versions,
        "createdAt": timestamp(t.created_at),
        "updatedAt": timestamp(t.updated_at),
    }));
    if with_draft {
        fields.insert("draft".into(), json!({ "content": localized(&t.draft) }));
    }
    Value::Object(fields)
}

/// `GET /templates/{id}/versions/{n.m}`: a version with its content in every language.
pub(crate) fn version_with_content(t: &Template, v: &TemplateVersion, now: Timestamp) -> Value {
    let state = t
        .version_states(now)
        .into_iter()
        .find(|(candidate, _)| candidate.number == v.number)
        .map_or(VersionState::Scheduled, |(_, state)| state);
    let mut fields = version(v, state);
    fields.insert("clickwrapTemplateId".into(), Value::from(t.id.to_string()));
    fields.insert("content".into(), localized(&v.content));
    Value::Object(fields)
}

/// `GET /templates`: every template without its draft content, which can be large.
pub(crate) fn templates(templates: &[Template], now: Timestamp) -> Value {
    json!({ "items": templates.iter().map(|t| template(t, now, false)).collect::<Vec<_>>() })
}

/// `POST /templates/{id}/versions`: the new version, and the template it now belongs to.
pub(crate) fn published(t: &Template, v: &TemplateVersion, now: Timestamp) -> Value {
    let state = t
        .version_states(now)
        .into_iter()
        .find(|(candidate, _)| candidate.number == v.number)
        .map_or(VersionState::Scheduled, |(_, state)| state);
    let mut fields = version(v, state);
    fields.insert("clickwrapTemplateId".into(), Value::from(t.id.to_string()));
    fields.insert("template".into(), template(t, now, true));
    Value::Object(fields)
}

pub(crate) fn usage(u: &Usage) -> Value {
    json!({
        "eventQuota": u.event_quota,
        "eventsThisPeriod": u.events_this_period,
        "periodStart": timestamp(u.period.start),
        "periodEnd": timestamp(u.period.end),
    })
}

/// One webhook delivery with its attempts, newest attempt first.
pub(crate) fn delivery(record: &clickwrap_domain::webhooks::models::DeliveryRecord) -> Value {
    let d = &record.delivery;
    let mut attempts: Vec<&clickwrap_domain::webhooks::models::DeliveryAttempt> = record.attempts.iter().collect();
    attempts.sort_by_key(|a| std::cmp::Reverse((a.started_at, a.number)));
    json!({
        "deliveryId": d.id.to_string(),
        "appId": d.app_id.to_string(),
        "clickwrapEventId": d.event_id.to_string(),
        // Every delivery today is of a verified event.
        "eventType": clickwrap_domain::webhooks::events::EventType::ClickwrapEventVerified.as_str(),
        "state": d.state.as_str(),
        "attempts": d.attempts,
        "nextAttemptAt": super::optional_timestamp(d.next_attempt_at),
        "lastAttemptAt": super::optional_timestamp(d.last_attempt_at),
        "lastResponseStatus": d.last_response_status,
        "createdAt": super::timestamp(d.created_at),
        "requestBody": d.payload,
        "attemptHistory": attempts.iter().map(|a| json!({
            "attempt": a.number,
            "startedAt": super::timestamp(a.started_at),
            "durationMs": a.duration_ms,
            "requestBody": a.request_body,
            "responseStatus": a.response_status,
            "responseBody": a.response_excerpt,
            "error": a.error.map(|e| e.as_str()),
        })).collect::<Vec<_>>(),
    })
}

pub(crate) fn delivery_page(page: &clickwrap_domain::webhooks::history::DeliveryPage) -> Value {
    json!({
        "items": page.items.iter().map(delivery).collect::<Vec<_>>(),
        "nextPageCursor": page.next_cursor,
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]

    use super::*;

    fn field_of(error: &ApiError) -> &str {
        error.errors.first().map(|e| e.field.as_str()).unwrap_or_default()
    }

    #[test]
    fn customizations_round_trip_through_their_stored_shape() {
        let input = json!({
            "agreementMode": "CHECKBOX",
            "theme": {"primaryColor": "#AABBCC", "backgroundColor": "#fff", "textColor": null, "borderRadius": 8},
            "buttons": {"acceptStyle": "OUTLINED", "declineStyle": "TEXT", "showDecline": false},
            "logoUrl": "https://cdn.example.com/logo.png",
            "texts": {"de": {"acceptButton": "Einverstanden"}, "fr": null},
        });
        let parsed = customizations(&input, "customizations").unwrap();
        assert_eq!(parsed.agreement_mode, AgreementMode::Checkbox);
        assert_eq!(parsed.theme.primary_color.as_ref().unwrap().as_str(), "#aabbcc");
        assert!(!parsed.buttons.show_decline);
        assert_eq!(parsed.texts.len(), 1);
        let stored = stored_customizations(&parsed);
        assert_eq!(stored["texts"]["de"]["acceptButton"], "Einverstanden");
        assert_eq!(stored["texts"]["de"]["title"], Value::Null);
        assert_eq!(customizations(&stored, "").unwrap(), parsed);
        assert_eq!(customizations(&json!({}), "").unwrap(), Customizations::default());
    }

    #[test]
    fn every_bad_customization_names_its_field() {
        for (input, expected) in [
            (json!({"agreementMode": "SWIPE"}), "customizations.agreementMode"),
            (json!({"agreementMode": 1}), "customizations.agreementMode"),
            (json!({"theme": {"primaryColor": "red"}}), "customizations.theme.primaryColor"),
            (json!({"theme": {"backgroundColor": "#12"}}), "customizations.theme.backgroundColor"),
            (json!({"theme": {"textColor": 5}}), "customizations.theme.textColor"),
            (json!({"theme": {"borderRadius": 49}}), "customizations.theme.borderRadius"),
            (json!({"theme": {"borderRadius": -1}}), "customizations.theme.borderRadius"),
            (json!({"theme": {"borderRadius": "8px"}}), "customizations.theme.borderRadius"),
            (json!({"theme": {"font": "x"}}), "customizations.theme.font"),
            (json!({"theme": "dark"}), "customizations.theme"),
            (json!({"buttons": {"acceptStyle": "ROUND"}}), "customizations.buttons.acceptStyle"),
            (json!({"buttons": {"declineStyle": "x"}}), "customizations.buttons.declineStyle"),
            (json!({"buttons": {"showDecline": "yes"}}), "customizations.buttons.showDecline"),
            (json!({"logoUrl": "http://x/logo.png"}), "customizations.logoUrl"),
            (json!({"texts": {"xx": {}}}), "customizations.texts.xx"),
            (json!({"texts": {"en": {"title": ""}}}), "customizations.texts.en.title"),
            (json!({"texts": {"en": {"acceptButton": "a".repeat(201)}}}), "customizations.texts.en.acceptButton"),
            (json!({"texts": {"en": {"subtitle": "x"}}}), "customizations.texts.en.subtitle"),
            (json!({"texts": []}), "customizations.texts"),
            (json!({"colour": "x"}), "customizations.colour"),
            (json!([]), "customizations"),
        ] {
            let error = customizations(&input, "customizations").unwrap_err();
            assert_eq!(error.status.as_u16(), 400, "{input}");
            assert_eq!(field_of(&error), expected, "{input}");
        }
        let error = customizations(&json!({"theme": {"primaryColor": "red"}}), "").unwrap_err();
        assert_eq!(field_of(&error), "theme.primaryColor");
    }

    #[test]
    fn content_keys_are_language_codes_and_html_is_sanitized() {
        let raw = BTreeMap::from([("en".to_owned(), "<p onclick=\"x()\">Hi</p><script>alert(1)</script>".to_owned())]);
        let parsed = content(&raw).unwrap();
        assert_eq!(parsed[&Language::English].as_str(), "<p>Hi</p>");
        let error = content(&BTreeMap::from([("en-US".to_owned(), "x".to_owned())])).unwrap_err();
        assert_eq!(field_of(&error), "content.en-US");
        let huge = "a".repeat(clickwrap_domain::content::sanitize::MAX_CONTENT_BYTES + 1);
        let error = content(&BTreeMap::from([("de".to_owned(), huge)])).unwrap_err();
        assert_eq!((error.status.as_u16(), error.code, field_of(&error)), (413, "CONTENT_TOO_LARGE", "content.de"));
        let deep = "<div>".repeat(clickwrap_domain::content::bounds::MAX_CONTENT_DEPTH + 1);
        let error = content(&BTreeMap::from([("fr".to_owned(), deep)])).unwrap_err();
        assert_eq!((error.status.as_u16(), error.code, field_of(&error)), (400, "CONTENT_TOO_DEEP", "content.fr"));
        let many = "<br>".repeat(clickwrap_domain::content::bounds::MAX_CONTENT_ELEMENTS + 1);
        let error = content(&BTreeMap::from([("en".to_owned(), many)])).unwrap_err();
        assert_eq!((error.status.as_u16(), error.code), (400, "CONTENT_TOO_MANY_ELEMENTS"));
    }

    #[test]
    fn patch_members_may_be_left_out_but_only_the_webhook_url_may_be_null() {
        let body: UpdateAppBody = serde_json::from_value(json!({"webhookUrl": null})).unwrap();
        let changes = body.try_into_domain(&AllowCidrs::default()).unwrap();
        assert_eq!(changes.webhook_url, Some(None));
        assert_eq!(changes.name, None);
        let body: UpdateAppBody = serde_json::from_value(json!({})).unwrap();
        assert_eq!(body.try_into_domain(&AllowCidrs::default()).unwrap(), AppChanges::default());
        for (input, expected) in [
            (json!({"name": null}), "name"),
            (json!({"webhookEnabled": null}), "webhookEnabled"),
            (json!({"allowedOrigins": null}), "allowedOrigins"),
            (json!({"allowedOrigins": ["https://ok.example", "nope"]}), "allowedOrigins[1]"),
            (json!({"webhookUrl": "http://hooks.example.com"}), "webhookUrl"),
        ] {
            let body: UpdateAppBody = serde_json::from_value(input.clone()).unwrap();
            assert_eq!(field_of(&body.try_into_domain(&AllowCidrs::default()).unwrap_err()), expected, "{input}");
        }
        assert!(serde_json::from_value::<UpdateAppBody>(json!({"colour": 1})).is_err());
    }

    #[test]
    fn publish_kinds_and_effective_at() {
        let body: PublishBody = serde_json::from_value(json!({"kind": "MINOR"})).unwrap();
        assert_eq!(body.try_into_domain().unwrap(), (VersionKind::Minor, None));
        let body: PublishBody = serde_json::from_value(json!({"kind": "major"})).unwrap();
        assert_eq!(body.try_into_domain().unwrap(), (VersionKind::Major, None), "in any case");
        let body: PublishBody = serde_json::from_value(json!({"kind": "PATCH"})).unwrap();
        assert_eq!(field_of(&body.try_into_domain().unwrap_err()), "kind");
        let body: PublishBody = serde_json::from_value(json!({"kind": "MAJOR", "effectiveAt": "tomorrow"})).unwrap();
        assert_eq!(field_of(&body.try_into_domain().unwrap_err()), "effectiveAt");
    }
}

/// `POST /operator-tokens` body.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct CreateOperatorTokenBody {
    name: String,
    role: String,
}

impl CreateOperatorTokenBody {
    pub(crate) fn try_into_domain(self) -> ApiResult<(String, OperatorRole)> {
        let role = OperatorRole::parse(&self.role)
            .ok_or_else(|| ApiError::invalid_field("role", "must be ADMIN or VIEWER"))?;
        name(&self.name)?;
        Ok((self.name, role))
    }
}

pub(crate) fn operator_token(t: &OperatorTokenInfo) -> Value {
    json!({
        "id": t.id.to_string(),
        "name": t.name.as_str(),
        "role": t.role.as_str(),
        "createdAt": timestamp(t.created_at),
        "lastUsedAt": super::optional_timestamp(t.last_used_at),
    })
}

pub(crate) fn operator_tokens(tokens: &[OperatorTokenInfo]) -> Value {
    json!({ "items": tokens.iter().map(operator_token).collect::<Vec<_>>() })
}

/// The new token with its secret, which is shown only here.
pub(crate) fn created_operator_token(t: &OperatorTokenInfo, token: &OperatorToken) -> Value {
    let mut fields = object(operator_token(t));
    fields.insert("token".into(), Value::from(token.expose()));
    Value::Object(fields)
}

pub(crate) fn audit_entry(e: &AuditEntry) -> Value {
    json!({
        "id": e.id.to_string(),
        "at": timestamp(e.at),
        "operatorTokenId": e.operator_token_id.map(|t| t.to_string()),
        "action": e.action.as_str(),
        "subjectType": e.action.subject().as_str(),
        "subjectId": e.subject_id,
        "details": e.details,
    })
}

pub(crate) fn audit_page(page: &AuditPage) -> Value {
    json!({
        "items": page.items.iter().map(audit_entry).collect::<Vec<_>>(),
        "nextPageCursor": page.next_cursor,
    })
}
