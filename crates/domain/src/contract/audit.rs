//! The [`AuditLogStore`](crate::ports::AuditLogStore) contract, and that each audited write stores
//! its entry only when the change itself happened.

use time::Duration;

use super::fixtures::{self, base_time};
use super::support::Stores;
use crate::apps::models::AppChanges;
use crate::apps::models::AppUpdate;
use crate::audit::models::{AuditAction, AuditEntry, AuditPosition};
use crate::templates::models::TemplateUpdate;
use crate::{AppId, TenantId};

/// Runs every check of the audit log.
pub async fn audit_log_contract(stores: &Stores<'_>) {
    entries_are_listed_newest_first_per_tenant_and_paged(stores).await;
    a_write_that_changes_nothing_logs_nothing(stores).await;
    entries_round_trip_every_field(stores).await;
}

async fn entries_are_listed_newest_first_per_tenant_and_paged(stores: &Stores<'_>) {
    let (tenant, _) = fixtures::stored_tenant(stores).await;
    let (other, _) = fixtures::stored_tenant(stores).await;
    let mut written = Vec::new();
    for seconds in [30, 10, 20, 20] {
        let mut app = fixtures::app(tenant.id);
        let mut audit = fixtures::audit(tenant.id);
        audit.at = base_time().saturating_add(Duration::seconds(seconds));
        audit.subject_id = app.id.to_string();
        app.name = fixtures::name(&format!("app {seconds}"));
        stores.apps.insert_app(&app, &audit).await.unwrap();
        written.push(audit);
    }
    fixtures::stored_app(stores, other.id).await;

    let mut expected = written.clone();
    expected.sort_by_key(|e| std::cmp::Reverse((e.at, e.id)));
    let all = stores.audit.list_audit_entries(tenant.id, None, 10).await.unwrap();
    assert_eq!(all, expected, "audit: the tenant's entries, newest first, ties by id descending, no other tenant's");

    let first = stores.audit.list_audit_entries(tenant.id, None, 2).await.unwrap();
    let after = AuditPosition::of(first.last().unwrap());
    let rest = stores.audit.list_audit_entries(tenant.id, Some(&after), 10).await.unwrap();
    assert_eq!([first, rest].concat(), expected, "audit: pages continue strictly after the position");

    let nobody = TenantId::from_uuid(fixtures::uuid());
    assert!(stores.audit.list_audit_entries(nobody, None, 10).await.unwrap().is_empty());
}

async fn a_write_that_changes_nothing_logs_nothing(stores: &Stores<'_>) {
    let (tenant, _) = fixtures::stored_tenant(stores).await;
    let (other, _) = fixtures::stored_tenant(stores).await;
    let app = fixtures::stored_app(stores, other.id).await;
    let rename = AppUpdate::Settings(AppChanges { name: Some(fixtures::name("hijacked")), ..AppChanges::default() });
    let audit = fixtures::audit(tenant.id);
    let at = base_time();
    assert!(stores.apps.update_app(tenant.id, app.id, &rename, at, &audit).await.unwrap().is_none());
    let unknown = AppId::from_uuid(fixtures::uuid());
    assert!(stores.apps.update_app(tenant.id, unknown, &rename, at, &audit).await.unwrap().is_none());
    let template = fixtures::template(tenant.id, &[]);
    let enable = TemplateUpdate::Enabled(true);
    assert!(stores.templates.update_template(tenant.id, template.id, &enable, at, &audit).await.unwrap().is_none());
    let logged = stores.audit.list_audit_entries(tenant.id, None, 10).await.unwrap();
    assert!(logged.is_empty(), "audit: updates that found nothing wrote no entry, got {logged:?}");
}

async fn entries_round_trip_every_field(stores: &Stores<'_>) {
    let (tenant, _) = fixtures::stored_tenant(stores).await;
    let token = stores.tenants.list_operator_tokens(tenant.id).await.unwrap().remove(0);
    let template = fixtures::template(tenant.id, &[]);
    let mut audit: AuditEntry = fixtures::audit(tenant.id)
        .with("name", "Terms – “quoted” & <b>")
        .with("emptyValue", "")
        .with("webhookUrl", "https://example.com/hook?x=1");
    audit.action = AuditAction::TemplateCreated;
    audit.operator_token_id = Some(token.id);
    audit.subject_id = template.id.to_string();
    stores.templates.insert_template(&template, &audit).await.unwrap();
    let logged = stores.audit.list_audit_entries(tenant.id, None, 10).await.unwrap();
    assert_eq!(logged, vec![audit], "audit: every field of an entry round-trips");
}
