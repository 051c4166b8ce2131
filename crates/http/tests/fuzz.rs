//! Property-based fuzzing of what the HTTP adapter reads from the network before the domain sees
//! it: query strings (decoding, repeated and unknown parameters, credentials in the query),
//! `templatePlaceholders` URL-encoded inside a URL-encoded query, language lists, Signatures in
//! verify bodies, and `X-Forwarded-For`. Every answer is the one the rules call for, and never a
//! 5xx.
//!
//! The routes run over a real database, so their inputs are drawn from proptest strategies up
//! front and sent one after another (a failure prints its input; there is no shrinking). The
//! default number of cases is small; set `PROPTEST_CASES` for a deeper run.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)] // test code

mod common;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use actix_web::http::header::HeaderValue;
use actix_web::test::TestRequest;
use clickwrap_domain::content::escape_html;
use clickwrap_domain::webhooks::cidr::Cidr;
use clickwrap_domain::{EndUserId, Language, LanguagePreference, TemplateId, Timestamp};
use clickwrap_http::client_ip::TrustedProxies;
use common::{V1, WithApp, act, get, harness, operator, post, template, verify};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, TestRunner};
use serde_json::{Value, json};

/// The number of cases per property: `PROPTEST_CASES` when set, else `default`.
fn cases(default: u32) -> Config {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|value| value.parse().ok()).unwrap_or(default);
    Config { cases, failure_persistence: None, ..Config::default() }
}

/// Values drawn from `strategy`, as many as the configuration's cases.
fn samples<S: Strategy>(strategy: S, default_cases: u32) -> Vec<S::Value> {
    let config = cases(default_cases);
    let count = config.cases;
    let mut runner = TestRunner::new(config);
    (0..count).map(|_| strategy.new_tree(&mut runner).unwrap().current()).collect()
}

/// Text of every kind: any characters, arbitrary bytes read lossily, long runs.
fn hostile_text() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => any::<String>(),
        2 => prop::collection::vec(any::<u8>(), 0..40).prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
        1 => (prop::sample::select(vec!["a", "é", "%", "&", "=", "+"]), 200..2000usize).prop_map(|(u, n)| u.repeat(n)),
    ]
}

/// A query string with `pairs`, encoded the way `encoding` says: form encoding (`+` for a
/// space) or every byte that is not a letter or digit as `%XX`.
fn encoded_query(pairs: &[(String, String)], percent_everything: bool) -> String {
    let encode = |text: &str| -> String {
        if percent_everything {
            text.bytes()
                .map(|b| if b.is_ascii_alphanumeric() { char::from(b).to_string() } else { format!("%{b:02X}") })
                .collect()
        } else {
            form_urlencoded::byte_serialize(text.as_bytes()).collect()
        }
    };
    pairs.iter().map(|(name, value)| format!("{}={}", encode(name), encode(value))).collect::<Vec<_>>().join("&")
}

/// A peer address per case, so rate limits (per app and IP) never decide an answer.
fn peer(case: usize) -> SocketAddr {
    let [_, _, c, d] = u32::try_from(case).unwrap().to_be_bytes();
    SocketAddr::new(IpAddr::V4(Ipv4Addr::new(198, 18, c, d)), 40000)
}

const EVENT_PARAMETERS: [&str; 7] =
    ["clickwrapEventStatus", "clickwrapTemplateId", "endUserId", "from", "to", "limit", "nextPageCursor"];

/// Whether a parameter's value is valid.
type Rule = fn(&str) -> bool;

