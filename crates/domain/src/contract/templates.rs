//! The [`TemplateStore`](crate::ports::TemplateStore) contract.

use std::collections::{BTreeMap, BTreeSet};

use super::fixtures::{self, base_plus_secs, base_time};
use super::support::{Stores, Task, join_all};
use crate::ports::{InsertVersionError, StorageError};
use crate::templates::customizations::{Customizations, TextOverrides};
use crate::templates::models::Template;
use crate::templates::models::TemplateChanges;
use crate::templates::models::TemplateUpdate;
use crate::templates::versioning::VersionNumber;
use crate::{Language, TemplateId, TenantId, Timestamp};

/// Runs every check of the template store.
pub async fn template_store_contract(stores: &Stores<'_>) {
    insert_and_find_round_trip(stores).await;
    versions_are_appended_in_publish_order(stores).await;
    duplicate_version_number_conflicts(stores).await;
    update_template_writes_only_the_given_change(stores).await;
    update_template_of_another_tenant_changes_nothing(stores).await;
    concurrent_updates_of_different_fields_all_stick(stores).await;
    concurrent_saves_of_different_draft_languages_all_stick(stores).await;
    lookups_and_lists_are_scoped_by_tenant(stores).await;
}

async fn find(stores: &Stores<'_>, tenant: TenantId, id: TemplateId) -> Option<Template> {
    stores.templates.find_template(tenant, id).await.unwrap()
}

async fn insert_and_find_round_trip(stores: &Stores<'_>) {
    let (tenant, _) = fixtures::stored_tenant(stores).await;
    let first_app = fixtures::stored_app(stores, tenant.id).await;
    let second_app = fixtures::stored_app(stores, tenant.id).await;

    // Every field away from its default: tags, two app links, content in three languages,
    // customizations with texts in two languages.
    let mut full = fixtures::template(tenant.id, &[first_app.id, second_app.id]);
    full.default_language = Language::German;
    full.always_require_acceptance = true;
    full.name = fixtures::name("Nutzungsbedingungen – 条款");
    stores.templates.insert_template(&full, &fixtures::audit(full.tenant_id)).await.unwrap();
    assert_eq!(
        find(stores, tenant.id, full.id).await.as_ref(),
        Some(&full),
        "templates: find_template returns every field of a template as inserted"
    );

    // The other extreme: no tags, no app links, an empty draft, default customizations.
    let mut bare = fixtures::template(tenant.id, &[]);
    bare.tags = BTreeSet::new();
    bare.draft = BTreeMap::new();
    bare.customizations = Customizations::default();
    stores.templates.insert_template(&bare, &fixtures::audit(bare.tenant_id)).await.unwrap();
    assert_eq!(
        find(stores, tenant.id, bare.id).await.as_ref(),
        Some(&bare),
        "templates: a template without tags, links, draft or customizations round-trips"
    );

    // Theme fields one at a time, a text override with only some fields.
    let mut partial = fixtures::template(tenant.id, &[second_app.id]);
    partial.customizations.theme.primary_color = None;
    partial.customizations.theme.border_radius = Some(0);
    partial.customizations.logo_url = None;
    partial.customizations.texts = BTreeMap::from([(
        Language::Russian,
        TextOverrides { decline_button: Some("Отклонить".to_owned()), ..TextOverrides::default() },
    )]);
    partial.draft = BTreeMap::from([(Language::Hindi, fixtures::html("<p>शर्तें</p>"))]);
    stores.templates.insert_template(&partial, &fixtures::audit(partial.tenant_id)).await.unwrap();
    assert_eq!(
        find(stores, tenant.id, partial.id).await.as_ref(),
        Some(&partial),
        "templates: partly set customizations round-trip (None stays None, 0 stays 0)"
    );

    assert_eq!(
        find(stores, tenant.id, TemplateId::from_uuid(fixtures::uuid())).await,
        None,
        "templates: find_template of an unknown id is None"
    );
}

