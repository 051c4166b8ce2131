//! How long finished webhook deliveries (and their attempts) are kept. They are not evidence: the
//! verified event and its certificate are, and are never purged. A delivered one has done its job
//! and is kept a while for the history; one that failed (or was never sent because the webhook was
//! off) is kept longer, so that an operator can still redeliver it. A PENDING delivery is never
//! purged, whatever its age: a redelivered one is PENDING again.

use time::Duration;

use crate::Timestamp;

/// The retention periods (`CLICKWRAP_WEBHOOK_RETENTION_DAYS`,
/// `CLICKWRAP_WEBHOOK_FAILED_RETENTION_DAYS`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeliveryRetention {
    /// How long a DELIVERED delivery is kept after its last attempt.
    pub delivered: Duration,
    /// How long a FAILED or DISABLED delivery is kept after its last attempt (after its creation
    /// when it had none).
    pub failed: Duration,
}

impl DeliveryRetention {
    /// 30 days for delivered deliveries, 90 for failed ones.
    pub const DEFAULT: Self = Self { delivered: Duration::days(30), failed: Duration::days(90) };

    /// The instants before which finished deliveries may be purged, as of `now`.
    pub fn cutoffs(&self, now: Timestamp) -> RetentionCutoffs {
        RetentionCutoffs {
            delivered_before: now.saturating_sub(self.delivered),
            failed_before: now.saturating_sub(self.failed),
        }
    }
}

/// A delivery's last activity is its last attempt, or its creation when it had none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetentionCutoffs {
    /// DELIVERED deliveries last active before this may be purged.
    pub delivered_before: Timestamp,
    /// FAILED and DISABLED deliveries last active before this may be purged.
    pub failed_before: Timestamp,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failed_deliveries_are_kept_longer_by_default() {
        let now = Timestamp::parse_rfc3339("2026-11-29T12:00:00Z").unwrap();
        let cutoffs = DeliveryRetention::DEFAULT.cutoffs(now);
        assert_eq!(cutoffs.delivered_before, Timestamp::parse_rfc3339("2026-10-30T12:00:00Z").unwrap());
        assert_eq!(cutoffs.failed_before, Timestamp::parse_rfc3339("2026-08-31T12:00:00Z").unwrap());
    }
}
