//! The client's IP address: the peer's, or from `X-Forwarded-For` when the peer is a trusted proxy.

use std::net::IpAddr;

use actix_web::HttpRequest;

use clickwrap_domain::webhooks::cidr::Cidr;

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
