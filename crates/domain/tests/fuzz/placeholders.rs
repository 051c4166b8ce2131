//! Placeholder values as clients send them (`templatePlaceholders`, URL-encoded once), placeholder
//! names in content, and rendering: values decode to exactly what was encoded, any JSON is either
//! read or refused as the rules say, and no value can bring markup into the rendered content.

use std::collections::BTreeMap;

use clickwrap_domain::content::placeholders::{CustomKey, PlaceholderName, PlaceholderValues, placeholders_in, render};
use clickwrap_domain::content::sanitize::sanitize;
use proptest::prelude::*;
use serde_json::{Map, Value, json};

use crate::sanitizer::{script_vectors, vectors};
use crate::support::{cases, hostile_text};

const NAMED: [&str; 9] =
    ["fullName", "email", "company", "jobTitle", "date", "phoneNumber", "registrationNumber", "vatNumber", "address"];

/// Percent-encodes every `%` and, where `encode` says so, any other character, each byte with
/// upper- or lowercase hex digits as `upper` says: every way a client may encode a value once.
fn percent_encoded(value: &str, encode: &[bool], upper: &[bool]) -> String {
    let mut out = String::new();
    for (i, c) in value.chars().enumerate() {
        if c == '%' || encode.get(i % encode.len().max(1)).copied().unwrap_or(true) {
            let mut bytes = [0; 4];
            for &byte in c.encode_utf8(&mut bytes).as_bytes() {
                let hex = format!("%{byte:02x}");
                let hex =
                    if upper.get(i % upper.len().max(1)).copied().unwrap_or(false) { hex.to_uppercase() } else { hex };
                out.push_str(&hex);
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// The rule a value follows on the way in: percent-decoded once, or kept as given when what it
/// decodes to is not UTF-8.
fn decoded_once(value: &str) -> String {
    percent_encoding::percent_decode_str(value)
        .decode_utf8()
        .map(|v| v.into_owned())
        .unwrap_or_else(|_| value.to_owned())
}

fn valid_custom_key(key: &str) -> bool {
    (1..=64).contains(&key.len()) && key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// What `from_json_object` must make of `json`: the values it holds, or `None` for a refusal.
fn expected_values(json: &Value) -> Option<BTreeMap<String, String>> {
    let object = match json {
        Value::Null => return Some(BTreeMap::new()),
        Value::Object(object) => object,
        _ => return None,
    };
    let mut values = BTreeMap::new();
    let mut add = |name: String, value: &Value| -> Option<()> {
        match value {
            Value::Null => Some(()),
            Value::String(text) => {
                let text = decoded_once(text);
                let fresh = values.insert(name.clone(), text.clone()).is_none();
                (text.chars().count() <= 1000 && (fresh || !name.starts_with("custom."))).then_some(())
            }
            _ => None,
        }
    };
    for (field, value) in object {
        if field == "customPlaceholders" {
            match value {
                Value::Null => {}
                Value::Object(map) => {
                    for (key, value) in map {
                        valid_custom_key(key).then_some(())?;
                        add(format!("custom.{key}"), value)?;
                    }
                }
                _ => return None,
            }
        } else if (1..=10).any(|n| *field == format!("custom{n}")) {
            add(format!("custom.{field}"), value)?;
        } else if NAMED.contains(&field.as_str()) {
            add(field.clone(), value)?;
        } else {
            return None;
        }
    }
    (values.keys().filter(|name| name.starts_with("custom.")).count() <= 50).then_some(values)
}

/// Placeholder values: short, URL-encoded, far too long once decoded, or not text at all.
fn json_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        6 => "\\PC{0,12}".prop_map(Value::from),
        2 => (".{0,12}", prop::collection::vec(any::<bool>(), 1..4), prop::collection::vec(any::<bool>(), 1..3))
            .prop_map(|(v, encode, upper)| Value::from(percent_encoded(&v, &encode, &upper))),
        1 => prop::sample::select(vec![998usize, 1000, 1001, 2000]).prop_map(|n| Value::from("é".repeat(n))),
        // 3001 characters that decode to 1000 or 1001.
        1 => prop::sample::select(vec![333usize, 334]).prop_map(|n| Value::from(format!("{}x", "%41%42%43".repeat(n)))),
        2 => Just(Value::Null),
        1 => prop_oneof![Just(json!(1)), Just(json!(true)), Just(json!([])), Just(json!({})), Just(json!(["x"]))],
    ]
}

fn custom_key() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "[A-Za-z0-9_]{1,6}",
        1 => Just("custom1".to_owned()),
        1 => prop::sample::select(vec!["", "a b", "a.b", "a-b", "ä", "k\u{0}"]).prop_map(str::to_owned),
        1 => prop::sample::select(vec![64usize, 65]).prop_map(|n| "k".repeat(n)),
    ]
}

fn field_name() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => prop::sample::select(NAMED.to_vec()).prop_map(str::to_owned),
        2 => (1u8..=11).prop_map(|n| format!("custom{n}")),
        1 => prop::sample::select(vec!["custom0", "FullName", "fullname", "custom", "", "__proto__"]).prop_map(str::to_owned),
    ]
}

