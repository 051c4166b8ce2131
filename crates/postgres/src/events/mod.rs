//! The `EventStore` port: consent events, their certificates and the read side over them.
//!
//! - `rows`: how an event (and the outbox row a verification writes) maps to and from its columns;
//! - `sql`: the fixed pieces of SQL that the diesel queries over `clickwrap_events` plug in;
//! - `snapshot`: the one statement behind every SDK check (what the acceptance rule needs);
//! - `verification`: the verification's commit, one statement or one transaction;
//! - this module: the port's methods, the lookups and the events list.

mod rows;
mod snapshot;
mod sql;
mod verification;

use std::collections::HashMap;

use async_trait::async_trait;
use clickwrap_domain::consent::acceptance::ConsentSnapshot;
use clickwrap_domain::consent::cursor::EventPosition;
use clickwrap_domain::consent::models::{
    ClickwrapEvent, DailyCount, EventDetails, EventFilter, EventToVerify, StoredCertificate, VerificationRecord,
};
use clickwrap_domain::ports::{CommitVerificationError, EventStore, StorageError};
use clickwrap_domain::webhooks::models::Delivery;
use clickwrap_domain::{EndUserId, EventId, Name, TemplateId, TenantId, Timestamp};
use diesel::pg::Pg;
use diesel::prelude::*;
use diesel_async::RunQueryDsl;

use self::rows::{EventRow, INSERT_EVENT_SQL};
use self::snapshot::{SNAPSHOT_SQL, SnapshotRow};
use self::sql::{ACCEPTED, After, CONTENT, TENANT_LEGAL_NAME, TENANT_QUOTA, VERIFIED};
use crate::PgStore;
use crate::connection::DbConnection;
use crate::convert::{at, count_u64, hash32, i32_of, limit_i64, ts};
use crate::errors::{corrupt, from_diesel};
use crate::schema::{certificates, clickwrap_events as events, re_accept_requests};
use crate::statement::{Statement, Value};

async fn load_events(
    conn: &mut DbConnection,
    query: events::BoxedQuery<'_, Pg>,
) -> Result<Vec<ClickwrapEvent>, StorageError> {
    let rows: Vec<(EventRow, Option<String>)> =
        query.select((EventRow::as_select(), CONTENT)).load(conn).await.map_err(from_diesel)?;
    rows.into_iter()
        .map(|(row, content)| {
            // The foreign key on content_hash makes a missing content impossible.
            let content = content.ok_or_else(|| corrupt("event content", &row.content_hash))?;
            row.into_domain(content)
        })
        .collect()
}

#[async_trait]
impl EventStore for PgStore {
    async fn insert_event(&self, event: &ClickwrapEvent) -> Result<(), StorageError> {
        let mut conn = self.conn().await?;
        // One statement (no BEGIN/COMMIT round trips): the content, unless stored already, and the
        // event. The foreign key from the event to its content is checked at the statement's end.
        Statement::new(INSERT_EVENT_SQL, EventRow::from_domain(event).into_values(event.content.clone()))
            .execute(&mut conn)
            .await
            .map(|_| ())
            .map_err(from_diesel)
    }

    async fn find_event(&self, tenant: TenantId, id: EventId) -> Result<Option<ClickwrapEvent>, StorageError> {
        let mut conn = self.conn().await?;
        let query = events::table
            .filter(events::tenant_id.eq(*tenant.as_uuid()))
            .filter(events::id.eq(*id.as_uuid()))
            .into_boxed();
        Ok(load_events(&mut conn, query).await?.into_iter().next())
    }

    async fn find_event_to_verify(&self, tenant: TenantId, id: EventId) -> Result<Option<EventToVerify>, StorageError> {
        let mut conn = self.conn().await?;
        let row: Option<(EventRow, Option<String>, Option<i64>, Option<String>)> = events::table
            .filter(events::tenant_id.eq(*tenant.as_uuid()))
            .filter(events::id.eq(*id.as_uuid()))
            .select((EventRow::as_select(), CONTENT, TENANT_QUOTA, TENANT_LEGAL_NAME))
            .first(&mut conn)
            .await
            .optional()
            .map_err(from_diesel)?;
        let Some((row, content, quota, legal_name)) = row else { return Ok(None) };
        // The foreign key on content_hash makes a missing content impossible.
        let content = content.ok_or_else(|| corrupt("event content", &row.content_hash))?;
        Ok(Some(EventToVerify {
            event: row.into_domain(content)?,
            event_quota: quota.map(|q| count_u64(q, "event quota")).transpose()?,
            legal_name: legal_name.map(|n| Name::parse(&n).map_err(|e| corrupt("legal name", e))).transpose()?,
        }))
    }

