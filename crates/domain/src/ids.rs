//! Identifiers. Every id is a UUID behind its own type, so an app id can never be passed where an
//! event id is expected. Ids are written lowercase and hyphenated.

use std::fmt;
use std::str::FromStr;

use uuid::Uuid;

/// The text given for an id is not a UUID.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{kind} must be a UUID (like 0190b7c4-2a1e-7cc3-9f00-5d1e2f3a4b5c)")]
pub struct InvalidId {
    /// Which id it was, for the error message.
    pub kind: &'static str,
}

macro_rules! uuid_id {
    ($(#[$doc:meta])* $name:ident, $label:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(Uuid);

        impl $name {
            /// Wraps a UUID that is already known to name this kind of resource.
            pub const fn from_uuid(uuid: Uuid) -> Self {
                Self(uuid)
            }

            /// Parses the hyphenated form (any letter case).
            pub fn parse(text: &str) -> Result<Self, InvalidId> {
                // The hyphenated form only: "simple" or braced forms are not what the API documents.
                if text.len() != 36 {
                    return Err(InvalidId { kind: $label });
                }
                Uuid::try_parse(text).map(Self).map_err(|_| InvalidId { kind: $label })
            }

            pub const fn as_uuid(&self) -> &Uuid {
                &self.0
            }

            pub const fn as_bytes(&self) -> &[u8; 16] {
                self.0.as_bytes()
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(&self.0.hyphenated(), f)
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!(stringify!($name), "({})"), self.0.hyphenated())
            }
        }

        impl FromStr for $name {
            type Err = InvalidId;
            fn from_str(text: &str) -> Result<Self, Self::Err> {
                Self::parse(text)
            }
        }
    };
}

uuid_id!(
    /// A tenant: one operator organisation. Every stored row belongs to exactly one.
    TenantId,
    "tenantId"
);
uuid_id!(
    /// An integration (App). Public: SDKs send it.
    AppId,
    "appId"
);
uuid_id!(
    /// A clickwrap template.
    TemplateId,
    "clickwrapTemplateId"
);
uuid_id!(
    /// A clickwrap event (one presentation and the end user's action on it).
    EventId,
    "clickwrapEventId"
);
uuid_id!(
    /// One webhook delivery (of one event to one app's webhook URL).
    DeliveryId,
    "deliveryId"
);
uuid_id!(
    /// One row of a tenant's audit log.
    AuditEntryId,
    "auditEntryId"
);

uuid_id!(
    /// An operator token's row (the token itself is a secret; this id is not).
    OperatorTokenId,
    "operatorTokenId"
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_hyphenated_uuid_in_any_case_and_prints_lowercase() {
        let id = AppId::parse("0190B7C4-2A1E-7CC3-9F00-5D1E2F3A4B5C").unwrap();
        assert_eq!(id.to_string(), "0190b7c4-2a1e-7cc3-9f00-5d1e2f3a4b5c");
    }

    #[test]
    fn rejects_other_forms_and_names_the_field() {
        for bad in ["", "not-a-uuid", "0190b7c42a1e7cc39f005d1e2f3a4b5c", "{0190b7c4-2a1e-7cc3-9f00-5d1e2f3a4b5c}"] {
            let err = EventId::parse(bad).unwrap_err();
            assert_eq!(err.kind, "clickwrapEventId", "{bad}");
        }
    }
}
