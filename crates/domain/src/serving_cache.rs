//! Apps and templates as the public endpoints serve them, kept in memory for a moment.
//!
//! Every SDK check needs its app (to know its allowed origins) and its template with all versions
//! (tens of kilobytes of content). Reading both from storage on each request costs the database more
//! than the rest of the check. Both change rarely, and what a change must never do is serve content
//! that was not published: published versions are immutable, so a cached version is always right.
//! What can be stale, only on *other* instances (this instance forgets an app or template the moment
//! it writes it), is a template's newest version, enabled flag, app links and customizations, and an
//! app's allowed origins.
//!
//! How long it can be stale depends on whether changes are announced. Storage announces each change
//! of an app or template to every instance ([`ServingChange`]), which forgets just that entry; while
//! the instance hears these announcements ([`ServingCaches::announcements_started`]), entries are kept
//! for the longer [`ServingCacheTtl::announced`], a bound for announcements that never arrive. While
//! it does not (no listening connection, or it was lost), entries are kept for the short
//! [`ServingCacheTtl::unannounced`] alone, which bounds how long another instance's change goes
//! unseen. Freshness is judged with the time to live in force when an entry is read, so losing the
//! announcements shortens the life of every entry at once.
//!
//! An entry is kept only if nothing was forgotten while it was being read: a read that started
//! before a change and ends after its announcement must not bring the old value back for a whole
//! time to live.
//!
//! Operator reads and everything that checks an App Key never use the cache: they must start from
//! the truth (a regenerated App Key fails at once on every instance, and a key kept for an overlap
//! fails at its expiry, which is checked against the clock on each request).

use std::collections::HashMap;
use std::hash::Hash;
use std::ops::Deref;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use async_trait::async_trait;
use time::Duration;

use crate::audit::models::AuditEntry;

use crate::apps::models::App;
use crate::apps::models::AppUpdate;
use crate::consent::models::ShownVersion;
use crate::content::placeholders::PlaceholderValues;
use crate::ports::{AppStore, InsertVersionError, StorageError, TemplateStore};
use crate::templates::models::TemplateUpdate;
use crate::templates::models::{Template, TemplateVersion};
use crate::templates::versioning::VersionNumber;
use crate::{AppId, Language, TemplateId, TenantId, Timestamp};

/// At most this many entries are kept; beyond it, expired ones are dropped, and if none are, the
/// newcomer is served without being kept.
const CAPACITY: usize = 4_096;

/// How long an entry is served, by whether changes are announced to this instance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServingCacheTtl {
    /// While changes are not announced: how long a change through another instance may go unseen.
    /// Zero turns the caches off, announced or not.
    pub unannounced: Duration,
    /// While they are: a bound for an announcement lost without the connection being seen to fail.
    /// Never shorter than `unannounced`.
    pub announced: Duration,
}

impl ServingCacheTtl {
    /// The longest any entry is served, whatever happens to the announcements.
    pub fn longest(&self) -> Duration {
        if self.unannounced <= Duration::ZERO { Duration::ZERO } else { self.unannounced.max(self.announced) }
    }
}

/// The time to live in force, shared by every cache of an instance.
#[derive(Debug)]
struct Freshness {
    ttl: ServingCacheTtl,
    announced: AtomicBool,
}

impl Freshness {
    fn time_to_live(&self) -> Duration {
        if self.announced.load(Ordering::Acquire) { self.ttl.longest() } else { self.ttl.unannounced }
    }
}

#[derive(Debug)]
struct Entry<V> {
    loaded_at: Timestamp,
    value: Arc<V>,
}

#[derive(Debug)]
struct Entries<K, V> {
    map: HashMap<K, Entry<V>>,
    /// Counts what was forgotten, so that a read that overlapped a change is not kept.
    generation: u64,
}

/// A read from storage about to start, from [`ServingCache::loading`]: when it started and what the
/// cache had forgotten by then.
#[derive(Debug, Clone, Copy)]
pub struct Loading {
    at: Timestamp,
    generation: u64,
}

/// Values kept for a time to live. Cloning shares the cache.
#[derive(Debug)]
pub struct ServingCache<K, V> {
    entries: Arc<Mutex<Entries<K, V>>>,
    freshness: Arc<Freshness>,
}

impl<K, V> Clone for ServingCache<K, V> {
    fn clone(&self) -> Self {
        Self { entries: self.entries.clone(), freshness: self.freshness.clone() }
    }
}

