//! The [`EventStore`](crate::ports::EventStore) contract.

use std::collections::BTreeSet;

use time::Duration;
use uuid::Uuid;

use super::fixtures::{self, Seed, base_plus_secs, base_time};
use super::support::{Stores, Task, join_all};
use crate::consent::acceptance::{ConsentSnapshot, EventSummary};
use crate::consent::cursor::EventPosition;
use crate::consent::models::VerificationRecord;
use crate::consent::models::{Action, ClickwrapEvent, EventFilter, EventStatus};
use crate::limits::quota::QuotaPeriod;
use crate::ports::CommitVerificationError;
use crate::templates::versioning::VersionNumber;
use crate::{EndUserId, EventId, TemplateId, TenantId, Timestamp};

/// Runs every check of the event store.
pub async fn event_store_contract(stores: &Stores<'_>) {
    insert_and_find_round_trip(stores).await;
    an_event_to_verify_comes_with_its_tenants_current_terms(stores).await;
    commit_verification_of_an_accepted_event(stores).await;
    commit_verification_of_a_declined_event(stores).await;
    commit_verification_of_a_missing_event(stores).await;
    commit_verification_enforces_the_quota(stores).await;
    concurrent_commits_verify_once(stores).await;
    concurrent_commits_respect_the_quota(stores).await;
    list_verified_events_filters_and_orders(stores).await;
    list_verified_events_pages_through_shared_timestamps(stores).await;
    consent_snapshot_summarises_one_major(stores).await;
    last_accepted_event_is_the_latest_verified_acceptance(stores).await;
    event_details_in_batches_match_the_single_lookups(stores).await;
    daily_counts_group_verified_events_by_the_day_of_the_action(stores).await;
}

async fn event_details_in_batches_match_the_single_lookups(stores: &Stores<'_>) {
    let seed = fixtures::seed(stores).await;
    let mut made = Vec::new();
    for (n, action) in [Action::Accepted, Action::Declined, Action::Accepted].into_iter().enumerate() {
        let at = base_plus_secs(i64::try_from(n).unwrap() * 10);
        let event = seed.event().action(action).action_at(at).build();
        made.push(fixtures::verified_event(stores, event, at.saturating_add(Duration::seconds(1))).await);
    }
    fixtures::stored_event(stores, seed.event().build()).await;
    let filter = EventFilter::default();
    let batch = stores.events.list_verified_event_details(seed.tenant.id, &filter, None, 10).await.unwrap();
    let listed = stores.events.list_verified_events(seed.tenant.id, &filter, None, 10).await.unwrap();
    assert_eq!(
        batch.iter().map(|d| d.event.clone()).collect::<Vec<_>>(),
        listed,
        "events: the details batch holds exactly the verified events of the list, in its order"
    );
    for details in &batch {
        let id = details.event.id;
        let certificate = stores.events.find_certificate(seed.tenant.id, id).await.unwrap().map(|c| c.sha256);
        let delivery = stores.events.find_delivery_for_event(seed.tenant.id, id).await.unwrap();
        assert_eq!(details.certificate_sha256, certificate, "events: a batch's certificate digest is the stored one");
        assert_eq!(details.delivery, delivery, "events: a batch's delivery is the event's latest");
        assert_eq!(certificate.is_some(), details.event.action == Action::Accepted);
    }
    let after = position(&listed[0]);
    let rest = stores.events.list_verified_event_details(seed.tenant.id, &filter, Some(&after), 10).await.unwrap();
    assert_eq!(rest.len(), made.len() - 1, "events: a batch continues strictly after its position");
}

