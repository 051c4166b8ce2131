//! The small values every request carries: language preferences, ids, end user ids, tags, names,
//! timestamps, content hashes, key ids and address ranges. Each is accepted exactly when its rule
//! says, and what it prints reads back to the same value.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use clickwrap_domain::content::hash::ContentHash;
use clickwrap_domain::keys::KeyId;
use clickwrap_domain::language::{InvalidLanguage, MAX_PREFERENCES};
use clickwrap_domain::webhooks::cidr::Cidr;
use clickwrap_domain::{EndUserId, EventId, Language, LanguagePreference, Name, Tag, TemplateId, Timestamp};
use proptest::prelude::*;
use uuid::Uuid;

use crate::support::{cases, hostile_text};

/// The language rule: a comma-separated list of at most 16 tags (blank entries skipped), each a
/// primary subtag of 2 to 8 letters and optional subtags of 1 to 8 letters or digits, separated by
/// `-` or `_`. The result is the supported primary languages in order, each once.
fn expected_preference(text: &str) -> Result<Vec<Language>, InvalidLanguage> {
    let tags: Vec<&str> = text.split(',').map(str::trim).filter(|t| !t.is_empty()).collect();
    if tags.len() > MAX_PREFERENCES {
        return Err(InvalidLanguage::TooMany);
    }
    let mut languages = Vec::new();
    for tag in tags {
        let mut subtags = tag.split(['-', '_']);
        let primary = subtags.next().unwrap_or_default();
        let primary_ok = (2..=8).contains(&primary.len()) && primary.bytes().all(|b| b.is_ascii_alphabetic());
        if !primary_ok || !subtags.all(|s| (1..=8).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_alphanumeric())) {
            return Err(InvalidLanguage::Malformed);
        }
        let code = primary.to_ascii_lowercase();
        if let Some(language) = Language::ALL.into_iter().find(|l| l.code() == code)
            && !languages.contains(&language)
        {
            languages.push(language);
        }
    }
    Ok(languages)
}

/// Language lists as browsers, SDKs and people write them, now and then broken.
fn language_list() -> impl Strategy<Value = String> {
    let subtag = prop_oneof!["[A-Za-z]{2,3}", "[A-Za-z0-9]{1,8}", "[A-Za-z0-9]{9,10}", Just(String::new())];
    let tag = (
        prop_oneof![
            prop::sample::select(vec!["en", "DE", "fr", "Es", "zh", "hi", "ru", "ja", "ko", "pt", "x", "i", "123"])
                .prop_map(str::to_owned),
            "[A-Za-z]{2,9}",
            "\\PC{0,3}",
        ],
        prop::collection::vec((prop::sample::select(vec!["-", "_", "--", " "]), subtag), 0..3),
        prop::sample::select(vec!["", " ", "\t", ";q=0.9"]),
    )
        .prop_map(|(primary, subtags, tail)| {
            let subtags: String = subtags.into_iter().map(|(sep, s)| format!("{sep}{s}")).collect();
            format!("{primary}{subtags}{tail}")
        });
    prop::collection::vec(tag, 0..20).prop_map(|tags| tags.join(","))
}

/// Any well-formed language tag of `language` in any letter case, with region or script subtags.
fn tag_of(language: Language, upper: bool, subtags: &[String]) -> String {
    let primary = if upper { language.code().to_ascii_uppercase() } else { language.code().to_owned() };
    std::iter::once(primary).chain(subtags.iter().cloned()).collect::<Vec<_>>().join("-")
}

fn is_hyphenated_uuid(text: &str) -> bool {
    text.len() == 36
        && text.char_indices().all(|(i, c)| if [8, 13, 18, 23].contains(&i) { c == '-' } else { c.is_ascii_hexdigit() })
}

/// Text near the id shape: right length with wrong characters, braces, simple form, spaces.
fn id_like_text() -> impl Strategy<Value = String> {
    (any::<u128>(), any::<prop::sample::Index>(), any::<char>(), 0usize..6).prop_map(|(bits, at, c, variant)| {
        let uuid = Uuid::from_u128(bits);
        let text = uuid.hyphenated().to_string();
        match variant {
            0 => text.to_uppercase(),
            1 => {
                let mut chars: Vec<char> = text.chars().collect();
                let i = at.index(chars.len());
                chars[i] = c;
                chars.into_iter().collect()
            }
            2 => uuid.simple().to_string(),
            3 => uuid.braced().to_string(),
            4 => uuid.urn().to_string(),
            _ => format!(" {text}"),
        }
    })
}

fn ipv4() -> impl Strategy<Value = Ipv4Addr> {
    any::<u32>().prop_map(Ipv4Addr::from)
}

fn within(ip: u128, network: u128, prefix: u32) -> bool {
    let mask = u128::MAX.checked_shl(128 - prefix).unwrap_or(0);
    ip & mask == network & mask
}