/// Objects shaped like `templatePlaceholders`, with every kind of mistake mixed in now and then.
fn placeholder_json() -> impl Strategy<Value = Value> {
    let custom_map = prop_oneof![
        5 => prop::collection::btree_map(custom_key(), json_value(), 0..6)
            .prop_map(|map| Value::Object(map.into_iter().collect())),
        1 => (45usize..56).prop_map(|n| Value::Object((0..n).map(|i| (format!("k{i}"), json!("v"))).collect())),
        1 => Just(Value::Null),
        1 => Just(json!("x")),
        1 => Just(json!([])),
    ];
    let object = (prop::collection::btree_map(field_name(), json_value(), 0..8), prop::option::of(custom_map))
        .prop_map(|(fields, custom)| {
            let mut object: Map<String, Value> = fields.into_iter().collect();
            if let Some(custom) = custom {
                object.insert("customPlaceholders".into(), custom);
            }
            Value::Object(object)
        });
    prop_oneof![8 => object, 1 => Just(Value::Null), 1 => Just(json!([])), 1 => Just(json!("text")), 1 => Just(json!(7))]
}

fn name_of(text: &str) -> PlaceholderName {
    PlaceholderName::parse(text).unwrap()
}

proptest! {
    #![proptest_config(cases(256))]

    #[test]
    fn any_json_is_read_or_refused_as_the_rules_say(json in placeholder_json()) {
        let parsed = PlaceholderValues::from_json_object(&json);
        match expected_values(&json) {
            None => prop_assert!(parsed.is_err(), "accepted {}", json),
            Some(expected) => {
                let values = parsed.map_err(|e| TestCaseError::fail(format!("{e} for {json}")))?;
                prop_assert_eq!(values.is_empty(), expected.is_empty());
                for (name, value) in &expected {
                    prop_assert_eq!(values.get(&name_of(name)), Some(value.as_str()), "{}", name);
                }
                // Through the query form too: the same JSON as text gives the same values.
                prop_assert_eq!(PlaceholderValues::from_json_text(&json.to_string()), Ok(values));
            }
        }
    }

    #[test]
    fn a_value_encoded_once_in_any_way_decodes_to_itself(
        value in "\\PC{0,30}",
        encode in prop::collection::vec(any::<bool>(), 1..5),
        upper in prop::collection::vec(any::<bool>(), 1..3),
        key in "[A-Za-z0-9_]{1,8}",
    ) {
        let sent = percent_encoded(&value, &encode, &upper);
        let json = json!({"fullName": sent, "customPlaceholders": {&key: sent}});
        let values = PlaceholderValues::from_json_text(&json.to_string()).unwrap();
        prop_assert_eq!(values.get(&PlaceholderName::FullName), Some(value.as_str()));
        prop_assert_eq!(values.get(&PlaceholderName::Custom(CustomKey::parse(&key).unwrap())), Some(value.as_str()));
    }

    #[test]
    fn a_value_is_decoded_once_and_only_once(value in "\\PC{1,20}") {
        // Encoded twice, it decodes to the once-encoded text, not to the value.
        let once = percent_encoded(&value, &[true], &[true]);
        let twice = percent_encoded(&once, &[false], &[true]);
        let values = PlaceholderValues::from_json_object(&json!({"email": twice})).unwrap();
        prop_assert_eq!(values.get(&PlaceholderName::Email), Some(once.as_str()));
    }

    #[test]
    fn a_value_that_was_never_encoded_is_kept(value in "([^%]|%[^%0-9A-Fa-f]|%[0-9A-Fa-f][^%0-9A-Fa-f]){0,20}%?") {
        let values = PlaceholderValues::from_json_object(&json!({"address": value})).unwrap();
        prop_assert_eq!(values.get(&PlaceholderName::Address), Some(value.as_str()));
    }

    #[test]
    fn canonical_json_is_stable_and_holds_every_value(json in placeholder_json()) {
        let Ok(values) = PlaceholderValues::from_json_object(&json) else { return Ok(()) };
        let Some(canonical) = values.to_canonical_json() else {
            prop_assert!(values.is_empty());
            return Ok(());
        };
        let reread: Value = serde_json::from_str(&canonical).unwrap();
        let expected = expected_values(&json).unwrap();
        for (name, value) in &expected {
            let field = match name.strip_prefix("custom.") {
                Some(key) => &reread["customPlaceholders"][key],
                None => &reread[name],
            };
            prop_assert_eq!(field.as_str(), Some(value.as_str()), "{} in {}", name, canonical);
        }
        // The same values given in another order make the same text.
        let reordered = PlaceholderValues::from_json_object(&Value::Object(
            json.as_object().unwrap().iter().rev().map(|(k, v)| (k.clone(), v.clone())).collect(),
        ));
        prop_assert_eq!(reordered.ok().and_then(|v| v.to_canonical_json()), Some(canonical));
    }

    #[test]
    fn any_text_is_read_or_refused_as_placeholder_values_without_panicking(text in hostile_text()) {
        let parsed = PlaceholderValues::from_json_text(&text);
        if let Ok(json) = serde_json::from_str::<Value>(&text) {
            prop_assert_eq!(parsed.is_ok(), expected_values(&json).is_some());
        } else {
            prop_assert!(parsed.is_err());
        }
    }

    #[test]
    fn placeholder_names_print_and_parse_back(
        named in prop::sample::select(NAMED.to_vec()),
        key in "[A-Za-z0-9_]{1,64}",
        spaces in (0usize..3, 0usize..3),
    ) {
        for name in [name_of(named), PlaceholderName::Custom(CustomKey::parse(&key).unwrap())] {
            prop_assert_eq!(PlaceholderName::parse(&name.to_string()), Ok(name.clone()));
            let spaced = format!("{{{{{}{name}{}}}}}", " ".repeat(spaces.0), " ".repeat(spaces.1));
            prop_assert_eq!(placeholders_in(&name.as_template_text()), Ok(vec![name.clone()]));
            prop_assert_eq!(placeholders_in(&spaced), Ok(vec![name]));
        }
    }

    #[test]
    fn finding_placeholders_in_any_content_never_panics(text in hostile_text(), inner in "[^{}<>\\n\\r]{0,110}") {
        let _ = placeholders_in(&text);
        let braced = format!("{text}{{{{{inner}}}}}{text}");
        match placeholders_in(&braced) {
            Ok(names) => {
                for name in names {
                    prop_assert!(braced.contains(&name.to_string()));
                }
            }
            Err(unknown) => {
                prop_assert!(!unknown.names.is_empty());
                for name in unknown.names {
                    prop_assert!(PlaceholderName::parse(&name).is_err());
                }
            }
        }
    }

    #[test]
    fn no_value_brings_markup_into_rendered_content(
        markup in prop::collection::vec(prop::sample::select(CONTENT_WITH_PLACEHOLDERS), 1..12),
        vectors in prop::collection::vec(prop::sample::select(vectors()), 10),
        encode in prop::collection::vec(any::<bool>(), 1..4),
    ) {
        let content = sanitize(&markup.concat()).unwrap();
        let mut sent = Map::new();
        for (name, vector) in ["fullName", "email", "company", "jobTitle", "date"].iter().zip(&vectors) {
            sent.insert((*name).into(), json!(percent_encoded(vector, &encode, &[true])));
        }
        sent.insert("customPlaceholders".into(), json!({"a": vectors[5], "url": vectors[6], "id": vectors[7]}));
        let values = PlaceholderValues::from_json_object(&Value::Object(sent)).unwrap();
        let rendered = render(&content, &values);
        let problems = script_vectors(&rendered);
        prop_assert!(problems.is_empty(), "{:?}\n content: {:?}\nrendered: {:?}", problems, content, rendered);
        // The markup is the content's own: a value adds no tag.
        prop_assert_eq!(rendered.matches('<').count(), content.as_str().matches('<').count());
    }
}

