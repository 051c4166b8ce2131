//! The tenant's monthly event quota: only verifications count, per calendar month in UTC.

use time::{Date, Month, OffsetDateTime, Time};

use crate::Timestamp;

/// The calendar month (UTC) that a moment falls in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QuotaPeriod {
    pub start: Timestamp,
    pub end: Timestamp,
}

impl QuotaPeriod {
    pub fn containing(now: Timestamp) -> Self {
        let date = now.as_datetime().date();
        let first = first_of_month(date.year(), date.month());
        let next = match date.month() {
            Month::December => first_of_month(date.year().saturating_add(1), Month::January),
            month => first_of_month(date.year(), month.next()),
        };
        Self { start: first.unwrap_or(now), end: next.unwrap_or(now) }
    }

    /// Seconds from `now` to the end of the period (at least 1): the `Retry-After` of a refusal.
    pub fn seconds_left(&self, now: Timestamp) -> u64 {
        u64::try_from(self.end.since(now).whole_seconds()).unwrap_or(0).max(1)
    }
}

fn first_of_month(year: i32, month: Month) -> Option<Timestamp> {
    let date = Date::from_calendar_date(year, month, 1).ok()?;
    Some(Timestamp::from_datetime(OffsetDateTime::new_utc(date, Time::MIDNIGHT)))
}

/// Whether one more verified event fits: `used` is the period's count before this one.
pub fn quota_allows(quota: Option<u64>, used: u64) -> bool {
    quota.is_none_or(|quota| used < quota)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn periods_are_calendar_months_in_utc() {
        let now = Timestamp::parse_rfc3339("2026-12-31T23:59:59.000Z").unwrap();
        let period = QuotaPeriod::containing(now);
        assert_eq!(period.start.to_rfc3339(), "2026-12-01T00:00:00.000Z");
        assert_eq!(period.end.to_rfc3339(), "2027-01-01T00:00:00.000Z");
        assert_eq!(period.seconds_left(now), 1);
        let feb = QuotaPeriod::containing(Timestamp::parse_rfc3339("2028-02-29T12:00:00+05:00").unwrap());
        assert_eq!(feb.end.to_rfc3339(), "2028-03-01T00:00:00.000Z");
    }

    #[test]
    fn quota_counts_up_to_the_limit() {
        assert!(quota_allows(None, u64::MAX));
        assert!(quota_allows(Some(2), 1));
        assert!(!quota_allows(Some(2), 2));
        assert!(!quota_allows(Some(0), 0));
    }
}
