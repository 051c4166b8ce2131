//! Prometheus text metrics: requests by route and status, latency histograms, verifications and
//! database pool use. Kept small and dependency-free.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use clickwrap_pdf::TimestampCounts;

/// The certificate renderer's timestamp outcomes, once a time-stamping authority is configured:
/// one renderer per process, made at start-up, so one set of counters.
static CERTIFICATE_TIMESTAMPS: OnceLock<Arc<TimestampCounts>> = OnceLock::new();

/// Makes `/metrics` show the certificate timestamp counters.
pub(crate) fn watch_certificate_timestamps(counts: Arc<TimestampCounts>) {
    let _ = CERTIFICATE_TIMESTAMPS.set(counts);
}

/// Upper bounds of the latency buckets, in seconds.
const BUCKETS: [f64; 12] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0];

#[derive(Debug, Default)]
struct Histogram {
    counts: [u64; BUCKETS.len()],
    sum: f64,
    count: u64,
}

/// (method, route pattern).
type RouteKey = (String, String);

/// What the retention purges delete (`clickwrap_purged_rows_total{kind}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Purged {
    UnverifiedEvents,
    WebhookDeliveries,
    WebhookAttempts,
}

impl Purged {
    const ALL: [Purged; 3] = [Purged::UnverifiedEvents, Purged::WebhookDeliveries, Purged::WebhookAttempts];

    fn label(self) -> &'static str {
        match self {
            Purged::UnverifiedEvents => "unverified_events",
            Purged::WebhookDeliveries => "webhook_deliveries",
            Purged::WebhookAttempts => "webhook_attempts",
        }
    }
}

#[derive(Debug, Default)]
pub(crate) struct Metrics {
    requests: Mutex<BTreeMap<(RouteKey, u16), u64>>,
    latency: Mutex<BTreeMap<RouteKey, Histogram>>,
    /// Rows this instance's purges deleted, indexed by [`Purged`].
    purged: [AtomicU64; 3],
}

impl Metrics {
    pub(crate) fn observe_request(&self, method: &str, route: &str, status: u16, elapsed: Duration) {
        // One owned key per request, shared by the counter and the histogram.
        let key = (method.to_owned(), route.to_owned());
        if let Ok(mut latency) = self.latency.lock() {
            let histogram = latency.entry(key.clone()).or_default();
            let seconds = elapsed.as_secs_f64();
            for (bound, count) in BUCKETS.iter().zip(histogram.counts.iter_mut()) {
                if seconds <= *bound {
                    *count += 1;
                }
            }
            histogram.sum += seconds;
            histogram.count += 1;
        }
        if let Ok(mut requests) = self.requests.lock() {
            *requests.entry((key, status)).or_default() += 1;
        }
    }

    /// Counts rows a purge of this instance deleted.
    pub(crate) fn count_purged(&self, kind: Purged, rows: u64) {
        if let Some(counter) = self.purged.get(kind as usize) {
            counter.fetch_add(rows, Ordering::Relaxed);
        }
    }

