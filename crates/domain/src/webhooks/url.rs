//! Where webhooks may be sent: the URL rules checked when an App's webhook URL is registered, and
//! the address rule the webhook adapter applies again after DNS resolution (a name can resolve to
//! anything, and can change between registration and delivery).
//!
//! Parsing uses the WHATWG URL parser (`url` crate), the one HTTP clients use, so the host judged
//! here is the host the client connects to: `https://0x7f.1/`, `https://%6c%6fcalhost/` and
//! full-width or trailing-dot spellings are normalized before they are checked.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use ::url::{Host, Url};

pub const WEBHOOK_URL_MAX_CHARS: usize = 2048;

/// Names of cloud instance-metadata and cluster-internal services, which hand out credentials to
/// whoever can reach them. Compared after lowercasing and dropping trailing dots. Their usual
/// addresses (169.254.169.254, fd00:ec2::254, 100.100.100.200) fail [`is_public_address`] anyway.
const FORBIDDEN_HOST_NAMES: &[&str] = &[
    // Google Cloud
    "metadata",
    "metadata.google.internal",
    "metadata.goog",
    // AWS
    "instance-data",
    "instance-data.ec2.internal",
    // Azure
    "metadata.azure.com",
    "metadata.azure.internal",
    // Tencent Cloud, Alibaba Cloud, Equinix Metal
    "metadata.tencentyun.com",
    "metadata.aliyun.com",
    "metadata.platformequinix.com",
    "metadata.packet.net",
    // Kubernetes API server from inside a pod
    "kubernetes",
    "kubernetes.default",
    "kubernetes.default.svc",
    "kubernetes.default.svc.cluster.local",
];

/// An https URL with a host, no credentials and no fragment, that does not name localhost, a
/// metadata service or a non-public IP literal. Holds the normalized serialization.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct WebhookUrl {
    url: String,
    host: String,
    ip: Option<IpAddr>,
    port: u16,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidWebhookUrl {
    #[error("a webhook URL is at most {WEBHOOK_URL_MAX_CHARS} characters")]
    TooLong,
    #[error("a webhook URL must not contain spaces or control characters")]
    ForbiddenCharacter,
    #[error("the webhook URL is not a valid absolute URL")]
    Malformed,
    #[error("a webhook URL must use https")]
    NotHttps,
    #[error("a webhook URL must name a host")]
    MissingHost,
    #[error("a webhook URL must not contain a user name or password")]
    Credentials,
    #[error("a webhook URL must not contain a fragment")]
    Fragment,
    #[error("a webhook URL must not use port 0")]
    PortZero,
    #[error("a webhook URL must not point at localhost or a cloud metadata service")]
    ForbiddenHost,
    #[error("a webhook URL must not point at a private, loopback, link-local or reserved address")]
    NonPublicAddress,
}

impl WebhookUrl {
    pub fn parse(text: &str) -> Result<Self, InvalidWebhookUrl> {
        Self::parse_with_exemptions(text, |_| false)
    }

