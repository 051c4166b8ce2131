//! The sanitizer against known script vectors: every vector of `xss_vectors.txt`, alone, changed
//! in case and spacing, and embedded at random places in ordinary agreement markup, comes out
//! without anything that could run script, load a document or restyle the page, and sanitizing
//! the output again changes nothing.

use clickwrap_domain::content::sanitize::sanitize;
use proptest::prelude::*;

use crate::support::cases;

/// The corpus, escapes resolved (see the file's header).
pub(crate) fn vectors() -> Vec<String> {
    include_str!("xss_vectors.txt")
        .lines()
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(unescape)
        .collect()
}

fn unescape(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('t') => out.push('\t'),
            Some('0') => out.push('\0'),
            Some('\\') => out.push('\\'),
            Some('x') => {
                let hex: String = chars.by_ref().take(2).collect();
                out.push(char::from(u8::from_str_radix(&hex, 16).unwrap()));
            }
            Some('u') => {
                let braced: String = chars.by_ref().take_while(|&c| c != '}').collect();
                let hex = braced.strip_prefix('{').unwrap();
                out.push(char::from_u32(u32::from_str_radix(hex, 16).unwrap()).unwrap());
            }
            other => panic!("unknown escape \\{other:?} in {line:?}"),
        }
    }
    out
}

/// Elements an agreement may contain: structure and text-level markup only.
const SAFE_ELEMENTS: &[&str] = &[
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "p",
    "br",
    "hr",
    "ul",
    "ol",
    "li",
    "dl",
    "dt",
    "dd",
    "strong",
    "b",
    "em",
    "i",
    "u",
    "s",
    "sup",
    "sub",
    "blockquote",
    "a",
    "span",
    "div",
    "code",
    "pre",
    "table",
    "caption",
    "colgroup",
    "col",
    "thead",
    "tbody",
    "tfoot",
    "tr",
    "th",
    "td",
];

/// Attributes that can neither run script nor fetch anything (`href` is checked on its own).
const SAFE_ATTRIBUTES: &[&str] =
    &["href", "title", "lang", "start", "colspan", "rowspan", "scope", "span", "target", "rel"];

/// Element names that must never appear in output, checked on the raw text as well as on the
/// parsed tags: a raw `<` in sanitized output always opens a tag (text and attribute values have
/// it escaped), so these substrings are tags.
const FORBIDDEN_OPENINGS: &[&str] = &[
    "<script",
    "<iframe",
    "<frame",
    "<object",
    "<embed",
    "<applet",
    "<base",
    "<meta",
    "<style",
    "<link",
    "<svg",
    "<math",
    "<form",
    "<input",
    "<button",
    "<img",
    "<image",
    "<video",
    "<audio",
    "<source",
    "<template",
    "<noscript",
    "<textarea",
    "<select",
    "<xmp",
    "<plaintext",
    "<title",
    "<portal",
    "<!--",
    "<!",
    "<?",
];

/// What a browser does to an attribute value before it reads a URL from it: character references
/// decoded (repeatedly here, to be strict), then ASCII whitespace and controls dropped anywhere
/// (the URL parser drops tabs and newlines inside, and trims the rest), lowercased.
fn url_as_a_browser_reads_it(value: &str) -> String {
    let mut text = value.to_owned();
    for _ in 0..8 {
        let decoded = decode_character_references(&text);
        if decoded == text {
            break;
        }
        text = decoded;
    }
    text.chars().filter(|c| !c.is_ascii_whitespace() && !c.is_control()).flat_map(char::to_lowercase).collect()
}

