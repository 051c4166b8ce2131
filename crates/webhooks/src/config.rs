//! The dispatcher's settings, with the defaults of the spec. The operator's `CLICKWRAP_WEBHOOK_*`
//! variables are read by the server's configuration, which hands them over parsed.

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

/// Settings that cannot work together.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    #[error("the lease ({lease:?}) must be longer than the attempt timeout ({timeout:?})")]
    LeaseTooShort { lease: Duration, timeout: Duration },
    #[error("concurrency and batch size must be at least 1")]
    Zero,
}

impl DispatcherConfig {
    /// The defaults with the four operator settings, already parsed (as the server's configuration
    /// holds them, from `CLICKWRAP_WEBHOOK_*`): retry schedule, attempt timeout, exempt ranges and
    /// the extra CA file. The lease grows with a long timeout, so that it always outlasts an
    /// attempt: what this gives passes [`DispatcherConfig::validate`].
    pub fn with_settings(retry: RetryPolicy, timeout: Duration, allow: AllowCidrs, ca_file: Option<PathBuf>) -> Self {
        let defaults = Self::default();
        Self {
            retry,
            lease: defaults.lease.max(timeout * 2 + Duration::from_secs(30)),
            client: ClientSettings { timeout, policy: AddressPolicy::new(allow), ca_file, ..defaults.client },
            ..defaults
        }
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
    use std::net::IpAddr;

    use super::*;

    #[test]
    fn defaults_follow_the_spec() {
        let config = DispatcherConfig::default();
        assert_eq!(config.retry, RetryPolicy::default());
        assert_eq!(config.retry.max_attempts(), 4);
        assert_eq!(config.client.timeout, Duration::from_secs(10));
        assert!(config.client.policy.allow_cidrs().is_empty());
        assert_eq!(config.client.ca_file, None);
        assert!(config.lease > config.client.timeout);
    }

    #[test]
    fn takes_parsed_settings() {
        let retry = RetryPolicy::new(vec![time::Duration::seconds(1), time::Duration::milliseconds(1500)]).unwrap();
        let allow = AllowCidrs::new(clickwrap_domain::webhooks::cidr::Cidr::parse_list("10.0.0.0/8").unwrap());
        let config =
            DispatcherConfig::with_settings(retry, Duration::from_secs(5), allow, Some(PathBuf::from("ca.pem")));
        assert_eq!(config.retry.delays(), &[time::Duration::seconds(1), time::Duration::milliseconds(1500)]);
        assert_eq!(config.client.timeout, Duration::from_secs(5));
        assert_eq!(config.lease, Duration::from_secs(60));
        assert!(config.client.policy.permits("10.1.1.1".parse::<IpAddr>().unwrap()));
        assert_eq!(config.client.ca_file, Some(PathBuf::from("ca.pem")));
    }

    #[test]
    fn the_lease_grows_with_a_long_timeout() {
        let config = DispatcherConfig::with_settings(
            RetryPolicy::default(),
            Duration::from_secs(120),
            AllowCidrs::default(),
            None,
        );
        assert_eq!(config.client.timeout, Duration::from_secs(120));
        assert_eq!(config.lease, Duration::from_secs(270));
        assert_eq!(config.validate(), Ok(()));
    }

    #[test]
    fn refuses_what_cannot_work() {
        let mut config = DispatcherConfig::default();
        config.lease = config.client.timeout;
        assert!(matches!(config.validate(), Err(ConfigError::LeaseTooShort { .. })));
        config.lease = Duration::from_secs(60);
        config.concurrency = 0;
        assert_eq!(config.validate(), Err(ConfigError::Zero));
    }
}