    /// Like [`WebhookUrl::parse`], but IP literals for which `exempt` is true are accepted even
    /// when not public (the operator's `CLICKWRAP_WEBHOOK_ALLOW_CIDRS`, e.g. for a receiver on a
    /// private network or in tests). `localhost` names are accepted when a loopback address is
    /// exempt; metadata names never are.
    pub fn parse_with_exemptions(text: &str, exempt: impl Fn(IpAddr) -> bool) -> Result<Self, InvalidWebhookUrl> {
        if text.chars().count() > WEBHOOK_URL_MAX_CHARS {
            return Err(InvalidWebhookUrl::TooLong);
        }
        // The WHATWG parser silently strips these; reject them so that what was typed is what is
        // used.
        if text.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(InvalidWebhookUrl::ForbiddenCharacter);
        }
        let url = Url::parse(text).map_err(|error| match error {
            ::url::ParseError::EmptyHost => InvalidWebhookUrl::MissingHost,
            _ => InvalidWebhookUrl::Malformed,
        })?;
        if url.scheme() != "https" {
            return Err(InvalidWebhookUrl::NotHttps);
        }
        // The parser also reads `https:host`, `https:///host` and `https:\\host` as
        // `https://host/`; accept only the ordinary spelling, with the host right after `https://`.
        let rest = text.get(..8).filter(|scheme| scheme.eq_ignore_ascii_case("https://")).and_then(|_| text.get(8..));
        if rest.is_none_or(|rest| rest.starts_with(['/', '\\'])) {
            return Err(InvalidWebhookUrl::Malformed);
        }
        if !url.username().is_empty() || url.password().is_some() {
            return Err(InvalidWebhookUrl::Credentials);
        }
        if url.fragment().is_some() {
            return Err(InvalidWebhookUrl::Fragment);
        }
        let ip = match url.host() {
            None => return Err(InvalidWebhookUrl::MissingHost),
            Some(Host::Domain(domain)) => {
                check_host_name(domain, &exempt)?;
                None
            }
            Some(Host::Ipv4(ip)) => Some(IpAddr::V4(ip)),
            Some(Host::Ipv6(ip)) => Some(IpAddr::V6(ip)),
        };
        if let Some(ip) = ip
            && !is_public_address(ip)
            && !exempt(ip)
        {
            return Err(InvalidWebhookUrl::NonPublicAddress);
        }
        let port = url.port_or_known_default().unwrap_or(443);
        if port == 0 {
            return Err(InvalidWebhookUrl::PortZero);
        }
        let host = url.host_str().unwrap_or_default().to_owned();
        let url = String::from(url);
        // Normalizing can lengthen a URL (percent-encoding, punycode).
        if url.chars().count() > WEBHOOK_URL_MAX_CHARS {
            return Err(InvalidWebhookUrl::TooLong);
        }
        Ok(Self { url, host, ip, port })
    }

    /// The normalized URL (lowercase scheme and host, `/` for an empty path, default port elided),
    /// which is what should be stored and requested.
    pub fn as_str(&self) -> &str {
        &self.url
    }

    /// The host as it appears in the URL: a lowercase ASCII name, a dotted IPv4 address, or an
    /// IPv6 address in brackets.
    pub fn host(&self) -> &str {
        &self.host
    }

    /// The address when the host is an IP literal, so the adapter need not resolve it.
    pub fn ip_literal(&self) -> Option<IpAddr> {
        self.ip
    }

    pub fn port(&self) -> u16 {
        self.port
    }
}

fn check_host_name(domain: &str, exempt: &impl Fn(IpAddr) -> bool) -> Result<(), InvalidWebhookUrl> {
    let name = domain.trim_end_matches('.');
    if name.is_empty() {
        return Err(InvalidWebhookUrl::MissingHost);
    }
    if FORBIDDEN_HOST_NAMES.contains(&name) {
        return Err(InvalidWebhookUrl::ForbiddenHost);
    }
    let loopback_exempt = exempt(IpAddr::V4(Ipv4Addr::LOCALHOST)) || exempt(IpAddr::V6(Ipv6Addr::LOCALHOST));
    if (name == "localhost" || name.ends_with(".localhost")) && !loopback_exempt {
        return Err(InvalidWebhookUrl::ForbiddenHost);
    }
    Ok(())
}

impl fmt::Display for WebhookUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.url)
    }
}

impl fmt::Debug for WebhookUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "WebhookUrl({:?})", self.url)
    }
}

