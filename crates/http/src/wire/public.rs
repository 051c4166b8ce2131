//! The public client routes and the server-side consent routes on the wire.

use clickwrap_domain::consent::models::RenderedVersion;
use clickwrap_domain::consent::models::{Action, Presentation, PresentationMode};
use clickwrap_domain::consent::queries::{ConsentStatusView, ReAcceptOutcome};
use clickwrap_domain::consent::service::{ClickwrapView, PresentedAction};
use clickwrap_domain::content::hash::ContentHash;
use clickwrap_domain::content::placeholders::PlaceholderValues;
use clickwrap_domain::templates::customizations::AgreementMode;
use clickwrap_domain::templates::models::DialogPreview;
use clickwrap_domain::templates::models::{Template, TemplateVersion};
use clickwrap_domain::templates::versioning::VersionNumber;
use clickwrap_domain::{EndUserId, Language, TemplateId, Timestamp};
use serde::{Deserialize, Serialize, Serializer};
use serde_json::{Map, Value, json};

use super::{CustomizationsWire, optional_timestamp, timestamp};
use crate::problem::{ApiError, ApiResult};

/// Longest label the SDK may report, and largest client metadata object.
const LABEL_MAX_CHARS: usize = 500;
const CLIENT_METADATA_MAX_BYTES: usize = 8 * 1024;

pub(crate) fn rendered(r: &RenderedVersion) -> Map<String, Value> {
    let value = json!({
        "clickwrapTemplateId": r.template_id.to_string(),
        "clickwrapTemplateVersion": r.version.major,
        "clickwrapTemplateVersionMinor": r.version.minor,
        "effectiveAt": timestamp(r.effective_at),
        "name": r.name,
        "language": r.language.code(),
        "content": r.content,
        "contentHash": r.content_hash.as_str(),
    });
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

/// The SDK check's answer, borrowed from the view and written once into a buffer (no JSON tree:
/// the content alone is kilobytes). Members in alphabetical order, the order the other answers'
/// `serde_json::Map` has, so the bytes are what they were when it was built as a tree.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct CheckAnswer<'a> {
    acceptance_required: bool,
    agreement_mode: &'static str,
    #[serde(serialize_with = "displayed")]
    clickwrap_template_id: TemplateId,
    clickwrap_template_version: u32,
    clickwrap_template_version_minor: u32,
    content: &'a str,
    content_hash: &'a str,
    customizations: CustomizationsWire<'a>,
    #[serde(serialize_with = "displayed")]
    effective_at: Timestamp,
    inline_content: &'a str,
    language: &'static str,
    name: &'a str,
}

fn displayed<T: std::fmt::Display, S: Serializer>(value: &T, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_str(value)
}

/// Room for everything but the content in the check's answer (names, texts, colours, the label).
const CHECK_ANSWER_OVERHEAD: usize = 1_024;

/// `GET /clickwrap`'s body.
pub(crate) fn clickwrap_view(view: &ClickwrapView) -> Result<Vec<u8>, serde_json::Error> {
    let shown = &*view.shown;
    let r = &shown.rendered;
    let answer = CheckAnswer {
        acceptance_required: view.acceptance_required,
        agreement_mode: shown.customizations.agreement_mode.as_str(),
        clickwrap_template_id: r.template_id,
        clickwrap_template_version: r.version.major,
        clickwrap_template_version_minor: r.version.minor,
        content: &r.content,
        content_hash: r.content_hash.as_str(),
        customizations: CustomizationsWire::of(&shown.customizations, &shown.texts),
        effective_at: r.effective_at,
        inline_content: &shown.inline_content,
        language: r.language.code(),
        name: &r.name,
    };
    // JSON escaping can make the content longer; the first guess still saves most regrowth.
    let mut body = Vec::with_capacity(r.content.len() + CHECK_ANSWER_OVERHEAD);
    serde_json::to_writer(&mut body, &answer)?;
    Ok(body)
}

