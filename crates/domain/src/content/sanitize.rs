//! Sanitizing operator-supplied agreement HTML by allow-list, once, when it is saved.
//!
//! Content is shown inside the operator's own pages by the SDK, so it must not be able to run
//! script, load resources or restyle the host page. Allowed: the document structure an agreement
//! needs (headings, paragraphs, lists, emphasis, quotes, tables, code, links) and no other
//! elements; no `style`, `class`, `id` or event-handler attributes; links only to absolute
//! `https:`, `http:` or `mailto:` URLs, opening in a new tab (the consent dialog stays open) with
//! `rel="noopener noreferrer nofollow"`. Images are not allowed: they would leak the end user's
//! address to third parties when the agreement is shown, and the logo belongs in the dialog
//! customizations. Comments are dropped. Elements outside the list are removed but their text is
//! kept, except for elements whose content is code, form controls or embedded documents (script,
//! style, iframe, object, svg, math, select, textarea, ...), which are removed with their content.
//!
//! Placeholders such as `{{fullName}}` are plain text to the sanitizer and survive unchanged in
//! text and in `title` and absolute `href` values. A link whose whole `href` is a placeholder
//! (`<a href="{{custom.url}}">`) loses the `href`: it is not an absolute URL, and letting a
//! request-time value choose the URL scheme would allow `javascript:` links.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::LazyLock;

use super::bounds::{MAX_CONTENT_DEPTH, MAX_CONTENT_ELEMENTS, StructureExceeded, check_structure};

/// Limit on the raw HTML of one language's content, checked before parsing.
pub const MAX_CONTENT_BYTES: usize = 512 * 1024;

/// HTML that went through [`sanitize`]: the only form in which content is rendered or stored.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct SanitizedHtml(String);

/// Content refused before sanitizing: it is larger, or builds more structure, than allowed (see
/// [`super::bounds`] for why structure is bounded apart from size).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ContentRejected {
    #[error("the content is {size} bytes; at most {MAX_CONTENT_BYTES} bytes are allowed")]
    TooLarge { size: usize },
    #[error("the content nests elements more than {MAX_CONTENT_DEPTH} deep")]
    TooDeep,
    #[error("the content makes more than {MAX_CONTENT_ELEMENTS} elements")]
    TooManyElements,
}

const ALLOWED_TAGS: &str = "h1 h2 h3 h4 h5 h6 p br hr ul ol li dl dt dd strong b em i u s sup sub \
    blockquote a span div code pre table caption colgroup col thead tbody tfoot tr th td";

const REMOVED_WITH_CONTENT: &str = "script style template iframe frame frameset object embed \
    applet noscript noembed noframes textarea select title svg math";

static CLEANER: LazyLock<ammonia::Builder<'static>> = LazyLock::new(|| {
    let tags: HashSet<&str> = ALLOWED_TAGS.split_whitespace().collect();
    let tag_attributes: HashMap<&str, HashSet<&str>> = [
        ("a", ["href"].as_slice()),
        ("ol", &["start"]),
        ("th", &["colspan", "rowspan", "scope"]),
        ("td", &["colspan", "rowspan"]),
        ("col", &["span"]),
        ("colgroup", &["span"]),
    ]
    .into_iter()
    .map(|(tag, attributes)| (tag, attributes.iter().copied().collect()))
    .collect();
    let removed_with_content: HashSet<&str> = REMOVED_WITH_CONTENT.split_whitespace().collect();
    let mut builder = ammonia::Builder::empty();
    builder
        .tags(tags)
        .clean_content_tags(removed_with_content)
        .generic_attributes(["title", "lang"].into_iter().collect())
        .tag_attributes(tag_attributes)
        .url_schemes(["https", "http", "mailto"].into_iter().collect())
        .url_relative(ammonia::UrlRelative::Deny)
        .link_rel(Some("noopener noreferrer nofollow"))
        .set_tag_attribute_value("a", "target", "_blank")
        .strip_comments(true);
    builder
});

