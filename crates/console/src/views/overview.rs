//! `GET /console`: usage against the quota, verified events of the last 30 days, failing webhooks.

use clickwrap_domain::Timestamp;
use clickwrap_domain::tenants::service::Usage;
use maud::{Markup, html};

use super::components::{Tone, badge, code, empty_state, group_digits, optional_time, time_tag};
use super::layout::Chrome;

/// Verified events of one day (UTC).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DayCount {
    pub day: time::Date,
    pub accepted: u64,
    pub declined: u64,
}

/// A webhook delivery that is failing or has failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FailingDelivery {
    pub delivery_id: String,
    pub app_id: String,
    pub app_name: String,
    pub event_id: String,
    pub attempts: u32,
    pub last_attempt_at: Option<Timestamp>,
    pub last_error: Option<String>,
}

/// The overview page; `days` in date order (normally the last 30).
pub fn page(chrome: &Chrome<'_>, usage: &Usage, days: &[DayCount], failing: &[FailingDelivery]) -> Markup {
    super::layout::page(
        chrome,
        "Overview",
        html! {
            h1 { "Overview" }
            div.grid-2 {
                (usage_card(usage))
                (failing_card(failing))
            }
            (chart_card(days))
        },
    )
}

fn usage_card(usage: &Usage) -> Markup {
    let used = usage.events_this_period;
    html! {
        section.card aria-labelledby="usage-heading" {
            h2 #usage-heading { "Usage this period" }
            p.period {
                "Period: " (time_tag(usage.period.start)) " to " (time_tag(usage.period.end))
            }
            @match usage.event_quota {
                Some(quota) => {
                    @let percent = used.saturating_mul(100).checked_div(quota).unwrap_or(100);
                    p.usage-figure {
                        strong { (group_digits(used)) }
                        " of " (group_digits(quota)) " verified events (" (percent) "%)"
                    }
                    label.visually-hidden for="usage-meter" { "Share of the event quota used" }
                    meter #usage-meter .usage-meter min="0" max=(quota) low=(quota / 10 * 8) high=(quota / 10 * 9)
                        optimum="0" value=(used.min(quota)) {
                        (percent) "%"
                    }
                    @if used >= quota {
                        p { (badge(Tone::Error, "Quota reached")) " New verifications are refused until the period ends." }
                    } @else if percent >= 90 {
                        p { (badge(Tone::Warn, "Nearly used up")) }
                    }
                }
                None => {
                    p.usage-figure { strong { (group_digits(used)) } " verified events" }
                    p { (badge(Tone::Neutral, "unlimited")) " This tenant has no event quota." }
                }
            }
        }
    }
}

fn failing_card(failing: &[FailingDelivery]) -> Markup {
    html! {
        section.card aria-labelledby="failing-heading" {
            h2 #failing-heading { "Failing webhooks" }
            @if failing.is_empty() {
                (empty_state("No failing webhooks."))
            } @else {
                ul.plain-list {
                    @for delivery in failing {
                        li.failing {
                            a href={ "/console/apps/" (delivery.app_id) "/webhooks" } { (delivery.app_name) }
                            " " (badge(Tone::Error, "FAILING"))
                            div.small {
                                "Event " (code(&delivery.event_id)) " · " (delivery.attempts)
                                @if delivery.attempts == 1 { " attempt" } @else { " attempts" }
                                " · last " (optional_time(delivery.last_attempt_at, "never tried"))
                            }
                            @if let Some(error) = &delivery.last_error {
                                div.small.error-text { (error) }
                            }
                        }
                    }
                }
            }
        }
    }
}

const CHART_WIDTH: u64 = 640;
const CHART_HEIGHT: u64 = 220;
const PLOT_LEFT: u64 = 48;
const PLOT_RIGHT: u64 = 8;
const PLOT_TOP: u64 = 12;
const PLOT_BOTTOM: u64 = 32;

