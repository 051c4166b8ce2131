//! The [`TenantStore`](crate::ports::TenantStore) contract.

use time::Duration;

use super::fixtures::{self, base_time};
use super::support::Stores;
use crate::TenantId;
use crate::consent::models::Action;
use crate::limits::quota::QuotaPeriod;
use crate::secrets::{OperatorToken, SecretHash};
use crate::tenants::models::{ConsoleSessionRecord, OperatorRole};

/// Runs every check of the tenant store.
pub async fn tenant_store_contract(stores: &Stores<'_>) {
    create_and_find(stores).await;
    token_lookup_finds_its_own_tenant(stores).await;
    set_event_quota(stores).await;
    set_legal_name(stores).await;
    events_in_period_counts_verified_events_of_the_tenant(stores).await;
    more_operator_tokens(stores).await;
    tokens_are_listed_used_and_revoked(stores).await;
    console_sessions_expire_when_idle_and_end_on_sign_out(stores).await;
}

async fn more_operator_tokens(stores: &Stores<'_>) {
    let (tenant, first) = fixtures::stored_tenant(stores).await;
    let (second, record) = fixtures::operator_token_with_role(&tenant, OperatorRole::Viewer);
    let audit = fixtures::audit(tenant.id);
    assert!(stores.tenants.add_operator_token(&record, &audit).await.unwrap(), "tenants: a second token is added");
    for token in [first.hash(), second.hash()] {
        let found = stores.tenants.operator_for_token(&token, base_time()).await.unwrap().map(|o| o.tenant.id);
        assert_eq!(found, Some(tenant.id), "tenants: every token of a tenant finds it");
    }
    let viewer = stores.tenants.operator_for_token(&second.hash(), base_time()).await.unwrap().unwrap();
    assert_eq!(
        (viewer.token_id, viewer.role, viewer.token_name.as_str()),
        (record.id, OperatorRole::Viewer, record.name.as_str()),
        "tenants: the operator carries its token's id, role and name"
    );
    let logged = stores.audit.list_audit_entries(tenant.id, None, 10).await.unwrap();
    assert!(logged.contains(&audit), "tenants: adding a token writes its audit entry");
    let stranger = fixtures::tenant();
    let (_, orphan) = fixtures::operator_token(&stranger);
    let stray = fixtures::audit(stranger.id);
    assert!(
        !stores.tenants.add_operator_token(&orphan, &stray).await.unwrap(),
        "tenants: no token for an unknown tenant"
    );
    assert_eq!(stores.tenants.operator_for_token(&orphan.token_hash, base_time()).await.unwrap(), None);
}

