use std::collections::HashMap;
use std::marker::PhantomData;

use async_trait::async_trait;
use clickwrap_domain::consent::acceptance::{ConsentSnapshot, EventSummary};
use clickwrap_domain::consent::cursor::EventPosition;
use clickwrap_domain::consent::models::EventDetails;
use clickwrap_domain::consent::models::{
    Action, ClickwrapEvent, EventFilter, EventStatus, Presentation, PresentationMode,
};
use clickwrap_domain::consent::models::{DailyCount, EventToVerify, StoredCertificate, VerificationRecord};
use clickwrap_domain::content::hash::ContentHash;
use clickwrap_domain::ports::{CommitVerificationError, EventStore, StorageError};
use clickwrap_domain::templates::customizations::AgreementMode;
use clickwrap_domain::templates::versioning::VersionNumber;
use clickwrap_domain::webhooks::models::Delivery;
use clickwrap_domain::{AppId, EndUserId, EventId, Language, Name, TemplateId, TenantId, Timestamp};
use diesel::expression::{
    AppearsOnTable, Expression, SelectableExpression, TypedExpressionType, ValidGrouping, is_aggregate,
};
use diesel::pg::Pg;
use diesel::prelude::*;
use diesel::query_builder::{AstPass, QueryFragment, QueryId};
use diesel::sql_types::{BigInt, Bool, Nullable, SqlType, Text, Timestamptz, Uuid as SqlUuid};
use diesel_async::{AsyncConnection, RunQueryDsl};

use crate::PgStore;
use crate::connection::DbConnection;
use crate::convert::{at, count_i64, count_u64, hash32, i32_of, limit_i64, ts, u32_of};
use crate::errors::{corrupt, from_diesel};
use crate::schema::{certificates, clickwrap_events as events, re_accept_requests, webhook_deliveries};
use crate::statement::{Statement, Value, only_row};
use crate::tenants::period_usage;
use futures_util::future::try_join4;

/// Verifications of one tenant spread their usage count over this many rows.
const USAGE_SHARDS: u8 = 16;
/// Below this many events left in the quota, verifications of the tenant take turns (an advisory
/// lock) so the quota is exact; above it they run side by side.
const QUOTA_EXACT_MARGIN: i64 = 64;

#[derive(Queryable, Selectable)]
#[diesel(table_name = events, check_for_backend(diesel::pg::Pg))]
struct EventRow {
    id: uuid::Uuid,
    tenant_id: uuid::Uuid,
    app_id: uuid::Uuid,
    template_id: uuid::Uuid,
    template_name: String,
    version_major: i32,
    version_minor: i32,
    effective_at: time::OffsetDateTime,
    end_user_id: String,
    action: String,
    status: String,
    language: String,
    content_hash: String,
    template_placeholders: Option<String>,
    technical_metadata: String,
    presentation_mode: String,
    agreement_mode: String,
    accept_label: String,
    checkbox_label: Option<String>,
    presented_at: time::OffsetDateTime,
    action_at: time::OffsetDateTime,
    verified_at: Option<time::OffsetDateTime>,
    scroll_required: Option<bool>,
}

/// Inserts an event and, unless it is stored already, its rendered content (`$13` is the content
/// hash, `$24` the content). See [`EventRow::into_values`].
const INSERT_EVENT_SQL: &str = "
WITH content AS (
    INSERT INTO event_contents (content_hash, content) VALUES ($13, $24) ON CONFLICT DO NOTHING)
INSERT INTO clickwrap_events (id, tenant_id, app_id, template_id, template_name, version_major, version_minor,
    effective_at, end_user_id, action, status, language, content_hash, template_placeholders, technical_metadata,
    presentation_mode, agreement_mode, accept_label, checkbox_label, presented_at, action_at, verified_at,
    scroll_required)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23)";

