//! The JSON the API speaks, and its conversion to and from domain values. Response bodies are
//! written out field by field here, so a domain type never reaches the wire by accident.

pub(crate) mod events;
pub(crate) mod ledger;
pub(crate) mod operator;
pub(crate) mod public;

use clickwrap_domain::Timestamp;
use clickwrap_domain::templates::customizations::{Customizations, DialogTexts};
use serde_json::{Value, json};

pub(crate) fn timestamp(at: Timestamp) -> Value {
    Value::from(at.to_rfc3339())
}

pub(crate) fn optional_timestamp(at: Option<Timestamp>) -> Value {
    at.map_or(Value::Null, timestamp)
}

/// `customizations` as the SDK reads it: the texts already resolved for one language.
pub(crate) fn customizations(c: &Customizations, texts: &DialogTexts) -> Value {
    json!({
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
    })
}
