use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, PoisonError};

use async_trait::async_trait;

use crate::DeliveryId;
use crate::webhooks::dispatch::LeaseOwner;
use crate::webhooks::models::{DeliveryAttempt, DeliveryRecord};

use crate::apps::models::AppUpdate;
use crate::apps::models::{App, PreviousAppKey};
use crate::audit::models::{AuditEntry, AuditPosition};
use crate::consent::acceptance::{ConsentSnapshot, EventSummary};
use crate::consent::cursor::EventPosition;
use crate::consent::models::EventDetails;
use crate::consent::models::{Action, ClickwrapEvent, EventFilter, EventStatus};
use crate::consent::models::{DailyCount, EventToVerify, StoredCertificate, VerificationRecord};
use crate::keys::KeyId;
use crate::keys::models::StoredServerKey;
use crate::ledger::merkle::{self, Hash};
use crate::ledger::models::{StoredLeaf, StoredLedgerKey};
use crate::ledger::tree_head::{SignedTreeHead, TreeHead};
use crate::limits::quota::{QuotaPeriod, quota_allows};
use crate::limits::rate::{RateLimitKey, WindowHits};
use crate::ports::{
    AppStore, AuditLogStore, CommitVerificationError, EventStore, InsertVersionError, KeyStore, LedgerStore,
    RateLimitStore, StorageError, TemplateStore, TenantStore, TreeHeadSigner,
};
use crate::secrets::SecretHash;
use crate::templates::models::TemplateUpdate;
use crate::templates::models::{Template, TemplateVersion};
use crate::tenants::models::{
    ConsoleSessionRecord, Operator, OperatorTokenInfo, OperatorTokenRecord, RECORD_USE_EVERY, Tenant,
};
use crate::webhooks::models::Delivery;
use crate::{AppId, EndUserId, EventId, Name, OperatorTokenId, TemplateId, TenantId, Timestamp};

/// Every storage port over plain collections behind one lock.
#[derive(Debug, Default)]
pub struct MemoryStore {
    state: Mutex<State>,
}

#[derive(Debug, Default)]
pub(super) struct State {
    tenants: HashMap<TenantId, Tenant>,
    operator_tokens: Vec<StoredToken>,
    console_sessions: Vec<(ConsoleSessionRecord, Timestamp)>,
    pub(super) audit_log: Vec<AuditEntry>,
    apps: HashMap<AppId, App>,
    templates: HashMap<TemplateId, Template>,
    events: HashMap<EventId, ClickwrapEvent>,
    certificates: HashMap<EventId, StoredCertificate>,
    pub(super) deliveries: Vec<Delivery>,
    /// Leases, rounds and attempts of the deliveries (see `deliveries.rs`).
    pub(super) webhooks: DeliveryBook,
    re_accepts: Vec<(TenantId, EndUserId, TemplateId, Timestamp)>,
    rate_counts: HashMap<(RateLimitKey, Timestamp), u64>,
    /// Current first, then newest first, as the port returns them.
    server_keys: Vec<StoredServerKey>,
    ledger: MemoryLedger,
}

/// The evidence ledger as the memory store keeps it.
#[derive(Debug, Default)]
struct MemoryLedger {
    key: Option<StoredLedgerKey>,
    logs: HashMap<TenantId, Vec<(EventId, StoredLeaf)>>,
    /// Every tree head, oldest first.
    heads: HashMap<TenantId, Vec<SignedTreeHead>>,
}

/// A token as the memory store keeps it: the record, its last use, whether it was revoked.
#[derive(Debug)]
struct StoredToken {
    record: OperatorTokenRecord,
    last_used_at: Option<Timestamp>,
    revoked: bool,
}

impl State {
    fn operator(&self, token_id: OperatorTokenId) -> Option<Operator> {
        let token = self.operator_tokens.iter().find(|t| t.record.id == token_id && !t.revoked)?;
        let tenant = self.tenants.get(&token.record.tenant_id)?.clone();
        Some(Operator { tenant, token_id, token_name: token.record.name.clone(), role: token.record.role })
    }
}

/// Last uses are recorded at most once a minute, as the database does.
fn touch(last: &mut Option<Timestamp>, now: Timestamp) {
    if last.is_none_or(|at| now.as_datetime() - at.as_datetime() >= RECORD_USE_EVERY) {
        *last = Some(now);
    }
}