/// Sanitizes raw content by allow-list. The result is a fixed point: sanitizing it again changes
/// nothing, so content saved, read back and saved again keeps its hash.
pub fn sanitize(raw: &str) -> Result<SanitizedHtml, ContentRejected> {
    if raw.len() > MAX_CONTENT_BYTES {
        return Err(ContentRejected::TooLarge { size: raw.len() });
    }
    check_structure(raw).map_err(|exceeded| match exceeded {
        StructureExceeded::Depth => ContentRejected::TooDeep,
        StructureExceeded::Elements => ContentRejected::TooManyElements,
    })?;
    // Removing an element can leave markup that parses differently the next time (an `<a>` that
    // was inside a removed `<object>` inside another `<a>`); one more pass settles it in practice.
    let mut html = clean_once(raw);
    for _ in 0..MAX_EXTRA_PASSES {
        let again = clean_once(&html);
        if again == html {
            break;
        }
        html = again;
    }
    Ok(SanitizedHtml(html))
}

const MAX_EXTRA_PASSES: usize = 4;

fn clean_once(raw: &str) -> String {
    // The serializer writes a carriage return from `&#13;` raw, which the next parse reads as a
    // line feed, and it does not double a line feed at the start of `<pre>`, which the next parse
    // drops. Both are fixed here so that one pass is already stable. A literal `<pre>` in the
    // output is always the tag: `<` is escaped in text and attribute values, and `pre` has no
    // attributes.
    CLEANER.clean(raw).to_string().replace('\r', "\n").replace("<pre>\n", "<pre>\n\n")
}