/// What `GET /clickwrap-events` must answer to `pairs`: a status and, for errors, the code.
fn expected_list_answer(pairs: &[(String, String)], genuine_cursor: &str) -> (u16, Option<&'static str>) {
    let folded = |name: &str| -> String {
        name.chars().filter(|c| *c != '-' && *c != '_').flat_map(char::to_lowercase).collect()
    };
    if pairs.iter().any(|(name, _)| matches!(folded(name).as_str(), "xappid" | "xappkey" | "appkey")) {
        return (401, Some("UNAUTHORIZED"));
    }
    let invalid = (400, Some("VALIDATION_FAILED"));
    // A parameter the operation does not document is refused, not ignored.
    if pairs.iter().any(|(name, _)| !EVENT_PARAMETERS.contains(&name.as_str())) {
        return invalid;
    }
    let value = |name: &str| -> Result<Option<&str>, ()> {
        let mut values = pairs.iter().filter(|(n, _)| n == name).map(|(_, v)| v.as_str());
        let first = values.next();
        if values.next().is_some() { Err(()) } else { Ok(first) }
    };
    let valid = |name: &str, rule: Rule| value(name).map(|v| v.is_none_or(rule)).unwrap_or(false);
    let checks: [(&str, Rule); 6] = [
        ("clickwrapEventStatus", |v| v == "ACCEPTED" || v == "DECLINED"),
        ("clickwrapTemplateId", |v| TemplateId::parse(v).is_ok()),
        ("endUserId", |v| EndUserId::parse(v).is_ok()),
        ("from", |v| Timestamp::parse_rfc3339(v).is_ok()),
        ("to", |v| Timestamp::parse_rfc3339(v).is_ok()),
        ("limit", |v| v.parse::<i64>().is_ok_and(|n| (1..=100).contains(&n))),
    ];
    if checks.iter().any(|(name, rule)| !valid(name, *rule)) {
        return invalid;
    }
    let Ok(cursor) = value("nextPageCursor") else { return invalid };
    if cursor == Some("") {
        return (400, Some("INVALID_CURSOR"));
    }
    let time = |name| value(name).unwrap().map(|v| Timestamp::parse_rfc3339(v).unwrap());
    if let (Some(from), Some(to)) = (time("from"), time("to"))
        && from > to
    {
        return (400, Some("INVALID_RANGE"));
    }
    // The genuine cursor was made for the list without filters; with any filter it is another
    // list's cursor.
    let filtered = EVENT_PARAMETERS[..5].iter().any(|name| value(name).unwrap().is_some());
    match cursor {
        None => (200, None),
        Some(cursor) if cursor == genuine_cursor && !filtered => (200, None),
        Some(_) => (400, Some("INVALID_CURSOR")),
    }
}

fn event_query(template_id: String, genuine_cursor: String) -> impl Strategy<Value = (Vec<(String, String)>, bool)> {
    let value = move |name: &str| -> BoxedStrategy<String> {
        let template_id = template_id.clone();
        let genuine_cursor = genuine_cursor.clone();
        let valid: BoxedStrategy<String> = match name {
            "clickwrapEventStatus" => prop::sample::select(vec!["ACCEPTED", "DECLINED", "accepted", "UNVERIFIED", ""])
                .prop_map(str::to_owned)
                .boxed(),
            "clickwrapTemplateId" => prop_oneof![
                Just(template_id.clone()),
                Just(template_id.to_uppercase()),
                any::<u128>().prop_map(|b| uuid::Uuid::from_u128(b).to_string()),
                Just(template_id.replace('-', "")),
            ]
            .boxed(),
            "endUserId" => prop_oneof![
                (1..6u8).prop_map(|n| format!("user-{n}")),
                Just(String::new()),
                Just("a".repeat(257)),
                Just("x\ny".to_owned())
            ]
            .boxed(),
            "from" | "to" => prop_oneof![
                (0i64..4_102_444_800_000).prop_map(|ms| Timestamp::from_unix_millis(ms).unwrap().to_rfc3339()),
                Just("2026-11-22T08:15:03.123+01:00".to_owned()),
                Just("2026-11-22 07:15:03Z".to_owned()),
                Just("yesterday".to_owned()),
            ]
            .boxed(),
            "limit" => prop_oneof![
                (1i64..=100).prop_map(|n| n.to_string()),
                prop::sample::select(vec!["0", "101", "-1", "+5", " 5", "5.0", "1e1", "", "99999999999999999999"])
                    .prop_map(str::to_owned),
            ]
            .boxed(),
            "nextPageCursor" => prop_oneof![
                3 => Just(genuine_cursor),
                1 => Just(String::new()),
                1 => "c1\\.[a-z0-9-]{1,4}\\.[0-9a-f]{112}",
            ]
            .boxed(),
            _ => Just(String::new()).boxed(),
        };
        prop_oneof![4 => valid, 1 => hostile_text()].boxed()
    };
    let known =
        prop::sample::select(EVENT_PARAMETERS.to_vec()).prop_flat_map(move |name| (Just(name.to_owned()), value(name)));
    let unknown = (
        prop::sample::select(vec!["foo", "LIMIT", "status", "", "limit ", "appId", "x-app-keys", "page"])
            .prop_map(str::to_owned),
        hostile_text(),
    );
    let credentials = (
        prop::sample::select(vec!["appKey", "x-app-key", "X_APP_ID", "APP_KEY", "x-App-Id", "app_key"])
            .prop_map(str::to_owned),
        Just("secret".to_owned()),
    );
    (prop::collection::vec(prop_oneof![12 => known, 3 => unknown, 1 => credentials], 0..6), any::<bool>())
}