/// The console's dialog preview (`GET /console/templates/{id}/preview-view`): the members of
/// `GET /clickwrap`'s answer that the SDK's dialog needs to show a template, named as there. The
/// server hands this to the console, so that the names are written in one crate.
pub fn dialog_preview(view: &DialogPreview) -> Vec<u8> {
    let t = &view.texts;
    json!({
        "name": view.name,
        "language": view.language.code(),
        "content": view.content,
        "clickwrapTemplateVersion": view.version.major,
        "clickwrapTemplateVersionMinor": view.version.minor,
        "effectiveAt": timestamp(view.effective_at),
        "customizations": {
            "texts": {
                "title": t.title,
                "acceptButton": t.accept_button,
                "declineButton": t.decline_button,
                "checkboxLabel": t.checkbox_label,
                "versionLabel": t.version_label,
            },
        },
    })
    .to_string()
    .into_bytes()
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PresentationBody {
    mode: String,
    agreement_mode: String,
    accept_label: String,
    #[serde(default)]
    checkbox_label: Option<String>,
    #[serde(default)]
    scroll_required: Option<bool>,
}

/// `POST /clickwrap`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RecordActionBody {
    pub(crate) app_id: String,
    clickwrap_template_id: String,
    #[serde(deserialize_with = "super::whole_u32")]
    clickwrap_template_version: u32,
    #[serde(deserialize_with = "super::whole_u32")]
    clickwrap_template_version_minor: u32,
    end_user_id: String,
    action: String,
    language: String,
    #[serde(default)]
    template_placeholders: Option<Value>,
    content_hash: String,
    presented_at: String,
    presentation: PresentationBody,
    #[serde(default)]
    client_metadata: Option<Map<String, Value>>,
}

fn field<T, E: std::fmt::Display>(name: &str, result: Result<T, E>) -> ApiResult<T> {
    result.map_err(|e| ApiError::invalid_field(name, e))
}

fn label(name: &str, text: String) -> ApiResult<String> {
    if text.trim().is_empty() || text.chars().count() > LABEL_MAX_CHARS || text.chars().any(char::is_control) {
        return Err(ApiError::invalid_field(name, format!("must be 1 to {LABEL_MAX_CHARS} characters of text")));
    }
    Ok(text)
}

impl RecordActionBody {
    pub(crate) fn try_into_domain(
        self,
        client_ip: Option<String>,
        user_agent: Option<String>,
    ) -> ApiResult<PresentedAction> {
        let placeholders = match &self.template_placeholders {
            None | Some(Value::Null) => PlaceholderValues::default(),
            Some(value) => field("templatePlaceholders", PlaceholderValues::from_json_object(value))?,
        };
        let client_metadata = self.client_metadata.unwrap_or_default();
        if Value::Object(client_metadata.clone()).to_string().len() > CLIENT_METADATA_MAX_BYTES {
            return Err(ApiError::invalid_field(
                "clientMetadata",
                format!("must be at most {CLIENT_METADATA_MAX_BYTES} bytes of JSON"),
            ));
        }
        let p = self.presentation;
        let presentation = Presentation {
            mode: PresentationMode::parse(&p.mode)
                .ok_or_else(|| ApiError::invalid_field("presentation.mode", "must be DIALOG or INLINE"))?,
            agreement_mode: AgreementMode::parse(&p.agreement_mode)
                .ok_or_else(|| ApiError::invalid_field("presentation.agreementMode", "must be SCROLL or CHECKBOX"))?,
            accept_label: label("presentation.acceptLabel", p.accept_label)?,
            checkbox_label: p.checkbox_label.map(|l| label("presentation.checkboxLabel", l)).transpose()?,
            scroll_required: p.scroll_required,
        };
        Ok(PresentedAction {
            template_id: field("clickwrapTemplateId", TemplateId::parse(&self.clickwrap_template_id))?,
            version: VersionNumber::new(self.clickwrap_template_version, self.clickwrap_template_version_minor),
            end_user_id: field("endUserId", EndUserId::parse(&self.end_user_id))?,
            action: Action::parse(&self.action)
                .ok_or_else(|| ApiError::invalid_field("action", "must be ACCEPTED or DECLINED"))?,
            language: field("language", Language::from_tag(&self.language))?,
            placeholders,
            content_hash: field("contentHash", ContentHash::parse(&self.content_hash))?,
            presented_at: field("presentedAt", Timestamp::parse_rfc3339(&self.presented_at))?,
            presentation,
            client_metadata,
            client_ip,
            user_agent,
        })
    }
}

