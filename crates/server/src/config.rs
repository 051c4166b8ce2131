//! Configuration: environment variables, optionally read from a file first, each validated with a
//! message that names the variable and shows the expected form.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::ops::RangeInclusive;
use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

use clickwrap_domain::keys::master::MasterKeys;
use clickwrap_domain::webhooks::cidr::{AllowCidrs, Cidr};
use clickwrap_domain::webhooks::dispatch::RetryPolicy;
use clickwrap_domain::webhooks::retention::DeliveryRetention;
use clickwrap_postgres::database::DatabaseUrl;

pub(crate) const DEFAULT_DATABASE_URL: &str = "postgres://postgres@127.0.0.1:5432/clickwrap";
pub(crate) const DEFAULT_LISTEN: &str = "127.0.0.1:8080";

/// How log lines look.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LogFormat {
    Text,
    Json,
}

/// What `DATABASE_URL` leads to (`CLICKWRAP_DATABASE_POOLER`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pooler {
    /// PostgreSQL itself, or a pooler in session mode: each connection is a session of its own.
    None,
    /// A pooler in transaction mode: a connection is a session only for one transaction at a time.
    Transaction,
}

/// Everything the server can be told.
#[derive(Debug, Clone)]
pub(crate) struct Config {
    pub(crate) database_url: DatabaseUrl,
    /// The schema owner's connection, for creating the database and migrating it; the serving role
    /// of `database_url` is then granted what it needs. `None`: `database_url` does everything.
    pub(crate) migration_database_url: Option<DatabaseUrl>,
    pub(crate) database_pooler: Pooler,
    /// A session connection to the same database (`CLICKWRAP_DATABASE_DIRECT_URL`), for LISTEN,
    /// migrations and creating the database, when `database_url` leads to a pooler.
    pub(crate) database_direct_url: Option<DatabaseUrl>,
    pub(crate) listen: SocketAddr,
    /// Where clients reach this server (certificates say where to validate them).
    pub(crate) public_url: String,
    pub(crate) trusted_proxies: Vec<Cidr>,
    pub(crate) rate_limit_per_hour: u64,
    /// How often each instance adds its rate-limit hits to the shared counts and learns the others'
    /// (`CLICKWRAP_RATE_LIMIT_SYNC_MS`): the longer, the more the instances together may admit
    /// past the limit (docs/operations.md).
    pub(crate) rate_limit_sync: Duration,
    pub(crate) signature_ttl: Duration,
    /// How long the public endpoints may serve an app or template from memory (zero: never).
    pub(crate) serving_cache_ttl: Duration,
    pub(crate) pool_size: usize,
    /// `CLICKWRAP_WEBHOOK_RETRY_DELAYS`, in the one grammar of [`RetryPolicy::parse_secs`].
    pub(crate) webhook_retry: RetryPolicy,
    pub(crate) webhook_timeout: Duration,
    /// `CLICKWRAP_WEBHOOK_ALLOW_CIDRS`, for the dispatcher, the registration check, the API and
    /// the console alike.
    pub(crate) webhook_allow: AllowCidrs,
    pub(crate) webhook_ca_file: Option<String>,
    /// The RFC 3161 time-stamping authority that stamps each certificate's signature (PAdES
    /// B-T); none: certificates are signed without a timestamp (B-B).
    pub(crate) tsa_url: Option<http::Uri>,
    pub(crate) tsa_timeout: Duration,
    pub(crate) log_format: LogFormat,
    /// `CLICKWRAP_MASTER_KEY_FILE` or `CLICKWRAP_MASTER_KEY`, with `CLICKWRAP_MASTER_KEY_PREVIOUS_FILE`
    /// during a master-key rotation; `None` when not configured.
    pub(crate) master_keys: Option<MasterKeys>,
    /// What is logged (`CLICKWRAP_LOG`): `info` by default, or directives like `info,clickwrap_http=debug`.
    pub(crate) log_filter: String,
    /// Where `/metrics` is served instead of on `listen`, when set (`CLICKWRAP_METRICS_LISTEN`).
    pub(crate) metrics_listen: Option<SocketAddr>,
    /// How many pieces of CPU-heavy work (sanitizing, PDF rendering) run at once, off the request
    /// workers.
    pub(crate) cpu_threads: usize,
    /// How long past its Signature's lifetime an unverified event is kept before it is purged.
    pub(crate) unverified_event_grace: Duration,
    /// How long finished webhook deliveries and their attempts are kept after their last activity
    /// (`CLICKWRAP_WEBHOOK_RETENTION_DAYS`, `CLICKWRAP_WEBHOOK_FAILED_RETENTION_DAYS`).
    pub(crate) webhook_retention: DeliveryRetention,
    /// How often the webhook dispatcher looks for due deliveries it was not told about (those
    /// another instance's verifications wrote, retries falling due, leases run out).
    pub(crate) poll_interval: Duration,
    /// How long a stopping instance serves on after SIGTERM with `/readyz` at 503, so that load
    /// balancers stop sending before its listener closes (`CLICKWRAP_SHUTDOWN_DRAIN_SECS`).
    pub(crate) shutdown_drain: Duration,
}

/// Every bad value, each on its own line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid configuration:\n{}", .0.iter().map(|p| format!("  - {p}")).collect::<Vec<_>>().join("\n"))]
pub(crate) struct ConfigError(pub Vec<String>);

