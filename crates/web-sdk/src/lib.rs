//! The browser SDK of the clickwrap consent service, as text the server serves.
//!
//! The SDK is plain JavaScript without a build step (`clickwrap.js`, with `clickwrap.mjs` as its
//! ES module entry); its tests run it in headless Chromium (`npm test` in this directory, see
//! `docs/sdk.md`). This crate only embeds the files so the server binary can serve them:
//!
//! - [`CLICKWRAP_JS`] at [`CLICKWRAP_JS_PATH`] and [`CLICKWRAP_MJS`] at [`CLICKWRAP_MJS_PATH`], as
//!   [`JAVASCRIPT_CONTENT_TYPE`]. `clickwrap.mjs` imports `./clickwrap.js`, so both must be served
//!   from the same directory.
//! - [`DEMO_HTML`] at `/demo`, after [`demo_page`] filled in [`APP_ID_PLACEHOLDER`] and
//!   [`TEMPLATE_ID_PLACEHOLDER`]. The page loads the SDK from [`CLICKWRAP_JS_PATH`] of the same
//!   server and posts `{"serviceSignature"}` to `POST /demo/verify`, which the demo server answers
//!   with the verify response plus `certificateUrl`.
//!
//! Architecture invariant: no dependency but the domain's HTML escaper, and no logic beyond filling
//! the demo page; the SDK's behaviour lives in the JavaScript and is tested in a browser, not here.

use clickwrap_domain::content::escape_html;

/// The SDK's version, also written in the header of `clickwrap.js` and in `ClickwrapClient.version`.
pub const SDK_VERSION: &str = "1.0.0";

/// The SDK as a classic script: defines the globals `ClickwrapClient` and `ClickwrapDom`.
pub const CLICKWRAP_JS: &str = include_str!("../clickwrap.js");

/// The ES module entry: imports `./clickwrap.js` and re-exports `ClickwrapClient` and `ClickwrapDom`.
pub const CLICKWRAP_MJS: &str = include_str!("../clickwrap.mjs");

/// The demo page, with [`APP_ID_PLACEHOLDER`] and [`TEMPLATE_ID_PLACEHOLDER`] still in it.
pub const DEMO_HTML: &str = include_str!("../demo.html");

pub const CLICKWRAP_JS_PATH: &str = "/sdk/v1/clickwrap.js";
pub const CLICKWRAP_MJS_PATH: &str = "/sdk/v1/clickwrap.mjs";
pub const JAVASCRIPT_CONTENT_TYPE: &str = "text/javascript; charset=utf-8";

/// Replaced by the demo app's App ID in [`DEMO_HTML`].
pub const APP_ID_PLACEHOLDER: &str = "{{APP_ID}}";
/// Replaced by the demo template's `clickwrapTemplateId` in [`DEMO_HTML`].
pub const TEMPLATE_ID_PLACEHOLDER: &str = "{{TEMPLATE_ID}}";

/// The demo page for one app and template. Both values land in HTML attributes and are escaped;
/// each placeholder is replaced in one pass, so a value is never read as a placeholder.
pub fn demo_page(app_id: &str, template_id: &str) -> String {
    let app_id = escape_html(app_id);
    let template_id = escape_html(template_id);
    DEMO_HTML
        .split(APP_ID_PLACEHOLDER)
        .map(|part| part.replace(TEMPLATE_ID_PLACEHOLDER, &template_id))
        .collect::<Vec<_>>()
        .join(&app_id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_version_is_the_same_everywhere() {
        assert!(CLICKWRAP_JS.starts_with(&format!("/*! Clickwrap web SDK {SDK_VERSION} ")));
        assert!(CLICKWRAP_JS.contains(&format!("var VERSION = '{SDK_VERSION}';")));
        assert!(CLICKWRAP_MJS.starts_with(&format!("/*! Clickwrap web SDK {SDK_VERSION} ")));
    }

    #[test]
    fn the_module_loads_the_script_next_to_it() {
        assert!(CLICKWRAP_MJS.contains("import './clickwrap.js';"));
        assert!(
            CLICKWRAP_JS_PATH.rsplit_once('/').map(|(dir, _)| dir)
                == CLICKWRAP_MJS_PATH.rsplit_once('/').map(|(dir, _)| dir)
        );
    }

    #[test]
    fn the_demo_page_is_filled_in() {
        assert!(DEMO_HTML.contains(APP_ID_PLACEHOLDER) && DEMO_HTML.contains(TEMPLATE_ID_PLACEHOLDER));
        assert!(DEMO_HTML.contains(CLICKWRAP_JS_PATH) && DEMO_HTML.contains("/demo/verify"));
        let app = "0190a0b0-0000-7000-8000-00000000a991";
        let template = "0190a0b0-0000-7000-8000-000000000001";
        let page = demo_page(app, template);
        assert!(!page.contains(APP_ID_PLACEHOLDER) && !page.contains(TEMPLATE_ID_PLACEHOLDER));
        assert!(page.contains(&format!("data-app-id=\"{app}\" data-template-id=\"{template}\"")));
    }

    #[test]
    fn demo_values_are_escaped_and_not_expanded() {
        let page = demo_page("\"><script>", "{{APP_ID}}");
        assert!(page.contains("data-app-id=\"&quot;&gt;&lt;script&gt;\" data-template-id=\"{{APP_ID}}\""));
    }
}
