//! The dispatcher against real HTTPS receivers on loopback and a real PostgreSQL outbox.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod support;

use std::collections::{BTreeMap, HashMap};
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use clickwrap_domain::apps::models::AppChanges;
use clickwrap_domain::audit::models::AuditEntry;
use clickwrap_domain::consent::cursor::PageLimit;
use clickwrap_domain::memory::AllowAllWebhookTargets;
use clickwrap_domain::ports::{DeliveryStore, StorageError};
use clickwrap_domain::tenants::models::Admin;
use clickwrap_domain::webhooks::cidr::AllowCidrs;
use clickwrap_domain::webhooks::dispatch::{ClaimedDelivery, FinishedAttempt, LeaseOwner, RetryPolicy};
use clickwrap_domain::webhooks::models::AttemptError;
use clickwrap_domain::webhooks::models::DeliveryState;
use clickwrap_domain::webhooks::models::{DeliveryPosition, DeliveryRecord};
use clickwrap_domain::{AppId, DeliveryId, TenantId, Timestamp};
use clickwrap_postgres::PgStore;
use clickwrap_webhooks::receiver::{verify_request, verify_standard_request};
use clickwrap_webhooks::{AddressPolicy, Dispatcher, SignedHeaders};
use support::{LoopbackOnlyDialer, Receiver, Reply, StaticNames, World};

const SOON: Duration = Duration::from_secs(20);

fn state(state: DeliveryState) -> impl Fn(&DeliveryRecord) -> bool {
    move |record| record.delivery.state == state
}

