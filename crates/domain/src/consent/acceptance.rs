//! Whether an end user must (again) accept a template: the rule behind `acceptanceRequired`, the
//! status endpoint and re-accept requests.

use super::models::EventStatus;
use crate::templates::versioning::VersionNumber;
use crate::{EventId, Timestamp};

/// The latest event of one end user for one template that counts for a given major version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EventSummary {
    pub event_id: EventId,
    pub status: EventStatus,
    pub version: VersionNumber,
    pub action_at: Timestamp,
    /// When it was verified; `None` while unverified.
    pub verified_at: Option<Timestamp>,
}

/// What storage knows about one end user and one template, for the template's current major.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ConsentSnapshot {
    /// The latest verified event on the current major version.
    pub latest_verified: Option<EventSummary>,
    /// The latest unverified event on the current major version.
    pub latest_unverified: Option<EventSummary>,
    /// Whether the end user ever accepted an earlier major version (and so must accept anew).
    pub accepted_earlier_major: bool,
    /// The latest re-accept request for this end user and template.
    pub re_accept_requested_at: Option<Timestamp>,
}

/// The consent status of one end user for one template, as the status endpoint shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConsentStatus {
    NoData,
    Unverified,
    Accepted,
    Declined,
}

impl ConsentStatus {
    pub const fn as_str(self) -> &'static str {
        match self {
            ConsentStatus::NoData => "NO_DATA",
            ConsentStatus::Unverified => "UNVERIFIED",
            ConsentStatus::Accepted => "ACCEPTED",
            ConsentStatus::Declined => "DECLINED",
        }
    }
}

impl ConsentSnapshot {
    /// The acceptance that currently counts: the latest verified action on the current major is
    /// ACCEPTED and no re-accept was requested after it.
    fn standing_acceptance(&self) -> Option<&EventSummary> {
        self.latest_verified
            .as_ref()
            .filter(|event| event.status == EventStatus::Accepted)
            .filter(|event| self.re_accept_requested_at.is_none_or(|requested| requested <= event.action_at))
    }

    /// Whether the SDK must show the dialog.
    pub fn acceptance_required(&self, always_require_acceptance: bool) -> bool {
        always_require_acceptance || self.standing_acceptance().is_none()
    }

    /// Only verified events count; an unverified one shows only when nothing was verified.
    pub fn status(&self) -> ConsentStatus {
        match (&self.latest_verified, &self.latest_unverified) {
            (Some(event), _) if event.status == EventStatus::Declined => ConsentStatus::Declined,
            (Some(_), _) => ConsentStatus::Accepted,
            (None, Some(_)) => ConsentStatus::Unverified,
            (None, None) => ConsentStatus::NoData,
        }
    }

    /// The event behind [`Self::status`].
    pub fn status_event(&self) -> Option<&EventSummary> {
        self.latest_verified.as_ref().or(self.latest_unverified.as_ref())
    }

    /// The end user accepted once (this major after a re-accept request, or an earlier major)
    /// and must accept again.
    pub fn re_acceptance_required(&self) -> bool {
        let accepted_current = self.latest_verified.is_some_and(|event| event.status == EventStatus::Accepted);
        let accepted_before = accepted_current || self.accepted_earlier_major;
        accepted_before && self.standing_acceptance().is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use uuid::Uuid;

    fn at(millis: i64) -> Timestamp {
        Timestamp::from_unix_millis(millis).unwrap()
    }

    fn event(status: EventStatus, action_millis: i64) -> EventSummary {
        EventSummary {
            event_id: EventId::from_uuid(Uuid::nil()),
            status,
            version: VersionNumber::new(2, 1),
            action_at: at(action_millis),
            verified_at: status.is_verified().then(|| at(action_millis + 5)),
        }
    }

    /// Every combination of the inputs, against the rule written as plainly as possible.
    #[test]
    fn acceptance_required_truth_table() {
        use EventStatus::*;
        let verified_options = [None, Some(event(Accepted, 100)), Some(event(Declined, 100))];
        let unverified_options = [None, Some(event(Unverified, 150))];
        let reaccept_options = [None, Some(at(50)), Some(at(100)), Some(at(200))];
        for latest_verified in verified_options {
            for latest_unverified in unverified_options {
                for accepted_earlier_major in [false, true] {
                    for re_accept_requested_at in reaccept_options {
                        for always in [false, true] {
                            let snapshot = ConsentSnapshot {
                                latest_verified,
                                latest_unverified,
                                accepted_earlier_major,
                                re_accept_requested_at,
                            };
                            let accepted = latest_verified.is_some_and(|e| e.status == Accepted);
                            let reaccept_after = re_accept_requested_at.is_some_and(|r| r > at(100));
                            let expected = always || !accepted || reaccept_after;
                            assert_eq!(snapshot.acceptance_required(always), expected, "{snapshot:?} always={always}");

                            let expected_status = match latest_verified.map(|e| e.status) {
                                Some(Accepted) => ConsentStatus::Accepted,
                                Some(Declined) => ConsentStatus::Declined,
                                _ if latest_unverified.is_some() => ConsentStatus::Unverified,
                                _ => ConsentStatus::NoData,
                            };
                            assert_eq!(snapshot.status(), expected_status);

                            let expected_reaccept =
                                (accepted && reaccept_after) || (!accepted && accepted_earlier_major);
                            assert_eq!(snapshot.re_acceptance_required(), expected_reaccept, "{snapshot:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn unverified_events_never_grant_consent() {
        let snapshot =
            ConsentSnapshot { latest_unverified: Some(event(EventStatus::Unverified, 10)), ..Default::default() };
        assert!(snapshot.acceptance_required(false));
        assert_eq!(snapshot.status(), ConsentStatus::Unverified);
    }
}
