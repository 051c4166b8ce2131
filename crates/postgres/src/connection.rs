//! [`DbConnection`]: the store's connection to PostgreSQL, a diesel-async connection over
//! tokio-postgres that sends its statements in one of two ways ([`Statements`]).
//!
//! diesel-async's own connection prepares every statement under a name first (one round trip),
//! then binds and runs it (another), and keeps the names it may reuse on the connection. Behind a
//! transaction-mode pooler (PgBouncer, pgcat, a cloud proxy) that breaks: between the two round
//! trips the pooler may hand the client another server connection, where the name does not exist
//! or where another client's statement already holds it. PostgreSQL's unnamed statement, parsed,
//! bound and run in one message batch, outlives nothing and fits any server connection.

use std::collections::HashMap;
use std::num::NonZeroU32;
use std::ops::Range;
use std::sync::{Mutex, PoisonError};

use diesel::connection::{CacheSize, DynInstrumentation, Instrumentation, InstrumentationEvent, StrQueryHelper};
use diesel::pg::{FailedToLookupTypeError, Pg, PgMetadataCacheKey, PgMetadataLookup, PgQueryBuilder, PgTypeMetadata};
use diesel::query_builder::bind_collector::RawBytesBindCollector;
use diesel::query_builder::{AsQuery, QueryBuilder, QueryFragment, QueryId};
use diesel::result::{ConnectionError, ConnectionResult, DatabaseErrorInformation, DatabaseErrorKind, QueryResult};
use diesel::row::{Field, PartialRow, Row, RowIndex, RowSealed};
use diesel_async::pooled_connection::PoolableConnection;
use diesel_async::{AnsiTransactionManager, AsyncConnection, AsyncConnectionCore, SimpleAsyncConnection};
use futures_util::future::{BoxFuture, FutureExt};
use futures_util::stream::{BoxStream, StreamExt, TryStreamExt};
use tokio_postgres::types::{FromSql, IsNull, ToSql, Type};

/// How a connection sends its statements to PostgreSQL.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Statements {
    /// Prepared under a name the first time and kept on the connection, so that later runs are
    /// one round trip without a parse: for a session of its own (a direct connection, or a pooler
    /// in session mode).
    Prepared,
    /// PostgreSQL's unnamed statement, parsed, bound and run in one message batch (one round trip,
    /// planned for its values each time): nothing outlives the batch, so a transaction-mode pooler
    /// may hand each one to any server connection.
    Unnamed,
}

/// At most this many statements are kept prepared per connection; further ones run unnamed. The
/// store's statements are a fixed set well below it: the bound only guards against a bug that
/// would make SQL text vary with its values.
const PREPARED_CAPACITY: usize = 512;

/// A connection of the store's pool.
pub struct DbConnection {
    client: tokio_postgres::Client,
    statements: Statements,
    /// The statements kept prepared ([`Statements::Prepared`]), by SQL text. Locked only to look
    /// up or insert, never across an await: statements of one connection may be sent at once
    /// (pipelined) through a shared reference.
    prepared: Mutex<HashMap<String, tokio_postgres::Statement>>,
    transaction_state: AnsiTransactionManager,
    instrumentation: Mutex<DynInstrumentation>,
}

impl std::fmt::Debug for DbConnection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kept = self.prepared.lock().map_or(0, |prepared| prepared.len());
        f.debug_struct("DbConnection").field("statements", &self.statements).field("kept", &kept).finish()
    }
}

impl DbConnection {
    /// Opens a connection that sends its statements as `statements` says.
    pub async fn connect(url: &str, statements: Statements) -> ConnectionResult<Self> {
        let mut instrumentation = DynInstrumentation::default_instrumentation();
        instrumentation.on_connection_event(InstrumentationEvent::start_establish_connection(url));
        let connected = tokio_postgres::connect(url, tokio_postgres::NoTls).await;
        let error = connected.as_ref().err().map(|e| ConnectionError::BadConnection(e.to_string()));
        instrumentation.on_connection_event(InstrumentationEvent::finish_establish_connection(url, error.as_ref()));
        let (client, connection) = connected.map_err(|e| ConnectionError::BadConnection(e.to_string()))?;
        // The connection's socket is driven by a task of its own; it ends when the client is
        // dropped (or the server goes away, which the client's next statement reports).
        tokio::spawn(async move {
            if let Err(error) = connection.await {
                tracing::debug!(%error, "database connection ended");
            }
        });
        Ok(Self {
            client,
            statements,
            prepared: Mutex::default(),
            transaction_state: AnsiTransactionManager::default(),
            instrumentation: Mutex::new(instrumentation),
        })
    }

