//! `CLICKWRAP_WEBHOOK_ALLOW_CIDRS`: address ranges exempt from the webhook address rule
//! ([`super::url::is_public_address`]), for receivers on a private network the operator trusts, or
//! on loopback in tests. Used both when a webhook URL is registered
//! (`WebhookUrl::parse_with_exemptions(text, |ip| allow.contains(ip))`) and when the dispatcher
//! connects.

use std::fmt;
use std::net::IpAddr;
use std::str::FromStr;

use super::url::is_public_address;

/// One address range: `10.1.0.0/16`, `fd00::/8`, or a single address (`127.0.0.1`, a /32 or /128).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Cidr {
    network: IpAddr,
    prefix: u8,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not an address range like 10.0.0.0/8 or fd00::/8")]
pub struct InvalidCidr(pub String);

impl Cidr {
    /// The range of `network` with `prefix` leading bits; host bits are cleared. A range of
    /// IPv4-mapped addresses (inside `::ffff:0:0/96`) is the IPv4 range it maps, since
    /// [`Cidr::contains`] compares mapped addresses as IPv4.
    pub fn new(network: IpAddr, prefix: u8) -> Option<Self> {
        let max = if network.is_ipv4() { 32 } else { 128 };
        if prefix > max {
            return None;
        }
        if let IpAddr::V6(v6) = network
            && let Some(v4) = v6.to_ipv4_mapped()
            && prefix >= 96
        {
            return Self::new(IpAddr::V4(v4), prefix - 96);
        }
        Some(Self { network: mask(network, prefix), prefix })
    }

    pub fn network(&self) -> IpAddr {
        self.network
    }

    pub fn prefix(&self) -> u8 {
        self.prefix
    }

    /// Whether `ip` lies in the range. IPv4-mapped IPv6 addresses (`::ffff:a.b.c.d`) are compared as
    /// the IPv4 address they carry, which is where the packets go.
    pub fn contains(&self, ip: IpAddr) -> bool {
        let ip = canonical(ip);
        match (self.network, ip) {
            (IpAddr::V4(_), IpAddr::V4(_)) | (IpAddr::V6(_), IpAddr::V6(_)) => mask(ip, self.prefix) == self.network,
            _ => false,
        }
    }
}

fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        IpAddr::V4(_) => ip,
    }
}

fn mask(ip: IpAddr, prefix: u8) -> IpAddr {
    match ip {
        IpAddr::V4(v4) => {
            let bits = u32::MAX.checked_shl(32 - u32::from(prefix.min(32))).unwrap_or(0);
            IpAddr::V4((u32::from(v4) & bits).into())
        }
        IpAddr::V6(v6) => {
            let bits = u128::MAX.checked_shl(128 - u32::from(prefix.min(128))).unwrap_or(0);
            IpAddr::V6((u128::from(v6) & bits).into())
        }
    }
}

impl FromStr for Cidr {
    type Err = InvalidCidr;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let invalid = || InvalidCidr(text.to_owned());
        let (address, prefix) = match text.trim().split_once('/') {
            Some((address, prefix)) => (address, Some(prefix)),
            None => (text.trim(), None),
        };
        let network: IpAddr = address.parse().map_err(|_| invalid())?;
        let prefix = match prefix {
            Some(p) if !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) => p.parse().map_err(|_| invalid())?,
            Some(_) => return Err(invalid()),
            None if network.is_ipv4() => 32,
            None => 128,
        };
        Self::new(network, prefix).ok_or_else(invalid)
    }
}

impl Cidr {
    /// The environment form of a list (`CLICKWRAP_WEBHOOK_ALLOW_CIDRS`,
    /// `CLICKWRAP_TRUSTED_PROXIES`): ranges separated by commas, spaces allowed; empty means none.
    /// Every bad range is named, in order.
    pub fn parse_list(text: &str) -> Result<Vec<Self>, Vec<InvalidCidr>> {
        let mut ranges = Vec::new();
        let mut bad = Vec::new();
        for part in text.split(',').map(str::trim).filter(|part| !part.is_empty()) {
            match part.parse() {
                Ok(range) => ranges.push(range),
                Err(invalid) => bad.push(invalid),
            }
        }
        if bad.is_empty() { Ok(ranges) } else { Err(bad) }
    }
}

impl fmt::Display for Cidr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.network, self.prefix)
    }
}

impl fmt::Debug for Cidr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Cidr({self})")
    }
}