impl<K: Eq + Hash, V> ServingCache<K, V> {
    /// A cache keeping values for `time_to_live` (zero: keeps nothing), with no announcements.
    pub fn new(time_to_live: Duration) -> Self {
        let ttl = ServingCacheTtl { unannounced: time_to_live, announced: time_to_live };
        Self::with_freshness(Arc::new(Freshness { ttl, announced: AtomicBool::new(false) }))
    }

    fn with_freshness(freshness: Arc<Freshness>) -> Self {
        Self { entries: Arc::new(Mutex::new(Entries { map: HashMap::new(), generation: 0 })), freshness }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Entries<K, V>> {
        self.entries.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn is_fresh(loaded_at: Timestamp, now: Timestamp, time_to_live: Duration) -> bool {
        now >= loaded_at && now < loaded_at.saturating_add(time_to_live)
    }

    /// The value if it was loaded less than the time to live in force before `now`.
    pub fn fresh(&self, key: &K, now: Timestamp) -> Option<Arc<V>> {
        let time_to_live = self.freshness.time_to_live();
        let entries = self.lock();
        entries.map.get(key).filter(|e| Self::is_fresh(e.loaded_at, now, time_to_live)).map(|e| e.value.clone())
    }

    /// Marks the start of a read from storage whose value may then be [kept](Self::keep).
    pub fn loading(&self, now: Timestamp) -> Loading {
        Loading { at: now, generation: self.lock().generation }
    }

    /// Keeps `value`, read from storage since `loading`, unless something was forgotten meanwhile
    /// (the value may predate that change).
    pub fn keep(&self, key: K, value: Arc<V>, loading: Loading) {
        let time_to_live = self.freshness.time_to_live();
        if time_to_live <= Duration::ZERO {
            return;
        }
        let mut entries = self.lock();
        if entries.generation != loading.generation {
            return;
        }
        if entries.map.len() >= CAPACITY && !entries.map.contains_key(&key) {
            entries.map.retain(|_, e| Self::is_fresh(e.loaded_at, loading.at, time_to_live));
            if entries.map.len() >= CAPACITY {
                return;
            }
        }
        entries.map.insert(key, Entry { loaded_at: loading.at, value });
    }

    /// Drops a value (it was changed).
    pub fn forget(&self, key: &K) {
        let mut entries = self.lock();
        entries.generation = entries.generation.wrapping_add(1);
        entries.map.remove(key);
    }

    /// Drops every value (changes may have gone unannounced).
    pub fn forget_all(&self) {
        let mut entries = self.lock();
        entries.generation = entries.generation.wrapping_add(1);
        entries.map.clear();
    }
}

/// A change of what the public endpoints serve, as storage announces it to every instance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ServingChange {
    /// An app's settings (allowed origins, webhook, keys, …).
    App(AppId),
    /// A template, its versions or its app links.
    Template(TenantId, TemplateId),
}

/// At most this many renderings are kept per cached template. Most checks fill no placeholders,
/// so a template needs one per language it is shown in; templates whose placeholders differ per end
/// user (a name, an account number) would otherwise keep one rendering per end user.
const RENDERINGS_PER_TEMPLATE: usize = 16;

/// A template as the public endpoints serve it, with what was rendered from it. The renderings live
/// and die with this entry: when the template is read again (its time to live is over, or it
/// changed), the new entry starts without any, so a changed template can never be served
/// with an old rendering.
#[derive(Debug)]
pub struct ServedTemplate {
    template: Template,
    renderings: Mutex<Vec<Rendering>>,
}

#[derive(Debug)]
struct Rendering {
    version: VersionNumber,
    language: Language,
    placeholders: PlaceholderValues,
    shown: Arc<ShownVersion>,
}

impl ServedTemplate {
    pub fn new(template: Template) -> Self {
        Self { template, renderings: Mutex::default() }
    }

    /// What a version shows in `language` with `placeholders`: kept from an earlier call, else made
    /// by `render` (and kept while there is room). `render` sees only this entry's template, so the
    /// result depends on nothing but the key and the template.
    pub fn shown<E>(
        &self,
        version: VersionNumber,
        language: Language,
        placeholders: &PlaceholderValues,
        render: impl FnOnce(&Template) -> Result<ShownVersion, E>,
    ) -> Result<Arc<ShownVersion>, E> {
        let matches =
            |r: &&Rendering| r.version == version && r.language == language && r.placeholders == *placeholders;
        if let Some(kept) = self.lock_renderings().iter().find(matches) {
            return Ok(kept.shown.clone());
        }
        // Rendered outside the lock; two requests at once may both render, and the first is kept.
        let shown = Arc::new(render(&self.template)?);
        let mut renderings = self.lock_renderings();
        if renderings.len() < RENDERINGS_PER_TEMPLATE && !renderings.iter().any(|r| matches(&r)) {
            renderings.push(Rendering { version, language, placeholders: placeholders.clone(), shown: shown.clone() });
        }
        Ok(shown)
    }