    async fn commit_verification(&self, record: &VerificationRecord) -> Result<(), CommitVerificationError> {
        let mut conn = self.conn().await?;
        verification::commit(&mut conn, record).await
    }

    async fn list_verified_events(
        &self,
        tenant: TenantId,
        filter: &EventFilter,
        after: Option<&EventPosition>,
        limit: usize,
    ) -> Result<Vec<ClickwrapEvent>, StorageError> {
        let mut conn = self.conn().await?;
        // The shape of every variant matches one of the `events_list*` partial indexes; what the
        // plans look like is checked by `cargo xtask bench storage` (see docs/storage.md).
        let mut query = events::table.filter(events::tenant_id.eq(*tenant.as_uuid())).filter(VERIFIED).into_boxed();
        if let Some(template) = filter.template_id {
            query = query.filter(events::template_id.eq(*template.as_uuid()));
        }
        if let Some(user) = &filter.end_user_id {
            query = query.filter(events::end_user_id.eq(user.as_str().to_owned()));
        }
        if let Some(action) = filter.status {
            query = query.filter(events::status.eq(action.as_str()));
        }
        if let Some(from) = filter.from {
            query = query.filter(events::action_at.ge(at(from)));
        }
        if let Some(to) = filter.to {
            query = query.filter(events::action_at.le(at(to)));
        }
        if let Some(position) = after {
            query = query.filter(After { action_at: at(position.action_at), id: *position.event_id.as_uuid() });
        }
        let query = query.order((events::action_at.desc(), events::id.desc())).limit(limit_i64(limit));
        load_events(&mut conn, query).await
    }

    async fn consent_snapshot(
        &self,
        tenant: TenantId,
        end_user: &EndUserId,
        template: TemplateId,
        major: u32,
    ) -> Result<ConsentSnapshot, StorageError> {
        let mut conn = self.conn().await?;
        let row: SnapshotRow = Statement::new(
            SNAPSHOT_SQL,
            vec![
                Value::Uuid(*tenant.as_uuid()),
                Value::Text(end_user.as_str().to_owned()),
                Value::Uuid(*template.as_uuid()),
                Value::Int(i32_of(major)),
            ],
        )
        .get_result(&mut conn)
        .await
        .map_err(from_diesel)?;
        row.into_domain(major)
    }

    async fn last_accepted_event(
        &self,
        tenant: TenantId,
        end_user: &EndUserId,
        template: TemplateId,
    ) -> Result<Option<ClickwrapEvent>, StorageError> {
        let mut conn = self.conn().await?;
        let query = events::table
            .filter(events::tenant_id.eq(*tenant.as_uuid()))
            .filter(events::end_user_id.eq(end_user.as_str().to_owned()))
            .filter(events::template_id.eq(*template.as_uuid()))
            .filter(ACCEPTED)
            .order((events::action_at.desc(), events::id.desc()))
            .limit(1)
            .into_boxed();
        Ok(load_events(&mut conn, query).await?.into_iter().next())
    }

    async fn request_re_accept(
        &self,
        tenant: TenantId,
        end_user: &EndUserId,
        template: TemplateId,
        reason: Option<&str>,
        at_time: Timestamp,
    ) -> Result<(), StorageError> {
        let mut conn = self.conn().await?;
        diesel::insert_into(re_accept_requests::table)
            .values((
                re_accept_requests::tenant_id.eq(tenant.as_uuid()),
                re_accept_requests::template_id.eq(template.as_uuid()),
                re_accept_requests::end_user_id.eq(end_user.as_str()),
                re_accept_requests::reason.eq(reason),
                re_accept_requests::requested_at.eq(at(at_time)),
            ))
            .execute(&mut conn)
            .await
            .map(|_| ())
            .map_err(from_diesel)
    }

