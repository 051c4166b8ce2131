//! Apps and templates as the public endpoints serve them, kept in memory for a moment.
//!
//! Every SDK check needs its app (to know its allowed origins) and its template with all versions
//! (tens of kilobytes of content). Reading both from storage on each request costs the database more
//! than the rest of the check. Both change rarely, and what a change must never do is serve content
//! that was not published: published versions are immutable, so a cached version is always right.
//! What can be stale, for at most the time to live and only on *other* instances (this instance
//! forgets an app or template the moment it writes it), is a template's newest version, enabled
//! flag, app links and customizations, and an app's allowed origins.
//!
//! Operator reads and everything that checks an App Key never use the cache: they must start from
//! the truth (a regenerated App Key fails at once on every instance, and a key kept for an overlap
//! fails at its expiry, which is checked against the clock on each request).

use std::collections::HashMap;
use std::hash::Hash;
use std::ops::Deref;
use std::sync::{Arc, Mutex, PoisonError};

use async_trait::async_trait;
use time::Duration;

use crate::audit::models::AuditEntry;

use crate::apps::models::App;
use crate::consent::service::ShownVersion;
use crate::content::placeholders::PlaceholderValues;
use crate::ports::{AppStore, AppUpdate, InsertVersionError, StorageError, TemplateStore, TemplateUpdate};
use crate::templates::models::{Template, TemplateVersion};
use crate::templates::versioning::VersionNumber;
use crate::{AppId, Language, TemplateId, TenantId, Timestamp};

/// At most this many entries are kept; beyond it, expired ones are dropped, and if none are, the
/// newcomer is served without being kept.
const CAPACITY: usize = 4_096;

#[derive(Debug)]
struct Entry<V> {
    loaded_at: Timestamp,
    value: Arc<V>,
}

/// Values kept for a time to live. Cloning shares the cache.
#[derive(Debug)]
pub struct ServingCache<K, V> {
    entries: Arc<Mutex<HashMap<K, Entry<V>>>>,
    time_to_live: Duration,
}

impl<K, V> Clone for ServingCache<K, V> {
    fn clone(&self) -> Self {
        Self { entries: self.entries.clone(), time_to_live: self.time_to_live }
    }
}

impl<K: Eq + Hash, V> ServingCache<K, V> {
    /// A cache keeping values for `time_to_live` (zero: keeps nothing).
    pub fn new(time_to_live: Duration) -> Self {
        Self { entries: Arc::default(), time_to_live }
    }

    fn is_fresh(&self, loaded_at: Timestamp, now: Timestamp) -> bool {
        now >= loaded_at && now < loaded_at.saturating_add(self.time_to_live)
    }

    /// The value if it was loaded less than the time to live before `now`.
    pub fn fresh(&self, key: &K, now: Timestamp) -> Option<Arc<V>> {
        let entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        entries.get(key).filter(|e| self.is_fresh(e.loaded_at, now)).map(|e| e.value.clone())
    }

    /// Keeps `value`, loaded at `now`.
    pub fn keep(&self, key: K, value: Arc<V>, now: Timestamp) {
        if self.time_to_live <= Duration::ZERO {
            return;
        }
        let mut entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        if entries.len() >= CAPACITY && !entries.contains_key(&key) {
            entries.retain(|_, e| self.is_fresh(e.loaded_at, now));
            if entries.len() >= CAPACITY {
                return;
            }
        }
        entries.insert(key, Entry { loaded_at: now, value });
    }

    /// Drops a value (it was just written).
    pub fn forget(&self, key: &K) {
        self.entries.lock().unwrap_or_else(PoisonError::into_inner).remove(key);
    }
}

/// At most this many renderings are kept per cached template. Most checks fill no placeholders,
/// so a template needs one per language it is shown in; templates whose placeholders differ per end
/// user (a name, an account number) would otherwise keep one rendering per end user.
const RENDERINGS_PER_TEMPLATE: usize = 16;

/// A template as the public endpoints serve it, with what was rendered from it. The renderings live
/// and die with this entry: when the template is read again (its time to live is over, or this
/// instance wrote it), the new entry starts without any, so a changed template can never be served
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

/// The serving caches of one service instance.
#[derive(Debug, Clone)]
pub struct ServingCaches {
    pub apps: ServingCache<AppId, App>,
    pub templates: ServingCache<(TenantId, TemplateId), ServedTemplate>,
}

impl ServingCaches {
    pub fn new(time_to_live: Duration) -> Self {
        Self { apps: ServingCache::new(time_to_live), templates: ServingCache::new(time_to_live) }
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

    #[test]
    fn values_are_served_for_the_time_to_live_and_forgotten_on_write() {
        let cache: ServingCache<u32, &str> = ServingCache::new(Duration::seconds(1));
        cache.keep(1, Arc::new("one"), at(10_000));
        assert_eq!(cache.fresh(&1, at(10_000)).as_deref(), Some(&"one"));
        assert_eq!(cache.fresh(&1, at(10_999)).as_deref(), Some(&"one"));
        assert_eq!(cache.fresh(&1, at(11_000)), None, "expired after the time to live");
        assert_eq!(cache.fresh(&1, at(9_999)), None, "a clock that went back does not serve");
        cache.keep(1, Arc::new("uno"), at(20_000));
        cache.forget(&1);
        assert_eq!(cache.fresh(&1, at(20_001)), None);
    }

    #[test]
    fn a_zero_time_to_live_keeps_nothing() {
        let cache: ServingCache<u32, &str> = ServingCache::new(Duration::ZERO);
        cache.keep(1, Arc::new("one"), at(0));
        assert_eq!(cache.fresh(&1, at(0)), None);
    }

    #[test]
    fn a_full_cache_drops_expired_entries_and_otherwise_keeps_no_newcomer() {
        let cache: ServingCache<usize, usize> = ServingCache::new(Duration::seconds(1));
        for key in 0..CAPACITY {
            cache.keep(key, Arc::new(key), at(0));
        }
        cache.keep(CAPACITY, Arc::new(CAPACITY), at(500));
        assert_eq!(cache.fresh(&CAPACITY, at(500)), None, "full of fresh entries: the newcomer is not kept");
        assert_eq!(cache.fresh(&0, at(500)).as_deref(), Some(&0));
        cache.keep(CAPACITY, Arc::new(CAPACITY), at(1_500));
        assert_eq!(cache.fresh(&CAPACITY, at(1_500)).as_deref(), Some(&CAPACITY), "expired ones made room");
        assert_eq!(cache.entries.lock().unwrap().len(), 1);
    }
}
