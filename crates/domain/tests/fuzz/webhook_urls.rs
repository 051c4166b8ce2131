//! Webhook URLs against every spelling of an address the service must not call: IPv4 in decimal,
//! octal and hex, dotted with fewer parts, zero-padded, percent-encoded or full-width; IPv6
//! compressed, expanded, uppercase, with a dotted tail or a zone id; IPv4 carried in IPv6
//! (mapped, compatible, NAT64, 6to4); and the names of localhost and metadata services. Each is
//! refused, public addresses in the same spellings are accepted, and whatever is accepted is what
//! a WHATWG client (the `url` crate, as the webhook client uses) would connect to.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use clickwrap_domain::webhooks::url::{InvalidWebhookUrl, WebhookUrl};
use proptest::prelude::*;
use url::{Host, Url};

use crate::support::{cases, hostile_text};

/// The IPv4 ranges no webhook may reach (IANA special-purpose registry, multicast, reserved).
const NON_PUBLIC_V4: &[(u32, u32)] = &[
    (0x0000_0000, 8),  // this network
    (0x0a00_0000, 8),  // private
    (0x6440_0000, 10), // shared (carrier-grade NAT)
    (0x7f00_0000, 8),  // loopback
    (0xa9fe_0000, 16), // link-local, cloud metadata
    (0xac10_0000, 12), // private
    (0xc000_0000, 24), // IETF protocol assignments
    (0xc000_0200, 24), // documentation
    (0xc058_6300, 24), // 6to4 relay anycast
    (0xc0a8_0000, 16), // private
    (0xc612_0000, 15), // benchmarking
    (0xc633_6400, 24), // documentation
    (0xcb00_7100, 24), // documentation
    (0xe000_0000, 4),  // multicast
    (0xf000_0000, 4),  // reserved, broadcast
];

/// IPv6 ranges no webhook may reach, besides everything outside global unicast 2000::/3.
const NON_PUBLIC_V6: &[(u128, u32)] = &[
    (0x2001_0000 << 96, 23),      // IETF protocol assignments, Teredo
    (0x2001_0db8 << 96, 32),      // documentation
    (0x3fff << 112, 20),          // documentation
    (0x0064_ff9b_0001 << 80, 48), // local-use NAT64
    (0xfc00 << 112, 7),           // unique local
    (0xfe80 << 112, 10),          // link-local
    (0xfec0 << 112, 10),          // site-local
    (0xff00 << 112, 8),           // multicast
    (0x0100 << 112, 64),          // discard
    (0, 96),                      // unspecified, loopback, IPv4-compatible
];

fn in_range(bits: u128, (network, prefix): (u128, u32), width: u32) -> bool {
    let shift = width - prefix;
    prefix == 0 || (bits >> shift) == (network >> shift)
}

fn v4_is_public(ip: Ipv4Addr) -> bool {
    let bits = u128::from(u32::from(ip));
    !NON_PUBLIC_V4.iter().any(|&(network, prefix)| in_range(bits, (u128::from(network), prefix), 32))
}

/// IPv6 is public only inside 2000::/3 and outside the special ranges; an address that carries
/// the IPv4 address its packets go to (mapped, NAT64, 6to4) is judged by that.
fn v6_is_public(ip: Ipv6Addr) -> bool {
    let bits = u128::from(ip);
    if in_range(bits, (0xffff << 32, 96), 128) || in_range(bits, (0x0064_ff9b << 96, 96), 128) {
        return v4_is_public(Ipv4Addr::from(bits as u32));
    }
    if in_range(bits, (0x2002 << 112, 16), 128) {
        return v4_is_public(Ipv4Addr::from((bits >> 80) as u32));
    }
    in_range(bits, (0x2000 << 112, 3), 128) && !NON_PUBLIC_V6.iter().any(|&range| in_range(bits, range, 128))
}

fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => v4_is_public(v4),
        IpAddr::V6(v6) => v6_is_public(v6),
    }
}

