//! Reading the audit log, a page at a time.

use super::models::{AuditAction, AuditEntry, AuditPosition};
use crate::consent::cursor::PageLimit;
use crate::consent::cursor::{self, EventPosition};
use crate::ports::StorageError;
use crate::service::ClickwrapService;
use crate::tenants::models::Admin;
use crate::{AuditEntryId, EventId, TenantId};

/// One page of the audit log, newest first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditPage {
    pub items: Vec<AuditEntry>,
    /// Opaque; `None` when no more entries remain.
    pub next_cursor: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AuditLogError {
    /// HTTP 400 `INVALID_CURSOR`.
    #[error("nextPageCursor is not valid for this list")]
    InvalidCursor,
    #[error(transparent)]
    Storage(#[from] StorageError),
}

/// Binds an audit-log cursor to its tenant; the label keeps it apart from the other lists' cursors.
fn cursor_scope(tenant: TenantId) -> Vec<u8> {
    let mut scope = b"audit-log:".to_vec();
    scope.extend_from_slice(tenant.as_bytes());
    scope
}

impl ClickwrapService {
    /// The tenant's audit log, newest first, a page at a time.
    pub async fn audit_log(
        &self,
        tenant: TenantId,
        cursor_text: Option<&str>,
        limit: PageLimit,
    ) -> Result<AuditPage, AuditLogError> {
        let scope = cursor_scope(tenant);
        // The sealed cursor format carries (timestamp, uuid), which is what an entry's position is.
        let after = cursor_text
            .map(|text| cursor::open(&self.keys, &scope, text).map_err(|_| AuditLogError::InvalidCursor))
            .transpose()?
            .map(|p| AuditPosition { at: p.action_at, id: AuditEntryId::from_uuid(*p.event_id.as_uuid()) });
        let mut items = self.ports.audit.list_audit_entries(tenant, after.as_ref(), limit.get() + 1).await?;
        let more = items.len() > limit.get();
        items.truncate(limit.get());
        let next_cursor = match items.last() {
            Some(last) if more => {
                let position = AuditPosition::of(last);
                let sealed =
                    EventPosition { action_at: position.at, event_id: EventId::from_uuid(*position.id.as_uuid()) };
                Some(cursor::seal(&self.keys, &scope, &sealed))
            }
            _ => None,
        };
        Ok(AuditPage { items, next_cursor })
    }

    /// A new audit entry for `admin`'s `action` on `subject_id`, stamped now.
    pub(crate) fn audit_entry(&self, admin: &Admin, action: AuditAction, subject_id: impl ToString) -> AuditEntry {
        AuditEntry::new(AuditEntryId::from_uuid(self.new_uuid()), admin, self.now(), action, subject_id.to_string())
    }
}
