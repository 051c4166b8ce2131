//! Display names of tenants, apps and templates.

use std::fmt;

pub const NAME_MAX_CHARS: usize = 200;

/// 1 to 200 characters after trimming, no control characters.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Name(String);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("name must be 1 to {NAME_MAX_CHARS} characters without control characters")]
pub struct InvalidName;

impl Name {
    pub fn parse(text: &str) -> Result<Self, InvalidName> {
        let trimmed = text.trim();
        let count = trimmed.chars().count();
        if (1..=NAME_MAX_CHARS).contains(&count) && !trimmed.chars().any(char::is_control) {
            Ok(Self(trimmed.to_owned()))
        } else {
            Err(InvalidName)
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Name({:?})", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trims_and_bounds() {
        assert_eq!(Name::parse("  Terms of Service ").unwrap().as_str(), "Terms of Service");
        assert!(Name::parse(&"n".repeat(200)).is_ok());
        for bad in ["", "   ", "a\u{7}b", &"n".repeat(201)] {
            assert_eq!(Name::parse(bad), Err(InvalidName), "{bad:?}");
        }
    }
}