    fn record(&self, event: InstrumentationEvent<'_>) {
        self.instrumentation.lock().unwrap_or_else(PoisonError::into_inner).on_connection_event(event);
    }

    /// Turns a query into its SQL text and bound values, telling the instrumentation it starts.
    fn build<T: QueryFragment<Pg> + QueryId>(&self, query: &T) -> QueryResult<Built> {
        self.record(InstrumentationEvent::start_query(&diesel::debug_query::<Pg, _>(query)));
        let built = Built::of(query);
        if let Err(error) = &built {
            self.record(InstrumentationEvent::finish_query(&StrQueryHelper::new(""), Some(error)));
        }
        built
    }

    /// Sends a built statement; the rows (or the count) follow on the stream.
    async fn send(&self, built: Built) -> QueryResult<tokio_postgres::RowStream> {
        let Built { sql, values, types, cacheable } = built;
        let sent = match self.kept(&sql, &types, cacheable).await {
            Ok(Some(statement)) => self.client.query_raw(&statement, values).await.map_err(from_postgres),
            Ok(None) => self.client.query_typed_raw(&sql, values.into_iter().zip(types)).await.map_err(from_postgres),
            Err(error) => Err(error),
        };
        self.record(InstrumentationEvent::finish_query(&StrQueryHelper::new(&sql), sent.as_ref().err()));
        sent
    }

    /// The named statement to run `sql` with, prepared the first time, when this connection keeps
    /// statements prepared and the SQL may be kept; `None`: run it unnamed.
    async fn kept(&self, sql: &str, types: &[Type], cacheable: bool) -> QueryResult<Option<tokio_postgres::Statement>> {
        if self.statements == Statements::Unnamed || !cacheable {
            return Ok(None);
        }
        {
            let prepared = self.prepared.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some(statement) = prepared.get(sql) {
                return Ok((statement.params() == types).then(|| statement.clone()));
            }
            if prepared.len() >= PREPARED_CAPACITY {
                return Ok(None);
            }
        }
        let statement = self.client.prepare_typed(sql, types).await.map_err(from_postgres)?;
        self.record(InstrumentationEvent::cache_query(sql));
        self.prepared.lock().unwrap_or_else(PoisonError::into_inner).insert(sql.to_owned(), statement.clone());
        Ok(Some(statement))
    }

    /// Runs a query and hands back its rows as they come.
    fn load_rows<T: QueryFragment<Pg> + QueryId>(&self, query: &T) -> BoxFuture<'_, QueryResult<Rows>> {
        let built = self.build(query);
        async move {
            let rows = self.send(built?).await?;
            Ok(rows.map_ok(DbRow).map_err(from_postgres).boxed())
        }
        .boxed()
    }

    /// Runs a statement to its end and hands back how many rows it changed.
    fn execute_counting<T: QueryFragment<Pg> + QueryId>(&self, query: &T) -> BoxFuture<'_, QueryResult<usize>> {
        let built = self.build(query);
        async move {
            let mut rows = std::pin::pin!(self.send(built?).await?);
            while rows.try_next().await.map_err(from_postgres)?.is_some() {}
            let count = rows.rows_affected().unwrap_or(0);
            usize::try_from(count).map_err(|e| diesel::result::Error::DeserializationError(Box::new(e)))
        }
        .boxed()
    }

    async fn run_batch(&self, sql: &str) -> QueryResult<()> {
        self.record(InstrumentationEvent::start_query(&StrQueryHelper::new(sql)));
        let done = self.client.batch_execute(sql).await.map_err(from_postgres);
        self.record(InstrumentationEvent::finish_query(&StrQueryHelper::new(sql), done.as_ref().err()));
        done
    }
}