async fn daily_counts_group_verified_events_by_the_day_of_the_action(stores: &Stores<'_>) {
    let seed = fixtures::seed(stores).await;
    let day = |n: i64| fixtures::at("2026-11-20T00:00:00.000Z").saturating_add(Duration::days(n));
    let acted = [
        (day(0).saturating_add(Duration::hours(1)), Action::Accepted),
        (day(0).saturating_add(Duration::hours(23)), Action::Declined),
        (day(0).saturating_add(Duration::hours(5)), Action::Accepted),
        (day(2), Action::Accepted),
        (day(3).saturating_sub(Duration::milliseconds(1)), Action::Declined),
        (day(5), Action::Accepted),
    ];
    for (at, action) in acted {
        let event = seed.event().action(action).action_at(at).build();
        fixtures::verified_event(stores, event, at.saturating_add(Duration::minutes(1))).await;
    }
    // Unverified events do not count.
    fixtures::stored_event(stores, seed.event().action_at(day(1)).build()).await;
    let counts = stores.events.daily_counts(seed.tenant.id, day(0), day(5)).await.unwrap();
    let got: Vec<(Timestamp, u64, u64)> = counts.iter().map(|c| (c.day, c.accepted, c.declined)).collect();
    assert_eq!(
        got,
        vec![(day(0), 2, 1), (day(2), 1, 1)],
        "events: verified events per UTC day of actionAt, in [from, to), days without events left out"
    );
    let (other, _) = fixtures::stored_tenant(stores).await;
    assert!(stores.events.daily_counts(other.id, day(0), day(9)).await.unwrap().is_empty());
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

/// What `list_verified_events` must return, computed from every event of one tenant.
fn expected_list(
    events: &[ClickwrapEvent],
    filter: &EventFilter,
    after: Option<&EventPosition>,
    limit: usize,
) -> Vec<EventId> {
    let mut matching: Vec<&ClickwrapEvent> = events
        .iter()
        .filter(|e| e.status.is_verified())
        .filter(|e| filter.template_id.is_none_or(|id| e.template_id == id))
        .filter(|e| filter.end_user_id.as_ref().is_none_or(|u| e.end_user_id == *u))
        .filter(|e| filter.status.is_none_or(|s| e.status == EventStatus::from(s)))
        .filter(|e| filter.from.is_none_or(|from| e.action_at >= from))
        .filter(|e| filter.to.is_none_or(|to| e.action_at <= to))
        .filter(|e| after.is_none_or(|cursor| position(e).is_after(cursor)))
        .collect();
    matching.sort_by_key(|e| std::cmp::Reverse((e.action_at, e.id)));
    matching.into_iter().take(limit).map(|e| e.id).collect()
}

async fn list(
    stores: &Stores<'_>,
    tenant: TenantId,
    filter: &EventFilter,
    after: Option<&EventPosition>,
    limit: usize,
) -> Vec<ClickwrapEvent> {
    stores.events.list_verified_events(tenant, filter, after, limit).await.unwrap()
}

async fn find(stores: &Stores<'_>, tenant: TenantId, id: EventId) -> Option<ClickwrapEvent> {
    stores.events.find_event(tenant, id).await.unwrap()
}

async fn used(stores: &Stores<'_>, tenant: TenantId, period: &QuotaPeriod) -> u64 {
    stores.tenants.events_in_period(tenant, period).await.unwrap()
}

/// Panics unless the store holds `event` exactly as given, with no certificate and no delivery:
/// what is left after a refused verification.
async fn assert_untouched(stores: &Stores<'_>, event: &ClickwrapEvent, context: &str) {
    assert_eq!(
        find(stores, event.tenant_id, event.id).await.as_ref(),
        Some(event),
        "events: {context}: the event is unchanged"
    );
    assert_eq!(
        stores.events.find_certificate(event.tenant_id, event.id).await.unwrap(),
        None,
        "events: {context}: no certificate was written"
    );
    assert_eq!(
        stores.events.find_delivery_for_event(event.tenant_id, event.id).await.unwrap(),
        None,
        "events: {context}: no delivery was written"
    );
}

/// Panics unless the store holds exactly what committing `record` wrote.
async fn assert_committed(stores: &Stores<'_>, record: &VerificationRecord, context: &str) {
    let event = &record.event;
    assert_eq!(
        find(stores, event.tenant_id, event.id).await.as_ref(),
        Some(event),
        "events: {context}: the event has the verified status and verified_at"
    );
    assert_eq!(
        stores.events.find_certificate(event.tenant_id, event.id).await.unwrap(),
        record.certificate,
        "events: {context}: the certificate is the one committed"
    );
    assert_eq!(
        stores.events.find_delivery_for_event(event.tenant_id, event.id).await.unwrap().as_ref(),
        Some(&record.delivery),
        "events: {context}: the delivery is the one committed"
    );
}

async fn insert_and_find_round_trip(stores: &Stores<'_>) {
    let seed = fixtures::seed(stores).await;
    let other = fixtures::seed(stores).await;

    let plain = fixtures::stored_event(stores, seed.event().build()).await;
    assert_eq!(
        find(stores, seed.tenant.id, plain.id).await.as_ref(),
        Some(&plain),
        "events: find_event returns every field of a dialog/scroll event without placeholders"
    );
    assert_eq!(plain.status, EventStatus::Unverified);

    let rich = seed
        .event()
        .inline_checkbox()
        .action(Action::Declined)
        .version(seed.version(1, 1))
        .action_at(base_plus_secs(-3_600))
        .build();
    let rich = fixtures::stored_event(stores, rich).await;
    assert_eq!(
        find(stores, seed.tenant.id, rich.id).await.as_ref(),
        Some(&rich),
        "events: find_event returns every field of an inline/checkbox event with placeholders, \
         non-ASCII content and a minor version"
    );

    assert_eq!(
        find(stores, other.tenant.id, plain.id).await,
        None,
        "events: find_event with another tenant's id is None"
    );
    assert_eq!(
        find(stores, seed.tenant.id, EventId::from_uuid(fixtures::uuid())).await,
        None,
        "events: find_event of an unknown id is None"
    );
    assert!(
        list(stores, seed.tenant.id, &EventFilter::default(), None, 100).await.is_empty(),
        "events: unverified events are never listed"
    );
}

async fn an_event_to_verify_comes_with_its_tenants_current_terms(stores: &Stores<'_>) {
    let seed = fixtures::seed(stores).await;
    let other = fixtures::seed(stores).await;
    let event = fixtures::stored_event(stores, seed.event().inline_checkbox().build()).await;
    let found = stores.events.find_event_to_verify(seed.tenant.id, event.id).await.unwrap().unwrap();
    assert_eq!(found.event, event, "events: the event to verify has every field find_event has");
    assert_eq!((found.event_quota, found.legal_name), (None, None), "events: a tenant without quota or legal name");

    let legal_name = fixtures::name("Seed Holdings GmbH");
    assert!(stores.tenants.set_event_quota(seed.tenant.id, Some(7)).await.unwrap());
    assert!(stores.tenants.set_legal_name(seed.tenant.id, Some(&legal_name)).await.unwrap());
    assert!(stores.tenants.set_event_quota(other.tenant.id, Some(1_000)).await.unwrap());
    let found = stores.events.find_event_to_verify(seed.tenant.id, event.id).await.unwrap().unwrap();
    assert_eq!(
        (found.event_quota, found.legal_name),
        (Some(7), Some(legal_name)),
        "events: the event to verify comes with its own tenant's quota and legal name as they are now"
    );

    assert_eq!(
        stores.events.find_event_to_verify(other.tenant.id, event.id).await.unwrap(),
        None,
        "events: another tenant's event is not found to verify"
    );
    assert_eq!(
        stores.events.find_event_to_verify(seed.tenant.id, EventId::from_uuid(fixtures::uuid())).await.unwrap(),
        None,
        "events: an unknown event is not found to verify"
    );
}

async fn commit_verification_of_an_accepted_event(stores: &Stores<'_>) {
    let seed = fixtures::seed(stores).await;
    let other = fixtures::seed(stores).await;
    let event = fixtures::stored_event(stores, seed.event().inline_checkbox().build()).await;
    let record = fixtures::verification(&event, base_plus_secs(5), None);
    assert!(record.certificate.is_some());

    stores.events.commit_verification(&record).await.unwrap();
    assert_committed(stores, &record, "a committed ACCEPTED verification").await;
    assert_eq!(
        used(stores, seed.tenant.id, &record.period).await,
        1,
        "events: a committed verification counts once in its period"
    );

    // Again, later, with another certificate and delivery: refused, and nothing changes.
    let again = fixtures::verification(&event, base_plus_secs(60), None);
    assert_eq!(
        stores.events.commit_verification(&again).await,
        Err(CommitVerificationError::AlreadyVerified(EventStatus::Accepted)),
        "events: a second commit_verification is AlreadyVerified with the stored status"
    );
    let mut declined = event.clone();
    declined.action = Action::Declined;
    let as_declined = fixtures::verification(&declined, base_plus_secs(61), None);
    assert_eq!(
        stores.events.commit_verification(&as_declined).await,
        Err(CommitVerificationError::AlreadyVerified(EventStatus::Accepted)),
        "events: AlreadyVerified names the stored status, not the one presented"
    );
    assert_committed(stores, &record, "after refused second commits").await;
    assert_eq!(used(stores, seed.tenant.id, &record.period).await, 1, "events: refused second commits count nothing");

    assert_eq!(
        stores.events.find_certificate(other.tenant.id, event.id).await.unwrap(),
        None,
        "events: find_certificate with another tenant's id is None"
    );
    assert_eq!(
        stores.events.find_delivery_for_event(other.tenant.id, event.id).await.unwrap(),
        None,
        "events: find_delivery_for_event with another tenant's id is None"
    );
    let unknown = EventId::from_uuid(fixtures::uuid());
    assert_eq!(
        stores.events.find_certificate(seed.tenant.id, unknown).await.unwrap(),
        None,
        "events: find_certificate of an unknown event is None"
    );
    assert_eq!(
        stores.events.find_delivery_for_event(seed.tenant.id, unknown).await.unwrap(),
        None,
        "events: find_delivery_for_event of an unknown event is None"
    );
    assert_eq!(used(stores, other.tenant.id, &record.period).await, 0, "events: the other tenant counted nothing");
}

async fn commit_verification_of_a_declined_event(stores: &Stores<'_>) {
    let seed = fixtures::seed(stores).await;
    let event = seed.event().action(Action::Declined).build();
    let event = fixtures::stored_event(stores, event).await;
    let verified_at = base_plus_secs(7);
    let mut record = fixtures::verification(&event, verified_at, None);
    assert_eq!(record.certificate, None);
    // The app's webhook was off: the outbox row is DISABLED, with no next attempt.
    record.delivery = fixtures::delivery(&record.event, false, verified_at);

    stores.events.commit_verification(&record).await.unwrap();
    assert_committed(stores, &record, "a committed DECLINED verification").await;
    assert_eq!(
        find(stores, seed.tenant.id, event.id).await.map(|e| (e.status, e.verified_at)),
        Some((EventStatus::Declined, Some(verified_at))),
        "events: a DECLINED verification stores status DECLINED and verified_at"
    );

    let again = fixtures::verification(&event, base_plus_secs(8), None);
    assert_eq!(
        stores.events.commit_verification(&again).await,
        Err(CommitVerificationError::AlreadyVerified(EventStatus::Declined)),
        "events: a second commit of a declined event is AlreadyVerified(Declined)"
    );
    assert_committed(stores, &record, "after a refused second commit of a declined event").await;
    assert_eq!(used(stores, seed.tenant.id, &record.period).await, 1);
}

async fn commit_verification_of_a_missing_event(stores: &Stores<'_>) {
    let seed = fixtures::seed(stores).await;
    let other = fixtures::seed(stores).await;
    let period = QuotaPeriod::containing(base_time());

    let never_inserted = seed.event().build();
    let record = fixtures::verification(&never_inserted, base_plus_secs(1), None);
    assert_eq!(
        stores.events.commit_verification(&record).await,
        Err(CommitVerificationError::EventMissing),
        "events: commit_verification of an event never inserted is EventMissing"
    );
    assert_eq!(
        find(stores, seed.tenant.id, never_inserted.id).await,
        None,
        "events: a commit for a missing event does not create it"
    );
    assert_eq!(
        stores.events.find_delivery_for_event(seed.tenant.id, never_inserted.id).await.unwrap(),
        None,
        "events: a commit for a missing event writes no delivery"
    );

    // The event exists, but under another tenant than the record names.
    let event = fixtures::stored_event(stores, seed.event().build()).await;
    let mut record = fixtures::verification(&event, base_plus_secs(2), None);
    record.event.tenant_id = other.tenant.id;
    record.delivery.tenant_id = other.tenant.id;
    assert_eq!(
        stores.events.commit_verification(&record).await,
        Err(CommitVerificationError::EventMissing),
        "events: commit_verification naming another tenant than the event's is EventMissing"
    );
    assert_untouched(stores, &event, "a commit under another tenant").await;
    assert_eq!(
        stores.events.find_delivery_for_event(other.tenant.id, event.id).await.unwrap(),
        None,
        "events: a commit under another tenant writes no delivery for that tenant"
    );
    assert_eq!(used(stores, seed.tenant.id, &period).await, 0);
    assert_eq!(used(stores, other.tenant.id, &period).await, 0);
}

async fn commit_verification_enforces_the_quota(stores: &Stores<'_>) {
    let seed = fixtures::seed(stores).await;
    let other = fixtures::seed(stores).await;
    let quota = Some(2);
    // The record carries the quota; the tenant row says the same, so that an adapter may read
    // either.
    assert!(stores.tenants.set_event_quota(seed.tenant.id, quota).await.unwrap());
    let period = QuotaPeriod::containing(base_time());
    let last_month = period.start.saturating_sub(Duration::days(3));

    // Two in the previous period do not count against this one.
    for _ in 0..2 {
        let event = seed.event().action_at(last_month).build();
        let event = fixtures::stored_event(stores, event).await;
        let record = fixtures::verification(&event, last_month, quota);
        stores.events.commit_verification(&record).await.unwrap();
    }
    let mut committed = Vec::new();
    for offset in 1..=2 {
        let event = fixtures::stored_event(stores, seed.event().build()).await;
        let record = fixtures::verification(&event, base_plus_secs(offset), quota);
        stores
            .events
            .commit_verification(&record)
            .await
            .unwrap_or_else(|e| panic!("events: verification {offset} of 2 within a quota of 2 failed: {e}"));
        committed.push(record);
    }
    assert_eq!(used(stores, seed.tenant.id, &period).await, 2);

    let third = fixtures::stored_event(stores, seed.event().build()).await;
    let record = fixtures::verification(&third, base_plus_secs(3), quota);
    assert_eq!(
        stores.events.commit_verification(&record).await,
        Err(CommitVerificationError::QuotaExceeded),
        "events: with quota 2 and 2 verified in the period, commit_verification is QuotaExceeded"
    );
    assert_untouched(stores, &third, "a verification refused for the quota").await;
    let declined = seed.event().action(Action::Declined).build();
    let declined = fixtures::stored_event(stores, declined).await;
    let declined_record = fixtures::verification(&declined, base_plus_secs(4), quota);
    assert_eq!(
        stores.events.commit_verification(&declined_record).await,
        Err(CommitVerificationError::QuotaExceeded),
        "events: the quota holds for DECLINED verifications too"
    );
    assert_untouched(stores, &declined, "a declined verification refused for the quota").await;
    assert_eq!(used(stores, seed.tenant.id, &period).await, 2, "events: refused verifications count nothing");
    for record in &committed {
        assert_committed(stores, record, "earlier verifications after a quota refusal").await;
    }

    // Another tenant's usage is its own.
    assert!(stores.tenants.set_event_quota(other.tenant.id, Some(1)).await.unwrap());
    let theirs = fixtures::stored_event(stores, other.event().build()).await;
    let theirs = fixtures::verification(&theirs, base_plus_secs(5), Some(1));
    stores
        .events
        .commit_verification(&theirs)
        .await
        .expect("events: another tenant's usage does not count against this one's quota");

    // The next period starts afresh.
    let next_month = period.end.saturating_add(Duration::hours(1));
    let later = seed.event().action_at(next_month).build();
    let later = fixtures::stored_event(stores, later).await;
    let later = fixtures::verification(&later, next_month, quota);
    stores.events.commit_verification(&later).await.expect("events: a new period starts with nothing used");

    // Without a quota, the refused event verifies.
    assert!(stores.tenants.set_event_quota(seed.tenant.id, None).await.unwrap());
    let record = fixtures::verification(&third, base_plus_secs(6), None);
    stores.events.commit_verification(&record).await.expect("events: without a quota, verification is not limited");
    assert_committed(stores, &record, "a verification after the quota was lifted").await;
    assert_eq!(used(stores, seed.tenant.id, &period).await, 3);

    // A quota of 0 refuses the first verification.
    let (zero, _) = fixtures::stored_tenant(stores).await;
    assert!(stores.tenants.set_event_quota(zero.id, Some(0)).await.unwrap());
    let app = fixtures::stored_app(stores, zero.id).await;
    let template = fixtures::stored_template(stores, zero.id, &[(1, 0)]).await;
    let event = fixtures::stored_event(stores, fixtures::event(&app, &template).build()).await;
    let record = fixtures::verification(&event, base_plus_secs(1), Some(0));
    assert_eq!(
        stores.events.commit_verification(&record).await,
        Err(CommitVerificationError::QuotaExceeded),
        "events: a quota of 0 refuses every verification"
    );
    assert_untouched(stores, &event, "a verification refused by a quota of 0").await;
}

async fn concurrent_commits_verify_once(stores: &Stores<'_>) {
    let seed = fixtures::seed(stores).await;
    let event = fixtures::stored_event(stores, seed.event().build()).await;
    let records: Vec<VerificationRecord> =
        (1..=4).map(|i| fixtures::verification(&event, base_plus_secs(i), None)).collect();
    let tasks: Vec<Task<'_, _>> = records.iter().map(|record| stores.events.commit_verification(record)).collect();
    let outcomes = join_all(tasks).await;

    let winners: Vec<usize> = (0..outcomes.len()).filter(|i| outcomes[*i].is_ok()).collect();
    assert_eq!(winners.len(), 1, "events: of concurrent commits of one event exactly one succeeds: {outcomes:?}");
    for outcome in outcomes.iter().filter(|o| o.is_err()) {
        assert_eq!(
            outcome,
            &Err(CommitVerificationError::AlreadyVerified(EventStatus::Accepted)),
            "events: the losing concurrent commits are AlreadyVerified"
        );
    }
    let winner = &records[winners[0]];
    assert_committed(stores, winner, "the winner of concurrent commits").await;
    assert_eq!(
        used(stores, seed.tenant.id, &winner.period).await,
        1,
        "events: concurrent commits of one event count once"
    );
}

async fn concurrent_commits_respect_the_quota(stores: &Stores<'_>) {
    let seed = fixtures::seed(stores).await;
    let quota = Some(2);
    assert!(stores.tenants.set_event_quota(seed.tenant.id, quota).await.unwrap());
    let mut events = Vec::new();
    for _ in 0..5 {
        events.push(fixtures::stored_event(stores, seed.event().build()).await);
    }
    let records: Vec<VerificationRecord> =
        (0i64..).zip(&events).map(|(i, event)| fixtures::verification(event, base_plus_secs(i + 1), quota)).collect();
    let tasks: Vec<Task<'_, _>> = records.iter().map(|record| stores.events.commit_verification(record)).collect();
    let outcomes = join_all(tasks).await;

    let succeeded = outcomes.iter().filter(|o| o.is_ok()).count();
    assert_eq!(
        succeeded, 2,
        "events: of 5 concurrent verifications under a quota of 2 exactly 2 succeed: {outcomes:?}"
    );
    for ((outcome, record), event) in outcomes.iter().zip(&records).zip(&events) {
        match outcome {
            Ok(()) => assert_committed(stores, record, "a concurrent commit within the quota").await,
            Err(CommitVerificationError::QuotaExceeded) => {
                assert_untouched(stores, event, "a concurrent commit over the quota").await;
            }
            Err(other) => panic!("events: a concurrent commit failed with {other:?}"),
        }
    }
    assert_eq!(
        used(stores, seed.tenant.id, &QuotaPeriod::containing(base_time())).await,
        2,
        "events: concurrent commits never count past the quota"
    );
}

/// The events of the list checks: two templates, two end users, both actions, shared timestamps,
/// unverified ones in between, and another tenant's events at the same moments.
struct ListWorld {
    seed: Seed,
    second_template: TemplateId,
    users: [EndUserId; 2],
    events: Vec<ClickwrapEvent>,
    other: Seed,
}

async fn list_world(stores: &Stores<'_>) -> ListWorld {
    let seed = fixtures::seed(stores).await;
    let second = fixtures::stored_template(stores, seed.tenant.id, &[(1, 0)]).await;
    let other = fixtures::seed(stores).await;
    let users = [fixtures::end_user(), fixtures::end_user()];
    use Action::{Accepted as A, Declined as D};
    // (second template?, user, action, action_at seconds from base, verified?)
    let plan: [(bool, usize, Action, i64, bool); 12] = [
        (false, 0, A, -600, true),
        (false, 0, D, -500, true),
        (false, 1, A, -500, true),
        (true, 0, A, -400, true),
        (true, 1, D, -300, true),
        (false, 1, A, -200, false),
        (true, 0, D, -100, true),
        (false, 0, A, -100, true),
        (false, 1, D, -100, true),
        (false, 0, A, 0, false),
        (true, 1, A, -50, true),
        (false, 1, A, -700, true),
    ];
    let mut events = Vec::new();
    for (on_second, user, action, offset, verified) in plan {
        let builder = if on_second { fixtures::event(&seed.app, &second) } else { seed.event() };
        let event = builder.end_user(&users[user]).action(action).action_at(base_plus_secs(offset)).build();
        let event = if verified {
            fixtures::verified_event(stores, event, base_plus_secs(offset + 1)).await
        } else {
            fixtures::stored_event(stores, event).await
        };
        events.push(event);
    }
    // The other tenant, at the same moments and with the same end user ids.
    for offset in [-500, -100, 0] {
        let event = other.event().end_user(&users[0]).action_at(base_plus_secs(offset)).build();
        fixtures::verified_event(stores, event, base_plus_secs(offset + 1)).await;
    }
    ListWorld { seed, second_template: second.id, users, events, other }
}

async fn list_verified_events_filters_and_orders(stores: &Stores<'_>) {
    let world = list_world(stores).await;
    let tenant = world.seed.tenant.id;
    let first_template = world.seed.template.id;
    let [u0, u1] = world.users.clone();
    let t = base_plus_secs;
    let none = EventFilter::default();
    let filters: Vec<(&str, EventFilter)> = vec![
        ("no filter", none.clone()),
        ("first template", EventFilter { template_id: Some(first_template), ..none.clone() }),
        ("second template", EventFilter { template_id: Some(world.second_template), ..none.clone() }),
        (
            "unknown template",
            EventFilter { template_id: Some(TemplateId::from_uuid(fixtures::uuid())), ..none.clone() },
        ),
        ("other tenant's template", EventFilter { template_id: Some(world.other.template.id), ..none.clone() }),
        ("first end user", EventFilter { end_user_id: Some(u0.clone()), ..none.clone() }),
        ("second end user", EventFilter { end_user_id: Some(u1.clone()), ..none.clone() }),
        ("unknown end user", EventFilter { end_user_id: Some(fixtures::end_user()), ..none.clone() }),
        ("ACCEPTED", EventFilter { status: Some(Action::Accepted), ..none.clone() }),
        ("DECLINED", EventFilter { status: Some(Action::Declined), ..none.clone() }),
        ("from (inclusive)", EventFilter { from: Some(t(-500)), ..none.clone() }),
        ("to (inclusive)", EventFilter { to: Some(t(-400)), ..none.clone() }),
        ("from and to", EventFilter { from: Some(t(-500)), to: Some(t(-100)), ..none.clone() }),
        ("from = to", EventFilter { from: Some(t(-100)), to: Some(t(-100)), ..none.clone() }),
        ("from after to", EventFilter { from: Some(t(-100)), to: Some(t(-500)), ..none.clone() }),
        (
            "to a millisecond before an event",
            EventFilter { to: Some(t(-100).saturating_sub(Duration::milliseconds(1))), ..none.clone() },
        ),
        (
            "template, end user and status",
            EventFilter {
                template_id: Some(first_template),
                end_user_id: Some(u0.clone()),
                status: Some(Action::Accepted),
                ..none.clone()
            },
        ),
        (
            "template, status and from",
            EventFilter {
                template_id: Some(world.second_template),
                status: Some(Action::Declined),
                from: Some(t(-400)),
                ..none.clone()
            },
        ),
        (
            "end user, status and to",
            EventFilter {
                end_user_id: Some(u1.clone()),
                status: Some(Action::Accepted),
                to: Some(t(-300)),
                ..none.clone()
            },
        ),
        (
            "every filter",
            EventFilter {
                template_id: Some(first_template),
                end_user_id: Some(u1.clone()),
                status: Some(Action::Declined),
                from: Some(t(-100)),
                to: Some(t(0)),
            },
        ),
    ];

    for (name, filter) in &filters {
        let expected = expected_list(&world.events, filter, None, usize::MAX);
        let listed = list(stores, tenant, filter, None, 100).await;
        let ids: Vec<EventId> = listed.iter().map(|e| e.id).collect();
        assert_eq!(
            ids, expected,
            "events: list_verified_events with filter {name}: only verified events matching it, \
             newest first by (action_at, id) descending"
        );
        for event in &listed {
            let stored = world.events.iter().find(|e| e.id == event.id).unwrap();
            assert_eq!(event, stored, "events: list_verified_events returns every field of each event");
        }
        let limited = list(stores, tenant, filter, None, 2).await;
        assert_eq!(
            limited.iter().map(|e| e.id).collect::<Vec<_>>(),
            expected.iter().copied().take(2).collect::<Vec<_>>(),
            "events: list_verified_events with filter {name} and limit 2 returns the first 2"
        );
        // `after` is strict: after the k-th item come exactly the items following it.
        for (k, id) in expected.iter().enumerate() {
            let cursor = position(world.events.iter().find(|e| e.id == *id).unwrap());
            let rest = list(stores, tenant, filter, Some(&cursor), 100).await;
            assert_eq!(
                rest.iter().map(|e| e.id).collect::<Vec<_>>(),
                expected[k + 1..].to_vec(),
                "events: list_verified_events with filter {name} after item {k} returns the \
                 items strictly after it"
            );
        }
    }

    // Positions that are no event: ties at one action_at are ordered by event id descending.
    let at = t(-100);
    let max_id = EventPosition { action_at: at, event_id: EventId::from_uuid(Uuid::max()) };
    let nil_id = EventPosition { action_at: at, event_id: EventId::from_uuid(Uuid::nil()) };
    for (label, cursor) in [("max", max_id), ("nil", nil_id)] {
        let listed = list(stores, tenant, &none, Some(&cursor), 100).await;
        assert_eq!(
            listed.iter().map(|e| e.id).collect::<Vec<_>>(),
            expected_list(&world.events, &none, Some(&cursor), usize::MAX),
            "events: after (action_at, {label} id) includes the events at that action_at only \
             when their id is smaller"
        );
    }
    let before_all = EventPosition { action_at: t(-10_000), event_id: EventId::from_uuid(Uuid::max()) };
    assert!(
        list(stores, tenant, &none, Some(&before_all), 100).await.is_empty(),
        "events: nothing comes after a position older than every event"
    );

    let theirs = list(stores, world.other.tenant.id, &none, None, 100).await;
    assert_eq!(theirs.len(), 3, "events: the other tenant lists its own 3 events");
    assert!(
        theirs.iter().all(|e| e.tenant_id == world.other.tenant.id),
        "events: list_verified_events never returns another tenant's events"
    );
    let cross = EventFilter { template_id: Some(first_template), ..none.clone() };
    assert!(
        list(stores, world.other.tenant.id, &cross, None, 100).await.is_empty(),
        "events: filtering by another tenant's template lists nothing"
    );
}

async fn list_verified_events_pages_through_shared_timestamps(stores: &Stores<'_>) {
    let seed = fixtures::seed(stores).await;
    let user = fixtures::end_user();
    let mut events = Vec::new();
    // 30 verified events on 5 distinct action_at values, and unverified ones among them.
    for i in 0..30i64 {
        let action = if i % 4 == 0 { Action::Declined } else { Action::Accepted };
        let event = seed.event().end_user(&user).action(action).action_at(base_plus_secs(-(i % 5))).build();
        events.push(fixtures::verified_event(stores, event, base_plus_secs(i)).await);
        if i % 6 == 0 {
            let pending = seed.event().action_at(base_plus_secs(-(i % 5))).build();
            events.push(fixtures::stored_event(stores, pending).await);
        }
    }

    for (filter, label) in [
        (EventFilter::default(), "no filter"),
        (EventFilter { status: Some(Action::Accepted), ..EventFilter::default() }, "ACCEPTED"),
        (
            EventFilter { from: Some(base_plus_secs(-3)), to: Some(base_plus_secs(-1)), ..EventFilter::default() },
            "from and to",
        ),
    ] {
        let expected = expected_list(&events, &filter, None, usize::MAX);
        for limit in [1, 4, 7, 100] {
            let mut seen: Vec<EventId> = Vec::new();
            let mut after: Option<EventPosition> = None;
            let mut pages = 0;
            loop {
                let page = list(stores, seed.tenant.id, &filter, after.as_ref(), limit).await;
                assert!(page.len() <= limit, "events: a page ({label}) holds at most `limit` ({limit}) events");
                seen.extend(page.iter().map(|e| e.id));
                pages += 1;
                assert!(pages <= expected.len() + 1, "events: the page walk ({label}) ends");
                match page.last() {
                    Some(last) if page.len() == limit => after = Some(position(last)),
                    _ => break,
                }
            }
            let unique: BTreeSet<EventId> = seen.iter().copied().collect();
            assert_eq!(unique.len(), seen.len(), "events: a page walk ({label}, limit {limit}) returns no event twice");
            assert_eq!(
                seen, expected,
                "events: a page walk ({label}, limit {limit}) returns every matching event once, \
                 in order"
            );
        }
    }
}

async fn consent_snapshot_summarises_one_major(stores: &Stores<'_>) {
    let seed = fixtures::seed(stores).await;
    let other = fixtures::seed(stores).await;
    let tenant = seed.tenant.id;
    let template = seed.template.id;
    let second = fixtures::stored_template(stores, tenant, &[(1, 0)]).await;
    let user = fixtures::end_user();
    let snapshot = |user: EndUserId, tenant: TenantId, tpl: TemplateId, major: u32| async move {
        stores.events.consent_snapshot(tenant, &user, tpl, major).await.unwrap()
    };

    assert_eq!(
        snapshot(user.clone(), tenant, template, 2).await,
        ConsentSnapshot::default(),
        "events: the snapshot of an end user without events is empty"
    );

    // Verified in action_at order, so "latest" means the same by action_at and by verified_at.
    let add = |version: (u32, u32), action: Action, offset: i64, verified: bool| {
        let user = user.clone();
        let seed = &seed;
        async move {
            let event = seed
                .event()
                .version(seed.version(version.0, version.1))
                .end_user(&user)
                .action(action)
                .action_at(base_plus_secs(offset))
                .build();
            if verified {
                fixtures::verified_event(stores, event, base_plus_secs(offset + 5)).await
            } else {
                fixtures::stored_event(stores, event).await
            }
        }
    };
    let _accepted_v1 = add((1, 0), Action::Accepted, -1000, true).await;
    let declined_v1_1 = add((1, 1), Action::Declined, -900, true).await;
    let _unverified_v2_early = add((2, 0), Action::Accepted, -800, false).await;
    let _declined_v2 = add((2, 0), Action::Declined, -700, true).await;
    let accepted_v2 = add((2, 0), Action::Accepted, -600, true).await;
    let unverified_v2 = add((2, 0), Action::Accepted, -500, false).await;
    let unverified_v1 = add((1, 0), Action::Accepted, -400, false).await;
    // Noise: the same end user on another template, another end user on this one, later.
    let noise = fixtures::event(&seed.app, &second).end_user(&user).action_at(base_plus_secs(-300)).build();
    fixtures::verified_event(stores, noise, base_plus_secs(-295)).await;
    let someone = fixtures::end_user();
    let theirs = seed.event().end_user(&someone).action_at(base_plus_secs(-200)).build();
    let theirs = fixtures::verified_event(stores, theirs, base_plus_secs(-195)).await;

    assert_eq!(
        snapshot(user.clone(), tenant, template, 2).await,
        ConsentSnapshot {
            latest_verified: Some(summary(&accepted_v2)),
            latest_unverified: Some(summary(&unverified_v2)),
            accepted_earlier_major: true,
            re_accept_requested_at: None,
        },
        "events: consent_snapshot of major 2: the latest verified and the latest unverified \
         event on major 2 only, and the verified acceptance of major 1"
    );
    assert_eq!(
        snapshot(user.clone(), tenant, template, 1).await,
        ConsentSnapshot {
            latest_verified: Some(summary(&declined_v1_1)),
            latest_unverified: Some(summary(&unverified_v1)),
            accepted_earlier_major: false,
            re_accept_requested_at: None,
        },
        "events: consent_snapshot of major 1 covers minor versions of major 1 and ignores later \
         majors"
    );
    assert_eq!(
        snapshot(user.clone(), tenant, template, 3).await,
        ConsentSnapshot { accepted_earlier_major: true, ..ConsentSnapshot::default() },
        "events: consent_snapshot of a major without events only says an earlier one was accepted"
    );
    assert_eq!(
        snapshot(someone.clone(), tenant, template, 2).await,
        ConsentSnapshot { latest_verified: Some(summary(&theirs)), ..ConsentSnapshot::default() },
        "events: consent_snapshot is per end user"
    );
    assert_eq!(
        snapshot(user.clone(), other.tenant.id, template, 2).await,
        ConsentSnapshot::default(),
        "events: consent_snapshot under another tenant sees nothing"
    );

    // Only a verified ACCEPTED event on an earlier major counts as an earlier acceptance.
    let hesitant = fixtures::end_user();
    let declined = seed
        .event()
        .version(seed.version(1, 0))
        .end_user(&hesitant)
        .action(Action::Declined)
        .action_at(base_plus_secs(-100))
        .build();
    fixtures::verified_event(stores, declined, base_plus_secs(-95)).await;
    let pending = seed.event().version(seed.version(1, 1)).end_user(&hesitant).action_at(base_plus_secs(-90)).build();
    fixtures::stored_event(stores, pending).await;
    assert!(
        !snapshot(hesitant.clone(), tenant, template, 2).await.accepted_earlier_major,
        "events: a declined or unverified earlier major is no earlier acceptance"
    );

    // Re-accept requests: the latest one for this end user and template, on every major.
    let (first, latest) = (base_plus_secs(-50), base_plus_secs(-20));
    stores
        .events
        .request_re_accept(tenant, &user, template, Some("Policy updated – bitte erneut"), first)
        .await
        .unwrap();
    stores.events.request_re_accept(tenant, &user, template, None, latest).await.unwrap();
    stores.events.request_re_accept(tenant, &someone, second.id, None, base_plus_secs(-10)).await.unwrap();
    let expected = ConsentSnapshot {
        latest_verified: Some(summary(&accepted_v2)),
        latest_unverified: Some(summary(&unverified_v2)),
        accepted_earlier_major: true,
        re_accept_requested_at: Some(latest),
    };
    assert_eq!(
        snapshot(user.clone(), tenant, template, 2).await,
        expected,
        "events: consent_snapshot reports the latest re-accept request's time"
    );
    assert_eq!(
        snapshot(user.clone(), tenant, template, 1).await.re_accept_requested_at,
        Some(latest),
        "events: a re-accept request applies whatever the major"
    );
    assert_eq!(
        snapshot(someone.clone(), tenant, template, 2).await.re_accept_requested_at,
        None,
        "events: a re-accept request is per end user and template"
    );
    assert_eq!(
        snapshot(user.clone(), tenant, second.id, 1).await.re_accept_requested_at,
        None,
        "events: a re-accept request for one template does not apply to another"
    );
    assert_eq!(
        snapshot(someone.clone(), tenant, second.id, 1).await.re_accept_requested_at,
        Some(base_plus_secs(-10)),
        "events: a re-accept request for an end user without events on that template is kept"
    );
    assert_eq!(
        snapshot(user.clone(), other.tenant.id, template, 2).await,
        ConsentSnapshot::default(),
        "events: re-accept requests are scoped by tenant"
    );
}

async fn last_accepted_event_is_the_latest_verified_acceptance(stores: &Stores<'_>) {
    let seed = fixtures::seed(stores).await;
    let other = fixtures::seed(stores).await;
    let tenant = seed.tenant.id;
    let template = seed.template.id;
    let second = fixtures::stored_template(stores, tenant, &[(1, 0)]).await;
    let last = |user: EndUserId, tenant: TenantId, template: TemplateId| async move {
        stores.events.last_accepted_event(tenant, &user, template).await.unwrap().map(|e| e.version)
    };
    let act = |user: &EndUserId, version: (u32, u32), action: Action, offset: i64| {
        seed.event()
            .version(seed.version(version.0, version.1))
            .end_user(user)
            .action(action)
            .action_at(base_plus_secs(offset))
            .build()
    };

    let user = fixtures::end_user();
    assert_eq!(last(user.clone(), tenant, template).await, None, "events: no events, no version");
    let e = act(&user, (1, 0), Action::Accepted, -1000);
    fixtures::verified_event(stores, e, base_plus_secs(-995)).await;
    let e = act(&user, (2, 0), Action::Declined, -900);
    fixtures::verified_event(stores, e, base_plus_secs(-895)).await;
    let e = act(&user, (2, 0), Action::Accepted, -800);
    fixtures::stored_event(stores, e).await;
    assert_eq!(
        last(user.clone(), tenant, template).await,
        Some(VersionNumber::new(1, 0)),
        "events: last_accepted_event ignores later declines and unverified acceptances"
    );
    let e = act(&user, (1, 1), Action::Accepted, -700);
    fixtures::verified_event(stores, e, base_plus_secs(-695)).await;
    assert_eq!(
        last(user.clone(), tenant, template).await,
        Some(VersionNumber::new(1, 1)),
        "events: last_accepted_event is the latest verified acceptance in time, not the \
         highest version number"
    );
    let e = act(&user, (2, 0), Action::Accepted, -600);
    fixtures::verified_event(stores, e, base_plus_secs(-595)).await;
    assert_eq!(
        last(user.clone(), tenant, template).await,
        Some(VersionNumber::new(2, 0)),
        "events: a newer verified acceptance becomes the last accepted version"
    );
    let latest = stores.events.last_accepted_event(tenant, &user, template).await.unwrap().unwrap();
    assert_eq!(
        stores.events.find_event(tenant, latest.id).await.unwrap().as_ref(),
        Some(&latest),
        "events: last_accepted_event is the whole stored event, with the content as shown"
    );

    let decliner = fixtures::end_user();
    let e = act(&decliner, (2, 0), Action::Declined, -500);
    fixtures::verified_event(stores, e, base_plus_secs(-495)).await;
    assert_eq!(last(decliner, tenant, template).await, None, "events: only declines, no accepted version");
    assert_eq!(last(user.clone(), tenant, second.id).await, None, "events: last_accepted_event is per template");
    assert_eq!(
        last(user.clone(), other.tenant.id, template).await,
        None,
        "events: last_accepted_event under another tenant is None"
    );
    let stranger = fixtures::end_user();
    assert_eq!(last(stranger, tenant, template).await, None, "events: per end user");
}