impl EventRow {
    fn from_domain(e: &ClickwrapEvent) -> Self {
        Self {
            id: *e.id.as_uuid(),
            tenant_id: *e.tenant_id.as_uuid(),
            app_id: *e.app_id.as_uuid(),
            template_id: *e.template_id.as_uuid(),
            template_name: e.template_name.clone(),
            version_major: i32_of(e.version.major),
            version_minor: i32_of(e.version.minor),
            effective_at: at(e.effective_at),
            end_user_id: e.end_user_id.as_str().to_owned(),
            action: e.action.as_str().to_owned(),
            status: e.status.as_str().to_owned(),
            language: e.language.code().to_owned(),
            content_hash: e.content_hash.as_str().to_owned(),
            template_placeholders: e.template_placeholders.clone(),
            technical_metadata: e.technical_metadata.clone(),
            presentation_mode: e.presentation.mode.as_str().to_owned(),
            agreement_mode: e.presentation.agreement_mode.as_str().to_owned(),
            accept_label: e.presentation.accept_label.clone(),
            checkbox_label: e.presentation.checkbox_label.clone(),
            presented_at: at(e.presented_at),
            action_at: at(e.action_at),
            verified_at: e.verified_at.map(at),
            scroll_required: e.presentation.scroll_required,
        }
    }

    /// The values of [`INSERT_EVENT_SQL`]: the row's columns in order, then the content.
    fn into_values(self, content: String) -> Vec<Value> {
        vec![
            Value::Uuid(self.id),
            Value::Uuid(self.tenant_id),
            Value::Uuid(self.app_id),
            Value::Uuid(self.template_id),
            Value::Text(self.template_name),
            Value::Int(self.version_major),
            Value::Int(self.version_minor),
            Value::At(self.effective_at),
            Value::Text(self.end_user_id),
            Value::Text(self.action),
            Value::Text(self.status),
            Value::Text(self.language),
            Value::Text(self.content_hash),
            Value::MaybeText(self.template_placeholders),
            Value::Text(self.technical_metadata),
            Value::Text(self.presentation_mode),
            Value::Text(self.agreement_mode),
            Value::Text(self.accept_label),
            Value::MaybeText(self.checkbox_label),
            Value::At(self.presented_at),
            Value::At(self.action_at),
            Value::MaybeAt(self.verified_at),
            Value::MaybeBool(self.scroll_required),
            Value::Text(content),
        ]
    }

    fn into_domain(self, content: String) -> Result<ClickwrapEvent, StorageError> {
        Ok(ClickwrapEvent {
            id: EventId::from_uuid(self.id),
            tenant_id: TenantId::from_uuid(self.tenant_id),
            app_id: AppId::from_uuid(self.app_id),
            template_id: TemplateId::from_uuid(self.template_id),
            template_name: self.template_name,
            version: VersionNumber::new(u32_of(self.version_major, "major")?, u32_of(self.version_minor, "minor")?),
            effective_at: ts(self.effective_at),
            end_user_id: EndUserId::parse(&self.end_user_id).map_err(|e| corrupt("end user id", e))?,
            action: Action::parse(&self.action).ok_or_else(|| corrupt("action", &self.action))?,
            status: status(&self.status)?,
            language: Language::from_tag(&self.language).map_err(|e| corrupt("language", e))?,
            content,
            content_hash: ContentHash::parse(&self.content_hash).map_err(|e| corrupt("content hash", e))?,
            template_placeholders: self.template_placeholders,
            technical_metadata: self.technical_metadata,
            presentation: Presentation {
                mode: PresentationMode::parse(&self.presentation_mode)
                    .ok_or_else(|| corrupt("presentation mode", &self.presentation_mode))?,
                agreement_mode: AgreementMode::parse(&self.agreement_mode)
                    .ok_or_else(|| corrupt("agreement mode", &self.agreement_mode))?,
                accept_label: self.accept_label,
                checkbox_label: self.checkbox_label,
                scroll_required: self.scroll_required,
            },
            presented_at: ts(self.presented_at),
            action_at: ts(self.action_at),
            verified_at: self.verified_at.map(ts),
        })
    }
}

fn status(text: &str) -> Result<EventStatus, StorageError> {
    EventStatus::parse(text).ok_or_else(|| corrupt("event status", text))
}

/// The outbox row as the verification writes it (the dispatcher's side reads it in `deliveries.rs`).
// `treat_none_as_default_value = false`: a `None` is bound as NULL rather than written as DEFAULT,
// so the INSERT is the same statement every time and stays prepared.
#[derive(Insertable)]
#[diesel(table_name = webhook_deliveries, check_for_backend(diesel::pg::Pg), treat_none_as_default_value = false)]
struct DeliveryRow {
    id: uuid::Uuid,
    tenant_id: uuid::Uuid,
    app_id: uuid::Uuid,
    event_id: uuid::Uuid,
    payload: String,
    state: String,
    attempts: i32,
    next_attempt_at: Option<time::OffsetDateTime>,
    last_attempt_at: Option<time::OffsetDateTime>,
    last_response_status: Option<i32>,
    created_at: time::OffsetDateTime,
}