/// Reads `KEY=VALUE` lines (blank lines and `#` comments allowed); the environment wins over it.
pub(crate) fn read_file(path: &Path) -> Result<HashMap<String, String>, ConfigError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| ConfigError(vec![format!("cannot read the configuration file {}: {e}", path.display())]))?;
    let mut values = HashMap::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line.split_once('=').ok_or_else(|| {
            ConfigError(vec![format!("{}:{}: expected KEY=VALUE, found {line:?}", path.display(), number + 1)])
        })?;
        values.insert(key.trim().to_owned(), value.trim().trim_matches('"').to_owned());
    }
    Ok(values)
}

/// What a setting is when its variable is unset or blank.
#[derive(Debug, Clone, Copy)]
enum DefaultValue {
    /// This text, read as if it were given.
    Text(&'static str),
    /// Nothing: the setting is off.
    Unset,
    /// A value that comes from elsewhere (another setting, the machine), as the documentation says.
    Derived,
}

/// Why a value was refused.
#[derive(Debug)]
enum Refused {
    /// Said after `NAME=value: `.
    Because(String),
    /// Whole lines that name the setting themselves (one per bad item of a list).
    Lines(Vec<String>),
}

impl From<String> for Refused {
    fn from(why: String) -> Self {
        Refused::Because(why)
    }
}

impl From<&str> for Refused {
    fn from(why: &str) -> Self {
        Refused::Because(why.to_owned())
    }
}

/// Reads a value into the configuration.
type Parse = fn(&str, &mut Config) -> Result<(), Refused>;

/// How a setting's value is read.
#[derive(Clone, Copy)]
enum Parser {
    /// On its own: writes what it read into the configuration.
    Alone(Parse),
    /// Together with other settings, after the table (the master keys: a file or the key itself,
    /// and the previous one only with a current one).
    Together,
}

/// One setting the server reads.
struct Setting {
    name: &'static str,
    default: DefaultValue,
    /// Never shown in an error (it may hold a password or a key).
    secret: bool,
    parser: Parser,
}

impl Setting {
    const fn plain(name: &'static str, default: DefaultValue, parse: Parse) -> Self {
        Self { name, default, secret: false, parser: Parser::Alone(parse) }
    }

    const fn secret(name: &'static str, default: DefaultValue, parse: Parse) -> Self {
        Self { name, default, secret: true, parser: Parser::Alone(parse) }
    }

    /// A setting without a default, read with others after the table: [`master_keys`] words its
    /// problems itself (never showing a key), so `secret` plays no part.
    const fn read_together(name: &'static str) -> Self {
        Self { name, default: DefaultValue::Unset, secret: false, parser: Parser::Together }
    }