/// Addresses with weight on the edges of every non-public range, and any address at all.
fn v4_address() -> impl Strategy<Value = Ipv4Addr> {
    prop_oneof![
        2 => any::<u32>(),
        3 => (prop::sample::select(NON_PUBLIC_V4), any::<u32>()).prop_map(|((network, prefix), host)| {
            network | (host & (u32::MAX >> prefix))
        }),
        // Just outside a range: the first address after it, the last before it.
        1 => (prop::sample::select(NON_PUBLIC_V4), any::<bool>()).prop_map(|((network, prefix), after)| {
            if after { network.wrapping_add(1u32.checked_shl(32 - prefix).unwrap_or(0)) } else { network.wrapping_sub(1) }
        }),
        1 => prop::sample::select(vec![0x7f00_0001, 0xa9fe_a9fe, 0x6464_64c8, 0, 0xffff_ffff, 0x0808_0808, 0x0101_0101]),
    ]
    .prop_map(Ipv4Addr::from)
}

fn v6_address() -> impl Strategy<Value = Ipv6Addr> {
    prop_oneof![
        2 => any::<u128>(),
        // Global unicast, mostly public.
        2 => any::<u128>().prop_map(|bits| (0x2000 << 112) | (bits >> 3)),
        3 => (prop::sample::select(NON_PUBLIC_V6), any::<u128>()).prop_map(|((network, prefix), host)| {
            network | (host & u128::MAX.checked_shr(prefix).unwrap_or(0))
        }),
        // IPv4 carried in IPv6: mapped, compatible, NAT64, 6to4.
        3 => (v4_address(), 0usize..4, any::<u64>()).prop_map(|(v4, form, tail)| {
            let v4 = u128::from(u32::from(v4));
            match form {
                0 => (0xffff << 32) | v4,
                1 => v4,
                2 => (0x0064_ff9b << 96) | v4,
                _ => (0x2002 << 112) | (v4 << 80) | u128::from(tail & 0xffff_ffff_ffff),
            }
        }),
        1 => prop::sample::select(vec![0, 1, (0xfe80 << 112) | 1, (0xfd00_0ec2 << 96) | 0x254]),
    ]
    .prop_map(Ipv6Addr::from)
}

/// One part of a WHATWG IPv4 host in the given radix; octal and hex may carry leading zeros.
fn v4_part(value: u32, radix: u8, upper: bool, padding: usize) -> String {
    let zeros = "0".repeat(padding);
    match radix {
        0 => value.to_string(),
        1 => format!("0{zeros}{value:o}"),
        _ if upper => format!("0X{zeros}{value:X}"),
        _ => format!("0x{zeros}{value:x}"),
    }
}

/// How to write an IPv4 host: how many parts, each part's radix, padding and letter case, a
/// trailing dot, and which characters to percent-encode or write full-width.
#[derive(Debug, Clone)]
struct V4Spelling {
    parts: usize,
    radixes: Vec<u8>,
    upper: bool,
    padding: usize,
    trailing_dot: bool,
    percent_encode: Vec<bool>,
    full_width: Vec<bool>,
}

fn v4_spelling() -> impl Strategy<Value = V4Spelling> {
    (
        1usize..=4,
        prop::collection::vec(prop_oneof![3 => Just(0u8), 1 => Just(1u8), 1 => Just(2u8)], 4),
        any::<bool>(),
        0usize..4,
        prop::bool::weighted(0.2),
        prop_oneof![3 => Just(vec![false]), 1 => prop::collection::vec(prop::bool::weighted(0.3), 1..8)],
        prop_oneof![3 => Just(vec![false]), 1 => prop::collection::vec(prop::bool::weighted(0.5), 1..8)],
    )
        .prop_map(|(parts, radixes, upper, padding, trailing_dot, percent_encode, full_width)| V4Spelling {
            parts,
            radixes,
            upper,
            padding,
            trailing_dot,
            percent_encode,
            full_width,
        })
}

fn spell_v4(ip: Ipv4Addr, how: &V4Spelling) -> String {
    let bytes = ip.octets().map(u32::from);
    // The last part holds every byte the parts before it do not.
    let last = bytes[how.parts - 1..].iter().fold(0u32, |value, &byte| (value << 8) | byte);
    let numbers: Vec<u32> = bytes[..how.parts - 1].iter().copied().chain([last]).collect();
    let mut host = numbers
        .iter()
        .zip(&how.radixes)
        .map(|(&number, &radix)| v4_part(number, radix, how.upper, how.padding))
        .collect::<Vec<_>>()
        .join(".");
    if how.trailing_dot {
        host.push('.');
    }
    disguised(&host, &how.percent_encode, &how.full_width)
}