async fn versions_are_appended_in_publish_order(stores: &Stores<'_>) {
    let (tenant, _) = fixtures::stored_tenant(stores).await;
    let template = fixtures::template(tenant.id, &[]);
    stores.templates.insert_template(&template, &fixtures::audit(template.tenant_id)).await.unwrap();
    assert!(
        find(stores, tenant.id, template.id).await.unwrap().versions.is_empty(),
        "templates: a new template has no versions"
    );

    let versions = [
        fixtures::version(1, 0, base_plus_secs(-86_400)),
        fixtures::version(1, 1, base_plus_secs(-3_600)),
        // Same effective_at as the previous one: allowed (non-decreasing).
        fixtures::version(2, 0, base_plus_secs(-3_600)),
        // Scheduled: in force only in the future.
        fixtures::version(2, 1, base_plus_secs(30 * 86_400)),
        fixtures::version(3, 0, base_plus_secs(31 * 86_400)),
    ];
    for version in &versions {
        stores.templates.insert_version(tenant.id, template.id, version, &fixtures::audit(tenant.id)).await.unwrap();
    }
    let found = find(stores, tenant.id, template.id).await.unwrap();
    assert_eq!(
        found.versions,
        versions.to_vec(),
        "templates: find_template returns every version, every field, in publish order"
    );
    assert_eq!(
        Template { versions: Vec::new(), ..found },
        template,
        "templates: inserting versions changes nothing else"
    );
    let listed = stores.templates.list_templates(tenant.id).await.unwrap();
    assert_eq!(
        listed.iter().find(|t| t.id == template.id).map(|t| &t.versions),
        Some(&versions.to_vec()),
        "templates: list_templates returns templates with all their versions"
    );
}

async fn duplicate_version_number_conflicts(stores: &Stores<'_>) {
    let (tenant, _) = fixtures::stored_tenant(stores).await;
    let template = fixtures::stored_template(stores, tenant.id, &[(1, 0), (1, 1)]).await;
    let mut duplicate = fixtures::version(1, 1, base_time());
    duplicate.content = fixtures::content("a concurrent publish");
    assert_eq!(
        stores.templates.insert_version(tenant.id, template.id, &duplicate, &fixtures::audit(tenant.id)).await,
        Err(InsertVersionError::Conflict(VersionNumber::new(1, 1))),
        "templates: insert_version with a number the template already has is a Conflict"
    );
    assert_eq!(
        find(stores, tenant.id, template.id).await.unwrap().versions,
        template.versions,
        "templates: a conflicting insert_version changes no version"
    );

    // The same number on another template is no conflict.
    let other = fixtures::stored_template(stores, tenant.id, &[]).await;
    stores.templates.insert_version(tenant.id, other.id, &duplicate, &fixtures::audit(tenant.id)).await.unwrap();
    assert_eq!(
        find(stores, tenant.id, other.id).await.unwrap().versions,
        vec![duplicate],
        "templates: version numbers are per template"
    );
}

/// Writes `update` at `at` with an audit entry; the template as the store returned it.
async fn update(stores: &Stores<'_>, template: &Template, update: TemplateUpdate, at: Timestamp) -> Option<Template> {
    let audit = fixtures::audit(template.tenant_id);
    stores.templates.update_template(template.tenant_id, template.id, &update, at, &audit).await.unwrap()
}