    /// Reads `value` into `config`, or names what is wrong with it in `problems` and says false.
    /// A setting read together with others is left to them.
    fn apply(&self, value: &str, config: &mut Config, problems: &mut Vec<String>) -> bool {
        let Parser::Alone(parse) = self.parser else { return true };
        match parse(value, config) {
            Ok(()) => return true,
            Err(Refused::Because(why)) => {
                let shown = if self.secret { "<hidden>".to_owned() } else { format!("{value:?}") };
                problems.push(format!("{}={shown}: {why}", self.name));
            }
            Err(Refused::Lines(lines)) => problems.extend(lines),
        }
        false
    }
}

use DefaultValue::{Derived, Text, Unset};

/// Every setting. Those read alone are read, and their problems listed, in this order; those read
/// together (the master keys) after them, and their problems come after the others'.
static SETTINGS: [Setting; 30] = [
    Setting::secret("DATABASE_URL", Text(DEFAULT_DATABASE_URL), |v, c| set(&mut c.database_url, database_url(v))),
    Setting::secret("CLICKWRAP_MIGRATION_DATABASE_URL", Unset, |v, c| {
        set(&mut c.migration_database_url, database_url(v).map(Some))
    }),
    Setting::plain("CLICKWRAP_DATABASE_POOLER", Text("none"), |v, c| {
        let pooler = match v.to_ascii_lowercase().as_str() {
            "none" => Ok(Pooler::None),
            "transaction" => Ok(Pooler::Transaction),
            _ => Err("must be none or transaction"),
        };
        set(&mut c.database_pooler, pooler)
    }),
    Setting::secret("CLICKWRAP_DATABASE_DIRECT_URL", Unset, |v, c| {
        set(&mut c.database_direct_url, database_url(v).map(Some))
    }),
    Setting::plain("CLICKWRAP_LISTEN", Text(DEFAULT_LISTEN), |v, c| {
        set(&mut c.listen, v.parse().map_err(|_| "must be an address and port like 127.0.0.1:8080 or [::]:8080"))
    }),
    Setting::plain("CLICKWRAP_PUBLIC_URL", Derived, |v, c| {
        let url =
            Some(v.trim_end_matches('/').to_owned()).filter(|_| v.starts_with("https://") || v.starts_with("http://"));
        set(&mut c.public_url, url.ok_or("must start with https:// or http://"))
    }),
    Setting::plain("CLICKWRAP_TRUSTED_PROXIES", Unset, |v, c| {
        set(&mut c.trusted_proxies, cidrs("CLICKWRAP_TRUSTED_PROXIES", v))
    }),
    Setting::plain("CLICKWRAP_RATE_LIMIT_PER_HOUR", Text("1000"), |v, c| {
        set(&mut c.rate_limit_per_hour, within(v, 1..=u64::MAX, "must be a whole number above 0"))
    }),
    Setting::plain("CLICKWRAP_RATE_LIMIT_SYNC_MS", Text("250"), |v, c| {
        set(&mut c.rate_limit_sync, millis(v, 10..=60_000))
    }),
    Setting::plain("CLICKWRAP_SIGNATURE_TTL_SECS", Text("604800"), |v, c| {
        let secs = within(v, 1..=u64::MAX, "must be a whole number of seconds above 0");
        set(&mut c.signature_ttl, secs.map(Duration::from_secs))
    }),
    Setting::plain("CLICKWRAP_SERVING_CACHE_MS", Text("1000"), |v, c| {
        set(&mut c.serving_cache_ttl, millis(v, 0..=60_000))
    }),
    Setting::plain("CLICKWRAP_DB_POOL_SIZE", Text("16"), |v, c| {
        set(&mut c.pool_size, within(v, 1..=1000, "must be a whole number from 1 to 1000"))
    }),
    Setting::plain("CLICKWRAP_WEBHOOK_RETRY_DELAYS", Text("60,120,240"), |v, c| {
        set(&mut c.webhook_retry, RetryPolicy::parse_secs(v).map_err(|e| e.to_string()))
    }),
    Setting::plain("CLICKWRAP_WEBHOOK_TIMEOUT_SECS", Text("10"), |v, c| {
        set(&mut c.webhook_timeout, seconds(v, 1..=300))
    }),
    Setting::plain("CLICKWRAP_WEBHOOK_ALLOW_CIDRS", Unset, |v, c| {
        set(&mut c.webhook_allow, cidrs("CLICKWRAP_WEBHOOK_ALLOW_CIDRS", v).map(AllowCidrs::new))
    }),
    Setting::plain("CLICKWRAP_WEBHOOK_CA_FILE", Unset, |v, c| {
        set(
            &mut c.webhook_ca_file,
            Some(v.to_owned()).filter(|_| Path::new(v).is_file()).ok_or("no such file").map(Some),
        )
    }),
    Setting::secret("CLICKWRAP_TSA_URL", Unset, |v, c| {
        let url = v
            .parse::<http::Uri>()
            .ok()
            .filter(|uri| matches!(uri.scheme_str(), Some("http" | "https")) && uri.host().is_some())
            .ok_or("must be an http:// or https:// URL");
        set(&mut c.tsa_url, url.map(Some))
    }),
    Setting::plain("CLICKWRAP_TSA_TIMEOUT_SECS", Text("10"), |v, c| set(&mut c.tsa_timeout, seconds(v, 1..=60))),
    Setting::plain("CLICKWRAP_LOG_FORMAT", Text("text"), |v, c| {
        let format = match v.to_ascii_lowercase().as_str() {
            "text" => Ok(LogFormat::Text),
            "json" => Ok(LogFormat::Json),
            _ => Err("must be text or json"),
        };
        set(&mut c.log_format, format)
    }),
    Setting::read_together("CLICKWRAP_MASTER_KEY_FILE"),
    Setting::read_together("CLICKWRAP_MASTER_KEY"),
    Setting::read_together("CLICKWRAP_MASTER_KEY_PREVIOUS_FILE"),
    Setting::plain("CLICKWRAP_LOG", Text("info"), |v, c| set(&mut c.log_filter, log_filter(v))),
    Setting::plain("CLICKWRAP_METRICS_LISTEN", Unset, |v, c| {
        let address = v.parse().map_err(|_| "must be an address and port like 127.0.0.1:9090 or [::]:9090");
        set(&mut c.metrics_listen, address.map(Some))
    }),
    Setting::plain("CLICKWRAP_CPU_THREADS", Derived, |v, c| {
        set(&mut c.cpu_threads, within(v, 1..=256, "must be a whole number from 1 to 256"))
    }),
    Setting::plain("CLICKWRAP_UNVERIFIED_EVENT_GRACE_SECS", Text("86400"), |v, c| {
        let secs = within(v, 0..=u64::MAX, "must be a whole number of seconds");
        set(&mut c.unverified_event_grace, secs.map(Duration::from_secs))
    }),
    Setting::plain("CLICKWRAP_WEBHOOK_RETENTION_DAYS", Text("30"), |v, c| {
        set(&mut c.webhook_retention.delivered, retention_days(v))
    }),
    Setting::plain("CLICKWRAP_WEBHOOK_FAILED_RETENTION_DAYS", Text("90"), |v, c| {
        set(&mut c.webhook_retention.failed, retention_days(v))
    }),
    Setting::plain("CLICKWRAP_POLL_MS", Text("500"), |v, c| set(&mut c.poll_interval, millis(v, 10..=60_000))),
    Setting::plain("CLICKWRAP_SHUTDOWN_DRAIN_SECS", Text("5"), |v, c| set(&mut c.shutdown_drain, seconds(v, 0..=300))),
];

/// Stores a parsed value, or says why there is none.
fn set<T, E: Into<Refused>>(field: &mut T, parsed: Result<T, E>) -> Result<(), Refused> {
    *field = parsed.map_err(Into::into)?;
    Ok(())
}

impl Config {
    /// Every setting at its default, as [`SETTINGS`] gives it: each [`DefaultValue::Text`] is read
    /// as if it were given; the others stay empty, except the [`DefaultValue::Derived`] ones, which
    /// start here (`cpu_threads`, from the machine) or are set after the table (`public_url`).
    fn defaults() -> Result<Self, ConfigError> {
        // Placeholders, for the fields the table's defaults overwrite below (a `DatabaseUrl` has
        // to be some URL: it is the default's).
        let mut config = Self {
            database_url: database_url(DEFAULT_DATABASE_URL).map_err(|why| ConfigError(vec![why]))?,
            migration_database_url: None,
            database_pooler: Pooler::None,
            database_direct_url: None,
            listen: SocketAddr::from(([0, 0, 0, 0], 0)),
            public_url: String::new(),
            trusted_proxies: Vec::new(),
            rate_limit_per_hour: 0,
            rate_limit_sync: Duration::ZERO,
            signature_ttl: Duration::ZERO,
            serving_cache_ttl: Duration::ZERO,
            pool_size: 0,
            webhook_retry: RetryPolicy::default(),
            webhook_timeout: Duration::ZERO,
            webhook_allow: AllowCidrs::default(),
            webhook_ca_file: None,
            tsa_url: None,
            tsa_timeout: Duration::ZERO,
            log_format: LogFormat::Text,
            master_keys: None,
            log_filter: String::new(),
            metrics_listen: None,
            cpu_threads: std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get),
            unverified_event_grace: Duration::ZERO,
            webhook_retention: DeliveryRetention { delivered: time::Duration::ZERO, failed: time::Duration::ZERO },
            poll_interval: Duration::ZERO,
            shutdown_drain: Duration::ZERO,
        };
        let mut problems = Vec::new();
        for setting in &SETTINGS {
            if let DefaultValue::Text(default) = setting.default {
                setting.apply(default, &mut config, &mut problems);
            }
        }
        if problems.is_empty() { Ok(config) } else { Err(ConfigError(problems)) }
    }