impl MemoryStore {
    pub(super) fn state(&self) -> MutexGuard<'_, State> {
        // A panic in another test thread must not hide this test's data.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The deliveries written so far (for tests of the outbox).
    pub fn deliveries(&self) -> Vec<Delivery> {
        self.state().deliveries.clone()
    }
}

fn summary(event: &ClickwrapEvent) -> EventSummary {
    EventSummary {
        event_id: event.id,
        status: event.status,
        version: event.version,
        action_at: event.action_at,
        verified_at: event.verified_at,
    }
}

fn position(event: &ClickwrapEvent) -> EventPosition {
    EventPosition { action_at: event.action_at, event_id: event.id }
}

#[async_trait]
impl TenantStore for MemoryStore {
    async fn create_tenant(&self, tenant: &Tenant, token: &OperatorTokenRecord) -> Result<(), StorageError> {
        let mut state = self.state();
        state.tenants.insert(tenant.id, tenant.clone());
        state.operator_tokens.push(StoredToken { record: token.clone(), last_used_at: None, revoked: false });
        Ok(())
    }

    async fn add_operator_token(&self, token: &OperatorTokenRecord, audit: &AuditEntry) -> Result<bool, StorageError> {
        let mut state = self.state();
        if !state.tenants.contains_key(&token.tenant_id) {
            return Ok(false);
        }
        state.operator_tokens.push(StoredToken { record: token.clone(), last_used_at: None, revoked: false });
        state.audit_log.push(audit.clone());
        Ok(true)
    }

    async fn find_tenant(&self, id: TenantId) -> Result<Option<Tenant>, StorageError> {
        Ok(self.state().tenants.get(&id).cloned())
    }

    async fn operator_for_token(
        &self,
        token_hash: &SecretHash,
        now: Timestamp,
    ) -> Result<Option<Operator>, StorageError> {
        let mut state = self.state();
        let Some(token) = state
            .operator_tokens
            .iter_mut()
            .find(|t| !t.revoked && t.record.token_hash.as_bytes() == token_hash.as_bytes())
        else {
            return Ok(None);
        };
        touch(&mut token.last_used_at, now);
        let id = token.record.id;
        Ok(state.operator(id))
    }

    async fn list_operator_tokens(&self, tenant: TenantId) -> Result<Vec<OperatorTokenInfo>, StorageError> {
        let state = self.state();
        let mut tokens: Vec<OperatorTokenInfo> = state
            .operator_tokens
            .iter()
            .filter(|t| t.record.tenant_id == tenant && !t.revoked)
            .map(|t| OperatorTokenInfo {
                id: t.record.id,
                name: t.record.name.clone(),
                role: t.record.role,
                created_at: t.record.created_at,
                last_used_at: t.last_used_at,
            })
            .collect();
        tokens.sort_by_key(|t| (t.created_at, t.id));
        Ok(tokens)
    }

    async fn revoke_operator_token(
        &self,
        tenant: TenantId,
        id: OperatorTokenId,
        audit: &AuditEntry,
    ) -> Result<bool, StorageError> {
        let mut state = self.state();
        let Some(token) =
            state.operator_tokens.iter_mut().find(|t| t.record.id == id && t.record.tenant_id == tenant && !t.revoked)
        else {
            return Ok(false);
        };
        token.revoked = true;
        state.console_sessions.retain(|(session, _)| session.token_id != id);
        state.audit_log.push(audit.clone());
        Ok(true)
    }

    async fn insert_console_session(&self, session: &ConsoleSessionRecord) -> Result<(), StorageError> {
        self.state().console_sessions.push((session.clone(), session.created_at));
        Ok(())
    }

    async fn console_session_operator(
        &self,
        secret_hash: &SecretHash,
        idle_since: Timestamp,
        now: Timestamp,
    ) -> Result<Option<Operator>, StorageError> {
        let mut state = self.state();
        let Some((session, last_seen)) = state
            .console_sessions
            .iter_mut()
            .find(|(s, seen)| s.secret_hash.as_bytes() == secret_hash.as_bytes() && *seen > idle_since)
        else {
            return Ok(None);
        };
        let mut seen = Some(*last_seen);
        touch(&mut seen, now);
        *last_seen = seen.unwrap_or(now);
        let token_id = session.token_id;
        Ok(state.operator(token_id))
    }

