//! The dispatcher's settings, with the defaults of the spec and `CLICKWRAP_WEBHOOK_*` parsing.

use std::path::PathBuf;
use std::time::Duration;

use clickwrap_domain::webhooks::cidr::AllowCidrs;
use clickwrap_domain::webhooks::dispatch::RetryPolicy;

use crate::client::ClientSettings;
use crate::guard::AddressPolicy;

/// How the dispatcher runs.
#[derive(Debug, Clone)]
pub struct DispatcherConfig {
    /// Attempts in flight at once (per dispatcher).
    pub concurrency: usize,
    /// At most this many deliveries are claimed per query.
    pub batch_size: usize,
    /// The retry schedule (`CLICKWRAP_WEBHOOK_RETRY_DELAYS`, default 60,120,240 s).
    pub retry: RetryPolicy,
    /// How long a claimed delivery stays leased. Longer than the attempt's timeout, with room to
    /// record the result: when a dispatcher dies, its deliveries are taken over this long after
    /// they were claimed. Instances' clocks must agree to well within this.
    pub lease: Duration,
    /// How often the outbox is checked when no wake-up arrives (`CLICKWRAP_POLL_MS`, default 500
    /// ms): deliveries other instances verified, retries falling due and leases run out are found
    /// this way; this instance's verifications and redeliveries wake the dispatcher at once.
    pub poll_interval: Duration,
    /// On shutdown, how long attempts in flight may take to finish before they are cut off.
    pub shutdown_grace: Duration,
    pub client: ClientSettings,
}

impl Default for DispatcherConfig {
    fn default() -> Self {
        Self {
            concurrency: 64,
            batch_size: 32,
            retry: RetryPolicy::default(),
            lease: Duration::from_secs(60),
            poll_interval: Duration::from_millis(500),
            shutdown_grace: Duration::from_secs(10),
            client: ClientSettings::default(),
        }
    }
}

/// A setting that cannot work.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    #[error("{name}={value:?}: {reason}")]
    Invalid { name: &'static str, value: String, reason: String },
    #[error("the lease ({lease:?}) must be longer than the attempt timeout ({timeout:?})")]
    LeaseTooShort { lease: Duration, timeout: Duration },
    #[error("concurrency and batch size must be at least 1")]
    Zero,
}

pub const RETRY_DELAYS_VAR: &str = "CLICKWRAP_WEBHOOK_RETRY_DELAYS";
pub const TIMEOUT_VAR: &str = "CLICKWRAP_WEBHOOK_TIMEOUT_SECS";
pub const ALLOW_CIDRS_VAR: &str = "CLICKWRAP_WEBHOOK_ALLOW_CIDRS";
pub const CA_FILE_VAR: &str = "CLICKWRAP_WEBHOOK_CA_FILE";

