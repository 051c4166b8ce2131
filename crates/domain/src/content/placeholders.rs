//! Placeholders: `{{fullName}}` … `{{vatNumber}}` and `{{custom.KEY}}` in template content, the
//! values a client supplies for them at request time, and rendering content with those values.
//!
//! Syntax in content: `{{`, the name, `}}`, with optional spaces around the name (`{{ fullName }}`
//! is the same placeholder), names matched case-sensitively. Anything between `{{` and `}}` that
//! is at most [`PLACEHOLDER_TEXT_MAX_CHARS`] characters without braces, angle brackets or line
//! breaks counts as a placeholder, so that a misspelt name (`{{fulName}}`) is reported when a
//! version is published instead of being shown to end users; longer or multi-line brace text is
//! ordinary text. Values are inserted once: a value containing `{{email}}` is not expanded.

use std::collections::BTreeMap;
use std::fmt;

use serde_json::Value;

use crate::content::escape_html;
use crate::content::sanitize::SanitizedHtml;

pub const CUSTOM_KEY_MAX_CHARS: usize = 64;
pub const PLACEHOLDER_VALUE_MAX_CHARS: usize = 1_000;
pub const MAX_CUSTOM_PLACEHOLDERS: usize = 50;
/// Longest text between `{{` and `}}` that is read as a placeholder (names are at most 71).
pub const PLACEHOLDER_TEXT_MAX_CHARS: usize = 100;

const CUSTOM_PREFIX: &str = "custom.";
const CUSTOM_FIELD: &str = "customPlaceholders";
/// Field names used by older SDKs, which had no named fields and no `customPlaceholders` map.
const LEGACY_CUSTOM_FIELDS: [&str; 10] =
    ["custom1", "custom2", "custom3", "custom4", "custom5", "custom6", "custom7", "custom8", "custom9", "custom10"];

/// The key of a `{{custom.KEY}}` placeholder: 1 to 64 ASCII letters, digits or underscores.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CustomKey(String);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a custom placeholder key is 1 to {CUSTOM_KEY_MAX_CHARS} ASCII letters, digits or underscores")]
pub struct InvalidCustomKey;

impl CustomKey {
    pub fn parse(text: &str) -> Result<Self, InvalidCustomKey> {
        let valid = (1..=CUSTOM_KEY_MAX_CHARS).contains(&text.len())
            && text.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
        if valid { Ok(Self(text.to_owned())) } else { Err(InvalidCustomKey) }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for CustomKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CustomKey({:?})", self.0)
    }
}

/// A placeholder name. The derived order (named fields in this order, then custom keys sorted)
/// is the order of the canonical JSON.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PlaceholderName {
    FullName,
    Email,
    Company,
    JobTitle,
    Date,
    PhoneNumber,
    RegistrationNumber,
    VatNumber,
    Address,
    Custom(CustomKey),
}

const NAMED: [(PlaceholderName, &str); 9] = [
    (PlaceholderName::FullName, "fullName"),
    (PlaceholderName::Email, "email"),
    (PlaceholderName::Company, "company"),
    (PlaceholderName::JobTitle, "jobTitle"),
    (PlaceholderName::Date, "date"),
    (PlaceholderName::PhoneNumber, "phoneNumber"),
    (PlaceholderName::RegistrationNumber, "registrationNumber"),
    (PlaceholderName::VatNumber, "vatNumber"),
    (PlaceholderName::Address, "address"),
];

/// Unknown placeholder names, each listed once in order of appearance.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown placeholder names: {}", list_names(.names))]
pub struct UnknownPlaceholder {
    pub names: Vec<String>,
}

fn list_names(names: &[String]) -> String {
    names.iter().map(|name| format!("{{{{{name}}}}}")).collect::<Vec<_>>().join(", ")
}