#[actix_web::test]
async fn any_events_list_query_gets_the_answer_its_parameters_call_for() {
    let h = harness().await;
    let op = operator(&h, None).await;
    let t = template(&h, &op, "<p>Hello {{fullName}}</p>").await;
    for (user, action) in [("user-1", "ACCEPTED"), ("user-2", "DECLINED"), ("user-3", "ACCEPTED")] {
        let recorded = act(&h, &op, &t, user, action).await;
        verify(&h, &op, recorded["serviceSignature"].as_str().unwrap()).await.expect(200);
    }
    let first = h.call(get(&format!("{V1}/clickwrap-events?limit=1")).app(&op)).await.expect(200).json();
    let genuine_cursor = first["nextPageCursor"].as_str().unwrap().to_owned();

    for (case, (pairs, percent_everything)) in
        samples(event_query(t.clone(), genuine_cursor.clone()), 64).into_iter().enumerate()
    {
        let query = encoded_query(&pairs, percent_everything);
        let reply = h.call(get(&format!("{V1}/clickwrap-events?{query}")).peer_addr(peer(case)).app(&op)).await;
        let (status, code) = expected_list_answer(&pairs, &genuine_cursor);
        assert_eq!(reply.status.as_u16(), status, "{pairs:?}\n{query}\n{}", String::from_utf8_lossy(&reply.body));
        match code {
            Some(code) => {
                reply.problem(status, code);
            }
            None => {
                let page = reply.json();
                let items = page["items"].as_array().unwrap();
                let limit = pairs.iter().find(|(n, _)| n == "limit").map_or(20, |(_, v)| v.parse().unwrap());
                assert!(items.len() <= limit, "{pairs:?}");
                for (name, value) in &pairs {
                    for item in items {
                        match name.as_str() {
                            "clickwrapEventStatus" | "endUserId" => assert_eq!(item[name], *value, "{pairs:?}"),
                            "clickwrapTemplateId" => assert_eq!(item[name], value.to_lowercase(), "{pairs:?}"),
                            _ => {}
                        }
                    }
                }
            }
        }
    }
}

/// A language list as clients write it, now and then broken.
fn language_list() -> impl Strategy<Value = String> {
    let tag = prop_oneof![
        prop::sample::select(vec!["en", "de", "DE-at", "fr", "zh-Hans-CN", "ja", "de_CH", "x", "e n", "<script>", ""])
            .prop_map(str::to_owned),
        "[a-zA-Z]{2,9}(-[a-zA-Z0-9]{1,9}){0,2}",
    ];
    prop_oneof![
        6 => prop::collection::vec(tag, 0..4).prop_map(|tags| tags.join(",")),
        1 => Just(vec!["en"; 17].join(",")),
        1 => hostile_text(),
    ]
}

/// Percent-encodes every `%` and every character `encode` picks, as a client encodes a
/// placeholder value once.
fn encoded_once(value: &str, encode: &[bool]) -> String {
    value
        .chars()
        .zip(encode.iter().cycle())
        .map(|(c, &pick)| {
            if c == '%' || pick {
                let mut buffer = [0; 4];
                c.encode_utf8(&mut buffer).bytes().map(|b| format!("%{b:02X}")).collect()
            } else {
                c.to_string()
            }
        })
        .collect()
}

#[derive(Debug, Clone)]
struct CheckCase {
    end_user_id: String,
    language: Option<String>,
    full_name: String,
    encode: Vec<bool>,
    percent_everything: bool,
}

fn check_case() -> impl Strategy<Value = CheckCase> {
    (
        prop_oneof![6 => "[a-zA-Z0-9@._-]{1,20}", 1 => hostile_text()],
        prop::option::of(language_list()),
        prop_oneof![3 => "\\PC{0,20}", 1 => "[<>&\"'%+ ]{0,10}", 1 => hostile_text()],
        prop::collection::vec(any::<bool>(), 1..5),
        any::<bool>(),
    )
        .prop_map(|(end_user_id, language, full_name, encode, percent_everything)| CheckCase {
            end_user_id,
            language,
            full_name,
            encode,
            percent_everything,
        })
}

