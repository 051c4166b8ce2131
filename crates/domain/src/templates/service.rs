//! Template use cases: create, edit the draft, customize, link to apps, publish, enable, disable.

use std::collections::BTreeSet;

use super::customizations::Customizations;
use super::models::{DialogPreview, LocalizedContent, NoVersionToEnable, PublishError, Template, TemplateVersion};
use super::versioning::{VersionKind, VersionNumber};
use crate::audit::models::AuditAction;
use crate::content::placeholders::{PlaceholderValues, render};
use crate::content::sanitize::{ContentRejected, SanitizedHtml, sanitize};
use crate::name::Name;
use crate::ports::{CpuPoolStopped, InsertVersionError, StorageError, run_on_cpu_pool};
use crate::service::ClickwrapService;
use crate::templates::models::{TemplateChanges, TemplateUpdate};
use crate::tenants::models::Admin;
use crate::{AppId, Language, Tag, TemplateId, TenantId, Timestamp};

/// What an operator sends to create a template, parsed (content already sanitized).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewTemplate {
    pub name: Name,
    pub tags: BTreeSet<Tag>,
    pub app_ids: BTreeSet<AppId>,
    pub default_language: Language,
    pub content: LocalizedContent,
    pub customizations: Customizations,
    pub always_require_acceptance: bool,
}

