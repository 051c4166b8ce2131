//! [`DeliveryStore`] in memory: leases, rounds and attempts kept beside the deliveries that
//! [`crate::ports::EventStore::commit_verification`] writes into the same [`MemoryStore`].

use async_trait::async_trait;

use super::store::{MemoryStore, State};
use crate::audit::models::AuditEntry;
use crate::ports::{DeliveryStore, StorageError};
use crate::webhooks::dispatch::{ClaimedDelivery, FinishedAttempt, LeaseOwner};
use crate::webhooks::models::{Delivery, DeliveryState};
use crate::webhooks::models::{DeliveryPosition, DeliveryRecord};
use crate::{AppId, DeliveryId, TenantId, Timestamp};

fn leased_pending(state: &mut State, owner: LeaseOwner, id: DeliveryId) -> Option<&mut Delivery> {
    if !state.webhooks.holds(owner, id) {
        return None;
    }
    state.deliveries.iter_mut().find(|d| d.id == id && d.state == DeliveryState::Pending)
}

#[async_trait]
impl DeliveryStore for MemoryStore {
    async fn claim_due(
        &self,
        owner: LeaseOwner,
        now: Timestamp,
        lease_until: Timestamp,
        limit: usize,
    ) -> Result<Vec<ClaimedDelivery>, StorageError> {
        let mut state = self.state();
        let State { deliveries, webhooks, .. } = &mut *state;
        let mut due: Vec<&Delivery> = deliveries
            .iter()
            .filter(|d| d.state == DeliveryState::Pending && d.next_attempt_at.is_some_and(|at| at <= now))
            .filter(|d| webhooks.leases.get(&d.id).is_none_or(|(_, until)| *until <= now))
            .collect();
        due.sort_by_key(|d| (d.next_attempt_at, d.created_at, d.id));
        due.truncate(limit);
        let claimed: Vec<ClaimedDelivery> = due
            .into_iter()
            .map(|d| ClaimedDelivery {
                delivery: d.clone(),
                round_attempts: webhooks.round_attempts.get(&d.id).copied().unwrap_or(0),
                lease_until,
            })
            .collect();
        for claim in &claimed {
            webhooks.leases.insert(claim.delivery.id, (owner, lease_until));
        }
        Ok(claimed)
    }

    async fn record_attempts(
        &self,
        owner: LeaseOwner,
        finished: &[FinishedAttempt],
    ) -> Result<Vec<bool>, StorageError> {
        let mut state = self.state();
        // All or nothing, as in one statement: every delivery must exist before anything is written.
        for FinishedAttempt { attempt, .. } in finished {
            let exists =
                state.deliveries.iter().any(|d| d.id == attempt.delivery_id && d.tenant_id == attempt.tenant_id);
            if !exists {
                return Err(StorageError::Internal(format!("delivery {} does not exist", attempt.delivery_id)));
            }
        }
        let mut updated = Vec::with_capacity(finished.len());
        for FinishedAttempt { attempt, outcome } in finished {
            state.webhooks.attempts.push(attempt.clone());
            let Some(delivery) = leased_pending(&mut state, owner, attempt.delivery_id) else {
                updated.push(false);
                continue;
            };
            delivery.state = outcome.state();
            delivery.next_attempt_at = outcome.next_attempt_at();
            delivery.attempts = delivery.attempts.saturating_add(1);
            delivery.last_attempt_at = Some(attempt.started_at);
            delivery.last_response_status = attempt.response_status;
            *state.webhooks.round_attempts.entry(attempt.delivery_id).or_insert(0) += 1;
            state.webhooks.leases.remove(&attempt.delivery_id);
            updated.push(true);
        }
        Ok(updated)
    }

    async fn disable_leased(&self, owner: LeaseOwner, tenant: TenantId, id: DeliveryId) -> Result<bool, StorageError> {
        let mut state = self.state();
        let Some(delivery) = leased_pending(&mut state, owner, id).filter(|d| d.tenant_id == tenant) else {
            return Ok(false);
        };
        delivery.state = DeliveryState::Disabled;
        delivery.next_attempt_at = None;
        state.webhooks.leases.remove(&id);
        Ok(true)
    }

    async fn release_leases(&self, owner: LeaseOwner) -> Result<u64, StorageError> {
        let mut state = self.state();
        let before = state.webhooks.leases.len();
        state.webhooks.leases.retain(|_, (holder, _)| *holder != owner);
        Ok(u64::try_from(before - state.webhooks.leases.len()).unwrap_or(u64::MAX))
    }

    async fn list_deliveries(
        &self,
        tenant: TenantId,
        app: AppId,
        after: Option<&DeliveryPosition>,
        limit: usize,
    ) -> Result<Vec<DeliveryRecord>, StorageError> {
        let state = self.state();
        let mut items: Vec<&Delivery> = state
            .deliveries
            .iter()
            .filter(|d| d.tenant_id == tenant && d.app_id == app)
            .filter(|d| after.is_none_or(|cursor| DeliveryPosition::of(d).is_after(cursor)))
            .collect();
        items.sort_by_key(|d| std::cmp::Reverse((d.created_at, d.id)));
        items.truncate(limit);
        Ok(items.into_iter().map(|d| state.webhooks.record(d)).collect())
    }

    async fn failed_deliveries(&self, tenant: TenantId, limit: usize) -> Result<Vec<DeliveryRecord>, StorageError> {
        let state = self.state();
        let mut items: Vec<&Delivery> =
            state.deliveries.iter().filter(|d| d.tenant_id == tenant && d.state == DeliveryState::Failed).collect();
        items.sort_by_key(|d| std::cmp::Reverse((d.last_attempt_at, d.id)));
        items.truncate(limit);
        Ok(items.into_iter().map(|d| state.webhooks.record(d)).collect())
    }

    async fn find_delivery(&self, tenant: TenantId, id: DeliveryId) -> Result<Option<DeliveryRecord>, StorageError> {
        let state = self.state();
        Ok(state.deliveries.iter().find(|d| d.id == id && d.tenant_id == tenant).map(|d| state.webhooks.record(d)))
    }

    async fn redeliver(
        &self,
        tenant: TenantId,
        id: DeliveryId,
        now: Timestamp,
        audit: &AuditEntry,
    ) -> Result<bool, StorageError> {
        let mut state = self.state();
        let State { deliveries, webhooks, audit_log, .. } = &mut *state;
        let Some(delivery) = deliveries.iter_mut().find(|d| d.id == id && d.tenant_id == tenant) else {
            return Ok(false);
        };
        audit_log.push(audit.clone());
        if delivery.state == DeliveryState::Pending {
            delivery.next_attempt_at = Some(delivery.next_attempt_at.map_or(now, |at| at.min(now)));
        } else {
            delivery.state = DeliveryState::Pending;
            delivery.next_attempt_at = Some(now);
            webhooks.round_attempts.insert(id, 0);
        }
        // An attempt in flight no longer decides the delivery: it is sent again, as asked.
        webhooks.leases.remove(&id);
        Ok(true)
    }
}
