use std::fmt;

use time::Duration;

use crate::name::Name;
use crate::secrets::SecretHash;
use crate::webhooks::url::WebhookUrl;
use crate::{AppId, TenantId, Timestamp};

/// An integration of one tenant.
#[derive(Debug, Clone)]
pub struct App {
    pub id: AppId,
    pub tenant_id: TenantId,
    pub name: Name,
    /// Where `CLICKWRAP_EVENT_VERIFIED` goes; none means no webhook.
    pub webhook_url: Option<WebhookUrl>,
    /// The operator can pause delivery without losing events: deliveries are still recorded.
    pub webhook_enabled: bool,
    /// Empty means any origin may use the public client routes.
    pub allowed_origins: Vec<Origin>,
    pub app_key_hash: SecretHash,
    /// The App Key the last rotation replaced, while the overlap the operator chose lasts.
    pub previous_app_key: Option<PreviousAppKey>,
    /// The webhook signing secret, sealed with a server key (it must be readable to sign).
    pub webhook_secret_sealed: Vec<u8>,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
}

impl App {
    /// Whether a browser request from `origin` may use the public client routes.
    /// Requests without an `Origin` header (servers, native apps) are not restricted.
    pub fn allows_origin(&self, origin: Option<&str>) -> bool {
        match origin {
            None => true,
            Some(_) if self.allowed_origins.is_empty() => true,
            Some(text) => Origin::parse(text).is_ok_and(|origin| self.allowed_origins.contains(&origin)),
        }
    }

    /// Whether `key` opens this app at `now`: its App Key, or the one the last rotation replaced
    /// until that one expires. Both hashes are compared in constant time, also for a malformed key.
    pub fn accepts_app_key(&self, key: &str, now: Timestamp) -> bool {
        let current = self.app_key_hash.matches(key);
        let previous = self.previous_app_key.as_ref().is_some_and(|old| old.hash.matches(key) & (now < old.expires_at));
        current | previous
    }

    /// Additional authenticated data that binds a sealed secret to this app's row.
    pub fn secret_binding(&self) -> [u8; 16] {
        secret_binding(self.id)
    }
}

/// Additional authenticated data that binds a sealed secret to the row of app `id`.
pub fn secret_binding(id: AppId) -> [u8; 16] {
    *id.as_bytes()
}

/// A replaced App Key that still works until `expires_at`, so that backends can switch to the new
/// one without downtime.
#[derive(Debug, Clone, Copy)]
pub struct PreviousAppKey {
    pub hash: SecretHash,
    pub expires_at: Timestamp,
}

/// The longest an App Key may keep working after it was replaced.
pub const MAX_APP_KEY_OVERLAP: Duration = Duration::days(7);

/// How long a replaced App Key keeps working: zero (it fails at once) to [`MAX_APP_KEY_OVERLAP`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AppKeyOverlap(Duration);

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("a whole number of seconds from 0 to {} (7 days)", MAX_APP_KEY_OVERLAP.whole_seconds())]
pub struct InvalidAppKeyOverlap;

impl AppKeyOverlap {
    /// No overlap: the replaced key fails at once.
    pub const NONE: Self = Self(Duration::ZERO);

    pub fn from_secs(secs: i64) -> Result<Self, InvalidAppKeyOverlap> {
        let overlap = Duration::seconds(secs);
        if secs < 0 || overlap > MAX_APP_KEY_OVERLAP { Err(InvalidAppKeyOverlap) } else { Ok(Self(overlap)) }
    }

    pub fn duration(self) -> Duration {
        self.0
    }
}

/// At most this many allowed origins per app.
pub const MAX_ALLOWED_ORIGINS: usize = 50;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidOrigins {
    #[error("allowedOrigins[{index}]: {source}")]
    Invalid { index: usize, source: InvalidOrigin },
    #[error("allowedOrigins holds at most {MAX_ALLOWED_ORIGINS} origins")]
    TooMany,
}