/// Writes some characters full-width (IDNA maps them back) and percent-encodes some (the host
/// parser decodes them first).
fn disguised(host: &str, percent_encode: &[bool], full_width: &[bool]) -> String {
    let mut out = String::new();
    for (i, c) in host.chars().enumerate() {
        let wide = full_width[i % full_width.len()];
        let c = match c {
            // Both full stops IDNA maps to `.`: full-width and ideographic.
            '.' if wide => {
                if (i / 2) % 2 == 0 {
                    '\u{ff0e}'
                } else {
                    '\u{3002}'
                }
            }
            c if wide && c.is_ascii_graphic() => char::from_u32(u32::from(c) - 0x21 + 0xff01).unwrap(),
            c => c,
        };
        if percent_encode[i % percent_encode.len()] {
            let mut buffer = [0; 4];
            for byte in c.encode_utf8(&mut buffer).bytes() {
                out.push_str(&format!("%{byte:02X}"));
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// How to write an IPv6 host (inside the brackets).
#[derive(Debug, Clone)]
struct V6Spelling {
    form: u8,
    upper: bool,
    compress_run: usize,
}

fn v6_spelling() -> impl Strategy<Value = V6Spelling> {
    (0u8..5, any::<bool>(), any::<usize>()).prop_map(|(form, upper, compress_run)| V6Spelling {
        form,
        upper,
        compress_run,
    })
}

fn spell_v6(ip: Ipv6Addr, how: &V6Spelling) -> String {
    let segments = ip.segments();
    let text = match how.form {
        // As the standard library prints it (compressed, mapped addresses with a dotted tail).
        0 => ip.to_string(),
        // Every group, zero-padded.
        1 => segments.map(|s| format!("{s:04x}")).join(":"),
        // Every group, unpadded.
        2 => segments.map(|s| format!("{s:x}")).join(":"),
        // Six groups and the last 32 bits dotted.
        3 => {
            let tail = Ipv4Addr::from(u128::from(ip) as u32);
            format!("{}:{tail}", segments[..6].iter().map(|s| format!("{s:x}")).collect::<Vec<_>>().join(":"))
        }
        // Any one run of zero groups compressed, not only the longest.
        _ => {
            let runs: Vec<(usize, usize)> = (0..8)
                .filter(|&i| segments[i] == 0 && (i == 0 || segments[i - 1] != 0))
                .map(|start| (start, (start..8).take_while(|&j| segments[j] == 0).count()))
                .collect();
            if runs.is_empty() {
                segments.map(|s| format!("{s:x}")).join(":")
            } else {
                let (start, length) = runs[how.compress_run % runs.len()];
                let groups = |range: &[u16]| range.iter().map(|s| format!("{s:x}")).collect::<Vec<_>>().join(":");
                format!("{}::{}", groups(&segments[..start]), groups(&segments[start + length..]))
            }
        }
    };
    if how.upper { text.to_uppercase() } else { text }
}

/// Scheme case, port and path around a host.
fn url_around(host: &str, upper_scheme: bool, port: &str, path: &str) -> String {
    let scheme = if upper_scheme { "HTTPS" } else { "https" };
    format!("{scheme}://{host}{port}{path}")
}

fn port() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec!["", "", ":443", ":8443", ":1"])
}

fn path() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec!["", "/", "/hooks/clickwrap", "/h?x=1&y=%20", "/%2e%2e/"])
}

/// What a WHATWG client would connect to for `text`.
fn client_host(text: &str) -> Option<Host<String>> {
    Url::parse(text).ok().and_then(|url| url.host().map(|host| host.to_owned()))
}

/// The verdict a spelling of `ip` must get.
fn check_ip_spelling(text: &str, ip: IpAddr) -> Result<(), TestCaseError> {
    let expected_host = match ip {
        IpAddr::V4(v4) => Host::Ipv4(v4),
        IpAddr::V6(v6) => Host::Ipv6(v6),
    };
    // The spelling is one a client really reads as this address (else the generator is wrong).
    prop_assert_eq!(client_host(text), Some(expected_host.clone()), "{}", text);
    let verdict = WebhookUrl::parse(text);
    if is_public(ip) {
        let url = verdict.map_err(|e| TestCaseError::fail(format!("{e}: {text} ({ip})")))?;
        prop_assert_eq!(url.ip_literal(), Some(ip));
        // As a WHATWG serializer writes it: IPv6 compressed, in hex, in brackets.
        let host = expected_host.to_string();
        prop_assert_eq!(url.host(), host.as_str());
        prop_assert!(url.as_str().starts_with(&format!("https://{host}")), "{}", url);
        // The normalized form is a fixed point.
        prop_assert_eq!(WebhookUrl::parse(url.as_str()), Ok(url.clone()));
    } else {
        prop_assert_eq!(verdict, Err(InvalidWebhookUrl::NonPublicAddress), "{} ({})", text, ip);
    }
    Ok(())
}