    async fn delete_console_session(&self, secret_hash: &SecretHash) -> Result<(), StorageError> {
        self.state().console_sessions.retain(|(s, _)| s.secret_hash.as_bytes() != secret_hash.as_bytes());
        Ok(())
    }

    async fn set_event_quota(&self, id: TenantId, quota: Option<u64>) -> Result<bool, StorageError> {
        Ok(self.state().tenants.get_mut(&id).map(|t| t.event_quota = quota).is_some())
    }

    async fn set_legal_name(&self, id: TenantId, legal_name: Option<&Name>) -> Result<bool, StorageError> {
        Ok(self.state().tenants.get_mut(&id).map(|t| t.legal_name = legal_name.cloned()).is_some())
    }

    async fn events_in_period(&self, id: TenantId, period: &QuotaPeriod) -> Result<u64, StorageError> {
        Ok(count_in_period(&self.state(), id, period))
    }
}

fn count_in_period(state: &State, tenant: TenantId, period: &QuotaPeriod) -> u64 {
    let in_period = |at: &Timestamp| *at >= period.start && *at < period.end;
    let count = state
        .events
        .values()
        .filter(|e| e.tenant_id == tenant && e.verified_at.as_ref().is_some_and(in_period))
        .count();
    u64::try_from(count).unwrap_or(u64::MAX)
}

#[async_trait]
impl AppStore for MemoryStore {
    async fn insert_app(&self, app: &App, audit: &AuditEntry) -> Result<(), StorageError> {
        let mut state = self.state();
        state.apps.insert(app.id, app.clone());
        state.audit_log.push(audit.clone());
        Ok(())
    }

    async fn app_by_id(&self, id: AppId) -> Result<Option<App>, StorageError> {
        Ok(self.state().apps.get(&id).cloned())
    }

    async fn find_app(&self, tenant: TenantId, id: AppId) -> Result<Option<App>, StorageError> {
        Ok(self.state().apps.get(&id).filter(|a| a.tenant_id == tenant).cloned())
    }

    async fn list_apps(&self, tenant: TenantId) -> Result<Vec<App>, StorageError> {
        let mut apps: Vec<App> = self.state().apps.values().filter(|a| a.tenant_id == tenant).cloned().collect();
        apps.sort_by_key(|a| (a.created_at, a.id));
        Ok(apps)
    }

    async fn update_app(
        &self,
        tenant: TenantId,
        id: AppId,
        update: &AppUpdate,
        at: Timestamp,
        audit: &AuditEntry,
    ) -> Result<Option<App>, StorageError> {
        let mut state = self.state();
        let Some(app) = state.apps.get_mut(&id).filter(|a| a.tenant_id == tenant) else { return Ok(None) };
        match update {
            AppUpdate::Settings(changes) => {
                if let Some(name) = &changes.name {
                    app.name = name.clone();
                }
                if let Some(url) = &changes.webhook_url {
                    app.webhook_url = url.clone();
                }
                if let Some(enabled) = changes.webhook_enabled {
                    app.webhook_enabled = enabled;
                }
                if let Some(origins) = &changes.allowed_origins {
                    app.allowed_origins = origins.clone();
                }
            }
            AppUpdate::AppKey { hash, old_key_expires_at } => {
                app.previous_app_key =
                    old_key_expires_at.map(|expires_at| PreviousAppKey { hash: app.app_key_hash, expires_at });
                app.app_key_hash = *hash;
            }
            AppUpdate::WebhookSecret { sealed } => app.webhook_secret_sealed = sealed.clone(),
        }
        app.updated_at = at;
        let stored = app.clone();
        state.audit_log.push(audit.clone());
        Ok(Some(stored))
    }
}

#[async_trait]
impl TemplateStore for MemoryStore {
    async fn insert_template(&self, template: &Template, audit: &AuditEntry) -> Result<(), StorageError> {
        let mut state = self.state();
        state.templates.insert(template.id, template.clone());
        state.audit_log.push(audit.clone());
        Ok(())
    }