impl DeliveryRow {
    fn from_domain(d: &Delivery) -> Self {
        Self {
            id: *d.id.as_uuid(),
            tenant_id: *d.tenant_id.as_uuid(),
            app_id: *d.app_id.as_uuid(),
            event_id: *d.event_id.as_uuid(),
            payload: d.payload.clone(),
            state: d.state.as_str().to_owned(),
            attempts: i32_of(d.attempts),
            next_attempt_at: d.next_attempt_at.map(at),
            last_attempt_at: d.last_attempt_at.map(at),
            last_response_status: d.last_response_status.map(i32::from),
            created_at: at(d.created_at),
        }
    }
}

/// The latest event of one end user and template on one major, by status class.
#[derive(QueryableByName)]
struct SnapshotRow {
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
const SNAPSHOT_SQL: &str = "
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
    fn into_domain(self, major: u32) -> Result<ConsentSnapshot, StorageError> {
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

/// A fixed piece of SQL over `clickwrap_events`, written into the statement as it is. Unlike
/// diesel's `sql()` literal it says itself whether the statement may be kept prepared.
#[derive(Debug, Clone, Copy)]
struct EventsSql<ST> {
    sql: &'static str,
    /// Keep the statement from being prepared once and reused, so PostgreSQL plans it each time.
    plan_each_time: bool,
    sql_type: PhantomData<ST>,
}

impl<ST> EventsSql<ST> {
    const fn new(sql: &'static str, plan_each_time: bool) -> Self {
        Self { sql, plan_each_time, sql_type: PhantomData }
    }
}

/// The list's own condition. The value is written into the SQL rather than bound, so the partial
/// `events_list*` indexes' predicate follows from the statement's text, whatever the plan.
///
/// It also has PostgreSQL plan every list query for its values. A prepared statement may switch to
/// a generic plan after five executions, and a generic plan knows neither the end user nor the
/// range: with all three filters it reads `events_list_us` and filters the template, which costs in
/// proportion to that end user's events in other templates (`cargo xtask bench storage` checks the
/// plans; see docs/storage.md). Planning takes a fraction of a millisecond.
const VERIFIED: EventsSql<Bool> = EventsSql::new("\"clickwrap_events\".\"status\" <> 'UNVERIFIED'", true);

/// Verified acceptances only, for the end user's last acceptance. Written into the SQL so that the
/// statement, kept prepared, reads `events_list_tus` (whose predicate follows from it) under any
/// plan: with the status bound, a generic plan could not use that partial index and read every
/// acceptance of the end user in `events_consent`, sorted by time, to return the latest.
const ACCEPTED: EventsSql<Bool> = EventsSql::new("\"clickwrap_events\".\"status\" = 'ACCEPTED'", false);

/// The event's rendered content, looked up per returned row. A subquery rather than a join, so the
/// plan of a page stays one ordered index scan under the LIMIT: with a join, PostgreSQL may hash
/// join and sort when it expects few rows (as near the end of the list).
const CONTENT: EventsSql<Nullable<Text>> = EventsSql::new(
    "(SELECT \"event_contents\".\"content\" FROM \"event_contents\" \
     WHERE \"event_contents\".\"content_hash\" = \"clickwrap_events\".\"content_hash\")",
    false,
);

/// The event's tenant's quota and legal name, for a verification (each a primary-key lookup, so
/// the event and its tenant's terms are one statement).
const TENANT_QUOTA: EventsSql<Nullable<BigInt>> = EventsSql::new(
    "(SELECT \"tenants\".\"event_quota\" FROM \"tenants\" \
     WHERE \"tenants\".\"id\" = \"clickwrap_events\".\"tenant_id\")",
    false,
);
const TENANT_LEGAL_NAME: EventsSql<Nullable<Text>> = EventsSql::new(
    "(SELECT \"tenants\".\"legal_name\" FROM \"tenants\" \
     WHERE \"tenants\".\"id\" = \"clickwrap_events\".\"tenant_id\")",
    false,
);

impl<ST: SqlType + TypedExpressionType> Expression for EventsSql<ST> {
    type SqlType = ST;
}

impl<ST> QueryFragment<Pg> for EventsSql<ST> {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        if self.plan_each_time {
            out.unsafe_to_cache_prepared();
        }
        out.push_sql(self.sql);
        Ok(())
    }
}

impl<ST: 'static> QueryId for EventsSql<ST> {
    type QueryId = ();
    // Several values share the type, so the type alone does not identify the statement.
    const HAS_STATIC_QUERY_ID: bool = false;
}

