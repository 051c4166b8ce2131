//! The heavy end user: one end user holding one event in twenty of the dataset, whose consent
//! snapshot must cost what a new end user's costs. Measured through the two routes that read it:
//! the SDK check `GET /clickwrap` of each template and the status route over every template, for
//! the heavy end user and for one without events, interleaved on one connection after a warm-up
//! (by then the snapshot statement has run far more than the five times after which PostgreSQL may
//! plan a prepared statement generically).

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use hyper::Method;
use serde_json::{Value, json};

use super::client::{Connection, query_value};
use super::data::{Installation, PUBLIC};

/// The end user with the long history (outside the `bench-user-*` numbering).
pub(crate) const HEAVY_END_USER: &str = "bench-heavy-user";
/// An end user without any event.
const NEW_END_USER: &str = "bench-new-user";
/// Heavy over new, at most (p50 of each route).
pub(crate) const GOAL_RATIO: f64 = 1.5;
/// Rounds before the measured ones: every route for both end users, ten checks and a status each.
const WARM_UP_ROUNDS: usize = 20;
/// Where the heavy end user's requests come from (the check is rate limited by address).
const CLIENT_ADDRESS: &str = "10.255.0.1";

/// How many events the heavy end user gets so that they hold one event in twenty of the whole
/// table: one for every nineteen of the others.
pub(crate) fn heavy_events(other_events: u64) -> u64 {
    other_events / 19
}

/// The heavy end user's events, written into the `bench_templates` table the fill made: spread
/// evenly over the templates and over the time since version 1.1 came into force (so major 1, then
/// major 2), one in seven declined, and, in the last three days (still verifiable), one in five
/// left unverified. Each template's last event is a verified acceptance of the current version, so
/// this end user need not accept anything.
pub(crate) fn events_sql(app_id: &str, events: u64, templates: usize) -> String {
    let per_template = (events / templates.max(1) as u64).max(1);
    format!(
        "
INSERT INTO clickwrap_events (id, tenant_id, app_id, template_id, template_name, version_major, version_minor,
    effective_at, end_user_id, action, status, language, content_hash, template_placeholders, technical_metadata,
    presentation_mode, agreement_mode, accept_label, checkbox_label, presented_at, action_at, verified_at)
SELECT md5('bench-heavy-event:' || i || ':' || t.k)::uuid, a.tenant_id, a.id, t.template_id, t.name,
       CASE WHEN s.older THEN t.old_major ELSE t.major END, CASE WHEN s.older THEN t.old_minor ELSE t.minor END,
       CASE WHEN s.older THEN t.old_effective_at ELSE t.effective_at END,
       '{HEAVY_END_USER}', s.action, CASE WHEN s.pending THEN 'UNVERIFIED' ELSE s.action END, 'en',
       CASE WHEN s.older THEN t.old_content_hash ELSE t.content_hash END, NULL,
       json_build_object('ip', '{CLIENT_ADDRESS}', 'userAgent', 'Mozilla/5.0 (bench)')::text,
       'DIALOG', 'SCROLL', 'Accept', NULL, s.action_at - interval '20 seconds', s.action_at,
       CASE WHEN s.pending THEN NULL ELSE s.action_at + interval '1 second' END
FROM apps a
CROSS JOIN bench_templates t
CROSS JOIN generate_series(0, {last}) AS i
CROSS JOIN LATERAL (SELECT i = {last} AS final,
       t.old_effective_at + (i::float8 / {per_template}) * (now() - interval '1 hour' - t.old_effective_at)
           AS action_at) AS f
CROSS JOIN LATERAL (SELECT f.action_at, f.action_at < t.effective_at AS older,
       CASE WHEN i % 7 = 3 AND NOT f.final THEN 'DECLINED' ELSE 'ACCEPTED' END AS action,
       f.action_at > now() - interval '3 days' AND i % 5 = 2 AND NOT f.final AS pending) AS s
WHERE a.id = '{app_id}';
",
        last = per_template - 1,
    )
}

/// p50 latencies of each route for both end users.
#[derive(Debug)]
pub(crate) struct HeavyUser {
    pub(crate) rounds: usize,
    pub(crate) check_heavy: Duration,
    pub(crate) check_new: Duration,
    pub(crate) status_heavy: Duration,
    pub(crate) status_new: Duration,
}

impl HeavyUser {
    pub(crate) fn check_ratio(&self) -> f64 {
        ratio(self.check_heavy, self.check_new)
    }

