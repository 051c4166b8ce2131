//! Query strings, parsed by hand so that every bad value gets a problem answer naming its parameter.

use std::str::FromStr;

use crate::problem::{ApiError, ApiResult};

/// The decoded parameters of a query string, in order.
#[derive(Debug, Clone, Default)]
pub(crate) struct QueryParams(Vec<(String, String)>);

impl QueryParams {
    pub(crate) fn parse(query: &str) -> Self {
        Self(form_urlencoded::parse(query.as_bytes()).into_owned().collect())
    }

    /// The parameter's value; given twice is an error (which one would count?).
    pub(crate) fn get(&self, name: &str) -> ApiResult<Option<&str>> {
        let mut values = self.0.iter().filter(|(key, _)| key == name).map(|(_, value)| value.as_str());
        let first = values.next();
        if values.next().is_some() {
            return Err(ApiError::invalid_field(name, "may be given only once"));
        }
        Ok(first)
    }

    pub(crate) fn require(&self, name: &str) -> ApiResult<&str> {
        self.get(name)?.filter(|v| !v.is_empty()).ok_or_else(|| ApiError::invalid_field(name, "is required"))
    }

    pub(crate) fn all(&self, name: &str) -> Vec<&str> {
        self.0.iter().filter(|(key, _)| key == name).map(|(_, value)| value.as_str()).collect()
    }

    /// Parses a present value with `parse`, naming the parameter in the error.
    pub(crate) fn parsed<T, E: std::fmt::Display>(
        &self,
        name: &str,
        parse: impl FnOnce(&str) -> Result<T, E>,
    ) -> ApiResult<Option<T>> {
        self.get(name)?.map(|value| parse(value).map_err(|e| ApiError::invalid_field(name, e))).transpose()
    }

    pub(crate) fn number<T: FromStr>(&self, name: &str) -> ApiResult<Option<T>> {
        self.parsed(name, |v| v.parse::<T>().map_err(|_| "must be a whole number"))
    }
}

/// Whether credentials were put in the query string, where they leak into logs and histories: an
/// app's (`X-APP-ID`, `X-APP-KEY`, `appKey`) or an operator's (`access_token`, `token`,
/// `Authorization`, `operatorToken`), in any casing, with or without `-`/`_`. Reads only the
/// names, without collecting the parameters.
pub(crate) fn carries_credentials(query: &str) -> bool {
    form_urlencoded::parse(query.as_bytes()).any(|(key, _)| {
        let folded: String = key.chars().filter(|c| *c != '-' && *c != '_').flat_map(char::to_lowercase).collect();
        matches!(
            folded.as_str(),
            "xappid" | "xappkey" | "appkey" | "accesstoken" | "token" | "authorization" | "operatortoken" | "bearer"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::carries_credentials;

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
        for query in ["", "limit=5", "appId=a", "nextPageCursor=token"] {
            assert!(!carries_credentials(query), "{query}");
        }
    }
}
