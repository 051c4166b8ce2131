//! The webhook outbox for the dispatcher ([`DeliveryStore`]) and the wake-up channel ([`listen`]).
//!
//! Claiming a batch is one statement: `FOR UPDATE SKIP LOCKED` picks due rows no other dispatcher
//! is claiming at that moment, and the lease written with them (`lease_owner`, `lease_until`) keeps
//! them out of other claims until the attempt is recorded or the lease expires. Recording a batch
//! of attempts is one statement as well (`unnest` of one array per column: the attempt rows, and
//! each delivery's change only while the lease is held), so nothing is left half-written and a
//! batch takes a single round trip.
//!
//! A verification's new delivery is not announced (the verifying instance wakes its dispatcher in
//! process; others poll: see the `webhook_wake_in_process` migration). A redelivery is, with
//! `NOTIFY clickwrap_webhooks` by a trigger (the `webhook_dispatch` migration), and so are leases
//! given back ([`DeliveryStore::release_leases`]); [`crate::notifications::listen`] keeps a
//! connection LISTENing and calls back on each announcement.

use std::sync::Arc;

use async_trait::async_trait;
use clickwrap_domain::audit::models::AuditEntry;
use clickwrap_domain::ports::{DeliveryStore, StorageError};
use clickwrap_domain::webhooks::dispatch::{ClaimedDelivery, FinishedAttempt, LeaseOwner};
use clickwrap_domain::webhooks::models::{AttemptError, DeliveryAttempt};
use clickwrap_domain::webhooks::models::{Delivery, DeliveryState};
use clickwrap_domain::webhooks::models::{DeliveryPosition, DeliveryRecord};
use clickwrap_domain::{AppId, DeliveryId, EventId, TenantId, Timestamp};
use diesel::QueryableByName;
use diesel::sql_types::{BigInt, Bool, Int4, Nullable, Text, Timestamptz, Uuid as SqlUuid};
use diesel_async::{AsyncConnection, RunQueryDsl};
use time::OffsetDateTime;

use crate::PgStore;
use crate::connection::DbConnection;
use crate::convert::{at, i32_of, limit_i64, ts, u32_of};
use crate::database::DatabaseUrl;
use crate::errors::{corrupt, from_diesel};
use crate::notifications::WebhookWakeUps;
use crate::statement::{Statement, Value, only_row};

/// The channel redeliveries and released leases are announced on, and [`listen`] LISTENs on.
pub const CHANNEL: &str = crate::notifications::WEBHOOKS;

/// What [`DeliveryRow`] reads, of `webhook_deliveries AS d`.
macro_rules! delivery_columns {
    () => {
        "d.id, d.tenant_id, d.app_id, d.event_id, d.payload, d.state, d.attempts, d.next_attempt_at, \
         d.last_attempt_at, d.last_response_status, d.created_at, d.round_attempts, d.lease_until"
    };
}

#[derive(QueryableByName)]
struct DeliveryRow {
    #[diesel(sql_type = SqlUuid)]
    id: uuid::Uuid,
    #[diesel(sql_type = SqlUuid)]
    tenant_id: uuid::Uuid,
    #[diesel(sql_type = SqlUuid)]
    app_id: uuid::Uuid,
    #[diesel(sql_type = SqlUuid)]
    event_id: uuid::Uuid,
    #[diesel(sql_type = Text)]
    payload: String,
    #[diesel(sql_type = Text)]
    state: String,
    #[diesel(sql_type = Int4)]
    attempts: i32,
    #[diesel(sql_type = Nullable<Timestamptz>)]
    next_attempt_at: Option<OffsetDateTime>,
    #[diesel(sql_type = Nullable<Timestamptz>)]
    last_attempt_at: Option<OffsetDateTime>,
    #[diesel(sql_type = Nullable<Int4>)]
    last_response_status: Option<i32>,
    #[diesel(sql_type = Timestamptz)]
    created_at: OffsetDateTime,
    #[diesel(sql_type = Int4)]
    round_attempts: i32,
    #[diesel(sql_type = Nullable<Timestamptz>)]
    lease_until: Option<OffsetDateTime>,
}