#[actix_web::test]
async fn placeholder_values_encoded_once_inside_an_encoded_query_are_shown_as_sent() {
    let h = harness().await;
    let op = operator(&h, None).await;
    let t = template(&h, &op, "<p>Hello {{fullName}}</p>").await;

    for (case, c) in samples(check_case(), 48).into_iter().enumerate() {
        let placeholders = json!({"fullName": encoded_once(&c.full_name, &c.encode)}).to_string();
        let mut pairs = vec![
            ("appId".to_owned(), op.app_id.clone()),
            ("clickwrapTemplateId".to_owned(), t.clone()),
            ("endUserId".to_owned(), c.end_user_id.clone()),
            ("templatePlaceholders".to_owned(), placeholders),
        ];
        if let Some(language) = &c.language {
            pairs.push(("language".to_owned(), language.clone()));
        }
        let query = encoded_query(&pairs, c.percent_everything);
        let reply = h.call(get(&format!("{V1}/clickwrap?{query}")).peer_addr(peer(case))).await;

        let user_ok = !c.end_user_id.is_empty() && EndUserId::parse(&c.end_user_id).is_ok();
        let language = c.language.as_deref().map(LanguagePreference::parse).transpose();
        let too_long = c.full_name.chars().count() > 1000;
        let (Ok(language), true, false) = (language, user_ok, too_long) else {
            reply.problem(400, "VALIDATION_FAILED");
            continue;
        };
        let body = reply.expect(200).json();
        let shown = language.unwrap_or_default().resolve(&[Language::English, Language::German], Language::English);
        let expected = match shown {
            Some(Language::German) => format!("<p>Bedingungen für {}</p>", escape_html(&c.full_name)),
            _ => format!("<p>Hello {}</p>", escape_html(&c.full_name)),
        };
        assert_eq!(body["content"], expected, "{c:?}\n{query}");
        assert_eq!(body["language"], shown.unwrap().code());
    }
}

#[actix_web::test]
async fn any_text_as_a_signature_is_refused_and_nothing_is_recorded() {
    let h = harness().await;
    let op = operator(&h, None).await;
    let t = template(&h, &op, "<p>Hello</p>").await;
    let genuine = act(&h, &op, &t, "user-1", "ACCEPTED").await["serviceSignature"].as_str().unwrap().to_owned();

    let signatures = prop_oneof![
        3 => hostile_text(),
        // The genuine Signature with one character changed, or cut, or with text appended.
        3 => (any::<prop::sample::Index>(), any::<char>(), 0u8..3, "\\PC{1,4}").prop_map({
            let genuine = genuine.clone();
            move |(at, c, how, tail)| {
                let i = at.index(genuine.len());
                match how {
                    0 => {
                        let mut changed: Vec<char> = genuine.chars().collect();
                        changed[i] = c;
                        changed.into_iter().collect()
                    }
                    1 => genuine[..i].to_owned(),
                    _ => format!("{genuine}{tail}"),
                }
            }
        }),
    ];
    for (case, signature) in samples(signatures, 48).into_iter().enumerate() {
        if signature == genuine {
            continue;
        }
        let reply = h
            .call(
                post(&format!("{V1}/clickwrap/verify"), &json!({"serviceSignature": signature}))
                    .peer_addr(peer(case))
                    .app(&op),
            )
            .await;
        reply.problem(400, "INVALID_SIGNATURE");
    }
    // Bodies that are not the verify body at all.
    let bodies = prop_oneof![
        hostile_text().prop_map(Value::from),
        Just(json!({})),
        Just(json!({"serviceSignature": null})),
        Just(json!({"serviceSignature": 7})),
        Just(json!({"serviceSignature": ["x"]})),
        Just(json!([genuine.clone()])),
    ];
    for (case, body) in samples(bodies, 16).into_iter().enumerate() {
        let reply = h.call(post(&format!("{V1}/clickwrap/verify"), &body).peer_addr(peer(1000 + case)).app(&op)).await;
        reply.problem(400, "INVALID_JSON");
    }
    // Nothing above was recorded: the genuine Signature still verifies, once.
    verify(&h, &op, &genuine).await.expect(200);
    let page = h.call(get(&format!("{V1}/clickwrap-events")).app(&op)).await.expect(200).json();
    assert_eq!(page["items"].as_array().unwrap().len(), 1);
}