impl DispatcherConfig {
    /// The defaults, with `CLICKWRAP_WEBHOOK_RETRY_DELAYS`, `CLICKWRAP_WEBHOOK_TIMEOUT_SECS`
    /// (whole seconds, 1 to 300), `CLICKWRAP_WEBHOOK_ALLOW_CIDRS` and `CLICKWRAP_WEBHOOK_CA_FILE`
    /// read through `lookup` (e.g. `|name| std::env::var(name).ok()`); unset or empty means the
    /// default. The lease grows with a long timeout.
    pub fn from_env(lookup: impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        let mut config = Self::default();
        let get = |name: &str| lookup(name).filter(|v| !v.trim().is_empty());
        let invalid = |name: &'static str, value: &str, reason: String| ConfigError::Invalid {
            name,
            value: value.to_owned(),
            reason,
        };
        if let Some(value) = get(RETRY_DELAYS_VAR) {
            config.retry =
                RetryPolicy::parse_secs(&value).map_err(|e| invalid(RETRY_DELAYS_VAR, &value, e.to_string()))?;
        }
        if let Some(value) = get(TIMEOUT_VAR) {
            let secs = value
                .trim()
                .parse::<u64>()
                .ok()
                .filter(|s| (1..=300).contains(s))
                .ok_or_else(|| invalid(TIMEOUT_VAR, &value, "must be whole seconds from 1 to 300".to_owned()))?;
            config.client.timeout = Duration::from_secs(secs);
            config.lease = config.lease.max(config.client.timeout * 2 + Duration::from_secs(30));
        }
        if let Some(value) = get(ALLOW_CIDRS_VAR) {
            let allow = AllowCidrs::parse_list(&value).map_err(|e| invalid(ALLOW_CIDRS_VAR, &value, e.to_string()))?;
            config.client.policy = AddressPolicy::new(allow);
        }
        if let Some(value) = get(CA_FILE_VAR) {
            config.client.ca_file = Some(PathBuf::from(value));
        }
        config.validate()?;
        Ok(config)
    }

    /// The defaults with the four operator settings, already parsed (as the server's configuration
    /// holds them): retry delays, attempt timeout, exempt ranges and the extra CA file. The lease
    /// grows with a long timeout.
    pub fn with_settings(
        retry_delays: &[Duration],
        timeout: Duration,
        allow: AllowCidrs,
        ca_file: Option<PathBuf>,
    ) -> Result<Self, ConfigError> {
        let mut config = Self::default();
        let delays =
            retry_delays.iter().map(|d| time::Duration::try_from(*d)).collect::<Result<Vec<_>, _>>().map_err(|e| {
                ConfigError::Invalid {
                    name: RETRY_DELAYS_VAR,
                    value: format!("{retry_delays:?}"),
                    reason: e.to_string(),
                }
            })?;
        config.retry = RetryPolicy::new(delays).map_err(|e| ConfigError::Invalid {
            name: RETRY_DELAYS_VAR,
            value: format!("{retry_delays:?}"),
            reason: e.to_string(),
        })?;
        config.client.timeout = timeout;
        config.lease = config.lease.max(timeout * 2 + Duration::from_secs(30));
        config.client.policy = AddressPolicy::new(allow);
        config.client.ca_file = ca_file;
        config.validate()?;
        Ok(config)
    }

    /// Checks that the settings can work together.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.concurrency == 0 || self.batch_size == 0 {
            return Err(ConfigError::Zero);
        }
        if self.lease <= self.client.timeout {
            return Err(ConfigError::LeaseTooShort { lease: self.lease, timeout: self.client.timeout });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::net::IpAddr;

    use super::*;

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: HashMap<String, String> = pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
        move |name| map.get(name).cloned()
    }

    #[test]
    fn defaults_follow_the_spec() {
        let config = DispatcherConfig::from_env(env(&[])).unwrap();
        assert_eq!(config.retry, RetryPolicy::default());
        assert_eq!(config.retry.max_attempts(), 4);
        assert_eq!(config.client.timeout, Duration::from_secs(10));
        assert!(config.client.policy.allow_cidrs().is_empty());
        assert_eq!(config.client.ca_file, None);
        assert!(config.lease > config.client.timeout);
    }

    #[test]
    fn reads_the_environment() {
        let config = DispatcherConfig::from_env(env(&[
            (RETRY_DELAYS_VAR, "1,2"),
            (TIMEOUT_VAR, "120"),
            (ALLOW_CIDRS_VAR, "127.0.0.0/8, 10.0.0.0/8"),
            (CA_FILE_VAR, "/etc/clickwrap/webhook-ca.pem"),
        ]))
        .unwrap();
        assert_eq!(config.retry.max_attempts(), 3);
        assert_eq!(config.client.timeout, Duration::from_secs(120));
        assert_eq!(config.lease, Duration::from_secs(270));
        assert!(config.client.policy.permits("10.1.1.1".parse::<IpAddr>().unwrap()));
        assert_eq!(config.client.ca_file, Some(PathBuf::from("/etc/clickwrap/webhook-ca.pem")));
    }

    #[test]
    fn takes_parsed_settings() {
        let delays = [Duration::from_secs(1), Duration::from_millis(1500)];
        let allow = AllowCidrs::parse_list("10.0.0.0/8").unwrap();
        let config =
            DispatcherConfig::with_settings(&delays, Duration::from_secs(5), allow, Some(PathBuf::from("ca.pem")))
                .unwrap();
        assert_eq!(config.retry.delays(), &[time::Duration::seconds(1), time::Duration::milliseconds(1500)]);
        assert_eq!(config.client.timeout, Duration::from_secs(5));
        assert_eq!(config.lease, Duration::from_secs(60));
        assert!(config.client.policy.permits("10.1.1.1".parse::<IpAddr>().unwrap()));
        let too_long = [Duration::from_secs(86_401)];
        assert!(
            DispatcherConfig::with_settings(&too_long, Duration::from_secs(5), AllowCidrs::default(), None).is_err()
        );
    }

    #[test]
    fn refuses_what_cannot_work() {
        for (name, value) in [
            (RETRY_DELAYS_VAR, "60,x"),
            (TIMEOUT_VAR, "0"),
            (TIMEOUT_VAR, "301"),
            (TIMEOUT_VAR, "1.5"),
            (ALLOW_CIDRS_VAR, "10.0.0.0/33"),
        ] {
            let error = DispatcherConfig::from_env(env(&[(name, value)])).unwrap_err();
            assert!(matches!(error, ConfigError::Invalid { name: n, .. } if n == name), "{name}={value}: {error}");
        }
        let mut config = DispatcherConfig::default();
        config.lease = config.client.timeout;
        assert!(matches!(config.validate(), Err(ConfigError::LeaseTooShort { .. })));
        config.lease = Duration::from_secs(60);
        config.concurrency = 0;
        assert_eq!(config.validate(), Err(ConfigError::Zero));
    }
}
