//! The operator's identifier of an end user.

use std::fmt;

/// At most this many characters (the spec's limit).
pub const END_USER_ID_MAX_CHARS: usize = 256;

/// An end user id: 1 to 256 characters, none of them a control character. Scoped to a tenant.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EndUserId(String);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidEndUserId {
    #[error("endUserId must not be empty")]
    Empty,
    #[error("endUserId must be at most {END_USER_ID_MAX_CHARS} characters")]
    TooLong,
    #[error("endUserId must not contain control characters")]
    ControlCharacter,
}

impl EndUserId {
    pub fn parse(text: &str) -> Result<Self, InvalidEndUserId> {
        if text.is_empty() {
            return Err(InvalidEndUserId::Empty);
        }
        if text.chars().count() > END_USER_ID_MAX_CHARS {
            return Err(InvalidEndUserId::TooLong);
        }
        if text.chars().any(char::is_control) {
            return Err(InvalidEndUserId::ControlCharacter);
        }
        Ok(Self(text.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for EndUserId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for EndUserId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "EndUserId({:?})", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn limits_are_in_characters_not_bytes() {
        assert!(EndUserId::parse(&"ü".repeat(256)).is_ok());
        assert_eq!(EndUserId::parse(&"a".repeat(257)), Err(InvalidEndUserId::TooLong));
        assert_eq!(EndUserId::parse(""), Err(InvalidEndUserId::Empty));
        assert_eq!(EndUserId::parse("a\u{0}b"), Err(InvalidEndUserId::ControlCharacter));
        assert_eq!(EndUserId::parse("line\nbreak"), Err(InvalidEndUserId::ControlCharacter));
    }

    proptest! {
        #[test]
        fn accepts_exactly_the_valid_ids(text in "\\PC{0,300}|[\\x00-\\x1f]{1,3}") {
            let valid = !text.is_empty() && text.chars().count() <= 256 && !text.chars().any(char::is_control);
            let parsed = EndUserId::parse(&text);
            prop_assert_eq!(parsed.is_ok(), valid);
            if let Ok(id) = parsed {
                prop_assert_eq!(id.as_str(), text.as_str());
            }
        }
    }
}