/// Client metadata of any shape: nested objects and arrays, long strings near the size limit,
/// nesting past what the JSON reader takes, and values that are not objects at all.
fn client_metadata() -> impl Strategy<Value = Option<Value>> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(Value::from),
        "\\PC{0,12}".prop_map(Value::from),
    ];
    let nested = leaf.prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::from),
            prop::collection::btree_map("\\PC{0,8}", inner, 0..6)
                .prop_map(|map| Value::Object(map.into_iter().collect())),
        ]
    });
    let object = prop::collection::btree_map("[a-zA-Z]{1,10}", nested, 0..6)
        .prop_map(|map| Value::Object(map.into_iter().collect()));
    prop_oneof![
        6 => object.prop_map(Some),
        // Around the 8 KiB limit of its JSON text: `{"k":"…"}` is 8 bytes and the string.
        2 => (8150usize..8220).prop_map(|n| Some(json!({"k": "x".repeat(n)}))),
        1 => prop::sample::select(vec![40usize, 200]).prop_map(|depth| {
            Some(json!({ "deep": (0..depth).fold(Value::Null, |inner, _| Value::from(vec![inner])) }))
        }),
        1 => Just(None),
        1 => prop_oneof![Just(json!([])), Just(json!("text")), Just(json!(1))].prop_map(Some),
    ]
}

/// A label as a client may send it: ordinary, blank, too long, with control characters.
fn label() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => "[A-Za-z ]{1,20}".prop_filter("not blank", |l| !l.trim().is_empty()),
        1 => prop::sample::select(vec!["", " ", "\t", "I\nagree", "a\u{0}"]).prop_map(str::to_owned),
        1 => (499usize..502).prop_map(|n| "é".repeat(n)),
        1 => hostile_text(),
    ]
}

