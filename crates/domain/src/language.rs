//! Languages: the ones the service supports, what a client asks for, and the fallback between them.

use std::fmt;

/// The languages supported at launch. Template content is kept per language.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Language {
    English,
    German,
    French,
    Spanish,
    Chinese,
    Hindi,
    Russian,
}

impl Language {
    pub const ALL: [Language; 7] = [
        Language::English,
        Language::German,
        Language::French,
        Language::Spanish,
        Language::Chinese,
        Language::Hindi,
        Language::Russian,
    ];

    /// The ISO 639-1 code, as used in the API.
    pub const fn code(self) -> &'static str {
        match self {
            Language::English => "en",
            Language::German => "de",
            Language::French => "fr",
            Language::Spanish => "es",
            Language::Chinese => "zh",
            Language::Hindi => "hi",
            Language::Russian => "ru",
        }
    }

    /// A supported language by its code exactly as the API writes it (`de`; not `de-AT`, not `DE`).
    pub fn from_code(code: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|language| language.code() == code)
    }

    /// A supported language from a code (`de`) or a longer tag (`de-AT`, `zh-Hans-CN`), any case.
    pub fn from_tag(tag: &str) -> Result<Self, InvalidLanguage> {
        let primary = LanguageTag::parse(tag)?.primary;
        Self::ALL.into_iter().find(|language| language.code() == primary).ok_or(InvalidLanguage::Unsupported)
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidLanguage {
    #[error("language must be a language tag such as en or de-AT")]
    Malformed,
    #[error("language is not supported; supported: en, de, fr, es, zh, hi, ru")]
    Unsupported,
    #[error("language lists at most {MAX_PREFERENCES} tags")]
    TooMany,
}

/// A syntactically valid BCP 47-style tag, reduced to what the fallback needs: its primary subtag.
#[derive(Debug, Clone, PartialEq, Eq)]
struct LanguageTag {
    primary: String,
}

impl LanguageTag {
    fn parse(text: &str) -> Result<Self, InvalidLanguage> {
        let mut subtags = text.trim().split(['-', '_']);
        let primary = subtags.next().unwrap_or_default();
        let primary_ok = (2..=8).contains(&primary.len()) && primary.chars().all(|c| c.is_ascii_alphabetic());
        let rest_ok = subtags.all(|s| (1..=8).contains(&s.len()) && s.chars().all(|c| c.is_ascii_alphanumeric()));
        if primary_ok && rest_ok {
            Ok(Self { primary: primary.to_ascii_lowercase() })
        } else {
            Err(InvalidLanguage::Malformed)
        }
    }
}

/// How many tags a preference list may hold.
pub const MAX_PREFERENCES: usize = 16;

/// A client's ordered language wishes (`de-AT,de,en`). Unsupported but well-formed tags are kept
/// out silently: they simply never match.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LanguagePreference(Vec<Language>);

impl LanguagePreference {
    pub fn parse(text: &str) -> Result<Self, InvalidLanguage> {
        let tags: Vec<&str> = text.split(',').map(str::trim).filter(|t| !t.is_empty()).collect();
        if tags.len() > MAX_PREFERENCES {
            return Err(InvalidLanguage::TooMany);
        }
        let mut wanted = Vec::with_capacity(tags.len());
        for tag in tags {
            match Language::from_tag(tag) {
                Ok(language) if !wanted.contains(&language) => wanted.push(language),
                Ok(_) | Err(InvalidLanguage::Unsupported) => {}
                Err(other) => return Err(other),
            }
        }
        Ok(Self(wanted))
    }

    pub fn languages(&self) -> &[Language] {
        &self.0
    }

    /// The language to show: the first wished one that is available, then the template's default,
    /// then English, then whatever is available first. `None` only when nothing is available.
    pub fn resolve(&self, available: &[Language], default: Language) -> Option<Language> {
        self.0
            .iter()
            .copied()
            .chain([default, Language::English])
            .find(|language| available.contains(language))
            .or_else(|| available.first().copied())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Language::*;

    #[test]
    fn regional_tags_fall_back_to_their_language() {
        let wish = LanguagePreference::parse("de-AT, fr-CA ,en").unwrap();
        assert_eq!(wish.languages(), &[German, French, English]);
        assert_eq!(wish.resolve(&[English, French], English), Some(French));
    }

    #[test]
    fn falls_back_to_default_then_english_then_anything() {
        let wish = LanguagePreference::parse("ja,ko").unwrap();
        assert!(wish.languages().is_empty());
        assert_eq!(wish.resolve(&[Russian, German], German), Some(German));
        assert_eq!(wish.resolve(&[Russian, English], German), Some(English));
        assert_eq!(wish.resolve(&[Russian, Hindi], German), Some(Russian));
        assert_eq!(wish.resolve(&[], German), None);
    }

    #[test]
    fn rejects_malformed_tags_and_overlong_lists() {
        for bad in ["e", "en-", "123", "en us", "<script>", "de-AT,,x!"] {
            assert_eq!(LanguagePreference::parse(bad), Err(InvalidLanguage::Malformed), "{bad}");
        }
        assert_eq!(LanguagePreference::parse(&["en"; 17].join(",")), Err(InvalidLanguage::TooMany));
        assert_eq!(Language::from_tag("ja"), Err(InvalidLanguage::Unsupported));
        assert_eq!(Language::from_tag("ZH-hans-CN"), Ok(Chinese));
    }
}
