//! Template tags, used by operators to group templates and by clients to filter them.

use std::fmt;

pub const TAG_MAX_CHARS: usize = 64;

/// 1 to 64 characters, no white space, no control characters, no comma (tags travel in lists).
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tag(String);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a tag must be 1 to {TAG_MAX_CHARS} characters without spaces, commas or control characters")]
pub struct InvalidTag;

impl Tag {
    pub fn parse(text: &str) -> Result<Self, InvalidTag> {
        let count = text.chars().count();
        let clean = text.chars().all(|c| !c.is_whitespace() && !c.is_control() && c != ',');
        if (1..=TAG_MAX_CHARS).contains(&count) && clean { Ok(Self(text.to_owned())) } else { Err(InvalidTag) }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Tag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for Tag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Tag({:?})", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_plain_tags_and_rejects_the_rest() {
        assert_eq!(Tag::parse("terms-of-service").unwrap().as_str(), "terms-of-service");
        assert!(Tag::parse(&"x".repeat(64)).is_ok());
        for bad in ["", "two words", "a,b", "tab\t", &"x".repeat(65)] {
            assert_eq!(Tag::parse(bad), Err(InvalidTag), "{bad:?}");
        }
    }
}
