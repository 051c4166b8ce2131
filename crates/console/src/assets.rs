//! The console's static files, compiled into the binary, with a content-hash ETag each.

use std::sync::LazyLock;

use clickwrap_domain::etag::strong_etag;

/// A static file the console serves under [`Asset::path`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Asset {
    /// The URL path the pages link to.
    pub path: &'static str,
    pub body: &'static str,
    /// The `Content-Type` header value.
    pub content_type: &'static str,
}

/// The style sheet every page links.
pub const CSS: Asset = Asset {
    path: "/console/assets/console.css",
    body: include_str!("../assets/console.css"),
    content_type: "text/css; charset=utf-8",
};

/// The script every page loads with `defer`; every page also works without it.
pub const JS: Asset = Asset {
    path: "/console/assets/console.js",
    body: include_str!("../assets/console.js"),
    content_type: "text/javascript; charset=utf-8",
};

/// The style sheet of the agreement previews (the frames inherit the page's policy, so their
/// document links this instead of carrying styles): the SDK dialog's content rules.
pub const PREVIEW_CSS: Asset = Asset {
    path: "/console/assets/preview.css",
    body: include_str!("../assets/preview.css"),
    content_type: "text/css; charset=utf-8",
};

/// Every asset, for mounting them in one loop.
pub const ALL: [Asset; 3] = [CSS, JS, PREVIEW_CSS];

/// Every asset with its strong ETag (see [`strong_etag`]), hashed once per process, not per request.
static TAGGED: LazyLock<[(Asset, String); ALL.len()]> =
    LazyLock::new(|| ALL.map(|asset| (asset, strong_etag(asset.body.as_bytes()))));

impl Asset {
    /// The asset whose URL path is `path`, with its ETag.
    pub fn find(path: &str) -> Option<(Asset, &'static str)> {
        TAGGED.iter().find(|(asset, _)| asset.path == path).map(|(asset, etag)| (*asset, etag.as_str()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn etags_are_quoted_stable_and_distinct() {
        let etag = |asset: Asset| Asset::find(asset.path).map(|(_, etag)| etag);
        for asset in ALL {
            assert_eq!(Asset::find(asset.path), Some((asset, strong_etag(asset.body.as_bytes()).as_str())));
        }
        assert_ne!(etag(CSS), etag(JS));
        let tag = etag(JS).unwrap_or_default();
        assert!(tag.starts_with('"') && tag.ends_with('"') && tag.len() == 18, "{tag}");
        assert_eq!(Asset::find("/console/assets/other.js"), None);
        assert!(CSS.content_type.starts_with("text/css") && JS.content_type.starts_with("text/javascript"));
    }

    #[test]
    fn assets_keep_the_content_security_policy() {
        assert!(!JS.body.contains("eval("), "no eval under the CSP");
        assert!(JS.body.contains("'use strict'"));
        assert!(!JS.body.contains("confirm("), "destructive actions are confirmed by a checkbox");
        assert!(CSS.body.contains(":focus-visible"));
        assert!(CSS.body.lines().count() <= 420, "the style sheet stays small");
    }
}
