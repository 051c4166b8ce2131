use std::collections::BTreeMap;

use crate::tenants::models::Admin;
use crate::{AuditEntryId, OperatorTokenId, TenantId, Timestamp};

string_enum! {
    /// What an operator did. The wire names (`app.created`, …) are stable: operators filter on them.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
    pub enum AuditAction {
        AppCreated => "app.created",
        AppUpdated => "app.updated",
        AppKeyRegenerated => "app.appKeyRegenerated",
        WebhookSigningSecretRotated => "app.webhookSigningSecretRotated",
        TemplateCreated => "template.created",
        TemplateUpdated => "template.updated",
        TemplateDraftSaved => "template.draftSaved",
        TemplateCustomizationsSet => "template.customizationsSet",
        TemplateAppsSet => "template.appsSet",
        TemplateVersionPublished => "template.versionPublished",
        TemplateEnabled => "template.enabled",
        TemplateDisabled => "template.disabled",
        WebhookRedelivered => "webhookDelivery.redelivered",
        OperatorTokenCreated => "operatorToken.created",
        OperatorTokenRevoked => "operatorToken.revoked",
    }
}

/// What kind of thing an action changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AuditSubject {
    App,
    Template,
    WebhookDelivery,
    OperatorToken,
}

impl AuditSubject {
    pub fn as_str(self) -> &'static str {
        match self {
            AuditSubject::App => "app",
            AuditSubject::Template => "template",
            AuditSubject::WebhookDelivery => "webhookDelivery",
            AuditSubject::OperatorToken => "operatorToken",
        }
    }
}

impl AuditAction {
    pub fn subject(self) -> AuditSubject {
        use AuditAction as A;
        match self {
            A::AppCreated | A::AppUpdated | A::AppKeyRegenerated | A::WebhookSigningSecretRotated => AuditSubject::App,
            A::TemplateCreated
            | A::TemplateUpdated
            | A::TemplateDraftSaved
            | A::TemplateCustomizationsSet
            | A::TemplateAppsSet
            | A::TemplateVersionPublished
            | A::TemplateEnabled
            | A::TemplateDisabled => AuditSubject::Template,
            A::WebhookRedelivered => AuditSubject::WebhookDelivery,
            A::OperatorTokenCreated | A::OperatorTokenRevoked => AuditSubject::OperatorToken,
        }
    }
}

/// One row of the audit log. Details name what changed (never a secret's value).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditEntry {
    pub id: AuditEntryId,
    pub tenant_id: TenantId,
    pub at: Timestamp,
    /// `None` when the server binary itself made the change (the demo installation).
    pub operator_token_id: Option<OperatorTokenId>,
    pub action: AuditAction,
    /// The changed resource's id (its UUID).
    pub subject_id: String,
    pub details: BTreeMap<String, String>,
}

impl AuditEntry {
    /// An entry for `admin`'s `action` on `subject_id`, at `at`.
    pub fn new(id: AuditEntryId, admin: &Admin, at: Timestamp, action: AuditAction, subject_id: String) -> Self {
        Self {
            id,
            tenant_id: admin.tenant_id(),
            at,
            operator_token_id: admin.token_id(),
            action,
            subject_id,
            details: BTreeMap::new(),
        }
    }

    /// Adds a detail (what changed, to what).
    pub fn with(mut self, key: &str, value: impl Into<String>) -> Self {
        self.details.insert(key.to_owned(), value.into());
        self
    }
}

/// The keyset position of an entry: newest first by `at`, ties broken by id descending.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct AuditPosition {
    pub at: Timestamp,
    pub id: AuditEntryId,
}

impl AuditPosition {
    pub fn of(entry: &AuditEntry) -> Self {
        Self { at: entry.at, id: entry.id }
    }

    /// Whether an entry at `self` comes after `cursor` in list order.
    pub fn is_after(&self, cursor: &AuditPosition) -> bool {
        (self.at, self.id) < (cursor.at, cursor.id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every action with its wire name, written out here so that a changed name fails.
    const ACTIONS: [(AuditAction, &str); 15] = [
        (AuditAction::AppCreated, "app.created"),
        (AuditAction::AppUpdated, "app.updated"),
        (AuditAction::AppKeyRegenerated, "app.appKeyRegenerated"),
        (AuditAction::WebhookSigningSecretRotated, "app.webhookSigningSecretRotated"),
        (AuditAction::TemplateCreated, "template.created"),
        (AuditAction::TemplateUpdated, "template.updated"),
        (AuditAction::TemplateDraftSaved, "template.draftSaved"),
        (AuditAction::TemplateCustomizationsSet, "template.customizationsSet"),
        (AuditAction::TemplateAppsSet, "template.appsSet"),
        (AuditAction::TemplateVersionPublished, "template.versionPublished"),
        (AuditAction::TemplateEnabled, "template.enabled"),
        (AuditAction::TemplateDisabled, "template.disabled"),
        (AuditAction::WebhookRedelivered, "webhookDelivery.redelivered"),
        (AuditAction::OperatorTokenCreated, "operatorToken.created"),
        (AuditAction::OperatorTokenRevoked, "operatorToken.revoked"),
    ];

    #[test]
    fn every_action_has_a_distinct_name_that_parses_back() {
        assert_eq!(AuditAction::ALL, ACTIONS.map(|(action, _)| action), "every action is listed here");
        let mut names = std::collections::BTreeSet::new();
        for (action, name) in ACTIONS {
            assert_eq!(action.as_str(), name);
            assert_eq!(AuditAction::parse(name), Some(action));
            assert!(names.insert(name), "{name} twice");
            assert!(name.starts_with(action.subject().as_str()), "{name} names its subject first");
        }
        assert_eq!(AuditAction::parse("app.deleted"), None);
    }
}
