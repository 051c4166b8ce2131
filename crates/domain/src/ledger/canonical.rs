//! The JSON Canonicalization Scheme (RFC 8785) for the values the ledger hashes and signs, so that
//! anyone can rebuild the exact bytes from the JSON alone, in any language.
//!
//! Only the numbers the ledger's records hold are supported: integers of magnitude at most 2^53,
//! which every JSON implementation reads exactly and RFC 8785 prints as plain digits. Other numbers
//! (fractions, exponents, `-0`, larger integers) would need ECMAScript's shortest double formatting; they
//! are refused rather than printed in a way another implementation might not reproduce.

use std::fmt::Write as _;

use serde_json::{Map, Number, Value};

/// The largest integer magnitude that survives a round trip through an IEEE 754 double.
const MAX_EXACT_INTEGER: u64 = 1 << 53;

/// A value that has no canonical form here.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CanonicalJsonError {
    #[error("the number {0} is not an integer of magnitude at most 2^53, which is all the ledger canonicalizes")]
    UnsupportedNumber(String),
}

/// The RFC 8785 canonical form of `value`: no whitespace, object members sorted by the UTF-16 code
/// units of their names, strings escaped as ECMAScript's `JSON.stringify` escapes them.
pub fn canonical_json(value: &Value) -> Result<String, CanonicalJsonError> {
    let mut out = String::new();
    write_value(&mut out, value)?;
    Ok(out)
}

fn write_value(out: &mut String, value: &Value) -> Result<(), CanonicalJsonError> {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        Value::Number(number) => write_number(out, number)?,
        Value::String(text) => write_string(out, text),
        Value::Array(items) => {
            out.push('[');
            for (position, item) in items.iter().enumerate() {
                if position > 0 {
                    out.push(',');
                }
                write_value(out, item)?;
            }
            out.push(']');
        }
        Value::Object(members) => write_object(out, members)?,
    }
    Ok(())
}

fn write_object(out: &mut String, members: &Map<String, Value>) -> Result<(), CanonicalJsonError> {
    let mut sorted: Vec<(&String, &Value)> = members.iter().collect();
    // UTF-16 order differs from code point order above U+FFFF: surrogates (D800–DFFF) sort before
    // U+E000–U+FFFF.
    sorted.sort_by(|(a, _), (b, _)| a.encode_utf16().cmp(b.encode_utf16()));
    out.push('{');
    for (position, (name, value)) in sorted.into_iter().enumerate() {
        if position > 0 {
            out.push(',');
        }
        write_string(out, name);
        out.push(':');
        write_value(out, value)?;
    }
    out.push('}');
    Ok(())
}

fn write_number(out: &mut String, number: &Number) -> Result<(), CanonicalJsonError> {
    match number.as_i64() {
        Some(integer) if integer.unsigned_abs() <= MAX_EXACT_INTEGER => {
            // Writing to a String cannot fail.
            let _ = write!(out, "{integer}");
            Ok(())
        }
        _ => Err(CanonicalJsonError::UnsupportedNumber(number.to_string())),
    }
}

/// A JSON string as `JSON.stringify` writes it: only `"`, `\` and control characters are escaped.
fn write_string(out: &mut String, text: &str) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            control if u32::from(control) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(control));
            }
            other => out.push(other),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn canonical(text: &str) -> Result<String, CanonicalJsonError> {
        canonical_json(&serde_json::from_str(text).unwrap())
    }

    #[test]
    fn sorts_members_by_utf16_code_units() {
        // RFC 8785 §3.2.3: the emoji (a surrogate pair) sorts before U+FB33.
        let input = r#"{
            "\u20ac": "Euro Sign",
            "\r": "Carriage Return",
            "\ufb33": "Hebrew Letter Dalet With Dagesh",
            "1": "One",
            "\ud83d\ude00": "Emoji: Grinning Face",
            "\u0080": "Control",
            "\u00f6": "Latin Small Letter O With Diaeresis"
        }"#;
        let expected = concat!(
            r#"{"\r":"Carriage Return","1":"One","#,
            "\"\u{80}\":\"Control\",",
            "\"\u{f6}\":\"Latin Small Letter O With Diaeresis\",",
            "\"\u{20ac}\":\"Euro Sign\",",
            "\"\u{1f600}\":\"Emoji: Grinning Face\",",
            "\"\u{fb33}\":\"Hebrew Letter Dalet With Dagesh\"}",
        );
        assert_eq!(canonical(input).unwrap(), expected);
    }

    #[test]
    fn escapes_strings_as_json_stringify_does() {
        // RFC 8785 §3.2.2.2's string example.
        let input = r#"{"string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/"}"#;
        assert_eq!(canonical(input).unwrap(), "{\"string\":\"\u{20ac}$\\u000f\\nA'B\\\"\\\\\\\\\\\"/\"}");
        let controls: String = (0u8..0x20).map(char::from).collect();
        let expected = concat!(
            r#""\u0000\u0001\u0002\u0003\u0004\u0005\u0006\u0007\b\t\n\u000b\f\r\u000e\u000f"#,
            r#"\u0010\u0011\u0012\u0013\u0014\u0015\u0016\u0017\u0018\u0019\u001a\u001b\u001c\u001d\u001e\u001f""#,
        );
        assert_eq!(canonical_json(&Value::String(controls)).unwrap(), expected);
        // Everything else is literal UTF-8, including DEL, U+2028 and `/`.
        let literal = "\u{7f}\u{2028}\u{2029}/<>&é😀";
        assert_eq!(canonical_json(&json!(literal)).unwrap(), format!("\"{literal}\""));
    }

    #[test]
    fn writes_literals_arrays_and_nesting_without_whitespace() {
        // RFC 8785 §3.2.2.1's literals, and nested objects sorted at every level.
        let input = r#"{ "literals" : [null, true, false], "b": {"z": [], "a": {}}, "a": [ 1, -2, "x" ] }"#;
        assert_eq!(canonical(input).unwrap(), r#"{"a":[1,-2,"x"],"b":{"a":{},"z":[]},"literals":[null,true,false]}"#);
    }

    #[test]
    fn prints_integers_up_to_2_pow_53_and_refuses_other_numbers() {
        assert_eq!(
            canonical("[0, -1, 9007199254740992, -9007199254740992]").unwrap(),
            "[0,-1,9007199254740992,-9007199254740992]"
        );
        for unsupported in ["9007199254740993", "-9007199254740993", "18446744073709551615", "1.5", "1.0", "1e3", "-0"]
        {
            assert!(matches!(canonical(unsupported), Err(CanonicalJsonError::UnsupportedNumber(_))), "{unsupported}");
        }
        assert!(canonical(r#"{"deep": [{"n": 0.5}]}"#).is_err());
    }

    #[test]
    fn is_a_fixed_point() {
        let input = r#"{"b": "\u00e9\n", "a": [1, {"d": null, "c": true}]}"#;
        let once = canonical(input).unwrap();
        assert_eq!(canonical(&once).unwrap(), once);
    }
}