    async fn find_template(&self, tenant: TenantId, id: TemplateId) -> Result<Option<Template>, StorageError> {
        Ok(self.state().templates.get(&id).filter(|t| t.tenant_id == tenant).cloned())
    }

    async fn list_templates(&self, tenant: TenantId) -> Result<Vec<Template>, StorageError> {
        let mut templates: Vec<Template> =
            self.state().templates.values().filter(|t| t.tenant_id == tenant).cloned().collect();
        templates.sort_by_key(|t| (t.created_at, t.id));
        Ok(templates)
    }

    async fn update_template(
        &self,
        tenant: TenantId,
        id: TemplateId,
        update: &TemplateUpdate,
        at: Timestamp,
        audit: &AuditEntry,
    ) -> Result<Option<Template>, StorageError> {
        let mut state = self.state();
        let Some(template) = state.templates.get_mut(&id).filter(|t| t.tenant_id == tenant) else { return Ok(None) };
        match update {
            TemplateUpdate::Settings(changes) => {
                if let Some(name) = &changes.name {
                    template.name = name.clone();
                }
                if let Some(tags) = &changes.tags {
                    template.tags = tags.clone();
                }
                if let Some(language) = changes.default_language {
                    template.default_language = language;
                }
                if let Some(always) = changes.always_require_acceptance {
                    template.always_require_acceptance = always;
                }
            }
            TemplateUpdate::Draft(content) => template.draft = content.clone(),
            TemplateUpdate::DraftLanguage(language, Some(content)) => {
                template.draft.insert(*language, content.clone());
            }
            TemplateUpdate::DraftLanguage(language, None) => {
                template.draft.remove(language);
            }
            TemplateUpdate::Customizations(customizations) => template.customizations = customizations.clone(),
            TemplateUpdate::Apps(app_ids) => template.app_ids = app_ids.clone(),
            TemplateUpdate::Enabled(enabled) => template.enabled = *enabled,
        }
        template.updated_at = at;
        let stored = template.clone();
        state.audit_log.push(audit.clone());
        Ok(Some(stored))
    }

    async fn insert_version(
        &self,
        tenant: TenantId,
        template: TemplateId,
        version: &TemplateVersion,
        audit: &AuditEntry,
    ) -> Result<(), InsertVersionError> {
        let mut state = self.state();
        let stored = state
            .templates
            .get_mut(&template)
            .filter(|t| t.tenant_id == tenant)
            .ok_or_else(|| StorageError::Internal(format!("template {template} does not exist")))?;
        if stored.versions.iter().any(|v| v.number == version.number) {
            return Err(InsertVersionError::Conflict(version.number));
        }
        stored.versions.push(version.clone());
        state.audit_log.push(audit.clone());
        Ok(())
    }
}

#[async_trait]
impl AuditLogStore for MemoryStore {
    async fn list_audit_entries(
        &self,
        tenant: TenantId,
        after: Option<&AuditPosition>,
        limit: usize,
    ) -> Result<Vec<AuditEntry>, StorageError> {
        let state = self.state();
        let mut items: Vec<AuditEntry> = state
            .audit_log
            .iter()
            .filter(|e| e.tenant_id == tenant)
            .filter(|e| after.is_none_or(|cursor| AuditPosition::of(e).is_after(cursor)))
            .cloned()
            .collect();
        items.sort_by_key(|e| std::cmp::Reverse((e.at, e.id)));
        items.truncate(limit);
        Ok(items)
    }
}

#[async_trait]
impl EventStore for MemoryStore {
    async fn insert_event(&self, event: &ClickwrapEvent) -> Result<(), StorageError> {
        self.state().events.insert(event.id, event.clone());
        Ok(())
    }

    async fn find_event(&self, tenant: TenantId, id: EventId) -> Result<Option<ClickwrapEvent>, StorageError> {
        Ok(self.state().events.get(&id).filter(|e| e.tenant_id == tenant).cloned())
    }