async fn tokens_are_listed_used_and_revoked(stores: &Stores<'_>) {
    let (tenant, first) = fixtures::stored_tenant(stores).await;
    let (other, other_token) = fixtures::stored_tenant(stores).await;
    let (second, record) = fixtures::operator_token_with_role(&tenant, OperatorRole::Viewer);
    stores.tenants.add_operator_token(&record, &fixtures::audit(tenant.id)).await.unwrap();

    let listed = stores.tenants.list_operator_tokens(tenant.id).await.unwrap();
    assert_eq!(listed.len(), 2, "tenants: both tokens of the tenant are listed, none of another's");
    assert!(listed.iter().all(|t| t.last_used_at.is_none()), "tenants: unused tokens have no last use");

    let used_at = base_time().saturating_add(Duration::minutes(5));
    stores.tenants.operator_for_token(&second.hash(), used_at).await.unwrap().unwrap();
    let listed = stores.tenants.list_operator_tokens(tenant.id).await.unwrap();
    let used = listed.iter().find(|t| t.id == record.id).unwrap();
    assert_eq!(used.last_used_at, Some(used_at), "tenants: a token's use is recorded");
    stores
        .tenants
        .operator_for_token(&second.hash(), used_at.saturating_add(Duration::seconds(10)))
        .await
        .unwrap()
        .unwrap();
    let listed = stores.tenants.list_operator_tokens(tenant.id).await.unwrap();
    assert_eq!(
        listed.iter().find(|t| t.id == record.id).unwrap().last_used_at,
        Some(used_at),
        "tenants: uses within a minute are not written again"
    );

    let session = ConsoleSessionRecord {
        secret_hash: SecretHash::of(&format!("session {}", fixtures::uuid())),
        tenant_id: tenant.id,
        token_id: record.id,
        created_at: base_time(),
    };
    stores.tenants.insert_console_session(&session).await.unwrap();
    let idle_since = base_time().saturating_sub(Duration::hours(12));
    let operator = stores.tenants.console_session_operator(&session.secret_hash, idle_since, base_time()).await;
    assert_eq!(operator.unwrap().map(|o| o.token_id), Some(record.id), "tenants: a session finds its operator");

    let revoke = fixtures::audit(tenant.id);
    assert!(
        !stores.tenants.revoke_operator_token(other.id, record.id, &fixtures::audit(other.id)).await.unwrap(),
        "tenants: another tenant cannot revoke the token"
    );
    assert!(stores.tenants.revoke_operator_token(tenant.id, record.id, &revoke).await.unwrap());
    assert!(
        !stores.tenants.revoke_operator_token(tenant.id, record.id, &fixtures::audit(tenant.id)).await.unwrap(),
        "tenants: a revoked token cannot be revoked again"
    );
    assert_eq!(
        stores.tenants.operator_for_token(&second.hash(), base_time()).await.unwrap(),
        None,
        "tenants: a revoked token authenticates no one"
    );
    assert_eq!(
        stores.tenants.console_session_operator(&session.secret_hash, idle_since, base_time()).await.unwrap(),
        None,
        "tenants: a revoked token's console sessions end"
    );
    let listed = stores.tenants.list_operator_tokens(tenant.id).await.unwrap();
    assert_eq!(listed.iter().map(|t| t.id).collect::<Vec<_>>().len(), 1, "tenants: a revoked token is not listed");
    assert!(stores.tenants.operator_for_token(&first.hash(), base_time()).await.unwrap().is_some());
    assert!(stores.tenants.operator_for_token(&other_token.hash(), base_time()).await.unwrap().is_some());
    let logged = stores.audit.list_audit_entries(tenant.id, None, 10).await.unwrap();
    assert!(logged.contains(&revoke), "tenants: revoking writes its audit entry");
}

async fn console_sessions_expire_when_idle_and_end_on_sign_out(stores: &Stores<'_>) {
    let (tenant, _) = fixtures::stored_tenant(stores).await;
    let token = stores.tenants.list_operator_tokens(tenant.id).await.unwrap().remove(0);
    let session = ConsoleSessionRecord {
        secret_hash: SecretHash::of(&format!("session {}", fixtures::uuid())),
        tenant_id: tenant.id,
        token_id: token.id,
        created_at: base_time(),
    };
    stores.tenants.insert_console_session(&session).await.unwrap();
    let lookup = |idle_since, now| stores.tenants.console_session_operator(&session.secret_hash, idle_since, now);
    let later = base_time().saturating_add(Duration::hours(2));
    assert!(lookup(base_time().saturating_sub(Duration::hours(12)), later).await.unwrap().is_some());
    assert!(
        lookup(later.saturating_sub(Duration::minutes(1)), later.saturating_add(Duration::seconds(30)))
            .await
            .unwrap()
            .is_some(),
        "tenants: a session seen since idle_since is alive (it was seen at `later`)"
    );
    assert!(
        lookup(later.saturating_add(Duration::minutes(1)), later.saturating_add(Duration::hours(13)))
            .await
            .unwrap()
            .is_none(),
        "tenants: a session not seen since idle_since has ended"
    );
    let unknown = SecretHash::of("no such session");
    assert!(stores.tenants.console_session_operator(&unknown, base_time(), later).await.unwrap().is_none());
    stores.tenants.delete_console_session(&session.secret_hash).await.unwrap();
    assert!(
        lookup(base_time().saturating_sub(Duration::hours(12)), later).await.unwrap().is_none(),
        "tenants: a signed-out session has ended"
    );
}