impl DeliveryRow {
    fn into_domain(self) -> Result<Delivery, StorageError> {
        Ok(Delivery {
            id: DeliveryId::from_uuid(self.id),
            tenant_id: TenantId::from_uuid(self.tenant_id),
            app_id: AppId::from_uuid(self.app_id),
            event_id: EventId::from_uuid(self.event_id),
            payload: self.payload,
            state: DeliveryState::parse(&self.state).ok_or_else(|| corrupt("delivery state", &self.state))?,
            attempts: u32_of(self.attempts, "delivery attempts")?,
            next_attempt_at: self.next_attempt_at.map(ts),
            last_attempt_at: self.last_attempt_at.map(ts),
            last_response_status: self
                .last_response_status
                .map(|s| u16::try_from(s).map_err(|_| corrupt("response status", s)))
                .transpose()?,
            created_at: ts(self.created_at),
        })
    }

    fn into_claimed(self) -> Result<ClaimedDelivery, StorageError> {
        let round_attempts = u32_of(self.round_attempts, "round attempts")?;
        let lease_until = self.lease_until.map(ts).ok_or_else(|| corrupt("lease", "a claimed delivery has none"))?;
        Ok(ClaimedDelivery { delivery: self.into_domain()?, round_attempts, lease_until })
    }
}

/// The latest delivery of an event (for the event's details), read like every other delivery.
pub(crate) async fn latest_for_event(
    conn: &mut DbConnection,
    tenant: TenantId,
    event: EventId,
) -> Result<Option<Delivery>, StorageError> {
    let rows: Vec<DeliveryRow> = Statement::new(
        concat!(
            "SELECT ",
            delivery_columns!(),
            " FROM webhook_deliveries AS d WHERE d.tenant_id = $1 AND d.event_id = $2 ORDER BY d.created_at DESC LIMIT 1"
        ),
        vec![Value::Uuid(*tenant.as_uuid()), Value::Uuid(*event.as_uuid())],
    )
    .load(conn)
    .await
    .map_err(from_diesel)?;
    rows.into_iter().next().map(DeliveryRow::into_domain).transpose()
}

/// The latest delivery of each of these events (for exports: one query per batch).
pub(crate) async fn latest_for_events(
    conn: &mut DbConnection,
    tenant: TenantId,
    events: Vec<uuid::Uuid>,
) -> Result<Vec<Delivery>, StorageError> {
    let rows: Vec<DeliveryRow> = Statement::new(
        concat!(
            "SELECT DISTINCT ON (d.event_id) ",
            delivery_columns!(),
            " FROM webhook_deliveries AS d WHERE d.tenant_id = $1 AND d.event_id = ANY($2) \
             ORDER BY d.event_id, d.created_at DESC"
        ),
        vec![Value::Uuid(*tenant.as_uuid()), Value::Uuids(events)],
    )
    .load(conn)
    .await
    .map_err(from_diesel)?;
    rows.into_iter().map(DeliveryRow::into_domain).collect()
}

#[derive(QueryableByName)]
struct AttemptRow {
    #[diesel(sql_type = SqlUuid)]
    id: uuid::Uuid,
    #[diesel(sql_type = SqlUuid)]
    tenant_id: uuid::Uuid,
    #[diesel(sql_type = SqlUuid)]
    delivery_id: uuid::Uuid,
    #[diesel(sql_type = Int4)]
    attempt: i32,
    /// NULL when the body sent was the delivery's payload, as it always is (see `record_round`).
    #[diesel(sql_type = Nullable<Text>)]
    request_body: Option<String>,
    #[diesel(sql_type = Nullable<Int4>)]
    response_status: Option<i32>,
    #[diesel(sql_type = Nullable<Text>)]
    response_excerpt: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    error_class: Option<String>,
    #[diesel(sql_type = Timestamptz)]
    started_at: OffsetDateTime,
    #[diesel(sql_type = Int4)]
    duration_ms: i32,
}

