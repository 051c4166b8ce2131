//! Small conversions between database values and domain values.

use clickwrap_domain::Timestamp;
use clickwrap_domain::ports::StorageError;
use time::OffsetDateTime;

use crate::errors::corrupt;

pub(crate) fn at(timestamp: Timestamp) -> OffsetDateTime {
    timestamp.as_datetime()
}

pub(crate) fn ts(datetime: OffsetDateTime) -> Timestamp {
    Timestamp::from_datetime(datetime)
}

pub(crate) fn count_u64(value: i64, what: &str) -> Result<u64, StorageError> {
    u64::try_from(value).map_err(|_| corrupt(what, value))
}

pub(crate) fn count_i64(value: u64) -> i64 {
    i64::try_from(value).unwrap_or(i64::MAX)
}

pub(crate) fn u32_of(value: i32, what: &str) -> Result<u32, StorageError> {
    u32::try_from(value).map_err(|_| corrupt(what, value))
}

pub(crate) fn i32_of(value: u32) -> i32 {
    i32::try_from(value).unwrap_or(i32::MAX)
}

pub(crate) fn hash32(bytes: &[u8], what: &str) -> Result<[u8; 32], StorageError> {
    bytes.try_into().map_err(|_| corrupt(what, format!("{} bytes", bytes.len())))
}

pub(crate) fn limit_i64(limit: usize) -> i64 {
    i64::try_from(limit).unwrap_or(i64::MAX)
}