async fn create_and_find(stores: &Stores<'_>) {
    let mut tenant = fixtures::tenant();
    tenant.event_quota = Some(250);
    tenant.name = fixtures::name("Ünïcødé Tenant – GmbH & Co. KG");
    let (_, record) = fixtures::operator_token(&tenant);
    stores.tenants.create_tenant(&tenant, &record).await.unwrap();
    let found = stores.tenants.find_tenant(tenant.id).await.unwrap();
    assert_eq!(found.as_ref(), Some(&tenant), "tenants: find_tenant returns every field as created");

    let (unlimited, _) = fixtures::stored_tenant(stores).await;
    assert_eq!(
        stores.tenants.find_tenant(unlimited.id).await.unwrap(),
        Some(unlimited),
        "tenants: a tenant without quota round-trips with event_quota None"
    );

    let unknown = TenantId::from_uuid(fixtures::uuid());
    assert_eq!(
        stores.tenants.find_tenant(unknown).await.unwrap(),
        None,
        "tenants: find_tenant of an unknown id is None"
    );
}

async fn token_lookup_finds_its_own_tenant(stores: &Stores<'_>) {
    let (first, first_token) = fixtures::stored_tenant(stores).await;
    let (second, second_token) = fixtures::stored_tenant(stores).await;
    let lookup = |hash: SecretHash| async move {
        stores.tenants.operator_for_token(&hash, base_time()).await.unwrap().map(|o| o.tenant)
    };
    assert_eq!(
        lookup(first_token.hash()).await,
        Some(first.clone()),
        "tenants: the first tenant's token hash finds the first tenant"
    );
    assert_eq!(
        lookup(second_token.hash()).await,
        Some(second),
        "tenants: the second tenant's token hash finds the second tenant"
    );
    let stranger = OperatorToken::from_random(fixtures::random32());
    assert_eq!(lookup(stranger.hash()).await, None, "tenants: an unknown token hash finds no tenant");
    // A hash differing in one bit from a real one must not match (no prefix or fuzzy matching).
    let mut near = *first_token.hash().as_bytes();
    near[31] ^= 1;
    assert_eq!(
        lookup(SecretHash::from_bytes(near)).await,
        None,
        "tenants: a hash one bit away from a stored one finds no tenant"
    );
    assert_eq!(
        stores.tenants.find_tenant(first.id).await.unwrap().map(|t| t.id),
        Some(first.id),
        "tenants: the token lookup changed nothing"
    );
}

async fn set_legal_name(stores: &Stores<'_>) {
    let (tenant, _) = fixtures::stored_tenant(stores).await;
    let (other, _) = fixtures::stored_tenant(stores).await;
    assert_eq!(tenant.legal_name, None, "tenants: a new tenant has no legal name");
    let legal = fixtures::name("Ünïcødé Holdings GmbH & Co. KG");
    assert!(
        stores.tenants.set_legal_name(tenant.id, Some(&legal)).await.unwrap(),
        "tenants: set on an existing tenant"
    );
    let found = stores.tenants.find_tenant(tenant.id).await.unwrap().unwrap();
    assert_eq!(found.legal_name, Some(legal), "tenants: the legal name set is read back");
    assert_eq!(
        (found.name, found.event_quota),
        (tenant.name.clone(), tenant.event_quota),
        "tenants: nothing else changed"
    );
    assert_eq!(
        stores.tenants.find_tenant(other.id).await.unwrap().unwrap().legal_name,
        None,
        "tenants: other tenants keep theirs"
    );
    assert!(stores.tenants.set_legal_name(tenant.id, None).await.unwrap());
    assert_eq!(stores.tenants.find_tenant(tenant.id).await.unwrap().unwrap().legal_name, None, "tenants: cleared");
    let unknown = fixtures::tenant();
    assert!(!stores.tenants.set_legal_name(unknown.id, None).await.unwrap(), "tenants: an unknown tenant is false");
}

