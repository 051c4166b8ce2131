//! Entity tags of the files the service serves as they are (the console's assets, the SDK
//! scripts) and the one `If-None-Match` rule both answer by. It is here, though it is a rule of
//! HTTP, because it is pure text that the console (its assets) and the server (the SDK scripts)
//! need alike, and the domain is what both depend on: the server's script routes should not reach
//! into the operator console for it. No HTTP type or framework comes with it.

/// A strong entity tag, quoted, from a 64-bit FNV-1a hash of `bytes`: the same bytes give the same
/// tag on every instance and every start, changed bytes a new one. A cache key, not a security check.
pub fn strong_etag(bytes: &[u8]) -> String {
    const OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let hash = bytes.iter().fold(OFFSET_BASIS, |hash, byte| (hash ^ u64::from(*byte)).wrapping_mul(PRIME));
    format!("\"{hash:016x}\"")
}

/// Whether an `If-None-Match` header value (RFC 9110, 13.1.2) matches `etag`, so that the answer
/// is 304 Not Modified: `*`, or a comma-separated list of entity tags of which one equals `etag` by
/// weak comparison (a `W/` prefix on either side is ignored). A malformed list matches only
/// through the tags before the fault, so a client sending nonsense gets the full answer.
pub fn if_none_match(header: &str, etag: &str) -> bool {
    let header = header.trim_matches([' ', '\t']);
    if header == "*" {
        return true;
    }
    let Some(wanted) = opaque_tag(etag) else { return false };
    let mut rest = header;
    loop {
        rest = rest.trim_start_matches([',', ' ', '\t']);
        if rest.is_empty() {
            return false;
        }
        let tag = rest.strip_prefix("W/").unwrap_or(rest);
        // An opaque tag holds any visible character but `"`, a comma included.
        let Some((opaque, after)) = tag.strip_prefix('"').and_then(|t| t.split_once('"')) else { return false };
        if opaque == wanted {
            return true;
        }
        rest = after;
    }
}

/// The quoted part of an entity tag, without its quotes and `W/`.
fn opaque_tag(etag: &str) -> Option<&str> {
    let tag = etag.strip_prefix("W/").unwrap_or(etag);
    tag.strip_prefix('"')?.strip_suffix('"').filter(|opaque| !opaque.contains('"'))
}

#[cfg(test)]
mod tests {
    use super::*;

    const TAG: &str = "\"cbf29ce484222325\"";

    #[test]
    fn strong_tags_are_quoted_stable_and_differ_per_content() {
        // FNV-1a's published 64-bit reference values.
        assert_eq!(strong_etag(b""), TAG);
        assert_eq!(strong_etag(b"a"), "\"af63dc4c8601ec8c\"");
        assert_eq!(strong_etag(b"foobar"), "\"85944171f73967e8\"");
        assert_eq!(strong_etag(b"body"), strong_etag(b"body"));
        assert_ne!(strong_etag(b"body"), strong_etag(b"other body"));
    }

    #[test]
    fn a_list_matches_when_any_of_its_tags_does_by_weak_comparison() {
        for header in [
            TAG,
            "*",
            " * ",
            "\"a\", \"cbf29ce484222325\"",
            "\"a\",\"cbf29ce484222325\",\"b\"",
            "W/\"cbf29ce484222325\"",
            "\"a\" ,\tW/\"cbf29ce484222325\"",
            "\"a,b\", \"cbf29ce484222325\"",
        ] {
            assert!(if_none_match(header, TAG), "{header:?} matches");
        }
        assert!(if_none_match(TAG, &format!("W/{TAG}")), "a weak tag of ours matches too");
    }

    #[test]
    fn other_tags_and_malformed_lists_do_not_match() {
        for header in [
            "",
            "\"a\"",
            "\"a\", \"b\"",
            "cbf29ce484222325",
            "\"cbf29ce484222325",
            "\"cbf29ce484222325-gzip\"",
            "w/\"cbf29ce484222325\"",
            "\"a,\"cbf29ce484222325\"",
            "**",
        ] {
            assert!(!if_none_match(header, TAG), "{header:?} does not match");
        }
        assert!(!if_none_match(TAG, "not quoted"), "a tag of ours that is not a tag matches nothing");
    }
}
