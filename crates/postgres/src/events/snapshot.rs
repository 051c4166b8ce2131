//! The consent snapshot: everything the acceptance rule needs, in one statement per SDK check.

use clickwrap_domain::EventId;
use clickwrap_domain::consent::acceptance::{ConsentSnapshot, EventSummary};
use clickwrap_domain::consent::models::EventStatus;
use clickwrap_domain::ports::StorageError;
use clickwrap_domain::templates::versioning::VersionNumber;
use diesel::QueryableByName;
use diesel::sql_types::{Bool, Nullable, Text, Timestamptz, Uuid as SqlUuid};

use super::rows::status;
use crate::convert::{ts, u32_of};

/// The latest event of one end user and template on one major, by status class.
#[derive(QueryableByName)]
pub(super) struct SnapshotRow {
    #[diesel(sql_type = Nullable<SqlUuid>)]
    v_id: Option<uuid::Uuid>,
    #[diesel(sql_type = Nullable<Text>)]
    v_status: Option<String>,
    #[diesel(sql_type = Nullable<diesel::sql_types::Int4>)]
    v_minor: Option<i32>,
    #[diesel(sql_type = Nullable<Timestamptz>)]
    v_action_at: Option<time::OffsetDateTime>,
    #[diesel(sql_type = Nullable<Timestamptz>)]
    v_verified_at: Option<time::OffsetDateTime>,
    #[diesel(sql_type = Nullable<SqlUuid>)]
    u_id: Option<uuid::Uuid>,
    #[diesel(sql_type = Nullable<diesel::sql_types::Int4>)]
    u_minor: Option<i32>,
    #[diesel(sql_type = Nullable<Timestamptz>)]
    u_action_at: Option<time::OffsetDateTime>,
    #[diesel(sql_type = Bool)]
    accepted_earlier_major: bool,
    #[diesel(sql_type = Nullable<Timestamptz>)]
    re_accept_requested_at: Option<time::OffsetDateTime>,
}

/// One query for everything the acceptance rule needs: this runs on every SDK check.
///
/// Every lookup binds all the leading columns of `events_consent` (tenant, end user, template,
/// status) by equality, so each is one index descent that stops at its first row: the cost does
/// not grow with the end user's history, under a plan made for the values or a generic one (which
/// PostgreSQL may switch to after five executions of a prepared statement). The latest verified
/// event is therefore looked up per verified status and the later of the two kept; a single
/// lookup with `status <> 'UNVERIFIED'` would be a range over the statuses, read in index order,
/// not in time. Each lookup is ordered as the index is, so that no plan can stop at the first row
/// of a sequential scan instead (which reads the whole table when there is no such row).
pub(super) const SNAPSHOT_SQL: &str = "
SELECT v.id AS v_id, v.status AS v_status, v.version_minor AS v_minor, v.action_at AS v_action_at,
       v.verified_at AS v_verified_at,
       u.id AS u_id, u.version_minor AS u_minor, u.action_at AS u_action_at,
       (SELECT e.version_major FROM clickwrap_events e
         WHERE e.tenant_id = $1 AND e.end_user_id = $2 AND e.template_id = $3
           AND e.status = 'ACCEPTED' AND e.version_major < $4
         ORDER BY e.version_major LIMIT 1) IS NOT NULL AS accepted_earlier_major,
       (SELECT r.requested_at FROM re_accept_requests r
         WHERE r.tenant_id = $1 AND r.end_user_id = $2 AND r.template_id = $3
         ORDER BY r.requested_at DESC LIMIT 1) AS re_accept_requested_at
FROM (SELECT 1) AS one
LEFT JOIN LATERAL (
    SELECT latest.* FROM (VALUES ('ACCEPTED'), ('DECLINED')) AS verified (status)
    CROSS JOIN LATERAL (
        SELECT e.id, e.status, e.version_minor, e.action_at, e.verified_at FROM clickwrap_events e
         WHERE e.tenant_id = $1 AND e.end_user_id = $2 AND e.template_id = $3 AND e.status = verified.status
           AND e.version_major = $4
         ORDER BY e.action_at DESC, e.id DESC LIMIT 1) AS latest
    ORDER BY latest.action_at DESC, latest.id DESC LIMIT 1) AS v ON true
LEFT JOIN LATERAL (
    SELECT e.id, e.version_minor, e.action_at FROM clickwrap_events e
     WHERE e.tenant_id = $1 AND e.end_user_id = $2 AND e.template_id = $3 AND e.status = 'UNVERIFIED'
       AND e.version_major = $4
     ORDER BY e.action_at DESC, e.id DESC LIMIT 1) AS u ON true";

impl SnapshotRow {
    pub(super) fn into_domain(self, major: u32) -> Result<ConsentSnapshot, StorageError> {
        let verified = match (self.v_id, self.v_status, self.v_minor, self.v_action_at) {
            (Some(id), Some(st), Some(minor), Some(action_at)) => Some(EventSummary {
                event_id: EventId::from_uuid(id),
                status: status(&st)?,
                version: VersionNumber::new(major, u32_of(minor, "minor")?),
                action_at: ts(action_at),
                verified_at: self.v_verified_at.map(ts),
            }),
            _ => None,
        };
        let unverified = match (self.u_id, self.u_minor, self.u_action_at) {
            (Some(id), Some(minor), Some(action_at)) => Some(EventSummary {
                event_id: EventId::from_uuid(id),
                status: EventStatus::Unverified,
                version: VersionNumber::new(major, u32_of(minor, "minor")?),
                action_at: ts(action_at),
                verified_at: None,
            }),
            _ => None,
        };
        Ok(ConsentSnapshot {
            latest_verified: verified,
            latest_unverified: unverified,
            accepted_earlier_major: self.accepted_earlier_major,
            re_accept_requested_at: self.re_accept_requested_at.map(ts),
        })
    }
}