    /// From the variables (`lookup` is the environment, over the file's values): the defaults,
    /// then each setting of [`SETTINGS`] given in turn, then the rules between settings. Every bad
    /// value is named.
    pub(crate) fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        let given = |name: &str| lookup(name).filter(|v| !v.trim().is_empty());
        let mut config = Self::defaults()?;
        let mut problems = Vec::new();
        let mut refused = Vec::new();
        for setting in &SETTINGS {
            if let Some(value) = given(setting.name)
                && !setting.apply(&value, &mut config, &mut problems)
            {
                refused.push(setting.name);
            }
        }
        let read = |name: &str| !refused.contains(&name);
        config.master_keys = master_keys(&mut problems, &|name| given(name).unwrap_or_default());
        if config.public_url.is_empty() {
            config.public_url = format!("http://{}", config.listen);
        }
        if config.migration_database_url.is_some() && config.database_url.user().is_none() && read("DATABASE_URL") {
            problems.push(
                "DATABASE_URL=<hidden>: must name its user (postgres://USER@host/db) when \
                 CLICKWRAP_MIGRATION_DATABASE_URL is set: that role is granted what the server needs"
                    .to_owned(),
            );
        }
        if let Some(direct) = &config.database_direct_url
            && direct.database() != config.database_url.database()
            && read("DATABASE_URL")
        {
            problems.push(format!(
                "CLICKWRAP_DATABASE_DIRECT_URL=<hidden>: must name the same database as DATABASE_URL ({}), not {}",
                config.database_url.database(),
                direct.database()
            ));
        }
        if config.metrics_listen == Some(config.listen) && read("CLICKWRAP_LISTEN") {
            problems.push(format!(
                "CLICKWRAP_METRICS_LISTEN={:?}: must differ from CLICKWRAP_LISTEN (leave it unset to serve /metrics \
                 there)",
                given("CLICKWRAP_METRICS_LISTEN").unwrap_or_default()
            ));
        }
        if problems.is_empty() { Ok(config) } else { Err(ConfigError(problems)) }
    }
}

impl Config {
    /// The session connection that LISTENs for other instances' news: none behind a
    /// transaction-mode pooler without `CLICKWRAP_DATABASE_DIRECT_URL` (the instance polls then).
    pub(crate) fn listen_url(&self) -> Option<&DatabaseUrl> {
        match (self.database_pooler, &self.database_direct_url) {
            (_, Some(direct)) => Some(direct),
            (Pooler::None, None) => Some(&self.database_url),
            (Pooler::Transaction, None) => None,
        }
    }

    /// Where the database is created and migrated: the schema owner's URL when given, else the
    /// direct one, else `DATABASE_URL`.
    pub(crate) fn schema_url(&self) -> &DatabaseUrl {
        self.migration_database_url.as_ref().or(self.database_direct_url.as_ref()).unwrap_or(&self.database_url)
    }
}

