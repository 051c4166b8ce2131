//! The store's connection in both of its ways of sending statements: what each leaves on the
//! server (a transaction-mode pooler needs nothing at all), and that results, errors and pipelined
//! statements are the same either way.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use clickwrap_postgres::database::{DbConnection, Statements};
use clickwrap_postgres::test_db::TestDatabase;
use diesel::result::{DatabaseErrorKind, Error};
use diesel::sql_types::{BigInt, Integer, Nullable, Text};
use diesel_async::{AsyncConnection, RunQueryDsl, SimpleAsyncConnection};

#[derive(diesel::QueryableByName, Debug, PartialEq)]
struct Row {
    #[diesel(sql_type = Integer)]
    number: i32,
    #[diesel(sql_type = Nullable<Text>)]
    label: Option<String>,
}

#[derive(diesel::QueryableByName)]
struct Count {
    #[diesel(sql_type = BigInt)]
    count: i64,
}

async fn connect(db: &TestDatabase, statements: Statements) -> DbConnection {
    DbConnection::connect(&db.url().expose(), statements).await.expect("connect")
}

/// Named statements the server holds for this session.
async fn kept_on_server(conn: &mut DbConnection) -> i64 {
    diesel::sql_query("SELECT count(*) AS count FROM pg_prepared_statements")
        .get_result::<Count>(conn)
        .await
        .expect("count prepared statements")
        .count
}

diesel::table! {
    numbers (number) {
        number -> Integer,
        label -> Nullable<Text>,
    }
}

/// A query diesel lets be kept prepared (its SQL is the same whatever the value).
async fn select_row(conn: &mut DbConnection, number: i32) -> Row {
    use diesel::{ExpressionMethods, QueryDsl};
    numbers::table
        .filter(numbers::number.eq(number))
        .select((numbers::number, numbers::label))
        .get_result::<(i32, Option<String>)>(conn)
        .await
        .map(|(number, label)| Row { number, label })
        .expect("select")
}

async fn with_numbers(conn: &mut DbConnection) {
    conn.batch_execute(
        "CREATE TEMPORARY TABLE numbers (number int PRIMARY KEY, label text); \
                        INSERT INTO numbers SELECT n, NULL FROM generate_series(1, 3) n",
    )
    .await
    .expect("create the table");
}

#[tokio::test]
async fn unnamed_statements_leave_nothing_on_the_server() {
    let db = TestDatabase::new().await;
    let mut conn = connect(&db, Statements::Unnamed).await;
    with_numbers(&mut conn).await;
    for number in [1, 2, 3] {
        assert_eq!(select_row(&mut conn, number).await, Row { number, label: None });
    }
    assert_eq!(kept_on_server(&mut conn).await, 0);
}

#[tokio::test]
async fn prepared_statements_are_kept_once_and_reused() {
    let db = TestDatabase::new().await;
    let mut conn = connect(&db, Statements::Prepared).await;
    with_numbers(&mut conn).await;
    for number in [1, 2, 3] {
        assert_eq!(select_row(&mut conn, number).await, Row { number, label: None });
    }
    // One for the select run three times; the count itself is an `sql_query`, which diesel does
    // not let be kept, so it goes unnamed.
    assert_eq!(kept_on_server(&mut conn).await, 1);
}

#[tokio::test]
async fn both_ways_read_nulls_texts_and_counts_alike() {
    let db = TestDatabase::new().await;
    for statements in [Statements::Prepared, Statements::Unnamed] {
        let mut conn = connect(&db, statements).await;
        conn.batch_execute("CREATE TEMPORARY TABLE t (number int PRIMARY KEY, label text)").await.unwrap();
        let inserted = diesel::sql_query("INSERT INTO t VALUES ($1, $2), ($3, NULL)")
            .bind::<Integer, _>(1)
            .bind::<Text, _>("één ✓")
            .bind::<Integer, _>(2)
            .execute(&mut conn)
            .await
            .unwrap();
        assert_eq!(inserted, 2, "{statements:?}");
        let rows: Vec<Row> =
            diesel::sql_query("SELECT number, label FROM t ORDER BY number").load(&mut conn).await.unwrap();
        assert_eq!(
            rows,
            [Row { number: 1, label: Some("één ✓".to_owned()) }, Row { number: 2, label: None }],
            "{statements:?}"
        );
        let updated = diesel::sql_query("UPDATE t SET label = 'x' WHERE number > $1")
            .bind::<Integer, _>(0)
            .execute(&mut conn)
            .await
            .unwrap();
        assert_eq!(updated, 2, "{statements:?}");
    }
}

