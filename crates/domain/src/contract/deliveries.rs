//! The [`DeliveryStore`] contract: leases, attempts, the delivery history and redelivery.
//!
//! Claims are store-wide, so every check works in a time window of its own, years before the other
//! suites' deliveries (which are due around [`fixtures::base_time`]), and first leases away, far into
//! the future, whatever earlier runs of this suite left due in that window ([`drain`]).

use std::collections::BTreeSet;

use time::Duration;

use super::fixtures::{self, Seed, at, uuid};
use super::support::{Stores, Task, join_all};
use crate::apps::models::App;
use crate::ports::DeliveryStore;
use crate::templates::models::Template;
use crate::webhooks::dispatch::{AttemptOutcome, ClaimedDelivery, FinishedAttempt, LeaseOwner};
use crate::webhooks::models::DeliveryPosition;
use crate::webhooks::models::{AttemptError, DeliveryAttempt};
use crate::webhooks::models::{Delivery, DeliveryState};
use crate::{DeliveryId, TenantId, Timestamp};

/// Runs every check of the delivery store. `stores` creates the rows deliveries refer to (and the
/// deliveries themselves, through `commit_verification`); `deliveries` is the store under test,
/// over the same data.
pub async fn delivery_store_contract(stores: &Stores<'_>, deliveries: &dyn DeliveryStore) {
    let seed = fixtures::seed(stores).await;
    let c = Check { stores, deliveries, seed: &seed };
    c.claims_lease_due_deliveries_once().await;
    c.expired_leases_are_taken_over_and_stale_owners_change_nothing().await;
    c.attempts_move_deliveries_through_their_states().await;
    c.attempts_recorded_together_are_each_decided_by_their_own_lease().await;
    c.disabling_needs_the_lease().await;
    c.released_leases_are_claimable_at_once().await;
    c.redelivery_starts_a_new_round().await;
    c.redelivery_of_a_delivery_in_flight_is_not_overwritten_by_its_attempt().await;
    c.lists_newest_first_with_attempts_and_pages().await;
    c.deliveries_are_scoped_to_their_tenant().await;
    c.concurrent_claims_never_share_a_delivery().await;
}

struct Check<'a> {
    stores: &'a Stores<'a>,
    deliveries: &'a dyn DeliveryStore,
    seed: &'a Seed,
}

fn owner() -> LeaseOwner {
    LeaseOwner::from_uuid(uuid())
}

fn secs(base: Timestamp, seconds: i64) -> Timestamp {
    base.saturating_add(Duration::seconds(seconds))
}

/// A random instant between 2001 and 2020 (whole seconds): a window no other suite uses.
fn window() -> Timestamp {
    let span: u128 = 19 * 365 * 86_400;
    let offset = i64::try_from(uuid().as_u128() % span).unwrap();
    secs(at("2001-01-01T00:00:00.000Z"), offset)
}

fn attempt(delivery: &ClaimedDelivery, started_at: Timestamp, status: Option<u16>) -> DeliveryAttempt {
    let delivered = status == Some(200);
    DeliveryAttempt {
        id: uuid(),
        tenant_id: delivery.delivery.tenant_id,
        delivery_id: delivery.delivery.id,
        number: delivery.next_attempt_number(),
        request_body: delivery.delivery.payload.clone(),
        response_status: status,
        response_excerpt: status.map(|s| format!("status {s}: Größe ✓ \u{fffd}")),
        error: match status {
            Some(200) => None,
            Some(_) => Some(AttemptError::UnexpectedStatus),
            None => Some(AttemptError::Timeout),
        },
        started_at,
        duration_ms: if delivered { 12 } else { 10_000 },
    }
}

fn ids(claims: &[ClaimedDelivery]) -> BTreeSet<DeliveryId> {
    claims.iter().map(|c| c.delivery.id).collect()
}

