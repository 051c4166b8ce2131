//! Version numbers and the version states that follow from the clock.

use std::fmt;

use crate::Timestamp;

/// `major.minor`. A new major version asks every end user to accept again; a minor one does not.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VersionNumber {
    pub major: u32,
    pub minor: u32,
}

string_enum! {
    /// What kind of version a publish makes.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum VersionKind {
        Major => "MAJOR",
        Minor => "MINOR",
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("version numbers are exhausted")]
pub struct VersionOverflow;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a version is written major.minor, like 2.1")]
pub struct InvalidVersionNumber;

impl VersionNumber {
    pub const FIRST: VersionNumber = VersionNumber { major: 1, minor: 0 };

    pub const fn new(major: u32, minor: u32) -> Self {
        Self { major, minor }
    }

    /// `major.minor` in plain decimal digits (`2.1`; no sign, no spaces).
    pub fn parse(text: &str) -> Result<Self, InvalidVersionNumber> {
        let (major, minor) = text.split_once('.').ok_or(InvalidVersionNumber)?;
        let number = |part: &str| {
            if part.is_empty() || part.len() > 9 || !part.bytes().all(|b| b.is_ascii_digit()) {
                return Err(InvalidVersionNumber);
            }
            part.parse::<u32>().map_err(|_| InvalidVersionNumber)
        };
        Ok(Self::new(number(major)?, number(minor)?))
    }

    /// The number a publish of `kind` gets after `latest` (none yet: 1.0, whatever the kind).
    pub fn next(latest: Option<VersionNumber>, kind: VersionKind) -> Result<VersionNumber, VersionOverflow> {
        let Some(latest) = latest else {
            return Ok(Self::FIRST);
        };
        match kind {
            VersionKind::Major => latest.major.checked_add(1).map(|major| Self::new(major, 0)),
            VersionKind::Minor => latest.minor.checked_add(1).map(|minor| Self::new(latest.major, minor)),
        }
        .ok_or(VersionOverflow)
    }
}

impl fmt::Display for VersionNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

impl fmt::Debug for VersionNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "v{}.{}", self.major, self.minor)
    }
}

/// Where a published version stands at a given moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VersionState {
    /// Its `effectiveAt` is still ahead: not served.
    Scheduled,
    /// The version in force: the latest whose `effectiveAt` has passed.
    Effective,
    /// In force once, replaced by a later version that is now in force.
    Superseded,
}

impl VersionState {
    pub const fn as_str(self) -> &'static str {
        match self {
            VersionState::Scheduled => "SCHEDULED",
            VersionState::Effective => "EFFECTIVE",
            VersionState::Superseded => "SUPERSEDED",
        }
    }
}

/// The state of each version at `now`, given the versions' `effectiveAt` in publish order
/// (non-decreasing, which publishing guarantees).
pub fn version_states(effective_ats: &[Timestamp], now: Timestamp) -> Vec<VersionState> {
    let in_force = effective_ats.iter().rposition(|at| *at <= now);
    effective_ats
        .iter()
        .enumerate()
        .map(|(index, at)| match in_force {
            _ if *at > now => VersionState::Scheduled,
            Some(current) if index == current => VersionState::Effective,
            _ => VersionState::Superseded,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_numbers_parse_from_their_display() {
        for (text, number) in [("1.0", VersionNumber::new(1, 0)), ("12.345", VersionNumber::new(12, 345))] {
            assert_eq!(VersionNumber::parse(text), Ok(number));
            assert_eq!(number.to_string(), text);
        }
        for bad in ["", "1", "1.", ".1", "1.0.0", "+1.0", "1.-1", " 1.0", "a.b", "1.0 ", "9999999999.0"] {
            assert_eq!(VersionNumber::parse(bad), Err(InvalidVersionNumber), "{bad:?}");
        }
    }
    use VersionKind::*;
    use proptest::prelude::*;

    #[test]
    fn version_kinds_have_their_wire_names() {
        assert_eq!(VersionKind::ALL.map(VersionKind::as_str), ["MAJOR", "MINOR"]);
        assert_eq!(VersionKind::parse("MINOR"), Some(Minor));
        assert_eq!(VersionKind::parse("PATCH"), None);
    }

    fn at(millis: i64) -> Timestamp {
        Timestamp::from_unix_millis(millis).unwrap()
    }

    #[test]
    fn first_is_one_zero_then_minor_and_major_bumps() {
        let v1 = VersionNumber::next(None, Minor).unwrap();
        assert_eq!(v1, VersionNumber::new(1, 0));
        assert_eq!(VersionNumber::next(None, Major).unwrap(), VersionNumber::new(1, 0));
        let v11 = VersionNumber::next(Some(v1), Minor).unwrap();
        assert_eq!(v11, VersionNumber::new(1, 1));
        let v2 = VersionNumber::next(Some(v11), Major).unwrap();
        assert_eq!(v2, VersionNumber::new(2, 0));
        assert_eq!(v2.to_string(), "2.0");
        assert_eq!(VersionNumber::next(Some(VersionNumber::new(u32::MAX, 0)), Major), Err(VersionOverflow));
    }

    #[test]
    fn states_follow_the_clock() {
        use VersionState::*;
        let ats = [at(100), at(200), at(300)];
        assert_eq!(version_states(&ats, at(50)), vec![Scheduled, Scheduled, Scheduled]);
        assert_eq!(version_states(&ats, at(100)), vec![Effective, Scheduled, Scheduled]);
        assert_eq!(version_states(&ats, at(250)), vec![Superseded, Effective, Scheduled]);
        assert_eq!(version_states(&ats, at(300)), vec![Superseded, Superseded, Effective]);
        // Two versions effective at the same instant: the later publish is in force.
        assert_eq!(version_states(&[at(100), at(100)], at(100)), vec![Superseded, Effective]);
    }

    proptest! {
        #[test]
        fn numbering_is_strictly_increasing_and_major_bumps_reset_minor(kinds in proptest::collection::vec(any::<bool>(), 0..40)) {
            let mut latest = None;
            for major in kinds {
                let kind = if major { Major } else { Minor };
                let next = VersionNumber::next(latest, kind).unwrap();
                if let Some(previous) = latest {
                    prop_assert!(next > previous);
                    match kind {
                        Major => prop_assert_eq!(next, VersionNumber::new(previous.major + 1, 0)),
                        Minor => prop_assert_eq!(next, VersionNumber::new(previous.major, previous.minor + 1)),
                    }
                } else {
                    prop_assert_eq!(next, VersionNumber::FIRST);
                }
                latest = Some(next);
            }
        }

        #[test]
        fn at_most_one_version_is_effective_and_it_is_the_last_started(
            mut ats in proptest::collection::vec(0i64..1000, 0..12), now in 0i64..1000,
        ) {
            ats.sort_unstable();
            let stamps: Vec<Timestamp> = ats.iter().map(|m| at(*m)).collect();
            let states = version_states(&stamps, at(now));
            let effective: Vec<usize> = states.iter().enumerate().filter(|(_, s)| **s == VersionState::Effective).map(|(i, _)| i).collect();
            prop_assert!(effective.len() <= 1);
            let started = ats.iter().rposition(|m| *m <= now);
            prop_assert_eq!(effective.first().copied(), started);
            for (state, m) in states.iter().zip(&ats) {
                prop_assert_eq!(*state == VersionState::Scheduled, *m > now);
            }
        }
    }
}