#[tokio::test]
async fn errors_keep_their_kind_and_a_failed_transaction_rolls_back() {
    let db = TestDatabase::new().await;
    for statements in [Statements::Prepared, Statements::Unnamed] {
        let mut conn = connect(&db, statements).await;
        conn.batch_execute("CREATE TEMPORARY TABLE t (number int PRIMARY KEY)").await.unwrap();
        let insert = |n: i32| diesel::sql_query("INSERT INTO t VALUES ($1)").bind::<Integer, _>(n);
        let outcome = conn
            .transaction::<(), Error, _>(async |conn| {
                insert(1).execute(conn).await?;
                insert(1).execute(conn).await?;
                Ok(())
            })
            .await;
        assert!(
            matches!(&outcome, Err(Error::DatabaseError(DatabaseErrorKind::UniqueViolation, info)) if info.constraint_name() == Some("t_pkey")),
            "{statements:?}: {outcome:?}"
        );
        let left: Count = diesel::sql_query("SELECT count(*) AS count FROM t").get_result(&mut conn).await.unwrap();
        assert_eq!(left.count, 0, "{statements:?}: the transaction was rolled back");
        insert(1).execute(&mut conn).await.expect("the connection is usable after the rollback");
    }
}

#[tokio::test]
async fn a_connection_the_server_ended_reports_it_closed() {
    let db = TestDatabase::new().await;
    for statements in [Statements::Prepared, Statements::Unnamed] {
        let mut victim = connect(&db, statements).await;
        #[derive(diesel::QueryableByName)]
        struct Pid {
            #[diesel(sql_type = Integer)]
            pid: i32,
        }
        let pid: Pid = diesel::sql_query("SELECT pg_backend_pid() AS pid").get_result(&mut victim).await.unwrap();
        let mut admin = connect(&db, Statements::Unnamed).await;
        diesel::sql_query("SELECT pg_terminate_backend($1)")
            .bind::<Integer, _>(pid.pid)
            .execute(&mut admin)
            .await
            .unwrap();
        let failed = diesel::sql_query("SELECT 1").execute(&mut victim).await;
        assert!(
            matches!(
                failed,
                Err(Error::DatabaseError(
                    DatabaseErrorKind::ClosedConnection | DatabaseErrorKind::UnableToSendCommand,
                    _
                ))
            ),
            "{statements:?}: {failed:?}"
        );
    }
}

#[tokio::test]
async fn statements_through_a_shared_connection_are_pipelined_in_order() {
    let db = TestDatabase::new().await;
    for statements in [Statements::Prepared, Statements::Unnamed] {
        let mut conn = connect(&db, statements).await;
        conn.batch_execute("CREATE TEMPORARY TABLE t (number int)").await.unwrap();
        {
            let mut shared: &DbConnection = &conn;
            let first = diesel::sql_query("INSERT INTO t VALUES (1)").execute(&mut shared);
            let mut shared_too: &DbConnection = &conn;
            let second = diesel::sql_query("INSERT INTO t SELECT count(*) + 1 FROM t").execute(&mut shared_too);
            let (first, second) = futures_util::future::try_join(first, second).await.unwrap();
            assert_eq!((first, second), (1, 1), "{statements:?}");
        }
        let rows: Vec<Row> = diesel::sql_query("SELECT number, NULL::text AS label FROM t ORDER BY number")
            .load(&mut conn)
            .await
            .unwrap();
        let numbers: Vec<i32> = rows.iter().map(|row| row.number).collect();
        assert_eq!(numbers, [1, 2], "{statements:?}: the second saw the first");
    }
}