const LOCAL_NAMES: &[&str] = &[
    "localhost",
    "api.localhost",
    "a.b.localhost",
    "metadata",
    "metadata.google.internal",
    "metadata.goog",
    "instance-data",
    "instance-data.ec2.internal",
    "metadata.azure.com",
    "kubernetes.default.svc",
    "kubernetes.default.svc.cluster.local",
];

proptest! {
    #![proptest_config(cases(512))]

    #[test]
    fn every_spelling_of_an_ipv4_address_gets_the_verdict_of_the_address(
        ip in v4_address(),
        how in v4_spelling(),
        upper_scheme in any::<bool>(),
        port in port(),
        path in path(),
    ) {
        let text = url_around(&spell_v4(ip, &how), upper_scheme, port, path);
        check_ip_spelling(&text, IpAddr::V4(ip))?;
    }

    #[test]
    fn every_spelling_of_an_ipv6_address_gets_the_verdict_of_the_address(
        ip in v6_address(),
        how in v6_spelling(),
        upper_scheme in any::<bool>(),
        port in port(),
        path in path(),
    ) {
        let text = url_around(&format!("[{}]", spell_v6(ip, &how)), upper_scheme, port, path);
        check_ip_spelling(&text, IpAddr::V6(ip))?;
    }

    #[test]
    fn an_ipv6_address_with_a_zone_id_is_refused(
        ip in v6_address(),
        how in v6_spelling(),
        zone in prop_oneof![Just("eth0".to_owned()), "[a-z0-9]{1,6}"],
        separator in prop::sample::select(vec!["%25", "%"]),
    ) {
        let text = format!("https://[{}{separator}{zone}]/", spell_v6(ip, &how));
        prop_assert!(WebhookUrl::parse(&text).is_err(), "{}", text);
    }

    #[test]
    fn every_spelling_of_a_local_or_metadata_name_is_refused(
        name in prop::sample::select(LOCAL_NAMES),
        upper in prop::collection::vec(any::<bool>(), 1..6),
        trailing_dot in any::<bool>(),
        percent_encode in prop_oneof![Just(vec![false]), prop::collection::vec(prop::bool::weighted(0.3), 1..8)],
        full_width in prop_oneof![Just(vec![false]), prop::collection::vec(prop::bool::weighted(0.5), 1..8)],
        soft_hyphen in prop::option::of(any::<prop::sample::Index>()),
        port in port(),
        path in path(),
    ) {
        let mut host: String =
            name.chars().zip(upper.iter().cycle()).map(|(c, &u)| if u { c.to_ascii_uppercase() } else { c }).collect();
        if trailing_dot {
            host.push('.');
        }
        // IDNA drops a soft hyphen, so `local\u{ad}host` is localhost.
        if let Some(at) = soft_hyphen {
            let at = host.char_indices().nth(at.index(host.chars().count())).map_or(host.len(), |(i, _)| i);
            host.insert(at, '\u{ad}');
        }
        let text = url_around(&disguised(&host, &percent_encode, &full_width), false, port, path);
        let expected = Host::Domain(format!("{name}{}", if trailing_dot { "." } else { "" }));
        prop_assert_eq!(client_host(&text), Some(expected), "{}", text);
        prop_assert_eq!(WebhookUrl::parse(&text), Err(InvalidWebhookUrl::ForbiddenHost), "{}", text);
    }

    #[test]
    fn nothing_accepted_leads_a_client_anywhere_it_must_not_go(
        text in prop_oneof![
            hostile_text(),
            "[hH][tT][tT][pP][sS]?:[/\\\\]{0,3}[a-z0-9.:@%\\[\\]\\\\/#?_-]{0,30}",
            (prop::sample::select(vec!["https://", "HTTPS://", "https:", "https:/", "https:///", "https:\\\\"]),
                "[0-9a-fxA-FX.:%\\[\\]@]{0,24}", path())
                .prop_map(|(scheme, host, path)| format!("{scheme}{host}{path}")),
        ]
    ) {
        let Ok(accepted) = WebhookUrl::parse(&text) else { return Ok(()) };
        let url = Url::parse(&text).map_err(|e| TestCaseError::fail(format!("accepted but unparsable: {text}: {e}")))?;
        prop_assert_eq!(url.scheme(), "https");
        prop_assert_eq!(url.as_str(), accepted.as_str());
        match url.host() {
            Some(Host::Ipv4(ip)) => prop_assert!(v4_is_public(ip), "{}", text),
            Some(Host::Ipv6(ip)) => prop_assert!(v6_is_public(ip), "{}", text),
            Some(Host::Domain(name)) => {
                let name = name.trim_end_matches('.');
                prop_assert!(!name.is_empty() && name != "localhost" && !name.ends_with(".localhost"), "{}", text);
                prop_assert!(!LOCAL_NAMES.contains(&name), "{}", text);
            }
            None => prop_assert!(false, "accepted without a host: {}", text),
        }
        prop_assert!(url.username().is_empty() && url.password().is_none() && url.fragment().is_none());
    }
}