    async fn find_certificate(
        &self,
        tenant: TenantId,
        event: EventId,
    ) -> Result<Option<StoredCertificate>, StorageError> {
        let mut conn = self.conn().await?;
        type Row = (uuid::Uuid, Vec<u8>, Vec<u8>, time::OffsetDateTime, Option<String>, Option<String>);
        let row: Option<Row> = certificates::table
            .filter(certificates::tenant_id.eq(tenant.as_uuid()))
            .filter(certificates::event_id.eq(event.as_uuid()))
            .select((
                certificates::event_id,
                certificates::pdf,
                certificates::sha256,
                certificates::created_at,
                certificates::app_name,
                certificates::operator_name,
            ))
            .first(&mut conn)
            .await
            .optional()
            .map_err(from_diesel)?;
        row.map(|(id, pdf, sha, created_at, app_name, operator_name)| {
            Ok(StoredCertificate {
                event_id: EventId::from_uuid(id),
                pdf,
                sha256: hash32(&sha, "certificate digest")?,
                created_at: ts(created_at),
                app_name,
                operator_name,
            })
        })
        .transpose()
    }

    async fn find_delivery_for_event(
        &self,
        tenant: TenantId,
        event: EventId,
    ) -> Result<Option<Delivery>, StorageError> {
        let mut conn = self.conn().await?;
        crate::deliveries::latest_for_event(&mut conn, tenant, event).await
    }

    async fn list_verified_event_details(
        &self,
        tenant: TenantId,
        filter: &EventFilter,
        after: Option<&EventPosition>,
        limit: usize,
    ) -> Result<Vec<EventDetails>, StorageError> {
        let events = self.list_verified_events(tenant, filter, after, limit).await?;
        let ids: Vec<uuid::Uuid> = events.iter().map(|e| *e.id.as_uuid()).collect();
        let mut conn = self.conn().await?;
        let digests: Vec<(uuid::Uuid, Vec<u8>)> = certificates::table
            .filter(certificates::tenant_id.eq(tenant.as_uuid()))
            .filter(certificates::event_id.eq_any(&ids))
            .select((certificates::event_id, certificates::sha256))
            .load(&mut conn)
            .await
            .map_err(from_diesel)?;
        let mut digests: HashMap<uuid::Uuid, [u8; 32]> = digests
            .into_iter()
            .map(|(id, sha)| Ok((id, hash32(&sha, "certificate digest")?)))
            .collect::<Result<_, StorageError>>()?;
        let mut deliveries: HashMap<EventId, Delivery> = crate::deliveries::latest_for_events(&mut conn, tenant, ids)
            .await?
            .into_iter()
            .map(|d| (d.event_id, d))
            .collect();
        Ok(events
            .into_iter()
            .map(|event| EventDetails {
                certificate_sha256: digests.remove(event.id.as_uuid()),
                delivery: deliveries.remove(&event.id),
                event,
            })
            .collect())
    }

    async fn daily_counts(
        &self,
        tenant: TenantId,
        from: Timestamp,
        to: Timestamp,
    ) -> Result<Vec<DailyCount>, StorageError> {
        let mut conn = self.conn().await?;
        // By the day the end user acted: an index-only range of `events_list_s` per status.
        let rows: Vec<DayRow> = Statement::new(
            "SELECT date_trunc('day', action_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS day, \
                    count(*) FILTER (WHERE status = 'ACCEPTED') AS accepted, \
                    count(*) FILTER (WHERE status = 'DECLINED') AS declined \
             FROM clickwrap_events \
             WHERE tenant_id = $1 AND status IN ('ACCEPTED', 'DECLINED') AND action_at >= $2 AND action_at < $3 \
             GROUP BY 1 ORDER BY 1",
            vec![Value::Uuid(*tenant.as_uuid()), Value::At(at(from)), Value::At(at(to))],
        )
        .load(&mut conn)
        .await
        .map_err(from_diesel)?;
        rows.into_iter()
            .map(|row| {
                Ok(DailyCount {
                    day: ts(row.day),
                    accepted: count_u64(row.accepted, "accepted count")?,
                    declined: count_u64(row.declined, "declined count")?,
                })
            })
            .collect()
    }
}

#[derive(diesel::QueryableByName)]
struct DayRow {
    #[diesel(sql_type = diesel::sql_types::Timestamptz)]
    day: time::OffsetDateTime,
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    accepted: i64,
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    declined: i64,
}