/// Numeric references with or without `;`, and the named ones that matter to a URL scheme.
fn decode_character_references(text: &str) -> String {
    const NAMED: &[(&str, char)] = &[
        ("amp", '&'),
        ("lt", '<'),
        ("gt", '>'),
        ("quot", '"'),
        ("apos", '\''),
        ("colon", ':'),
        ("tab", '\t'),
        ("newline", '\n'),
        ("nbsp", '\u{a0}'),
        ("sol", '/'),
        ("lpar", '('),
        ("rpar", ')'),
    ];
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let (decoded, used) = if let Some(number) = after.strip_prefix('#') {
            let (radix, digits_from) = match number.strip_prefix(['x', 'X']) {
                Some(_) => (16, 2),
                None => (10, 1),
            };
            let digits: String = after[digits_from..].chars().take_while(|c| c.is_digit(radix)).collect();
            let value = u32::from_str_radix(&digits, radix).ok().and_then(char::from_u32).unwrap_or('\u{fffd}');
            let mut used = digits_from + digits.len();
            if after[used..].starts_with(';') {
                used += 1;
            }
            if digits.is_empty() { (None, 0) } else { (Some(value), used) }
        } else {
            let name: String = after.chars().take_while(char::is_ascii_alphanumeric).collect();
            let found = NAMED.iter().find(|(known, _)| known.eq_ignore_ascii_case(&name)).map(|&(_, c)| c);
            let used = name.len() + usize::from(after[name.len()..].starts_with(';'));
            (found, used)
        };
        match decoded {
            Some(c) => {
                out.push(c);
                rest = &after[used..];
            }
            None => {
                out.push('&');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[derive(Debug)]
struct Tag {
    name: String,
    attributes: Vec<(String, String)>,
}

/// Reads the tags of serialized HTML, attribute values quoted or not.
fn tags(html: &str) -> Result<Vec<Tag>, String> {
    let mut found = Vec::new();
    let mut chars = html.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '<' {
            continue;
        }
        let _closing = chars.next_if_eq(&'/');
        let mut name = String::new();
        while let Some(c) = chars.next_if(|c| !c.is_ascii_whitespace() && *c != '/' && *c != '>') {
            name.push(c);
        }
        let mut attributes = Vec::new();
        loop {
            while chars.next_if(|c| c.is_ascii_whitespace() || *c == '/').is_some() {}
            match chars.peek() {
                None => return Err(format!("unclosed tag <{name}")),
                Some('>') => {
                    chars.next();
                    break;
                }
                Some(_) => {}
            }
            let mut attribute = String::new();
            while let Some(c) = chars.next_if(|c| !c.is_ascii_whitespace() && !matches!(c, '=' | '>' | '/')) {
                attribute.push(c);
            }
            let mut value = String::new();
            if chars.next_if_eq(&'=').is_some() {
                match chars.next_if(|c| *c == '"' || *c == '\'') {
                    Some(quote) => loop {
                        match chars.next() {
                            None => return Err(format!("unclosed attribute value in <{name}")),
                            Some(c) if c == quote => break,
                            Some(c) => value.push(c),
                        }
                    },
                    None => {
                        while let Some(c) = chars.next_if(|c| !c.is_ascii_whitespace() && *c != '>') {
                            value.push(c);
                        }
                    }
                }
            }
            attributes.push((attribute, value));
        }
        found.push(Tag { name, attributes });
    }
    Ok(found)
}

/// Every way `html` could run script, load a document or resource, or restyle the page; empty
/// when it is safe to show.
pub(crate) fn script_vectors(html: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let lower = html.to_ascii_lowercase();
    problems.extend(FORBIDDEN_OPENINGS.iter().filter(|opening| lower.contains(*opening)).map(|o| format!("{o:?}")));
    let tags = match tags(html) {
        Ok(tags) => tags,
        Err(error) => {
            problems.push(error);
            return problems;
        }
    };
    for tag in tags {
        let name = tag.name.to_ascii_lowercase();
        if !SAFE_ELEMENTS.contains(&name.as_str()) {
            problems.push(format!("element <{}>", tag.name));
        }
        for (attribute, value) in &tag.attributes {
            let attribute = attribute.to_ascii_lowercase();
            if attribute.starts_with("on") {
                problems.push(format!("event handler {attribute}={value:?}"));
            } else if !SAFE_ATTRIBUTES.contains(&attribute.as_str()) {
                problems.push(format!("attribute {attribute}={value:?} on <{name}>"));
            }
            if attribute == "href" {
                let url = url_as_a_browser_reads_it(value);
                if ["javascript:", "vbscript:", "data:"].iter().any(|scheme| url.starts_with(scheme)) {
                    problems.push(format!("script URL {value:?}"));
                } else if !["https:", "http:", "mailto:"].iter().any(|scheme| url.starts_with(scheme)) {
                    problems.push(format!("href not absolute with an allowed scheme: {value:?}"));
                }
            }
        }
    }
    problems
}

/// Sanitizes, checks the output is free of script vectors and a fixed point, and returns it.
fn sanitized_safely(raw: &str) -> Result<String, TestCaseError> {
    let once = sanitize(raw).map_err(|e| TestCaseError::fail(format!("{e} for {raw:?}")))?.into_string();
    let problems = script_vectors(&once);
    prop_assert!(problems.is_empty(), "{problems:?}\n   in: {raw:?}\n  out: {once:?}");
    let twice = sanitize(&once).unwrap().into_string();
    prop_assert_eq!(&twice, &once, "not idempotent for {:?}", raw);
    Ok(once)
}

#[test]
fn the_corpus_is_read_whole() {
    let vectors = vectors();
    assert!(vectors.len() >= 250, "{}", vectors.len());
    assert!(vectors.iter().any(|v| v.contains('\0')), "null bytes");
    assert!(vectors.iter().any(|v| v.contains('\t') && v.contains("javascript")), "tabs");
    assert!(vectors.iter().any(|v| v.contains('\u{FF4A}')), "escaped characters");
}

#[test]
fn the_checker_flags_every_vector_before_sanitizing() {
    for vector in vectors() {
        assert!(!script_vectors(&vector).is_empty(), "not flagged: {vector:?}");
    }
}

#[test]
fn the_checker_passes_ordinary_agreement_markup() {
    let html = concat!(
        "<h1>Terms</h1><p lang=\"de\" title=\"a &amp; b\">Text &lt;script&gt; {{fullName}}</p>",
        "<a href=\"https://example.com/?a=1&amp;b=2\" target=\"_blank\" rel=\"noopener noreferrer nofollow\">x</a>",
        "<a href=\"MAILTO:legal@example.com\">m</a><table><tbody><tr><td colspan=\"2\">c</td></tr></tbody></table>",
    );
    assert_eq!(script_vectors(html), Vec::<String>::new());
}

#[test]
fn the_checker_decodes_references_as_a_browser_does() {
    for href in [
        "java&#10;script:x",
        "&#106;avascript:x",
        "&#x6A;avascript:x",
        "&#X6a&#x61vascript:x",
        "&#0000106avascript:x",
        "javascript&colon;x",
        "jav&Tab;ascript:x",
        "&amp;#106;avascript:x",
        " \u{1}vbscript:x",
        "DATA:text/html,x",
    ] {
        let html = format!("<a href=\"{href}\">x</a>");
        let problems = script_vectors(&html);
        assert!(problems.iter().any(|p| p.starts_with("script URL")), "{href:?}: {problems:?}");
    }
    assert_eq!(decode_character_references("&#;&#x;&unknown;&amp"), "&#;&#x;&unknown;&");
    assert_eq!(decode_character_references("&#1114112;&#xD800;"), "\u{fffd}\u{fffd}");
}

#[test]
fn every_vector_is_defused() {
    for vector in vectors() {
        sanitized_safely(&vector).unwrap();
    }
}

#[test]
fn the_whole_corpus_as_one_document_is_defused() {
    sanitized_safely(&vectors().concat()).unwrap();
    sanitized_safely(&vectors().join("<p>")).unwrap();
}

/// Markup an agreement really has, into which vectors are dropped.
#[rustfmt::skip]
const AGREEMENT: &[&str] = &[
    "<p>", "</p>", "Terms ", "of use", "{{fullName}}", "{{custom.plan}}", "<strong>", "</strong>",
    "<em>", "</em>", "<a href=\"https://example.com/terms\">", "<a href=\"mailto:legal@example.com\">",
    "</a>", "<ul>", "</ul>", "<ol start=\"2\">", "</ol>", "<li>", "</li>", "<br>", "<hr>",
    "<table>", "<tr>", "<td colspan=\"2\">", "</td>", "</tr>", "</table>", "<h2>", "</h2>",
    "<blockquote>", "</blockquote>", "<pre>", "</pre>", "<code>", "</code>", "&amp;", "&lt;",
    "Gr\u{fc}\u{df}e", " ", "\n", "<div lang=\"de\">", "</div>", "<span title=\"t\">", "</span>",
];

/// Changes a vector's letter case and puts spacing, null or slash characters at a random place:
/// the spellings a filter that matches text would miss.
fn respelled(vector: &str, flips: &[bool], insert_at: usize, inserted: &str) -> String {
    let mut chars: Vec<char> = vector
        .chars()
        .zip(flips.iter().cycle())
        .map(|(c, &flip)| if flip { c.to_ascii_uppercase() } else { c.to_ascii_lowercase() })
        .collect();
    let at = insert_at % (chars.len() + 1);
    for (offset, c) in inserted.chars().enumerate() {
        chars.insert(at + offset, c);
    }
    chars.into_iter().collect()
}

proptest! {
    #![proptest_config(cases(256))]

    #[test]
    fn vectors_in_any_case_and_spacing_are_defused(
        vector in prop::sample::select(vectors()),
        flips in prop::collection::vec(any::<bool>(), 1..16),
        insert_at in any::<usize>(),
        inserted in prop::sample::select(vec!["", " ", "\t", "\n", "\r", "\u{c}", "\0", "/", "\"", "'", "=", "<", ">", "&#0;"]),
    ) {
        sanitized_safely(&respelled(&vector, &flips, insert_at, inserted))?;
    }

    #[test]
    fn vectors_embedded_in_agreement_markup_are_defused(
        markup in prop::collection::vec(prop::sample::select(AGREEMENT), 0..24),
        embedded in prop::collection::vec((prop::sample::select(vectors()), any::<prop::sample::Index>()), 1..4),
    ) {
        let mut parts: Vec<&str> = markup;
        for (vector, at) in &embedded {
            let at = at.index(parts.len() + 1);
            parts.insert(at, vector);
        }
        sanitized_safely(&parts.concat())?;
    }

    #[test]
    fn pieces_of_vectors_glued_together_are_defused(
        pieces in prop::collection::vec(
            (prop::sample::select(vectors()), any::<prop::sample::Index>(), any::<prop::sample::Index>()),
            1..6,
        ),
    ) {
        // Any substring of any vector, so half-open tags and attribute values meet each other.
        let raw: String = pieces
            .iter()
            .map(|(vector, from, to)| {
                let chars: Vec<char> = vector.chars().collect();
                let (a, b) = (from.index(chars.len() + 1), to.index(chars.len() + 1));
                chars[a.min(b)..a.max(b)].iter().collect::<String>()
            })
            .collect();
        sanitized_safely(&raw)?;
    }

    #[test]
    fn arbitrary_text_is_defused(raw in crate::support::hostile_text()) {
        sanitized_safely(&raw)?;
    }
}