/// Why unsaved content cannot be previewed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PreviewContentError {
    /// The content is beyond what may be sanitized.
    #[error(transparent)]
    Content(#[from] ContentRejected),
    #[error(transparent)]
    Stopping(#[from] CpuPoolStopped),
}

/// Reading or changing one template, where no app is linked: only the template can be missing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TemplateError {
    #[error("no such template")]
    NotFound,
    #[error(transparent)]
    Storage(#[from] StorageError),
}

/// Creating a template: no template to miss, but a linked app may not be the tenant's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CreateTemplateError {
    /// A linked app is not one of the tenant's apps.
    #[error("app {0} is not an app of this tenant")]
    UnknownApp(AppId),
    #[error(transparent)]
    Storage(#[from] StorageError),
}

/// Linking a template to apps: the template may be missing, and a linked app may not be the
/// tenant's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetTemplateAppsError {
    #[error("no such template")]
    NotFound,
    /// A linked app is not one of the tenant's apps.
    #[error("app {0} is not an app of this tenant")]
    UnknownApp(AppId),
    #[error(transparent)]
    Storage(#[from] StorageError),
}

impl From<TemplateError> for SetTemplateAppsError {
    fn from(error: TemplateError) -> Self {
        match error {
            TemplateError::NotFound => Self::NotFound,
            TemplateError::Storage(e) => Self::Storage(e),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SaveDraftLanguageError {
    #[error("no such template")]
    NotFound,
    /// The content is beyond what may be sanitized.
    #[error(transparent)]
    Content(#[from] ContentRejected),
    #[error(transparent)]
    Stopping(#[from] CpuPoolStopped),
    #[error(transparent)]
    Storage(#[from] StorageError),
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PublishVersionError {
    #[error("no such template")]
    NotFound,
    #[error(transparent)]
    Invalid(#[from] PublishError),
    /// Another publish of the same template won the race for this number; try again.
    #[error("another version was published at the same time")]
    Conflict,
    #[error(transparent)]
    Storage(#[from] StorageError),
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EnableTemplateError {
    #[error("no such template")]
    NotFound,
    #[error(transparent)]
    NoVersion(#[from] NoVersionToEnable),
    #[error(transparent)]
    Storage(#[from] StorageError),
}

/// The errors of the use cases that write one change to a template: each has its "no such template".
trait TemplateNotFound: From<StorageError> {
    const NOT_FOUND: Self;
}

impl TemplateNotFound for TemplateError {
    const NOT_FOUND: Self = TemplateError::NotFound;
}

impl TemplateNotFound for SaveDraftLanguageError {
    const NOT_FOUND: Self = SaveDraftLanguageError::NotFound;
}

impl TemplateNotFound for EnableTemplateError {
    const NOT_FOUND: Self = EnableTemplateError::NotFound;
}

impl TemplateNotFound for SetTemplateAppsError {
    const NOT_FOUND: Self = SetTemplateAppsError::NotFound;
}

impl ClickwrapService {
    /// A new template: a draft, disabled, with no version yet.
    pub async fn create_template(&self, admin: &Admin, new: NewTemplate) -> Result<Template, CreateTemplateError> {
        let tenant = admin.tenant_id();
        if let Some(app) = self.first_app_not_of_tenant(tenant, &new.app_ids).await? {
            return Err(CreateTemplateError::UnknownApp(app));
        }
        let now = self.now();
        let template = Template {
            id: TemplateId::from_uuid(self.new_uuid()),
            tenant_id: tenant,
            name: new.name,
            tags: new.tags,
            default_language: new.default_language,
            draft: new.content,
            customizations: new.customizations,
            always_require_acceptance: new.always_require_acceptance,
            enabled: false,
            app_ids: new.app_ids,
            versions: Vec::new(),
            created_at: now,
            updated_at: now,
        };
        let audit =
            self.audit_entry(admin, AuditAction::TemplateCreated, template.id).with("name", template.name.as_str());
        self.ports.templates.insert_template(&template, &audit).await?;
        Ok(template)
    }

    pub async fn list_templates(&self, tenant: TenantId) -> Result<Vec<Template>, StorageError> {
        self.ports.templates.list_templates(tenant).await
    }

    pub async fn get_template(&self, tenant: TenantId, id: TemplateId) -> Result<Template, TemplateError> {
        self.ports.templates.find_template(tenant, id).await?.ok_or(TemplateError::NotFound)
    }

    /// The dialog preview of the tenant's template in `language` (`None`: its default language).
    pub async fn dialog_preview(
        &self,
        tenant: TenantId,
        id: TemplateId,
        language: Option<Language>,
    ) -> Result<DialogPreview, TemplateError> {
        let template = self.get_template(tenant, id).await?;
        let language = language.unwrap_or(template.default_language);
        let now = self.now();
        let shown = template.effective_version(now).or_else(|| template.latest_version());
        let content = shown
            .and_then(|v| v.content.get(&language))
            .or_else(|| template.draft.get(&language))
            .map(|html| render(html, &PlaceholderValues::default()))
            .unwrap_or_default();
        Ok(DialogPreview {
            name: template.name.as_str().to_owned(),
            language,
            content,
            version: shown.map_or(VersionNumber::FIRST, |v| v.number),
            effective_at: shown.map_or(now, |v| v.effective_at),
            texts: template.customizations.texts_for(language),
        })
    }

    pub async fn update_template(
        &self,
        admin: &Admin,
        id: TemplateId,
        changes: TemplateChanges,
    ) -> Result<Template, TemplateError> {
        self.change_template(admin, id, AuditAction::TemplateUpdated, TemplateUpdate::Settings(changes)).await
    }

    /// Replaces the draft. Published versions are untouched.
    pub async fn save_draft(
        &self,
        admin: &Admin,
        id: TemplateId,
        content: LocalizedContent,
    ) -> Result<Template, TemplateError> {
        self.change_template(admin, id, AuditAction::TemplateDraftSaved, TemplateUpdate::Draft(content)).await
    }

    /// Unsaved content as the SDK would show it: sanitized on the CPU pool, then filled with
    /// `values` (the console's preview of what an operator is typing). Nothing is stored.
    pub async fn preview_content(
        &self,
        raw: String,
        values: &PlaceholderValues,
    ) -> Result<String, PreviewContentError> {
        self.sanitize_on_pool(raw).await.map(|clean| render(&clean, values))
    }

    /// Sets the draft's content in one language, sanitized on the CPU pool (`None` removes the
    /// language). The other languages are left as stored, not as read earlier: operators editing
    /// different languages at the same time both keep their edit.
    pub async fn save_draft_language(
        &self,
        admin: &Admin,
        id: TemplateId,
        language: Language,
        raw: Option<String>,
    ) -> Result<Template, SaveDraftLanguageError> {
        let content = match raw {
            Some(raw) => Some(self.sanitize_on_pool::<SaveDraftLanguageError>(raw).await?),
            None => None,
        };
        let update = TemplateUpdate::DraftLanguage(language, content);
        self.change_template(admin, id, AuditAction::TemplateDraftSaved, update).await
    }

    pub async fn set_customizations(
        &self,
        admin: &Admin,
        id: TemplateId,
        customizations: Customizations,
    ) -> Result<Template, TemplateError> {
        let update = TemplateUpdate::Customizations(customizations);
        self.change_template(admin, id, AuditAction::TemplateCustomizationsSet, update).await
    }

    /// Links the template to these apps only; an empty set makes it available to every app.
    pub async fn set_template_apps(
        &self,
        admin: &Admin,
        id: TemplateId,
        app_ids: BTreeSet<AppId>,
    ) -> Result<Template, SetTemplateAppsError> {
        if let Some(app) = self.first_app_not_of_tenant(admin.tenant_id(), &app_ids).await? {
            return Err(SetTemplateAppsError::UnknownApp(app));
        }
        self.change_template(admin, id, AuditAction::TemplateAppsSet, TemplateUpdate::Apps(app_ids)).await
    }

    /// Publishes the draft as the next version; its content is locked from then on.
    pub async fn publish_version(
        &self,
        admin: &Admin,
        id: TemplateId,
        kind: VersionKind,
        effective_at: Option<Timestamp>,
    ) -> Result<(Template, TemplateVersion), PublishVersionError> {
        let tenant = admin.tenant_id();
        let mut template =
            self.ports.templates.find_template(tenant, id).await?.ok_or(PublishVersionError::NotFound)?;
        let version = template.next_version(kind, effective_at, self.now())?;
        let audit = self
            .audit_entry(admin, AuditAction::TemplateVersionPublished, id)
            .with("version", version.number.to_string())
            .with("effectiveAt", version.effective_at.to_rfc3339());
        match self.ports.templates.insert_version(tenant, id, &version, &audit).await {
            Ok(()) => {}
            Err(InsertVersionError::Conflict(_)) => return Err(PublishVersionError::Conflict),
            Err(InsertVersionError::Storage(e)) => return Err(e.into()),
        }
        template.versions.push(version.clone());
        Ok((template, version))
    }

    pub async fn enable_template(&self, admin: &Admin, id: TemplateId) -> Result<Template, EnableTemplateError> {
        let tenant = admin.tenant_id();
        let template = self.ports.templates.find_template(tenant, id).await?.ok_or(EnableTemplateError::NotFound)?;
        // Versions are never removed, so one that exists now still exists when the flag is written.
        template.check_can_enable()?;
        self.change_template(admin, id, AuditAction::TemplateEnabled, TemplateUpdate::Enabled(true)).await
    }

    pub async fn disable_template(&self, admin: &Admin, id: TemplateId) -> Result<Template, TemplateError> {
        self.change_template(admin, id, AuditAction::TemplateDisabled, TemplateUpdate::Enabled(false)).await
    }

    /// Writes one change (only that one: see [`TemplateUpdate`]), audited as `action`.
    async fn change_template<E: TemplateNotFound>(
        &self,
        admin: &Admin,
        id: TemplateId,
        action: AuditAction,
        update: TemplateUpdate,
    ) -> Result<Template, E> {
        let audit = self.audit_entry(admin, action, id);
        let stored = self.ports.templates.update_template(admin.tenant_id(), id, &update, self.now(), &audit).await?;
        stored.ok_or(E::NOT_FOUND)
    }

    /// `raw` sanitized on the CPU pool: sanitizing a large text takes long enough to hold up the
    /// requests sharing this thread.
    async fn sanitize_on_pool<E>(&self, raw: String) -> Result<SanitizedHtml, E>
    where
        E: From<ContentRejected> + From<CpuPoolStopped>,
    {
        Ok(run_on_cpu_pool(&*self.ports.cpu, move || sanitize(&raw)).await??)
    }

    /// The first of `app_ids` that is not one of the tenant's apps, if any.
    async fn first_app_not_of_tenant(
        &self,
        tenant: TenantId,
        app_ids: &BTreeSet<AppId>,
    ) -> Result<Option<AppId>, StorageError> {
        for app_id in app_ids {
            if self.ports.apps.find_app(tenant, *app_id).await?.is_none() {
                return Ok(Some(*app_id));
            }
        }
        Ok(None)
    }
}
