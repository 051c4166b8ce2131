//! How a template's dialog looks and reads: agreement mode, theme, buttons, logo and texts per language.

use std::collections::BTreeMap;

use crate::Language;

/// How the end user shows agreement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AgreementMode {
    /// Accept is enabled once the content has been scrolled to the end.
    #[default]
    Scroll,
    /// A consent checkbox must be ticked.
    Checkbox,
}

impl AgreementMode {
    pub const fn as_str(self) -> &'static str {
        match self {
            AgreementMode::Scroll => "SCROLL",
            AgreementMode::Checkbox => "CHECKBOX",
        }
    }

    /// `SCROLL` / `CHECKBOX`, any case (the SDK's deprecated option is written lowercase).
    pub fn parse(text: &str) -> Option<Self> {
        match text.to_ascii_uppercase().as_str() {
            "SCROLL" => Some(AgreementMode::Scroll),
            "CHECKBOX" => Some(AgreementMode::Checkbox),
            _ => None,
        }
    }
}

/// A CSS colour written `#rgb` or `#rrggbb`: nothing else can reach a style sheet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Color(String);

impl Color {
    pub fn parse(text: &str) -> Result<Self, InvalidCustomization> {
        let hex = text.strip_prefix('#').ok_or(InvalidCustomization::Color)?;
        if matches!(hex.len(), 3 | 6) && hex.chars().all(|c| c.is_ascii_hexdigit()) {
            Ok(Self(text.to_ascii_lowercase()))
        } else {
            Err(InvalidCustomization::Color)
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ButtonStyle {
    #[default]
    Filled,
    Outlined,
    Text,
}

impl ButtonStyle {
    pub const fn as_str(self) -> &'static str {
        match self {
            ButtonStyle::Filled => "FILLED",
            ButtonStyle::Outlined => "OUTLINED",
            ButtonStyle::Text => "TEXT",
        }
    }

    pub fn parse(text: &str) -> Result<Self, InvalidCustomization> {
        match text.to_ascii_uppercase().as_str() {
            "FILLED" => Ok(ButtonStyle::Filled),
            "OUTLINED" => Ok(ButtonStyle::Outlined),
            "TEXT" => Ok(ButtonStyle::Text),
            _ => Err(InvalidCustomization::ButtonStyle),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Theme {
    pub primary_color: Option<Color>,
    pub background_color: Option<Color>,
    pub text_color: Option<Color>,
    /// Pixels, 0 to 48.
    pub border_radius: Option<u8>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Buttons {
    pub accept_style: ButtonStyle,
    pub decline_style: ButtonStyle,
    /// Whether a Decline button is shown at all.
    pub show_decline: bool,
}

/// Text overrides for one language; a missing one falls back to the built-in wording.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TextOverrides {
    pub title: Option<String>,
    pub accept_button: Option<String>,
    pub decline_button: Option<String>,
    pub checkbox_label: Option<String>,
    pub version_label: Option<String>,
}

/// Texts as the dialog shows them in one language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DialogTexts {
    pub title: String,
    pub accept_button: String,
    pub decline_button: String,
    pub checkbox_label: String,
    pub version_label: String,
}

pub const TEXT_MAX_CHARS: usize = 200;
pub const BORDER_RADIUS_MAX: u8 = 48;
pub const LOGO_URL_MAX_CHARS: usize = 2048;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Customizations {
    pub agreement_mode: AgreementMode,
    pub theme: Theme,
    pub buttons: Buttons,
    /// An https image URL.
    pub logo_url: Option<String>,
    pub texts: BTreeMap<Language, TextOverrides>,
}

impl Default for Customizations {
    fn default() -> Self {
        Self {
            agreement_mode: AgreementMode::Scroll,
            theme: Theme::default(),
            buttons: Buttons { show_decline: true, ..Buttons::default() },
            logo_url: None,
            texts: BTreeMap::new(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidCustomization {
    #[error("colors are written #rgb or #rrggbb")]
    Color,
    #[error("borderRadius must be 0 to {BORDER_RADIUS_MAX} pixels")]
    BorderRadius,
    #[error("button styles are FILLED, OUTLINED or TEXT")]
    ButtonStyle,
    #[error("logoUrl must be an https URL of at most {LOGO_URL_MAX_CHARS} characters")]
    LogoUrl,
    #[error("texts are plain text of at most {TEXT_MAX_CHARS} characters")]
    Text,
}

impl Customizations {
    pub fn parse_border_radius(value: u64) -> Result<u8, InvalidCustomization> {
        u8::try_from(value).ok().filter(|r| *r <= BORDER_RADIUS_MAX).ok_or(InvalidCustomization::BorderRadius)
    }

    pub fn parse_logo_url(text: &str) -> Result<String, InvalidCustomization> {
        let rest = text.strip_prefix("https://").ok_or(InvalidCustomization::LogoUrl)?;
        let clean = !rest.is_empty()
            && text.chars().count() <= LOGO_URL_MAX_CHARS
            && !text
                .chars()
                .any(|c| c.is_whitespace() || c.is_control() || matches!(c, '"' | '\'' | '<' | '>' | '\\' | '`'));
        if clean { Ok(text.to_owned()) } else { Err(InvalidCustomization::LogoUrl) }
    }

    /// Texts are shown as text, never as markup; this only bounds them.
    pub fn parse_text(text: &str) -> Result<String, InvalidCustomization> {
        let count = text.chars().count();
        if (1..=TEXT_MAX_CHARS).contains(&count) && !text.chars().any(char::is_control) {
            Ok(text.to_owned())
        } else {
            Err(InvalidCustomization::Text)
        }
    }

    /// The dialog's texts in `language`: the operator's override where given, else the built-in wording.
    pub fn texts_for(&self, language: Language) -> DialogTexts {
        let builtin = builtin_texts(language);
        let overrides = self.texts.get(&language);
        let pick = |chosen: Option<&Option<String>>, fallback: &str| {
            chosen.and_then(Option::as_ref).map_or_else(|| fallback.to_owned(), Clone::clone)
        };
        DialogTexts {
            title: pick(overrides.map(|o| &o.title), builtin.0),
            accept_button: pick(overrides.map(|o| &o.accept_button), builtin.1),
            decline_button: pick(overrides.map(|o| &o.decline_button), builtin.2),
            checkbox_label: pick(overrides.map(|o| &o.checkbox_label), builtin.3),
            version_label: pick(overrides.map(|o| &o.version_label), builtin.4),
        }
    }
}

/// (title, accept, decline, checkbox label, version label) in each launch language.
fn builtin_texts(language: Language) -> (&'static str, &'static str, &'static str, &'static str, &'static str) {
    match language {
        Language::English => {
            ("Please review and accept", "Accept", "Decline", "I have read and agree to the terms", "Version")
        }
        Language::German => (
            "Bitte lesen und akzeptieren",
            "Akzeptieren",
            "Ablehnen",
            "Ich habe die Bedingungen gelesen und stimme zu",
            "Version",
        ),
        Language::French => {
            ("Veuillez lire et accepter", "Accepter", "Refuser", "J'ai lu et j'accepte les conditions", "Version")
        }
        Language::Spanish => ("Lea y acepte", "Aceptar", "Rechazar", "He leído y acepto los términos", "Versión"),
        Language::Chinese => ("请阅读并接受", "接受", "拒绝", "我已阅读并同意这些条款", "版本"),
        Language::Hindi => ("कृपया पढ़ें और स्वीकार करें", "स्वीकार करें", "अस्वीकार करें", "मैंने शर्तें पढ़ ली हैं और मैं सहमत हूँ", "संस्करण"),
        Language::Russian => (
            "Пожалуйста, прочитайте и примите",
            "Принять",
            "Отклонить",
            "Я прочитал(а) условия и согласен(на)",
            "Версия",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_that_reach_styles_are_bounded() {
        assert_eq!(Color::parse("#1A2b3C").unwrap().as_str(), "#1a2b3c");
        assert!(Color::parse("#abc").is_ok());
        for bad in ["red", "#abcd", "#12345g", "#123456;background:url(x)", ""] {
            assert_eq!(Color::parse(bad), Err(InvalidCustomization::Color), "{bad}");
        }
        assert_eq!(Customizations::parse_border_radius(48), Ok(48));
        assert_eq!(Customizations::parse_border_radius(49), Err(InvalidCustomization::BorderRadius));
        assert!(Customizations::parse_logo_url("https://cdn.example.com/logo.png").is_ok());
        for bad in ["http://x/logo.png", "javascript:alert(1)", "https://x/\"onerror=", "https://"] {
            assert_eq!(Customizations::parse_logo_url(bad), Err(InvalidCustomization::LogoUrl), "{bad}");
        }
    }

    #[test]
    fn texts_fall_back_per_field_to_the_builtin_wording() {
        let mut custom = Customizations::default();
        custom.texts.insert(
            Language::German,
            TextOverrides { accept_button: Some("Einverstanden".into()), ..Default::default() },
        );
        let de = custom.texts_for(Language::German);
        assert_eq!(de.accept_button, "Einverstanden");
        assert_eq!(de.decline_button, "Ablehnen");
        assert_eq!(custom.texts_for(Language::English).accept_button, "Accept");
        for language in Language::ALL {
            let texts = Customizations::default().texts_for(language);
            assert!(!texts.title.is_empty() && !texts.checkbox_label.is_empty());
        }
    }
}