async fn set_event_quota(stores: &Stores<'_>) {
    let (tenant, _) = fixtures::stored_tenant(stores).await;
    let (other, _) = fixtures::stored_tenant(stores).await;
    assert!(
        stores.tenants.set_event_quota(tenant.id, Some(7)).await.unwrap(),
        "tenants: set_event_quota of an existing tenant returns true"
    );
    let found = stores.tenants.find_tenant(tenant.id).await.unwrap().unwrap();
    assert_eq!(found.event_quota, Some(7), "tenants: the quota set is read back");
    assert_eq!(
        (found.name, found.created_at),
        (tenant.name.clone(), tenant.created_at),
        "tenants: setting the quota changes nothing else"
    );
    assert_eq!(
        stores.tenants.find_tenant(other.id).await.unwrap().unwrap().event_quota,
        None,
        "tenants: setting one tenant's quota leaves other tenants alone"
    );
    assert!(stores.tenants.set_event_quota(tenant.id, Some(0)).await.unwrap(), "tenants: a quota of 0 can be set");
    assert_eq!(
        stores.tenants.find_tenant(tenant.id).await.unwrap().unwrap().event_quota,
        Some(0),
        "tenants: a quota of 0 is read back as Some(0), not None"
    );
    assert!(stores.tenants.set_event_quota(tenant.id, None).await.unwrap(), "tenants: removing the quota returns true");
    assert_eq!(
        stores.tenants.find_tenant(tenant.id).await.unwrap().unwrap().event_quota,
        None,
        "tenants: a removed quota is read back as None"
    );
    let unknown = TenantId::from_uuid(fixtures::uuid());
    assert!(
        !stores.tenants.set_event_quota(unknown, Some(3)).await.unwrap(),
        "tenants: set_event_quota of an unknown tenant returns false"
    );
    assert_eq!(
        stores.tenants.find_tenant(unknown).await.unwrap(),
        None,
        "tenants: set_event_quota of an unknown tenant creates nothing"
    );
}

async fn events_in_period_counts_verified_events_of_the_tenant(stores: &Stores<'_>) {
    let seed = fixtures::seed(stores).await;
    let other = fixtures::seed(stores).await;
    let period = QuotaPeriod::containing(base_time());
    let previous = QuotaPeriod::containing(period.start.saturating_sub(Duration::milliseconds(1)));
    let next = QuotaPeriod::containing(period.end);
    let ms = Duration::milliseconds;
    let count = |tenant: TenantId, period: QuotaPeriod| async move {
        stores.tenants.events_in_period(tenant, &period).await.unwrap()
    };

    assert_eq!(count(seed.tenant.id, period).await, 0, "tenants: a tenant without events has counted none");

    // Verified at the first instant of the period, at its last millisecond, and one DECLINED in
    // it: three. One at the period's end belongs to the next period, one a millisecond before its
    // start to the previous one.
    for verified_at in [period.start, period.end.saturating_sub(ms(1)), period.end, period.start.saturating_sub(ms(1))]
    {
        let event = seed.event().action_at(verified_at.saturating_sub(ms(500))).build();
        fixtures::verified_event(stores, event, verified_at).await;
    }
    let declined = seed.event().action(Action::Declined).build();
    fixtures::verified_event(stores, declined, base_time().saturating_add(ms(10))).await;
    // Unverified events never count, whenever they happened.
    for action_at in [base_time(), period.start] {
        fixtures::stored_event(stores, seed.event().action_at(action_at).build()).await;
    }
    // Another tenant's verified events never count.
    for _ in 0..2 {
        fixtures::verified_event(stores, other.event().build(), base_time()).await;
    }

    assert_eq!(
        count(seed.tenant.id, period).await,
        3,
        "tenants: events_in_period counts the verified (ACCEPTED and DECLINED) events of the tenant \
         with start <= verified_at < end, and no unverified ones"
    );
    assert_eq!(
        count(seed.tenant.id, next).await,
        1,
        "tenants: an event verified exactly at a period's end counts in the next period"
    );
    assert_eq!(
        count(seed.tenant.id, previous).await,
        1,
        "tenants: an event verified a millisecond before a period counts in the previous one"
    );
    assert_eq!(count(other.tenant.id, period).await, 2, "tenants: each tenant counts only its own verified events");
    assert_eq!(
        count(TenantId::from_uuid(fixtures::uuid()), period).await,
        0,
        "tenants: an unknown tenant has counted none"
    );
}