pub(crate) fn consent_status(view: &ConsentStatusView) -> Value {
    let items: Vec<Value> = view
        .items
        .iter()
        .map(|i| {
            json!({
                "clickwrapTemplateId": i.template_id.to_string(),
                "clickwrapTemplateName": i.template_name,
                "clickwrapTemplateVersion": i.version.major,
                "clickwrapTemplateVersionMinor": i.version.minor,
                "effectiveAt": timestamp(i.effective_at),
                "tags": i.tags.iter().map(|t| t.as_str()).collect::<Vec<_>>(),
                "status": i.status.as_str(),
                "reAcceptanceRequired": i.re_acceptance_required,
                "lastStatusUpdate": optional_timestamp(i.last_status_update),
                "clickwrapEventId": i.event_id.map(|id| id.to_string()),
            })
        })
        .collect();
    json!({ "endUserId": view.end_user_id.as_str(), "status": view.status.as_str(), "items": items })
}

pub(crate) fn available_templates(templates: &[(Template, TemplateVersion)]) -> Value {
    let items: Vec<Value> = templates
        .iter()
        .map(|(t, v)| {
            json!({
                "clickwrapTemplateId": t.id.to_string(),
                "name": t.name.as_str(),
                "tags": t.tags.iter().map(|t| t.as_str()).collect::<Vec<_>>(),
                "clickwrapTemplateVersion": v.number.major,
                "clickwrapTemplateVersionMinor": v.number.minor,
                "effectiveAt": timestamp(v.effective_at),
                "languages": v.languages().iter().map(|l| l.code()).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({ "items": items })
}

/// `POST /clickwraps/re-accept`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ReAcceptBody {
    pub(crate) end_user_ids: Vec<String>,
    pub(crate) clickwrap_template_ids: Vec<String>,
    #[serde(default)]
    pub(crate) reason: Option<String>,
}

impl ReAcceptBody {
    pub(crate) fn parse_ids(&self) -> ApiResult<(Vec<EndUserId>, Vec<TemplateId>)> {
        let users = self
            .end_user_ids
            .iter()
            .enumerate()
            .map(|(i, u)| EndUserId::parse(u).map_err(|e| ApiError::invalid_field(&format!("endUserIds[{i}]"), e)))
            .collect::<ApiResult<Vec<_>>>()?;
        let templates = self
            .clickwrap_template_ids
            .iter()
            .enumerate()
            .map(|(i, t)| {
                TemplateId::parse(t).map_err(|e| ApiError::invalid_field(&format!("clickwrapTemplateIds[{i}]"), e))
            })
            .collect::<ApiResult<Vec<_>>>()?;
        Ok((users, templates))
    }
}

pub(crate) fn re_accept_results(results: &[(EndUserId, TemplateId, ReAcceptOutcome)]) -> Value {
    let results: Vec<Value> = results
        .iter()
        .map(|(user, template, outcome)| {
            json!({
                "endUserId": user.as_str(),
                "clickwrapTemplateId": template.to_string(),
                "status": outcome.as_str(),
            })
        })
        .collect();
    json!({ "results": results })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use std::sync::Arc;

    use clickwrap_domain::consent::models::ShownVersion;
    use clickwrap_domain::templates::customizations::{ButtonStyle, Color, Customizations, DialogTexts};

    use super::*;

    /// The answer as it was built before, as a `serde_json` tree with the fields named one by one.
    fn as_a_tree(view: &ClickwrapView) -> Value {
        let s = &view.shown;
        let (r, c, texts) = (&s.rendered, &s.customizations, &s.texts);
        json!({
            "clickwrapTemplateId": r.template_id.to_string(),
            "clickwrapTemplateVersion": r.version.major,
            "clickwrapTemplateVersionMinor": r.version.minor,
            "effectiveAt": timestamp(r.effective_at),
            "name": r.name,
            "language": r.language.code(),
            "content": r.content,
            "contentHash": r.content_hash.as_str(),
            "acceptanceRequired": view.acceptance_required,
            "agreementMode": c.agreement_mode.as_str(),
            "inlineContent": s.inline_content,
            "customizations": {
                "agreementMode": c.agreement_mode.as_str(),
                "theme": {
                    "primaryColor": c.theme.primary_color.as_ref().map(|x| x.as_str()),
                    "backgroundColor": c.theme.background_color.as_ref().map(|x| x.as_str()),
                    "textColor": c.theme.text_color.as_ref().map(|x| x.as_str()),
                    "borderRadius": c.theme.border_radius,
                },
                "buttons": {
                    "acceptStyle": c.buttons.accept_style.as_str(),
                    "declineStyle": c.buttons.decline_style.as_str(),
                    "showDecline": c.buttons.show_decline,
                },
                "logoUrl": c.logo_url,
                "texts": {
                    "title": texts.title,
                    "acceptButton": texts.accept_button,
                    "declineButton": texts.decline_button,
                    "checkboxLabel": texts.checkbox_label,
                    "versionLabel": texts.version_label,
                },
            },
        })
    }

    fn view(customizations: Customizations, acceptance_required: bool) -> ClickwrapView {
        let content = "<h1>Terms &amp; \"conditions\"</h1>\n<p>\u{fc}ber \u{2014} \u{1F600} \\ </p>".to_owned();
        let rendered = RenderedVersion {
            template_id: TemplateId::parse("0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b").unwrap(),
            name: "Terms \"of\" Service".to_owned(),
            version: VersionNumber::new(3, 12),
            effective_at: Timestamp::parse_rfc3339("2026-11-22T07:15:03.123Z").unwrap(),
            language: Language::German,
            content_hash: ContentHash::of(&content),
            content,
        };
        let texts = DialogTexts {
            title: "Bitte \"lesen\"".to_owned(),
            accept_button: "Akzeptieren".to_owned(),
            decline_button: "Ablehnen".to_owned(),
            checkbox_label: "Ich stimme zu\t<".to_owned(),
            version_label: "Version".to_owned(),
        };
        let shown = ShownVersion {
            rendered,
            inline_content: "Ich stimme zu: <strong>Terms</strong>".to_owned(),
            customizations,
            texts,
        };
        ClickwrapView { acceptance_required, shown: Arc::new(shown) }
    }

    #[test]
    fn the_check_answer_is_byte_for_byte_the_tree_it_replaced() {
        let mut full = Customizations { agreement_mode: AgreementMode::Checkbox, ..Customizations::default() };
        full.theme.primary_color = Some(Color::parse("#112233").unwrap());
        full.theme.background_color = Some(Color::parse("#ffffff").unwrap());
        full.theme.text_color = Some(Color::parse("#000").unwrap());
        full.theme.border_radius = Some(48);
        full.buttons.accept_style = ButtonStyle::Outlined;
        full.buttons.decline_style = ButtonStyle::Text;
        full.buttons.show_decline = true;
        full.logo_url = Some("https://cdn.example.com/logo.png?a=1&b=\"2\"".to_owned());
        for (customizations, acceptance_required) in [(Customizations::default(), true), (full, false)] {
            let view = view(customizations, acceptance_required);
            let written = String::from_utf8(clickwrap_view(&view).unwrap()).unwrap();
            assert_eq!(written, as_a_tree(&view).to_string());
        }
    }
}