async fn update_template_writes_only_the_given_change(stores: &Stores<'_>) {
    let (tenant, _) = fixtures::stored_tenant(stores).await;
    let first_app = fixtures::stored_app(stores, tenant.id).await;
    let second_app = fixtures::stored_app(stores, tenant.id).await;
    let third_app = fixtures::stored_app(stores, tenant.id).await;
    let mut expected = fixtures::template(tenant.id, &[first_app.id, second_app.id]);
    stores.templates.insert_template(&expected, &fixtures::audit(expected.tenant_id)).await.unwrap();
    let published = fixtures::version(1, 0, base_time());
    stores.templates.insert_version(tenant.id, expected.id, &published, &fixtures::audit(tenant.id)).await.unwrap();
    expected.versions.push(published.clone());
    let neighbour = fixtures::stored_template(stores, tenant.id, &[(1, 0)]).await;

    let customizations = Customizations {
        texts: BTreeMap::from([(
            Language::French,
            TextOverrides { accept_button: Some("J'accepte".to_owned()), ..TextOverrides::default() },
        )]),
        ..Customizations::default()
    };
    let draft = BTreeMap::from([
        (Language::French, fixtures::html("<p>Conditions générales</p>")),
        (Language::Spanish, fixtures::html("<p>Términos</p>")),
    ]);
    let tags = BTreeSet::from([fixtures::tag("privacy"), fixtures::tag("v2")]);
    let settings = TemplateChanges {
        name: Some(fixtures::name("Privacy Policy")),
        tags: Some(tags.clone()),
        default_language: Some(Language::French),
        always_require_acceptance: Some(true),
    };
    let changes = [
        TemplateUpdate::Settings(settings),
        TemplateUpdate::Draft(draft),
        TemplateUpdate::DraftLanguage(Language::German, Some(fixtures::html("<p>Bedingungen</p>"))),
        TemplateUpdate::DraftLanguage(Language::French, None),
        TemplateUpdate::Customizations(customizations),
        TemplateUpdate::Apps(BTreeSet::from([second_app.id, third_app.id])),
        TemplateUpdate::Enabled(true),
    ];
    for (secs, change) in (600..).zip(changes) {
        match &change {
            TemplateUpdate::Settings(_) => {
                expected.name = fixtures::name("Privacy Policy");
                expected.tags = tags.clone();
                expected.default_language = Language::French;
                expected.always_require_acceptance = true;
            }
            TemplateUpdate::Draft(content) => expected.draft = content.clone(),
            TemplateUpdate::DraftLanguage(language, Some(content)) => {
                expected.draft.insert(*language, content.clone());
            }
            TemplateUpdate::DraftLanguage(language, None) => {
                expected.draft.remove(language);
            }
            TemplateUpdate::Customizations(c) => expected.customizations = c.clone(),
            TemplateUpdate::Apps(ids) => expected.app_ids = ids.clone(),
            TemplateUpdate::Enabled(enabled) => expected.enabled = *enabled,
        }
        expected.updated_at = base_plus_secs(secs);
        let returned = update(stores, &expected, change.clone(), base_plus_secs(secs)).await;
        assert_eq!(
            returned.as_ref(),
            Some(&expected),
            "templates: update_template returns the stored template: {change:?}"
        );
        assert_eq!(
            find(stores, tenant.id, expected.id).await.as_ref(),
            Some(&expected),
            "templates: update_template writes exactly its change and keeps the versions: {change:?}"
        );
    }

    // Dropping every link, tag and draft language works too.
    let clear_tags = TemplateChanges { tags: Some(BTreeSet::new()), ..TemplateChanges::default() };
    for change in [
        TemplateUpdate::Apps(BTreeSet::new()),
        TemplateUpdate::Settings(clear_tags),
        TemplateUpdate::Draft(BTreeMap::new()),
    ] {
        update(stores, &expected, change, base_plus_secs(700)).await;
    }
    expected.app_ids = BTreeSet::new();
    expected.tags = BTreeSet::new();
    expected.draft = BTreeMap::new();
    expected.updated_at = base_plus_secs(700);
    assert_eq!(
        find(stores, tenant.id, expected.id).await,
        Some(expected.clone()),
        "templates: update_template clears links, tags and draft"
    );
    assert_eq!(
        find(stores, tenant.id, neighbour.id).await.as_ref(),
        Some(&neighbour),
        "templates: update_template leaves other templates alone"
    );

    let unknown = fixtures::template(tenant.id, &[]);
    assert_eq!(
        update(stores, &unknown, TemplateUpdate::Enabled(true), base_plus_secs(800)).await,
        None,
        "templates: update_template of an unknown template returns None"
    );
    assert_eq!(
        find(stores, tenant.id, unknown.id).await,
        None,
        "templates: update_template of an unknown template does not insert it"
    );
}