impl PlaceholderName {
    /// `fullName`, `email`, … or `custom.KEY`, exactly (no spaces, case-sensitive).
    pub fn parse(name: &str) -> Result<Self, UnknownPlaceholder> {
        if let Some((named, _)) = NAMED.iter().find(|(_, text)| *text == name) {
            return Ok(named.clone());
        }
        name.strip_prefix(CUSTOM_PREFIX)
            .and_then(|key| CustomKey::parse(key).ok())
            .map(Self::Custom)
            .ok_or_else(|| UnknownPlaceholder { names: vec![name.chars().take(PLACEHOLDER_TEXT_MAX_CHARS).collect()] })
    }

    /// `{{fullName}}` or `{{custom.KEY}}`: how an operator writes it in content.
    pub fn as_template_text(&self) -> String {
        format!("{{{{{self}}}}}")
    }

    fn named_field(&self) -> Option<&'static str> {
        NAMED.iter().find(|(named, _)| named == self).map(|(_, text)| *text)
    }
}

impl fmt::Display for PlaceholderName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Custom(key) => write!(f, "{CUSTOM_PREFIX}{}", key.as_str()),
            named => f.write_str(named.named_field().unwrap_or_default()),
        }
    }
}

/// Placeholder values supplied with a request (`templatePlaceholders`). Clients send each value
/// URL-encoded once; the JSON forms decode it on the way in, so a value here is the text used in
/// the content, and that is what is stored and returned. An empty string is a value (it renders
/// empty, as a missing one does, but it is kept in the canonical JSON).
#[derive(Clone, Default, PartialEq, Eq)]
pub struct PlaceholderValues {
    values: BTreeMap<PlaceholderName, String>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidPlaceholderValues {
    #[error("templatePlaceholders is not valid JSON")]
    InvalidJson,
    #[error("templatePlaceholders must be a JSON object")]
    NotAnObject,
    #[error("templatePlaceholders has an unknown field `{field}`")]
    UnknownField { field: String },
    #[error("templatePlaceholders.{field} must be a string or null")]
    NotAString { field: String },
    #[error("templatePlaceholders.{field} is longer than {PLACEHOLDER_VALUE_MAX_CHARS} characters")]
    TooLong { field: String },
    #[error("templatePlaceholders.customPlaceholders must be an object or null")]
    CustomNotAnObject,
    #[error(
        "templatePlaceholders.customPlaceholders has an invalid key `{key}`: keys are 1 to \
         {CUSTOM_KEY_MAX_CHARS} ASCII letters, digits or underscores"
    )]
    InvalidCustomKey { key: String },
    #[error("templatePlaceholders has more than {MAX_CUSTOM_PLACEHOLDERS} custom placeholders")]
    TooManyCustom,
    #[error(
        "templatePlaceholders gives custom placeholder `{key}` twice (as {key} and in \
         customPlaceholders)"
    )]
    DuplicateCustomKey { key: String },
}

/// Field names and keys echoed in errors are cut to this length.
const ECHO_MAX_CHARS: usize = 80;

fn echo(text: &str) -> String {
    text.chars().take(ECHO_MAX_CHARS).collect()
}

impl PlaceholderValues {
    /// The POST body form: `{"fullName": "…", "customPlaceholders": {"KEY": "…"}}`. The legacy
    /// flat fields `custom1` … `custom10` are accepted as the custom keys `custom1` … `custom10`
    /// (so they fill `{{custom.custom1}}` …); giving one both ways is an error. Null fields, and
    /// a null object, are absent values; any other non-string value is an error, as is an unknown
    /// field.
    pub fn from_json_object(json: &Value) -> Result<Self, InvalidPlaceholderValues> {
        let object = match json {
            Value::Null => return Ok(Self::default()),
            Value::Object(object) => object,
            _ => return Err(InvalidPlaceholderValues::NotAnObject),
        };
        let mut values = Self::default();
        for (field, value) in object {
            if field == CUSTOM_FIELD {
                values.add_custom_map(value)?;
            } else if LEGACY_CUSTOM_FIELDS.contains(&field.as_str()) {
                let key = CustomKey(field.clone());
                values.add(PlaceholderName::Custom(key), field, value)?;
            } else if let Some((name, _)) = NAMED.iter().find(|(_, text)| text == field) {
                values.add(name.clone(), field, value)?;
            } else {
                return Err(InvalidPlaceholderValues::UnknownField { field: echo(field) });
            }
        }
        Ok(values)
    }