impl AttemptRow {
    /// The attempt of `delivery`, whose payload is the body sent unless the row holds another.
    fn into_domain(self, delivery: &Delivery) -> Result<DeliveryAttempt, StorageError> {
        Ok(DeliveryAttempt {
            id: self.id,
            tenant_id: TenantId::from_uuid(self.tenant_id),
            delivery_id: DeliveryId::from_uuid(self.delivery_id),
            number: u32_of(self.attempt, "attempt number")?,
            request_body: self.request_body.unwrap_or_else(|| delivery.payload.clone()),
            response_status: self
                .response_status
                .map(|s| u16::try_from(s).map_err(|_| corrupt("response status", s)))
                .transpose()?,
            response_excerpt: self.response_excerpt,
            error: self
                .error_class
                .map(|e| AttemptError::parse(&e).ok_or_else(|| corrupt("attempt error class", &e)))
                .transpose()?,
            started_at: ts(self.started_at),
            duration_ms: u32_of(self.duration_ms, "attempt duration")?,
        })
    }
}

#[derive(QueryableByName)]
struct Released {
    #[diesel(sql_type = BigInt)]
    released: i64,
}

/// The attempts of `deliveries`, grouped onto their records, newest first.
async fn with_attempts(
    conn: &mut DbConnection,
    tenant: TenantId,
    rows: Vec<DeliveryRow>,
) -> Result<Vec<DeliveryRecord>, StorageError> {
    let deliveries: Vec<Delivery> = rows.into_iter().map(DeliveryRow::into_domain).collect::<Result<_, _>>()?;
    if deliveries.is_empty() {
        return Ok(Vec::new());
    }
    let ids: Vec<uuid::Uuid> = deliveries.iter().map(|d| *d.id.as_uuid()).collect();
    let attempts: Vec<AttemptRow> = Statement::new(
        "SELECT id, tenant_id, delivery_id, attempt, request_body, response_status, response_excerpt, error_class, \
         started_at, duration_ms FROM webhook_attempts WHERE tenant_id = $1 AND delivery_id = ANY($2) \
         ORDER BY started_at DESC, attempt DESC, id DESC",
        vec![Value::Uuid(*tenant.as_uuid()), Value::Uuids(ids)],
    )
    .load(conn)
    .await
    .map_err(from_diesel)?;
    let mut records: Vec<DeliveryRecord> =
        deliveries.into_iter().map(|delivery| DeliveryRecord { delivery, attempts: Vec::new() }).collect();
    for row in attempts {
        let delivery_id = DeliveryId::from_uuid(row.delivery_id);
        if let Some(record) = records.iter_mut().find(|r| r.delivery.id == delivery_id) {
            let attempt = row.into_domain(&record.delivery)?;
            record.attempts.push(attempt);
        }
    }
    Ok(records)
}

#[async_trait]
impl DeliveryStore for PgStore {
    async fn claim_due(
        &self,
        owner: LeaseOwner,
        now: Timestamp,
        lease_until: Timestamp,
        limit: usize,
    ) -> Result<Vec<ClaimedDelivery>, StorageError> {
        let mut conn = self.conn().await?;
        let rows: Vec<DeliveryRow> = Statement::new(
            concat!(
                // MATERIALIZED: the due rows are picked once. As a plain subquery of the UPDATE,
                // PostgreSQL may rescan it (inner side of a nested loop), and every rescan skips
                // the rows this statement just leased and locks the next ones: 56 rows leased for
                // a LIMIT of 32 were seen under load (cargo xtask bench).
                "WITH due AS MATERIALIZED ( \
                     SELECT id FROM webhook_deliveries \
                      WHERE state = 'PENDING' AND next_attempt_at <= $3 \
                        AND (lease_until IS NULL OR lease_until <= $3) \
                      ORDER BY next_attempt_at LIMIT $4 FOR UPDATE SKIP LOCKED) \
                 UPDATE webhook_deliveries AS d SET lease_owner = $1, lease_until = $2 \
                 FROM due WHERE d.id = due.id RETURNING ",
                delivery_columns!()
            ),
            vec![
                Value::Uuid(*owner.as_uuid()),
                Value::At(at(lease_until)),
                Value::At(at(now)),
                Value::BigInt(limit_i64(limit)),
            ],
        )
        .load(&mut conn)
        .await
        .map_err(from_diesel)?;
        rows.into_iter().map(DeliveryRow::into_claimed).collect()
    }