fn depth(value: &Value) -> usize {
    match value {
        Value::Array(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
        Value::Object(fields) => 1 + fields.values().map(depth).max().unwrap_or(0),
        _ => 0,
    }
}

fn label_is_valid(label: &str) -> bool {
    !label.trim().is_empty() && label.chars().count() <= 500 && !label.chars().any(char::is_control)
}

#[actix_web::test]
async fn any_client_metadata_and_labels_are_recorded_as_sent_or_refused_by_the_limits() {
    let h = harness().await;
    let op = operator(&h, None).await;
    let t = template(&h, &op, "<p>Hello</p>").await;
    let view = h
        .call(get(&format!("{V1}/clickwrap?appId={}&clickwrapTemplateId={t}&endUserId=u", op.app_id)))
        .await
        .expect(200)
        .json();
    let cases = (
        client_metadata(),
        label(),
        prop::option::of(label()),
        prop_oneof![4 => "[a-z0-9-]{1,12}", 1 => hostile_text()],
    );
    let mut verified = 0;
    for (case, (metadata, accept_label, checkbox_label, user)) in samples(cases, 48).into_iter().enumerate() {
        let mut body = json!({
            "appId": op.app_id,
            "clickwrapTemplateId": t,
            "clickwrapTemplateVersion": view["clickwrapTemplateVersion"],
            "clickwrapTemplateVersionMinor": view["clickwrapTemplateVersionMinor"],
            "endUserId": user,
            "action": "ACCEPTED",
            "language": "en",
            "templatePlaceholders": null,
            "contentHash": view["contentHash"],
            "presentedAt": Timestamp::from_datetime(time::OffsetDateTime::now_utc()).to_rfc3339(),
            "presentation": {"mode": "DIALOG", "agreementMode": view["agreementMode"], "acceptLabel": accept_label,
                             "checkboxLabel": checkbox_label},
        });
        if let Some(metadata) = &metadata {
            body["clientMetadata"] = metadata.clone();
        }
        let reply = h.call(post(&format!("{V1}/clickwrap"), &body).peer_addr(peer(case))).await;

        let readable = match &metadata {
            None => true,
            // The JSON reader takes 128 levels of nesting, the body's own two included.
            Some(object @ Value::Object(_)) => 2 + depth(object) <= 128,
            Some(_) => false,
        };
        let within_limit = metadata.as_ref().is_none_or(|m| m.to_string().len() <= 8 * 1024);
        let valid = within_limit
            && label_is_valid(&accept_label)
            && checkbox_label.as_deref().is_none_or(label_is_valid)
            && EndUserId::parse(&user).is_ok();
        let context = format!(
            "{user:?} {accept_label:?} {checkbox_label:?} {}",
            metadata.as_ref().map(|m| m.to_string().chars().take(200).collect::<String>()).unwrap_or_default()
        );
        if !readable {
            assert_eq!(reply.status.as_u16(), 400, "{context}");
            reply.problem(400, "INVALID_JSON");
            continue;
        }
        if !valid {
            assert_eq!(reply.status.as_u16(), 400, "{context}");
            reply.problem(400, "VALIDATION_FAILED");
            continue;
        }
        let recorded = reply.expect(201).json();
        // The first few are verified: what the client said comes back exactly, inside technicalMetadata.
        if verified < 3 {
            verified += 1;
            let event = verify(&h, &op, recorded["serviceSignature"].as_str().unwrap()).await.expect(200).json();
            let technical: Value = serde_json::from_str(event["technicalMetadata"].as_str().unwrap()).unwrap();
            assert_eq!(technical["client"], metadata.unwrap_or_else(|| json!({})), "{context}");
            assert_eq!(event["endUserId"], user);
        }
    }
}

#[actix_web::test]
async fn numbers_in_client_metadata_are_recorded_to_the_last_digit() {
    // Found by fuzzing: JSON numbers were read to the nearest float only roughly, so a client's
    // 1.4468896506077345e18 was recorded as 1.4468896506077343e18.
    let h = harness().await;
    let op = operator(&h, None).await;
    let t = template(&h, &op, "<p>Hello</p>").await;
    let view = h
        .call(get(&format!("{V1}/clickwrap?appId={}&clickwrapTemplateId={t}&endUserId=u", op.app_id)))
        .await
        .expect(200)
        .json();
    let sent = json!({"n": 1.4468896506077345e18, "m": 9.783963716461506e266, "e": 2.5749277646498813e-264});
    let body = json!({
        "appId": op.app_id, "clickwrapTemplateId": t, "endUserId": "u", "action": "ACCEPTED", "language": "en",
        "clickwrapTemplateVersion": view["clickwrapTemplateVersion"],
        "clickwrapTemplateVersionMinor": view["clickwrapTemplateVersionMinor"],
        "contentHash": view["contentHash"],
        "presentedAt": Timestamp::from_datetime(time::OffsetDateTime::now_utc()).to_rfc3339(),
        "presentation": {"mode": "DIALOG", "agreementMode": view["agreementMode"], "acceptLabel": "OK"},
        "clientMetadata": sent,
    });
    let recorded = h.call(post(&format!("{V1}/clickwrap"), &body)).await.expect(201).json();
    let event = verify(&h, &op, recorded["serviceSignature"].as_str().unwrap()).await.expect(200).json();
    let technical: Value = serde_json::from_str(event["technicalMetadata"].as_str().unwrap()).unwrap();
    assert_eq!(technical["client"], sent);
}

#[actix_web::test]
async fn any_end_user_id_in_a_path_reads_back_as_sent() {
    let h = harness().await;
    let op = operator(&h, None).await;
    template(&h, &op, "<p>Hello</p>").await;
    let ids = prop_oneof![
        3 => "[a-zA-Z0-9._~-]{1,20}",
        3 => "[a-z/%?#&=+ @:;,éü\\[\\]]{1,20}",
        1 => hostile_text(),
    ];
    for (case, id) in samples(ids, 48).into_iter().enumerate() {
        // Every byte but unreserved characters percent-encoded, as encodeURIComponent does.
        let encoded: String = id
            .bytes()
            .map(|b| {
                if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                    char::from(b).to_string()
                } else {
                    format!("%{b:02X}")
                }
            })
            .collect();
        let reply = h.call(get(&format!("{V1}/clickwraps/{encoded}/status")).peer_addr(peer(case)).app(&op)).await;
        if id.is_empty() {
            // `/clickwraps//status` is no route.
            reply.problem(404, "ROUTE_NOT_FOUND");
        } else if EndUserId::parse(&id).is_ok() {
            let body = reply.expect(200).json();
            assert_eq!(body["endUserId"], id, "{encoded}");
            assert_eq!(body["status"], "NO_DATA");
        } else {
            assert_eq!(reply.status.as_u16(), 400, "{id:?} {encoded}");
        }
    }
}

/// Whether `accept` admits `media` by RFC 9110: the most specific matching range decides, a
/// weight (`q`, any case) of 0 refuses, and a JSON route also answers clients that take a `+json`
/// type (its errors are `application/problem+json`).
fn admits(accept: &str, media: &str) -> bool {
    if accept.trim().is_empty() {
        return true;
    }
    let ranges: Vec<(String, bool)> = accept
        .split(',')
        .map(|range| {
            let mut parts = range.split(';').map(str::trim);
            let name = parts.next().unwrap_or_default().to_ascii_lowercase();
            let refused = parts.any(|p| {
                let p = p.to_ascii_lowercase();
                p.strip_prefix("q=").and_then(|q| q.parse::<f32>().ok()).is_some_and(|q| q <= 0.0)
            });
            (name, !refused)
        })
        .collect();
    let kind = media.split('/').next().unwrap();
    let levels: [&dyn Fn(&str) -> bool; 3] = [
        &|r| r == media || (media == "application/json" && r.ends_with("+json")),
        &|r| r == format!("{kind}/*"),
        &|r| r == "*/*",
    ];
    for matches in levels {
        let mut matching = ranges.iter().filter(|(name, _)| matches(name)).peekable();
        if matching.peek().is_some() {
            return matching.any(|&(_, admitted)| admitted);
        }
    }
    false
}