#[test]
fn the_spellings_cover_what_the_brief_names() {
    let loopback = Ipv4Addr::new(127, 0, 0, 1);
    let how = |parts, radixes: [u8; 4], padding| V4Spelling {
        parts,
        radixes: radixes.to_vec(),
        upper: false,
        padding,
        trailing_dot: false,
        percent_encode: vec![false],
        full_width: vec![false],
    };
    assert_eq!(spell_v4(loopback, &how(4, [0; 4], 0)), "127.0.0.1");
    assert_eq!(spell_v4(loopback, &how(1, [0; 4], 0)), "2130706433");
    assert_eq!(spell_v4(loopback, &how(1, [2; 4], 0)), "0x7f000001");
    assert_eq!(spell_v4(loopback, &how(1, [1; 4], 0)), "017700000001");
    assert_eq!(spell_v4(loopback, &how(2, [0, 2, 0, 0], 2)), "127.0x001");
    assert_eq!(spell_v4(loopback, &how(3, [1, 0, 0, 0], 3)), "0000177.0.1");
    assert_eq!(
        disguised("127.0.0.1", &[false], &[true]),
        "\u{ff11}\u{ff12}\u{ff17}\u{3002}\u{ff10}\u{ff0e}\u{ff10}\u{3002}\u{ff11}"
    );
    assert_eq!(disguised("1.0", &[true], &[false]), "%31%2E%30");
    let mapped = Ipv4Addr::new(10, 0, 0, 1).to_ipv6_mapped();
    let v6 = |form| V6Spelling { form, upper: true, compress_run: 0 };
    assert_eq!(spell_v6(mapped, &v6(0)), "::FFFF:10.0.0.1");
    assert_eq!(spell_v6(mapped, &v6(1)), "0000:0000:0000:0000:0000:FFFF:0A00:0001");
    assert_eq!(spell_v6(mapped, &v6(3)), "0:0:0:0:0:FFFF:10.0.0.1");
    assert_eq!(spell_v6(Ipv6Addr::new(1, 0, 0, 2, 0, 0, 0, 3), &v6(4)), "1::2:0:0:0:3");
    for text in [
        "https://0x7f.1/",
        "https://0177.0.0.01/",
        "https://127.000000000000.1/",
        "https://%31%32%37.0.0.1/",
        "https://\u{ff11}\u{ff12}\u{ff17}\u{3002}0.0.1/",
        "https://[::ffff:127.0.0.1]/",
        "https://[0:0:0:0:0:FFFF:7F00:1]/",
        "https://[::127.0.0.1]/",
        "https://[64:ff9b::127.0.0.1]/",
        "https://[2002:7f00:1::]/",
        "https://[fe80::1%25eth0]/",
        "https://[FD00:EC2::254]/",
        "https://169.254.169.254./",
        "https://0xA9FEA9FE/",
        "https://100.100.100.200/",
        "https://local\u{ad}host/",
    ] {
        assert!(WebhookUrl::parse(text).is_err(), "{text}");
    }
}
