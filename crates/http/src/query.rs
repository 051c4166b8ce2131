//! Query strings, parsed by hand so that every bad value is refused naming its parameter. A leaf:
//! it knows nothing of the rest of the crate, which answers a [`ParameterError`] as a 400 problem.

use std::fmt;
use std::str::FromStr;

/// A query parameter that is missing, repeated or malformed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{name}: {message}")]
pub(crate) struct ParameterError {
    pub(crate) name: String,
    pub(crate) message: String,
}

impl ParameterError {
    fn new(name: &str, message: impl fmt::Display) -> Self {
        Self { name: name.to_owned(), message: message.to_string() }
    }
}

type ParameterResult<T> = Result<T, ParameterError>;

/// The decoded parameters of a query string, in order.
#[derive(Debug, Clone, Default)]
pub(crate) struct QueryParams(Vec<(String, String)>);

impl QueryParams {
    pub(crate) fn parse(query: &str) -> Self {
        Self(form_urlencoded::parse(query.as_bytes()).into_owned().collect())
    }

    /// The parameter's value; given twice is an error (which one would count?).
    pub(crate) fn get(&self, name: &str) -> ParameterResult<Option<&str>> {
        let mut values = self.0.iter().filter(|(key, _)| key == name).map(|(_, value)| value.as_str());
        let first = values.next();
        if values.next().is_some() {
            return Err(ParameterError::new(name, "may be given only once"));
        }
        Ok(first)
    }

    pub(crate) fn require(&self, name: &str) -> ParameterResult<&str> {
        self.get(name)?.filter(|v| !v.is_empty()).ok_or_else(|| ParameterError::new(name, "is required"))
    }

    pub(crate) fn all(&self, name: &str) -> Vec<&str> {
        self.0.iter().filter(|(key, _)| key == name).map(|(_, value)| value.as_str()).collect()
    }

    /// Parses a present value with `parse`, naming the parameter in the error.
    pub(crate) fn parsed<T, E: std::fmt::Display>(
        &self,
        name: &str,
        parse: impl FnOnce(&str) -> Result<T, E>,
    ) -> ParameterResult<Option<T>> {
        self.get(name)?.map(|value| parse(value).map_err(|e| ParameterError::new(name, e))).transpose()
    }

    pub(crate) fn number<T: FromStr>(&self, name: &str) -> ParameterResult<Option<T>> {
        self.parsed(name, |v| v.parse::<T>().map_err(|_| "must be a whole number"))
    }
}

/// Whether credentials were put in the query string, where they leak into logs and histories: an
/// app's (`X-APP-ID`, `X-APP-KEY`, `appKey`) or an operator's (`access_token`, `token`,
/// `Authorization`, `operatorToken`), in any casing, with or without `-`/`_`. Reads only the
/// names, without collecting the parameters.
pub(crate) fn carries_credentials(query: &str) -> bool {
    form_urlencoded::parse(query.as_bytes()).any(|(key, _)| is_credential(&key))
}

/// A credential's name (`X-APP-KEY`, `appKey`, `access_token`, `Authorization`, …) in any casing.
/// Compared character by character, so a request's parameter names cost no allocation.
fn is_credential(name: &str) -> bool {
    const CREDENTIALS: [&str; 8] =
        ["xappid", "xappkey", "appkey", "accesstoken", "token", "authorization", "operatortoken", "bearer"];
    let folded = || name.chars().filter(|c| *c != '-' && *c != '_').flat_map(char::to_lowercase);
    CREDENTIALS.iter().any(|credential| folded().eq(credential.chars()))
}

#[cfg(test)]
mod tests {
    use super::{ParameterError, QueryParams, carries_credentials};

    #[test]
    fn credentials_are_found_by_name_in_any_spelling() {
        for query in [
            "appKey=k",
            "X-APP-KEY=k",
            "x_app_id=a",
            "APP_KEY=k",
            "access_token=t",
            "Authorization=Bearer%20t",
            "a=1&token=t",
        ] {
            assert!(carries_credentials(query), "{query}");
        }
        for query in ["", "limit=5", "appId=a", "nextPageCursor=token", "tokens=t", "app-key-id=k"] {
            assert!(!carries_credentials(query), "{query}");
        }
    }

    #[test]
    fn a_bad_parameter_is_named() {
        let query = QueryParams::parse("limit=x&limit=2&empty=");
        let named = |name: &str, message: &str| ParameterError { name: name.into(), message: message.into() };
        assert_eq!(query.get("limit"), Err(named("limit", "may be given only once")));
        assert_eq!(query.require("empty"), Err(named("empty", "is required")));
        assert_eq!(QueryParams::parse("n=x").number::<u32>("n"), Err(named("n", "must be a whole number")));
        assert_eq!(QueryParams::parse("n=7").number::<u32>("n"), Ok(Some(7)));
        assert_eq!(query.all("limit"), ["x", "2"]);
    }
}