fn chart_card(days: &[DayCount]) -> Markup {
    let accepted: u64 = days.iter().map(|d| d.accepted).sum();
    let declined: u64 = days.iter().map(|d| d.declined).sum();
    html! {
        section.card aria-labelledby="chart-heading" {
            h2 #chart-heading { "Verified events per day" }
            @if days.is_empty() {
                (empty_state("No data for the last 30 days."))
            } @else {
                ul.legend {
                    li { span.swatch.swatch-accepted aria-hidden="true" {} "Accepted (lower bar)" }
                    li { span.swatch.swatch-declined aria-hidden="true" {} "Declined (upper bar, hatched)" }
                }
                (chart(days, accepted, declined))
                // Wrapped: a table grows to its content whatever its own size says, so it is the
                // box around it that is clipped away.
                div.visually-hidden {
                    table {
                        caption { "Verified events per day (UTC)" }
                        thead { tr { th scope="col" { "Day" } th scope="col" { "Accepted" } th scope="col" { "Declined" } } }
                        tbody {
                            @for day in days {
                                tr { th scope="row" { (day.day) } td { (day.accepted) } td { (day.declined) } }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Stacked bars, accepted below declined, scaled to the busiest day.
fn chart(days: &[DayCount], accepted: u64, declined: u64) -> Markup {
    let first = days.first().map(|d| d.day.to_string()).unwrap_or_default();
    let last = days.last().map(|d| d.day.to_string()).unwrap_or_default();
    let peak = days.iter().map(|d| d.accepted.saturating_add(d.declined)).max().unwrap_or(0).max(1);
    let plot_height = CHART_HEIGHT - PLOT_TOP - PLOT_BOTTOM;
    let plot_width = CHART_WIDTH - PLOT_LEFT - PLOT_RIGHT;
    let count = u64::try_from(days.len()).unwrap_or(u64::MAX).max(1);
    let slot = plot_width as f64 / count as f64;
    let bar = (slot * 0.7).max(1.0);
    let baseline = PLOT_TOP + plot_height;
    let scale = |value: u64| value as f64 * plot_height as f64 / peak as f64;
    let middle = days.get(days.len() / 2).map(|d| d.day.to_string());
    html! {
        svg.chart xmlns="http://www.w3.org/2000/svg" viewBox={ "0 0 " (CHART_WIDTH) " " (CHART_HEIGHT) }
            role="img" aria-labelledby="chart-title chart-desc" preserveAspectRatio="xMidYMid meet" {
            title #chart-title { "Verified events per day, " (first) " to " (last) }
            desc #chart-desc {
                (group_digits(accepted)) " accepted and " (group_digits(declined)) " declined in "
                (days.len()) " days; the busiest day had " (group_digits(peak)) "."
            }
            defs {
                pattern #hatch patternUnits="userSpaceOnUse" width="6" height="6" patternTransform="rotate(45)" {
                    rect.hatch-bg width="6" height="6" {}
                    line.hatch-line x1="0" y1="0" x2="0" y2="6" {}
                }
            }
            line.axis x1=(PLOT_LEFT) y1=(baseline) x2=(CHART_WIDTH - PLOT_RIGHT) y2=(baseline) {}
            line.axis x1=(PLOT_LEFT) y1=(PLOT_TOP) x2=(PLOT_LEFT) y2=(baseline) {}
            line.gridline x1=(PLOT_LEFT) y1=(PLOT_TOP) x2=(CHART_WIDTH - PLOT_RIGHT) y2=(PLOT_TOP) {}
            text.axis-label x=(PLOT_LEFT - 6) y=(PLOT_TOP + 4) text-anchor="end" { (group_digits(peak)) }
            text.axis-label x=(PLOT_LEFT - 6) y=(baseline + 4) text-anchor="end" { "0" }
            text.axis-label x=(PLOT_LEFT) y=(CHART_HEIGHT - 10) text-anchor="start" { (first) }
            @if let Some(middle) = &middle {
                text.axis-label x=(PLOT_LEFT + plot_width / 2) y=(CHART_HEIGHT - 10) text-anchor="middle" { (middle) }
            }
            text.axis-label x=(CHART_WIDTH - PLOT_RIGHT) y=(CHART_HEIGHT - 10) text-anchor="end" { (last) }
            @for (index, day) in days.iter().enumerate() {
                @let x = PLOT_LEFT as f64 + slot * index as f64 + (slot - bar) / 2.0;
                @let accepted_height = scale(day.accepted);
                @let declined_height = scale(day.declined);
                g {
                    title { (day.day) ": " (day.accepted) " accepted, " (day.declined) " declined" }
                    @if day.accepted > 0 {
                        rect.bar-accepted x=(px(x)) y=(px(baseline as f64 - accepted_height)) width=(px(bar))
                            height=(px(accepted_height)) {}
                    }
                    @if day.declined > 0 {
                        rect.bar-declined x=(px(x)) y=(px(baseline as f64 - accepted_height - declined_height))
                            width=(px(bar)) height=(px(declined_height)) {}
                    }
                }
            }
        }
    }
}

/// A coordinate with two decimals at most.
fn px(value: f64) -> String {
    let text = format!("{value:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

#[cfg(test)]
mod tests {
    use clickwrap_domain::limits::quota::QuotaPeriod;
    use time::macros::date;

    use super::*;
    use crate::views::test_support::*;

    fn usage(quota: Option<u64>, used: u64) -> Usage {
        Usage { event_quota: quota, events_this_period: used, period: QuotaPeriod::containing(now()) }
    }

    fn days() -> Vec<DayCount> {
        (0..30)
            .map(|n| DayCount {
                day: date!(2026 - 05 - 17) + time::Duration::days(n),
                accepted: u64::try_from(n * 3).unwrap(),
                declined: u64::try_from(n % 4).unwrap(),
            })
            .collect()
    }

    fn failing() -> Vec<FailingDelivery> {
        vec![FailingDelivery {
            delivery_id: "d-1".into(),
            app_id: APP_ID.into(),
            app_name: HOSTILE.into(),
            event_id: LONG.into(),
            attempts: 4,
            last_attempt_at: Some(now()),
            last_error: Some("TIMEOUT".into()),
        }]
    }

    #[test]
    fn usage_chart_and_failing_webhooks() {
        let html = page(&admin(), &usage(Some(10_000), 1_234), &days(), &failing()).into_string();
        for needle in [
            "<h1>Overview</h1>",
            "1,234",
            "10,000",
            "(12%)",
            r#"min="0" max="10000""#,
            r#"<time datetime="2026-06-01T00:00:00.000Z">2026-06-01 00:00:00 UTC</time>"#,
            r#"role="img" aria-labelledby="chart-title chart-desc""#,
            "2026-05-17",
            "2026-06-15",
            "1,305 accepted and 43 declined in 30 days",
            "<caption>Verified events per day (UTC)</caption>",
            "Accepted (lower bar)",
            &format!(r#"href="/console/apps/{APP_ID}/webhooks""#),
            LONG,
            "TIMEOUT",
            "4 attempts",
        ] {
            assert!(html.contains(needle), "missing {needle}");
        }
        assert_eq!(html.matches("class=\"bar-accepted\"").count(), 29, "day 0 has no accepted events");
        assert_escaped(&html);
        assert_common_rules(&html);
    }

    #[test]
    fn unlimited_quota_and_empty_states() {
        let html = page(&viewer(), &usage(None, 7), &[], &[]).into_string();
        assert!(html.contains("unlimited"));
        assert!(!html.contains("<meter"));
        assert!(html.contains("No failing webhooks"));
        assert!(html.contains("No data for the last 30 days"));
        assert_common_rules(&html);
        assert_no_change_forms(&html);
    }

    #[test]
    fn quota_reached_is_said_in_words() {
        let html = page(&admin(), &usage(Some(100), 100), &days(), &[]).into_string();
        assert!(html.contains("Quota reached") && html.contains("(100%)"));
    }
}