    async fn record_attempts(
        &self,
        owner: LeaseOwner,
        finished: &[FinishedAttempt],
    ) -> Result<Vec<bool>, StorageError> {
        if finished.is_empty() {
            return Ok(Vec::new());
        }
        let mut conn = self.conn().await?;
        let rounds = rounds_of_distinct_deliveries(finished);
        let recorded = if let [round] = rounds.as_slice() {
            record_round(&mut conn, owner, round).await
        } else {
            // The same delivery twice in one batch (taken over again by this dispatcher after its
            // lease ran out): each round sees what the one before did, all in one transaction.
            conn.transaction::<_, diesel::result::Error, _>(async |conn| {
                let mut updated = Vec::with_capacity(finished.len());
                for round in &rounds {
                    updated.extend(record_round(conn, owner, round).await?);
                }
                Ok(updated)
            })
            .await
        };
        let updated = recorded.map_err(from_diesel)?;
        if updated.len() != finished.len() {
            return Err(corrupt("recorded attempts", updated.len()));
        }
        Ok(updated)
    }

    async fn disable_leased(&self, owner: LeaseOwner, tenant: TenantId, id: DeliveryId) -> Result<bool, StorageError> {
        let mut conn = self.conn().await?;
        let changed = Statement::new(
            "UPDATE webhook_deliveries SET state = 'DISABLED', next_attempt_at = NULL, lease_owner = NULL, \
             lease_until = NULL WHERE tenant_id = $1 AND id = $2 AND lease_owner = $3 AND state = 'PENDING'",
            vec![Value::Uuid(*tenant.as_uuid()), Value::Uuid(*id.as_uuid()), Value::Uuid(*owner.as_uuid())],
        )
        .execute(&mut conn)
        .await
        .map_err(from_diesel)?;
        Ok(changed > 0)
    }

    async fn release_leases(&self, owner: LeaseOwner) -> Result<u64, StorageError> {
        let mut conn = self.conn().await?;
        // Released deliveries are due at once: wake the other dispatchers, as the trigger does for
        // redeliveries (rare, unlike verifications, which send no NOTIFY).
        let row: Released = Statement::new(
            "WITH released AS ( \
                 UPDATE webhook_deliveries SET lease_owner = NULL, lease_until = NULL \
                 WHERE lease_owner = $1 RETURNING state), \
             notified AS ( \
                 SELECT pg_notify('clickwrap_webhooks', '') \
                 FROM (SELECT 1 FROM released WHERE state = 'PENDING' LIMIT 1) AS pending) \
             SELECT (SELECT count(*) FROM released) AS released, (SELECT count(*) FROM notified) AS notified",
            vec![Value::Uuid(*owner.as_uuid())],
        )
        .load(&mut conn)
        .await
        .and_then(only_row)
        .map_err(from_diesel)?;
        u64::try_from(row.released).map_err(|_| corrupt("released count", row.released))
    }

    async fn list_deliveries(
        &self,
        tenant: TenantId,
        app: AppId,
        after: Option<&DeliveryPosition>,
        limit: usize,
    ) -> Result<Vec<DeliveryRecord>, StorageError> {
        let mut conn = self.conn().await?;
        // The row comparison is one bound of the `webhook_deliveries_by_app` index range.
        let statement = match after {
            None => Statement::new(
                concat!(
                    "SELECT ",
                    delivery_columns!(),
                    " FROM webhook_deliveries AS d WHERE d.tenant_id = $1 AND d.app_id = $2 \
                     ORDER BY d.created_at DESC, d.id DESC LIMIT $3"
                ),
                vec![Value::Uuid(*tenant.as_uuid()), Value::Uuid(*app.as_uuid()), Value::BigInt(limit_i64(limit))],
            ),
            Some(position) => Statement::new(
                concat!(
                    "SELECT ",
                    delivery_columns!(),
                    " FROM webhook_deliveries AS d WHERE d.tenant_id = $1 AND d.app_id = $2 \
                     AND (d.created_at, d.id) < ($3, $4) ORDER BY d.created_at DESC, d.id DESC LIMIT $5"
                ),
                vec![
                    Value::Uuid(*tenant.as_uuid()),
                    Value::Uuid(*app.as_uuid()),
                    Value::At(at(position.created_at)),
                    Value::Uuid(*position.id.as_uuid()),
                    Value::BigInt(limit_i64(limit)),
                ],
            ),
        };
        let rows: Vec<DeliveryRow> = statement.load(&mut conn).await.map_err(from_diesel)?;
        with_attempts(&mut conn, tenant, rows).await
    }