    async fn find_event_to_verify(&self, tenant: TenantId, id: EventId) -> Result<Option<EventToVerify>, StorageError> {
        let state = self.state();
        let Some(event) = state.events.get(&id).filter(|e| e.tenant_id == tenant).cloned() else { return Ok(None) };
        let terms = state.tenants.get(&tenant);
        Ok(Some(EventToVerify {
            event,
            event_quota: terms.and_then(|t| t.event_quota),
            legal_name: terms.and_then(|t| t.legal_name.clone()),
        }))
    }

    async fn commit_verification(&self, record: &VerificationRecord) -> Result<(), CommitVerificationError> {
        let mut state = self.state();
        let event = &record.event;
        let stored = state
            .events
            .get(&event.id)
            .filter(|e| e.tenant_id == event.tenant_id)
            .ok_or(CommitVerificationError::EventMissing)?;
        if stored.status.is_verified() {
            return Err(CommitVerificationError::AlreadyVerified(stored.status));
        }
        if !quota_allows(record.quota, count_in_period(&state, event.tenant_id, &record.period)) {
            return Err(CommitVerificationError::QuotaExceeded);
        }
        state.events.insert(event.id, event.clone());
        if let Some(certificate) = &record.certificate {
            state.certificates.insert(certificate.event_id, certificate.clone());
        }
        state.deliveries.push(record.delivery.clone());
        let log = state.ledger.logs.entry(event.tenant_id).or_default();
        let leaf_index = u64::try_from(log.len()).unwrap_or(u64::MAX);
        log.push((
            event.id,
            StoredLeaf { leaf_index, leaf_hash: record.ledger_leaf.leaf_hash, salt: Some(record.ledger_leaf.salt) },
        ));
        Ok(())
    }

    async fn list_verified_events(
        &self,
        tenant: TenantId,
        filter: &EventFilter,
        after: Option<&EventPosition>,
        limit: usize,
    ) -> Result<Vec<ClickwrapEvent>, StorageError> {
        let state = self.state();
        let mut items: Vec<ClickwrapEvent> = state
            .events
            .values()
            .filter(|e| e.tenant_id == tenant && e.status.is_verified())
            .filter(|e| filter.template_id.is_none_or(|id| e.template_id == id))
            .filter(|e| filter.end_user_id.as_ref().is_none_or(|u| e.end_user_id == *u))
            .filter(|e| filter.status.is_none_or(|s: Action| e.status == EventStatus::from(s)))
            .filter(|e| filter.from.is_none_or(|from| e.action_at >= from))
            .filter(|e| filter.to.is_none_or(|to| e.action_at <= to))
            .filter(|e| after.is_none_or(|cursor| position(e).is_after(cursor)))
            .cloned()
            .collect();
        items.sort_by_key(|e| std::cmp::Reverse((e.action_at, e.id)));
        items.truncate(limit);
        Ok(items)
    }

    async fn consent_snapshot(
        &self,
        tenant: TenantId,
        end_user: &EndUserId,
        template: TemplateId,
        major: u32,
    ) -> Result<ConsentSnapshot, StorageError> {
        let state = self.state();
        let mine: Vec<&ClickwrapEvent> = state
            .events
            .values()
            .filter(|e| e.tenant_id == tenant && e.template_id == template && e.end_user_id == *end_user)
            .collect();
        let latest = |verified: bool| {
            mine.iter()
                .filter(|e| e.version.major == major && e.status.is_verified() == verified)
                .max_by_key(|e| (e.action_at, e.id))
                .map(|e| summary(e))
        };
        Ok(ConsentSnapshot {
            latest_verified: latest(true),
            latest_unverified: latest(false),
            accepted_earlier_major: mine.iter().any(|e| e.version.major < major && e.status == EventStatus::Accepted),
            re_accept_requested_at: state
                .re_accepts
                .iter()
                .filter(|(t, u, tpl, _)| *t == tenant && u == end_user && *tpl == template)
                .map(|(_, _, _, at)| *at)
                .max(),
        })
    }

    async fn last_accepted_event(
        &self,
        tenant: TenantId,
        end_user: &EndUserId,
        template: TemplateId,
    ) -> Result<Option<ClickwrapEvent>, StorageError> {
        Ok(self
            .state()
            .events
            .values()
            .filter(|e| e.tenant_id == tenant && e.template_id == template && e.end_user_id == *end_user)
            .filter(|e| e.status == EventStatus::Accepted)
            .max_by_key(|e| (e.action_at, e.id))
            .cloned())
    }