async fn update_template_of_another_tenant_changes_nothing(stores: &Stores<'_>) {
    let (owner, _) = fixtures::stored_tenant(stores).await;
    let (intruder, _) = fixtures::stored_tenant(stores).await;
    let template = fixtures::stored_template(stores, owner.id, &[(1, 0)]).await;

    let hijack = TemplateUpdate::Settings(TemplateChanges {
        name: Some(fixtures::name("Hijacked")),
        ..TemplateChanges::default()
    });
    let audit = fixtures::audit(intruder.id);
    assert_eq!(
        stores.templates.update_template(intruder.id, template.id, &hijack, base_plus_secs(5), &audit).await.unwrap(),
        None,
        "templates: update_template naming another tenant's template returns None"
    );
    assert_eq!(
        find(stores, owner.id, template.id).await.as_ref(),
        Some(&template),
        "templates: update_template naming another tenant's template changes nothing"
    );
    assert_eq!(
        find(stores, intruder.id, template.id).await,
        None,
        "templates: the template did not move to the other tenant"
    );
}

/// Changes of different fields written at the same moment (on separate connections, for a
/// database) all stick, and concurrent link changes leave exactly one of the sets.
async fn concurrent_updates_of_different_fields_all_stick(stores: &Stores<'_>) {
    let (tenant, _) = fixtures::stored_tenant(stores).await;
    let first_app = fixtures::stored_app(stores, tenant.id).await;
    let second_app = fixtures::stored_app(stores, tenant.id).await;
    let template = fixtures::stored_template(stores, tenant.id, &[(1, 0)]).await;
    let first = BTreeSet::from([first_app.id]);
    let second = BTreeSet::from([second_app.id]);
    for round in 0..10 {
        let name = fixtures::name(&format!("Round {round}"));
        let draft = fixtures::content(&format!("round {round}"));
        let updates = [
            TemplateUpdate::Settings(TemplateChanges { name: Some(name.clone()), ..TemplateChanges::default() }),
            TemplateUpdate::Draft(draft.clone()),
            TemplateUpdate::Enabled(round % 2 == 0),
            TemplateUpdate::Apps(first.clone()),
            TemplateUpdate::Apps(second.clone()),
        ];
        for result in update_at_once(stores, tenant.id, template.id, &updates, base_plus_secs(round)).await {
            assert!(result.unwrap().is_some(), "templates: round {round}: every concurrent update found the template");
        }
        let stored = find(stores, tenant.id, template.id).await.unwrap();
        assert_eq!(stored.name, name, "templates: round {round}: the rename stuck");
        assert_eq!(stored.draft, draft, "templates: round {round}: the draft stuck");
        assert_eq!(stored.enabled, round % 2 == 0, "templates: round {round}: the enabled flag stuck");
        assert!(
            stored.app_ids == first || stored.app_ids == second,
            "templates: round {round}: links are one of the sets written, not a mix: {:?}",
            stored.app_ids
        );
        assert_eq!(stored.versions, template.versions, "templates: round {round}: versions untouched");
    }
}

/// Every update applied at the same moment (on separate connections, for a database), each with
/// its own audit entry; what each found.
async fn update_at_once(
    stores: &Stores<'_>,
    tenant: TenantId,
    template: TemplateId,
    updates: &[TemplateUpdate],
    at: Timestamp,
) -> Vec<Result<Option<Template>, StorageError>> {
    let audits: Vec<_> = updates.iter().map(|_| fixtures::audit(tenant)).collect();
    let tasks = updates
        .iter()
        .zip(&audits)
        .map(|(change, audit)| -> Task<'_, _> {
            Box::pin(stores.templates.update_template(tenant, template, change, at, audit))
        })
        .collect();
    join_all(tasks).await
}

