//! The JSON the API speaks, and its conversion to and from domain values. Response bodies are
//! written out field by field here, so a domain type never reaches the wire by accident.

pub(crate) mod events;
pub(crate) mod ledger;
pub(crate) mod operator;
pub(crate) mod public;

use std::fmt;
use std::marker::PhantomData;
use std::ops::Deref;

use clickwrap_domain::Timestamp;
use clickwrap_domain::templates::customizations::{Customizations, DialogTexts};
use serde::de::value::MapAccessDeserializer;
use serde::de::{MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::{Value, json};

/// A request body that must be a JSON object. Derived `Deserialize` also reads a struct from an
/// array of its fields in order, so `["v1…"]` passed for `{"serviceSignature": "v1…"}`; the API
/// documents objects only.
#[derive(Debug)]
pub(crate) struct JsonObject<T>(pub(crate) T);

impl<T> Deref for JsonObject<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for JsonObject<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ObjectOnly<T>(PhantomData<T>);

        impl<'de, T: Deserialize<'de>> Visitor<'de> for ObjectOnly<T> {
            type Value = T;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }

            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
                T::deserialize(MapAccessDeserializer::new(map))
            }
        }

        deserializer.deserialize_map(ObjectOnly(PhantomData)).map(Self)
    }
}

/// A JSON number with no fractional part, as JSON Schema's `integer` counts it: `3` and `3.0` alike.
pub(crate) fn whole_number(value: &Value) -> Option<u64> {
    value.as_u64().or_else(|| {
        // Every whole f64 below 2^53 is exact; larger ones are refused, not rounded.
        let float = value.as_f64().filter(|f| f.fract() == 0.0 && (0.0..9_007_199_254_740_992.0).contains(f))?;
        Some(float as u64)
    })
}

/// serde's `deserialize_with` for a `u32` member written as any whole JSON number ([`whole_number`]).
pub(crate) fn whole_u32<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u32, D::Error> {
    let value = Value::deserialize(deserializer)?;
    whole_number(&value)
        .and_then(|n| u32::try_from(n).ok())
        .ok_or_else(|| serde::de::Error::custom(format!("expected a whole number from 0 to {}, got {value}", u32::MAX)))
}

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
