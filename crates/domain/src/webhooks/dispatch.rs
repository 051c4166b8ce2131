//! How the dispatcher works off the outbox, as rules without IO: the retry schedule, what counts as
//! delivered, what one attempt records, and the lease that lets several dispatchers share one
//! outbox without sending an attempt twice.
//!
//! The spec's delivery rules: success is a response status of exactly 200; anything else (201,
//! 204, 3xx — redirects are not followed —, 4xx, 5xx, no answer within the timeout, a refused
//! address) is a failure; after the first failed attempt up to three retries follow, with growing
//! delays (by default 60, 120 and 240 seconds: `CLICKWRAP_WEBHOOK_RETRY_DELAYS`); when the last
//! one fails the delivery is FAILED and stays so until an operator redelivers it.

use std::fmt;

use time::Duration;

use super::models::{Delivery, DeliveryState};
use crate::Timestamp;
use crate::webhooks::models::DeliveryAttempt;

/// The only response status that counts as delivered.
pub const SUCCESS_STATUS: u16 = 200;

/// At most this much of a receiver's response body is kept with an attempt.
pub const RESPONSE_EXCERPT_MAX_BYTES: usize = 4096;

/// Whether a receiver's response status means the webhook was delivered: exactly 200.
pub const fn is_success(status: u16) -> bool {
    status == SUCCESS_STATUS
}

/// The waits between attempts: after the first failed attempt of a round the delivery waits
/// `delays[0]`, after the second `delays[1]`, and so on; one attempt more than there are delays,
/// then the delivery is FAILED.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetryPolicy {
    delays: Vec<Duration>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidRetryDelays {
    /// Said of `CLICKWRAP_WEBHOOK_RETRY_DELAYS`'s value as it is.
    #[error("must be a comma-separated list of seconds like 60,120,240")]
    Malformed,
    #[error("at most {} retry delays may be given", RetryPolicy::MAX_RETRIES)]
    TooMany,
    #[error("a retry delay must be between 0 and {} seconds", RetryPolicy::MAX_DELAY_SECS)]
    OutOfRange,
}

impl RetryPolicy {
    /// The spec's schedule: 60 s, then 120 s, then 240 s (three retries, four attempts).
    pub const DEFAULT_DELAYS_SECS: [i64; 3] = [60, 120, 240];
    pub const MAX_RETRIES: usize = 20;
    /// One day.
    pub const MAX_DELAY_SECS: i64 = 86_400;

    /// A schedule from explicit delays (tests use milliseconds).
    pub fn new(delays: Vec<Duration>) -> Result<Self, InvalidRetryDelays> {
        if delays.len() > Self::MAX_RETRIES {
            return Err(InvalidRetryDelays::TooMany);
        }
        if delays.iter().any(|d| d.is_negative() || *d > Duration::seconds(Self::MAX_DELAY_SECS)) {
            return Err(InvalidRetryDelays::OutOfRange);
        }
        Ok(Self { delays })
    }

    /// Parses `CLICKWRAP_WEBHOOK_RETRY_DELAYS`: seconds separated by commas (`60,120,240`), spaces
    /// around the numbers allowed. A blank variable is never read here: it means the default.
    pub fn parse_secs(text: &str) -> Result<Self, InvalidRetryDelays> {
        let delays = text
            .split(',')
            .map(|part| {
                let part = part.trim();
                if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(InvalidRetryDelays::Malformed);
                }
                part.parse::<i64>().map(Duration::seconds).map_err(|_| InvalidRetryDelays::OutOfRange)
            })
            .collect::<Result<Vec<_>, _>>()?;
        Self::new(delays)
    }

    pub fn delays(&self) -> &[Duration] {
        &self.delays
    }

    /// Attempts in one round: the first one and a retry per delay.
    pub fn max_attempts(&self) -> u32 {
        u32::try_from(self.delays.len()).unwrap_or(u32::MAX).saturating_add(1)
    }

    /// What becomes of a delivery after an attempt finished at `now`: `round_attempts` counts the
    /// attempts of the current round including this one (1 for the first).
    pub fn outcome(&self, delivered: bool, round_attempts: u32, now: Timestamp) -> AttemptOutcome {
        if delivered {
            return AttemptOutcome::Delivered;
        }
        let index = usize::try_from(round_attempts.saturating_sub(1)).unwrap_or(usize::MAX);
        match self.delays.get(index) {
            Some(delay) if round_attempts >= 1 => AttemptOutcome::Retry { at: now.saturating_add(*delay) },
            _ => AttemptOutcome::Failed,
        }
    }
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self { delays: Self::DEFAULT_DELAYS_SECS.iter().map(|s| Duration::seconds(*s)).collect() }
    }
}