/// Content with placeholders in text, in attribute values and inside URLs.
#[rustfmt::skip]
const CONTENT_WITH_PLACEHOLDERS: &[&str] = &[
    "<p>", "</p>", "{{fullName}}", "{{ email }}", "<b>{{company}}</b>", "<p title=\"{{jobTitle}}\">",
    "<a href=\"https://example.com/u/{{custom.id}}?d={{date}}\" title=\"{{fullName}}\">", "</a>",
    "<a href=\"{{custom.url}}\">", "<a href=\"mailto:{{email}}\">", "<a href=\"java{{custom.a}}script:x\">",
    "<a href=\"{{custom.a}}:alert(1)\">", "<pre>{{custom.a}}</pre>", "<td>{{date}}</td>", "{{{custom.a}}}",
    "<code>{{ custom.url }}</code>", "text", "&amp;",
];

#[test]
fn a_placeholder_cannot_choose_a_link_scheme() {
    let content = sanitize("<a href=\"{{custom.url}}\">x</a><a href=\"{{custom.s}}:alert(1)\">y</a>").unwrap();
    let values = PlaceholderValues::from_json_object(
        &json!({"customPlaceholders": {"url": "javascript:alert(1)", "s": "javascript"}}),
    )
    .unwrap();
    let rendered = render(&content, &values);
    assert!(!rendered.contains("href"), "{rendered}");
}