    async fn find_delivery(&self, tenant: TenantId, id: DeliveryId) -> Result<Option<DeliveryRecord>, StorageError> {
        let mut conn = self.conn().await?;
        let rows: Vec<DeliveryRow> = Statement::new(
            concat!(
                "SELECT ",
                delivery_columns!(),
                " FROM webhook_deliveries AS d WHERE d.tenant_id = $1 AND d.id = $2"
            ),
            vec![Value::Uuid(*tenant.as_uuid()), Value::Uuid(*id.as_uuid())],
        )
        .load(&mut conn)
        .await
        .map_err(from_diesel)?;
        Ok(with_attempts(&mut conn, tenant, rows).await?.into_iter().next())
    }

    async fn failed_deliveries(&self, tenant: TenantId, limit: usize) -> Result<Vec<DeliveryRecord>, StorageError> {
        let mut conn = self.conn().await?;
        // `webhook_deliveries_failed` is a partial index: only FAILED rows, which are few.
        let rows: Vec<DeliveryRow> = Statement::new(
            concat!(
                "SELECT ",
                delivery_columns!(),
                " FROM webhook_deliveries AS d WHERE d.tenant_id = $1 AND d.state = 'FAILED' \
                 ORDER BY d.last_attempt_at DESC NULLS LAST, d.id DESC LIMIT $2"
            ),
            vec![Value::Uuid(*tenant.as_uuid()), Value::BigInt(limit_i64(limit))],
        )
        .load(&mut conn)
        .await
        .map_err(from_diesel)?;
        with_attempts(&mut conn, tenant, rows).await
    }

    async fn redeliver(
        &self,
        tenant: TenantId,
        id: DeliveryId,
        now: Timestamp,
        audit: &AuditEntry,
    ) -> Result<bool, StorageError> {
        let mut conn = self.conn().await?;
        conn.transaction::<_, diesel::result::Error, _>(async |conn| {
            if redeliver(conn, tenant, id, now).await? == 0 {
                return Ok(false);
            }
            crate::audit::write(conn, audit).await?;
            Ok(true)
        })
        .await
        .map_err(from_diesel)
    }
}

/// `finished` cut, in order, into runs in which no delivery appears twice: one statement cannot
/// update a row twice, and the second attempt of a delivery must see what the first did to it.
fn rounds_of_distinct_deliveries(finished: &[FinishedAttempt]) -> Vec<&[FinishedAttempt]> {
    let mut rounds = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut start = 0;
    for (index, done) in finished.iter().enumerate() {
        if !seen.insert(done.attempt.delivery_id) {
            rounds.push(finished.get(start..index).unwrap_or_default());
            seen.clear();
            seen.insert(done.attempt.delivery_id);
            start = index;
        }
    }
    rounds.push(finished.get(start..).unwrap_or_default());
    rounds
}

#[derive(QueryableByName)]
struct RecordedRow {
    #[diesel(sql_type = Bool)]
    updated: bool,
}