fn no_retries() -> RetryPolicy {
    RetryPolicy::new(Vec::new()).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_verified_event_is_delivered_signed_within_milliseconds() {
    let world = World::new().await;
    let receiver = Receiver::start(&world.tls, |_| Reply::status(200)).await;
    let (app, secret) = world.app(&receiver.url("/hooks/clickwrap?source=test")).await;
    let mut config = world.config();
    // Only the wake-up in process can find a new delivery in time: no poll, and a verification
    // sends no NOTIFY.
    config.poll_interval = Duration::from_secs(3600);
    let (dispatcher, listener) = world.dispatcher(config).await;
    let service = world.service.clone().with_outbox_signal(Arc::new(dispatcher.waker()));
    world.enable_template().await;
    tokio::time::sleep(Duration::from_millis(500)).await;

    let (event, committed) = world.consent_flow(&service, &app).await;
    let request = receiver.wait_for(1, SOON).await.remove(0);
    let lag = request.at.duration_since(committed);
    assert!(lag < Duration::from_secs(2), "delivered {lag:?} after the commit");

    assert_eq!(request.path, "/hooks/clickwrap");
    assert_eq!(request.headers["content-type"], "application/json");
    assert!(request.headers["user-agent"].to_str().unwrap().starts_with("clickwrap-webhooks/"));
    let now = world.now().unix_seconds();
    let timestamp: i64 = request.headers["x-service-timestamp"].to_str().unwrap().parse().unwrap();
    assert!((now - timestamp).abs() <= 5, "timestamp {timestamp} vs now {now}");
    let signature = request.headers["x-service-signature"].to_str().unwrap();
    assert!(signature.starts_with("sha256=") && signature.len() == 71, "{signature}");
    assert_eq!(verify_request(secret.expose(), &request.headers, &request.body, now), Ok(()));
    // The Standard Webhooks headers, beside the spec's: the message id, the same timestamp, and
    // `v1,` + base64 of the HMAC keyed by the base64-decoded secret.
    assert_eq!(request.headers["webhook-id"], format!("msg_{}", event.id).as_str());
    assert_eq!(request.headers["webhook-timestamp"], request.headers["x-service-timestamp"]);
    let standard = request.headers["webhook-signature"].to_str().unwrap();
    assert!(standard.starts_with("v1,") && standard.len() == 47, "{standard}");
    assert_eq!(verify_standard_request(secret.expose(), &request.headers, &request.body, now), Ok(()));

    let body = request.json();
    assert_eq!(body["eventType"], "CLICKWRAP_EVENT_VERIFIED");
    let made_at = clickwrap_domain::Timestamp::parse_rfc3339(body["timestamp"].as_str().unwrap()).unwrap();
    assert!((made_at.unix_seconds() - now).abs() <= 5, "the message's timestamp: {}", body["timestamp"]);
    assert_eq!(body.as_object().unwrap().len(), 3, "eventType, timestamp, data: {body}");
    let data = body["data"].as_object().unwrap();
    let expected = serde_json::json!({
        "clickwrapEventId": event.id.to_string(),
        "clickwrapTemplateId": event.template_id.to_string(),
        "clickwrapTemplateVersion": event.version.major,
        "clickwrapTemplateVersionMinor": event.version.minor,
        "endUserId": event.end_user_id.as_str(),
        "templatePlaceholders": null,
        "technicalMetadata": event.technical_metadata,
        "actionAt": event.action_at.to_rfc3339(),
        "effectiveAt": event.effective_at.to_rfc3339(),
        "clickwrapEventStatus": "ACCEPTED",
    });
    assert_eq!(data.len(), 10, "{data:?}");
    assert_eq!(serde_json::Value::Object(data.clone()), expected);

    let record = world.wait_for_deliveries(std::slice::from_ref(&event), SOON, state(DeliveryState::Delivered)).await;
    let record = &record[0];
    assert_eq!(record.delivery.attempts, 1);
    assert_eq!(record.delivery.last_response_status, Some(200));
    assert_eq!(record.delivery.next_attempt_at, None);
    let attempt = &record.attempts[0];
    assert_eq!((attempt.number, attempt.response_status, attempt.error), (1, Some(200), None));
    assert_eq!(attempt.response_excerpt.as_deref(), Some("answered 200"));
    assert_eq!(attempt.request_body.as_bytes(), &request.body[..], "the history keeps the exact body sent");
    assert_eq!(dispatcher.stats().delivered, 1);

    let report = dispatcher.shutdown().await;
    assert_eq!((report.cut_off, report.leases_released), (0, 0));
    listener.stop();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn anything_but_200_fails_and_is_tried_exactly_four_times() {
    let world = World::new().await;
    let receiver = Receiver::start(&world.tls, |request| match request.path.as_str() {
        "/500" => Reply::status(500),
        "/201" => Reply::status(201),
        "/slow" => Reply::status(200).after(Duration::from_secs(2)),
        _ => Reply::status(200),
    })
    .await;
    let mut events = Vec::new();
    for path in ["/500", "/201", "/slow"] {
        let (app, _) = world.app(&receiver.url(path)).await;
        events.push(world.verified_event(&app).await);
    }
    let (ok_app, _) = world.app(&receiver.url("/ok")).await;
    let ok = world.verified_event(&ok_app).await;

    let mut config = world.config();
    config.client.timeout = Duration::from_millis(400);
    let (dispatcher, _listener) = world.dispatcher(config).await;

    let failed = world.wait_for_deliveries(&events, SOON, state(DeliveryState::Failed)).await;
    let delivered = world.wait_for_deliveries(std::slice::from_ref(&ok), SOON, state(DeliveryState::Delivered)).await;
    // Nothing more comes after FAILED.
    tokio::time::sleep(Duration::from_millis(500)).await;
    for path in ["/500", "/201", "/slow"] {
        assert_eq!(receiver.count(path), 4, "{path}: one attempt and three retries");
    }
    assert_eq!(receiver.count("/ok"), 1);
    assert_eq!(delivered[0].delivery.attempts, 1);

    for (record, (status, error)) in failed.iter().zip([
        (Some(500), AttemptError::UnexpectedStatus),
        (Some(201), AttemptError::UnexpectedStatus),
        (None, AttemptError::Timeout),
    ]) {
        assert_eq!(record.delivery.attempts, 4);
        assert_eq!(record.delivery.next_attempt_at, None);
        assert_eq!(record.delivery.last_response_status, status);
        let numbers: Vec<u32> = record.attempts.iter().map(|a| a.number).collect();
        assert_eq!(numbers, vec![4, 3, 2, 1], "attempts, newest first");
        for attempt in &record.attempts {
            assert_eq!((attempt.response_status, attempt.error), (status, Some(error)));
        }
        // The retries waited (100 ms each here) after the attempt before.
        for pair in record.attempts.windows(2) {
            assert!(pair[0].started_at > pair[1].started_at);
        }
    }
    let timeouts = &failed[2].attempts;
    assert!(timeouts.iter().all(|a| (400..5000).contains(&a.duration_ms)), "{timeouts:?}");
    assert_eq!(dispatcher.stats().failed, 3);

    // Every attempt, and an operator's redelivery, carries the same message id and the same body:
    // the receiver's idempotency key.
    world.service.redeliver_webhook(&Admin::server(world.tenant.id), failed[0].delivery.id).await.unwrap();
    let deadline = std::time::Instant::now() + SOON;
    while receiver.count("/500") < 5 && std::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let sent: Vec<_> = receiver.received().into_iter().filter(|r| r.path == "/500").collect();
    assert!(sent.len() >= 5, "four attempts and a redelivery: {}", sent.len());
    let expected_id = format!("msg_{}", events[0].id);
    for request in &sent {
        assert_eq!(request.headers["webhook-id"], expected_id.as_str());
        assert_eq!(request.body, sent[0].body);
    }
    dispatcher.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redirects_are_not_followed() {
    let world = World::new().await;
    let receiver = Receiver::start(&world.tls, |request| match request.path.as_str() {
        "/redirect" => Reply { location: Some("/target".to_owned()), ..Reply::status(302) },
        _ => Reply::status(200),
    })
    .await;
    let (app, _) = world.app(&receiver.url("/redirect")).await;
    let event = world.verified_event(&app).await;
    let mut config = world.config();
    config.retry = no_retries();
    let (dispatcher, _listener) = world.dispatcher(config).await;

    let record = world.wait_for_deliveries(&[event], SOON, state(DeliveryState::Failed)).await.remove(0);
    assert_eq!(record.delivery.last_response_status, Some(302));
    assert_eq!(record.attempts[0].error, Some(AttemptError::UnexpectedStatus));
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(receiver.count("/redirect"), 1);
    assert_eq!(receiver.count("/target"), 0, "the redirect was followed");
    dispatcher.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forbidden_addresses_are_refused_when_connecting() {
    let world = World::new().await;
    let receiver = Receiver::start(&world.tls, |_| Reply::status(200)).await;
    let port = receiver.address.port();
    let ip = |text: &str| text.parse::<IpAddr>().unwrap();
    let names = StaticNames(HashMap::from([
        // A name that passed registration and now points at loopback (DNS rebinding).
        ("rebound.example.com".to_owned(), vec![ip("127.0.0.1")]),
        ("localhost".to_owned(), vec![ip("127.0.0.1"), ip("::1")]),
        ("metadata.example.com".to_owned(), vec![ip("169.254.169.254"), ip("fd00:ec2::254")]),
    ]));
    let urls = [
        format!("https://127.0.0.1:{port}/loopback"),
        format!("https://127.1.2.3:{port}/loopback-range"),
        "https://10.0.0.1/private".to_owned(),
        "https://10.255.1.2:8443/private".to_owned(),
        "https://169.254.169.254/latest/meta-data/".to_owned(),
        format!("https://[::1]:{port}/ipv6-loopback"),
        format!("https://[::ffff:127.0.0.1]:{port}/ipv4-mapped"),
        "https://[::ffff:a9fe:a9fe]/ipv4-mapped-metadata".to_owned(),
        format!("https://rebound.example.com:{port}/rebinding"),
        format!("https://localhost:{port}/localhost"),
        "https://metadata.example.com/metadata".to_owned(),
    ];
    let mut events = Vec::new();
    for url in &urls {
        let (app, _) = world.app(url).await;
        events.push(world.verified_event(&app).await);
    }
    let dialer = Arc::new(LoopbackOnlyDialer::default());
    let mut config = world.config();
    config.retry = no_retries();
    // No exemptions: the default.
    config.client.policy = AddressPolicy::new(AllowCidrs::default());
    config.client.resolver = Arc::new(names);
    config.client.dialer = dialer.clone();
    let (dispatcher, _listener) = world.dispatcher(config).await;

    let records = world.wait_for_deliveries(&events, SOON, state(DeliveryState::Failed)).await;
    for (record, url) in records.iter().zip(&urls) {
        assert_eq!(record.attempts.len(), 1, "{url}");
        assert_eq!(record.attempts[0].error, Some(AttemptError::BlockedAddress), "{url}");
        assert_eq!(record.attempts[0].response_status, None, "{url}");
    }
    assert!(dialer.0.lock().unwrap().is_empty(), "dialed {:?}", dialer.0.lock().unwrap());
    assert!(receiver.received().is_empty());
    dispatcher.shutdown().await;

    // The same receiver is reached once its range is exempted.
    let (app, _) = world.app(&receiver.url("/allowed")).await;
    let allowed = world.verified_event(&app).await;
    let (dispatcher, _listener) = world.dispatcher(world.config()).await;
    world.wait_for_deliveries(&[allowed], SOON, state(DeliveryState::Delivered)).await;
    assert_eq!(receiver.count("/allowed"), 1);
    dispatcher.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_untrusted_certificate_fails_the_attempt() {
    let world = World::new().await;
    let receiver = Receiver::start(&world.tls, |_| Reply::status(200)).await;
    let (app, _) = world.app(&receiver.url("/hook")).await;
    let event = world.verified_event(&app).await;
    let mut config = world.config();
    config.retry = no_retries();
    config.client.ca_file = None;
    let (dispatcher, _listener) = world.dispatcher(config).await;
    let record = world.wait_for_deliveries(&[event], SOON, state(DeliveryState::Failed)).await.remove(0);
    assert_eq!(record.attempts[0].error, Some(AttemptError::Tls));
    assert!(receiver.received().is_empty());
    dispatcher.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn switched_off_webhooks_are_disabled_and_can_be_redelivered() {
    let world = World::new().await;
    let receiver = Receiver::start(&world.tls, |_| Reply::status(200)).await;
    let (paused, _) = world.app(&receiver.url("/paused")).await;
    let (removed, _) = world.app(&receiver.url("/removed")).await;
    let paused_event = world.verified_event(&paused).await;
    let removed_event = world.verified_event(&removed).await;
    world.change_app(&paused, AppChanges { webhook_enabled: Some(false), ..AppChanges::default() }).await;
    world.change_app(&removed, AppChanges { webhook_url: Some(None), ..AppChanges::default() }).await;

    let (dispatcher, _listener) = world.dispatcher(world.config()).await;
    let events = [paused_event.clone(), removed_event];
    let records = world.wait_for_deliveries(&events, SOON, state(DeliveryState::Disabled)).await;
    assert!(records.iter().all(|r| r.attempts.is_empty() && r.delivery.attempts == 0));
    assert!(receiver.received().is_empty());

    // Switched on again, the operator redelivers: sent now, with a new round of attempts.
    world.change_app(&paused, AppChanges { webhook_enabled: Some(true), ..AppChanges::default() }).await;
    let id = records[0].delivery.id;
    world.service.redeliver_webhook(&Admin::server(world.tenant.id), id).await.unwrap();
    let record = world.wait_for_deliveries(&[paused_event], SOON, state(DeliveryState::Delivered)).await.remove(0);
    assert_eq!(record.attempts.len(), 1);
    assert_eq!(receiver.count("/paused"), 1);

    // The history, a page at a time.
    for _ in 0..2 {
        world.verified_event(&paused).await;
    }
    let limit = PageLimit::parse(2).unwrap();
    let first = world.service.list_webhook_deliveries(world.tenant.id, paused.id, None, limit).await.unwrap();
    assert_eq!(first.items.len(), 2);
    let cursor = first.next_cursor.expect("a second page");
    let second = world.service.list_webhook_deliveries(world.tenant.id, paused.id, Some(&cursor), limit).await.unwrap();
    assert_eq!(second.next_cursor, None);
    assert_eq!(second.items.iter().map(|r| r.delivery.id).collect::<Vec<_>>(), vec![id]);
    assert_eq!(second.items[0].attempts.len(), 1);
    // A cursor of one app's list is not valid for another's.
    assert!(world.service.list_webhook_deliveries(world.tenant.id, removed.id, Some(&cursor), limit).await.is_err());
    dispatcher.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_dispatchers_on_one_database_send_each_attempt_once() {
    let world = World::new().await;
    let receiver = Receiver::start(&world.tls, |request| match request.path.as_str() {
        "/fail" => Reply::status(503),
        _ => Reply::status(200).after(Duration::from_millis(5)),
    })
    .await;
    let (good, _) = world.app(&receiver.url("/ok")).await;
    let (bad, _) = world.app(&receiver.url("/fail")).await;
    let mut config = world.config();
    config.concurrency = 4;
    config.batch_size = 2;
    config.retry = RetryPolicy::new(vec![time::Duration::milliseconds(50); 2]).unwrap();
    let (first, _first_listener) = world.dispatcher(config.clone()).await;
    let (second, _second_listener) = world.dispatcher(config).await;

    let mut ok_events = Vec::new();
    let mut failing_events = Vec::new();
    for i in 0..60 {
        if i % 3 == 0 {
            failing_events.push(world.verified_event(&bad).await);
        } else {
            ok_events.push(world.verified_event(&good).await);
        }
    }
    world.wait_for_deliveries(&ok_events, SOON, state(DeliveryState::Delivered)).await;
    world.wait_for_deliveries(&failing_events, SOON, state(DeliveryState::Failed)).await;
    tokio::time::sleep(Duration::from_millis(300)).await;

    let mut per_event: BTreeMap<String, usize> = BTreeMap::new();
    for request in receiver.received() {
        *per_event.entry(request.event_id()).or_default() += 1;
    }
    for event in &ok_events {
        assert_eq!(per_event.get(&event.id.to_string()), Some(&1), "delivered event {}", event.id);
    }
    for event in &failing_events {
        assert_eq!(per_event.get(&event.id.to_string()), Some(&3), "failing event {}", event.id);
    }
    let (a, b) = (first.shutdown().await.stats, second.shutdown().await.stats);
    assert_eq!(a.attempts + b.attempts, 40 + 20 * 3);
}

#[test]
fn a_dispatcher_stopped_hard_leaves_leases_that_another_takes_over() {
    let main = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    main.block_on(async {
        let world = World::new().await;
        let stalling = Arc::new(AtomicBool::new(true));
        let stall = stalling.clone();
        let receiver = Receiver::start(&world.tls, move |_| {
            if stall.load(Ordering::SeqCst) {
                Reply::status(200).after(Duration::from_secs(60))
            } else {
                Reply::status(200)
            }
        })
        .await;
        let (app, _) = world.app(&receiver.url("/hook")).await;
        let mut events = Vec::new();
        for _ in 0..5 {
            events.push(world.verified_event(&app).await);
        }
        let config = world.config();

        // The first dispatcher runs on a runtime of its own, which is then dropped mid-attempt:
        // no graceful stop, its leases stay behind.
        let doomed = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
        let store = world.db.store();
        let service = {
            let store = store.clone();
            doomed
                .spawn(async move {
                    support::service_on(&store, Arc::new(clickwrap_domain::memory::AllowAllWebhookTargets)).await
                })
                .await
                .unwrap()
        };
        let dispatcher = Dispatcher::new(config.clone(), service).unwrap();
        let owner = dispatcher.owner();
        let running = doomed.spawn(async move { dispatcher.start() }).await.unwrap();
        receiver.wait_for(5, SOON).await;
        doomed.shutdown_background();
        drop(running);
        let stopped = Instant::now();

        // Its leases are still there.
        let leased = world
            .store
            .claim_due(LeaseOwner::from_uuid(uuid::Uuid::new_v4()), world.now(), world.now(), 100)
            .await
            .unwrap();
        assert!(leased.is_empty(), "the stopped dispatcher's leases were free: {leased:?}");
        let pending = world.wait_for_deliveries(&events, SOON, state(DeliveryState::Pending)).await;
        assert!(pending.iter().all(|r| r.delivery.attempts == 0));

        stalling.store(false, Ordering::SeqCst);
        let (survivor, _listener) = world.dispatcher(config).await;
        let records = world.wait_for_deliveries(&events, SOON, state(DeliveryState::Delivered)).await;
        let waited = stopped.elapsed();
        assert!(waited >= Duration::from_millis(1000), "taken over after {waited:?}, before the leases ran out");
        assert!(records.iter().all(|r| r.delivery.attempts == 1 && r.attempts.len() == 1));
        assert_eq!(receiver.received().len(), 10, "five cut off by the stop, five delivered");
        assert_ne!(survivor.owner(), owner);
        assert_eq!(survivor.shutdown().await.stats.delivered, 5);
    });
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_graceful_stop_finishes_attempts_in_flight() {
    let world = World::new().await;
    let receiver = Receiver::start(&world.tls, |_| Reply::status(200).after(Duration::from_millis(300))).await;
    let (app, _) = world.app(&receiver.url("/hook")).await;
    let mut events = Vec::new();
    for _ in 0..5 {
        events.push(world.verified_event(&app).await);
    }
    let (dispatcher, _listener) = world.dispatcher(world.config()).await;
    receiver.wait_for(5, SOON).await;
    let report = dispatcher.shutdown().await;
    assert_eq!((report.cut_off, report.leases_released), (0, 0));
    assert_eq!(report.stats.delivered, 5);
    for event in &events {
        assert_eq!(world.delivery(event).await.delivery.state, DeliveryState::Delivered);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_graceful_stop_cuts_off_stuck_attempts_and_gives_back_their_leases() {
    let world = World::new().await;
    let receiver = Receiver::start(&world.tls, |_| Reply::status(200).after(Duration::from_secs(60))).await;
    let (app, _) = world.app(&receiver.url("/hook")).await;
    let mut events = Vec::new();
    for _ in 0..3 {
        events.push(world.verified_event(&app).await);
    }
    let mut config = world.config();
    config.client.timeout = Duration::from_secs(30);
    config.lease = Duration::from_secs(60);
    config.shutdown_grace = Duration::from_millis(200);
    let (dispatcher, _listener) = world.dispatcher(config).await;
    receiver.wait_for(3, SOON).await;
    let stopping = Instant::now();
    let report = dispatcher.shutdown().await;
    assert!(stopping.elapsed() < Duration::from_secs(5), "the stop took {:?}", stopping.elapsed());
    assert_eq!((report.cut_off, report.leases_released), (3, 3));
    // Free at once, long before the 60 s lease would have run out.
    let claimed = world
        .store
        .claim_due(LeaseOwner::from_uuid(uuid::Uuid::new_v4()), world.now(), world.now(), 100)
        .await
        .unwrap();
    assert_eq!(claimed.len(), 3);
    assert!(claimed.iter().all(|c| c.delivery.attempts == 0 && c.round_attempts == 0));
}

/// Headers for the client's own tests, which look at the outcome, not the signatures.
fn signed() -> SignedHeaders {
    SignedHeaders {
        timestamp_secs: 1,
        service_signature: "sha256=00".to_owned(),
        message_id: "msg_1".to_owned(),
        standard_signature: "v1,AA==".to_owned(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_client_names_why_an_attempt_failed() {
    let world = World::new().await;
    let receiver = Receiver::start(&world.tls, |_| Reply::status(200)).await;
    let url = |text: &str| clickwrap_domain::webhooks::url::WebhookUrl::parse_with_exemptions(text, |_| true).unwrap();
    let body = bytes::Bytes::from_static(b"{}");

    let mut settings = world.config().client;
    let trusting = clickwrap_webhooks::WebhookClient::new(&settings).unwrap();
    let ok = trusting.post(&url(&receiver.url("/x")), &signed(), body.clone()).await.unwrap();
    assert_eq!((ok.status, ok.excerpt.as_str()), (200, "answered 200"));

    // A port nothing listens on (bound, then released).
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let refused = trusting.post(&url(&format!("https://127.0.0.1:{closed}/")), &signed(), body.clone()).await;
    assert_eq!(refused.unwrap_err().class, AttemptError::Connect);

    settings.ca_file = None;
    let untrusting = clickwrap_webhooks::WebhookClient::new(&settings).unwrap();
    let error = untrusting.post(&url(&receiver.url("/x")), &signed(), body.clone()).await.unwrap_err();
    assert_eq!(error.class, AttemptError::Tls, "{error}");

    settings.policy = AddressPolicy::default();
    let guarded = clickwrap_webhooks::WebhookClient::new(&settings).unwrap();
    let error = guarded.post(&url(&receiver.url("/x")), &signed(), body).await.unwrap_err();
    assert_eq!(error.class, AttemptError::BlockedAddress, "{error}");
    assert_eq!(receiver.count("/x"), 1);
}

/// A store that leases twice as many deliveries as asked: what PostgreSQL did when the claim's
/// LIMIT subquery was rescanned under load.
#[derive(Debug)]
struct OverClaiming(PgStore);

#[async_trait]
impl DeliveryStore for OverClaiming {
    async fn claim_due(
        &self,
        owner: LeaseOwner,
        now: Timestamp,
        lease_until: Timestamp,
        limit: usize,
    ) -> Result<Vec<ClaimedDelivery>, StorageError> {
        self.0.claim_due(owner, now, lease_until, limit * 2).await
    }

    async fn record_attempts(
        &self,
        owner: LeaseOwner,
        finished: &[FinishedAttempt],
    ) -> Result<Vec<bool>, StorageError> {
        self.0.record_attempts(owner, finished).await
    }

    async fn disable_leased(&self, owner: LeaseOwner, tenant: TenantId, id: DeliveryId) -> Result<bool, StorageError> {
        self.0.disable_leased(owner, tenant, id).await
    }

    async fn release_leases(&self, owner: LeaseOwner) -> Result<u64, StorageError> {
        self.0.release_leases(owner).await
    }

    async fn list_deliveries(
        &self,
        tenant: TenantId,
        app: AppId,
        after: Option<&DeliveryPosition>,
        limit: usize,
    ) -> Result<Vec<DeliveryRecord>, StorageError> {
        self.0.list_deliveries(tenant, app, after, limit).await
    }

    async fn find_delivery(&self, tenant: TenantId, id: DeliveryId) -> Result<Option<DeliveryRecord>, StorageError> {
        self.0.find_delivery(tenant, id).await
    }

    async fn redeliver(
        &self,
        tenant: TenantId,
        id: DeliveryId,
        now: Timestamp,
        audit: &AuditEntry,
    ) -> Result<bool, StorageError> {
        self.0.redeliver(tenant, id, now, audit).await
    }

    async fn failed_deliveries(&self, tenant: TenantId, limit: usize) -> Result<Vec<DeliveryRecord>, StorageError> {
        self.0.failed_deliveries(tenant, limit).await
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_claimed_delivery_is_sent_even_when_the_store_claims_more_than_asked() {
    let world = World::new().await;
    let receiver = Receiver::start(&world.tls, |_| Reply::status(200)).await;
    let (app, _secret) = world.app(&receiver.url("/hooks")).await;
    let mut events = Vec::new();
    for _ in 0..12 {
        events.push(world.verified_event(&app).await);
    }
    let mut config = world.config();
    config.batch_size = 2;
    config.concurrency = 3;
    // A delivery claimed but not sent would wait out this lease: far longer than the test waits.
    config.lease = Duration::from_secs(300);
    let store = world.db.store();
    let service = support::service_with_deliveries(&store, Arc::new(OverClaiming(store.clone()))).await;
    let running = Dispatcher::new(config, service).unwrap().start();

    let records = world.wait_for_deliveries(&events, SOON, state(DeliveryState::Delivered)).await;
    assert!(records.iter().all(|r| r.delivery.attempts == 1), "each sent once: {records:#?}");
    assert_eq!(receiver.received().len(), events.len());
    running.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_instance_without_wake_ups_finds_deliveries_by_its_poll() {
    let world = World::new().await;
    let receiver = Receiver::start(&world.tls, |_| Reply::status(200)).await;
    let (app, _) = world.app(&receiver.url("/hook")).await;
    // Another instance's dispatcher: no listener, and the verification below does not wake it.
    let store = world.db.store();
    let service = support::service_on(&store, Arc::new(AllowAllWebhookTargets)).await;
    let running = Dispatcher::new(world.config(), service).unwrap().start();
    tokio::time::sleep(Duration::from_millis(200)).await;

    let event = world.verified_event(&app).await;
    let record = world.wait_for_deliveries(&[event], SOON, state(DeliveryState::Delivered)).await.remove(0);
    assert_eq!(record.attempts.len(), 1);
    assert_eq!(receiver.count("/hook"), 1);
    running.shutdown().await;
}

/// A PostgreSQL store that counts claims, keeps the size of every batch of attempts recorded, and
/// can hold claims and records at a gate until a test opens it.
#[derive(Debug)]
struct Observed {
    store: PgStore,
    claims: AtomicUsize,
    record_batches: Mutex<Vec<usize>>,
    claim_gate: tokio::sync::Mutex<()>,
    record_gate: tokio::sync::Mutex<()>,
}

impl Observed {
    fn new(store: PgStore) -> Arc<Self> {
        Arc::new(Self {
            store,
            claims: AtomicUsize::new(0),
            record_batches: Mutex::new(Vec::new()),
            claim_gate: tokio::sync::Mutex::new(()),
            record_gate: tokio::sync::Mutex::new(()),
        })
    }

    fn record_batches(&self) -> Vec<usize> {
        self.record_batches.lock().unwrap().clone()
    }
}

#[async_trait]
impl DeliveryStore for Observed {
    async fn claim_due(
        &self,
        owner: LeaseOwner,
        now: Timestamp,
        lease_until: Timestamp,
        limit: usize,
    ) -> Result<Vec<ClaimedDelivery>, StorageError> {
        self.claims.fetch_add(1, Ordering::SeqCst);
        let _open = self.claim_gate.lock().await;
        self.store.claim_due(owner, now, lease_until, limit).await
    }

    async fn record_attempts(
        &self,
        owner: LeaseOwner,
        finished: &[FinishedAttempt],
    ) -> Result<Vec<bool>, StorageError> {
        let _open = self.record_gate.lock().await;
        self.record_batches.lock().unwrap().push(finished.len());
        self.store.record_attempts(owner, finished).await
    }

    async fn disable_leased(&self, owner: LeaseOwner, tenant: TenantId, id: DeliveryId) -> Result<bool, StorageError> {
        self.store.disable_leased(owner, tenant, id).await
    }

    async fn release_leases(&self, owner: LeaseOwner) -> Result<u64, StorageError> {
        self.store.release_leases(owner).await
    }

    async fn list_deliveries(
        &self,
        tenant: TenantId,
        app: AppId,
        after: Option<&DeliveryPosition>,
        limit: usize,
    ) -> Result<Vec<DeliveryRecord>, StorageError> {
        self.store.list_deliveries(tenant, app, after, limit).await
    }

    async fn find_delivery(&self, tenant: TenantId, id: DeliveryId) -> Result<Option<DeliveryRecord>, StorageError> {
        self.store.find_delivery(tenant, id).await
    }

    async fn redeliver(
        &self,
        tenant: TenantId,
        id: DeliveryId,
        now: Timestamp,
        audit: &AuditEntry,
    ) -> Result<bool, StorageError> {
        self.store.redeliver(tenant, id, now, audit).await
    }

    async fn failed_deliveries(&self, tenant: TenantId, limit: usize) -> Result<Vec<DeliveryRecord>, StorageError> {
        self.store.failed_deliveries(tenant, limit).await
    }
}

/// A dispatcher over `store` that only its waker and a poll once an hour can start.
async fn observed_dispatcher(world: &World, store: Arc<Observed>) -> clickwrap_webhooks::RunningDispatcher {
    let mut config = world.config();
    config.poll_interval = Duration::from_secs(3600);
    config.concurrency = 64;
    config.batch_size = 32;
    let service = support::service_with_deliveries(&store.store, store.clone()).await;
    Dispatcher::new(config, service).unwrap().start()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wake_ups_given_during_a_claim_fold_into_one_more_claim() {
    let world = World::new().await;
    let receiver = Receiver::start(&world.tls, |_| Reply::status(200)).await;
    let (app, _) = world.app(&receiver.url("/hook")).await;
    let store = Observed::new(world.db.store());
    let gate = store.claim_gate.lock().await;
    let running = observed_dispatcher(&world, store.clone()).await;
    while store.claims.load(Ordering::SeqCst) == 0 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }

    // A burst of verifications while the dispatcher's first claim is in flight, each waking it.
    let mut events = Vec::new();
    for _ in 0..20 {
        events.push(world.verified_event(&app).await);
        running.waker().wake();
    }
    drop(gate);
    world.wait_for_deliveries(&events, SOON, state(DeliveryState::Delivered)).await;
    assert_eq!(receiver.received().len(), 20);
    assert_eq!(
        store.claims.load(Ordering::SeqCst),
        2,
        "the claim in flight takes the burst; the twenty wake-ups make one more claim, not twenty"
    );
    running.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn attempts_that_finish_during_a_record_are_recorded_together_by_the_next() {
    let world = World::new().await;
    let receiver = Receiver::start(&world.tls, |request| match request.path.as_str() {
        "/fail" => Reply::status(500),
        _ => Reply::status(200),
    })
    .await;
    let (good, _) = world.app(&receiver.url("/ok")).await;
    let (bad, _) = world.app(&receiver.url("/fail")).await;
    let mut delivered = Vec::new();
    let mut retried = Vec::new();
    for i in 0..12 {
        if i % 4 == 0 {
            retried.push(world.verified_event(&bad).await);
        } else {
            delivered.push(world.verified_event(&good).await);
        }
    }
    let store = Observed::new(world.db.store());
    let gate = store.record_gate.lock().await;
    let running = observed_dispatcher(&world, store.clone()).await;
    // Every attempt is over (counted) and waits for the recorder, which waits at the gate.
    let deadline = Instant::now() + SOON;
    while running.stats().attempts < 12 {
        assert!(Instant::now() < deadline, "attempts made: {:?}", running.stats());
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    drop(gate);

    world.wait_for_deliveries(&delivered, SOON, state(DeliveryState::Delivered)).await;
    let records = world.wait_for_deliveries(&retried, SOON, |r: &DeliveryRecord| r.delivery.attempts == 1).await;
    assert!(records.iter().all(|r| r.delivery.state == DeliveryState::Pending && r.attempts.len() == 1));
    let batches = store.record_batches();
    assert_eq!(batches.iter().sum::<usize>(), 12, "{batches:?}");
    assert!(batches.len() <= 2, "the first statement's batch, then everything that finished meanwhile: {batches:?}");
    let report = running.shutdown().await;
    assert_eq!((report.stats.delivered, report.stats.failed), (9, 0));
}