/// IPv4 ranges that are not reachable on, or not meant for, the public internet (IANA special-
/// purpose registry): a webhook must not be a way to reach the service's own network.
const NON_PUBLIC_V4: &[(Ipv4Addr, u32)] = &[
    (Ipv4Addr::new(0, 0, 0, 0), 8),       // "this network", incl. unspecified
    (Ipv4Addr::new(10, 0, 0, 0), 8),      // private
    (Ipv4Addr::new(100, 64, 0, 0), 10),   // carrier-grade NAT (and Alibaba's metadata address)
    (Ipv4Addr::new(127, 0, 0, 0), 8),     // loopback
    (Ipv4Addr::new(169, 254, 0, 0), 16),  // link-local, incl. 169.254.169.254 metadata
    (Ipv4Addr::new(172, 16, 0, 0), 12),   // private
    (Ipv4Addr::new(192, 0, 0, 0), 24),    // IETF protocol assignments
    (Ipv4Addr::new(192, 0, 2, 0), 24),    // documentation TEST-NET-1
    (Ipv4Addr::new(192, 88, 99, 0), 24),  // deprecated 6to4 relay anycast
    (Ipv4Addr::new(192, 168, 0, 0), 16),  // private
    (Ipv4Addr::new(198, 18, 0, 0), 15),   // benchmarking
    (Ipv4Addr::new(198, 51, 100, 0), 24), // documentation TEST-NET-2
    (Ipv4Addr::new(203, 0, 113, 0), 24),  // documentation TEST-NET-3
    (Ipv4Addr::new(224, 0, 0, 0), 4),     // multicast
    (Ipv4Addr::new(240, 0, 0, 0), 4),     // reserved, incl. broadcast 255.255.255.255
];

/// IPv6 ranges inside global unicast 2000::/3 that are nevertheless not public.
const NON_PUBLIC_V6_IN_GLOBAL_UNICAST: &[(Ipv6Addr, u32)] = &[
    // IETF protocol assignments, incl. Teredo 2001::/32, benchmarking 2001:2::/48, ORCHID
    (Ipv6Addr::new(0x2001, 0, 0, 0, 0, 0, 0, 0), 23),
    (Ipv6Addr::new(0x2001, 0x0db8, 0, 0, 0, 0, 0, 0), 32), // documentation
    (Ipv6Addr::new(0x3fff, 0, 0, 0, 0, 0, 0, 0), 20),      // documentation (RFC 9637)
];

const GLOBAL_UNICAST_V6: (Ipv6Addr, u32) = (Ipv6Addr::new(0x2000, 0, 0, 0, 0, 0, 0, 0), 3);
const NAT64_WELL_KNOWN: (Ipv6Addr, u32) = (Ipv6Addr::new(0x64, 0xff9b, 0, 0, 0, 0, 0, 0), 96);
const SIX_TO_FOUR: (Ipv6Addr, u32) = (Ipv6Addr::new(0x2002, 0, 0, 0, 0, 0, 0, 0), 16);

/// Whether a webhook may be delivered to this address: false for loopback, private, link-local,
/// shared, documentation, benchmarking, multicast and reserved ranges.
///
/// IPv6 is judged by allow-list: only global unicast 2000::/3 (minus its special ranges) is
/// public, which also excludes ::/8 (unspecified, loopback, IPv4-compatible), 64:ff9b:1::/48
/// (local-use NAT64), 100::/64 (discard), fc00::/7 (unique-local), fe80::/10 (link-local),
/// fec0::/10 (site-local) and ff00::/8 (multicast). Addresses that carry an IPv4 address the
/// packets actually go to, IPv4-mapped ::ffff:0:0/96, NAT64 64:ff9b::/96 and 6to4 2002::/16, are
/// judged by that IPv4 address.
pub fn is_public_address(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(ip) => is_public_v4(ip),
        IpAddr::V6(ip) => is_public_v6(ip),
    }
}

fn is_public_v4(ip: Ipv4Addr) -> bool {
    let bits = u32::from(ip);
    !NON_PUBLIC_V4.iter().any(|&(network, prefix)| {
        let mask = u32::MAX.checked_shl(32 - prefix).unwrap_or(0);
        bits & mask == u32::from(network) & mask
    })
}

