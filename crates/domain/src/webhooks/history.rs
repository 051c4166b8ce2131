//! The delivery history an operator reads (`GET /operator/v1/apps/{appId}/webhook-deliveries`) and
//! the redelivery an operator asks for (`POST /operator/v1/webhook-deliveries/{id}/redeliver`).

use crate::audit::models::AuditAction;
use crate::consent::cursor::PageLimit;
use crate::consent::cursor::{self, EventPosition};
use crate::ports::StorageError;
use crate::service::ClickwrapService;
use crate::tenants::models::Admin;
use crate::webhooks::models::DeliveryPosition;
use crate::webhooks::models::DeliveryRecord;
use crate::{AppId, DeliveryId, EventId, TenantId};

/// One page of an app's deliveries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeliveryPage {
    pub items: Vec<DeliveryRecord>,
    /// Opaque; `None` when no more results remain.
    pub next_cursor: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ListDeliveriesError {
    /// Unknown app, or another tenant's (HTTP 404).
    #[error("the app could not be found")]
    AppNotFound,
    /// HTTP 400 `INVALID_CURSOR`.
    #[error("nextPageCursor is not valid for this list")]
    InvalidCursor,
    #[error(transparent)]
    Storage(#[from] StorageError),
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RedeliverError {
    /// Unknown delivery, or another tenant's (HTTP 404).
    #[error("the webhook delivery could not be found")]
    NotFound,
    #[error(transparent)]
    Storage(#[from] StorageError),
}

/// Binds a deliveries cursor to its list. The label keeps it apart from an events-list cursor (whose
/// scope starts with the tenant id's bytes), so neither opens as the other.
fn cursor_scope(tenant: TenantId, app: AppId) -> Vec<u8> {
    let mut scope = b"webhook-deliveries:".to_vec();
    scope.extend_from_slice(tenant.as_bytes());
    scope.extend_from_slice(app.as_bytes());
    scope
}

impl ClickwrapService {
    /// The app's webhook deliveries, newest first, each with its attempts, a page at a time.
    pub async fn list_webhook_deliveries(
        &self,
        tenant: TenantId,
        app: AppId,
        cursor_text: Option<&str>,
        limit: PageLimit,
    ) -> Result<DeliveryPage, ListDeliveriesError> {
        self.ports.apps.find_app(tenant, app).await?.ok_or(ListDeliveriesError::AppNotFound)?;
        let scope = cursor_scope(tenant, app);
        // The events cursor's sealed format carries (timestamp, uuid), which is what a delivery's
        // position is; the scope makes it a different cursor.
        let after = cursor_text
            .map(|text| cursor::open(&self.keys, &scope, text).map_err(|_| ListDeliveriesError::InvalidCursor))
            .transpose()?
            .map(|p| DeliveryPosition { created_at: p.action_at, id: DeliveryId::from_uuid(*p.event_id.as_uuid()) });
        let mut items = self.ports.deliveries.list_deliveries(tenant, app, after.as_ref(), limit.get() + 1).await?;
        let more = items.len() > limit.get();
        items.truncate(limit.get());
        let next_cursor = match items.last() {
            Some(last) if more => {
                let position = DeliveryPosition::of(&last.delivery);
                let sealed = EventPosition {
                    action_at: position.created_at,
                    event_id: EventId::from_uuid(*position.id.as_uuid()),
                };
                Some(cursor::seal(&self.keys, &scope, &sealed))
            }
            _ => None,
        };
        Ok(DeliveryPage { items, next_cursor })
    }

    /// One delivery of the tenant with its attempts.
    pub async fn find_webhook_delivery(
        &self,
        tenant: TenantId,
        id: DeliveryId,
    ) -> Result<Option<DeliveryRecord>, StorageError> {
        self.ports.deliveries.find_delivery(tenant, id).await
    }

    /// Queues a delivery to be sent again now, with a fresh round of retries. The dispatcher
    /// sends it if the app's webhook is enabled and has a URL, and marks it DISABLED otherwise.
    pub async fn redeliver_webhook(&self, admin: &Admin, id: DeliveryId) -> Result<(), RedeliverError> {
        let audit = self.audit_entry(admin, AuditAction::WebhookRedelivered, id);
        if self.ports.deliveries.redeliver(admin.tenant_id(), id, self.now(), &audit).await? {
            self.ports.outbox.delivery_due();
            Ok(())
        } else {
            Err(RedeliverError::NotFound)
        }
    }

    /// The tenant's FAILED deliveries, most recently failed first.
    pub async fn failed_webhook_deliveries(
        &self,
        tenant: TenantId,
        limit: usize,
    ) -> Result<Vec<DeliveryRecord>, StorageError> {
        self.ports.deliveries.failed_deliveries(tenant, limit).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Timestamp;

    #[test]
    fn positions_order_newest_first_then_id_descending() {
        let t = |ms| Timestamp::from_unix_millis(ms).unwrap();
        let id = |n| DeliveryId::from_uuid(uuid::Uuid::from_u128(n));
        let cursor = DeliveryPosition { created_at: t(1000), id: id(5) };
        assert!(DeliveryPosition { created_at: t(999), id: id(9) }.is_after(&cursor));
        assert!(DeliveryPosition { created_at: t(1000), id: id(4) }.is_after(&cursor));
        assert!(!DeliveryPosition { created_at: t(1000), id: id(5) }.is_after(&cursor));
        assert!(!DeliveryPosition { created_at: t(1001), id: id(1) }.is_after(&cursor));
    }
}