    /// The exposition text; `pool` is (connections open, connections idle, maximum).
    pub(crate) fn render(&self, pool: (usize, usize, usize)) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "# HELP clickwrap_http_requests_total HTTP requests by method, route and status.");
        let _ = writeln!(out, "# TYPE clickwrap_http_requests_total counter");
        let mut verifications = BTreeMap::<u16, u64>::new();
        if let Ok(requests) = self.requests.lock() {
            for (((method, route), status), count) in requests.iter() {
                let _ = writeln!(
                    out,
                    "clickwrap_http_requests_total{{method=\"{method}\",route=\"{}\",status=\"{status}\"}} {count}",
                    escape(route)
                );
                if route.ends_with("/clickwrap/verify") {
                    *verifications.entry(*status).or_default() += count;
                }
            }
        }
        let _ = writeln!(out, "# HELP clickwrap_verifications_total Signature verifications by outcome status.");
        let _ = writeln!(out, "# TYPE clickwrap_verifications_total counter");
        for (status, count) in &verifications {
            let _ = writeln!(out, "clickwrap_verifications_total{{status=\"{status}\"}} {count}");
        }
        let _ = writeln!(out, "# HELP clickwrap_http_request_duration_seconds Request latency by method and route.");
        let _ = writeln!(out, "# TYPE clickwrap_http_request_duration_seconds histogram");
        if let Ok(latency) = self.latency.lock() {
            for ((method, route), h) in latency.iter() {
                let labels = format!("method=\"{method}\",route=\"{}\"", escape(route));
                for (bound, count) in BUCKETS.iter().zip(h.counts.iter()) {
                    let _ = writeln!(
                        out,
                        "clickwrap_http_request_duration_seconds_bucket{{{labels},le=\"{bound}\"}} {count}"
                    );
                }
                let _ =
                    writeln!(out, "clickwrap_http_request_duration_seconds_bucket{{{labels},le=\"+Inf\"}} {}", h.count);
                let _ = writeln!(out, "clickwrap_http_request_duration_seconds_sum{{{labels}}} {}", h.sum);
                let _ = writeln!(out, "clickwrap_http_request_duration_seconds_count{{{labels}}} {}", h.count);
            }
        }
        let (open, idle, max) = pool;
        let _ = writeln!(out, "# HELP clickwrap_db_pool_connections Database connections of this instance.");
        let _ = writeln!(out, "# TYPE clickwrap_db_pool_connections gauge");
        let _ = writeln!(out, "clickwrap_db_pool_connections{{state=\"open\"}} {open}");
        let _ = writeln!(out, "clickwrap_db_pool_connections{{state=\"idle\"}} {idle}");
        let _ = writeln!(out, "clickwrap_db_pool_connections{{state=\"max\"}} {max}");
        let _ =
            writeln!(out, "# HELP clickwrap_purged_rows_total Rows this instance's retention purges deleted, by kind.");
        let _ = writeln!(out, "# TYPE clickwrap_purged_rows_total counter");
        for (kind, counter) in Purged::ALL.iter().zip(&self.purged) {
            let _ = writeln!(
                out,
                "clickwrap_purged_rows_total{{kind=\"{}\"}} {}",
                kind.label(),
                counter.load(Ordering::Relaxed)
            );
        }
        if let Some(counts) = CERTIFICATE_TIMESTAMPS.get() {
            out.push_str(&render_certificate_timestamps(counts));
        }
        out
    }
}

/// Certificates timestamped (PAdES B-T), and signed without a timestamp (B-B) because the
/// time-stamping authority failed.
pub(crate) fn render_certificate_timestamps(counts: &TimestampCounts) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# HELP clickwrap_certificate_timestamps_total Certificates of Acceptance whose signature was timestamped."
    );
    let _ = writeln!(out, "# TYPE clickwrap_certificate_timestamps_total counter");
    let _ = writeln!(out, "clickwrap_certificate_timestamps_total {}", counts.stamped());
    let _ = writeln!(
        out,
        "# HELP clickwrap_certificate_timestamp_failures_total Certificates of Acceptance signed without a timestamp because the time-stamping authority failed."
    );
    let _ = writeln!(out, "# TYPE clickwrap_certificate_timestamp_failures_total counter");
    let _ = writeln!(out, "clickwrap_certificate_timestamp_failures_total {}", counts.failed());
    out
}