/// Two operators saving different languages of one draft at the same moment (on separate
/// connections, for a database) both keep their edit; the languages nobody touched stay too.
async fn concurrent_saves_of_different_draft_languages_all_stick(stores: &Stores<'_>) {
    let (tenant, _) = fixtures::stored_tenant(stores).await;
    let template = fixtures::stored_template(stores, tenant.id, &[]).await;
    let untouched = template.draft.clone();
    for round in 0..10 {
        let german = fixtures::html(&format!("<p>Runde {round}</p>"));
        let french = fixtures::html(&format!("<p>Tour {round}</p>"));
        let updates = [
            TemplateUpdate::DraftLanguage(Language::German, Some(german.clone())),
            TemplateUpdate::DraftLanguage(Language::French, Some(french.clone())),
        ];
        for result in update_at_once(stores, tenant.id, template.id, &updates, base_plus_secs(round)).await {
            assert!(result.unwrap().is_some(), "templates: round {round}: every draft save found the template");
        }
        let mut expected = untouched.clone();
        expected.insert(Language::German, german);
        expected.insert(Language::French, french);
        assert_eq!(
            find(stores, tenant.id, template.id).await.unwrap().draft,
            expected,
            "templates: round {round}: both languages saved at once stuck, and the others stayed"
        );
    }
    update(stores, &template, TemplateUpdate::DraftLanguage(Language::German, None), base_plus_secs(20)).await;
    let stored = find(stores, tenant.id, template.id).await.unwrap();
    assert!(
        !stored.draft.contains_key(&Language::German) && stored.draft.contains_key(&Language::French),
        "templates: removing one draft language keeps the others: {:?}",
        stored.draft.keys()
    );
}

async fn lookups_and_lists_are_scoped_by_tenant(stores: &Stores<'_>) {
    let (tenant, _) = fixtures::stored_tenant(stores).await;
    let (other, _) = fixtures::stored_tenant(stores).await;
    let (empty, _) = fixtures::stored_tenant(stores).await;
    let mine = [
        fixtures::stored_template(stores, tenant.id, &[(1, 0)]).await,
        fixtures::stored_template(stores, tenant.id, &[]).await,
        fixtures::stored_template(stores, tenant.id, &[(1, 0), (2, 0)]).await,
    ];
    let theirs = fixtures::stored_template(stores, other.id, &[(1, 0)]).await;

    assert_eq!(
        find(stores, other.id, mine[0].id).await,
        None,
        "templates: find_template with another tenant's id is None"
    );
    assert_eq!(
        find(stores, tenant.id, theirs.id).await,
        None,
        "templates: find_template of another tenant's template is None"
    );

    let listed = stores.templates.list_templates(tenant.id).await.unwrap();
    let ids: Vec<TemplateId> = listed.iter().map(|t| t.id).collect();
    let set: BTreeSet<TemplateId> = ids.iter().copied().collect();
    assert_eq!(set.len(), ids.len(), "templates: list_templates lists each template once: {ids:?}");
    assert_eq!(
        set,
        mine.iter().map(|t| t.id).collect::<BTreeSet<_>>(),
        "templates: list_templates lists exactly the tenant's templates"
    );
    for template in &mine {
        assert_eq!(
            listed.iter().find(|t| t.id == template.id),
            Some(template),
            "templates: list_templates returns every field and version"
        );
    }
    assert_eq!(
        stores.templates.list_templates(other.id).await.unwrap(),
        vec![theirs],
        "templates: the other tenant lists only its own template"
    );
    assert!(
        stores.templates.list_templates(empty.id).await.unwrap().is_empty(),
        "templates: a tenant without templates lists none"
    );
}