    fn lock_renderings(&self) -> std::sync::MutexGuard<'_, Vec<Rendering>> {
        self.renderings.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Deref for ServedTemplate {
    type Target = Template;

    fn deref(&self) -> &Template {
        &self.template
    }
}

/// The serving caches of one service instance. Cloning shares them.
#[derive(Debug, Clone)]
pub struct ServingCaches {
    pub apps: ServingCache<AppId, App>,
    pub templates: ServingCache<(TenantId, TemplateId), ServedTemplate>,
    freshness: Arc<Freshness>,
}

impl ServingCaches {
    /// Caches for which no change is announced until [`Self::announcements_started`].
    pub fn new(ttl: ServingCacheTtl) -> Self {
        let freshness = Arc::new(Freshness { ttl, announced: AtomicBool::new(false) });
        Self {
            apps: ServingCache::with_freshness(freshness.clone()),
            templates: ServingCache::with_freshness(freshness.clone()),
            freshness,
        }
    }

    /// Forgets what `change` made stale.
    pub fn changed(&self, change: ServingChange) {
        match change {
            ServingChange::App(id) => self.apps.forget(&id),
            ServingChange::Template(tenant, id) => self.templates.forget(&(tenant, id)),
        }
    }

    /// Forgets everything (for an announcement that cannot be read).
    pub fn forget_all(&self) {
        self.apps.forget_all();
        self.templates.forget_all();
    }

    /// Every change from now on is announced (the listening connection is up): forgets everything,
    /// since changes made while nobody listened went unannounced, and keeps entries for the longer
    /// time to live.
    pub fn announcements_started(&self) {
        // Forgotten first: no entry from before is ever served with the longer time to live.
        self.forget_all();
        self.freshness.announced.store(true, Ordering::Release);
    }

    /// Changes are no longer announced (the listening connection was lost): every entry, those
    /// already kept included, is served for the short time to live only.
    pub fn announcements_stopped(&self) {
        self.freshness.announced.store(false, Ordering::Release);
    }

    /// Whether changes are announced now.
    pub fn are_announced(&self) -> bool {
        self.freshness.announced.load(Ordering::Acquire)
    }

    /// The time to live in force now.
    pub fn time_to_live(&self) -> Duration {
        self.freshness.time_to_live()
    }

    /// The time to lives this instance was set up with.
    pub fn ttl(&self) -> ServingCacheTtl {
        self.freshness.ttl
    }
}

/// An app store that makes the cache forget each app it writes. Reads pass through, uncached.
#[derive(Debug)]
pub struct AppsForgetOnWrite {
    pub inner: Arc<dyn AppStore>,
    pub cache: ServingCache<AppId, App>,
}

#[async_trait]
impl AppStore for AppsForgetOnWrite {
    async fn insert_app(&self, app: &App, audit: &AuditEntry) -> Result<(), StorageError> {
        self.inner.insert_app(app, audit).await
    }

    async fn app_by_id(&self, id: AppId) -> Result<Option<App>, StorageError> {
        self.inner.app_by_id(id).await
    }

    async fn find_app(&self, tenant: TenantId, id: AppId) -> Result<Option<App>, StorageError> {
        self.inner.find_app(tenant, id).await
    }

    async fn list_apps(&self, tenant: TenantId) -> Result<Vec<App>, StorageError> {
        self.inner.list_apps(tenant).await
    }

    async fn update_app(
        &self,
        tenant: TenantId,
        id: AppId,
        update: &AppUpdate,
        at: Timestamp,
        audit: &AuditEntry,
    ) -> Result<Option<App>, StorageError> {
        let result = self.inner.update_app(tenant, id, update, at, audit).await;
        self.cache.forget(&id);
        result
    }
}

/// A template store that makes the cache forget each template it writes. Reads pass through, uncached.
#[derive(Debug)]
pub struct TemplatesForgetOnWrite {
    pub inner: Arc<dyn TemplateStore>,
    pub cache: ServingCache<(TenantId, TemplateId), ServedTemplate>,
}

#[async_trait]
impl TemplateStore for TemplatesForgetOnWrite {
    async fn insert_template(&self, template: &Template, audit: &AuditEntry) -> Result<(), StorageError> {
        self.inner.insert_template(template, audit).await
    }