/// The master keys, when configured. The key itself is never echoed in a problem.
fn master_keys(problems: &mut Vec<String>, take: &impl Fn(&str) -> String) -> Option<MasterKeys> {
    let file = take("CLICKWRAP_MASTER_KEY_FILE");
    let inline = take("CLICKWRAP_MASTER_KEY");
    let previous_file = take("CLICKWRAP_MASTER_KEY_PREVIOUS_FILE");
    let from_file = |name: &str, path: &str| {
        crate::master_key::read_file(Path::new(path)).map_err(|e| format!("{name}={path:?}: {e}"))
    };
    let current = match (file.is_empty(), inline.is_empty()) {
        (true, true) => Ok(None),
        (false, true) => from_file("CLICKWRAP_MASTER_KEY_FILE", &file).map(Some),
        (true, false) => {
            crate::master_key::parse(&inline).map(Some).map_err(|e| format!("CLICKWRAP_MASTER_KEY=<hidden>: {e}"))
        }
        (false, false) => Err("CLICKWRAP_MASTER_KEY_FILE and CLICKWRAP_MASTER_KEY are both set: set one".to_owned()),
    };
    let previous = match (previous_file.is_empty(), &current) {
        (true, _) => Ok(None),
        (false, Ok(None)) => Err("CLICKWRAP_MASTER_KEY_PREVIOUS_FILE is set without a current master key".to_owned()),
        (false, _) => from_file("CLICKWRAP_MASTER_KEY_PREVIOUS_FILE", &previous_file).map(Some),
    };
    match (current, previous) {
        (Ok(current), Ok(previous)) => current.map(|current| MasterKeys::new(current, previous)),
        (current, previous) => {
            problems.extend(current.err());
            problems.extend(previous.err());
            None
        }
    }
}

/// A log filter: comma-separated directives, each a level (`off`, `error`, `warn`, `info`,
/// `debug`, `trace`) or `target=level`. A bare word that is not a level is refused although the
/// filter syntax would take it as a target: `inf` would silence every other line.
/// Returned with spaces dropped and levels in lowercase, as the filter's parser wants them.
fn log_filter(value: &str) -> Result<String, String> {
    const LEVELS: [&str; 6] = ["off", "error", "warn", "info", "debug", "trace"];
    let expected = || "must be levels or target=level directives, like info or info,clickwrap_http=debug".to_owned();
    let mut directives = Vec::new();
    for directive in value.split(',').map(str::trim).filter(|d| !d.is_empty()) {
        let (target, level) = match directive.rsplit_once('=') {
            Some((target, level)) if !target.trim().is_empty() => (Some(target.trim()), level),
            Some(_) => return Err(expected()),
            None => (None, directive),
        };
        let level = level.trim().to_ascii_lowercase();
        if !LEVELS.contains(&level.as_str()) {
            return Err(format!("{directive:?} is not a level or target=level: {}", expected()));
        }
        directives.push(target.map_or_else(|| level.clone(), |target| format!("{target}={level}")));
    }
    let normalized = directives.join(",");
    tracing_subscriber::EnvFilter::builder().parse(&normalized).map_err(|e| format!("{e}: {}", expected()))?;
    Ok(normalized)
}

/// Ranges separated by commas, as the domain reads them; each bad one is a line of its own.
fn cidrs(name: &str, value: &str) -> Result<Vec<Cidr>, Refused> {
    Cidr::parse_list(value).map_err(|bad| Refused::Lines(bad.iter().map(|e| format!("{name}: {e}")).collect()))
}

fn database_url(value: &str) -> Result<DatabaseUrl, String> {
    DatabaseUrl::parse(value).map_err(|e| e.to_string())
}

/// A number within `bounds`, else `expected`.
fn within<T: FromStr + PartialOrd>(value: &str, bounds: RangeInclusive<T>, expected: &str) -> Result<T, String> {
    value.parse::<T>().ok().filter(|n| bounds.contains(n)).ok_or_else(|| expected.to_owned())
}

fn millis(value: &str, bounds: RangeInclusive<u64>) -> Result<Duration, String> {
    let expected = format!("must be {} to {} milliseconds", bounds.start(), bounds.end());
    within(value, bounds, &expected).map(Duration::from_millis)
}

fn seconds(value: &str, bounds: RangeInclusive<u64>) -> Result<Duration, String> {
    let expected = format!("must be {} to {} seconds", bounds.start(), bounds.end());
    within(value, bounds, &expected).map(Duration::from_secs)
}