    /// The GET query form: the (already URL-decoded) text of the same JSON object.
    pub fn from_json_text(text: &str) -> Result<Self, InvalidPlaceholderValues> {
        let json: Value = serde_json::from_str(text).map_err(|_| InvalidPlaceholderValues::InvalidJson)?;
        Self::from_json_object(&json)
    }

    /// Sets one value, with the same limits as the JSON forms.
    pub fn insert(&mut self, name: PlaceholderName, value: impl Into<String>) -> Result<(), InvalidPlaceholderValues> {
        let value = value.into();
        let field = match &name {
            PlaceholderName::Custom(key) => format!("{CUSTOM_FIELD}.{}", key.as_str()),
            named => named.to_string(),
        };
        if value.chars().count() > PLACEHOLDER_VALUE_MAX_CHARS {
            return Err(InvalidPlaceholderValues::TooLong { field });
        }
        let is_new_custom = matches!(name, PlaceholderName::Custom(_)) && !self.values.contains_key(&name);
        if is_new_custom && self.custom_count() >= MAX_CUSTOM_PLACEHOLDERS {
            return Err(InvalidPlaceholderValues::TooManyCustom);
        }
        self.values.insert(name, value);
        Ok(())
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    pub fn get(&self, name: &PlaceholderName) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }

    /// The values as compact JSON, named fields in a fixed order and then `customPlaceholders`
    /// sorted by key, or `None` when there are none. Equal values give equal text, so it can be
    /// stored as evidence and returned as `templatePlaceholders`.
    pub fn to_canonical_json(&self) -> Option<String> {
        if self.values.is_empty() {
            return None;
        }
        let mut named = Vec::new();
        let mut custom = Vec::new();
        for (name, value) in &self.values {
            let value = Value::String(value.clone());
            match name {
                PlaceholderName::Custom(key) => {
                    custom.push(format!("{}:{value}", Value::String(key.0.clone())));
                }
                named_field => named.push(format!("\"{named_field}\":{value}")),
            }
        }
        if !custom.is_empty() {
            named.push(format!("\"{CUSTOM_FIELD}\":{{{}}}", custom.join(",")));
        }
        Some(format!("{{{}}}", named.join(",")))
    }

    fn custom_count(&self) -> usize {
        self.values.keys().filter(|name| matches!(name, PlaceholderName::Custom(_))).count()
    }

    fn add_custom_map(&mut self, map: &Value) -> Result<(), InvalidPlaceholderValues> {
        let map = match map {
            Value::Null => return Ok(()),
            Value::Object(map) => map,
            _ => return Err(InvalidPlaceholderValues::CustomNotAnObject),
        };
        for (key, value) in map {
            let parsed =
                CustomKey::parse(key).map_err(|_| InvalidPlaceholderValues::InvalidCustomKey { key: echo(key) })?;
            let field = format!("{CUSTOM_FIELD}.{key}");
            self.add(PlaceholderName::Custom(parsed), &field, value)?;
        }
        Ok(())
    }

    fn add(&mut self, name: PlaceholderName, field: &str, value: &Value) -> Result<(), InvalidPlaceholderValues> {
        let value = match value {
            Value::Null => return Ok(()),
            Value::String(value) => value,
            _ => {
                return Err(InvalidPlaceholderValues::NotAString { field: echo(field) });
            }
        };
        if let PlaceholderName::Custom(key) = &name
            && self.values.contains_key(&name)
        {
            return Err(InvalidPlaceholderValues::DuplicateCustomKey { key: key.as_str().to_owned() });
        }
        // Clients send each value URL-encoded once; from here on a value is the text used in the
        // content, which is also what is stored and returned as `templatePlaceholders`.
        let value = decode(value);
        if value.chars().count() > PLACEHOLDER_VALUE_MAX_CHARS {
            return Err(InvalidPlaceholderValues::TooLong { field: echo(field) });
        }
        self.insert(name, value.into_owned())
    }
}