impl<ST, GB> ValidGrouping<GB> for EventsSql<ST> {
    type IsAggregate = is_aggregate::Never;
}

impl<ST: SqlType + TypedExpressionType> AppearsOnTable<events::table> for EventsSql<ST> {}
impl<ST: SqlType + TypedExpressionType> SelectableExpression<events::table> for EventsSql<ST> {}

/// `(action_at, id) < (position)`: strictly after `position` in list order (newest first), as one
/// row comparison, which PostgreSQL turns into a single bound of the index range.
#[derive(Debug, Clone, Copy)]
struct After {
    action_at: time::OffsetDateTime,
    id: uuid::Uuid,
}

impl Expression for After {
    type SqlType = Bool;
}

impl QueryFragment<Pg> for After {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        out.push_sql("(\"clickwrap_events\".\"action_at\", \"clickwrap_events\".\"id\") < (");
        out.push_bind_param::<Timestamptz, _>(&self.action_at)?;
        out.push_sql(", ");
        out.push_bind_param::<SqlUuid, _>(&self.id)?;
        out.push_sql(")");
        Ok(())
    }
}

impl QueryId for After {
    type QueryId = ();
    const HAS_STATIC_QUERY_ID: bool = false;
}

impl<GB> ValidGrouping<GB> for After {
    type IsAggregate = is_aggregate::Never;
}

impl AppearsOnTable<events::table> for After {}
impl SelectableExpression<events::table> for After {}

/// The usage counter shard of a verification: chosen by the event id, so concurrent ones rarely collide.
fn usage_shard(record: &VerificationRecord) -> u8 {
    record.event.id.as_bytes().last().map_or(0, |b| b % USAGE_SHARDS)
}

/// Counts one verified event on its shard.
async fn count_usage(mut conn: &DbConnection, record: &VerificationRecord) -> QueryResult<()> {
    Statement::new(
        "INSERT INTO usage_counters (tenant_id, period_start, shard, events) VALUES ($1, $2, $3, 1) \
         ON CONFLICT (tenant_id, period_start, shard) DO UPDATE SET events = usage_counters.events + 1",
        vec![
            Value::Uuid(*record.event.tenant_id.as_uuid()),
            Value::At(at(record.period.start)),
            Value::SmallInt(i16::from(usage_shard(record))),
        ],
    )
    .execute(&mut conn)
    .await
    .map(|_| ())
}

/// Whether one more verification fits the quota, exactly: near the limit the tenant's
/// verifications take turns on an advisory lock held until the transaction ends.
async fn quota_allows(conn: &mut DbConnection, record: &VerificationRecord) -> QueryResult<bool> {
    let Some(quota) = record.quota.map(count_i64) else {
        return Ok(true);
    };
    let used = period_usage(conn, record.event.tenant_id, &record.period).await?;
    if quota - used > QUOTA_EXACT_MARGIN {
        return Ok(true);
    }
    diesel::sql_query("SELECT pg_advisory_xact_lock(hashtextextended($1::text, 0))")
        .bind::<Text, _>(format!("quota:{}", record.event.tenant_id))
        .execute(conn)
        .await?;
    Ok(period_usage(conn, record.event.tenant_id, &record.period).await? < quota)
}

/// Why the event was not verified: it was verified already (also by a concurrent verification), or
/// it does not exist. A statement of its own, so it sees what committed meanwhile.
async fn why_not_verified(conn: &mut DbConnection, event: &ClickwrapEvent) -> CommitFailure {
    let current = events::table
        .filter(events::tenant_id.eq(event.tenant_id.as_uuid()))
        .filter(events::id.eq(event.id.as_uuid()))
        .select(events::status)
        .first::<String>(conn)
        .await
        .optional();
    match current {
        Ok(status) => match status.as_deref().and_then(EventStatus::parse) {
            Some(status) => CommitFailure::AlreadyVerified(status),
            None => CommitFailure::Missing,
        },
        Err(e) => CommitFailure::Database(e),
    }
}