fn retention_days(value: &str) -> Result<time::Duration, String> {
    within(value, 1..=36_500, "must be a whole number of days from 1 to 36500").map(time::Duration::days)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(pairs: &[(&str, &str)]) -> Result<Config, ConfigError> {
        let map: HashMap<String, String> = pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
        Config::from_lookup(|name| map.get(name).cloned())
    }

    #[test]
    fn the_table_and_the_documentation_list_the_same_settings_and_defaults() {
        let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/configuration.md")).unwrap();
        // `| `NAME` | default | meaning |` rows.
        let rows: HashMap<&str, &str> = doc
            .lines()
            .filter_map(|line| line.strip_prefix("| `"))
            .filter_map(|row| row.split_once("` | "))
            .map(|(name, rest)| (name, rest.split(" | ").next().unwrap_or_default()))
            .collect();
        // Read by the fonts library and by the PostgreSQL cluster starter, not by this configuration.
        let elsewhere = ["CLICKWRAP_FONT_DIR", "CLICKWRAP_PG_BIN_DIR"];
        let mut documented: Vec<&str> = rows.keys().copied().filter(|name| !elsewhere.contains(name)).collect();
        let mut read: Vec<&str> = SETTINGS.iter().map(|setting| setting.name).collect();
        documented.sort_unstable();
        read.sort_unstable();
        assert_eq!(documented, read);
        for setting in &SETTINGS {
            let documented = rows[setting.name];
            match setting.default {
                DefaultValue::Text(text) => {
                    assert!(documented.starts_with(&format!("`{text}`")), "{}: {documented}", setting.name)
                }
                DefaultValue::Unset => assert!(documented.starts_with("none"), "{}: {documented}", setting.name),
                DefaultValue::Derived => assert!(!documented.starts_with("none"), "{}: {documented}", setting.name),
            }
        }
    }

    #[test]
    fn defaults_are_the_documented_ones() {
        let c = config(&[]).unwrap();
        assert_eq!(c.database_url.to_string(), DEFAULT_DATABASE_URL);
        assert_eq!(c.listen.to_string(), DEFAULT_LISTEN);
        assert_eq!(c.public_url, "http://127.0.0.1:8080");
        assert_eq!(c.rate_limit_per_hour, 1000);
        assert_eq!(c.rate_limit_sync, Duration::from_millis(250));
        assert_eq!(
            c.webhook_retry.delays(),
            [time::Duration::seconds(60), time::Duration::seconds(120), time::Duration::seconds(240)]
        );
        assert_eq!(c.webhook_timeout, Duration::from_secs(10));
        assert_eq!(c.log_format, LogFormat::Text);
        assert_eq!(c.tsa_url, None, "no timestamps unless asked for");
        assert_eq!(c.tsa_timeout, Duration::from_secs(10));
        assert_eq!(c.cpu_threads, std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get));
        assert_eq!(c.unverified_event_grace, Duration::from_secs(86400));
        assert_eq!(c.webhook_retention.delivered, time::Duration::days(30));
        assert_eq!(c.webhook_retention.failed, time::Duration::days(90));
        assert_eq!(c.poll_interval, Duration::from_millis(500));
        assert_eq!(c.shutdown_drain, Duration::from_secs(5));
    }

    #[test]
    fn the_shutdown_drain_is_a_setting_and_may_be_zero() {
        for (given, drain) in [("0", 0), ("2", 2), ("300", 300)] {
            let c = config(&[("CLICKWRAP_SHUTDOWN_DRAIN_SECS", given)]).unwrap();
            assert_eq!(c.shutdown_drain, Duration::from_secs(drain));
        }
        for refused in ["301", "-1", "1.5", "5s", "soon"] {
            let text = config(&[("CLICKWRAP_SHUTDOWN_DRAIN_SECS", refused)]).unwrap_err().to_string();
            assert!(
                text.contains(&format!("CLICKWRAP_SHUTDOWN_DRAIN_SECS={refused:?}: must be 0 to 300 seconds")),
                "{text}"
            );
        }
    }

    #[test]
    fn the_poll_interval_is_a_setting() {
        assert_eq!(config(&[("CLICKWRAP_POLL_MS", "50")]).unwrap().poll_interval, Duration::from_millis(50));
        for bad in ["0", "9", "60001", "0.5", "soon"] {
            let text = config(&[("CLICKWRAP_POLL_MS", bad)]).unwrap_err().to_string();
            assert!(text.contains("CLICKWRAP_POLL_MS"), "{bad}: {text}");
        }
    }

    #[test]
    fn the_rate_limit_sync_interval_is_a_setting_within_sane_bounds() {
        assert_eq!(
            config(&[("CLICKWRAP_RATE_LIMIT_SYNC_MS", "10")]).unwrap().rate_limit_sync,
            Duration::from_millis(10)
        );
        assert_eq!(
            config(&[("CLICKWRAP_RATE_LIMIT_SYNC_MS", "60000")]).unwrap().rate_limit_sync,
            Duration::from_secs(60)
        );
        for refused in ["0", "9", "60001", "-5", "0.5", "soon"] {
            let text = config(&[("CLICKWRAP_RATE_LIMIT_SYNC_MS", refused)]).unwrap_err().to_string();
            assert!(
                text.contains(&format!("CLICKWRAP_RATE_LIMIT_SYNC_MS={refused:?}: must be 10 to 60000 milliseconds")),
                "{text}"
            );
        }
    }

    #[test]
    fn the_cpu_pool_and_the_purge_grace_are_settings() {
        let c = config(&[("CLICKWRAP_CPU_THREADS", "3"), ("CLICKWRAP_UNVERIFIED_EVENT_GRACE_SECS", "0")]).unwrap();
        assert_eq!((c.cpu_threads, c.unverified_event_grace), (3, Duration::ZERO));
        let text = config(&[("CLICKWRAP_CPU_THREADS", "0"), ("CLICKWRAP_UNVERIFIED_EVENT_GRACE_SECS", "-1")])
            .unwrap_err()
            .to_string();
        assert!(
            text.contains("CLICKWRAP_CPU_THREADS") && text.contains("CLICKWRAP_UNVERIFIED_EVENT_GRACE_SECS"),
            "{text}"
        );
    }

    #[test]
    fn webhook_retention_is_two_settings_of_whole_days() {
        let c =
            config(&[("CLICKWRAP_WEBHOOK_RETENTION_DAYS", "7"), ("CLICKWRAP_WEBHOOK_FAILED_RETENTION_DAYS", "365")])
                .unwrap();
        assert_eq!(
            c.webhook_retention,
            DeliveryRetention { delivered: time::Duration::days(7), failed: time::Duration::days(365) }
        );
        for bad in ["0", "-1", "1.5", "30d", "36501"] {
            for name in ["CLICKWRAP_WEBHOOK_RETENTION_DAYS", "CLICKWRAP_WEBHOOK_FAILED_RETENTION_DAYS"] {
                let text = config(&[(name, bad)]).unwrap_err().to_string();
                assert!(text.contains(name) && text.contains("whole number of days"), "{name}={bad:?}: {text}");
            }
        }
    }

    #[test]
    fn webhook_retry_delays_are_whole_seconds_within_bounds() {
        let c = config(&[("CLICKWRAP_WEBHOOK_RETRY_DELAYS", " 1, 2 ,86400 ")]).unwrap();
        assert_eq!(
            c.webhook_retry.delays(),
            [time::Duration::seconds(1), time::Duration::seconds(2), time::Duration::seconds(86_400)]
        );
        let too_many = ["1"; 21].join(",");
        for (bad, why) in [
            ("60,x", "must be a comma-separated list of seconds like 60,120,240"),
            ("+5", "must be a comma-separated list of seconds like 60,120,240"),
            ("86401", "a retry delay must be between 0 and 86400 seconds"),
            (too_many.as_str(), "at most 20 retry delays may be given"),
        ] {
            let text = config(&[("CLICKWRAP_WEBHOOK_RETRY_DELAYS", bad)]).unwrap_err().to_string();
            assert!(text.contains(&format!("CLICKWRAP_WEBHOOK_RETRY_DELAYS={bad:?}: {why}")), "{text}");
        }
    }

    #[test]
    fn the_migration_url_is_optional_checked_and_never_echoed() {
        assert!(config(&[]).unwrap().migration_database_url.is_none());
        let c = config(&[
            ("DATABASE_URL", "postgres://clickwrap_app:pw@db/clickwrap"),
            ("CLICKWRAP_MIGRATION_DATABASE_URL", "postgres://clickwrap_owner:secret@db/clickwrap"),
        ])
        .unwrap();
        assert_eq!(c.migration_database_url.unwrap().user(), Some("clickwrap_owner"));
        let bad = config(&[("CLICKWRAP_MIGRATION_DATABASE_URL", "mysql://owner:secret@db/x")]).unwrap_err().to_string();
        assert!(bad.contains("CLICKWRAP_MIGRATION_DATABASE_URL") && !bad.contains("secret"), "{bad}");
        let anonymous = config(&[
            ("DATABASE_URL", "postgres://db/clickwrap"),
            ("CLICKWRAP_MIGRATION_DATABASE_URL", "postgres://owner@db/clickwrap"),
        ])
        .unwrap_err()
        .to_string();
        assert!(anonymous.contains("must name its user"), "{anonymous}");
    }

    #[test]
    fn the_tsa_url_is_http_or_https() {
        let c = config(&[("CLICKWRAP_TSA_URL", "https://tsa.example.com/tsr"), ("CLICKWRAP_TSA_TIMEOUT_SECS", "5")])
            .unwrap();
        assert_eq!(c.tsa_url.map(|u| u.to_string()).as_deref(), Some("https://tsa.example.com/tsr"));
        assert_eq!(c.tsa_timeout, Duration::from_secs(5));
        let text =
            config(&[("CLICKWRAP_TSA_URL", "ftp://user:secret@tsa.example.com/"), ("CLICKWRAP_TSA_TIMEOUT_SECS", "0")])
                .unwrap_err()
                .to_string();
        assert!(text.contains("CLICKWRAP_TSA_URL") && text.contains("CLICKWRAP_TSA_TIMEOUT_SECS"), "{text}");
        assert!(!text.contains("secret"), "{text}");
    }

    #[test]
    fn the_log_filter_is_levels_or_target_levels() {
        assert_eq!(config(&[]).unwrap().log_filter, "info");
        for (given, used) in [
            ("debug", "debug"),
            ("info,clickwrap_http=debug", "info,clickwrap_http=debug"),
            ("warn, tokio_postgres = TRACE", "warn,tokio_postgres=trace"),
            ("OFF", "off"),
        ] {
            assert_eq!(config(&[("CLICKWRAP_LOG", given)]).unwrap().log_filter, used);
        }
        for bad in ["inf", "info,clickwrap_http=loud", "=debug", "info,[", "clickwrap_server"] {
            let text = config(&[("CLICKWRAP_LOG", bad)]).unwrap_err().to_string();
            assert!(text.contains("CLICKWRAP_LOG"), "{bad}: {text}");
        }
    }

    #[test]
    fn metrics_listen_on_their_own_address_when_asked() {
        assert_eq!(config(&[]).unwrap().metrics_listen, None, "on the main listener by default");
        let c = config(&[("CLICKWRAP_METRICS_LISTEN", "127.0.0.1:9090")]).unwrap();
        assert_eq!(c.metrics_listen, Some("127.0.0.1:9090".parse().unwrap()));
        for bad in ["9090", "127.0.0.1:8080"] {
            let text = config(&[("CLICKWRAP_METRICS_LISTEN", bad)]).unwrap_err().to_string();
            assert!(text.contains("CLICKWRAP_METRICS_LISTEN"), "{bad}: {text}");
        }
    }

    #[test]
    fn every_bad_value_is_named() {
        let error = config(&[
            ("CLICKWRAP_LISTEN", "nowhere"),
            ("CLICKWRAP_RATE_LIMIT_PER_HOUR", "-1"),
            ("CLICKWRAP_TRUSTED_PROXIES", "10.0.0.0/8, banana"),
            ("DATABASE_URL", "mysql://root:secret@db/x"),
        ])
        .unwrap_err();
        let text = error.to_string();
        for name in ["CLICKWRAP_LISTEN", "CLICKWRAP_RATE_LIMIT_PER_HOUR", "CLICKWRAP_TRUSTED_PROXIES", "DATABASE_URL"] {
            assert!(text.contains(name), "{text}");
        }
        assert!(!text.contains("secret"), "{text}");
    }

    #[test]
    fn the_master_key_comes_from_a_file_or_the_variable_never_both_and_is_never_echoed() {
        let dir = std::env::temp_dir().join(format!("clickwrap-config-{}", uuid::Uuid::now_v7()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("master.key");
        let key = crate::master_key::generate();
        std::fs::write(&file, crate::master_key::encode(&key)).unwrap();
        let path = file.to_str().unwrap();

        assert!(config(&[]).unwrap().master_keys.is_none(), "optional here; serve refuses to start without one");
        let from_file = config(&[("CLICKWRAP_MASTER_KEY_FILE", path)]).unwrap().master_keys.unwrap();
        assert_eq!(from_file.current_id(), key.id());
        let inline = crate::master_key::encode(&key);
        let from_variable = config(&[("CLICKWRAP_MASTER_KEY", inline.trim())]).unwrap().master_keys.unwrap();
        assert_eq!(from_variable.current_id(), key.id());

        let both = config(&[("CLICKWRAP_MASTER_KEY_FILE", path), ("CLICKWRAP_MASTER_KEY", inline.trim())]);
        assert!(both.unwrap_err().to_string().contains("both set"));
        let alone = config(&[("CLICKWRAP_MASTER_KEY_PREVIOUS_FILE", path)]).unwrap_err().to_string();
        assert!(alone.contains("without a current master key"), "{alone}");
        let missing = config(&[("CLICKWRAP_MASTER_KEY_FILE", "/nonexistent/master.key")]).unwrap_err().to_string();
        assert!(missing.contains("cannot read"), "{missing}");
        let short = config(&[("CLICKWRAP_MASTER_KEY", "c2VjcmV0LWJ1dC1zaG9ydA==")]).unwrap_err().to_string();
        assert!(short.contains("32 random bytes") && !short.contains("c2VjcmV0"), "{short}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_transaction_pooler_listens_on_the_direct_url_or_not_at_all() {
        let plain = config(&[]).unwrap();
        assert_eq!(plain.database_pooler, Pooler::None);
        assert_eq!(plain.listen_url(), Some(&plain.database_url), "no pooler: DATABASE_URL is a session");
        assert_eq!(plain.schema_url(), &plain.database_url);

        let pooled = "postgres://app:secret@pgbouncer:6432/clickwrap";
        let polled = config(&[("DATABASE_URL", pooled), ("CLICKWRAP_DATABASE_POOLER", "Transaction")]).unwrap();
        assert_eq!(polled.database_pooler, Pooler::Transaction);
        assert_eq!(polled.listen_url(), None, "nothing to LISTEN on: the instance polls");
        assert_eq!(polled.schema_url(), &polled.database_url);

        let direct = "postgres://app:secret@db:5432/clickwrap";
        let both = config(&[
            ("DATABASE_URL", pooled),
            ("CLICKWRAP_DATABASE_POOLER", "transaction"),
            ("CLICKWRAP_DATABASE_DIRECT_URL", direct),
        ])
        .unwrap();
        assert_eq!(both.listen_url().map(|u| u.expose()), Some(direct.to_owned()));
        assert_eq!(both.schema_url().expose(), direct);
        let owner = "postgres://owner@db:5432/clickwrap";
        let with_owner = config(&[
            ("DATABASE_URL", pooled),
            ("CLICKWRAP_DATABASE_DIRECT_URL", direct),
            ("CLICKWRAP_MIGRATION_DATABASE_URL", owner),
        ])
        .unwrap();
        assert_eq!(with_owner.schema_url().expose(), owner, "the schema owner still migrates");
    }

    #[test]
    fn pooler_settings_are_checked_and_their_urls_never_echoed() {
        let bad = config(&[("CLICKWRAP_DATABASE_POOLER", "session")]).unwrap_err().to_string();
        assert!(bad.contains("CLICKWRAP_DATABASE_POOLER=\"session\": must be none or transaction"), "{bad}");
        let other_database = config(&[
            ("DATABASE_URL", "postgres://app:secret@pgbouncer:6432/clickwrap"),
            ("CLICKWRAP_DATABASE_DIRECT_URL", "postgres://app:hunter2@db:5432/elsewhere"),
        ])
        .unwrap_err()
        .to_string();
        assert!(other_database.contains("must name the same database"), "{other_database}");
        let malformed =
            config(&[("CLICKWRAP_DATABASE_DIRECT_URL", "mysql://app:hunter2@db/clickwrap")]).unwrap_err().to_string();
        assert!(malformed.contains("CLICKWRAP_DATABASE_DIRECT_URL=<hidden>"), "{malformed}");
        for text in [other_database, malformed] {
            assert!(!text.contains("hunter2") && !text.contains("secret"), "{text}");
        }
    }
}