/// The webhook dispatcher's counters since start.
pub(crate) fn render_webhooks(stats: &clickwrap_webhooks::DispatcherStats) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# HELP clickwrap_webhook_attempts_total Webhook delivery attempts made by this instance.");
    let _ = writeln!(out, "# TYPE clickwrap_webhook_attempts_total counter");
    let _ = writeln!(out, "clickwrap_webhook_attempts_total {}", stats.attempts);
    let _ = writeln!(
        out,
        "# HELP clickwrap_webhook_deliveries_total Webhook deliveries finished by this instance, by outcome."
    );
    let _ = writeln!(out, "# TYPE clickwrap_webhook_deliveries_total counter");
    for (outcome, count) in [("delivered", stats.delivered), ("failed", stats.failed), ("disabled", stats.disabled)] {
        let _ = writeln!(out, "clickwrap_webhook_deliveries_total{{outcome=\"{outcome}\"}} {count}");
    }
    let _ = writeln!(out, "# HELP clickwrap_webhook_in_flight Webhook attempts in flight.");
    let _ = writeln!(out, "# TYPE clickwrap_webhook_in_flight gauge");
    let _ = writeln!(out, "clickwrap_webhook_in_flight {}", stats.in_flight);
    out
}

/// The rate-limit counts this instance holds in memory (see `CLICKWRAP_RATE_LIMIT_SYNC_MS`).
pub(crate) fn render_rate_limits(unsynced_hits: u64, remembered_keys: usize) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# HELP clickwrap_rate_limit_unsynced_hits Rate-limited requests counted by this instance and not yet added to the shared counts."
    );
    let _ = writeln!(out, "# TYPE clickwrap_rate_limit_unsynced_hits gauge");
    let _ = writeln!(out, "clickwrap_rate_limit_unsynced_hits {unsynced_hits}");
    let _ = writeln!(
        out,
        "# HELP clickwrap_rate_limit_keys Rate-limit keys (app, client IP, route group) this instance counts in the current window."
    );
    let _ = writeln!(out, "# TYPE clickwrap_rate_limit_keys gauge");
    let _ = writeln!(out, "clickwrap_rate_limit_keys {remembered_keys}");
    out
}

fn escape(label: &str) -> String {
    label.replace('\\', "\\\\").replace('"', "\\\"")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_counters_histograms_and_the_pool() {
        let metrics = Metrics::default();
        metrics.observe_request("POST", "/public-client/v1/clickwrap/verify", 200, Duration::from_millis(3));
        metrics.observe_request("POST", "/public-client/v1/clickwrap/verify", 409, Duration::from_millis(30));
        let text = metrics.render((3, 1, 16));
        assert!(text.contains(
            "clickwrap_http_requests_total{method=\"POST\",route=\"/public-client/v1/clickwrap/verify\",status=\"200\"} 1"
        ));
        assert!(text.contains("clickwrap_verifications_total{status=\"409\"} 1"));
        assert!(text.contains("le=\"0.005\"} 1"));
        assert!(text.contains("le=\"+Inf\"} 2"));
        assert!(text.contains("clickwrap_db_pool_connections{state=\"max\"} 16"));
    }

    #[test]
    fn purged_rows_are_counted_by_kind_from_zero() {
        let metrics = Metrics::default();
        let text = metrics.render((0, 0, 1));
        for kind in ["unverified_events", "webhook_deliveries", "webhook_attempts"] {
            assert!(text.contains(&format!("clickwrap_purged_rows_total{{kind=\"{kind}\"}} 0")), "{text}");
        }
        metrics.count_purged(Purged::WebhookDeliveries, 500);
        metrics.count_purged(Purged::WebhookDeliveries, 7);
        metrics.count_purged(Purged::WebhookAttempts, 2028);
        metrics.count_purged(Purged::UnverifiedEvents, 3);
        let text = metrics.render((0, 0, 1));
        assert!(text.contains("clickwrap_purged_rows_total{kind=\"webhook_deliveries\"} 507"), "{text}");
        assert!(text.contains("clickwrap_purged_rows_total{kind=\"webhook_attempts\"} 2028"), "{text}");
        assert!(text.contains("clickwrap_purged_rows_total{kind=\"unverified_events\"} 3"), "{text}");
    }
}
