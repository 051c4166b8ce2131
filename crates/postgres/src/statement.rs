//! [`Statement`]: fixed SQL that PostgreSQL keeps prepared, for the statements run thousands of
//! times a second.

use diesel::pg::Pg;
use diesel::query_builder::{AstPass, Query, QueryFragment, QueryId};
use diesel::result::QueryResult;
use diesel::sql_types::{
    Array, BigInt, Binary, Bool, Int4, Nullable, SmallInt, Text, Timestamptz, Untyped, Uuid as SqlUuid,
};
use time::OffsetDateTime;

/// A value bound to a [`Statement`].
pub(crate) enum Value {
    Uuid(uuid::Uuid),
    Uuids(Vec<uuid::Uuid>),
    Ints(Vec<i32>),
    BigInts(Vec<i64>),
    MaybeInts(Vec<Option<i32>>),
    Texts(Vec<String>),
    MaybeTexts(Vec<Option<String>>),
    Ats(Vec<OffsetDateTime>),
    MaybeAts(Vec<Option<OffsetDateTime>>),
    At(OffsetDateTime),
    MaybeAt(Option<OffsetDateTime>),
    SmallInt(i16),
    Int(i32),
    MaybeInt(Option<i32>),
    BigInt(i64),
    Text(String),
    MaybeText(Option<String>),
    MaybeBytes(Option<Vec<u8>>),
    MaybeBool(Option<bool>),
}

impl Value {
    fn push<'b>(&'b self, out: &mut AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        match self {
            Value::Uuid(v) => out.push_bind_param::<SqlUuid, _>(v),
            Value::Uuids(v) => out.push_bind_param::<Array<SqlUuid>, _>(v),
            Value::Ints(v) => out.push_bind_param::<Array<Int4>, _>(v),
            Value::BigInts(v) => out.push_bind_param::<Array<BigInt>, _>(v),
            Value::MaybeInts(v) => out.push_bind_param::<Array<Nullable<Int4>>, _>(v),
            Value::Texts(v) => out.push_bind_param::<Array<Text>, _>(v),
            Value::MaybeTexts(v) => out.push_bind_param::<Array<Nullable<Text>>, _>(v),
            Value::Ats(v) => out.push_bind_param::<Array<Timestamptz>, _>(v),
            Value::MaybeAts(v) => out.push_bind_param::<Array<Nullable<Timestamptz>>, _>(v),
            Value::At(v) => out.push_bind_param::<Timestamptz, _>(v),
            Value::MaybeAt(v) => out.push_bind_param::<Nullable<Timestamptz>, _>(v),
            Value::SmallInt(v) => out.push_bind_param::<SmallInt, _>(v),
            Value::Int(v) => out.push_bind_param::<Int4, _>(v),
            Value::MaybeInt(v) => out.push_bind_param::<Nullable<Int4>, _>(v),
            Value::BigInt(v) => out.push_bind_param::<BigInt, _>(v),
            Value::Text(v) => out.push_bind_param::<Text, _>(v),
            Value::MaybeText(v) => out.push_bind_param::<Nullable<Text>, _>(v),
            Value::MaybeBytes(v) => out.push_bind_param::<Nullable<Binary>, _>(v),
            Value::MaybeBool(v) => out.push_bind_param::<Nullable<Bool>, _>(v),
        }
    }
}

/// Fixed SQL with `$n` parameters, like `sql_query`, but kept as a prepared statement per
/// connection. diesel never caches `sql_query`, nor UPDATEs, upserts or inserts with optional
/// columns; on the hot paths (the SDK check, the consent write, the dispatcher) each would otherwise
/// cost a parse, a plan and an extra round trip on every call. Every `$n` becomes a placeholder bound to `values[n - 1]` (one may appear several times).
pub(crate) struct Statement {
    sql: &'static str,
    values: Vec<Value>,
}

impl Statement {
    pub(crate) fn new(sql: &'static str, values: Vec<Value>) -> Self {
        Self { sql, values }
    }
}

impl QueryFragment<Pg> for Statement {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        let mut rest = self.sql;
        while let Some(dollar) = rest.find('$') {
            let (head, tail) = rest.split_at(dollar);
            out.push_sql(head);
            let digits = tail.bytes().skip(1).take_while(u8::is_ascii_digit).count();
            let number = tail.get(1..=digits).and_then(|n| n.parse::<usize>().ok());
            let value = number.and_then(|n| n.checked_sub(1)).and_then(|i| self.values.get(i)).ok_or_else(|| {
                diesel::result::Error::QueryBuilderError(format!("no value for parameter in {:?}", self.sql).into())
            })?;
            value.push(&mut out)?;
            rest = tail.get(1 + digits..).unwrap_or_default();
        }
        out.push_sql(rest);
        Ok(())
    }
}

/// The one row of a statement that changes data, read with `load` rather than `get_result`.
///
/// diesel-async's `get_result` answers at the first row PostgreSQL sends, without waiting for the
/// statement to finish: data-modifying CTEs that the row does not read run after it is sent, and
/// outside a transaction the commit comes later still. A failing insert or a crash there would undo
/// what the row announced. `load` reads to the end of the statement (its commit included).
pub(crate) fn only_row<T>(rows: Vec<T>) -> QueryResult<T> {
    rows.into_iter().next().ok_or(diesel::result::Error::NotFound)
}

impl QueryId for Statement {
    type QueryId = ();
    // Cached by its SQL text instead of a type.
    const HAS_STATIC_QUERY_ID: bool = false;
}

impl Query for Statement {
    type SqlType = Untyped;
}
