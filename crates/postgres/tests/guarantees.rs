//! What the database itself refuses, whatever a caller does: the evidence is immutable, an event is
//! verified once, values stay in their domain, and references never cross tenants.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test code

use clickwrap_domain::consent::models::Action;
use clickwrap_domain::contract;
use clickwrap_domain::contract::fixtures::{self, base_plus_secs};
use clickwrap_domain::contract::support::Stores;
use clickwrap_domain::ports::{CommitVerificationError, EventStore};
use clickwrap_postgres::test_db::TestDatabase;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};

async fn sql(db: &TestDatabase, statement: &str) -> Result<usize, String> {
    let mut conn = AsyncPgConnection::establish(&db.url().expose()).await.unwrap();
    diesel::sql_query(statement).execute(&mut conn).await.map_err(|e| e.to_string())
}

fn refused(result: Result<usize, String>, why: &str) {
    match result {
        Ok(rows) => panic!("the database accepted it ({rows} rows) but must refuse: {why}"),
        Err(message) => assert!(!message.is_empty()),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn verified_events_certificates_and_versions_cannot_be_changed_or_deleted() {
    let db = TestDatabase::new().await;
    let store = db.store();
    let stores = Stores::of(&store);
    let seed = fixtures::seed(&stores).await;
    let accepted = contract::fixtures::verified_event(&stores, seed.event().build(), base_plus_secs(10)).await;
    let id = accepted.id;

    refused(
        sql(&db, &format!("UPDATE clickwrap_events SET end_user_id = 'someone-else' WHERE id = '{id}'")).await,
        "edit a verified event",
    );
    refused(
        sql(&db, &format!("UPDATE clickwrap_events SET status = 'UNVERIFIED', verified_at = NULL WHERE id = '{id}'"))
            .await,
        "unverify",
    );
    refused(
        sql(&db, &format!("UPDATE clickwrap_events SET verified_at = now() WHERE id = '{id}'")).await,
        "re-date a verification",
    );
    refused(sql(&db, &format!("DELETE FROM clickwrap_events WHERE id = '{id}'")).await, "delete a verified event");
    refused(
        sql(&db, &format!("UPDATE certificates SET pdf = 'x' WHERE event_id = '{id}'")).await,
        "edit a certificate",
    );
    refused(sql(&db, &format!("DELETE FROM certificates WHERE event_id = '{id}'")).await, "delete a certificate");
    refused(sql(&db, "UPDATE template_versions SET content = '{}'").await, "edit published content");
    refused(sql(&db, "DELETE FROM template_versions").await, "delete a version");
    refused(sql(&db, "UPDATE event_contents SET content = 'forged'").await, "edit shown content");
    for table in ["certificates", "clickwrap_events", "template_versions", "event_contents"] {
        refused(sql(&db, &format!("TRUNCATE {table} CASCADE")).await, "truncate evidence");
    }

    // An unverified event may only become verified: no other field can change on the way.
    let pending = contract::fixtures::stored_event(&stores, seed.event().build()).await;
    let pid = pending.id;
    refused(
        sql(&db, &format!("UPDATE clickwrap_events SET action = 'DECLINED' WHERE id = '{pid}'")).await,
        "change the action",
    );
    // Every column is guarded, those added by later migrations too.
    for (column, value) in [("scroll_required", "NOT coalesce(scroll_required, false)"), ("presented_at", "now()")] {
        refused(
            sql(&db, &format!("UPDATE clickwrap_events SET {column} = {value} WHERE id = '{pid}'")).await,
            "change a column of an unverified event",
        );
    }
    refused(
        sql(&db, &format!("UPDATE certificates SET app_name = 'forged' WHERE event_id = '{id}'")).await,
        "change the names a certificate was issued with",
    );
    refused(
        sql(&db, &format!("UPDATE clickwrap_events SET status = 'DECLINED', verified_at = now() WHERE id = '{pid}'"))
            .await,
        "verify as something other than the action",
    );
    refused(
        sql(&db, &format!("UPDATE clickwrap_events SET status = 'ACCEPTED' WHERE id = '{pid}'")).await,
        "verify without a time",
    );
    assert_eq!(
        sql(&db, &format!("UPDATE clickwrap_events SET status = 'ACCEPTED', verified_at = now() WHERE id = '{pid}'"))
            .await,
        Ok(1)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn audit_log_rows_cannot_be_changed_or_deleted() {
    let db = TestDatabase::new().await;
    let store = db.store();
    let stores = Stores::of(&store);
    let (tenant, _) = fixtures::stored_tenant(&stores).await;
    let app = fixtures::app(tenant.id);
    let entry = fixtures::audit(tenant.id);
    stores.apps.insert_app(&app, &entry).await.unwrap();
    let id = entry.id;
    for (statement, why) in [
        (format!("UPDATE audit_log SET action = 'app.updated' WHERE id = '{id}'"), "rename an action"),
        (format!("UPDATE audit_log SET details = '{{}}'::jsonb WHERE id = '{id}'"), "erase its details"),
        (format!("UPDATE audit_log SET at = at - interval '1 day' WHERE id = '{id}'"), "back-date it"),
        (format!("DELETE FROM audit_log WHERE id = '{id}'"), "delete it"),
        ("TRUNCATE audit_log".to_owned(), "truncate the log"),
    ] {
        refused(sql(&db, &statement).await, why);
    }
    let logged = stores.audit.list_audit_entries(tenant.id, None, 10).await.unwrap();
    assert_eq!(logged, vec![entry], "the entry is as it was written");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_event_is_verified_once_even_when_two_verifications_race() {
    let db = TestDatabase::new().await;
    let store = db.store();
    let stores = Stores::of(&store);
    let seed = fixtures::seed(&stores).await;
    let event = contract::fixtures::stored_event(&stores, seed.event().action(Action::Accepted).build()).await;
    let record = fixtures::verification(&event, base_plus_secs(5), None);
    let (a, b) = tokio::join!(store.commit_verification(&record), store.commit_verification(&record));
    let outcomes = [a, b];
    assert_eq!(outcomes.iter().filter(|o| o.is_ok()).count(), 1, "{outcomes:?}");
    assert!(outcomes.iter().any(|o| matches!(o, Err(CommitVerificationError::AlreadyVerified(_)))));
    assert_eq!(sql(&db, &format!("SELECT 1 FROM webhook_deliveries WHERE event_id = '{}'", event.id)).await, Ok(1));
    assert_eq!(sql(&db, &format!("SELECT 1 FROM certificates WHERE event_id = '{}'", event.id)).await, Ok(1));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn values_outside_their_domain_and_cross_tenant_references_are_refused() {
    let db = TestDatabase::new().await;
    let store = db.store();
    let stores = Stores::of(&store);
    let a = fixtures::seed(&stores).await;
    let b = fixtures::seed(&stores).await;
    let event = contract::fixtures::stored_event(&stores, a.event().build()).await;
    let copy_with = |column: &str, value: &str| {
        format!(
            "INSERT INTO clickwrap_events SELECT {} FROM clickwrap_events WHERE id = '{}'",
            [
                "id",
                "tenant_id",
                "app_id",
                "template_id",
                "template_name",
                "version_major",
                "version_minor",
                "effective_at",
                "end_user_id",
                "action",
                "status",
                "language",
                "content_hash",
                "template_placeholders",
                "technical_metadata",
                "presentation_mode",
                "agreement_mode",
                "accept_label",
                "checkbox_label",
                "presented_at",
                "action_at",
                "verified_at",
            ]
            .iter()
            .map(|c| if *c == column {
                value.to_owned()
            } else if *c == "id" {
                "gen_random_uuid()".into()
            } else {
                (*c).to_owned()
            })
            .collect::<Vec<_>>()
            .join(", "),
            event.id
        )
    };
    // The copy itself is fine; each variation below is not.
    assert_eq!(sql(&db, &copy_with("template_name", "template_name")).await, Ok(1));
    refused(
        sql(&db, &copy_with("end_user_id", &format!("'{}'", "u".repeat(257)))).await,
        "an end user id over 256 characters",
    );
    refused(sql(&db, &copy_with("end_user_id", "''")).await, "an empty end user id");
    refused(sql(&db, &copy_with("status", "'MAYBE'")).await, "an unknown status");
    refused(sql(&db, &copy_with("language", "'xx'")).await, "an unknown language");
    refused(sql(&db, &copy_with("content_hash", "'sha256:nothing'")).await, "content that was never stored");
    refused(sql(&db, &copy_with("app_id", &format!("'{}'", b.app.id))).await, "another tenant's app");
    refused(sql(&db, &copy_with("template_id", &format!("'{}'", b.template.id))).await, "another tenant's template");
    refused(sql(&db, &copy_with("version_major", "99")).await, "a version that was never published");
    refused(
        sql(&db, &format!("INSERT INTO template_apps VALUES ('{}', '{}', '{}')", a.tenant.id, a.template.id, b.app.id))
            .await,
        "linking another tenant's app",
    );
    // And a lookup across tenants finds nothing.
    assert!(store.find_event(b.tenant.id, event.id).await.unwrap().is_none());
}