/// Only the names: values are end users' personal data and do not belong in logs.
impl fmt::Debug for PlaceholderValues {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PlaceholderValues")
            .field("names", &self.values.keys().map(|name| name.to_string()).collect::<Vec<_>>())
            .finish()
    }
}

enum Segment<'a> {
    Text(&'a str),
    /// The whole `{{ … }}` text and the name inside, spaces trimmed.
    Placeholder {
        text: &'a str,
        name: &'a str,
    },
}

/// Splits content into text and placeholders; concatenating the segments' text gives it back.
fn segments(content: &str) -> Vec<Segment<'_>> {
    let mut segments = Vec::new();
    let mut text_start = 0;
    let mut search_from = 0;
    while let Some(found) = content.get(search_from..).and_then(|rest| rest.find("{{")) {
        let open = search_from + found;
        let inner_start = open + 2;
        match content.get(inner_start..).and_then(inner_length) {
            Some(length) => {
                let close_end = inner_start + length + 2;
                let text = content.get(text_start..open).unwrap_or_default();
                let placeholder = content.get(open..close_end).unwrap_or_default();
                let name = content.get(inner_start..inner_start + length).unwrap_or_default().trim_matches(' ');
                if !text.is_empty() {
                    segments.push(Segment::Text(text));
                }
                segments.push(Segment::Placeholder { text: placeholder, name });
                text_start = close_end;
                search_from = close_end;
            }
            // `{` is one byte, so open + 1 is a character boundary.
            None => search_from = open + 1,
        }
    }
    if let Some(text) = content.get(text_start..)
        && !text.is_empty()
    {
        segments.push(Segment::Text(text));
    }
    segments
}

/// The byte length of a placeholder's inner text when `after_open` continues a placeholder: up to
/// [`PLACEHOLDER_TEXT_MAX_CHARS`] characters other than braces, angle brackets and line breaks,
/// then `}}`.
fn inner_length(after_open: &str) -> Option<usize> {
    for (count, (index, c)) in after_open.char_indices().enumerate() {
        if c == '}' {
            return after_open.get(index..).is_some_and(|rest| rest.starts_with("}}")).then_some(index);
        }
        if count >= PLACEHOLDER_TEXT_MAX_CHARS || matches!(c, '{' | '<' | '>' | '\n' | '\r') {
            return None;
        }
    }
    None
}

/// Every distinct placeholder in the content, in order of first appearance; an error listing
/// every unknown name if there are any (checked when a version is published).
pub fn placeholders_in(content: &str) -> Result<Vec<PlaceholderName>, UnknownPlaceholder> {
    let mut known = Vec::new();
    let mut unknown: Vec<String> = Vec::new();
    for segment in segments(content) {
        if let Segment::Placeholder { name, .. } = segment {
            match PlaceholderName::parse(name) {
                Ok(parsed) => {
                    if !known.contains(&parsed) {
                        known.push(parsed);
                    }
                }
                Err(_) => {
                    if !unknown.iter().any(|seen| seen == name) {
                        unknown.push(name.to_owned());
                    }
                }
            }
        }
    }
    if unknown.is_empty() { Ok(known) } else { Err(UnknownPlaceholder { names: unknown }) }
}

/// The content with each placeholder replaced by its value, HTML-escaped; a missing value renders
/// empty. Text that is not a known placeholder stays as it is (published content has none).
pub fn render(content: &SanitizedHtml, values: &PlaceholderValues) -> String {
    let mut rendered = String::with_capacity(content.as_str().len());
    for segment in segments(content.as_str()) {
        match segment {
            Segment::Text(text) => rendered.push_str(text),
            Segment::Placeholder { text, name } => match PlaceholderName::parse(name) {
                Ok(name) => {
                    rendered.push_str(&escape_html(values.get(&name).unwrap_or("")));
                }
                Err(_) => rendered.push_str(text),
            },
        }
    }
    rendered
}