/// A verification for a tenant without an event quota, in one statement: the event's UPDATE, and
/// only if it updated a row, the certificate, the outbox entry and the usage count (one implicit
/// transaction, one round trip). With a quota, `commit_verification` takes a transaction instead,
/// as the quota check must sit between the update and the writes.
const VERIFY_UNLIMITED_SQL: &str = "
WITH verified AS (
    UPDATE clickwrap_events SET status = $3, verified_at = $4
     WHERE tenant_id = $1 AND id = $2 AND status = 'UNVERIFIED'
    RETURNING id),
certificate AS (
    INSERT INTO certificates (event_id, tenant_id, pdf, sha256, created_at, app_name, operator_name)
    SELECT $2, $1, $5, $6, $7, $19, $20 FROM verified WHERE $5 IS NOT NULL),
delivery AS (
    INSERT INTO webhook_deliveries (id, tenant_id, app_id, event_id, payload, state, attempts, next_attempt_at,
                                    last_attempt_at, last_response_status, created_at)
    SELECT $8, $1, $9, $2, $10, $11, $12, $13, $14, $15, $16 FROM verified),
usage AS (
    INSERT INTO usage_counters (tenant_id, period_start, shard, events)
    SELECT $1, $17, $18, 1 FROM verified
    ON CONFLICT (tenant_id, period_start, shard) DO UPDATE SET events = usage_counters.events + 1),
ledger AS (
    INSERT INTO ledger_logs (tenant_id, tree_size) SELECT $1, 1 FROM verified
    ON CONFLICT (tenant_id) DO UPDATE SET tree_size = ledger_logs.tree_size + 1
    RETURNING tree_size - 1 AS leaf_index),
leaf AS (
    INSERT INTO ledger_leaves (tenant_id, leaf_index, event_id, leaf_hash, salt)
    SELECT $1, leaf_index, $2, $21, $22 FROM ledger)
SELECT EXISTS (SELECT 1 FROM verified) AS verified";

/// Appends a verified event's leaf to its tenant's evidence ledger (the quota path's transaction).
const APPEND_LEAF_SQL: &str = "
WITH ledger AS (
    INSERT INTO ledger_logs (tenant_id, tree_size) VALUES ($1, 1)
    ON CONFLICT (tenant_id) DO UPDATE SET tree_size = ledger_logs.tree_size + 1
    RETURNING tree_size - 1 AS leaf_index)
INSERT INTO ledger_leaves (tenant_id, leaf_index, event_id, leaf_hash, salt)
SELECT $1, leaf_index, $2, $3, $4 FROM ledger";

#[derive(QueryableByName)]
struct Verified {
    #[diesel(sql_type = Bool)]
    verified: bool,
}

async fn commit_unlimited_verification(
    conn: &mut DbConnection,
    record: &VerificationRecord,
) -> Result<(), CommitVerificationError> {
    let event = &record.event;
    let delivery = DeliveryRow::from_domain(&record.delivery);
    let certificate = record.certificate.as_ref();
    let values = vec![
        Value::Uuid(*event.tenant_id.as_uuid()),
        Value::Uuid(*event.id.as_uuid()),
        Value::Text(event.status.as_str().to_owned()),
        Value::MaybeAt(event.verified_at.map(at)),
        Value::MaybeBytes(certificate.map(|c| c.pdf.clone())),
        Value::MaybeBytes(certificate.map(|c| c.sha256.to_vec())),
        Value::MaybeAt(certificate.map(|c| at(c.created_at))),
        Value::Uuid(delivery.id),
        Value::Uuid(delivery.app_id),
        Value::Text(delivery.payload),
        Value::Text(delivery.state),
        Value::Int(delivery.attempts),
        Value::MaybeAt(delivery.next_attempt_at),
        Value::MaybeAt(delivery.last_attempt_at),
        Value::MaybeInt(delivery.last_response_status),
        Value::At(delivery.created_at),
        Value::At(at(record.period.start)),
        Value::SmallInt(i16::from(usage_shard(record))),
        Value::MaybeText(certificate.and_then(|c| c.app_name.clone())),
        Value::MaybeText(certificate.and_then(|c| c.operator_name.clone())),
        Value::MaybeBytes(Some(record.ledger_leaf.leaf_hash.to_vec())),
        Value::MaybeBytes(Some(record.ledger_leaf.salt.to_vec())),
    ];
    let row: Verified = Statement::new(VERIFY_UNLIMITED_SQL, values)
        .load(conn)
        .await
        .and_then(only_row)
        .map_err(|e| CommitVerificationError::from(from_diesel(e)))?;
    if row.verified {
        return Ok(());
    }
    match why_not_verified(conn, event).await {
        CommitFailure::AlreadyVerified(status) => Err(CommitVerificationError::AlreadyVerified(status)),
        CommitFailure::Missing => Err(CommitVerificationError::EventMissing),
        CommitFailure::Database(e) => Err(from_diesel(e).into()),
        CommitFailure::QuotaExceeded => Err(CommitVerificationError::QuotaExceeded),
    }
}