    async fn find_template(&self, tenant: TenantId, id: TemplateId) -> Result<Option<Template>, StorageError> {
        self.inner.find_template(tenant, id).await
    }

    async fn list_templates(&self, tenant: TenantId) -> Result<Vec<Template>, StorageError> {
        self.inner.list_templates(tenant).await
    }

    async fn update_template(
        &self,
        tenant: TenantId,
        id: TemplateId,
        update: &TemplateUpdate,
        at: Timestamp,
        audit: &AuditEntry,
    ) -> Result<Option<Template>, StorageError> {
        let result = self.inner.update_template(tenant, id, update, at, audit).await;
        self.cache.forget(&(tenant, id));
        result
    }

    async fn insert_version(
        &self,
        tenant: TenantId,
        template: TemplateId,
        version: &TemplateVersion,
        audit: &AuditEntry,
    ) -> Result<(), InsertVersionError> {
        let result = self.inner.insert_version(tenant, template, version, audit).await;
        self.cache.forget(&(tenant, template));
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(millis: i64) -> Timestamp {
        Timestamp::from_unix_millis(millis).unwrap()
    }

    fn kept<K: Eq + Hash, V>(cache: &ServingCache<K, V>, key: K, value: V, now: Timestamp) {
        cache.keep(key, Arc::new(value), cache.loading(now));
    }

    #[test]
    fn values_are_served_for_the_time_to_live_and_forgotten_on_write() {
        let cache: ServingCache<u32, &str> = ServingCache::new(Duration::seconds(1));
        kept(&cache, 1, "one", at(10_000));
        assert_eq!(cache.fresh(&1, at(10_000)).as_deref(), Some(&"one"));
        assert_eq!(cache.fresh(&1, at(10_999)).as_deref(), Some(&"one"));
        assert_eq!(cache.fresh(&1, at(11_000)), None, "expired after the time to live");
        assert_eq!(cache.fresh(&1, at(9_999)), None, "a clock that went back does not serve");
        kept(&cache, 1, "uno", at(20_000));
        cache.forget(&1);
        assert_eq!(cache.fresh(&1, at(20_001)), None);
    }

    #[test]
    fn a_zero_time_to_live_keeps_nothing() {
        let cache: ServingCache<u32, &str> = ServingCache::new(Duration::ZERO);
        kept(&cache, 1, "one", at(0));
        assert_eq!(cache.fresh(&1, at(0)), None);
        let caches = ServingCaches::new(ServingCacheTtl { unannounced: Duration::ZERO, announced: Duration::hours(1) });
        caches.announcements_started();
        assert_eq!(caches.time_to_live(), Duration::ZERO, "announcements do not turn the caches on");
    }

    #[test]
    fn a_full_cache_drops_expired_entries_and_otherwise_keeps_no_newcomer() {
        let cache: ServingCache<usize, usize> = ServingCache::new(Duration::seconds(1));
        for key in 0..CAPACITY {
            kept(&cache, key, key, at(0));
        }
        kept(&cache, CAPACITY, CAPACITY, at(500));
        assert_eq!(cache.fresh(&CAPACITY, at(500)), None, "full of fresh entries: the newcomer is not kept");
        assert_eq!(cache.fresh(&0, at(500)).as_deref(), Some(&0));
        kept(&cache, CAPACITY, CAPACITY, at(1_500));
        assert_eq!(cache.fresh(&CAPACITY, at(1_500)).as_deref(), Some(&CAPACITY), "expired ones made room");
        assert_eq!(cache.lock().map.len(), 1);
    }

    #[test]
    fn a_read_that_overlapped_a_change_is_served_but_not_kept() {
        let cache: ServingCache<u32, &str> = ServingCache::new(Duration::seconds(1));
        let before_the_change = cache.loading(at(0));
        cache.forget(&2);
        cache.keep(1, Arc::new("read before the change"), before_the_change);
        assert_eq!(cache.fresh(&1, at(1)), None);
        let after = cache.loading(at(2));
        cache.keep(1, Arc::new("read after"), after);
        assert_eq!(cache.fresh(&1, at(3)).as_deref(), Some(&"read after"));
        let before_forgetting_all = cache.loading(at(4));
        cache.forget_all();
        cache.keep(1, Arc::new("read before"), before_forgetting_all);
        assert_eq!(cache.fresh(&1, at(5)), None);
    }

    fn app_id(n: u128) -> AppId {
        AppId::from_uuid(uuid::Uuid::from_u128(n))
    }

    fn caches() -> ServingCaches {
        ServingCaches::new(ServingCacheTtl { unannounced: Duration::seconds(1), announced: Duration::seconds(10) })
    }

    #[test]
    fn an_announced_change_drops_just_its_entry() {
        let caches = caches();
        caches.announcements_started();
        let (tenant, template) =
            (TenantId::from_uuid(uuid::Uuid::from_u128(7)), TemplateId::from_uuid(uuid::Uuid::from_u128(8)));
        let other_template = TemplateId::from_uuid(uuid::Uuid::from_u128(9));
        kept(&caches.templates, (tenant, template), ServedTemplate::new(template_named(template)), at(0));
        kept(&caches.templates, (tenant, other_template), ServedTemplate::new(template_named(other_template)), at(0));
        kept(&caches.apps, app_id(1), app(app_id(1)), at(0));
        kept(&caches.apps, app_id(2), app(app_id(2)), at(0));

        caches.changed(ServingChange::App(app_id(1)));
        assert!(caches.apps.fresh(&app_id(1), at(1)).is_none());
        assert!(caches.apps.fresh(&app_id(2), at(1)).is_some());
        caches.changed(ServingChange::Template(tenant, template));
        assert!(caches.templates.fresh(&(tenant, template), at(1)).is_none());
        assert!(caches.templates.fresh(&(tenant, other_template), at(1)).is_some());
        // Another tenant's template of the same id is another entry.
        caches.changed(ServingChange::Template(TenantId::from_uuid(uuid::Uuid::from_u128(70)), other_template));
        assert!(caches.templates.fresh(&(tenant, other_template), at(1)).is_some());
    }

    #[test]
    fn entries_live_longer_while_changes_are_announced_and_short_again_once_they_are_not() {
        let caches = caches();
        assert!(!caches.are_announced(), "not until a listener says so");
        kept(&caches.apps, app_id(1), app(app_id(1)), at(0));
        assert!(caches.apps.fresh(&app_id(1), at(1_000)).is_none(), "the short time to live");

        kept(&caches.apps, app_id(1), app(app_id(1)), at(1_000));
        caches.announcements_started();
        assert!(caches.apps.fresh(&app_id(1), at(1_001)).is_none(), "what was kept unannounced is forgotten");
        kept(&caches.apps, app_id(1), app(app_id(1)), at(2_000));
        assert!(caches.apps.fresh(&app_id(1), at(11_999)).is_some(), "the longer time to live");
        assert!(caches.apps.fresh(&app_id(1), at(12_000)).is_none());

        kept(&caches.apps, app_id(2), app(app_id(2)), at(20_000));
        assert!(caches.apps.fresh(&app_id(2), at(25_000)).is_some());
        caches.announcements_stopped();
        assert!(caches.apps.fresh(&app_id(2), at(25_000)).is_none(), "at once back to the short time to live");
        assert!(caches.apps.fresh(&app_id(2), at(20_999)).is_some());
    }

    fn app(id: AppId) -> App {
        App {
            id,
            tenant_id: TenantId::from_uuid(uuid::Uuid::from_u128(7)),
            name: crate::Name::parse("Shop").unwrap(),
            webhook_url: None,
            webhook_enabled: false,
            allowed_origins: Vec::new(),
            app_key_hash: crate::secrets::SecretHash::from_bytes([0; 32]),
            previous_app_key: None,
            webhook_secret_sealed: Vec::new(),
            created_at: at(0),
            updated_at: at(0),
        }
    }

    fn template_named(id: TemplateId) -> Template {
        Template {
            id,
            tenant_id: TenantId::from_uuid(uuid::Uuid::from_u128(7)),
            name: crate::Name::parse("Terms").unwrap(),
            tags: Default::default(),
            app_ids: Default::default(),
            default_language: Language::English,
            draft: Default::default(),
            customizations: Default::default(),
            always_require_acceptance: false,
            enabled: true,
            versions: Vec::new(),
            created_at: at(0),
            updated_at: at(0),
        }
    }
}
