use std::collections::{BTreeMap, BTreeSet};

use super::customizations::{Customizations, DialogTexts};
use super::versioning::{VersionKind, VersionNumber, VersionOverflow, VersionState, version_states};
use crate::content::placeholders::{UnknownPlaceholder, placeholders_in};
use crate::content::sanitize::SanitizedHtml;
use crate::name::Name;
use crate::{AppId, Language, Tag, TemplateId, TenantId, Timestamp};

/// Agreement content in each language it is written in.
pub type LocalizedContent = BTreeMap<Language, SanitizedHtml>;

/// A clickwrap template: an editable draft plus the versions published from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template {
    pub id: TemplateId,
    pub tenant_id: TenantId,
    pub name: Name,
    pub tags: BTreeSet<Tag>,
    pub default_language: Language,
    /// What the operator is editing; becomes a version only by publishing.
    pub draft: LocalizedContent,
    pub customizations: Customizations,
    /// Ask for acceptance on every presentation, even after an earlier acceptance.
    pub always_require_acceptance: bool,
    pub enabled: bool,
    /// The apps that may use it; empty means every app of the tenant.
    pub app_ids: BTreeSet<AppId>,
    /// Published versions in publish order (numbers and `effectiveAt` both non-decreasing).
    pub versions: Vec<TemplateVersion>,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
}

/// A published version: its content is locked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateVersion {
    pub number: VersionNumber,
    pub effective_at: Timestamp,
    pub published_at: Timestamp,
    pub content: LocalizedContent,
}

impl TemplateVersion {
    pub fn languages(&self) -> Vec<Language> {
        self.content.keys().copied().collect()
    }
}

/// Why a template cannot be served to a client right now. The API answers all of them with 404,
/// so that a client learns nothing about templates it may not use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum NotServable {
    #[error("the template is disabled")]
    Disabled,
    #[error("the template is not linked to this app")]
    NotAvailableToApp,
    #[error("the template has no effective version")]
    NoEffectiveVersion,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PublishError {
    #[error("the draft has no content to publish")]
    EmptyDraft,
    #[error(transparent)]
    UnknownPlaceholder(#[from] UnknownPlaceholder),
    #[error("effectiveAt may not be earlier than the previous version's ({previous})")]
    EffectiveBeforePrevious { previous: Timestamp },
    #[error(transparent)]
    Exhausted(#[from] VersionOverflow),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("a template can be enabled only after a version was published")]
pub struct NoVersionToEnable;

impl Template {
    pub fn latest_version(&self) -> Option<&TemplateVersion> {
        self.versions.last()
    }

    pub fn version(&self, number: VersionNumber) -> Option<&TemplateVersion> {
        self.versions.iter().find(|v| v.number == number)
    }

    /// The version in force at `now`: the last one whose `effectiveAt` has passed.
    pub fn effective_version(&self, now: Timestamp) -> Option<&TemplateVersion> {
        self.versions.iter().rev().find(|v| v.effective_at <= now)
    }

    pub fn version_states(&self, now: Timestamp) -> Vec<(&TemplateVersion, VersionState)> {
        let ats: Vec<Timestamp> = self.versions.iter().map(|v| v.effective_at).collect();
        self.versions.iter().zip(version_states(&ats, now)).collect()
    }

    /// Linked to no app: every app of the tenant may use it; linked: only those apps.
    pub fn is_available_to(&self, app_id: AppId) -> bool {
        self.app_ids.is_empty() || self.app_ids.contains(&app_id)
    }

    /// The version a client of `app_id` is shown at `now`, if it may be shown at all.
    pub fn servable_version(&self, app_id: AppId, now: Timestamp) -> Result<&TemplateVersion, NotServable> {
        if !self.enabled {
            return Err(NotServable::Disabled);
        }
        if !self.is_available_to(app_id) {
            return Err(NotServable::NotAvailableToApp);
        }
        self.effective_version(now).ok_or(NotServable::NoEffectiveVersion)
    }

    /// Makes the next version from the draft, without changing the template; the caller stores it.
    /// `effective_at` defaults to `now`; a future one makes the version Scheduled.
    pub fn next_version(
        &self,
        kind: VersionKind,
        effective_at: Option<Timestamp>,
        now: Timestamp,
    ) -> Result<TemplateVersion, PublishError> {
        if self.draft.is_empty() || self.draft.values().all(|html| html.as_str().trim().is_empty()) {
            return Err(PublishError::EmptyDraft);
        }
        for html in self.draft.values() {
            placeholders_in(html.as_str())?;
        }
        let latest = self.latest_version();
        let effective_at = effective_at.unwrap_or(now);
        if let Some(previous) = latest.filter(|v| effective_at < v.effective_at) {
            return Err(PublishError::EffectiveBeforePrevious { previous: previous.effective_at });
        }
        Ok(TemplateVersion {
            number: VersionNumber::next(latest.map(|v| v.number), kind)?,
            effective_at,
            published_at: now,
            content: self.draft.clone(),
        })
    }

    /// A template can be enabled once it has a version.
    pub fn check_can_enable(&self) -> Result<(), NoVersionToEnable> {
        if self.versions.is_empty() { Err(NoVersionToEnable) } else { Ok(()) }
    }

    /// Whether it carries every one of `wanted`.
    pub fn has_tags(&self, wanted: &[Tag]) -> bool {
        wanted.iter().all(|tag| self.tags.contains(tag))
    }
}

/// Changes to a template's settings, parsed; `None` leaves a field as it is.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TemplateChanges {
    pub name: Option<Name>,
    pub tags: Option<BTreeSet<Tag>>,
    pub default_language: Option<Language>,
    pub always_require_acceptance: Option<bool>,
}

/// One change to a stored template; like [`AppUpdate`](crate::apps::models::AppUpdate), only the
/// fields it names are written. Published versions are never changed (they are added by
/// [`TemplateStore::insert_version`](crate::ports::TemplateStore::insert_version)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TemplateUpdate {
    Settings(TemplateChanges),
    /// The whole draft, every language.
    Draft(LocalizedContent),
    /// One language of the draft: its content, or (`None`) the language removed. The draft's other
    /// languages stay as stored, so operators editing different languages keep each other's edit.
    DraftLanguage(Language, Option<SanitizedHtml>),
    Customizations(Customizations),
    /// The only apps it is available to; none: every app of the tenant.
    Apps(BTreeSet<AppId>),
    Enabled(bool),
}

/// What the dialog preview shows of a template in one language: what end users are shown now
/// (the version in force, else the latest scheduled one, the draft while none was published),
/// placeholders left empty, with the dialog's texts in that language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DialogPreview {
    pub name: String,
    pub language: Language,
    /// Rendered HTML; empty when the shown version (and the draft) lacks the language.
    pub content: String,
    /// The shown version's number; 1.0 while only the draft exists.
    pub version: VersionNumber,
    /// When the shown version took or takes effect; now while only the draft exists.
    pub effective_at: Timestamp,
    pub texts: DialogTexts,
}