/// A statement ready to send.
struct Built {
    sql: String,
    values: Vec<Value>,
    types: Vec<Type>,
    /// Whether diesel says the SQL text is the same whatever the values (so it may be kept).
    cacheable: bool,
}

impl Built {
    fn of<T: QueryFragment<Pg> + QueryId>(query: &T) -> QueryResult<Self> {
        let mut builder = PgQueryBuilder::default();
        query.to_sql(&mut builder, &Pg)?;
        let mut binds = RawBytesBindCollector::<Pg>::new();
        query.collect_binds(&mut binds, &mut BuiltInTypesOnly, &Pg)?;
        let types = binds.metadata.iter().map(type_of).collect::<QueryResult<Vec<_>>>()?;
        Ok(Self {
            sql: builder.finish(),
            values: binds.binds.into_iter().map(Value).collect(),
            types,
            cacheable: query.is_safe_to_cache_prepared(&Pg)?,
        })
    }
}

/// The PostgreSQL type of a bound value. The schema uses PostgreSQL's built-in types only.
fn type_of(metadata: &PgTypeMetadata) -> QueryResult<Type> {
    let oid = metadata.oid().map_err(|e| diesel::result::Error::SerializationError(Box::new(e)))?;
    Type::from_oid(oid).ok_or_else(|| {
        diesel::result::Error::SerializationError(format!("no built-in PostgreSQL type has the oid {oid}").into())
    })
}

/// Looks up no type: a bound value of a type that is not built in fails to serialize.
struct BuiltInTypesOnly;

impl PgMetadataLookup for BuiltInTypesOnly {
    fn lookup_type(&mut self, type_name: &str, schema: Option<&str>) -> PgTypeMetadata {
        let key = PgMetadataCacheKey::new(schema.map(|s| s.to_owned().into()), type_name.to_owned().into());
        PgTypeMetadata::from_result(Err(FailedToLookupTypeError::new(key)))
    }

    fn as_any<'a>(&mut self) -> &mut (dyn std::any::Any + 'a)
    where
        Self: 'a,
    {
        self
    }
}

/// A value as diesel serialized it (PostgreSQL's binary format), or NULL.
#[derive(Debug)]
struct Value(Option<Vec<u8>>);

impl ToSql for Value {
    fn to_sql(&self, _: &Type, out: &mut bytes::BytesMut) -> Result<IsNull, Box<dyn std::error::Error + Sync + Send>> {
        match &self.0 {
            Some(bytes) => {
                out.extend_from_slice(bytes);
                Ok(IsNull::No)
            }
            None => Ok(IsNull::Yes),
        }
    }

    /// The type was chosen by diesel from the SQL type of the value and sent along with it.
    fn accepts(_: &Type) -> bool {
        true
    }

    tokio_postgres::types::to_sql_checked!();
}

/// A row as PostgreSQL sent it, for diesel to read.
#[derive(Debug)]
pub struct DbRow(tokio_postgres::Row);

impl RowSealed for DbRow {}

impl<'a> Row<'a, Pg> for DbRow {
    type Field<'f>
        = DbField<'f>
    where
        'a: 'f,
        Self: 'f;
    type InnerPartialRow = Self;

    fn field_count(&self) -> usize {
        self.0.len()
    }

    fn get<'b, I>(&'b self, index: I) -> Option<Self::Field<'b>>
    where
        'a: 'b,
        Self: RowIndex<I>,
    {
        let index = self.idx(index)?;
        let oid = NonZeroU32::new(self.0.columns().get(index)?.type_().oid())?;
        Some(DbField { row: &self.0, index, oid })
    }

    fn partial_row(&self, range: Range<usize>) -> PartialRow<'_, Self::InnerPartialRow> {
        PartialRow::new(self, range)
    }
}

impl RowIndex<usize> for DbRow {
    fn idx(&self, index: usize) -> Option<usize> {
        (index < self.0.len()).then_some(index)
    }
}

