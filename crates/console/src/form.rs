//! Submitted forms (`application/x-www-form-urlencoded`), read by name; a field may repeat
//! (checkbox groups).

use clickwrap_domain::Timestamp;

use crate::error::ConsoleError;

/// The fields of a submitted form, in order.
#[derive(Debug, Default)]
pub(crate) struct Form(Vec<(String, String)>);

impl Form {
    pub(crate) fn parse(body: &[u8]) -> Self {
        Self(form_urlencoded::parse(body).map(|(k, v)| (k.into_owned(), v.into_owned())).collect())
    }

    /// The first value of `name`, if present.
    pub(crate) fn get(&self, name: &str) -> Option<&str> {
        self.0.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    /// The first value of `name`, trimmed; empty when absent.
    pub(crate) fn text(&self, name: &str) -> &str {
        self.get(name).map_or("", str::trim)
    }

    /// The value trimmed, or `None` when absent or blank.
    pub(crate) fn optional(&self, name: &str) -> Option<&str> {
        Some(self.text(name)).filter(|v| !v.is_empty())
    }

    /// Whether a checkbox named `name` was ticked.
    pub(crate) fn checked(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// Every value of `name`.
    pub(crate) fn all(&self, name: &str) -> Vec<&str> {
        self.0.iter().filter(|(k, _)| k == name).map(|(_, v)| v.as_str()).collect()
    }

    /// Every field whose name starts with `prefix`, with the prefix removed.
    pub(crate) fn with_prefix<'a>(&'a self, prefix: &'a str) -> impl Iterator<Item = (&'a str, &'a str)> + 'a {
        self.0.iter().filter_map(move |(k, v)| k.strip_prefix(prefix).map(|rest| (rest, v.as_str())))
    }
}

/// A `datetime-local` value (`2026-12-01T09:30`, seconds optional), read as UTC; `label` names
/// the field in the message.
pub(crate) fn utc_datetime(text: &str, label: &str) -> Result<Timestamp, ConsoleError> {
    let rfc3339 = if text.len() == 16 { format!("{text}:00Z") } else { format!("{text}Z") };
    Timestamp::parse_rfc3339(&rfc3339)
        .map_err(|_| ConsoleError::Invalid(format!("{label}: give a date and time like 2026-12-01 09:30 (UTC).")))
}

/// The lines of a textarea, trimmed, blank ones left out.
pub(crate) fn lines(text: &str) -> Vec<String> {
    text.lines().map(str::trim).filter(|l| !l.is_empty()).map(str::to_owned).collect()
}

/// Comma-separated values, trimmed, blank ones left out.
pub(crate) fn comma_list(text: &str) -> Vec<String> {
    text.split(',').map(str::trim).filter(|t| !t.is_empty()).map(str::to_owned).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_read_by_name_and_repeat() {
        let form = Form::parse(b"name=+Web+shop+&app_ids=a&app_ids=b&texts.de.title=Hallo&empty=");
        assert_eq!(form.text("name"), "Web shop");
        assert_eq!(form.all("app_ids"), vec!["a", "b"]);
        assert_eq!(form.optional("empty"), None);
        assert!(form.checked("empty"));
        assert!(!form.checked("missing"));
        assert_eq!(form.with_prefix("texts.").collect::<Vec<_>>(), vec![("de.title", "Hallo")]);
        assert_eq!(lines(" https://a.example \n\n https://b.example"), vec!["https://a.example", "https://b.example"]);
        assert_eq!(comma_list("legal, , terms"), vec!["legal", "terms"]);
    }
}