/// How a value sent by a client becomes the value used: percent-decoding once, nothing more.
/// `+` stays `+` (values are URL-encoded with `%20` for a space, as `encodeURIComponent` does),
/// and `%` not followed by two hex digits stays as it is. When the decoded bytes are not UTF-8
/// the value is used as given, undecoded, so that a value that was never encoded (`100%ff`) is
/// not mangled.
fn decode(value: &str) -> std::borrow::Cow<'_, str> {
    percent_encoding::percent_decode_str(value).decode_utf8().unwrap_or(std::borrow::Cow::Borrowed(value))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::sanitize::sanitize;
    use proptest::prelude::*;
    use serde_json::json;

    fn custom(key: &str) -> PlaceholderName {
        PlaceholderName::Custom(CustomKey::parse(key).unwrap())
    }

    fn html(text: &str) -> SanitizedHtml {
        sanitize(text).unwrap()
    }

    #[test]
    fn names_parse_and_print() {
        let all = [
            ("fullName", PlaceholderName::FullName),
            ("email", PlaceholderName::Email),
            ("company", PlaceholderName::Company),
            ("jobTitle", PlaceholderName::JobTitle),
            ("date", PlaceholderName::Date),
            ("phoneNumber", PlaceholderName::PhoneNumber),
            ("registrationNumber", PlaceholderName::RegistrationNumber),
            ("vatNumber", PlaceholderName::VatNumber),
            ("address", PlaceholderName::Address),
            ("custom.KEY_1", custom("KEY_1")),
        ];
        for (text, name) in all {
            assert_eq!(PlaceholderName::parse(text).unwrap(), name);
            assert_eq!(name.to_string(), text);
            assert_eq!(name.as_template_text(), format!("{{{{{text}}}}}"));
        }
        let long_key = format!("custom.{}", "k".repeat(64));
        assert!(PlaceholderName::parse(&long_key).is_ok());
        for bad in [
            "",
            "foo",
            "FullName",
            "fullname",
            " fullName",
            "custom.",
            "custom",
            "custom.a-b",
            "custom.a.b",
            "custom.é",
            "Custom.a",
            "customPlaceholders",
            &format!("custom.{}", "k".repeat(65)),
        ] {
            assert_eq!(PlaceholderName::parse(bad), Err(UnknownPlaceholder { names: vec![bad.to_owned()] }), "{bad:?}");
        }
    }

    #[test]
    fn custom_keys_are_limited() {
        assert!(CustomKey::parse("a").is_ok());
        assert!(CustomKey::parse("Az_09").is_ok());
        assert!(CustomKey::parse(&"x".repeat(64)).is_ok());
        for bad in ["", "a b", "a.b", "ä", "a-b", &"x".repeat(65)] {
            assert_eq!(CustomKey::parse(bad), Err(InvalidCustomKey), "{bad:?}");
        }
    }

    #[test]
    fn values_from_the_post_body_form() {
        let values = PlaceholderValues::from_json_object(&json!({
            "fullName": "Ada Lovelace",
            "email": null,
            "vatNumber": "",
            "customPlaceholders": {"plan": "Pro", "seats": null, "b": "2"},
            "custom3": "legacy",
        }))
        .unwrap();
        assert_eq!(values.get(&PlaceholderName::FullName), Some("Ada Lovelace"));
        assert_eq!(values.get(&PlaceholderName::Email), None);
        assert_eq!(values.get(&PlaceholderName::VatNumber), Some(""));
        assert_eq!(values.get(&custom("plan")), Some("Pro"));
        assert_eq!(values.get(&custom("seats")), None);
        assert_eq!(values.get(&custom("custom3")), Some("legacy"));
        assert_eq!(
            values.to_canonical_json().unwrap(),
            r#"{"fullName":"Ada Lovelace","vatNumber":"","customPlaceholders":{"b":"2","custom3":"legacy","plan":"Pro"}}"#
        );
        assert_eq!(
            format!("{values:?}"),
            r#"PlaceholderValues { names: ["fullName", "vatNumber", "custom.b", "custom.custom3", "custom.plan"] }"#
        );
    }

    #[test]
    fn values_from_the_query_form() {
        let values = PlaceholderValues::from_json_text(
            r#"{"customPlaceholders":{"z":"1"},"address":"Main St. 1","fullName":"A%20B \"q\""}"#,
        )
        .unwrap();
        assert_eq!(values.get(&PlaceholderName::FullName), Some("A B \"q\""), "decoded once on the way in");
        assert_eq!(
            values.to_canonical_json().unwrap(),
            r#"{"fullName":"A B \"q\"","address":"Main St. 1","customPlaceholders":{"z":"1"}}"#
        );
        let round_trip = PlaceholderValues::from_json_text(&values.to_canonical_json().unwrap()).unwrap();
        assert_eq!(round_trip, values);
    }

    #[test]
    fn empty_values() {
        for text in ["{}", "null", r#"{"fullName":null,"customPlaceholders":null}"#] {
            let values = PlaceholderValues::from_json_text(text).unwrap();
            assert!(values.is_empty(), "{text}");
            assert_eq!(values.to_canonical_json(), None);
        }
        assert!(PlaceholderValues::default().is_empty());
    }

    #[test]
    fn invalid_values_are_typed_errors_naming_the_field() {
        use InvalidPlaceholderValues::*;
        let many: serde_json::Map<String, Value> = (0..51).map(|i| (format!("k{i}"), json!("v"))).collect();
        let cases = [
            ("", InvalidJson),
            ("{", InvalidJson),
            ("[]", NotAnObject),
            ("\"x\"", NotAnObject),
            ("1", NotAnObject),
            (r#"{"name":"x"}"#, UnknownField { field: "name".into() }),
            (r#"{"custom11":"x"}"#, UnknownField { field: "custom11".into() }),
            (r#"{"custom0":"x"}"#, UnknownField { field: "custom0".into() }),
            (r#"{"fullName":1}"#, NotAString { field: "fullName".into() }),
            (r#"{"fullName":true}"#, NotAString { field: "fullName".into() }),
            (r#"{"fullName":["x"]}"#, NotAString { field: "fullName".into() }),
            (r#"{"custom2":{}}"#, NotAString { field: "custom2".into() }),
            (r#"{"customPlaceholders":{"k":2}}"#, NotAString { field: "customPlaceholders.k".into() }),
            (r#"{"customPlaceholders":"x"}"#, CustomNotAnObject),
            (r#"{"customPlaceholders":[]}"#, CustomNotAnObject),
            (r#"{"customPlaceholders":{"a b":"x"}}"#, InvalidCustomKey { key: "a b".into() }),
            (r#"{"customPlaceholders":{"":"x"}}"#, InvalidCustomKey { key: "".into() }),
            (r#"{"custom1":"a","customPlaceholders":{"custom1":"b"}}"#, DuplicateCustomKey { key: "custom1".into() }),
        ];
        for (text, expected) in cases {
            assert_eq!(PlaceholderValues::from_json_text(text), Err(expected), "{text}");
        }
        let too_long = "x".repeat(1001);
        assert_eq!(
            PlaceholderValues::from_json_object(&json!({"email": too_long})),
            Err(TooLong { field: "email".into() })
        );
        assert_eq!(
            PlaceholderValues::from_json_object(&json!({"customPlaceholders": {"k": too_long}})),
            Err(TooLong { field: "customPlaceholders.k".into() })
        );
        assert_eq!(PlaceholderValues::from_json_object(&json!({"customPlaceholders": many})), Err(TooManyCustom));
        let long_field = "f".repeat(500);
        let error = PlaceholderValues::from_json_object(&json!({ long_field: "x" })).unwrap_err();
        assert_eq!(error, UnknownField { field: "f".repeat(80) });
    }

    #[test]
    fn limits_are_inclusive() {
        let at_limit = "é".repeat(1000);
        let fifty: serde_json::Map<String, Value> = (0..50).map(|i| (format!("k{i}"), json!(at_limit))).collect();
        let values = PlaceholderValues::from_json_object(&json!({
            "fullName": at_limit,
            "customPlaceholders": fifty,
        }))
        .unwrap();
        assert_eq!(values.get(&custom("k49")), Some(at_limit.as_str()));
        let mut values = values;
        assert_eq!(values.insert(custom("k50"), "x"), Err(InvalidPlaceholderValues::TooManyCustom));
        assert_eq!(values.insert(custom("k0"), "replaced"), Ok(()));
    }

    #[test]
    fn finds_placeholders_in_content() {
        let content = "<p>{{fullName}} {{ email }} {{custom.plan}} {{fullName}} {{  custom.plan}}</p>";
        assert_eq!(
            placeholders_in(content).unwrap(),
            vec![PlaceholderName::FullName, PlaceholderName::Email, custom("plan")]
        );
        assert_eq!(placeholders_in("<p>no placeholders { } {x} }} {{</p>").unwrap(), vec![]);
        assert_eq!(
            placeholders_in("{{foo}} {{fullName}} {{ Email }} {{foo}} {{custom.a-b}} {{}}"),
            Err(UnknownPlaceholder { names: vec!["foo".into(), "Email".into(), "custom.a-b".into(), "".into()] })
        );
        let error = placeholders_in("{{foo}}{{bar}}").unwrap_err();
        assert_eq!(error.to_string(), "unknown placeholder names: {{foo}}, {{bar}}");
    }

    #[test]
    fn what_counts_as_a_placeholder() {
        // Not placeholders: too long, spanning markup or lines, or broken braces.
        let long = format!("{{{{{}}}}}", "x".repeat(101));
        for text in [
            long.as_str(),
            "{{<b>fullName</b>}}",
            "{{full\nName}}",
            "{{fullName}",
            "{fullName}}",
            "{{a}b}}",
            "{ {fullName}}",
        ] {
            assert_eq!(placeholders_in(text).unwrap(), vec![], "{text:?}");
        }
        assert_eq!(placeholders_in(&format!("{{{{{}}}}}", "x".repeat(100))).unwrap_err().names, vec!["x".repeat(100)]);
        // Extra braces around a placeholder are text.
        assert_eq!(placeholders_in("{{{fullName}}}").unwrap(), vec![PlaceholderName::FullName]);
        let values = PlaceholderValues::from_json_text(r#"{"fullName":"A"}"#).unwrap();
        assert_eq!(render(&html("{{{fullName}}}"), &values), "{A}");
        assert_eq!(render(&html("{{{{fullName}}}}"), &values), "{{A}}");
    }

    #[test]
    fn renders_values_decoded_and_escaped() {
        let values = PlaceholderValues::from_json_object(&json!({
            "fullName": "Ada%20Lovelace",
            "company": "A+B %26 Co",
            "email": "%3Cscript%3Ealert(1)%3C%2Fscript%3E",
            "address": "<b>\"O'Brien\" & sons</b>",
            "date": "100% sure",
            "jobTitle": "%ff%fe",
            "phoneNumber": "%C3%A9%E4%B8%96",
            "vatNumber": "{{fullName}}",
            "customPlaceholders": {"plan": "%253C"},
        }))
        .unwrap();
        let content = html(concat!(
            "<p>{{fullName}}|{{company}}|{{email}}|{{address}}|{{date}}|{{jobTitle}}|",
            "{{phoneNumber}}|{{vatNumber}}|{{custom.plan}}|{{registrationNumber}}|",
            "{{custom.missing}}|{{ fullName }}|{{unknown}}</p>"
        ));
        assert_eq!(
            render(&content, &values),
            concat!(
                "<p>Ada Lovelace|A+B &amp; Co|&lt;script&gt;alert(1)&lt;/script&gt;|",
                "&lt;b&gt;&quot;O&#39;Brien&quot; &amp; sons&lt;/b&gt;|100% sure|%ff%fe|",
                "é世|{{fullName}}|%3C|||Ada Lovelace|{{unknown}}</p>"
            )
        );
    }

    #[test]
    fn renders_placeholders_in_attributes_escaped() {
        let values = PlaceholderValues::from_json_object(&json!({
            "fullName": "x\" onclick=\"alert(1)",
            "customPlaceholders": {"id": "a%22b"},
        }))
        .unwrap();
        let content = html(r#"<a href="https://example.com/u/{{custom.id}}" title="{{fullName}}">x</a>"#);
        let rendered = render(&content, &values);
        assert!(
            rendered.starts_with(r#"<a href="https://example.com/u/a&quot;b" title="x&quot; onclick=&quot;alert(1)" "#)
        );
    }

    #[test]
    fn rendering_without_values_empties_placeholders() {
        let content = html("<p>Dear {{fullName}},</p>");
        assert_eq!(render(&content, &PlaceholderValues::default()), "<p>Dear ,</p>");
        let plain = html("<p>No placeholders &amp; {braces}</p>");
        assert_eq!(render(&plain, &PlaceholderValues::default()), plain.as_str());
    }

    fn any_values() -> impl Strategy<Value = PlaceholderValues> {
        let value = prop_oneof![
            "\\PC{0,20}",
            "[<>&\"'%{}a-z0-9]{0,20}",
            prop::collection::vec(
                prop::sample::select(vec!["%3C", "%3c", "%3E", "<", "%25", "%", "%ff", "{{", "}}", "&lt;", "a"]),
                0..8
            )
            .prop_map(|parts| parts.concat()),
        ];
        (prop::collection::vec(value.clone(), 9), prop::collection::btree_map("[a-z]{1,3}", value, 0..4)).prop_map(
            |(named, customs)| {
                let mut values = PlaceholderValues::default();
                for ((name, _), value) in NAMED.iter().zip(named) {
                    values.insert(name.clone(), value).unwrap();
                }
                for (key, value) in customs {
                    values.insert(custom(&key), value).unwrap();
                }
                values
            },
        )
    }

    proptest! {
        #[test]
        fn values_cannot_inject_markup(
            values in any_values(),
            middle in "[a-z {}<>&]{0,30}",
        ) {
            let template = concat!(
                "<p title=\"{{fullName}}\">{{fullName}}MIDDLE{{email}}<b>{{ custom.a }}</b>",
                "{{company}}{{jobTitle}}{{date}}{{phoneNumber}}{{registrationNumber}}",
                "{{vatNumber}}{{address}}{{custom.b}}{{custom.abc}}</p>",
            );
            let content = html(&template.replace("MIDDLE", &middle));
            let rendered = render(&content, &values);
            prop_assert_eq!(rendered.matches('<').count(), content.as_str().matches('<').count());
            prop_assert_eq!(rendered.matches('>').count(), content.as_str().matches('>').count());
            prop_assert_eq!(rendered.matches('"').count(), content.as_str().matches('"').count());
            // The rendered text, sanitized again, keeps the same markup.
            let resanitized = sanitize(&rendered).unwrap();
            prop_assert_eq!(
                resanitized.as_str().matches('<').count(),
                content.as_str().matches('<').count()
            );
        }

        #[test]
        fn encoded_values_decode_to_the_values_used(values in any_values()) {
            // What a client sends: each value URL-encoded once, as the SDK does.
            let encode = |value: &str| {
                percent_encoding::utf8_percent_encode(value, percent_encoding::NON_ALPHANUMERIC).to_string()
            };
            let mut sent = serde_json::Map::new();
            let mut custom = serde_json::Map::new();
            for (name, value) in &values.values {
                match name {
                    PlaceholderName::Custom(key) => custom.insert(key.as_str().to_owned(), json!(encode(value))),
                    named => sent.insert(named.to_string(), json!(encode(value))),
                };
            }
            if !custom.is_empty() {
                sent.insert(CUSTOM_FIELD.to_owned(), Value::Object(custom));
            }
            let parsed = PlaceholderValues::from_json_object(&Value::Object(sent)).unwrap();
            prop_assert_eq!(parsed.to_canonical_json(), values.to_canonical_json());
            prop_assert_eq!(parsed, values);
        }

        #[test]
        fn parsing_arbitrary_json_text_never_panics(text in "\\PC{0,60}") {
            let _ = PlaceholderValues::from_json_text(&text);
            let _ = placeholders_in(&text);
        }

        #[test]
        fn rendering_with_no_placeholders_is_identity(text in "[^{]{0,60}") {
            let content = html(&text);
            prop_assert_eq!(render(&content, &PlaceholderValues::default()), content.as_str());
        }
    }
}
