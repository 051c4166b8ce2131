//! The [`AppStore`](crate::ports::AppStore) contract.

use std::collections::BTreeSet;

use super::fixtures::{self, base_plus_secs};
use super::support::{Stores, Task, join_all};
use crate::apps::models::AppChanges;
use crate::apps::models::AppUpdate;
use crate::apps::models::{App, PreviousAppKey};
use crate::secrets::SecretHash;
use crate::{AppId, TenantId, Timestamp};

/// Runs every check of the app store.
pub async fn app_store_contract(stores: &Stores<'_>) {
    insert_and_find_round_trip(stores).await;
    lookups_are_scoped_by_tenant(stores).await;
    list_apps_lists_only_the_tenants_apps(stores).await;
    settings_updates_write_only_the_given_settings(stores).await;
    app_key_updates_keep_the_replaced_key_only_for_an_overlap(stores).await;
    webhook_secret_updates_write_only_the_secret(stores).await;
    update_app_of_another_tenant_or_unknown_app_changes_nothing(stores).await;
    concurrent_updates_of_different_fields_all_stick(stores).await;
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
        actual.previous_app_key.map(|old| (*old.hash.as_bytes(), old.expires_at)),
        expected.previous_app_key.map(|old| (*old.hash.as_bytes(), old.expires_at)),
        "apps: {context}: previous_app_key"
    );
    assert_eq!(
        actual.webhook_secret_sealed, expected.webhook_secret_sealed,
        "apps: {context}: webhook_secret_sealed bytes"
    );
    assert_eq!(actual.created_at, expected.created_at, "apps: {context}: created_at");
    assert_eq!(actual.updated_at, expected.updated_at, "apps: {context}: updated_at");
}