/// Why a verification transaction rolled back.
enum CommitFailure {
    Database(diesel::result::Error),
    AlreadyVerified(EventStatus),
    Missing,
    QuotaExceeded,
}

impl From<diesel::result::Error> for CommitFailure {
    fn from(error: diesel::result::Error) -> Self {
        CommitFailure::Database(error)
    }
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
        if record.quota.is_none() {
            return commit_unlimited_verification(&mut conn, record).await;
        }
        let event = &record.event;
        let certificate = record.certificate.as_ref().map(|c| {
            (
                certificates::event_id.eq(*c.event_id.as_uuid()),
                certificates::tenant_id.eq(*event.tenant_id.as_uuid()),
                certificates::pdf.eq(c.pdf.clone()),
                certificates::sha256.eq(c.sha256.to_vec()),
                certificates::created_at.eq(at(c.created_at)),
                certificates::app_name.eq(c.app_name.clone()),
                certificates::operator_name.eq(c.operator_name.clone()),
            )
        });
        let delivery = DeliveryRow::from_domain(&record.delivery);
        let outcome = conn
            .transaction::<_, CommitFailure, _>(async |conn| {
                // Verified at most once: only an UNVERIFIED row is updated.
                let updated = Statement::new(
                    "UPDATE clickwrap_events SET status = $3, verified_at = $4 \
                     WHERE tenant_id = $1 AND id = $2 AND status = 'UNVERIFIED'",
                    vec![
                        Value::Uuid(*event.tenant_id.as_uuid()),
                        Value::Uuid(*event.id.as_uuid()),
                        Value::Text(event.status.as_str().to_owned()),
                        Value::MaybeAt(event.verified_at.map(at)),
                    ],
                )
                .execute(conn)
                .await?;
                if updated == 0 {
                    return Err(why_not_verified(conn, event).await);
                }
                // Checked after the update, so a second verify says "already verified" even when
                // the quota is used up; the error rolls the update back.
                if !quota_allows(conn, record).await? {
                    return Err(CommitFailure::QuotaExceeded);
                }
                // The three writes are sent at once (pipelined); PostgreSQL still runs them in order.
                let mut shared: &DbConnection = conn;
                let certificate = certificate
                    .as_ref()
                    .map(|row| diesel::insert_into(certificates::table).values(row.clone()).execute(&mut shared));
                let certificate = async {
                    match certificate {
                        Some(insert) => insert.await,
                        None => Ok(0),
                    }
                };
                let delivery = diesel::insert_into(webhook_deliveries::table).values(&delivery).execute(&mut shared);
                let leaf = Statement::new(
                    APPEND_LEAF_SQL,
                    vec![
                        Value::Uuid(*event.tenant_id.as_uuid()),
                        Value::Uuid(*event.id.as_uuid()),
                        Value::MaybeBytes(Some(record.ledger_leaf.leaf_hash.to_vec())),
                        Value::MaybeBytes(Some(record.ledger_leaf.salt.to_vec())),
                    ],
                )
                .execute(&mut shared);
                try_join4(certificate, delivery, count_usage(shared, record), leaf).await?;
                Ok(())
            })
            .await;
        match outcome {
            Ok(()) => Ok(()),
            Err(CommitFailure::QuotaExceeded) => Err(CommitVerificationError::QuotaExceeded),
            Err(CommitFailure::AlreadyVerified(status)) => Err(CommitVerificationError::AlreadyVerified(status)),
            Err(CommitFailure::Missing) => Err(CommitVerificationError::EventMissing),
            Err(CommitFailure::Database(e)) => Err(from_diesel(e).into()),
        }
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