fn is_public_v6(ip: Ipv6Addr) -> bool {
    if let Some(v4) = ip.to_ipv4_mapped() {
        return is_public_v4(v4);
    }
    let bits = u128::from(ip);
    let within = |(network, prefix): (Ipv6Addr, u32)| {
        let mask = u128::MAX.checked_shl(128 - prefix).unwrap_or(0);
        bits & mask == u128::from(network) & mask
    };
    if within(NAT64_WELL_KNOWN) {
        // The last 32 bits.
        return is_public_v4(Ipv4Addr::from(bits as u32));
    }
    if within(SIX_TO_FOUR) {
        // 2002:AABB:CCDD::/48 carries AA.BB.CC.DD in bits 16..48.
        return is_public_v4(Ipv4Addr::from((bits >> 80) as u32));
    }
    within(GLOBAL_UNICAST_V6) && !NON_PUBLIC_V6_IN_GLOBAL_UNICAST.iter().any(|&range| within(range))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn non_public_ipv4_classes_are_rejected() {
        for text in [
            "0.0.0.0",
            "0.1.2.3",
            "10.0.0.1",
            "10.255.255.255",
            "100.64.0.1",
            "100.100.100.200",
            "100.127.255.255",
            "127.0.0.1",
            "127.255.255.254",
            "169.254.0.1",
            "169.254.169.254",
            "172.16.0.1",
            "172.31.255.255",
            "192.0.0.8",
            "192.0.2.1",
            "192.88.99.1",
            "192.168.0.1",
            "192.168.255.255",
            "198.18.0.1",
            "198.19.255.255",
            "198.51.100.7",
            "203.0.113.9",
            "224.0.0.1",
            "239.255.255.250",
            "240.0.0.1",
            "255.255.255.254",
            "255.255.255.255",
        ] {
            assert!(!is_public_address(ip(text)), "{text}");
        }
    }

    #[test]
    fn non_public_ipv6_classes_are_rejected() {
        for text in [
            "::",
            "::1",
            "::127.0.0.1",      // IPv4-compatible (deprecated)
            "::8.8.8.8",        // IPv4-compatible, even with a public IPv4
            "::ffff:127.0.0.1", // IPv4-mapped loopback
            "::ffff:10.1.2.3",  // IPv4-mapped private
            "::ffff:169.254.169.254",
            "64:ff9b::7f00:1",    // NAT64 of 127.0.0.1
            "64:ff9b::a9fe:a9fe", // NAT64 of 169.254.169.254
            "64:ff9b:1::808:808", // local-use NAT64
            "100::1",             // discard
            "fc00::1",            // unique-local
            "fd00:ec2::254",      // AWS metadata over IPv6
            "fdff:ffff::1",
            "fe80::1", // link-local
            "febf::1",
            "fec0::1", // site-local
            "ff02::1", // multicast
            "ff0e::1",
            "2001::1", // Teredo
            "2001:0:4136:e378:8000:63bf:3fff:fdd2",
            "2001:2::1",   // benchmarking
            "2001:db8::1", // documentation
            "2001:db8:ffff::1",
            "3fff::1",          // documentation (RFC 9637)
            "2002:7f00:1::1",   // 6to4 of 127.0.0.1
            "2002:c0a8:101::1", // 6to4 of 192.168.1.1
            "2002:a9fe:a9fe::", // 6to4 of 169.254.169.254
            "4000::1",          // outside global unicast
            "5f00::1",          // SRv6 SIDs
        ] {
            assert!(!is_public_address(ip(text)), "{text}");
        }
    }

    #[test]
    fn public_addresses_are_allowed() {
        for text in [
            "1.1.1.1",
            "8.8.8.8",
            "9.255.255.255",
            "11.0.0.0",
            "100.63.255.255",
            "100.128.0.0",
            "126.255.255.255",
            "128.0.0.1",
            "169.253.255.255",
            "172.15.255.255",
            "172.32.0.0",
            "192.0.3.1",
            "192.167.255.255",
            "192.169.0.0",
            "198.17.255.255",
            "198.20.0.0",
            "203.0.114.1",
            "223.255.255.255",
            "2606:4700:4700::1111",
            "2001:4860:4860::8888",
            "2001:200::1",
            "2a00:1450:4001:80b::200e",
            "::ffff:8.8.8.8",
            "64:ff9b::808:808",
            "2002:808:808::1",
            "3ffe::1",
        ] {
            assert!(is_public_address(ip(text)), "{text}");
        }
    }

    #[test]
    fn accepts_ordinary_https_urls() {
        let url = WebhookUrl::parse("https://example.com/hooks?x=1").unwrap();
        assert_eq!(url.as_str(), "https://example.com/hooks?x=1");
        assert_eq!(url.host(), "example.com");
        assert_eq!(url.port(), 443);
        assert_eq!(url.ip_literal(), None);

        let url = WebhookUrl::parse("HTTPS://Hooks.Example.COM:8443").unwrap();
        assert_eq!(url.as_str(), "https://hooks.example.com:8443/");
        assert_eq!(url.host(), "hooks.example.com");
        assert_eq!(url.port(), 8443);

        let url = WebhookUrl::parse("https://example.com:443/a").unwrap();
        assert_eq!(url.as_str(), "https://example.com/a");
        assert_eq!(url.port(), 443);

        let url = WebhookUrl::parse("https://8.8.8.8/hook").unwrap();
        assert_eq!(url.host(), "8.8.8.8");
        assert_eq!(url.ip_literal(), Some(ip("8.8.8.8")));

        let url = WebhookUrl::parse("https://[2606:4700:4700::1111]:444/").unwrap();
        assert_eq!(url.host(), "[2606:4700:4700::1111]");
        assert_eq!(url.ip_literal(), Some(ip("2606:4700:4700::1111")));
        assert_eq!(url.port(), 444);

        let url = WebhookUrl::parse("https://bücher.example/").unwrap();
        assert_eq!(url.host(), "xn--bcher-kva.example");
    }

    #[test]
    fn rejects_urls_that_break_the_rules() {
        use InvalidWebhookUrl::*;
        let long = format!("https://example.com/{}", "a".repeat(2048));
        let cases: &[(&str, InvalidWebhookUrl)] = &[
            ("http://example.com/hook", NotHttps),
            ("ftp://example.com/hook", NotHttps),
            ("javascript:alert(1)", NotHttps),
            ("example.com/hook", Malformed),
            ("", Malformed),
            ("https://", MissingHost),
            ("https:///path", Malformed),
            ("https:example.com/", Malformed),
            ("https:/example.com/", Malformed),
            (r"https:\\example.com/", Malformed),
            (r"https:/\example.com/", Malformed),
            ("https://user:pass@example.com/", Credentials),
            ("https://user@example.com/", Credentials),
            ("https://:pass@example.com/", Credentials),
            ("https://example.com/hook#frag", Fragment),
            ("https://example.com/hook#", Fragment),
            ("https://example.com:0/", PortZero),
            ("https://example.com:65536/", Malformed),
            ("https://exa mple.com/", ForbiddenCharacter),
            (" https://example.com/", ForbiddenCharacter),
            ("https://example.com/\n", ForbiddenCharacter),
            ("https://exam\tple.com/", ForbiddenCharacter),
            (&long, TooLong),
            ("https://localhost/", ForbiddenHost),
            ("https://LOCALHOST:8443/", ForbiddenHost),
            ("https://localhost./", ForbiddenHost),
            ("https://api.localhost/", ForbiddenHost),
            ("https://%6c%6fcalhost/", ForbiddenHost),
            ("https://ｌｏｃａｌｈｏｓｔ/", ForbiddenHost),
            ("https://metadata.google.internal/computeMetadata/v1/", ForbiddenHost),
            ("https://metadata.google.internal./", ForbiddenHost),
            ("https://metadata/", ForbiddenHost),
            ("https://instance-data/latest/meta-data/", ForbiddenHost),
            ("https://kubernetes.default.svc/", ForbiddenHost),
            ("https://127.0.0.1/", NonPublicAddress),
            ("https://127.1/", NonPublicAddress),
            ("https://0x7f000001/", NonPublicAddress),
            ("https://2130706433/", NonPublicAddress),
            ("https://0177.0.0.1/", NonPublicAddress),
            ("https://127.0.0.1./", NonPublicAddress),
            ("https://10.0.0.5:8443/hook", NonPublicAddress),
            ("https://172.16.3.4/", NonPublicAddress),
            ("https://192.168.1.10/", NonPublicAddress),
            ("https://169.254.169.254/latest/meta-data/", NonPublicAddress),
            ("https://0.0.0.0/", NonPublicAddress),
            ("https://[::1]/", NonPublicAddress),
            ("https://[::ffff:127.0.0.1]/", NonPublicAddress),
            ("https://[::ffff:a9fe:a9fe]/", NonPublicAddress),
            ("https://[fd00:ec2::254]/", NonPublicAddress),
            ("https://[fe80::1]/", NonPublicAddress),
            ("https://[::1/", Malformed),
        ];
        for (text, expected) in cases {
            assert_eq!(WebhookUrl::parse(text).as_ref(), Err(expected), "{text:?}");
        }
    }

    #[test]
    fn backslashes_are_judged_as_the_client_reads_them() {
        // A WHATWG client treats `\` as `/`, so the host is 127.0.0.1, not example.com.
        assert_eq!(WebhookUrl::parse(r"https://127.0.0.1\@example.com/"), Err(InvalidWebhookUrl::NonPublicAddress));
    }

    #[test]
    fn exemptions_admit_configured_ranges_only() {
        let loopback = |ip: IpAddr| ip.is_loopback();
        let url = WebhookUrl::parse_with_exemptions("https://127.0.0.1:9443/hook", loopback).unwrap();
        assert_eq!(url.port(), 9443);
        assert!(WebhookUrl::parse_with_exemptions("https://localhost:9443/", loopback).is_ok());
        assert_eq!(
            WebhookUrl::parse_with_exemptions("https://10.0.0.1/", loopback),
            Err(InvalidWebhookUrl::NonPublicAddress)
        );
        assert_eq!(
            WebhookUrl::parse_with_exemptions("https://metadata.google.internal/", |_| true),
            Err(InvalidWebhookUrl::ForbiddenHost)
        );
        assert_eq!(WebhookUrl::parse_with_exemptions("http://127.0.0.1/", loopback), Err(InvalidWebhookUrl::NotHttps));
    }

    proptest! {
        #[test]
        fn any_ipv4_embedded_in_ipv6_is_judged_by_the_ipv4(bits in any::<u32>()) {
            let v4 = Ipv4Addr::from(bits);
            let public = is_public_address(IpAddr::V4(v4));
            prop_assert_eq!(is_public_address(IpAddr::V6(v4.to_ipv6_mapped())), public);
            let nat64 = Ipv6Addr::from((u128::from(NAT64_WELL_KNOWN.0)) | u128::from(bits));
            prop_assert_eq!(is_public_address(IpAddr::V6(nat64)), public);
            let six_to_four = Ipv6Addr::from((0x2002_u128 << 112) | (u128::from(bits) << 80) | 1);
            prop_assert_eq!(is_public_address(IpAddr::V6(six_to_four)), public);
        }

        #[test]
        fn parsing_never_panics_and_accepted_urls_are_https(text in "\\PC{0,80}") {
            if let Ok(url) = WebhookUrl::parse(&text) {
                prop_assert!(url.as_str().starts_with("https://"));
                prop_assert!(WebhookUrl::parse(url.as_str()).is_ok());
            }
        }
    }
}