/// Where a delivery stands after an attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttemptOutcome {
    /// The receiver answered 200.
    Delivered,
    /// It failed; try again at this time.
    Retry { at: Timestamp },
    /// It failed and that was the last attempt of the round.
    Failed,
}

impl AttemptOutcome {
    pub fn state(&self) -> DeliveryState {
        match self {
            AttemptOutcome::Delivered => DeliveryState::Delivered,
            AttemptOutcome::Retry { .. } => DeliveryState::Pending,
            AttemptOutcome::Failed => DeliveryState::Failed,
        }
    }

    pub fn next_attempt_at(&self) -> Option<Timestamp> {
        match self {
            AttemptOutcome::Retry { at } => Some(*at),
            AttemptOutcome::Delivered | AttemptOutcome::Failed => None,
        }
    }
}

/// An attempt made and where it leaves its delivery: what the dispatcher records when the attempt
/// is over (see [`crate::ports::DeliveryStore::record_attempts`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FinishedAttempt {
    pub attempt: DeliveryAttempt,
    pub outcome: AttemptOutcome,
}

/// The text kept of a response body: at most [`RESPONSE_EXCERPT_MAX_BYTES`] bytes of UTF-8, invalid
/// sequences and NUL characters replaced by U+FFFD (text columns cannot hold NUL), cut at a
/// character boundary.
pub fn response_excerpt(body: &[u8]) -> String {
    let head = body.get(..RESPONSE_EXCERPT_MAX_BYTES).unwrap_or(body);
    let text = String::from_utf8_lossy(head).replace('\0', "\u{fffd}");
    if text.len() <= RESPONSE_EXCERPT_MAX_BYTES {
        return text;
    }
    // Replacements are longer than what they replace; cut back to the limit.
    let mut end = RESPONSE_EXCERPT_MAX_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.get(..end).unwrap_or_default().to_owned()
}

/// Who holds a delivery's lease: one running dispatcher. A lease lets exactly one dispatcher work on
/// a delivery until it records the attempt or the lease expires (the dispatcher died), when another
/// may take it over.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct LeaseOwner(uuid::Uuid);

impl LeaseOwner {
    pub const fn from_uuid(uuid: uuid::Uuid) -> Self {
        Self(uuid)
    }

    pub const fn as_uuid(&self) -> &uuid::Uuid {
        &self.0
    }
}

impl fmt::Debug for LeaseOwner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "LeaseOwner({})", self.0.hyphenated())
    }
}

impl fmt::Display for LeaseOwner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0.hyphenated(), f)
    }
}

/// A PENDING delivery leased to one dispatcher, due now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaimedDelivery {
    pub delivery: Delivery,
    /// Attempts since the delivery was written or last redelivered: what [`RetryPolicy::outcome`]
    /// counts (`delivery.attempts` counts every attempt ever made).
    pub round_attempts: u32,
    pub lease_until: Timestamp,
}