fn accept_header() -> impl Strategy<Value = String> {
    let range = (
        prop::sample::select(vec![
            "application/json",
            "APPLICATION/JSON",
            "application/*",
            "*/*",
            "application/pdf",
            "application/octet-stream",
            "text/html",
            "application/problem+json",
            "application/vnd.api+json",
            "image/*",
            "application/jsonx",
        ]),
        prop::collection::vec(
            prop::sample::select(vec![";q=0", ";q=0.0", "; q=0.5", ";Q=0", ";q=1", ";level=1", ";q=abc", ";q=0.001"]),
            0..2,
        ),
    )
        .prop_map(|(range, params)| format!("{range}{}", params.concat()));
    prop_oneof![
        6 => (prop::collection::vec(range, 1..4), prop::sample::select(vec![",", ", ", " ,"]))
            .prop_map(|(ranges, comma)| ranges.join(comma)),
        1 => "[ -~]{0,30}",
    ]
}

#[actix_web::test]
async fn any_accept_header_gets_a_media_type_it_admits_or_406() {
    let h = harness().await;
    let op = operator(&h, None).await;
    let t = template(&h, &op, "<p>Hello</p>").await;
    let signature = act(&h, &op, &t, "user-1", "ACCEPTED").await["serviceSignature"].as_str().unwrap().to_owned();
    let event = verify(&h, &op, &signature).await.expect(200).json()["clickwrapEventId"].as_str().unwrap().to_owned();
    // A PDF also goes as `application/octet-stream` to a client that asks for that and not for PDF.
    let routes = [
        (format!("{V1}/clickwrap-templates"), "application/json", None),
        (format!("{V1}/clickwrap-events/{event}/certificate"), "application/pdf", Some("application/octet-stream")),
    ];
    for (case, accept) in samples(accept_header(), 48).into_iter().enumerate() {
        for (uri, media, generic) in &routes {
            let reply =
                h.call(get(uri).peer_addr(peer(case)).insert_header(("accept", accept.as_str())).app(&op)).await;
            let answered_as =
                if admits(&accept, media) { Some(*media) } else { generic.filter(|generic| admits(&accept, generic)) };
            if let Some(answered_as) = answered_as {
                let reply = reply.expect(200);
                assert!(reply.header("content-type").is_some_and(|t| t.starts_with(answered_as)), "{accept:?} {uri}");
            } else {
                assert_eq!(reply.status.as_u16(), 406, "{accept:?} {uri}");
                reply.problem(406, "NOT_ACCEPTABLE");
            }
        }
    }
}

#[actix_web::test]
async fn a_body_must_be_a_json_object_not_an_array_of_its_fields() {
    // Found by fuzzing: `["<Signature>"]` verified like `{"serviceSignature": "<Signature>"}`,
    // since derived deserializers also read a struct from an array of its fields.
    let h = harness().await;
    let op = operator(&h, None).await;
    let t = template(&h, &op, "<p>Hello</p>").await;
    let signature = act(&h, &op, &t, "user-1", "ACCEPTED").await["serviceSignature"].as_str().unwrap().to_owned();
    h.call(post(&format!("{V1}/clickwrap/verify"), &json!([signature])).app(&op)).await.problem(400, "INVALID_JSON");
    h.call(post(&format!("{V1}/clickwraps/re-accept"), &json!([["user-1"], [t]])).app(&op))
        .await
        .problem(400, "INVALID_JSON");
    h.call(
        post("/operator/v1/apps", &json!(["Shop", null, null]))
            .insert_header(("authorization", format!("Bearer {}", op.token))),
    )
    .await
    .problem(400, "INVALID_JSON");
    // The object form still works, and nothing was recorded before it.
    verify(&h, &op, &signature).await.expect(200);
}

/// The proxies of the forwarded-for tests: a private range and one IPv6 proxy.
fn proxies() -> TrustedProxies {
    TrustedProxies::new(vec!["10.0.0.0/8".parse::<Cidr>().unwrap(), "2001:db8:1::/48".parse().unwrap()])
}

