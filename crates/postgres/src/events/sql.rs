//! Fixed pieces of SQL that the diesel queries over `clickwrap_events` plug in: conditions and
//! subqueries whose text must be exactly this (for the partial indexes and the plans), and the
//! list's cursor condition.

use std::marker::PhantomData;

use diesel::expression::{
    AppearsOnTable, Expression, SelectableExpression, TypedExpressionType, ValidGrouping, is_aggregate,
};
use diesel::pg::Pg;
use diesel::prelude::*;
use diesel::query_builder::{AstPass, QueryFragment, QueryId};
use diesel::sql_types::{BigInt, Bool, Nullable, SqlType, Text, Timestamptz, Uuid as SqlUuid};

use crate::schema::clickwrap_events as events;

/// A fixed piece of SQL over `clickwrap_events`, written into the statement as it is. Unlike
/// diesel's `sql()` literal it says itself whether the statement may be kept prepared.
#[derive(Debug, Clone, Copy)]
pub(super) struct EventsSql<ST> {
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
pub(super) const VERIFIED: EventsSql<Bool> = EventsSql::new("\"clickwrap_events\".\"status\" <> 'UNVERIFIED'", true);

/// Verified acceptances only, for the end user's last acceptance. Written into the SQL so that the
/// statement, kept prepared, reads `events_list_tus` (whose predicate follows from it) under any
/// plan: with the status bound, a generic plan could not use that partial index and read every
/// acceptance of the end user in `events_consent`, sorted by time, to return the latest.
pub(super) const ACCEPTED: EventsSql<Bool> = EventsSql::new("\"clickwrap_events\".\"status\" = 'ACCEPTED'", false);

/// The event's rendered content, looked up per returned row. A subquery rather than a join, so the
/// plan of a page stays one ordered index scan under the LIMIT: with a join, PostgreSQL may hash
/// join and sort when it expects few rows (as near the end of the list).
pub(super) const CONTENT: EventsSql<Nullable<Text>> = EventsSql::new(
    "(SELECT \"event_contents\".\"content\" FROM \"event_contents\" \
     WHERE \"event_contents\".\"content_hash\" = \"clickwrap_events\".\"content_hash\")",
    false,
);

/// The event's tenant's quota and legal name, for a verification (each a primary-key lookup, so
/// the event and its tenant's terms are one statement).
pub(super) const TENANT_QUOTA: EventsSql<Nullable<BigInt>> = EventsSql::new(
    "(SELECT \"tenants\".\"event_quota\" FROM \"tenants\" \
     WHERE \"tenants\".\"id\" = \"clickwrap_events\".\"tenant_id\")",
    false,
);
pub(super) const TENANT_LEGAL_NAME: EventsSql<Nullable<Text>> = EventsSql::new(
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
pub(super) struct After {
    pub(super) action_at: time::OffsetDateTime,
    pub(super) id: uuid::Uuid,
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
