//! The content hash: which exact rendered text an end user was shown.
//!
//! The service returns it with the content, the client sends it back with the decision, and the
//! event stores it, so a record proves the text and not only a template version.

use std::fmt;

const PREFIX: &str = "sha256:";
const HEX_LEN: usize = 64;

/// `sha256:` and 64 lowercase hex digits: the SHA-256 of the rendered content's UTF-8 bytes.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct ContentHash(String);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a content hash is `sha256:` followed by 64 lowercase hexadecimal digits")]
pub struct InvalidContentHash;

impl ContentHash {
    pub fn of(rendered: &str) -> Self {
        let digest = ring::digest::digest(&ring::digest::SHA256, rendered.as_bytes());
        Self(format!("{PREFIX}{}", hex::encode(digest.as_ref())))
    }

    /// Strict: only the form [`ContentHash::of`] produces, so that equal hashes are equal strings.
    pub fn parse(text: &str) -> Result<Self, InvalidContentHash> {
        let digits = text.strip_prefix(PREFIX).ok_or(InvalidContentHash)?;
        let lower_hex = digits.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
        if digits.len() == HEX_LEN && lower_hex { Ok(Self(text.to_owned())) } else { Err(InvalidContentHash) }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for ContentHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for ContentHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ContentHash({})", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn known_answers() {
        // printf '%s' '<p>Hello Ada Lovelace</p>' | sha256sum
        assert_eq!(
            ContentHash::of("<p>Hello Ada Lovelace</p>").as_str(),
            "sha256:f99aa6cce14c4a5772ce83ba43417aa0bbb7c2cad5243f8aff2dbad9653c5a3a"
        );
        // printf '' | sha256sum
        assert_eq!(
            ContentHash::of("").as_str(),
            "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        // printf '%s' 'Grüße, 世界' | sha256sum  (UTF-8 bytes, not UTF-16 or Latin-1)
        assert_eq!(
            ContentHash::of("Grüße, 世界").as_str(),
            "sha256:49837434716aa6f6917104cbba82bd5b8e82a970ddc5bfef7bcc45e3d6ea60b6"
        );
    }

    #[test]
    fn parse_accepts_only_the_canonical_form() {
        let good = "sha256:2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824";
        assert_eq!(ContentHash::parse(good).unwrap(), ContentHash::of("hello"));
        let upper = good.to_uppercase();
        let bad = [
            "",
            "sha256:",
            "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824",
            "SHA256:2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824",
            "sha256:2CF24DBA5FB0A30E26E83B2AC5B9E29E1B161E5C1FA7425E73043362938B9824",
            "sha256:2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b982",
            "sha256:2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b98244",
            "sha256:2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b982g",
            " sha256:2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824",
            "sha512:2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824",
            "sha256:2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b98é",
            &upper,
        ];
        for text in bad {
            assert_eq!(ContentHash::parse(text), Err(InvalidContentHash), "{text:?}");
        }
    }

    proptest! {
        #[test]
        fn every_computed_hash_parses_back(content in any::<String>()) {
            let hash = ContentHash::of(&content);
            prop_assert_eq!(ContentHash::parse(hash.as_str()), Ok(hash.clone()));
        }
    }
}
