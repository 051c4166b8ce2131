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
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

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
    serde_json::to_value(CustomizationsWire::of(c, texts)).unwrap_or_default()
}

/// `customizations` on the wire, borrowed from the domain values, so the SDK check writes it
/// straight into its answer. Members in alphabetical order, as a `serde_json::Map` orders them, so
/// the bytes are those of [`customizations`]'s value.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CustomizationsWire<'a> {
    agreement_mode: &'static str,
    buttons: ButtonsWire,
    logo_url: Option<&'a str>,
    texts: TextsWire<'a>,
    theme: ThemeWire<'a>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ButtonsWire {
    accept_style: &'static str,
    decline_style: &'static str,
    show_decline: bool,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct TextsWire<'a> {
    accept_button: &'a str,
    checkbox_label: &'a str,
    decline_button: &'a str,
    title: &'a str,
    version_label: &'a str,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ThemeWire<'a> {
    background_color: Option<&'a str>,
    border_radius: Option<u8>,
    primary_color: Option<&'a str>,
    text_color: Option<&'a str>,
}

impl<'a> CustomizationsWire<'a> {
    pub(crate) fn of(c: &'a Customizations, texts: &'a DialogTexts) -> Self {
        Self {
            agreement_mode: c.agreement_mode.as_str(),
            buttons: ButtonsWire {
                accept_style: c.buttons.accept_style.as_str(),
                decline_style: c.buttons.decline_style.as_str(),
                show_decline: c.buttons.show_decline,
            },
            logo_url: c.logo_url.as_deref(),
            texts: TextsWire {
                accept_button: &texts.accept_button,
                checkbox_label: &texts.checkbox_label,
                decline_button: &texts.decline_button,
                title: &texts.title,
                version_label: &texts.version_label,
            },
            theme: ThemeWire {
                background_color: c.theme.background_color.as_ref().map(|x| x.as_str()),
                border_radius: c.theme.border_radius,
                primary_color: c.theme.primary_color.as_ref().map(|x| x.as_str()),
                text_color: c.theme.text_color.as_ref().map(|x| x.as_str()),
            },
        }
    }
}