/// One statement for attempts of distinct deliveries, doing per attempt what
/// [`DeliveryStore::record_attempt`] does: the attempt row, and the delivery's change while
/// `owner` holds its lease and it is PENDING. Whether each delivery was updated, in order.
/// An attempt's body is stored only when it differs from its delivery's payload (never, as the
/// dispatcher sends the payload as it is): the payload is kept once, in the delivery, not once more
/// per attempt.
async fn record_round(
    conn: &mut DbConnection,
    owner: LeaseOwner,
    round: &[FinishedAttempt],
) -> diesel::QueryResult<Vec<bool>> {
    let attempts = round.iter().map(|f| &f.attempt);
    let rows: Vec<RecordedRow> = Statement::new(
        "WITH input AS ( \
             SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::int4[], $5::text[], $6::int4[], \
                 $7::text[], $8::text[], $9::timestamptz[], $10::int4[], $11::text[], $12::timestamptz[]) \
             WITH ORDINALITY AS i(id, tenant_id, delivery_id, attempt, request_body, response_status, \
                 response_excerpt, error_class, started_at, duration_ms, state, next_attempt_at, n)), \
         recorded AS ( \
             INSERT INTO webhook_attempts (id, tenant_id, delivery_id, attempt, request_body, response_status, \
                 response_excerpt, error_class, started_at, duration_ms) \
             SELECT i.id, i.tenant_id, i.delivery_id, i.attempt, NULLIF(i.request_body, d.payload), \
                 i.response_status, i.response_excerpt, i.error_class, i.started_at, i.duration_ms \
             FROM input AS i LEFT JOIN webhook_deliveries AS d ON d.tenant_id = i.tenant_id AND d.id = i.delivery_id), \
         updated AS ( \
             UPDATE webhook_deliveries AS d SET state = i.state, next_attempt_at = i.next_attempt_at, \
                 attempts = d.attempts + 1, round_attempts = d.round_attempts + 1, \
                 last_attempt_at = i.started_at, last_response_status = i.response_status, \
                 lease_owner = NULL, lease_until = NULL \
             FROM input AS i \
             WHERE d.tenant_id = i.tenant_id AND d.id = i.delivery_id AND d.lease_owner = $13 \
               AND d.state = 'PENDING' \
             RETURNING i.n) \
         SELECT EXISTS (SELECT 1 FROM updated AS u WHERE u.n = i.n) AS updated FROM input AS i ORDER BY i.n",
        vec![
            Value::Uuids(attempts.clone().map(|a| a.id).collect()),
            Value::Uuids(attempts.clone().map(|a| *a.tenant_id.as_uuid()).collect()),
            Value::Uuids(attempts.clone().map(|a| *a.delivery_id.as_uuid()).collect()),
            Value::Ints(attempts.clone().map(|a| i32_of(a.number)).collect()),
            Value::Texts(attempts.clone().map(|a| a.request_body.clone()).collect()),
            Value::MaybeInts(attempts.clone().map(|a| a.response_status.map(i32::from)).collect()),
            Value::MaybeTexts(attempts.clone().map(|a| a.response_excerpt.clone()).collect()),
            Value::MaybeTexts(attempts.clone().map(|a| a.error.map(|e| e.as_str().to_owned())).collect()),
            Value::Ats(attempts.clone().map(|a| at(a.started_at)).collect()),
            Value::Ints(attempts.map(|a| i32_of(a.duration_ms)).collect()),
            Value::Texts(round.iter().map(|f| f.outcome.state().as_str().to_owned()).collect()),
            Value::MaybeAts(round.iter().map(|f| f.outcome.next_attempt_at().map(at)).collect()),
            Value::Uuid(*owner.as_uuid()),
        ],
    )
    .load(conn)
    .await?;
    Ok(rows.into_iter().map(|row| row.updated).collect())
}

/// Makes a delivery due now (see [`DeliveryStore::redeliver`]); how many rows changed.
async fn redeliver(
    conn: &mut DbConnection,
    tenant: TenantId,
    id: DeliveryId,
    now: Timestamp,
) -> diesel::QueryResult<usize> {
    // In SET, `state` is the value before the update. The lease goes in every case: an attempt in
    // flight must not overwrite the redelivery with its own outcome.
    Statement::new(
        "UPDATE webhook_deliveries SET \
             state = 'PENDING', \
             next_attempt_at = CASE WHEN state = 'PENDING' THEN LEAST(next_attempt_at, $3) ELSE $3 END, \
             round_attempts = CASE WHEN state = 'PENDING' THEN round_attempts ELSE 0 END, \
             lease_owner = NULL, \
             lease_until = NULL \
         WHERE tenant_id = $1 AND id = $2",
        vec![Value::Uuid(*tenant.as_uuid()), Value::Uuid(*id.as_uuid()), Value::At(at(now))],
    )
    .execute(conn)
    .await
}

/// A connection listening for webhook wake-ups alone.
pub type DeliveryListener = crate::notifications::Listener;

/// Calls `on_wake` whenever a webhook delivery is redelivered or given back (a NOTIFY on [`CHANNEL`]),
/// and once each time the listening connection is (re)established, since announcements made while it
/// was down are lost. For a process that listens for nothing else; the server listens on every
/// channel over one connection with [`crate::notifications::listen`].
pub fn listen(url: DatabaseUrl, on_wake: impl Fn() + Send + Sync + 'static) -> DeliveryListener {
    crate::notifications::listen(url, vec![(CHANNEL, Arc::new(WebhookWakeUps(on_wake)))])
}