    async fn request_re_accept(
        &self,
        tenant: TenantId,
        end_user: &EndUserId,
        template: TemplateId,
        _reason: Option<&str>,
        at: Timestamp,
    ) -> Result<(), StorageError> {
        self.state().re_accepts.push((tenant, end_user.clone(), template, at));
        Ok(())
    }

    async fn find_certificate(
        &self,
        tenant: TenantId,
        event: EventId,
    ) -> Result<Option<StoredCertificate>, StorageError> {
        let state = self.state();
        let owned = state.events.get(&event).is_some_and(|e| e.tenant_id == tenant);
        Ok(state.certificates.get(&event).filter(|_| owned).cloned())
    }

    async fn find_delivery_for_event(
        &self,
        tenant: TenantId,
        event: EventId,
    ) -> Result<Option<Delivery>, StorageError> {
        Ok(self.state().deliveries.iter().find(|d| d.tenant_id == tenant && d.event_id == event).cloned())
    }

    async fn list_verified_event_details(
        &self,
        tenant: TenantId,
        filter: &EventFilter,
        after: Option<&EventPosition>,
        limit: usize,
    ) -> Result<Vec<EventDetails>, StorageError> {
        let events = self.list_verified_events(tenant, filter, after, limit).await?;
        let state = self.state();
        Ok(events
            .into_iter()
            .map(|event| EventDetails {
                certificate_sha256: state.certificates.get(&event.id).map(|c| c.sha256),
                delivery: state.deliveries.iter().find(|d| d.tenant_id == tenant && d.event_id == event.id).cloned(),
                event,
            })
            .collect())
    }

    async fn daily_counts(
        &self,
        tenant: TenantId,
        from: Timestamp,
        to: Timestamp,
    ) -> Result<Vec<DailyCount>, StorageError> {
        let state = self.state();
        let mut days: std::collections::BTreeMap<i64, DailyCount> = std::collections::BTreeMap::new();
        for event in state.events.values().filter(|e| e.tenant_id == tenant) {
            if !event.status.is_verified() || event.action_at < from || event.action_at >= to {
                continue;
            }
            let day_millis = event.action_at.unix_millis().div_euclid(86_400_000) * 86_400_000;
            let Some(day) = Timestamp::from_unix_millis(day_millis) else { continue };
            let count = days.entry(day_millis).or_insert(DailyCount { day, accepted: 0, declined: 0 });
            match event.action {
                Action::Accepted => count.accepted += 1,
                Action::Declined => count.declined += 1,
            }
        }
        Ok(days.into_values().collect())
    }
}

#[async_trait]
impl RateLimitStore for MemoryStore {
    async fn add_hits(&self, batch: &[WindowHits]) -> Result<Vec<u64>, StorageError> {
        let mut state = self.state();
        Ok(batch
            .iter()
            .map(|sent| {
                let count = state.rate_counts.entry((sent.key.clone(), sent.window_start)).or_insert(0);
                *count = count.saturating_add(sent.hits);
                *count
            })
            .collect())
    }
}

#[async_trait]
impl KeyStore for MemoryStore {
    async fn ensure_keyring(&self, candidate: &StoredServerKey) -> Result<Vec<StoredServerKey>, StorageError> {
        let mut state = self.state();
        if state.server_keys.is_empty() {
            state.server_keys.push(candidate.clone());
        }
        Ok(state.server_keys.clone())
    }

    async fn server_keys(&self) -> Result<Vec<StoredServerKey>, StorageError> {
        Ok(self.state().server_keys.clone())
    }

    async fn add_current_server_key(&self, key: &StoredServerKey) -> Result<(), StorageError> {
        let mut state = self.state();
        for old in state.server_keys.iter_mut().filter(|old| old.is_current) {
            old.is_current = false;
            old.replaced_at = Some(key.created_at);
        }
        let mut current = key.clone();
        current.is_current = true;
        state.server_keys.insert(0, current);
        Ok(())
    }

    async fn delete_server_key(&self, id: &KeyId) -> Result<bool, StorageError> {
        let mut state = self.state();
        let before = state.server_keys.len();
        state.server_keys.retain(|key| key.is_current || key.id != *id);
        Ok(state.server_keys.len() < before)
    }
}