/// The configured exemptions; empty by default (no exemptions).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AllowCidrs(Vec<Cidr>);

impl AllowCidrs {
    pub fn new(ranges: Vec<Cidr>) -> Self {
        Self(ranges)
    }

    pub fn ranges(&self) -> &[Cidr] {
        &self.0
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether `ip` is inside an exempt range.
    pub fn contains(&self, ip: IpAddr) -> bool {
        self.0.iter().any(|range| range.contains(ip))
    }

    /// Whether a webhook may connect to `ip`: a public address, or one the operator exempted.
    pub fn permits(&self, ip: IpAddr) -> bool {
        is_public_address(ip) || self.contains(ip)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn parses_ranges_and_single_addresses() {
        let range: Cidr = "10.1.2.3/8".parse().unwrap();
        assert_eq!(range.to_string(), "10.0.0.0/8");
        assert!(range.contains(ip("10.255.0.1")));
        assert!(!range.contains(ip("11.0.0.1")));
        let single: Cidr = "127.0.0.1".parse().unwrap();
        assert_eq!(single.prefix(), 32);
        assert!(single.contains(ip("127.0.0.1")));
        assert!(!single.contains(ip("127.0.0.2")));
        let v6: Cidr = "fd00::/8".parse().unwrap();
        assert!(v6.contains(ip("fd12::1")));
        assert!(!v6.contains(ip("fe80::1")));
        assert!(!v6.contains(ip("10.0.0.1")));
        let everything: Cidr = "0.0.0.0/0".parse().unwrap();
        assert!(everything.contains(ip("8.8.8.8")));
        for bad in ["", "10.0.0.0/33", "::/129", "10.0.0.0/", "10.0.0.0/+8", "localhost", "10.0.0/8", "1.2.3.4/8/8"] {
            assert!(bad.parse::<Cidr>().is_err(), "{bad}");
        }
    }

    #[test]
    fn ipv4_mapped_addresses_are_judged_as_ipv4() {
        let loopback: Cidr = "127.0.0.0/8".parse().unwrap();
        assert!(loopback.contains(ip("::ffff:127.0.0.1")));
        let allow = AllowCidrs::new(vec![loopback]);
        assert!(allow.permits(ip("::ffff:127.0.0.1")));
        assert!(!allow.permits(ip("::1")));
    }

    #[test]
    fn ipv4_mapped_ranges_are_ipv4_ranges() {
        // Found by fuzzing: `::ffff:10.0.0.0/104` contained no address at all, because addresses
        // are compared as the IPv4 address they map and the range stayed IPv6.
        let mapped: Cidr = "::ffff:10.0.0.0/104".parse().unwrap();
        assert_eq!(mapped, "10.0.0.0/8".parse().unwrap());
        assert!(mapped.contains(ip("10.1.2.3")));
        assert!(mapped.contains(ip("::ffff:10.1.2.3")));
        assert!(!mapped.contains(ip("11.0.0.1")));
        let all_mapped: Cidr = "::ffff:0:0/96".parse().unwrap();
        assert_eq!(all_mapped.to_string(), "0.0.0.0/0");
        // Ranges wider than the mapped block stay IPv6.
        let wide: Cidr = "::/80".parse().unwrap();
        assert_eq!(wide.to_string(), "::/80");
    }

    #[test]
    fn allow_lists_exempt_only_their_ranges() {
        let allow = AllowCidrs::new(Cidr::parse_list(" 127.0.0.0/8 , fd00::/8").unwrap());
        assert_eq!(allow.ranges().len(), 2);
        assert!(allow.permits(ip("127.0.0.1")));
        assert!(allow.permits(ip("8.8.8.8")));
        assert!(!allow.permits(ip("10.0.0.1")));
        assert!(!allow.permits(ip("169.254.169.254")));
        assert!(Cidr::parse_list("").unwrap().is_empty());
        assert!(Cidr::parse_list(" , ").unwrap().is_empty());
        assert!(!AllowCidrs::default().permits(ip("127.0.0.1")));
        assert!(Cidr::parse_list("127.0.0.0/8,nope").is_err());
    }

    #[test]
    fn a_list_names_every_bad_range() {
        assert_eq!(
            Cidr::parse_list("nope, 10.0.0.0/8, 10.0.0.0/33 ,"),
            Err(vec![InvalidCidr("nope".to_owned()), InvalidCidr("10.0.0.0/33".to_owned())])
        );
    }
}