/// Parses a list of origins, dropping repeats.
pub fn parse_origins<S: AsRef<str>>(origins: &[S]) -> Result<Vec<Origin>, InvalidOrigins> {
    if origins.len() > MAX_ALLOWED_ORIGINS {
        return Err(InvalidOrigins::TooMany);
    }
    let mut parsed: Vec<Origin> = Vec::with_capacity(origins.len());
    for (index, text) in origins.iter().enumerate() {
        let origin = Origin::parse(text.as_ref()).map_err(|source| InvalidOrigins::Invalid { index, source })?;
        if !parsed.contains(&origin) {
            parsed.push(origin);
        }
    }
    Ok(parsed)
}

/// A web origin: `scheme://host[:port]`, lowercase, no path.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Origin(String);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("an origin is scheme://host[:port] with scheme http or https and no path, like https://app.example.com")]
pub struct InvalidOrigin;

impl Origin {
    pub fn parse(text: &str) -> Result<Self, InvalidOrigin> {
        let lower = text.trim().to_ascii_lowercase();
        let rest = lower.strip_prefix("https://").or_else(|| lower.strip_prefix("http://")).ok_or(InvalidOrigin)?;
        let (host, port) = match rest.rsplit_once(':') {
            Some((host, port)) if !host.ends_with(']') || rest.starts_with('[') => (host, Some(port)),
            _ => (rest, None),
        };
        let host_ok = !host.is_empty()
            && host.len() <= 253
            && host.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '[' | ']' | ':'));
        let port_ok = port.is_none_or(|p| p.parse::<u16>().is_ok_and(|p| p > 0));
        if host_ok && port_ok { Ok(Self(lower)) } else { Err(InvalidOrigin) }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Origin({:?})", self.0)
    }
}

/// What an operator sends to change an app, parsed; `None` leaves a field as it is.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AppChanges {
    pub name: Option<Name>,
    /// `Some(None)` removes the webhook URL.
    pub webhook_url: Option<Option<WebhookUrl>>,
    pub webhook_enabled: Option<bool>,
    pub allowed_origins: Option<Vec<Origin>>,
}

/// One change to a stored app. The store writes only the fields it names, never a copy of the
/// whole app read earlier, so changes made at the same time never undo each other (a PATCH must
/// not bring back an App Key that was just replaced).
#[derive(Debug, Clone)]
pub enum AppUpdate {
    Settings(AppChanges),
    /// A new App Key. With `old_key_expires_at`, the key it replaces (whatever is current when
    /// the change is written) keeps working until then; without, it fails at once. Either way a
    /// key replaced by an earlier rotation stops.
    AppKey {
        hash: SecretHash,
        old_key_expires_at: Option<Timestamp>,
    },
    /// A new webhook signing secret, sealed.
    WebhookSecret {
        sealed: Vec<u8>,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn app_key_overlaps_are_zero_to_seven_days() {
        assert_eq!(AppKeyOverlap::from_secs(0), Ok(AppKeyOverlap::NONE));
        assert_eq!(AppKeyOverlap::from_secs(604_800).map(AppKeyOverlap::duration), Ok(Duration::days(7)));
        for bad in [-1, 604_801, i64::MAX, i64::MIN] {
            assert_eq!(AppKeyOverlap::from_secs(bad), Err(InvalidAppKeyOverlap), "{bad}");
        }
    }

    #[test]
    fn origins_are_normalised_and_paths_refused() {
        assert_eq!(Origin::parse("https://App.Example.com").unwrap().as_str(), "https://app.example.com");
        assert!(Origin::parse("http://localhost:3000").is_ok());
        for bad in ["", "app.example.com", "ftp://x", "https://", "https://x/path", "https://x:0", "https://x:99999"] {
            assert_eq!(Origin::parse(bad), Err(InvalidOrigin), "{bad}");
        }
    }
}