async fn insert_and_find_round_trip(stores: &Stores<'_>) {
    let (tenant, _) = fixtures::stored_tenant(stores).await;

    let mut full = fixtures::app(tenant.id);
    full.previous_app_key =
        Some(PreviousAppKey { hash: SecretHash::from_bytes(fixtures::random32()), expires_at: base_plus_secs(600) });
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

/// Writes `update` at `at` with an audit entry; the app as the store returned it.
async fn update(stores: &Stores<'_>, app: &App, update: AppUpdate, at: Timestamp) -> Option<App> {
    stores.apps.update_app(app.tenant_id, app.id, &update, at, &fixtures::audit(app.tenant_id)).await.unwrap()
}

/// Panics unless the store returned `expected` and `find_app` and `app_by_id` read it back.
async fn assert_stored(stores: &Stores<'_>, returned: Option<App>, expected: &App, context: &str) {
    assert_same_app(returned.as_ref(), expected, &format!("{context} (returned)"));
    let found = stores.apps.find_app(expected.tenant_id, expected.id).await.unwrap();
    assert_same_app(found.as_ref(), expected, &format!("{context} (find_app)"));
    let by_id = stores.apps.app_by_id(expected.id).await.unwrap();
    assert_same_app(by_id.as_ref(), expected, &format!("{context} (app_by_id)"));
}

async fn settings_updates_write_only_the_given_settings(stores: &Stores<'_>) {
    let (tenant, _) = fixtures::stored_tenant(stores).await;
    let app = fixtures::stored_app(stores, tenant.id).await;
    let neighbour = fixtures::stored_app(stores, tenant.id).await;

    let origins = vec![
        fixtures::origin("https://b.example.com"),
        fixtures::origin("https://a.example.com"),
        fixtures::origin("http://127.0.0.1:8080"),
    ];
    let every = AppChanges {
        name: Some(fixtures::name("Renamed app")),
        webhook_url: Some(Some(fixtures::webhook_url("https://receiver.example.org:8443/hook"))),
        webhook_enabled: Some(false),
        allowed_origins: Some(origins.clone()),
    };
    let returned = update(stores, &app, AppUpdate::Settings(every), base_plus_secs(3600)).await;
    let mut expected = app.clone();
    expected.name = fixtures::name("Renamed app");
    expected.webhook_url = Some(fixtures::webhook_url("https://receiver.example.org:8443/hook"));
    expected.webhook_enabled = false;
    expected.allowed_origins = origins;
    expected.updated_at = base_plus_secs(3600);
    assert_stored(stores, returned, &expected, "every setting changed, secrets kept").await;

    // Back to no webhook URL and no origins: clearing works too.
    let clear = AppChanges { webhook_url: Some(None), allowed_origins: Some(Vec::new()), ..AppChanges::default() };
    let returned = update(stores, &app, AppUpdate::Settings(clear), base_plus_secs(7200)).await;
    expected.webhook_url = None;
    expected.allowed_origins = Vec::new();
    expected.updated_at = base_plus_secs(7200);
    assert_stored(stores, returned, &expected, "webhook URL and origins cleared").await;

    // One setting alone leaves the others as they are.
    let rename = AppChanges { name: Some(fixtures::name("Only the name")), ..AppChanges::default() };
    let returned = update(stores, &app, AppUpdate::Settings(rename), base_plus_secs(7300)).await;
    expected.name = fixtures::name("Only the name");
    expected.updated_at = base_plus_secs(7300);
    assert_stored(stores, returned, &expected, "only the name changed").await;

    let found = stores.apps.find_app(tenant.id, neighbour.id).await.unwrap();
    assert_same_app(found.as_ref(), &neighbour, "update_app leaves other apps alone");
}

async fn app_key_updates_keep_the_replaced_key_only_for_an_overlap(stores: &Stores<'_>) {
    let (tenant, _) = fixtures::stored_tenant(stores).await;
    let app = fixtures::stored_app(stores, tenant.id).await;
    let mut expected = app.clone();

    // With an overlap, the key that was current is kept until then.
    let second = SecretHash::from_bytes(fixtures::random32());
    let keep = AppUpdate::AppKey { hash: second, old_key_expires_at: Some(base_plus_secs(900)) };
    let returned = update(stores, &app, keep, base_plus_secs(60)).await;
    expected.previous_app_key = Some(PreviousAppKey { hash: app.app_key_hash, expires_at: base_plus_secs(900) });
    expected.app_key_hash = second;
    expected.updated_at = base_plus_secs(60);
    assert_stored(stores, returned, &expected, "App Key replaced with an overlap").await;

    // Another overlap: the key just replaced is kept, the one kept before is gone.
    let third = SecretHash::from_bytes(fixtures::random32());
    let keep = AppUpdate::AppKey { hash: third, old_key_expires_at: Some(base_plus_secs(1200)) };
    let returned = update(stores, &app, keep, base_plus_secs(120)).await;
    expected.previous_app_key = Some(PreviousAppKey { hash: second, expires_at: base_plus_secs(1200) });
    expected.app_key_hash = third;
    expected.updated_at = base_plus_secs(120);
    assert_stored(stores, returned, &expected, "App Key replaced again with an overlap").await;

    // Without an overlap, no replaced key is kept at all.
    let fourth = SecretHash::from_bytes(fixtures::random32());
    let at_once = AppUpdate::AppKey { hash: fourth, old_key_expires_at: None };
    let returned = update(stores, &app, at_once, base_plus_secs(180)).await;
    expected.previous_app_key = None;
    expected.app_key_hash = fourth;
    expected.updated_at = base_plus_secs(180);
    assert_stored(stores, returned, &expected, "App Key replaced without an overlap").await;
}

async fn webhook_secret_updates_write_only_the_secret(stores: &Stores<'_>) {
    let (tenant, _) = fixtures::stored_tenant(stores).await;
    let app = fixtures::stored_app(stores, tenant.id).await;
    let sealed = fixtures::random32().to_vec();
    let returned = update(stores, &app, AppUpdate::WebhookSecret { sealed: sealed.clone() }, base_plus_secs(30)).await;
    let expected = App { webhook_secret_sealed: sealed, updated_at: base_plus_secs(30), ..app.clone() };
    assert_stored(stores, returned, &expected, "webhook secret replaced").await;
}

async fn update_app_of_another_tenant_or_unknown_app_changes_nothing(stores: &Stores<'_>) {
    let (owner, _) = fixtures::stored_tenant(stores).await;
    let (intruder, _) = fixtures::stored_tenant(stores).await;
    let app = fixtures::stored_app(stores, owner.id).await;

    let hijack = AppChanges {
        webhook_url: Some(Some(fixtures::webhook_url("https://evil.example.net/steal"))),
        ..AppChanges::default()
    };
    let updates = [
        AppUpdate::Settings(hijack),
        AppUpdate::AppKey { hash: SecretHash::from_bytes(fixtures::random32()), old_key_expires_at: None },
        AppUpdate::WebhookSecret { sealed: vec![1, 2, 3] },
    ];
    for change in &updates {
        let audit = fixtures::audit(intruder.id);
        let returned = stores.apps.update_app(intruder.id, app.id, change, base_plus_secs(5), &audit).await.unwrap();
        assert!(returned.is_none(), "apps: update_app naming another tenant's app returns None: {change:?}");
        let unknown = AppId::from_uuid(fixtures::uuid());
        let returned = stores.apps.update_app(owner.id, unknown, change, base_plus_secs(5), &audit).await.unwrap();
        assert!(returned.is_none(), "apps: update_app of an unknown app returns None: {change:?}");
        assert!(stores.apps.app_by_id(unknown).await.unwrap().is_none(), "apps: update_app inserts nothing");
    }
    let found = stores.apps.app_by_id(app.id).await.unwrap();
    assert_same_app(found.as_ref(), &app, "update_app naming another tenant's app changes nothing");
    assert!(
        stores.apps.find_app(intruder.id, app.id).await.unwrap().is_none(),
        "apps: the app did not move to the other tenant"
    );
    assert!(stores.apps.list_apps(intruder.id).await.unwrap().is_empty(), "apps: the other tenant still has no apps");
}

/// A new App Key, a rename and a new webhook secret written at the same moment (on separate
/// connections, for a database) all stick: none writes back a copy of what another replaced.
async fn concurrent_updates_of_different_fields_all_stick(stores: &Stores<'_>) {
    let (tenant, _) = fixtures::stored_tenant(stores).await;
    let app = fixtures::stored_app(stores, tenant.id).await;
    for round in 0..20 {
        let key = SecretHash::from_bytes(fixtures::random32());
        let name = fixtures::name(&format!("Round {round}"));
        let sealed = fixtures::random32().to_vec();
        let updates = [
            AppUpdate::AppKey { hash: key, old_key_expires_at: None },
            AppUpdate::Settings(AppChanges { name: Some(name.clone()), ..AppChanges::default() }),
            AppUpdate::WebhookSecret { sealed: sealed.clone() },
        ];
        let audits = updates.each_ref().map(|_| fixtures::audit(tenant.id));
        let tasks = updates
            .iter()
            .zip(&audits)
            .map(|(change, audit)| -> Task<'_, _> {
                Box::pin(stores.apps.update_app(tenant.id, app.id, change, base_plus_secs(round), audit))
            })
            .collect();
        for result in join_all(tasks).await {
            assert!(result.unwrap().is_some(), "apps: round {round}: every concurrent update found the app");
        }
        let stored = stores.apps.find_app(tenant.id, app.id).await.unwrap().unwrap();
        assert_eq!(stored.app_key_hash.as_bytes(), key.as_bytes(), "apps: round {round}: the new App Key stuck");
        assert_eq!(stored.name, name, "apps: round {round}: the rename stuck");
        assert_eq!(stored.webhook_secret_sealed, sealed, "apps: round {round}: the new webhook secret stuck");
    }
}
