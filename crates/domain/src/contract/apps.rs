//! The [`AppStore`](crate::ports::AppStore) contract.

use std::collections::BTreeSet;

use super::Stores;
use super::fixtures::{self, base_plus_secs};
use crate::apps::models::App;
use crate::{AppId, TenantId};

/// Runs every check of the app store.
pub async fn app_store_contract(stores: &Stores<'_>) {
    insert_and_find_round_trip(stores).await;
    lookups_are_scoped_by_tenant(stores).await;
    list_apps_lists_only_the_tenants_apps(stores).await;
    update_app_replaces_every_field(stores).await;
    update_app_of_another_tenant_changes_nothing(stores).await;
}

/// Panics unless `actual` holds every field of `expected`.
fn assert_same_app(actual: Option<&App>, expected: &App, context: &str) {
    let Some(actual) = actual else {
        panic!("apps: {context}: expected app {} but found none", expected.id);
    };
    assert_eq!(actual.id, expected.id, "apps: {context}: id");
    assert_eq!(actual.tenant_id, expected.tenant_id, "apps: {context}: tenant_id");
    assert_eq!(actual.name, expected.name, "apps: {context}: name");
    assert_eq!(actual.webhook_url, expected.webhook_url, "apps: {context}: webhook_url");
    assert_eq!(actual.webhook_enabled, expected.webhook_enabled, "apps: {context}: webhook_enabled");
    assert_eq!(actual.allowed_origins, expected.allowed_origins, "apps: {context}: allowed_origins (in order)");
    assert_eq!(actual.app_key_hash.as_bytes(), expected.app_key_hash.as_bytes(), "apps: {context}: app_key_hash bytes");
    assert_eq!(
        actual.webhook_secret_sealed, expected.webhook_secret_sealed,
        "apps: {context}: webhook_secret_sealed bytes"
    );
    assert_eq!(actual.created_at, expected.created_at, "apps: {context}: created_at");
    assert_eq!(actual.updated_at, expected.updated_at, "apps: {context}: updated_at");
}

async fn insert_and_find_round_trip(stores: &Stores<'_>) {
    let (tenant, _) = fixtures::stored_tenant(stores).await;

    let full = fixtures::app(tenant.id);
    stores.apps.insert_app(&full, &fixtures::audit(full.tenant_id)).await.unwrap();
    let by_id = stores.apps.app_by_id(full.id).await.unwrap();
    assert_same_app(by_id.as_ref(), &full, "app_by_id of an app with every field set");
    let found = stores.apps.find_app(tenant.id, full.id).await.unwrap();
    assert_same_app(found.as_ref(), &full, "find_app of an app with every field set");

    // The other extreme: no webhook URL, webhook off, no origins, a one-byte sealed secret.
    let mut bare = fixtures::app(tenant.id);
    bare.name = fixtures::name("Kasse – 收银台");
    bare.webhook_url = None;
    bare.webhook_enabled = false;
    bare.allowed_origins = Vec::new();
    bare.webhook_secret_sealed = vec![0];
    bare.created_at = fixtures::at("1999-12-31T23:59:59.999Z");
    bare.updated_at = fixtures::at("2099-01-01T00:00:00.001Z");
    stores.apps.insert_app(&bare, &fixtures::audit(bare.tenant_id)).await.unwrap();
    let found = stores.apps.find_app(tenant.id, bare.id).await.unwrap();
    assert_same_app(found.as_ref(), &bare, "find_app of an app without webhook URL or origins");

    let unknown = AppId::from_uuid(fixtures::uuid());
    assert!(stores.apps.app_by_id(unknown).await.unwrap().is_none(), "apps: app_by_id of an unknown id is None");
    assert!(
        stores.apps.find_app(tenant.id, unknown).await.unwrap().is_none(),
        "apps: find_app of an unknown id is None"
    );
}

async fn lookups_are_scoped_by_tenant(stores: &Stores<'_>) {
    let (owner, _) = fixtures::stored_tenant(stores).await;
    let (stranger, _) = fixtures::stored_tenant(stores).await;
    let app = fixtures::stored_app(stores, owner.id).await;
    assert!(
        stores.apps.find_app(stranger.id, app.id).await.unwrap().is_none(),
        "apps: find_app with another tenant's id is None"
    );
    let unknown_tenant = TenantId::from_uuid(fixtures::uuid());
    assert!(
        stores.apps.find_app(unknown_tenant, app.id).await.unwrap().is_none(),
        "apps: find_app with an unknown tenant is None"
    );
    // app_by_id identifies the caller of a public route by the App ID alone.
    let by_id = stores.apps.app_by_id(app.id).await.unwrap();
    assert_same_app(by_id.as_ref(), &app, "app_by_id needs no tenant");
}