impl SanitizedHtml {
    /// Content read back from storage. Trusted without re-sanitizing because only the output of
    /// [`sanitize`] is ever stored; do not use it for anything an operator or client supplied.
    pub fn from_stored(html: String) -> Self {
        Self(html)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

impl fmt::Debug for SanitizedHtml {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SanitizedHtml({:?})", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clean(raw: &str) -> String {
        sanitize(raw).unwrap().into_string()
    }

    const LINK_TAIL: &str = r#" target="_blank" rel="noopener noreferrer nofollow""#;

    #[test]
    fn ordinary_agreement_markup_survives() {
        let raw = concat!(
            "<h1>Terms of Service</h1>",
            "<h2>1. Definitions</h2>",
            "<p>These terms bind <strong>{{fullName}}</strong> of <em>{{company}}</em>.<br>",
            "Contact <a href=\"mailto:legal@example.com\">legal</a> or read ",
            "<a href=\"https://example.com/privacy\" title=\"Privacy\">the policy</a>.</p>",
            "<hr>",
            "<ol start=\"2\"><li><b>Use</b> <i>only</i> <u>as</u> <s>not</s> agreed</li></ol>",
            "<ul><li>x<sup>2</sup> and H<sub>2</sub>O</li></ul>",
            "<dl><dt>Service</dt><dd>the product</dd></dl>",
            "<blockquote>quoted</blockquote>",
            "<div lang=\"de\"><span>Gr\u{fc}\u{df}e</span></div>",
            "<pre><code>{{custom.contract_id}}</code></pre>",
            "<table><caption>Fees</caption><thead><tr><th scope=\"col\">Plan</th><th>Fee</th></tr>",
            "</thead><tbody><tr><td colspan=\"2\">Free</td></tr></tbody>",
            "<tfoot><tr><td>a</td><td rowspan=\"1\">b</td></tr></tfoot></table>",
        );
        let expected = raw
            .replace("legal@example.com\">", &format!("legal@example.com\"{LINK_TAIL}>"))
            .replace("title=\"Privacy\">", &format!("title=\"Privacy\"{LINK_TAIL}>"));
        assert_eq!(clean(raw), expected);
    }

    #[test]
    fn placeholders_survive_in_text_and_in_absolute_urls() {
        assert_eq!(
            clean("<p>{{fullName}}, {{ email }}, {{custom.KEY_1}} &amp; {{unknown}}</p>"),
            "<p>{{fullName}}, {{ email }}, {{custom.KEY_1}} &amp; {{unknown}}</p>"
        );
        assert_eq!(
            clean(r#"<a href="https://example.com/u/{{custom.id}}" title="{{fullName}}">x</a>"#),
            format!(r#"<a href="https://example.com/u/{{{{custom.id}}}}" title="{{{{fullName}}}}"{LINK_TAIL}>x</a>"#)
        );
        // The scheme must not come from a request-time value.
        assert_eq!(clean(r#"<a href="{{custom.url}}">x</a>"#), format!("<a{LINK_TAIL}>x</a>"));
    }

    #[test]
    fn scripts_and_active_content_are_removed_with_their_content() {
        for raw in [
            "<script>alert(1)</script>",
            "<SCRIPT SRC=https://evil.example/x.js></SCRIPT>",
            "<script>alert(1)",
            "<style>body{display:none}</style>",
            "<iframe src=\"https://evil.example\">fallback</iframe>",
            "<object data=\"https://evil.example/x.swf\">fallback</object>",
            "<embed src=\"https://evil.example/x.swf\">",
            "<svg onload=alert(1)><script>alert(1)</script></svg>",
            "<math><mtext><script>alert(1)</script></mtext></math>",
            "<template><script>alert(1)</script></template>",
            "<noscript><img src=x onerror=alert(1)></noscript>",
            "<select><option>alert(1)</option></select>",
            "<textarea>alert(1)</textarea>",
            "<img src=\"https://example.com/logo.png\" onerror=\"alert(1)\">",
            "<link rel=stylesheet href=https://evil.example/x.css>",
            "<meta http-equiv=refresh content=\"0;url=https://evil.example\">",
            "<base href=\"https://evil.example/\">",
            "<form action=\"https://evil.example\"><input name=x><button>go</button></form>",
            "<!-- <script>alert(1)</script> -->",
        ] {
            let out = clean(raw);
            assert!(!out.contains('<'), "{raw:?} -> {out:?}");
            assert!(!out.contains("alert"), "{raw:?} -> {out:?}");
            assert!(!out.contains("evil"), "{raw:?} -> {out:?}");
        }
    }

    #[test]
    fn event_handlers_and_style_and_unknown_attributes_are_removed() {
        assert_eq!(
            clean(concat!(
                "<p onclick=\"alert(1)\" ONMOUSEOVER='alert(1)' onfocus=alert(1) style=\"color:red\" ",
                "class=\"x\" id=\"terms\" data-x=\"1\" tabindex=\"1\" contenteditable>text</p>"
            )),
            "<p>text</p>"
        );
        assert_eq!(
            clean(
                "<a href=\"https://example.com\" onclick=\"alert(1)\" rel=\"opener\" target=\"_self\" ping=\"https://t.example\">x</a>"
            ),
            format!("<a href=\"https://example.com\"{LINK_TAIL}>x</a>")
        );
        assert_eq!(clean("<div style=\"background:url(javascript:alert(1))\">x</div>"), "<div>x</div>");
    }

    #[test]
    fn dangerous_url_schemes_are_removed_however_spelled() {
        for href in [
            "javascript:alert(1)",
            "JavaScript:alert(1)",
            "JAVASCRIPT:alert(1)",
            " javascript:alert(1)",
            "\tjavascript:alert(1)",
            "java\nscript:alert(1)",
            "java\tscript:alert(1)",
            "java&#10;script:alert(1)",
            "java&#x09;script:alert(1)",
            "&#106;avascript:alert(1)",
            "&#x6A;&#x61;&#x76;&#x61;&#x73;&#x63;&#x72;&#x69;&#x70;&#x74;&#x3A;alert(1)",
            "&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058alert(1)",
            "javascript&colon;alert(1)",
            "vbscript:msgbox(1)",
            "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
            "DATA:text/html,<script>alert(1)</script>",
            "file:///etc/passwd",
            "ftp://example.com/",
            "/relative/path",
            "//evil.example/x",
            "#section-1",
            "x",
        ] {
            let out = clean(&format!("<a href=\"{href}\">x</a>"));
            assert_eq!(out, format!("<a{LINK_TAIL}>x</a>"), "{href:?}");
        }
    }

    #[test]
    fn size_limit_applies_to_raw_input() {
        let at_limit = "a".repeat(MAX_CONTENT_BYTES);
        assert_eq!(sanitize(&at_limit).unwrap().as_str(), at_limit);
        let over = "a".repeat(MAX_CONTENT_BYTES + 1);
        assert_eq!(sanitize(&over), Err(ContentRejected::TooLarge { size: MAX_CONTENT_BYTES + 1 }));
    }

    #[test]
    fn structure_limits_apply_before_sanitizing() {
        let deep = "<div>".repeat(MAX_CONTENT_DEPTH + 1);
        assert_eq!(sanitize(&deep), Err(ContentRejected::TooDeep));
        // Elements that are removed still cost parsing, so they count.
        let deep_removed = "<object>".repeat(MAX_CONTENT_DEPTH + 1);
        assert_eq!(sanitize(&deep_removed), Err(ContentRejected::TooDeep));
        let many = "<br>".repeat(MAX_CONTENT_ELEMENTS + 1);
        assert_eq!(sanitize(&many), Err(ContentRejected::TooManyElements));
        let at_limit = "<div>".repeat(MAX_CONTENT_DEPTH);
        assert_eq!(clean(&at_limit), "<div>".repeat(MAX_CONTENT_DEPTH) + &"</div>".repeat(MAX_CONTENT_DEPTH));
    }

    /// The hostile inputs of the hardening report, at the size limit: each is refused (their
    /// parse used to take seconds to minutes) without parsing more than a chunk past a limit.
    #[test]
    fn hostile_content_at_the_size_limit_is_refused() {
        let fill = |unit: &str| unit.repeat(MAX_CONTENT_BYTES / unit.len());
        assert_eq!(sanitize(&fill("<div>")), Err(ContentRejected::TooDeep));
        assert_eq!(sanitize(&fill("<blockquote>")), Err(ContentRejected::TooDeep));
        let reopening: String = (0..).map(|i| format!("<div><b title={i}></div>")).take(20_000).collect();
        assert_eq!(sanitize(&reopening[..MAX_CONTENT_BYTES.min(reopening.len())]), Err(ContentRejected::TooDeep));
        assert_eq!(sanitize(&fill("<i>")), Err(ContentRejected::TooDeep));
    }

    #[test]
    fn reparse_differences_are_settled() {
        // A leading newline in <pre> is dropped by every parse, so the serializer's output has to
        // double it, and a carriage return reference becomes a line feed.
        assert_eq!(clean("<pre>\n\nx</pre>"), "<pre>\n\nx</pre>");
        assert_eq!(clean("<pre>\nx</pre>"), "<pre>x</pre>");
        assert_eq!(clean("a&#13;b"), "a\nb");
        // Nested links that a removed element kept apart.
        let raw = "<a href=https://a.example>1<object><a href=https://b.example>2</a></object></a>";
        let once = clean(raw);
        assert_eq!(clean(&once), once);
    }

    #[test]
    fn stored_content_round_trips() {
        let html = sanitize("<p>x</p>").unwrap();
        let stored = html.clone().into_string();
        assert_eq!(SanitizedHtml::from_stored(stored), html);
        assert_eq!(format!("{html:?}"), "SanitizedHtml(\"<p>x</p>\")");
    }
}

#[cfg(test)]
mod properties {
    use super::*;
    use proptest::prelude::*;

    const ATTRIBUTES: &str = "href title lang start colspan rowspan scope span target rel";

    /// Checks the serialized output by hand: every `<` opens an allowed tag (text and attribute
    /// values have `<` escaped), attribute values are double-quoted without `"` inside, and every
    /// `href` is absolute with an allowed scheme.
    fn check_markup(html: &str) -> Result<(), TestCaseError> {
        for tag in html.split('<').skip(1) {
            let (tag, _) = tag.split_once('>').ok_or_else(|| TestCaseError::fail("unclosed tag"))?;
            let tag = tag.strip_prefix('/').unwrap_or(tag);
            let name = tag.split([' ', '/']).next().unwrap_or_default();
            prop_assert!(ALLOWED_TAGS.split_whitespace().any(|t| t == name), "tag {name:?} in {html:?}");
            let parts: Vec<&str> = tag.split('"').collect();
            prop_assert!(parts.len() % 2 == 1, "unbalanced quotes in {tag:?}");
            for pair in parts.chunks(2).filter(|pair| pair.len() == 2) {
                let attribute = pair[0].trim_end_matches('=').rsplit(' ').next().unwrap();
                prop_assert!(
                    ATTRIBUTES.split_whitespace().any(|a| a == attribute),
                    "attribute {attribute:?} in {tag:?}"
                );
                if attribute == "href" {
                    let url: String = pair[1]
                        .replace("&amp;", "&")
                        .chars()
                        .filter(|c| !c.is_ascii_whitespace() && !c.is_control())
                        .collect::<String>()
                        .to_ascii_lowercase();
                    prop_assert!(["https:", "http:", "mailto:"].iter().any(|s| url.starts_with(s)), "href {url:?}");
                }
            }
        }
        Ok(())
    }

    /// Fragments that exercise parser corner cases: misnesting, foster parenting, foreign content,
    /// raw-text elements, removed wrappers, line endings, entities and placeholders.
    #[rustfmt::skip]
    const SOUP: &[&str] = &[
        "<p>", "</p>", "<a href=https://a.example>", "<a href=x>", "</a>", "<pre>", "</pre>",
        "<li>", "</li>", "<ul>", "</ul>", "<dir>", "</dir>", "<menu>", "<object>", "</object>",
        "<button>", "<table>", "</table>", "<tr>", "<td>", "</td>", "<th>", "<tbody>", "<tfoot>",
        "<caption>", "<colgroup>", "<col>", "<select>", "<option>", "<svg>", "</svg>", "<math>",
        "<mi>", "<mtext>", "<style>", "</style>", "<script>", "</script>", "<textarea>",
        "<noscript>", "</noscript>", "<template>", "</template>", "<form>", "</form>", "<div>",
        "</div>", "<h1>", "<b>", "</b>", "<i>", "<font>", "<nobr>", "<iframe>", "<xmp>",
        "<plaintext>", "<title>", "<head>", "<body>", "<html>", "<frameset>", "<br>", "</br>",
        "<hr>", "<img src=x>", "<!--", "-->", "<!-- c -->", "<!DOCTYPE html>", "<?x?>",
        "<![CDATA[x]]>", "\n", "\r", "\r\n", "&#13;", "&#10;", "&nbsp;", "&amp;", "&lt;", "&", "<",
        ">", "\"", "'", "\0", "&#0;", "{{fullName}}", "{{ custom.k }}", "x", " ", "\t", "é",
        "<span title=\"a\">", "<a title=\"{{fullName}}\" href=\"https://e.example/{{custom.id}}\">",
        "<a href=\"java&#10;script:x\">", "<a href=\" https://x.example/?a=1&b=<>\">",
        "<p onclick=x style=y>", "<td colspan=2>", "<ol start=3>", "<sup>", "<code>",
        "<blockquote>", "<s>", "<dl><dt>", "<dd>", "href=", "=\"",
    ];

    fn token() -> impl Strategy<Value = String> {
        prop_oneof![prop::sample::select(SOUP).prop_map(str::to_owned), "\\PC{0,3}",]
    }

    #[test]
    fn the_markup_check_itself_catches_bad_markup() {
        for bad in [
            "<img src=\"https://x.example\">",
            "<p onclick=\"x\">",
            "<p style=\"x\">",
            "<a href=\"javascript:x\">",
            "<a href=\"java&#10;script:x\">",
            "<a href=\"/relative\">",
            "<p",
        ] {
            assert!(check_markup(bad).is_err(), "{bad}");
        }
        assert!(check_markup("<p lang=\"de\">x</p><a href=\"HTTPS://x\" rel=\"y\">").is_ok());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn sanitizing_html_soup_is_idempotent_and_allow_listed(
            tokens in prop::collection::vec(token(), 0..24)
        ) {
            let raw = tokens.concat();
            let once = sanitize(&raw).unwrap();
            let twice = sanitize(once.as_str()).unwrap();
            prop_assert_eq!(once.as_str(), twice.as_str(), "raw: {:?}", raw);
            check_markup(once.as_str())?;
        }

        #[test]
        fn sanitizing_any_text_is_idempotent_and_allow_listed(raw in any::<String>()) {
            let once = sanitize(&raw).unwrap();
            let twice = sanitize(once.as_str()).unwrap();
            prop_assert_eq!(once.as_str(), twice.as_str());
            check_markup(once.as_str())?;
        }
    }
}