fn trusted_proxy() -> impl Strategy<Value = IpAddr> {
    prop_oneof![
        any::<u32>().prop_map(|bits| IpAddr::V4(Ipv4Addr::from(0x0a00_0000 | (bits & 0x00ff_ffff)))),
        // The same proxies as a dual-stack socket reports them.
        any::<u32>().prop_map(|bits| IpAddr::V6(Ipv4Addr::from(0x0a00_0000 | (bits & 0x00ff_ffff)).to_ipv6_mapped())),
        any::<u64>().prop_map(|bits| IpAddr::V6(((0x2001_0db8_0001_u128 << 80) | u128::from(bits)).into())),
    ]
}

fn untrusted_address() -> impl Strategy<Value = IpAddr> {
    any::<IpAddr>().prop_filter("not a trusted proxy", |ip| {
        let proxies: [Cidr; 2] = ["10.0.0.0/8".parse().unwrap(), "2001:db8:1::/48".parse().unwrap()];
        !proxies.iter().any(|range| range.contains(*ip))
    })
}

/// What an attacker may put before the hops the proxies append: anything a header can hold.
fn forged_hops() -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(
        prop_oneof![
            trusted_proxy().prop_map(|ip| ip.to_string()),
            untrusted_address().prop_map(|ip| ip.to_string()),
            prop::sample::select(vec!["unknown", "", " ", "127.0.0.1:80", "[::1]", "_hidden", "1.2.3.4.5"])
                .prop_map(str::to_owned),
            "[ -~]{0,12}".prop_map(|s| s.replace(',', ";")),
        ],
        0..5,
    )
}

/// Writes hops as header lines: all in one, or split over several, with any spacing.
fn forwarded_request(peer: IpAddr, hops: &[String], split: &[bool], spacing: &str) -> TestRequest {
    let mut request = TestRequest::default().peer_addr(SocketAddr::new(peer, 443));
    let mut line: Vec<String> = Vec::new();
    for (i, hop) in hops.iter().enumerate() {
        line.push(hop.clone());
        if split.get(i).copied().unwrap_or(false) || i + 1 == hops.len() {
            request = request.append_header(("x-forwarded-for", line.join(&format!("{spacing},{spacing}"))));
            line.clear();
        }
    }
    request
}

proptest! {
    #![proptest_config(cases(256))]

    #[test]
    fn a_client_cannot_forge_its_address_past_trusted_proxies(
        forged in forged_hops(),
        client in untrusted_address(),
        proxies_after in prop::collection::vec(trusted_proxy(), 0..3),
        peer in trusted_proxy(),
        split in prop::collection::vec(any::<bool>(), 0..8),
        spacing in prop::sample::select(vec!["", " ", "  ", "\t"]),
    ) {
        // The first proxy appends the address it saw (the client's), each later one its peer's.
        let mut hops = forged.clone();
        hops.push(client.to_string());
        hops.extend(proxies_after.iter().map(IpAddr::to_string));
        let request = forwarded_request(peer, &hops, &split, spacing).to_http_request();
        prop_assert_eq!(proxies().client_ip(&request), Some(client), "{:?}", hops);
    }

    #[test]
    fn an_untrusted_peer_is_the_client_whatever_it_forwards(
        forged in forged_hops(),
        peer in untrusted_address(),
        split in prop::collection::vec(any::<bool>(), 0..8),
    ) {
        let request = forwarded_request(peer, &forged, &split, " ").to_http_request();
        prop_assert_eq!(proxies().client_ip(&request), Some(peer));
    }

    #[test]
    fn any_forwarded_header_yields_the_peer_or_one_of_its_hops(
        peer in prop_oneof![trusted_proxy(), untrusted_address()],
        raw in prop::collection::vec(prop::collection::vec(any::<u8>(), 0..60), 0..3),
    ) {
        let mut request = TestRequest::default().peer_addr(SocketAddr::new(peer, 443));
        for bytes in &raw {
            if let Ok(value) = HeaderValue::from_bytes(bytes) {
                request = request.append_header(("x-forwarded-for", value));
            }
        }
        let request = request.to_http_request();
        let client = proxies().client_ip(&request).unwrap();
        let named = raw.iter().any(|bytes| {
            String::from_utf8_lossy(bytes).split(',').any(|hop| hop.trim().parse::<IpAddr>() == Ok(client))
        });
        prop_assert!(client == peer || named, "{client} from {raw:?}");
    }
}