#[async_trait]
impl LedgerStore for MemoryStore {
    async fn ensure_ledger_key(&self, candidate: &StoredLedgerKey) -> Result<StoredLedgerKey, StorageError> {
        Ok(self.state().ledger.key.get_or_insert_with(|| candidate.clone()).clone())
    }

    async fn tenants_with_unsigned_leaves(&self, limit: usize) -> Result<Vec<TenantId>, StorageError> {
        let state = self.state();
        let ledger = &state.ledger;
        let signed =
            |tenant: &TenantId| ledger.heads.get(tenant).and_then(|h| h.last()).map_or(0, |h| h.head.tree_size);
        Ok(ledger
            .logs
            .iter()
            .filter(|(tenant, log)| u64::try_from(log.len()).unwrap_or(u64::MAX) > signed(tenant))
            .map(|(tenant, _)| *tenant)
            .take(limit)
            .collect())
    }

    async fn advance_tree_head(
        &self,
        tenant: TenantId,
        sign: &TreeHeadSigner<'_>,
        now: Timestamp,
    ) -> Result<Option<SignedTreeHead>, StorageError> {
        let mut state = self.state();
        let hashes: Vec<Hash> = state
            .ledger
            .logs
            .get(&tenant)
            .map(|log| log.iter().map(|(_, leaf)| leaf.leaf_hash).collect())
            .unwrap_or_default();
        let size = u64::try_from(hashes.len()).unwrap_or(u64::MAX);
        let heads = state.ledger.heads.entry(tenant).or_default();
        if heads.last().is_some_and(|last| last.head.tree_size >= size) {
            return Ok(None);
        }
        let signed = sign(&TreeHead { tree_size: size, root_hash: merkle::root(&hashes), timestamp: now })?;
        heads.push(signed.clone());
        Ok(Some(signed))
    }

    async fn latest_tree_head(&self, tenant: TenantId) -> Result<Option<SignedTreeHead>, StorageError> {
        Ok(self.state().ledger.heads.get(&tenant).and_then(|heads| heads.last().cloned()))
    }

    async fn ledger_leaf(&self, tenant: TenantId, event: EventId) -> Result<Option<StoredLeaf>, StorageError> {
        Ok(self
            .state()
            .ledger
            .logs
            .get(&tenant)
            .and_then(|log| log.iter().find(|(id, _)| *id == event).map(|(_, leaf)| *leaf)))
    }

    async fn leaf_hashes(&self, tenant: TenantId, size: u64) -> Result<Vec<Hash>, StorageError> {
        let state = self.state();
        let log = state.ledger.logs.get(&tenant).map(Vec::as_slice).unwrap_or_default();
        Ok(log.iter().take(usize::try_from(size).unwrap_or(usize::MAX)).map(|(_, leaf)| leaf.leaf_hash).collect())
    }

    async fn ledger_size(&self, tenant: TenantId) -> Result<u64, StorageError> {
        Ok(self.state().ledger.logs.get(&tenant).map_or(0, |log| u64::try_from(log.len()).unwrap_or(u64::MAX)))
    }
}

/// What the memory store keeps of deliveries besides [`Delivery`] itself.
#[derive(Debug, Default)]
pub(super) struct DeliveryBook {
    pub(super) leases: HashMap<DeliveryId, (LeaseOwner, Timestamp)>,
    pub(super) round_attempts: HashMap<DeliveryId, u32>,
    pub(super) attempts: Vec<DeliveryAttempt>,
}

impl DeliveryBook {
    pub(super) fn holds(&self, owner: LeaseOwner, id: DeliveryId) -> bool {
        self.leases.get(&id).is_some_and(|(holder, _)| *holder == owner)
    }

    pub(super) fn record(&self, delivery: &Delivery) -> DeliveryRecord {
        let mut attempts: Vec<DeliveryAttempt> =
            self.attempts.iter().filter(|a| a.delivery_id == delivery.id).cloned().collect();
        attempts.sort_by_key(|a| std::cmp::Reverse((a.started_at, a.number)));
        DeliveryRecord { delivery: delivery.clone(), attempts }
    }
}