proptest! {
    #![proptest_config(cases(256))]

    #[test]
    fn a_language_list_is_read_or_refused_as_the_rule_says(text in prop_oneof![language_list(), hostile_text()]) {
        let parsed = LanguagePreference::parse(&text).map(|p| p.languages().to_vec());
        prop_assert_eq!(parsed, expected_preference(&text), "{:?}", text);
    }

    #[test]
    fn any_tag_of_a_supported_language_reads_back_to_it(
        languages in prop::collection::vec((prop::sample::select(Language::ALL.to_vec()), any::<bool>()), 1..=16),
        subtags in prop::collection::vec(prop::collection::vec("[A-Za-z0-9]{1,8}", 0..3), 16),
        spaces in prop::sample::select(vec!["", " ", "  "]),
    ) {
        let tags: Vec<String> =
            languages.iter().zip(&subtags).map(|(&(language, upper), subtags)| tag_of(language, upper, subtags)).collect();
        for (tag, &(language, _)) in tags.iter().zip(&languages) {
            prop_assert_eq!(Language::from_tag(tag), Ok(language));
            prop_assert_eq!(Language::from_code(&language.to_string()), Some(language));
        }
        let mut expected: Vec<Language> = Vec::new();
        for &(language, _) in &languages {
            if !expected.contains(&language) {
                expected.push(language);
            }
        }
        let list = tags.join(&format!("{spaces},{spaces}"));
        prop_assert_eq!(LanguagePreference::parse(&list).map(|p| p.languages().to_vec()), Ok(expected));
    }

    #[test]
    fn ids_print_lowercase_and_read_back(bits in any::<u128>()) {
        let id = EventId::from_uuid(Uuid::from_u128(bits));
        let text = id.to_string();
        prop_assert!(is_hyphenated_uuid(&text) && text == text.to_lowercase());
        prop_assert_eq!(EventId::parse(&text), Ok(id));
        prop_assert_eq!(EventId::parse(&text.to_uppercase()), Ok(id));
    }

    #[test]
    fn an_id_is_accepted_only_in_the_hyphenated_form(text in prop_oneof![id_like_text(), hostile_text()]) {
        let parsed = TemplateId::parse(&text);
        prop_assert_eq!(parsed.is_ok(), is_hyphenated_uuid(&text), "{:?}", text);
        if let Ok(id) = parsed {
            prop_assert_eq!(id.to_string(), text.to_lowercase());
        }
    }

    #[test]
    fn an_end_user_id_is_accepted_exactly_when_the_rule_says(text in hostile_text()) {
        let valid = (1..=256).contains(&text.chars().count()) && !text.chars().any(char::is_control);
        let parsed = EndUserId::parse(&text);
        prop_assert_eq!(parsed.is_ok(), valid);
        if let Ok(id) = parsed {
            prop_assert_eq!(id.as_str(), text.as_str());
        }
    }

    #[test]
    fn a_tag_is_accepted_exactly_when_the_rule_says(
        text in prop_oneof![hostile_text(), "[a-z0-9,_ \t-]{0,70}", "\\PC{60,70}"]
    ) {
        let valid = (1..=64).contains(&text.chars().count())
            && text.chars().all(|c| !c.is_whitespace() && !c.is_control() && c != ',');
        let parsed = Tag::parse(&text);
        prop_assert_eq!(parsed.is_ok(), valid, "{:?}", text);
        if let Ok(tag) = parsed {
            prop_assert_eq!(tag.as_str(), text.as_str());
            prop_assert_eq!(Tag::parse(&tag.to_string()), Ok(tag));
        }
    }

    #[test]
    fn a_name_is_trimmed_and_accepted_exactly_when_the_rule_says(
        text in prop_oneof![hostile_text(), "[ \u{3000}\u{a0}]{0,3}\\PC{195,205}[ \t]{0,3}"]
    ) {
        let trimmed = text.trim();
        let valid = (1..=200).contains(&trimmed.chars().count()) && !trimmed.chars().any(char::is_control);
        let parsed = Name::parse(&text);
        prop_assert_eq!(parsed.is_ok(), valid, "{:?}", text);
        if let Ok(name) = parsed {
            prop_assert_eq!(name.as_str(), trimmed);
            prop_assert_eq!(Name::parse(name.as_str()), Ok(name));
        }
    }

    #[test]
    fn a_timestamp_in_any_offset_and_precision_reads_as_its_utc_millisecond(
        millis in -62_135_596_800_000i64..253_402_300_799_000i64,
        sub_millis in 0u32..1_000_000,
        offset_minutes in -1439i32..=1439,
        digits in 0usize..=9,
        lower in any::<bool>(),
    ) {
        let utc = time::OffsetDateTime::from_unix_timestamp_nanos(
            i128::from(millis) * 1_000_000 + i128::from(sub_millis),
        ).unwrap();
        let offset = time::UtcOffset::from_whole_seconds(offset_minutes * 60).unwrap();
        let local = utc.to_offset(offset);
        prop_assume!((1..=9999).contains(&local.year()));
        let fraction = format!("{:09}", local.nanosecond());
        let fraction = if digits == 0 { String::new() } else { format!(".{}", &fraction[..digits]) };
        let zone = if offset_minutes == 0 && digits % 2 == 0 {
            "Z".to_owned()
        } else {
            let sign = if offset_minutes < 0 { '-' } else { '+' };
            format!("{sign}{:02}:{:02}", offset_minutes.abs() / 60, offset_minutes.abs() % 60)
        };
        let text = format!(
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}{fraction}{zone}",
            local.year(), u8::from(local.month()), local.day(), local.hour(), local.minute(), local.second()
        );
        let text = if lower { text.to_lowercase() } else { text };
        // Digits past the third go with the cut to milliseconds; fewer cut the instant earlier.
        let unit = 10u32.pow(9 - u32::try_from(digits.min(3)).unwrap());
        let expected_millis = utc.unix_timestamp() * 1000 + i64::from(utc.nanosecond() / unit * unit / 1_000_000);
        let parsed = Timestamp::parse_rfc3339(&text).map_err(|e| TestCaseError::fail(format!("{e}: {text}")))?;
        prop_assert_eq!(parsed.unix_millis(), expected_millis, "{}", text);
        prop_assert_eq!(Timestamp::parse_rfc3339(&parsed.to_rfc3339()), Ok(parsed));
    }

    #[test]
    fn any_text_is_read_or_refused_as_a_timestamp_without_panicking(text in hostile_text()) {
        if let Ok(parsed) = Timestamp::parse_rfc3339(&text) {
            prop_assert_eq!(Timestamp::parse_rfc3339(&parsed.to_rfc3339()), Ok(parsed));
        }
    }

    #[test]
    fn a_content_hash_and_a_key_id_are_accepted_exactly_when_their_rules_say(
        text in prop_oneof![hostile_text(), "sha256:[0-9a-fA-F]{63,65}", "[a-z0-9A-Z_.-]{0,34}"]
    ) {
        let hash_ok = text.strip_prefix("sha256:")
            .is_some_and(|hex| hex.len() == 64 && hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')));
        prop_assert_eq!(ContentHash::parse(&text).map(|h| h.to_string()).ok(), hash_ok.then(|| text.clone()));
        let key_ok = (1..=32).contains(&text.len()) && text.bytes().all(|b| matches!(b, b'a'..=b'z' | b'0'..=b'9' | b'-'));
        prop_assert_eq!(KeyId::parse(&text).map(|k| k.to_string()).ok(), key_ok.then(|| text.clone()));
    }

    #[test]
    fn an_ipv4_range_reads_back_and_contains_what_its_bits_say(
        network in ipv4(),
        prefix in 0u8..=32,
        probe in ipv4(),
    ) {
        let range = Cidr::new(IpAddr::V4(network), prefix).unwrap();
        prop_assert_eq!(range.to_string().parse::<Cidr>(), Ok(range));
        let inside = within(u128::from(u32::from(probe)), u128::from(u32::from(network)), u32::from(prefix) + 96);
        prop_assert_eq!(range.contains(IpAddr::V4(probe)), inside);
        // Where the packets go decides: the IPv4-mapped form of an address is the address.
        prop_assert_eq!(range.contains(IpAddr::V6(probe.to_ipv6_mapped())), inside);
        // And a range written in IPv4-mapped form is the IPv4 range.
        let mapped = format!("{}/{}", network.to_ipv6_mapped(), prefix + 96).parse::<Cidr>().unwrap();
        prop_assert_eq!(mapped.contains(IpAddr::V4(probe)), inside, "{}", mapped);
        prop_assert_eq!(mapped.contains(IpAddr::V6(probe.to_ipv6_mapped())), inside, "{}", mapped);
    }

    #[test]
    fn an_ipv6_range_reads_back_and_contains_what_its_bits_say(
        network in any::<u128>(),
        prefix in 0u8..=128,
        probe in any::<u128>(),
        near in any::<bool>(),
    ) {
        let range = Cidr::new(IpAddr::V6(Ipv6Addr::from(network)), prefix).unwrap();
        prop_assert_eq!(range.to_string().parse::<Cidr>(), Ok(range));
        // Half the probes share the range's leading bits, so both answers are seen.
        let probe = if near { network ^ (probe >> prefix.min(127)) } else { probe };
        let address = Ipv6Addr::from(probe);
        // IPv4 in IPv6 is judged as IPv4 (see the IPv4 property).
        let mapped_range = prefix >= 96 && within(network, 0xffff << 32, 96);
        prop_assume!(address.to_ipv4_mapped().is_none() && !mapped_range);
        prop_assert_eq!(range.contains(IpAddr::V6(address)), within(probe, network, u32::from(prefix)));
    }

    #[test]
    fn any_text_is_read_or_refused_as_address_ranges_without_panicking(text in prop_oneof![
        hostile_text(),
        "[0-9a-fA-F:./ ,]{0,40}",
    ]) {
        if let Ok(range) = text.parse::<Cidr>() {
            prop_assert_eq!(range.to_string().parse::<Cidr>(), Ok(range));
        }
        if let Ok(list) = Cidr::parse_list(&text) {
            let printed: Vec<String> = list.iter().map(Cidr::to_string).collect();
            prop_assert_eq!(Cidr::parse_list(&printed.join(",")), Ok(list));
        }
    }
}