impl<'a> RowIndex<&'a str> for DbRow {
    fn idx(&self, name: &'a str) -> Option<usize> {
        self.0.columns().iter().position(|column| column.name() == name)
    }
}

/// One column of a [`DbRow`].
#[derive(Debug)]
pub struct DbField<'a> {
    row: &'a tokio_postgres::Row,
    index: usize,
    oid: NonZeroU32,
}

impl<'a> Field<'a, Pg> for DbField<'a> {
    fn field_name(&self) -> Option<&str> {
        self.row.columns().get(self.index).map(tokio_postgres::Column::name)
    }

    fn value(&self) -> Option<diesel::pg::PgValue<'_>> {
        let RawValue(bytes) = self.row.try_get(self.index).ok()?;
        bytes.map(|bytes| diesel::pg::PgValue::new(bytes, &self.oid))
    }
}

/// A column's bytes as they came, for diesel to decode (`None`: NULL).
struct RawValue<'a>(Option<&'a [u8]>);

impl<'a> FromSql<'a> for RawValue<'a> {
    fn from_sql(_: &Type, raw: &'a [u8]) -> Result<Self, Box<dyn std::error::Error + Sync + Send>> {
        Ok(Self(Some(raw)))
    }

    fn from_sql_null(_: &Type) -> Result<Self, Box<dyn std::error::Error + Sync + Send>> {
        Ok(Self(None))
    }

    fn accepts(_: &Type) -> bool {
        true
    }
}

/// A query's rows, as they come.
type Rows = BoxStream<'static, QueryResult<DbRow>>;

impl SimpleAsyncConnection for DbConnection {
    async fn batch_execute(&mut self, sql: &str) -> QueryResult<()> {
        self.run_batch(sql).await
    }
}

impl AsyncConnectionCore for DbConnection {
    type ExecuteFuture<'conn, 'query> = BoxFuture<'conn, QueryResult<usize>>;
    type LoadFuture<'conn, 'query> = BoxFuture<'conn, QueryResult<Rows>>;
    type Stream<'conn, 'query> = Rows;
    type Row<'conn, 'query> = DbRow;
    type Backend = Pg;