async fn list_apps_lists_only_the_tenants_apps(stores: &Stores<'_>) {
    let (tenant, _) = fixtures::stored_tenant(stores).await;
    let (other, _) = fixtures::stored_tenant(stores).await;
    let (empty, _) = fixtures::stored_tenant(stores).await;
    let mut mine = Vec::new();
    for _ in 0..3 {
        mine.push(fixtures::stored_app(stores, tenant.id).await);
    }
    let theirs = fixtures::stored_app(stores, other.id).await;

    let listed = stores.apps.list_apps(tenant.id).await.unwrap();
    let listed_ids: Vec<AppId> = listed.iter().map(|a| a.id).collect();
    let listed_set: BTreeSet<AppId> = listed_ids.iter().copied().collect();
    assert_eq!(listed_set.len(), listed_ids.len(), "apps: list_apps lists each app once: {listed_ids:?}");
    assert_eq!(
        listed_set,
        mine.iter().map(|a| a.id).collect::<BTreeSet<_>>(),
        "apps: list_apps lists exactly the tenant's apps"
    );
    for app in &mine {
        assert_same_app(listed.iter().find(|a| a.id == app.id), app, "list_apps returns every field");
    }
    let listed_other = stores.apps.list_apps(other.id).await.unwrap();
    assert_eq!(
        listed_other.iter().map(|a| a.id).collect::<Vec<_>>(),
        vec![theirs.id],
        "apps: list_apps of the other tenant lists only its app"
    );
    assert!(
        stores.apps.list_apps(empty.id).await.unwrap().is_empty(),
        "apps: list_apps of a tenant without apps is empty"
    );
}

async fn update_app_replaces_every_field(stores: &Stores<'_>) {
    let (tenant, _) = fixtures::stored_tenant(stores).await;
    let app = fixtures::stored_app(stores, tenant.id).await;
    let neighbour = fixtures::stored_app(stores, tenant.id).await;

    let mut changed = app.clone();
    changed.name = fixtures::name("Renamed app");
    changed.webhook_url = Some(fixtures::webhook_url("https://receiver.example.org:8443/hook"));
    changed.webhook_enabled = false;
    changed.allowed_origins = vec![
        fixtures::origin("https://b.example.com"),
        fixtures::origin("https://a.example.com"),
        fixtures::origin("http://127.0.0.1:8080"),
    ];
    changed.app_key_hash = crate::secrets::SecretHash::from_bytes(fixtures::random32());
    changed.webhook_secret_sealed = fixtures::random32().to_vec();
    changed.updated_at = base_plus_secs(3600);
    assert!(
        stores.apps.update_app(&changed, &fixtures::audit(changed.tenant_id)).await.unwrap(),
        "apps: update_app of an existing app returns true"
    );
    let found = stores.apps.find_app(tenant.id, app.id).await.unwrap();
    assert_same_app(found.as_ref(), &changed, "find_app after update_app");
    let by_id = stores.apps.app_by_id(app.id).await.unwrap();
    assert_same_app(by_id.as_ref(), &changed, "app_by_id after update_app");
    let found = stores.apps.find_app(tenant.id, neighbour.id).await.unwrap();
    assert_same_app(found.as_ref(), &neighbour, "update_app leaves other apps alone");

    // Back to no webhook URL and no origins: clearing works too.
    let mut cleared = changed.clone();
    cleared.webhook_url = None;
    cleared.allowed_origins = Vec::new();
    cleared.updated_at = base_plus_secs(7200);
    assert!(stores.apps.update_app(&cleared, &fixtures::audit(cleared.tenant_id)).await.unwrap());
    let found = stores.apps.find_app(tenant.id, app.id).await.unwrap();
    assert_same_app(found.as_ref(), &cleared, "update_app clearing the webhook URL and origins");

    let unknown = fixtures::app(tenant.id);
    assert!(
        !stores.apps.update_app(&unknown, &fixtures::audit(unknown.tenant_id)).await.unwrap(),
        "apps: update_app of an unknown app returns false"
    );
    assert!(
        stores.apps.app_by_id(unknown.id).await.unwrap().is_none(),
        "apps: update_app of an unknown app does not insert it"
    );
}

async fn update_app_of_another_tenant_changes_nothing(stores: &Stores<'_>) {
    let (owner, _) = fixtures::stored_tenant(stores).await;
    let (intruder, _) = fixtures::stored_tenant(stores).await;
    let app = fixtures::stored_app(stores, owner.id).await;

    let mut hijack = fixtures::app(intruder.id);
    hijack.id = app.id;
    hijack.webhook_url = Some(fixtures::webhook_url("https://evil.example.net/steal"));
    assert!(
        !stores.apps.update_app(&hijack, &fixtures::audit(hijack.tenant_id)).await.unwrap(),
        "apps: update_app naming another tenant's app returns false"
    );
    let found = stores.apps.app_by_id(app.id).await.unwrap();
    assert_same_app(found.as_ref(), &app, "update_app naming another tenant's app changes nothing");
    assert!(
        stores.apps.find_app(intruder.id, app.id).await.unwrap().is_none(),
        "apps: the app did not move to the other tenant"
    );
    assert!(stores.apps.list_apps(intruder.id).await.unwrap().is_empty(), "apps: the other tenant still has no apps");
}
