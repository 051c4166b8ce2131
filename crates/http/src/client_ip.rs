//! The client's IP address: the peer's, or from `X-Forwarded-For` when the peer is a trusted proxy.

use std::net::IpAddr;
use std::str::FromStr;

use actix_web::HttpRequest;

/// An address range such as `10.0.0.0/8` or `fd00::/8`; a bare address is a range of one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cidr {
    network: IpAddr,
    prefix: u8,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not an address range like 10.0.0.0/8 or fd00::/8")]
pub struct InvalidCidr(pub String);

impl FromStr for Cidr {
    type Err = InvalidCidr;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let invalid = || InvalidCidr(text.to_owned());
        let (address, prefix) = match text.trim().split_once('/') {
            Some((address, prefix)) => (address, Some(prefix)),
            None => (text.trim(), None),
        };
        let network: IpAddr = address.parse().map_err(|_| invalid())?;
        let max = if network.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            Some(p) => p.parse::<u8>().ok().filter(|p| *p <= max).ok_or_else(invalid)?,
            None => max,
        };
        Ok(Self { network, prefix })
    }
}

impl Cidr {
    pub fn contains(&self, ip: IpAddr) -> bool {
        let (network, ip, width) = match (self.network, ip) {
            (IpAddr::V4(n), IpAddr::V4(i)) => (u128::from(u32::from(n)), u128::from(u32::from(i)), 32),
            (IpAddr::V6(n), IpAddr::V6(i)) => (u128::from(n), u128::from(i), 128),
            (IpAddr::V6(n), IpAddr::V4(i)) => (u128::from(n), u128::from(i.to_ipv6_mapped()), 128),
            (IpAddr::V4(n), IpAddr::V6(i)) => match i.to_ipv4_mapped() {
                Some(i) => (u128::from(u32::from(n)), u128::from(u32::from(i)), 32),
                None => return false,
            },
        };
        let host_bits = width - u32::from(self.prefix);
        let mask = if host_bits >= 128 { 0 } else { u128::MAX << host_bits };
        network & mask == ip & mask
    }
}

/// The proxies whose `X-Forwarded-For` is believed.
#[derive(Debug, Clone, Default)]
pub struct TrustedProxies(Vec<Cidr>);

impl TrustedProxies {
    pub fn new(ranges: Vec<Cidr>) -> Self {
        Self(ranges)
    }

    fn trusts(&self, ip: IpAddr) -> bool {
        self.0.iter().any(|range| range.contains(ip))
    }

    /// Walks `X-Forwarded-For` from the right while the hops are trusted proxies; the first
    /// untrusted hop is the client. A client cannot spoof its way past a proxy that appends.
    pub fn client_ip(&self, request: &HttpRequest) -> Option<IpAddr> {
        let peer = request.peer_addr()?.ip();
        if !self.trusts(peer) {
            return Some(peer);
        }
        let mut client = peer;
        let hops = request
            .headers()
            .get_all("x-forwarded-for")
            .filter_map(|value| value.to_str().ok())
            .flat_map(|value| value.split(','))
            .map(str::trim)
            .collect::<Vec<_>>();
        for hop in hops.into_iter().rev() {
            let Ok(ip) = hop.parse::<IpAddr>() else { break };
            client = ip;
            if !self.trusts(ip) {
                break;
            }
        }
        Some(client)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;

    #[test]
    fn ranges_contain_what_they_should() {
        let private: Cidr = "10.0.0.0/8".parse().unwrap();
        assert!(private.contains("10.1.2.3".parse().unwrap()));
        assert!(!private.contains("11.0.0.1".parse().unwrap()));
        assert!(private.contains("::ffff:10.0.0.1".parse().unwrap()));
        let one: Cidr = "192.0.2.1".parse().unwrap();
        assert!(one.contains("192.0.2.1".parse().unwrap()) && !one.contains("192.0.2.2".parse().unwrap()));
        let all: Cidr = "::/0".parse().unwrap();
        assert!(all.contains("2001:db8::1".parse().unwrap()));
        for bad in ["", "10.0.0.0/33", "nope", "10.0.0.0/x"] {
            assert!(bad.parse::<Cidr>().is_err(), "{bad}");
        }
    }

    #[test]
    fn forwarded_for_counts_only_behind_trusted_proxies() {
        let proxies = TrustedProxies::new(vec!["10.0.0.0/8".parse().unwrap()]);
        let direct = TestRequest::default()
            .peer_addr("203.0.113.9:5000".parse().unwrap())
            .insert_header(("x-forwarded-for", "1.2.3.4"))
            .to_http_request();
        assert_eq!(proxies.client_ip(&direct), Some("203.0.113.9".parse().unwrap()));
        let proxied = TestRequest::default()
            .peer_addr("10.0.0.5:5000".parse().unwrap())
            .insert_header(("x-forwarded-for", "6.6.6.6, 198.51.100.7, 10.0.0.9"))
            .to_http_request();
        assert_eq!(proxies.client_ip(&proxied), Some("198.51.100.7".parse().unwrap()));
    }
}