    fn load<'conn, 'query, T>(&'conn mut self, source: T) -> Self::LoadFuture<'conn, 'query>
    where
        T: AsQuery + 'query,
        T::Query: QueryFragment<Pg> + QueryId + 'query,
    {
        self.load_rows(&source.as_query())
    }

    fn execute_returning_count<'conn, 'query, T>(&'conn mut self, source: T) -> Self::ExecuteFuture<'conn, 'query>
    where
        T: QueryFragment<Pg> + QueryId + 'query,
    {
        self.execute_counting(&source)
    }
}

/// Statements sent through a shared reference go out at once (pipelined) when their futures are
/// awaited together; PostgreSQL still runs them in the order they were sent.
impl SimpleAsyncConnection for &DbConnection {
    async fn batch_execute(&mut self, sql: &str) -> QueryResult<()> {
        self.run_batch(sql).await
    }
}

impl<'a> AsyncConnectionCore for &'a DbConnection {
    type ExecuteFuture<'conn, 'query> = BoxFuture<'a, QueryResult<usize>>;
    type LoadFuture<'conn, 'query> = BoxFuture<'a, QueryResult<Rows>>;
    type Stream<'conn, 'query> = Rows;
    type Row<'conn, 'query> = DbRow;
    type Backend = Pg;

    fn load<'conn, 'query, T>(&'conn mut self, source: T) -> Self::LoadFuture<'conn, 'query>
    where
        T: AsQuery + 'query,
        T::Query: QueryFragment<Pg> + QueryId + 'query,
    {
        let conn: &'a DbConnection = self;
        conn.load_rows(&source.as_query())
    }

    fn execute_returning_count<'conn, 'query, T>(&'conn mut self, source: T) -> Self::ExecuteFuture<'conn, 'query>
    where
        T: QueryFragment<Pg> + QueryId + 'query,
    {
        let conn: &'a DbConnection = self;
        conn.execute_counting(&source)
    }
}

impl AsyncConnection for DbConnection {
    type TransactionManager = AnsiTransactionManager;

    /// A connection with [`Statements::Prepared`].
    async fn establish(url: &str) -> ConnectionResult<Self> {
        Self::connect(url, Statements::Prepared).await
    }

    fn transaction_state(&mut self) -> &mut AnsiTransactionManager {
        &mut self.transaction_state
    }

    fn instrumentation(&mut self) -> &mut dyn Instrumentation {
        &mut **self.instrumentation.get_mut().unwrap_or_else(PoisonError::into_inner)
    }

    fn set_instrumentation(&mut self, instrumentation: impl Instrumentation) {
        *self.instrumentation.get_mut().unwrap_or_else(PoisonError::into_inner) = instrumentation.into();
    }

    /// Whether statements are kept is [`Statements`]' choice, made when connecting.
    fn set_prepared_statement_cache_size(&mut self, _: CacheSize) {}
}

impl PoolableConnection for DbConnection {
    fn is_broken(&mut self) -> bool {
        use diesel_async::TransactionManager;
        AnsiTransactionManager::is_broken_transaction_manager(self) || self.client.is_closed()
    }
}

/// A tokio-postgres failure as diesel reports it: PostgreSQL's errors with their kind, a lost
/// connection (SQLSTATE class 08, an administrator's shutdown) as a closed connection, and
/// tokio-postgres's own failures (no SQLSTATE) by their text.
fn from_postgres(error: tokio_postgres::Error) -> diesel::result::Error {
    use tokio_postgres::error::SqlState;
    let Some(database_error) = error.as_db_error() else {
        return diesel::result::Error::DatabaseError(
            DatabaseErrorKind::UnableToSendCommand,
            Box::new(error.to_string()),
        );
    };
    let code = database_error.code();
    let kind = match code {
        c if *c == SqlState::UNIQUE_VIOLATION => DatabaseErrorKind::UniqueViolation,
        c if *c == SqlState::FOREIGN_KEY_VIOLATION => DatabaseErrorKind::ForeignKeyViolation,
        c if *c == SqlState::RESTRICT_VIOLATION => DatabaseErrorKind::RestrictViolation,
        c if *c == SqlState::EXCLUSION_VIOLATION => DatabaseErrorKind::ExclusionViolation,
        c if *c == SqlState::T_R_SERIALIZATION_FAILURE => DatabaseErrorKind::SerializationFailure,
        c if *c == SqlState::READ_ONLY_SQL_TRANSACTION => DatabaseErrorKind::ReadOnlyTransaction,
        c if *c == SqlState::NOT_NULL_VIOLATION => DatabaseErrorKind::NotNullViolation,
        c if *c == SqlState::CHECK_VIOLATION => DatabaseErrorKind::CheckViolation,
        c if c.code().starts_with("08")
            || [SqlState::ADMIN_SHUTDOWN, SqlState::CRASH_SHUTDOWN, SqlState::CANNOT_CONNECT_NOW].contains(c) =>
        {
            DatabaseErrorKind::ClosedConnection
        }
        _ => DatabaseErrorKind::Unknown,
    };
    diesel::result::Error::DatabaseError(kind, Box::new(DatabaseErrorText(database_error.clone())))
}

/// PostgreSQL's error, as diesel's error information.
struct DatabaseErrorText(tokio_postgres::error::DbError);

impl DatabaseErrorInformation for DatabaseErrorText {
    fn message(&self) -> &str {
        self.0.message()
    }

    fn details(&self) -> Option<&str> {
        self.0.detail()
    }

    fn hint(&self) -> Option<&str> {
        self.0.hint()
    }

    fn table_name(&self) -> Option<&str> {
        self.0.table()
    }

    fn column_name(&self) -> Option<&str> {
        self.0.column()
    }

    fn constraint_name(&self) -> Option<&str> {
        self.0.constraint()
    }

    fn statement_position(&self) -> Option<i32> {
        match self.0.position()? {
            tokio_postgres::error::ErrorPosition::Original(at)
            | tokio_postgres::error::ErrorPosition::Internal { position: at, .. } => i32::try_from(*at).ok(),
        }
    }
}
