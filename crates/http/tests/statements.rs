//! What the SDK check and the verification ask of PostgreSQL, counted through the store's
//! connections: in steady state a check is one statement, prepared once per connection and reused,
//! and a verification reads once before it commits. Nothing is left out: rate limits are decided
//! in memory, so a write per request would show here.
//!
//! The statement log is shared by the whole process, so this binary holds one test.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use clickwrap_domain::service::Settings;
use clickwrap_postgres::statement_log::{LoggedStatement, record_statements, take_statements};
use common::*;

fn runs(statements: &[LoggedStatement]) -> Vec<&str> {
    statements
        .iter()
        .filter_map(|s| match s {
            LoggedStatement::Run(sql) => Some(sql.as_str()),
            LoggedStatement::Prepared(_) => None,
        })
        .collect()
}

#[actix_web::test]
async fn a_check_is_one_prepared_statement_and_a_verification_reads_once() {
    record_statements();
    // Long enough that the serving caches never expire during the test, however slow the machine.
    let h = harness_with(Settings { serving_cache_ttl: time::Duration::hours(1), ..Settings::default() }).await;
    let op = operator(&h, None).await;
    let t = template(&h, &op, "<h1>Terms</h1><p>Hello {{fullName}}</p>").await;
    let check = |user: &str, placeholders: &str| {
        get(&format!("{V1}/clickwrap?appId={}&clickwrapTemplateId={t}&endUserId={user}{placeholders}", op.app_id))
    };

    // The first checks load the app and the template and prepare the consent lookup on each
    // connection they use.
    for user in ["warm-1", "warm-2", "warm-3"] {
        h.call(check(user, "")).await.expect(200);
    }
    take_statements();

    for (user, placeholders) in
        [("ada", ""), ("grace", ""), ("ada", "&templatePlaceholders=%7B%22fullName%22%3A%22Ada%22%7D")]
    {
        h.call(check(user, placeholders)).await.expect(200);
        let statements = take_statements();
        let sql = runs(&statements);
        assert_eq!(sql.len(), 1, "one statement per check ({user}{placeholders}): {statements:#?}");
        assert!(sql[0].contains("clickwrap_events"), "the one statement reads the consent state: {}", sql[0]);
        assert!(
            !statements.iter().any(|s| matches!(s, LoggedStatement::Prepared(_))),
            "the statement was prepared before and is reused, not prepared again: {statements:#?}"
        );
    }

    // A verification: the App Key's check reads the app, then one read (the event with its
    // tenant's terms), then the commit.
    let signature = act(&h, &op, &t, "ada", "ACCEPTED").await["serviceSignature"].as_str().unwrap().to_owned();
    take_statements();
    verify(&h, &op, &signature).await.expect(200);
    let statements = take_statements();
    let sql = runs(&statements);
    let commit = sql.iter().position(|s| s.contains("UPDATE clickwrap_events")).expect("the commit");
    let before = &sql[..commit];
    assert_eq!(before.len(), 2, "before the commit: the app (App Key) and the event with its tenant's terms: {sql:#?}");
    assert!(before[0].contains("FROM \"apps\""), "the App Key's check reads the app: {}", before[0]);
    assert!(
        before[1].contains("FROM \"clickwrap_events\"")
            && before[1].contains("\"tenants\".\"event_quota\"")
            && before[1].contains("\"tenants\".\"legal_name\""),
        "one read: the event with its tenant's quota and legal name: {}",
        before[1]
    );
}