impl ClaimedDelivery {
    /// The number the next attempt gets in the history.
    pub fn next_attempt_number(&self) -> u32 {
        self.delivery.attempts.saturating_add(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::webhooks::models::AttemptError;
    use proptest::prelude::*;

    fn at(millis: i64) -> Timestamp {
        Timestamp::from_unix_millis(millis).unwrap()
    }

    #[test]
    fn only_200_is_success() {
        assert!(is_success(200));
        for status in [100, 201, 202, 204, 299, 301, 302, 304, 400, 404, 429, 500, 503] {
            assert!(!is_success(status), "{status}");
        }
    }

    #[test]
    fn default_schedule_is_four_attempts_60_120_240() {
        let policy = RetryPolicy::default();
        assert_eq!(policy.max_attempts(), 4);
        let now = at(1_000_000);
        assert_eq!(policy.outcome(false, 1, now), AttemptOutcome::Retry { at: at(1_060_000) });
        assert_eq!(policy.outcome(false, 2, now), AttemptOutcome::Retry { at: at(1_120_000) });
        assert_eq!(policy.outcome(false, 3, now), AttemptOutcome::Retry { at: at(1_240_000) });
        assert_eq!(policy.outcome(false, 4, now), AttemptOutcome::Failed);
        assert_eq!(policy.outcome(false, 5, now), AttemptOutcome::Failed);
        for n in 1..=4 {
            assert_eq!(policy.outcome(true, n, now), AttemptOutcome::Delivered);
        }
    }

    #[test]
    fn parses_the_environment_form() {
        assert_eq!(RetryPolicy::parse_secs("60,120,240").unwrap(), RetryPolicy::default());
        assert_eq!(
            RetryPolicy::parse_secs(" 1, 2 ,3 ").unwrap().delays(),
            &[Duration::seconds(1), Duration::seconds(2), Duration::seconds(3)]
        );
        let none = RetryPolicy::new(Vec::new()).unwrap();
        assert_eq!(none.max_attempts(), 1);
        assert_eq!(none.outcome(false, 1, at(0)), AttemptOutcome::Failed);
        for bad in ["60,,120", "-1", "1.5", "a", "60;120", "60,", "", " "] {
            assert_eq!(RetryPolicy::parse_secs(bad), Err(InvalidRetryDelays::Malformed), "{bad}");
        }
        // The server writes it after `CLICKWRAP_WEBHOOK_RETRY_DELAYS="…": `, as it is.
        assert_eq!(
            InvalidRetryDelays::Malformed.to_string(),
            "must be a comma-separated list of seconds like 60,120,240"
        );
        assert_eq!(RetryPolicy::parse_secs("86401"), Err(InvalidRetryDelays::OutOfRange));
        assert_eq!(RetryPolicy::parse_secs("99999999999999999999"), Err(InvalidRetryDelays::OutOfRange));
        assert_eq!(RetryPolicy::parse_secs(&["1"; 21].join(",")), Err(InvalidRetryDelays::TooMany));
    }

    #[test]
    fn outcomes_map_to_states() {
        assert_eq!(AttemptOutcome::Delivered.state(), DeliveryState::Delivered);
        assert_eq!(AttemptOutcome::Failed.state(), DeliveryState::Failed);
        let retry = AttemptOutcome::Retry { at: at(5) };
        assert_eq!(retry.state(), DeliveryState::Pending);
        assert_eq!(retry.next_attempt_at(), Some(at(5)));
        assert_eq!(AttemptOutcome::Delivered.next_attempt_at(), None);
    }

    #[test]
    fn error_classes_round_trip() {
        let names = AttemptError::ALL.map(AttemptError::as_str);
        assert_eq!(
            names,
            ["UNEXPECTED_STATUS", "TIMEOUT", "BLOCKED_ADDRESS", "DNS", "CONNECT", "TLS", "PROTOCOL", "SIGNING_SECRET"],
            "the stored names stay as they are"
        );
        for error in AttemptError::ALL {
            assert_eq!(AttemptError::parse(error.as_str()), Some(error));
        }
        assert_eq!(AttemptError::parse("timeout"), None);
    }

    #[test]
    fn excerpts_are_bounded_text_without_nul() {
        assert_eq!(response_excerpt(b"ok"), "ok");
        assert_eq!(response_excerpt(b"a\0b"), "a\u{fffd}b");
        assert_eq!(response_excerpt(&[b'x'; 5000]).len(), RESPONSE_EXCERPT_MAX_BYTES);
        // Invalid bytes grow to three bytes each when replaced; still cut to the limit.
        let invalid = response_excerpt(&[0xff; 5000]);
        assert!(invalid.len() <= RESPONSE_EXCERPT_MAX_BYTES);
        assert!(invalid.chars().all(|c| c == '\u{fffd}'));
    }

    proptest! {
        #[test]
        fn excerpt_never_exceeds_the_limit(body in proptest::collection::vec(any::<u8>(), 0..6000)) {
            let text = response_excerpt(&body);
            prop_assert!(text.len() <= RESPONSE_EXCERPT_MAX_BYTES);
            prop_assert!(!text.contains('\0'));
        }

        #[test]
        fn every_round_ends_after_max_attempts(delays in proptest::collection::vec(0i64..1000, 0..6), delivered_at in 1u32..10) {
            let policy = RetryPolicy::new(delays.iter().map(|d| Duration::seconds(*d)).collect()).unwrap();
            let now = at(0);
            for n in 1..policy.max_attempts() {
                let retried = matches!(policy.outcome(false, n, now), AttemptOutcome::Retry { .. });
                prop_assert!(retried, "attempt {} of {}", n, policy.max_attempts());
            }
            prop_assert_eq!(policy.outcome(false, policy.max_attempts(), now), AttemptOutcome::Failed);
            prop_assert_eq!(policy.outcome(true, delivered_at, now), AttemptOutcome::Delivered);
        }
    }
}