    pub(crate) fn status_ratio(&self) -> f64 {
        ratio(self.status_heavy, self.status_new)
    }

    /// Why the figures fail the goal, if they do.
    pub(crate) fn problems(&self) -> Vec<String> {
        let mut problems = Vec::new();
        for (route, ratio) in [("GET /clickwrap", self.check_ratio()), ("status", self.status_ratio())] {
            if ratio.is_nan() || ratio > GOAL_RATIO {
                problems.push(format!(
                    "the heavy end user's {route} takes {ratio:.2} times a new end user's (at most {GOAL_RATIO})"
                ));
            }
        }
        problems
    }

    pub(crate) fn to_json(&self) -> Value {
        let ms = super::super::millis;
        json!({
            "end_user": HEAVY_END_USER,
            "share_of_events": "1 in 20",
            "rounds": self.rounds,
            "check_p50_ms": {"heavy": ms(self.check_heavy), "new": ms(self.check_new), "ratio": self.check_ratio()},
            "status_p50_ms": {"heavy": ms(self.status_heavy), "new": ms(self.status_new), "ratio": self.status_ratio()},
            "goal_ratio_at_most": GOAL_RATIO,
        })
    }
}

fn ratio(part: Duration, whole: Duration) -> f64 {
    if whole.is_zero() { f64::NAN } else { part.as_secs_f64() / whole.as_secs_f64() }
}

/// Per route and end user, the latencies of one round's requests.
#[derive(Default)]
struct Samples {
    check_heavy: Vec<Duration>,
    check_new: Vec<Duration>,
    status_heavy: Vec<Duration>,
    status_new: Vec<Duration>,
}

/// Measures `rounds` rounds after the warm-up, checking each answer against the data: the heavy
/// end user accepted every template's current version, the new one none.
pub(crate) async fn measure(
    address: SocketAddr,
    installation: &Installation,
    rounds: usize,
) -> Result<HeavyUser, String> {
    let mut connection = Connection::open(address).await?;
    let mut samples = Samples::default();
    for round in 0..WARM_UP_ROUNDS + rounds {
        let mut this = Samples::default();
        for template in &installation.templates {
            for (end_user, latencies) in [(HEAVY_END_USER, &mut this.check_heavy), (NEW_END_USER, &mut this.check_new)]
            {
                let path = format!(
                    "{PUBLIC}/clickwrap?appId={}&clickwrapTemplateId={}&endUserId={}",
                    installation.app.app_id,
                    template.id,
                    query_value(end_user)
                );
                let started = Instant::now();
                let answer = connection.send(Method::GET, &path, &[("x-forwarded-for", CLIENT_ADDRESS)], None).await?;
                latencies.push(started.elapsed());
                let required =
                    answer.expect(200, "the heavy-user check")?.get("acceptanceRequired").and_then(Value::as_bool);
                if required != Some(end_user == NEW_END_USER) {
                    return Err(format!("{end_user}: acceptanceRequired is {required:?}, not as filled"));
                }
            }
        }
        let credentials = installation.app.credentials();
        for (end_user, latencies) in [(HEAVY_END_USER, &mut this.status_heavy), (NEW_END_USER, &mut this.status_new)] {
            let path = format!("{PUBLIC}/clickwraps/{}/status", query_value(end_user));
            let started = Instant::now();
            let answer = connection.send(Method::GET, &path, &credentials, None).await?;
            latencies.push(started.elapsed());
            let status = answer.expect(200, "the heavy-user status")?;
            let status = status.get("status").and_then(Value::as_str).map(str::to_owned);
            let expected = if end_user == NEW_END_USER { "NO_DATA" } else { "ACCEPTED" };
            if status.as_deref() != Some(expected) {
                return Err(format!("{end_user}: the status is {status:?}, not {expected}"));
            }
        }
        if round >= WARM_UP_ROUNDS {
            samples.check_heavy.append(&mut this.check_heavy);
            samples.check_new.append(&mut this.check_new);
            samples.status_heavy.append(&mut this.status_heavy);
            samples.status_new.append(&mut this.status_new);
        }
    }
    let p50 = |mut latencies: Vec<Duration>| {
        latencies.sort_unstable();
        super::super::percentile(&latencies, 50)
    };
    Ok(HeavyUser {
        rounds,
        check_heavy: p50(samples.check_heavy),
        check_new: p50(samples.check_new),
        status_heavy: p50(samples.status_heavy),
        status_new: p50(samples.status_new),
    })
}
