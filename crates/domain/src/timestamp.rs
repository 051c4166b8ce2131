//! Points in time as the service stores and shows them: UTC, millisecond precision.

use std::fmt;

use time::format_description::well_known::Rfc3339;
use time::{Duration, OffsetDateTime, UtcOffset};

/// A UTC instant truncated to whole milliseconds, so that a value read back from the API and passed
/// in again (as a `from`/`to` filter, say) compares equal to the stored one.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Timestamp(OffsetDateTime);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("must be an RFC 3339 date-time such as 2026-11-22T07:15:03.123Z")]
pub struct InvalidTimestamp;

impl Timestamp {
    pub fn from_datetime(at: OffsetDateTime) -> Self {
        let at = at.to_offset(UtcOffset::UTC);
        let millis = at.millisecond();
        // Replacing the nanosecond with whole milliseconds cannot fail: the value is in range.
        Self(at.replace_nanosecond(u32::from(millis) * 1_000_000).unwrap_or(at))
    }

    /// Milliseconds since the Unix epoch; `None` beyond the representable range.
    pub fn from_unix_millis(millis: i64) -> Option<Self> {
        let nanos = i128::from(millis) * 1_000_000;
        OffsetDateTime::from_unix_timestamp_nanos(nanos).ok().map(Self)
    }

    /// Parses RFC 3339 with any offset; the value is converted to UTC and truncated to milliseconds.
    pub fn parse_rfc3339(text: &str) -> Result<Self, InvalidTimestamp> {
        // RFC 3339 lets applications accept a space for the `T`; the API documents ISO 8601's `T`.
        if !matches!(text.as_bytes().get(10), Some(b'T' | b't')) {
            return Err(InvalidTimestamp);
        }
        OffsetDateTime::parse(text, &Rfc3339).map(Self::from_datetime).map_err(|_| InvalidTimestamp)
    }

    pub fn unix_millis(&self) -> i64 {
        // Always within i64 for the years `time` supports.
        i64::try_from(self.0.unix_timestamp_nanos() / 1_000_000).unwrap_or(i64::MAX)
    }

    pub fn unix_seconds(&self) -> i64 {
        self.0.unix_timestamp()
    }

    pub fn as_datetime(&self) -> OffsetDateTime {
        self.0
    }

    /// `2026-11-22T07:15:03.123Z`: always three fractional digits and `Z`.
    pub fn to_rfc3339(&self) -> String {
        let d = self.0;
        format!(
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
            d.year(),
            u8::from(d.month()),
            d.day(),
            d.hour(),
            d.minute(),
            d.second(),
            d.millisecond()
        )
    }

    pub fn saturating_add(&self, duration: Duration) -> Self {
        Self::from_datetime(self.0.saturating_add(duration))
    }

    pub fn saturating_sub(&self, duration: Duration) -> Self {
        Self::from_datetime(self.0.saturating_sub(duration))
    }

    /// `self - earlier`, which is negative when `earlier` is later.
    pub fn since(&self, earlier: Timestamp) -> Duration {
        self.0 - earlier.0
    }
}

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_rfc3339())
    }
}

impl fmt::Debug for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Timestamp({})", self.to_rfc3339())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn formats_utc_with_milliseconds_and_z() {
        let t = Timestamp::parse_rfc3339("2026-11-22T08:15:03.123456+01:00").unwrap();
        assert_eq!(t.to_rfc3339(), "2026-11-22T07:15:03.123Z");
        let whole = Timestamp::parse_rfc3339("2026-01-02T03:04:05Z").unwrap();
        assert_eq!(whole.to_rfc3339(), "2026-01-02T03:04:05.000Z");
    }

    #[test]
    fn rejects_what_is_not_rfc3339() {
        for bad in ["", "2026-11-22", "2026-11-22 07:15:03Z", "yesterday", "2026-13-01T00:00:00Z"] {
            assert_eq!(Timestamp::parse_rfc3339(bad), Err(InvalidTimestamp), "{bad}");
        }
    }

    proptest! {
        #[test]
        fn what_is_shown_parses_back_to_the_same_instant(millis in -62_135_596_800_000i64..253_402_300_799_000i64) {
            let t = Timestamp::from_unix_millis(millis).unwrap();
            prop_assert_eq!(t.unix_millis(), millis);
            prop_assert_eq!(Timestamp::parse_rfc3339(&t.to_rfc3339()).unwrap(), t);
        }
    }
}
