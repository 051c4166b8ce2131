//! Fixed-window rate limiting: one counter per (app, client IP, route group, window), which several
//! server instances share through the database; each counts in memory and adds its hits to the
//! shared counts in batches ([`crate::limits::counter`]).

use time::Duration;

use crate::{AppId, Timestamp};

/// Which limit a request counts against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RateLimitedRoute {
    Verify,
    ClickwrapCheck,
    /// `POST /clickwrap`: counted apart from the check that comes before it, under the same limit.
    ClickwrapRecord,
    Customizations,
}

impl RateLimitedRoute {
    pub const fn as_str(self) -> &'static str {
        match self {
            RateLimitedRoute::Verify => "verify",
            RateLimitedRoute::ClickwrapCheck => "clickwrap",
            RateLimitedRoute::ClickwrapRecord => "clickwrap-record",
            RateLimitedRoute::Customizations => "customizations",
        }
    }
}

/// Whose requests are counted together.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RateLimitKey {
    pub app_id: AppId,
    /// The client IP as text (v4 or v6), after trusted-proxy resolution.
    pub client_ip: String,
    pub route: RateLimitedRoute,
}

/// Hits of one key in one window that an instance counted and had not yet added to the shared count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WindowHits {
    pub key: RateLimitKey,
    pub window_start: Timestamp,
    pub hits: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimitPolicy {
    pub limit: u64,
    pub window: Duration,
}

/// The outcome of counting one request, with what the `RateLimit-*` headers show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateDecision {
    pub allowed: bool,
    pub limit: u64,
    pub remaining: u64,
    /// Seconds until the window ends (at least 1): `RateLimit-Reset` and, when refused, `Retry-After`.
    pub reset_after_secs: u64,
}

impl RateLimitPolicy {
    pub const fn per_hour(limit: u64) -> Self {
        Self { limit, window: Duration::HOUR }
    }

    /// The start of the window `now` falls in (windows are aligned to the Unix epoch).
    pub fn window_start(&self, now: Timestamp) -> Timestamp {
        let window_ms = i64::try_from(self.window.whole_milliseconds()).unwrap_or(i64::MAX).max(1);
        let start = now.unix_millis().div_euclid(window_ms) * window_ms;
        Timestamp::from_unix_millis(start).unwrap_or(now)
    }

    /// Decides on a request, given the window's count including this request.
    pub fn decide(&self, count_including_this: u64, now: Timestamp) -> RateDecision {
        let window_end = self.window_start(now).saturating_add(self.window);
        let reset_ms = window_end.unix_millis().saturating_sub(now.unix_millis()).max(0);
        let reset_after_secs = u64::try_from(reset_ms).unwrap_or(0).div_ceil(1000).max(1);
        RateDecision {
            allowed: count_including_this <= self.limit,
            limit: self.limit,
            remaining: self.limit.saturating_sub(count_including_this),
            reset_after_secs,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_within_an_aligned_window() {
        let policy = RateLimitPolicy::per_hour(3);
        let now = Timestamp::parse_rfc3339("2026-11-22T07:15:00.000Z").unwrap();
        assert_eq!(policy.window_start(now).to_rfc3339(), "2026-11-22T07:00:00.000Z");
        let first = policy.decide(1, now);
        assert_eq!((first.allowed, first.remaining, first.reset_after_secs), (true, 2, 45 * 60));
        assert!(policy.decide(3, now).allowed);
        let over = policy.decide(4, now);
        assert_eq!((over.allowed, over.remaining), (false, 0));
        let last_ms = Timestamp::parse_rfc3339("2026-11-22T07:59:59.999Z").unwrap();
        assert_eq!(policy.decide(1, last_ms).reset_after_secs, 1);
    }
}