impl Check<'_> {
    /// A verified event of `app` whose PENDING delivery is created and due at `due`.
    async fn due(&self, app: &App, template: &Template, due: Timestamp) -> Delivery {
        let event = fixtures::event(app, template).action_at(due.saturating_sub(Duration::minutes(1))).build();
        let event = fixtures::stored_event(self.stores, event).await;
        let record = fixtures::verification(&event, due, None);
        self.stores.events.commit_verification(&record).await.expect("commit_verification");
        assert_eq!(record.delivery.next_attempt_at, Some(due));
        record.delivery
    }

    async fn due_seeded(&self, due: Timestamp) -> Delivery {
        self.due(&self.seed.app, &self.seed.template, due).await
    }

    /// Leases away until 2099 everything due by `until` that earlier runs left behind.
    async fn drain(&self, until: Timestamp) {
        let far = at("2099-01-01T00:00:00.000Z");
        self.deliveries.claim_due(owner(), until, far, 100_000).await.expect("drain claim_due");
    }

    async fn claim(
        &self,
        owner: LeaseOwner,
        now: Timestamp,
        lease_until: Timestamp,
        limit: usize,
    ) -> Vec<ClaimedDelivery> {
        self.deliveries.claim_due(owner, now, lease_until, limit).await.expect("claim_due")
    }

    async fn find(&self, tenant: TenantId, id: DeliveryId) -> Delivery {
        self.deliveries.find_delivery(tenant, id).await.expect("find_delivery").expect("the delivery exists").delivery
    }

    async fn claims_lease_due_deliveries_once(&self) {
        let w = window();
        self.drain(secs(w, 10)).await;
        let first = self.due_seeded(w).await;
        let second = self.due_seeded(secs(w, 1)).await;
        let third = self.due_seeded(secs(w, 2)).await;

        let a = owner();
        let claimed = self.claim(a, secs(w, 1), secs(w, 60), 10).await;
        assert_eq!(ids(&claimed), BTreeSet::from([first.id, second.id]), "claim_due: due by now, not later ones");
        for claim in &claimed {
            let stored = if claim.delivery.id == first.id { &first } else { &second };
            assert_eq!(&claim.delivery, stored, "claim_due returns the delivery as stored");
            assert_eq!(claim.round_attempts, 0, "claim_due: a new delivery has made no attempt");
            assert_eq!(claim.lease_until, secs(w, 60), "claim_due: the lease's end");
            assert_eq!(claim.next_attempt_number(), 1);
        }

        let b = owner();
        let limited = self.claim(b, secs(w, 2), secs(w, 62), 1).await;
        assert_eq!(ids(&limited), BTreeSet::from([third.id]), "claim_due skips leased deliveries and obeys the limit");
        assert!(
            self.claim(b, secs(w, 30), secs(w, 90), 10).await.is_empty(),
            "leased deliveries are not claimed again"
        );

        // Leases do not change what the history shows.
        assert_eq!(self.find(first.tenant_id, first.id).await, first);
    }

    async fn expired_leases_are_taken_over_and_stale_owners_change_nothing(&self) {
        let w = window();
        self.drain(secs(w, 100)).await;
        let delivery = self.due_seeded(w).await;
        let stale = owner();
        let old = self.claim(stale, w, secs(w, 30), 10).await;
        assert_eq!(ids(&old), BTreeSet::from([delivery.id]));
        assert!(self.claim(owner(), secs(w, 29), secs(w, 60), 10).await.is_empty(), "a lease holds until lease_until");

        let fresh = owner();
        let taken = self.claim(fresh, secs(w, 30), secs(w, 90), 10).await;
        assert_eq!(ids(&taken), BTreeSet::from([delivery.id]), "an expired lease is taken over");

        // The stale owner's attempt is history, but no longer decides the delivery's state.
        let stale_attempt = attempt(&old[0], secs(w, 31), Some(200));
        let updated = self.deliveries.record_attempt(stale, &stale_attempt, AttemptOutcome::Delivered).await.unwrap();
        assert!(!updated, "record_attempt: the lease was lost");
        assert!(!self.deliveries.disable_leased(stale, delivery.tenant_id, delivery.id).await.unwrap());
        let record = self.deliveries.find_delivery(delivery.tenant_id, delivery.id).await.unwrap().unwrap();
        assert_eq!(record.delivery, delivery, "a stale owner changes nothing");
        assert_eq!(record.attempts, vec![stale_attempt], "the stale attempt is still recorded");

        let attempt = attempt(&taken[0], secs(w, 32), Some(200));
        assert!(self.deliveries.record_attempt(fresh, &attempt, AttemptOutcome::Delivered).await.unwrap());
        assert_eq!(self.find(delivery.tenant_id, delivery.id).await.state, DeliveryState::Delivered);
    }

    async fn attempts_move_deliveries_through_their_states(&self) {
        let w = window();
        self.drain(secs(w, 1000)).await;
        let retried = self.due_seeded(w).await;
        let failing = self.due_seeded(w).await;
        let a = owner();
        let claimed = self.claim(a, w, secs(w, 30), 10).await;
        assert_eq!(ids(&claimed), BTreeSet::from([retried.id, failing.id]));
        let claim = |id| claimed.iter().find(|c| c.delivery.id == id).unwrap();

        // A failed attempt with a retry.
        let first = attempt(claim(retried.id), secs(w, 1), Some(500));
        let retry = AttemptOutcome::Retry { at: secs(w, 61) };
        assert!(self.deliveries.record_attempt(a, &first, retry).await.unwrap());
        let after_first = self.find(retried.tenant_id, retried.id).await;
        assert_eq!(
            after_first,
            Delivery {
                state: DeliveryState::Pending,
                attempts: 1,
                next_attempt_at: Some(secs(w, 61)),
                last_attempt_at: Some(secs(w, 1)),
                last_response_status: Some(500),
                ..retried.clone()
            },
            "record_attempt with a retry"
        );
        assert!(
            !self.deliveries.disable_leased(a, retried.tenant_id, retried.id).await.unwrap(),
            "recording clears the lease: the owner must claim again"
        );
        // A timeout that was the last attempt.
        let timeout = attempt(claim(failing.id), secs(w, 2), None);
        assert!(self.deliveries.record_attempt(a, &timeout, AttemptOutcome::Failed).await.unwrap());
        let failed = self.deliveries.find_delivery(failing.tenant_id, failing.id).await.unwrap().unwrap();
        assert_eq!(failed.delivery.state, DeliveryState::Failed);
        assert_eq!(failed.delivery.next_attempt_at, None);
        assert_eq!(failed.delivery.last_response_status, None);
        assert_eq!(failed.delivery.attempts, 1);
        assert_eq!(failed.attempts, vec![timeout]);
        assert!(self.claim(a, secs(w, 60), secs(w, 90), 10).await.is_empty(), "not due before its retry time");

        let again = self.claim(a, secs(w, 61), secs(w, 90), 10).await;
        assert_eq!(ids(&again), BTreeSet::from([retried.id]));
        assert_eq!(again[0].round_attempts, 1, "the round counts the first attempt");
        assert_eq!(again[0].next_attempt_number(), 2);
        let second = attempt(&again[0], secs(w, 62), Some(200));
        assert!(self.deliveries.record_attempt(a, &second, AttemptOutcome::Delivered).await.unwrap());
        let record = self.deliveries.find_delivery(retried.tenant_id, retried.id).await.unwrap().unwrap();
        assert_eq!(
            record.delivery,
            Delivery {
                state: DeliveryState::Delivered,
                attempts: 2,
                next_attempt_at: None,
                last_attempt_at: Some(secs(w, 62)),
                last_response_status: Some(200),
                ..retried.clone()
            },
            "record_attempt of a delivered attempt"
        );
        assert_eq!(record.attempts, vec![second, first.clone()], "attempts newest first, stored as written");

        assert!(self.claim(a, secs(w, 999), secs(w, 1999), 10).await.is_empty(), "finished deliveries are not claimed");
    }

    async fn attempts_recorded_together_are_each_decided_by_their_own_lease(&self) {
        let w = window();
        self.drain(secs(w, 1000)).await;
        let delivered = self.due_seeded(w).await;
        let retried = self.due_seeded(w).await;
        let failed = self.due_seeded(w).await;
        let redelivered = self.due_seeded(w).await;
        let a = owner();
        let claimed = self.claim(a, w, secs(w, 30), 10).await;
        assert_eq!(ids(&claimed), BTreeSet::from([delivered.id, retried.id, failed.id, redelivered.id]));
        let claim = |id| claimed.iter().find(|c| c.delivery.id == id).unwrap();
        assert_eq!(self.deliveries.record_attempts(a, &[]).await.unwrap(), Vec::<bool>::new(), "an empty batch");

        // The redelivery ends the lease while the attempt is in flight.
        let tenant = redelivered.tenant_id;
        assert!(self.deliveries.redeliver(tenant, redelivered.id, secs(w, 1), &fixtures::audit(tenant)).await.unwrap());
        let finished = |attempt: DeliveryAttempt, outcome| FinishedAttempt { attempt, outcome };
        let batch = vec![
            finished(attempt(claim(delivered.id), secs(w, 2), Some(200)), AttemptOutcome::Delivered),
            finished(attempt(claim(retried.id), secs(w, 3), Some(500)), AttemptOutcome::Retry { at: secs(w, 63) }),
            finished(attempt(claim(failed.id), secs(w, 4), None), AttemptOutcome::Failed),
            finished(attempt(claim(redelivered.id), secs(w, 5), Some(200)), AttemptOutcome::Delivered),
            // The same delivery again: the first of the batch already ended its lease.
            finished(attempt(claim(delivered.id), secs(w, 6), Some(503)), AttemptOutcome::Failed),
        ];
        let updated = self.deliveries.record_attempts(a, &batch).await.unwrap();
        assert_eq!(
            updated,
            vec![true, true, true, false, false],
            "record_attempts: each as if recorded alone, in order"
        );

        let record = self.deliveries.find_delivery(tenant, delivered.id).await.unwrap().unwrap();
        assert_eq!(
            record.delivery,
            Delivery {
                state: DeliveryState::Delivered,
                attempts: 1,
                next_attempt_at: None,
                last_attempt_at: Some(secs(w, 2)),
                last_response_status: Some(200),
                ..delivered.clone()
            },
            "record_attempts: the first attempt decides, the second is history"
        );
        assert_eq!(record.attempts, vec![batch[4].attempt.clone(), batch[0].attempt.clone()]);
        assert_eq!(
            self.find(tenant, retried.id).await,
            Delivery {
                state: DeliveryState::Pending,
                attempts: 1,
                next_attempt_at: Some(secs(w, 63)),
                last_attempt_at: Some(secs(w, 3)),
                last_response_status: Some(500),
                ..retried.clone()
            },
            "record_attempts with a retry"
        );
        let failed_record = self.deliveries.find_delivery(tenant, failed.id).await.unwrap().unwrap();
        assert_eq!((failed_record.delivery.state, failed_record.delivery.attempts), (DeliveryState::Failed, 1));
        assert_eq!(failed_record.attempts, vec![batch[2].attempt.clone()]);
        let redelivered_record = self.deliveries.find_delivery(tenant, redelivered.id).await.unwrap().unwrap();
        assert_eq!(redelivered_record.delivery, redelivered, "the redelivery stands over the attempt in flight");
        assert_eq!(redelivered_record.attempts, vec![batch[3].attempt.clone()], "the lost lease's attempt is history");

        // All or nothing: an attempt of a delivery that does not exist fails the whole batch.
        let again = self.claim(a, secs(w, 63), secs(w, 90), 10).await;
        assert_eq!(ids(&again), BTreeSet::from([retried.id, redelivered.id]));
        let retry_claim = again.iter().find(|c| c.delivery.id == retried.id).unwrap();
        let mut missing = attempt(retry_claim, secs(w, 64), Some(200));
        missing.id = uuid();
        missing.delivery_id = DeliveryId::from_uuid(uuid());
        let broken = vec![
            finished(attempt(retry_claim, secs(w, 64), Some(200)), AttemptOutcome::Delivered),
            finished(missing, AttemptOutcome::Delivered),
        ];
        assert!(self.deliveries.record_attempts(a, &broken).await.is_err(), "an attempt of an unknown delivery");
        let untouched = self.deliveries.find_delivery(tenant, retried.id).await.unwrap().unwrap();
        assert_eq!(untouched.delivery.state, DeliveryState::Pending, "nothing of a failed batch is recorded");
        assert_eq!(untouched.attempts.len(), 1, "nothing of a failed batch is recorded");
        assert_eq!(self.deliveries.release_leases(a).await.unwrap(), 2);
    }

    async fn disabling_needs_the_lease(&self) {
        let w = window();
        self.drain(secs(w, 100)).await;
        let delivery = self.due_seeded(w).await;
        let a = owner();
        assert_eq!(ids(&self.claim(a, w, secs(w, 30), 10).await), BTreeSet::from([delivery.id]));
        assert!(!self.deliveries.disable_leased(owner(), delivery.tenant_id, delivery.id).await.unwrap());
        let other_tenant = TenantId::from_uuid(uuid());
        assert!(!self.deliveries.disable_leased(a, other_tenant, delivery.id).await.unwrap());
        assert!(self.deliveries.disable_leased(a, delivery.tenant_id, delivery.id).await.unwrap());
        let stored = self.find(delivery.tenant_id, delivery.id).await;
        assert_eq!(
            stored,
            Delivery { state: DeliveryState::Disabled, next_attempt_at: None, ..delivery.clone() },
            "disable_leased"
        );
        assert!(self.claim(a, secs(w, 99), secs(w, 130), 10).await.is_empty());
    }

    async fn released_leases_are_claimable_at_once(&self) {
        let w = window();
        self.drain(secs(w, 100)).await;
        let delivery = self.due_seeded(w).await;
        let stopping = owner();
        assert_eq!(self.claim(stopping, w, secs(w, 60), 10).await.len(), 1);
        assert_eq!(self.deliveries.release_leases(owner()).await.unwrap(), 0, "another owner releases nothing");
        assert_eq!(self.deliveries.release_leases(stopping).await.unwrap(), 1);
        let taken = self.claim(owner(), secs(w, 1), secs(w, 60), 10).await;
        assert_eq!(ids(&taken), BTreeSet::from([delivery.id]), "a released lease is free before it would expire");
    }

    async fn redelivery_of_a_delivery_in_flight_is_not_overwritten_by_its_attempt(&self) {
        let w = window();
        self.drain(secs(w, 3000)).await;
        let delivery = self.due_seeded(w).await;
        let a = owner();
        let in_flight = self.claim(a, w, secs(w, 60), 10).await;
        assert_eq!(ids(&in_flight), BTreeSet::from([delivery.id]));

        let tenant = delivery.tenant_id;
        assert!(self.deliveries.redeliver(tenant, delivery.id, secs(w, 5), &fixtures::audit(tenant)).await.unwrap());
        let failed = attempt(&in_flight[0], secs(w, 6), Some(500));
        assert!(
            !self.deliveries.record_attempt(a, &failed, AttemptOutcome::Failed).await.unwrap(),
            "the attempt in flight lost its lease to the redelivery"
        );
        let stored = self.find(tenant, delivery.id).await;
        assert_eq!(stored.state, DeliveryState::Pending, "the redelivery stands");
        assert_eq!(stored.next_attempt_at, Some(w), "still due (it was due before the redelivery's moment)");
        let again = self.claim(owner(), secs(w, 7), secs(w, 60), 10).await;
        assert_eq!(ids(&again), BTreeSet::from([delivery.id]), "sent again before its old lease would end");
    }

    async fn redelivery_starts_a_new_round(&self) {
        let w = window();
        self.drain(secs(w, 2000)).await;
        let failed = self.due_seeded(w).await;
        let disabled = self.due_seeded(w).await;
        let a = owner();
        let claimed = self.claim(a, w, secs(w, 30), 10).await;
        let failed_claim = claimed.iter().find(|c| c.delivery.id == failed.id).unwrap();
        let failed_attempt = attempt(failed_claim, secs(w, 1), Some(503));
        assert!(self.deliveries.record_attempt(a, &failed_attempt, AttemptOutcome::Failed).await.unwrap());
        assert!(self.deliveries.disable_leased(a, disabled.tenant_id, disabled.id).await.unwrap());

        let tenant = failed.tenant_id;
        assert!(self.deliveries.redeliver(tenant, failed.id, secs(w, 100), &fixtures::audit(tenant)).await.unwrap());
        assert!(self.deliveries.redeliver(tenant, disabled.id, secs(w, 100), &fixtures::audit(tenant)).await.unwrap());
        let stored = self.find(tenant, failed.id).await;
        assert_eq!(stored.state, DeliveryState::Pending, "redeliver: FAILED becomes PENDING");
        assert_eq!(stored.next_attempt_at, Some(secs(w, 100)), "redeliver: due now");
        assert_eq!(stored.attempts, 1, "redeliver keeps the attempt count");
        assert_eq!(stored.last_response_status, Some(503), "redeliver keeps the last attempt");
        assert_eq!(self.find(tenant, disabled.id).await.state, DeliveryState::Pending, "DISABLED becomes PENDING");

        let round = self.claim(a, secs(w, 100), secs(w, 130), 10).await;
        assert_eq!(ids(&round), BTreeSet::from([failed.id, disabled.id]));
        let again = round.iter().find(|c| c.delivery.id == failed.id).unwrap();
        assert_eq!(again.round_attempts, 0, "redeliver starts a new round");
        assert_eq!(again.next_attempt_number(), 2, "attempt numbers count on");
        let delivered = attempt(again, secs(w, 101), Some(200));
        assert!(self.deliveries.record_attempt(a, &delivered, AttemptOutcome::Delivered).await.unwrap());
        let history = self.deliveries.find_delivery(tenant, failed.id).await.unwrap().unwrap();
        assert_eq!(history.attempts, vec![delivered, failed_attempt], "the history keeps every round");
        let formerly_disabled = round.iter().find(|c| c.delivery.id == disabled.id).unwrap();
        let sent = attempt(formerly_disabled, secs(w, 102), Some(200));
        assert!(self.deliveries.record_attempt(a, &sent, AttemptOutcome::Delivered).await.unwrap());
        assert_eq!(formerly_disabled.next_attempt_number(), 1, "a DISABLED delivery had no attempt");

        // DELIVERED can be sent again too.
        assert!(self.deliveries.redeliver(tenant, failed.id, secs(w, 200), &fixtures::audit(tenant)).await.unwrap());
        let round = self.claim(a, secs(w, 200), secs(w, 230), 10).await;
        assert_eq!(ids(&round), BTreeSet::from([failed.id]));
        assert_eq!(round[0].round_attempts, 0);
        assert_eq!(round[0].delivery.attempts, 2);
        assert_eq!(self.deliveries.release_leases(a).await.unwrap(), 1);

        // A PENDING delivery due later is brought forward; one due earlier keeps its time.
        let later = self.due_seeded(secs(w, 1000)).await;
        assert!(self.deliveries.redeliver(tenant, later.id, secs(w, 300), &fixtures::audit(tenant)).await.unwrap());
        assert_eq!(self.find(tenant, later.id).await.next_attempt_at, Some(secs(w, 300)));
        assert!(self.deliveries.redeliver(tenant, later.id, secs(w, 400), &fixtures::audit(tenant)).await.unwrap());
        assert_eq!(self.find(tenant, later.id).await.next_attempt_at, Some(secs(w, 300)));

        let unknown = DeliveryId::from_uuid(uuid());
        assert!(
            !self.deliveries.redeliver(tenant, unknown, secs(w, 300), &fixtures::audit(tenant)).await.unwrap(),
            "unknown delivery"
        );
        let other_tenant = TenantId::from_uuid(uuid());
        assert!(
            !self
                .deliveries
                .redeliver(other_tenant, later.id, secs(w, 300), &fixtures::audit(other_tenant))
                .await
                .unwrap(),
            "another tenant's"
        );
    }

    async fn lists_newest_first_with_attempts_and_pages(&self) {
        let w = window();
        self.drain(secs(w, 100)).await;
        let app = fixtures::stored_app(self.stores, self.seed.tenant.id).await;
        let other_app = fixtures::stored_app(self.stores, self.seed.tenant.id).await;
        // Two pairs share a creation time: the id breaks the tie.
        let mut written = Vec::new();
        for offset in [0, 5, 5, 9, 9, 12] {
            written.push(self.due(&app, &self.seed.template, secs(w, offset)).await);
        }
        let elsewhere = self.due(&other_app, &self.seed.template, secs(w, 7)).await;

        let a = owner();
        let claimed = self.claim(a, secs(w, 12), secs(w, 60), 100).await;
        let newest = written.iter().max_by_key(|d| (d.created_at, d.id)).unwrap().clone();
        let claim = claimed.iter().find(|c| c.delivery.id == newest.id).unwrap();
        let tried = attempt(claim, secs(w, 20), Some(500));
        let retry = AttemptOutcome::Retry { at: secs(w, 80) };
        assert!(self.deliveries.record_attempt(a, &tried, retry).await.unwrap());
        self.deliveries.release_leases(a).await.unwrap();

        let mut expected = written.clone();
        expected.sort_by_key(|d| std::cmp::Reverse((d.created_at, d.id)));
        let expected_ids: Vec<DeliveryId> = expected.iter().map(|d| d.id).collect();
        let tenant = self.seed.tenant.id;

        let page = self.deliveries.list_deliveries(tenant, app.id, None, 4).await.unwrap();
        let page_ids: Vec<DeliveryId> = page.iter().map(|r| r.delivery.id).collect();
        assert_eq!(page_ids, expected_ids[..4], "list_deliveries: newest first, then id descending");
        assert_eq!(page[0].attempts, vec![tried], "list_deliveries: each with its attempts");
        assert_eq!(page[0].delivery.attempts, 1);
        assert!(page[1..].iter().all(|r| r.attempts.is_empty()));
        assert_eq!(page[1].delivery, expected[1], "list_deliveries: the delivery as stored");

        let cursor = DeliveryPosition::of(&page[3].delivery);
        let rest = self.deliveries.list_deliveries(tenant, app.id, Some(&cursor), 4).await.unwrap();
        let rest_ids: Vec<DeliveryId> = rest.iter().map(|r| r.delivery.id).collect();
        assert_eq!(rest_ids, expected_ids[4..], "list_deliveries: strictly after the cursor");

        let others = self.deliveries.list_deliveries(tenant, other_app.id, None, 10).await.unwrap();
        assert_eq!(others.iter().map(|r| r.delivery.id).collect::<Vec<_>>(), vec![elsewhere.id], "one app only");
    }

    async fn deliveries_are_scoped_to_their_tenant(&self) {
        let w = window();
        self.drain(secs(w, 100)).await;
        let delivery = self.due_seeded(w).await;
        let (stranger, _) = fixtures::stored_tenant(self.stores).await;
        assert!(self.deliveries.find_delivery(stranger.id, delivery.id).await.unwrap().is_none(), "find_delivery");
        assert!(
            self.deliveries.list_deliveries(stranger.id, self.seed.app.id, None, 10).await.unwrap().is_empty(),
            "list_deliveries under another tenant"
        );
        assert!(self.deliveries.find_delivery(delivery.tenant_id, delivery.id).await.unwrap().is_some());
        let missing = DeliveryId::from_uuid(uuid());
        assert!(self.deliveries.find_delivery(delivery.tenant_id, missing).await.unwrap().is_none());
    }

    async fn concurrent_claims_never_share_a_delivery(&self) {
        let w = window();
        self.drain(secs(w, 100)).await;
        let mut written = BTreeSet::new();
        for i in 0..12 {
            written.insert(self.due_seeded(secs(w, i % 3)).await.id);
        }
        let tasks: Vec<Task<'_, Vec<ClaimedDelivery>>> = (0..4)
            .map(|_| {
                let task: Task<'_, Vec<ClaimedDelivery>> =
                    Box::pin(async move { self.claim(owner(), secs(w, 5), secs(w, 60), 5).await });
                task
            })
            .collect();
        let results = join_all(tasks).await;
        let mut seen = BTreeSet::new();
        for claim in results.iter().flatten() {
            assert!(seen.insert(claim.delivery.id), "claim_due handed out {} twice", claim.delivery.id);
        }
        assert_eq!(seen, written, "concurrent claims together take every due delivery");
    }
}
