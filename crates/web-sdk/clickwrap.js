/*! Clickwrap web SDK 1.0.0 | Apache-2.0
 *
 * Shows the consent dialog of a clickwrap template to an end user, records the user's action with
 * the service and hands the caller the Signature that the caller's backend verifies
 * (POST /public-client/v1/clickwrap/verify, with the App Key, never from the browser).
 *
 * Plain JavaScript without a build step. As a script tag it defines the globals ClickwrapClient
 * and ClickwrapDom; clickwrap.mjs re-exports both for ES modules; under CommonJS it also sets
 * module.exports. See docs/sdk.md for every option and error code.
 */
(function (root, factory) {
  'use strict';
  if (root.ClickwrapClient && root.ClickwrapClient.version) return; // loaded twice: keep the first
  var sdk = factory(root, root.document);
  root.ClickwrapClient = sdk.ClickwrapClient;
  root.ClickwrapDom = sdk.ClickwrapDom;
  if (typeof module === 'object' && module && module.exports) module.exports = sdk;
})(typeof globalThis !== 'undefined' ? globalThis : self, function (root, document) {
  'use strict';

  var VERSION = '1.0.0';
  var API_PATH = '/public-client/v1';
  var MAX_LANGUAGES = 16;
  var END_USER_ID_MAX = 256;
  var RETRY_DELAY_MS = 400;
  var RETRY_AFTER_MAX_S = 10;
  var UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  var COLOR = /^#(?:[0-9a-f]{3}){1,2}$/i;
  var LANGUAGE_TAG = /^[a-z]{2,8}(?:[-_][a-z0-9]{1,8})*$/i;
  var XHTML = 'http://www.w3.org/1999/xhtml';

  // The service's own allow-list (the server sanitizes content on save); applied again here so
  // that content reaching the page can never carry script, whatever the server sends.
  var ALLOWED_TAGS = ' h1 h2 h3 h4 h5 h6 p br hr ul ol li dl dt dd strong b em i u s sup sub blockquote a span ' +
    'div code pre table caption colgroup col thead tbody tfoot tr th td ';
  var REMOVED_TAGS = ' script style template iframe frame frameset object embed applet noscript noembed ' +
    'noframes textarea select title svg math img picture video audio source track input button form link ' +
    'meta base portal ';
  var TAG_ATTRIBUTES = {
    a: ' href ', ol: ' start ', th: ' colspan rowspan scope ', td: ' colspan rowspan ', col: ' span ',
    colgroup: ' span '
  };

  // Built-in wording the service's texts do not cover: [scroll hint, save failed, close].
  var WORDING = {
    en: ['Scroll to the end to continue.', 'Your choice could not be saved. Please try again.', 'Close'],
    de: ['Scrollen Sie bis zum Ende, um fortzufahren.',
      'Ihre Auswahl konnte nicht gespeichert werden. Bitte versuchen Sie es erneut.', 'Schließen'],
    fr: ['Faites défiler jusqu’à la fin pour continuer.',
      'Votre choix n’a pas pu être enregistré. Veuillez réessayer.', 'Fermer'],
    es: ['Desplácese hasta el final para continuar.', 'No se pudo guardar su elección. Inténtelo de nuevo.',
      'Cerrar'],
    zh: ['请滚动到末尾以继续。', '无法保存您的选择，请重试。', '关闭'],
    hi: ['जारी रखने के लिए अंत तक स्क्रॉल करें।', 'आपका चयन सहेजा नहीं जा सका। कृपया पुनः प्रयास करें।', 'बंद करें'],
    ru: ['Прокрутите до конца, чтобы продолжить.', 'Не удалось сохранить ваш выбор. Попробуйте ещё раз.',
      'Закрыть']
  };
  var DEFAULT_TEXTS = {
    title: 'Please review and accept', acceptButton: 'Accept', declineButton: 'Decline',
    checkboxLabel: 'I have read and agree to the terms', versionLabel: 'Version'
  };

  // Colours come from applyTheme() (custom properties, contrast-checked); the fallbacks here are
  // its defaults. Accept is the primary button; Decline is secondary: never filled like Accept.
  var CSS =
    ':host{all:initial}:host(clickwrap-inline){display:block;font:inherit;color:inherit}' +
    '*{box-sizing:border-box}' +
    '.backdrop{position:fixed;inset:0;z-index:2147483647;display:flex;align-items:center;justify-content:center;' +
    'padding:16px;background:rgba(15,23,42,.55);font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}' +
    '.dialog{display:flex;flex-direction:column;width:100%;max-width:640px;max-height:100%;overflow:hidden;' +
    'background:var(--cw-bg,#fff);color:var(--cw-text,#1f2937);border-radius:var(--cw-radius,12px);' +
    'box-shadow:0 20px 50px rgba(0,0,0,.3);outline:none}' +
    '.head{display:flex;align-items:flex-start;gap:12px;padding:20px 20px 12px}' +
    '.logo{max-height:40px;max-width:120px;object-fit:contain}' +
    '.head h2{margin:0;font-size:1.25em;line-height:1.3;font-weight:600}' +
    '.sub{margin:4px 0 0;font-size:.85em;color:var(--cw-muted,#5b626d)}' +
    '.close{margin:-6px -6px 0 auto;flex:none;width:36px;height:36px;padding:0;border:0;background:none;' +
    'color:inherit;font-size:24px;line-height:1;border-radius:50%;cursor:pointer}' +
    '.close:hover{background:rgba(127,127,127,.15)}' +
    '.content{flex:1 1 auto;min-height:80px;overflow:auto;padding:4px 20px;border-top:1px solid rgba(127,127,127,.25);' +
    'border-bottom:1px solid rgba(127,127,127,.25);overflow-wrap:break-word}' +
    '.content a{color:var(--cw-accent,#2563eb)}' +
    // Headings of the agreement: below the dialog's title in weight, closer to their own text.
    '.content :is(h1,h2,h3,h4){line-height:1.3;margin:1.1em 0 .4em}.content h1{font-size:1.45em}' +
    '.content h2{font-size:1.2em}.content h3{font-size:1.05em}.content h4{font-size:1em}' +
    '.content table{border-collapse:collapse}.content th,.content td{border:1px solid rgba(127,127,127,.4);padding:4px 8px}' +
    '.end{height:1px}' +
    '.hint,.error{margin:10px 20px 0;font-size:.85em}' +
    '.hint{color:var(--cw-muted,#5b626d)}.error{color:var(--cw-error,#b91c1c);font-weight:600}' +
    '.error:empty,[hidden]{display:none!important}' +
    '.check{display:flex;gap:10px;align-items:flex-start;margin:12px 20px 0;cursor:pointer}' +
    'input[type=checkbox]{flex:none;width:18px;height:18px;margin:2px 0 0;accent-color:var(--cw-primary,#2563eb);' +
    'cursor:pointer}' +
    'footer{display:flex;flex-wrap:wrap;justify-content:flex-end;gap:8px;padding:16px 20px 20px}' +
    'footer button{font:inherit;font-weight:600;min-width:110px;padding:9px 18px;cursor:pointer;' +
    'border:2px solid var(--cw-edge,#2563eb);border-radius:calc(var(--cw-radius,12px) / 2)}' +
    '.filled{background:var(--cw-primary,#2563eb);color:var(--cw-on-primary,#fff)}' +
    '.outlined,.text,.neutral{background:transparent;color:var(--cw-accent,#2563eb)}' +
    '.text{border-color:transparent}.neutral{color:inherit;border-color:var(--cw-neutral,#81878f)}' +
    '.filled:not(:disabled):hover{filter:brightness(.9)}' +
    '.outlined:not(:disabled):hover,.text:not(:disabled):hover,.neutral:not(:disabled):hover{background:rgba(127,127,127,.12)}' +
    'button:disabled{opacity:.45;cursor:not-allowed}' +
    'button:focus-visible,input:focus-visible,a:focus-visible{outline:3px solid var(--cw-edge,#2563eb);' +
    'outline-offset:2px}.content:focus-visible{outline:2px solid var(--cw-edge,#2563eb);outline-offset:-2px}' +
    '.inline{font:inherit;color:inherit}' +
    '.inline label{display:inline-flex;gap:8px;align-items:flex-start;cursor:pointer}' +
    '.link{font:inherit;color:var(--cw-link,var(--cw-primary,#2563eb));background:none;border:0;padding:0;cursor:pointer;' +
    'text-decoration:underline}' +
    '.link:focus-visible{outline:2px solid currentColor;outline-offset:2px}' +
    '@media (max-width:480px){.backdrop{padding:0;align-items:flex-end}.dialog{max-height:92%;' +
    'border-bottom-left-radius:0;border-bottom-right-radius:0}footer button{flex:1 1 auto}' +
    'footer{padding-bottom:calc(20px + env(safe-area-inset-bottom,0px))}}';

  var config = null; // {appId, api, locale}
  var scriptUrl = document && document.currentScript && document.currentScript.src;
  var dialogQueue = Promise.resolve();
  var inlines = [];

  // ---- errors --------------------------------------------------------------------------------

  function fail(code, message, extra) {
    var error = new Error(message);
    error.name = 'ClickwrapError';
    error.code = 'ERR_SERVICE_' + code;
    for (var key in extra) if (Object.prototype.hasOwnProperty.call(extra, key)) error[key] = extra[key];
    return error;
  }

  function invalid(message) {
    return fail('INVALID_ARGUMENT', message);
  }

  function notInitialized() {
    return fail('NOT_INITIALIZED', 'call ClickwrapClient.initialize(appId) first');
  }

  /** The error for a service answer that is not a success (after any retry). */
  function answerError(status, problem) {
    var code = problem && typeof problem.code === 'string' ? problem.code : '';
    var detail = (problem && (problem.detail || problem.message)) || 'the service answered ' + status;
    var extra = { status: status, problem: problem };
    if (status === 404) return fail(code === 'APP_NOT_FOUND' ? 'APP_NOT_FOUND' : 'TEMPLATE_NOT_FOUND', detail, extra);
    if (status === 403 && code === 'ORIGIN_NOT_ALLOWED') return fail('ORIGIN_NOT_ALLOWED', detail, extra);
    if (status === 400 && code === 'VALIDATION_FAILED') return fail('INVALID_ARGUMENT', detail, extra);
    if (status === 429) return fail('RATE_LIMITED', detail, extra);
    if (status >= 500) return fail('NETWORK', detail, extra);
    return fail('REQUEST_REJECTED', detail, extra);
  }

  function isTemporary(error) {
    return error.code === 'ERR_SERVICE_NETWORK' || error.code === 'ERR_SERVICE_RATE_LIMITED';
  }

  // ---- requests ------------------------------------------------------------------------------

  function delay(ms) {
    return new Promise(function (resolve) { setTimeout(resolve, ms); });
  }

  /**
   * One call to the service. `retries` is how many times a temporary failure (network error,
   * 5xx, 429) is tried again: 1 for loads, 0 for recording an action.
   */
  function call(method, path, query, body, retries) {
    var url = config.api + path;
    if (query) {
      var params = new URLSearchParams();
      Object.keys(query).forEach(function (key) { if (query[key] != null) params.append(key, query[key]); });
      url += '?' + params.toString();
    }
    var init = {
      method: method,
      headers: body ? { accept: 'application/json', 'content-type': 'application/json' } : { accept: 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
      credentials: 'omit',
      cache: 'no-store'
    };
    function attempt(left) {
      return root.fetch(url, init).then(function (response) {
        return response.text().then(function (text) {
          var data = null;
          try { data = text ? JSON.parse(text) : null; } catch (ignored) { data = null; }
          if (response.ok) return data;
          var error = answerError(response.status, data);
          var wait = RETRY_DELAY_MS;
          var after = Number(response.headers.get('retry-after')) || 0;
          if (after > 0) wait = after * 1000;
          if (left > 0 && isTemporary(error) && after <= RETRY_AFTER_MAX_S) {
            return delay(wait).then(function () { return attempt(left - 1); });
          }
          throw error;
        });
      }, function (cause) {
        if (left > 0) return delay(RETRY_DELAY_MS).then(function () { return attempt(left - 1); });
        throw fail('NETWORK', 'the service could not be reached', { cause: cause });
      });
    }
    return attempt(retries);
  }

  // ---- arguments -----------------------------------------------------------------------------

  function checkRequest(request) {
    if (!request || typeof request !== 'object') throw invalid('the first argument must be an object');
    var id = request.clickwrapTemplateId;
    if (typeof id !== 'string' || !UUID.test(id)) throw invalid('clickwrapTemplateId must be a UUID');
    var user = request.endUserId;
    if (typeof user !== 'string' || !user || Array.from(user).length > END_USER_ID_MAX || /[\u0000-\u001f\u007f-\u009f]/.test(user)) {
      throw invalid('endUserId must be 1 to ' + END_USER_ID_MAX + ' characters without control characters');
    }
    if (request.language != null && typeof request.language !== 'string') throw invalid('language must be a string');
  }

  /** Placeholder values, each URL-encoded once (the service decodes them when it renders). */
  function encodePlaceholders(values, inner) {
    if (values == null) return null;
    if (typeof values !== 'object' || Array.isArray(values)) throw invalid('templatePlaceholders must be an object');
    var out = {};
    var count = 0;
    Object.keys(values).forEach(function (key) {
      var value = values[key];
      if (value == null) return;
      if (key === 'customPlaceholders' && !inner) {
        value = encodePlaceholders(value, true);
        if (!value) return;
      } else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
        value = encodeURIComponent(String(value));
      } else {
        throw invalid('templatePlaceholders.' + key + ' must be a string');
      }
      out[key] = value;
      count += 1;
    });
    return count ? out : null;
  }

  /**
   * The language wishes, best first: requested, the initialize() locale, the browser's. English is
   * not added: when none of these is available the service falls back to the template's default
   * language (then English), which a trailing `en` would override. Null when there is no wish.
   */
  function languageList(requested) {
    var nav = root.navigator || {};
    var wishes = [requested, config.locale].concat(nav.languages && nav.languages.length ? nav.languages : [nav.language]);
    var seen = {};
    var list = [];
    wishes.forEach(function (wish) {
      if (typeof wish !== 'string') return;
      wish.split(',').forEach(function (tag) {
        tag = tag.trim();
        var key = tag.toLowerCase();
        if (LANGUAGE_TAG.test(tag) && !seen[key] && list.length < MAX_LANGUAGES) {
          seen[key] = true;
          list.push(tag);
        }
      });
    });
    return list.length ? list.join(',') : null;
  }

  function clientMetadata() {
    var nav = root.navigator || {};
    var screen = root.screen || {};
    var timezone = null;
    try { timezone = Intl.DateTimeFormat().resolvedOptions().timeZone || null; } catch (ignored) { timezone = null; }
    return {
      sdk: 'web/' + VERSION,
      screen: { width: screen.width, height: screen.height, pixelRatio: root.devicePixelRatio || 1 },
      viewport: { width: root.innerWidth, height: root.innerHeight },
      timezone: timezone,
      platform: (nav.userAgentData && nav.userAgentData.platform) || nav.platform || null,
      language: nav.language || null,
      languages: (nav.languages || []).slice(0, 8),
      origin: (root.location && root.location.origin) || null
    };
  }

  // ---- content ---------------------------------------------------------------------------------

  function has(list, word) {
    return list.indexOf(' ' + word + ' ') >= 0;
  }

  function cleanChildren(node) {
    Array.prototype.slice.call(node.childNodes).forEach(function (child) {
      if (child.nodeType === 3) return;
      var tag = child.nodeType === 1 && child.namespaceURI === XHTML ? child.localName : null;
      if (!tag || has(REMOVED_TAGS, tag)) {
        node.removeChild(child);
        return;
      }
      cleanChildren(child);
      if (!has(ALLOWED_TAGS, tag)) {
        while (child.firstChild) node.insertBefore(child.firstChild, child);
        node.removeChild(child);
        return;
      }
      Array.prototype.slice.call(child.attributes).forEach(function (attribute) {
        var name = attribute.name;
        var keep = name === 'title' || name === 'lang' || has(TAG_ATTRIBUTES[tag] || '', name);
        if (keep && name === 'href') keep = /^(https?:|mailto:)/i.test(attribute.value.trim());
        if (!keep) child.removeAttribute(name);
      });
      if (tag === 'a') {
        child.setAttribute('target', '_blank');
        child.setAttribute('rel', 'noopener noreferrer nofollow');
      }
    });
  }

  /**
   * The service's HTML as nodes of this document. It is parsed in an inert document (nothing in it
   * loads or runs), reduced to the allow-list, and only then adopted. Nothing is ever evaluated.
   */
  function contentFragment(html) {
    var holder = new DOMParser().parseFromString('<!DOCTYPE html><body>', 'text/html').body;
    holder.innerHTML = String(html == null ? '' : html); // inert: a DOMParser document runs nothing
    cleanChildren(holder);
    var fragment = document.createDocumentFragment();
    while (holder.firstChild) fragment.appendChild(document.adoptNode(holder.firstChild));
    return fragment;
  }

  // ---- DOM helpers -----------------------------------------------------------------------------

  function h(tag, props, children) {
    var node = document.createElement(tag);
    for (var key in props) {
      if (!Object.prototype.hasOwnProperty.call(props, key) || props[key] == null) continue;
      if (key === 'text') node.textContent = props[key];
      else node.setAttribute(key, props[key]);
    }
    (children || []).forEach(function (child) { if (child) node.appendChild(child); });
    return node;
  }

  var sheet = null;

  /** A host element with its own shadow root: the page's styles stay out, ours stay in. */
  function shell(tag) {
    var host = document.createElement(tag);
    var shadow = host.attachShadow({ mode: 'open' });
    // A constructed style sheet needs no 'unsafe-inline' in a page's Content Security Policy.
    if (sheet === null) {
      try {
        sheet = new root.CSSStyleSheet();
        sheet.replaceSync(CSS);
        if (!('adoptedStyleSheets' in shadow)) sheet = false;
      } catch (ignored) {
        sheet = false;
      }
    }
    if (sheet) shadow.adoptedStyleSheets = [sheet];
    else shadow.appendChild(h('style', { text: CSS }));
    return { host: host, shadow: shadow };
  }

  function wording(language) {
    return WORDING[String(language || 'en').slice(0, 2).toLowerCase()] || WORDING.en;
  }

  function textOf(texts, key) {
    var value = texts && texts[key];
    return typeof value === 'string' && value.trim() ? value : DEFAULT_TEXTS[key];
  }

  // ---- colours: every text meets WCAG AA (4.5:1), every button edge and focus ring 3:1 ----------

  var WHITE = [255, 255, 255];
  var INK = [17, 24, 39];
  var DEFAULT_TEXT = [31, 41, 55];
  var DEFAULT_PRIMARY = [37, 99, 235];
  var ERROR_RED = [185, 28, 28];

  function hexColor(value) {
    if (typeof value !== 'string' || !COLOR.test(value)) return null;
    var digits = value.slice(1);
    if (digits.length === 3) digits = digits.replace(/./g, '$&$&');
    var n = parseInt(digits, 16);
    return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  }

  /** A computed `rgb(…)`/`rgba(…)` colour; null when transparent or in another notation. */
  function computedColor(value) {
    var m = /^rgba?\(([\d.]+)[, ]+([\d.]+)[, ]+([\d.]+)(?:[,/ ]+([\d.]+))?\)$/.exec(String(value).trim());
    return m && (m[4] == null || Number(m[4]) > 0) ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
  }

  function cssColor(c) {
    return 'rgb(' + c.map(Math.round).join(',') + ')';
  }

  function contrast(a, b) {
    function luminance(c) {
      var l = c.map(function (v) { v /= 255; return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
      return 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2] + 0.05;
    }
    var x = luminance(a);
    var y = luminance(b);
    return x > y ? x / y : y / x;
  }

  function mix(a, b, weight) {
    return a.map(function (v, i) { return v + (b[i] - v) * weight; });
  }

  /** `from`, moved towards `to` only as far as `ratio` against `bg` needs (`to` itself at worst). */
  function readable(from, to, bg, ratio) {
    for (var w = 0; w < 1; w += 0.125) {
      var c = mix(from, to, w);
      if (contrast(c, bg) >= ratio) return c;
    }
    return to;
  }

  /** Text on `c`: white where it reads, else near-black, else black. */
  function onColor(c) {
    if (contrast(WHITE, c) >= 4.5) return WHITE;
    return contrast(INK, c) >= 4.5 ? INK : [0, 0, 0];
  }

  /**
   * The dialog's colours as CSS custom properties: the template's theme where it reads well, and
   * where it does not (a pale primary colour on white, text too close to the background) the
   * nearest colour that does.
   */
  function applyTheme(node, customizations) {
    var theme = (customizations && customizations.theme) || {};
    var bg = hexColor(theme.backgroundColor) || WHITE;
    var text = hexColor(theme.textColor) || DEFAULT_TEXT;
    if (contrast(text, bg) < 4.5) text = onColor(bg);
    var primary = hexColor(theme.primaryColor) || DEFAULT_PRIMARY;
    var colors = {
      bg: bg,
      text: text,
      muted: readable(mix(text, bg, 0.3), text, bg, 4.5),
      primary: primary,
      'on-primary': onColor(primary),
      accent: readable(primary, text, bg, 4.5),
      edge: readable(primary, text, bg, 3),
      neutral: readable(mix(text, bg, 0.45), text, bg, 3),
      error: readable(ERROR_RED, text, bg, 4.5)
    };
    for (var name in colors) node.style.setProperty('--cw-' + name, cssColor(colors[name]));
    var radius = theme.borderRadius;
    if (typeof radius === 'number' && radius >= 0 && radius <= 48) node.style.setProperty('--cw-radius', radius + 'px');
  }

  /**
   * The inline checkbox sits on the page: its link colour is the primary colour (the template's, or
   * the `style` option's `--cw-primary`) where it reads on the page's background, else closer to
   * the page's text colour.
   */
  function applyInlineTheme(box, customizations, host) {
    var theme = (customizations && customizations.theme) || {};
    var own = box.style.getPropertyValue('--cw-primary').trim();
    var primary = own ? hexColor(own) : hexColor(theme.primaryColor) || DEFAULT_PRIMARY;
    if (!primary) return;
    box.style.setProperty('--cw-primary', cssColor(primary));
    var text = null;
    var bg = null;
    // Up from the container, out of any shadow root it sits in, to the first opaque background.
    for (var node = host.parentNode; node && !bg; node = node.parentNode || node.host) {
      if (node.nodeType !== 1) continue;
      var style = root.getComputedStyle(node);
      text = text || computedColor(style.color);
      bg = computedColor(style.backgroundColor);
    }
    box.style.setProperty('--cw-link', cssColor(readable(primary, text || INK, bg || WHITE, 4.5)));
  }

  /** The class of a button style; a FILLED Decline is a neutral outlined button, never the primary fill. */
  function buttonClass(style, secondary) {
    style = String(style || 'FILLED').toLowerCase();
    if (style === 'outlined' || style === 'text') return style;
    return secondary ? 'neutral' : 'filled';
  }

  function formatDate(iso, language) {
    var date = new Date(iso);
    if (isNaN(date.getTime())) return '';
    try {
      return date.toLocaleDateString(language || 'en', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
    } catch (ignored) {
      return iso.slice(0, 10);
    }
  }

  function collapse(text) {
    return String(text).replace(/\s+/g, ' ').trim();
  }

  // ---- the dialog ------------------------------------------------------------------------------

  var openCount = 0;
  var savedOverflow = '';

  /**
   * Shows a dialog for `view` (a GET /clickwrap or /clickwrap/content answer).
   * options: readOnly, disableClose, agreementMode, onAction(action, presentation) → Promise.
   * Resolves with onAction's result, or with null when a read-only dialog is closed; rejects with
   * ERR_SERVICE_USER_CANCELLED when the user closes it, or with a non-temporary onAction error.
   */
  function present(view, options) {
    return new Promise(function (resolve, reject) {
      var customizations = view.customizations || {};
      var texts = customizations.texts || {};
      var language = view.language || 'en';
      var words = wording(language);
      var readOnly = !!options.readOnly;
      var closable = readOnly || !options.disableClose;
      var mode = options.agreementMode === 'CHECKBOX' ? 'CHECKBOX' : 'SCROLL';
      var buttons = customizations.buttons || {};
      var parts = shell('clickwrap-dialog');
      var host = parts.host;
      var shadow = parts.shadow;
      var previousFocus = document.activeElement;
      var settled = false;
      var scrolledToEnd = false;
      // Whether Accept was held back at first because the agreement overflowed its scroll box.
      var scrollRequired = false;
      var observer = null;

      var version = view.clickwrapTemplateVersion + '.' + view.clickwrapTemplateVersionMinor;
      var dateText = formatDate(view.effectiveAt, language);
      var subtitle = h('p', { class: 'sub', id: 'cw-sub' }, [
        document.createTextNode((view.name ? view.name + ' · ' : '') + textOf(texts, 'versionLabel') + ' ' + version +
          (dateText ? ' · ' : '')),
        dateText ? h('time', { datetime: view.effectiveAt, text: dateText }) : null
      ]);
      var logo = null;
      if (typeof customizations.logoUrl === 'string' && /^https:\/\//i.test(customizations.logoUrl)) {
        logo = h('img', { class: 'logo', alt: '', src: customizations.logoUrl });
        logo.addEventListener('error', function () { logo.hidden = true; });
      }
      var close = closable ? h('button', { type: 'button', class: 'close', 'aria-label': words[2], text: '\u00d7' }) : null;
      var title = h('h2', { id: 'cw-title', text: readOnly && view.name ? view.name : textOf(texts, 'title') });
      var content = h('div', {
        class: 'content', tabindex: '0', role: 'document', 'aria-labelledby': 'cw-title', lang: language
      });
      content.appendChild(contentFragment(view.content));
      var end = h('div', { class: 'end', 'aria-hidden': 'true' });
      content.appendChild(end);

      var hint = null;
      var checkbox = null;
      var checkLabel = null;
      var accept = null;
      var decline = null;
      var footer = h('footer');
      var error = h('p', { class: 'error', role: 'alert' });
      if (readOnly) {
        var done = h('button', { type: 'button', class: 'filled', text: words[2] });
        done.addEventListener('click', function () { finish(null); });
        footer.appendChild(done);
      } else {
        if (mode === 'SCROLL') {
          hint = h('p', { class: 'hint', id: 'cw-hint', text: words[0] });
        } else {
          checkbox = h('input', { type: 'checkbox', id: 'cw-check' });
          checkLabel = h('label', { class: 'check', for: 'cw-check' }, [checkbox, h('span', { text: textOf(texts, 'checkboxLabel') })]);
          checkbox.addEventListener('change', update);
        }
        if (buttons.showDecline !== false) {
          decline = h('button', { type: 'button', class: 'decline ' + buttonClass(buttons.declineStyle, true), text: textOf(texts, 'declineButton') });
          decline.addEventListener('click', function () { act('DECLINED'); });
          footer.appendChild(decline);
        }
        accept = h('button', {
          type: 'button', class: 'accept ' + buttonClass(buttons.acceptStyle), text: textOf(texts, 'acceptButton'),
          'aria-describedby': hint ? 'cw-hint' : null
        });
        accept.addEventListener('click', function () { act('ACCEPTED'); });
        footer.appendChild(accept);
      }

      var dialog = h('div', {
        class: 'dialog', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'cw-title',
        'aria-describedby': 'cw-sub', lang: language
      }, [
        // A div, not <header>: outside sectioning content a header is a banner landmark, and the page
        // that shows the dialog has its own.
        h('div', { class: 'head' }, [logo, h('div', {}, [title, subtitle]), close]),
        content, hint, checkLabel, error, footer
      ]);
      applyTheme(dialog, customizations);
      var backdrop = h('div', { class: 'backdrop' }, [dialog]);
      shadow.appendChild(backdrop);

      var busy = false;
      function update() {
        if (!accept) return;
        var ready = mode === 'SCROLL' ? scrolledToEnd : checkbox.checked;
        accept.disabled = busy || !ready;
        if (decline) decline.disabled = busy;
        if (hint) hint.hidden = scrolledToEnd;
      }

      function checkEnd() {
        if (scrolledToEnd) return;
        if (content.scrollTop + content.clientHeight >= content.scrollHeight - 2) {
          scrolledToEnd = true;
          update();
        }
      }

      function focusables() {
        return Array.prototype.filter.call(
          shadow.querySelectorAll('button, input, a[href], [tabindex="0"]'),
          function (node) { return !node.disabled && node.getClientRects().length > 0; }
        );
      }

      function onKeyDown(event) {
        if (event.key === 'Escape') {
          event.preventDefault();
          event.stopPropagation();
          if (closable && !busy) cancel();
        } else if (event.key === 'Tab') {
          var list = focusables();
          if (!list.length) return;
          var index = list.indexOf(shadow.activeElement);
          var next = event.shiftKey ? (index <= 0 ? list.length - 1 : index - 1) : (index + 1) % list.length;
          event.preventDefault();
          list[next].focus();
        }
      }

      // Focus never leaves the dialog while it is open.
      function onFocusIn(event) {
        if (event.target !== host) content.focus();
      }
      function onDocumentKey(event) {
        if (event.target !== host && (event.key === 'Escape' || event.key === 'Tab')) onKeyDown(event);
      }

      function cleanup() {
        settled = true;
        if (observer) observer.disconnect();
        document.removeEventListener('focusin', onFocusIn, true);
        document.removeEventListener('keydown', onDocumentKey, true);
        root.removeEventListener('resize', checkEnd);
        if (host.parentNode) host.parentNode.removeChild(host);
        openCount -= 1;
        if (!openCount) document.documentElement.style.overflow = savedOverflow;
        if (previousFocus && typeof previousFocus.focus === 'function' && previousFocus.isConnected) previousFocus.focus();
      }

      function finish(value) {
        if (settled) return;
        cleanup();
        resolve(value);
      }

      function cancel() {
        if (settled) return;
        if (readOnly) {
          finish(null);
          return;
        }
        cleanup();
        reject(fail('USER_CANCELLED', 'the user closed the dialog without a decision'));
      }

      function act(action) {
        if (busy || settled) return;
        busy = true;
        error.textContent = '';
        dialog.setAttribute('aria-busy', 'true');
        update();
        var presentation = {
          mode: 'DIALOG',
          agreementMode: mode,
          acceptLabel: collapse(accept.textContent),
          checkboxLabel: checkLabel ? collapse(checkLabel.textContent) : null,
          scrollRequired: scrollRequired
        };
        options.onAction(action, presentation).then(finish, function (failure) {
          busy = false;
          dialog.removeAttribute('aria-busy');
          update();
          if (isTemporary(failure)) {
            error.textContent = words[1];
          } else if (!settled) {
            cleanup();
            reject(failure);
          }
        });
      }

      if (close) close.addEventListener('click', cancel);
      backdrop.addEventListener('keydown', onKeyDown);
      content.addEventListener('scroll', checkEnd, { passive: true });
      root.addEventListener('resize', checkEnd);
      if (root.IntersectionObserver) {
        observer = new root.IntersectionObserver(function (entries) {
          if (entries.some(function (entry) { return entry.isIntersecting; })) {
            scrolledToEnd = true;
            update();
          }
        }, { root: content });
        observer.observe(end);
      }
      update();

      if (!openCount) savedOverflow = document.documentElement.style.overflow;
      openCount += 1;
      document.documentElement.style.overflow = 'hidden';
      document.body.appendChild(host);
      document.addEventListener('focusin', onFocusIn, true);
      document.addEventListener('keydown', onDocumentKey, true);
      content.focus({ preventScroll: true });
      checkEnd();
      scrollRequired = mode === 'SCROLL' && !readOnly && !scrolledToEnd;
      if (options.onShown) options.onShown();
    });
  }

  // ---- recording an action -------------------------------------------------------------------

  function record(view, request, placeholders, action, presentation, presentedAt) {
    return call('POST', '/clickwrap', null, {
      appId: config.appId,
      clickwrapTemplateId: view.clickwrapTemplateId,
      clickwrapTemplateVersion: view.clickwrapTemplateVersion,
      clickwrapTemplateVersionMinor: view.clickwrapTemplateVersionMinor,
      endUserId: request.endUserId,
      action: action,
      language: view.language,
      templatePlaceholders: placeholders,
      contentHash: view.contentHash,
      presentedAt: presentedAt,
      presentation: presentation,
      clientMetadata: clientMetadata()
    }, 0).then(function (answer) {
      if (!answer || typeof answer.serviceSignature !== 'string') {
        throw fail('NETWORK', 'the service sent no Signature');
      }
      return result(view, answer.serviceSignature, action, answer.clickwrapEventId);
    });
  }

  function result(view, signature, action, eventId) {
    return {
      serviceSignature: signature,
      isAlreadyAccepted: signature === null,
      isCanceled: false,
      action: action,
      clickwrapEventId: eventId || null,
      clickwrapTemplateId: view.clickwrapTemplateId,
      clickwrapTemplateVersion: view.clickwrapTemplateVersion,
      clickwrapTemplateVersionMinor: view.clickwrapTemplateVersionMinor
    };
  }

  /** GET /clickwrap for a checked request; placeholders already encoded. */
  function load(request, placeholders) {
    var query = {
      appId: config.appId,
      clickwrapTemplateId: request.clickwrapTemplateId,
      endUserId: request.endUserId,
      language: languageList(request.language)
    };
    if (placeholders) query.templatePlaceholders = JSON.stringify(placeholders);
    return call('GET', '/clickwrap', query, null, 1);
  }

  function effectiveMode(view, requested) {
    if (requested != null) {
      var warn = root.console && root.console.warn;
      if (warn) {
        warn.call(root.console, '[clickwrap] the `mode` option is deprecated since SDK v2.0 and ignored: ' +
          'the agreement mode is set on the template');
      }
    }
    var fromServer = view.agreementMode || (view.customizations && view.customizations.agreementMode);
    var mode = String(fromServer || requested || 'SCROLL').toUpperCase();
    return mode === 'CHECKBOX' ? 'CHECKBOX' : 'SCROLL';
  }

  /** Runs dialogs one after another: a second show() waits for the first dialog to close. */
  function queued(task) {
    var run = dialogQueue.then(task);
    dialogQueue = run.then(noop, noop);
    return run;
  }

  function noop() {}

  function guarded(body) {
    if (!config) return Promise.reject(notInitialized());
    try {
      return body();
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * guarded(body), also reported to the caller's options.onSuccess(result) or onError(error). The
   * returned Promise settles as before; a callback that throws is logged and changes nothing. With
   * onError given, a rejection that nothing else handles is not reported as unhandled.
   */
  function reported(options, body) {
    var onSuccess = options && options.onSuccess;
    var onError = options && options.onError;
    var promise = [onSuccess, onError].some(function (fn) { return fn != null && typeof fn !== 'function'; })
      ? Promise.reject(invalid('onSuccess and onError must be functions'))
      : guarded(body);
    if (!onSuccess && !onError) return promise;
    var settled = promise.then(function (value) {
      callback(onSuccess, value);
      return value;
    }, function (error) {
      callback(onError, error);
      throw error;
    });
    if (typeof onError === 'function') settled.catch(noop);
    return settled;
  }

  // ---- ClickwrapClient -------------------------------------------------------------------------

  var ClickwrapClient = {
    version: VERSION,

    /** Must be called once before anything else; takes only the public App ID. */
    initialize: function (appId, options) {
      options = options || {};
      if (typeof appId !== 'string' || !appId.trim()) throw invalid('initialize needs the App ID');
      if (options.baseUrl != null && typeof options.baseUrl !== 'string') throw invalid('baseUrl must be a string');
      if (options.locale != null && typeof options.locale !== 'string') throw invalid('locale must be a string');
      var base = options.baseUrl || (scriptUrl ? new URL(scriptUrl).origin : root.location.origin);
      base = new URL(base, root.location && root.location.href).href.replace(/\/+$/, '');
      if (base.slice(-API_PATH.length) !== API_PATH) base += API_PATH;
      config = { appId: appId.trim(), api: base, locale: options.locale || null };
    },

    isInitialized: function () {
      return !!config;
    },

    /** Forgets the App ID; the next call needs initialize() again. */
    shutdown: function () {
      config = null;
    },

    /**
     * Shows the clickwrap to the end user unless they already accepted the latest major version.
     * Resolves with {serviceSignature, isAlreadyAccepted, isCanceled, action, clickwrapEventId, …};
     * serviceSignature is null when the user had already accepted.
     */
    show: function (request, options) {
      options = options || {};
      return reported(options, function () {
        checkRequest(request);
        var placeholders = encodePlaceholders(request.templatePlaceholders);
        var snapshot = config;
        return queued(function () {
          if (config !== snapshot) throw notInitialized();
          return load(request, placeholders).then(function (view) {
            if (!view.acceptanceRequired) return result(view, null, null, null);
            var presentedAt = null;
            return present(view, {
              disableClose: !!options.disableClose,
              agreementMode: effectiveMode(view, options.mode),
              onShown: function () { presentedAt = new Date().toISOString(); },
              onAction: function (action, presentation) {
                return record(view, request, placeholders, action, presentation, presentedAt);
              }
            });
          });
        });
      });
    },

    /**
     * Shows a view (the shape GET /clickwrap answers with) exactly as show() would, but without the
     * network and without recording anything: the operator console's dialog preview. Needs no
     * initialize(). Resolves with the action chosen ('ACCEPTED' or 'DECLINED'); rejects with
     * ERR_SERVICE_USER_CANCELLED when the dialog is closed.
     */
    preview: function (view) {
      if (!view || typeof view !== 'object') return Promise.reject(invalid('preview needs a view'));
      return queued(function () {
        return present(view, {
          agreementMode: effectiveMode(view, null),
          onAction: function (action) { return Promise.resolve(action); }
        });
      });
    },

    /**
     * Shows, read-only, the version this end user last accepted. Resolves with that content when the
     * dialog is closed; ERR_SERVICE_TEMPLATE_NOT_FOUND when the user never accepted the template.
     */
    showAcceptedContent: function (request, options) {
      return reported(options, function () {
        checkRequest(request);
        var languages = languageList(request.language);
        var base = { appId: config.appId, clickwrapTemplateId: request.clickwrapTemplateId, language: languages };
        var query = { endUserId: request.endUserId };
        for (var key in base) query[key] = base[key];
        return queued(function () {
          return Promise.all([
            call('GET', '/clickwrap/content', query, null, 1),
            call('GET', '/clickwrap/customizations', base, null, 1).catch(function () { return null; })
          ]).then(function (answers) {
            var view = answers[0];
            var shown = {};
            for (var field in view) shown[field] = view[field];
            shown.customizations = answers[1];
            return present(shown, { readOnly: true }).then(function () { return view; });
          });
        });
      });
    }
  };

  // ---- ClickwrapDom (inline mode) ----------------------------------------------------------------

  function kebab(name) {
    return name.slice(0, 2) === '--' ? name : name.replace(/[A-Z]/g, function (c) { return '-' + c.toLowerCase(); });
  }

  function callback(fn, value) {
    if (typeof fn !== 'function') return;
    try {
      fn(value);
    } catch (error) {
      if (root.console) root.console.error('[clickwrap] a callback failed', error);
    }
  }

  var ClickwrapDom = {
    /**
     * Embeds a consent checkbox into `container` (an element or a CSS selector). Returns a handle
     * {element, ready, checked, destroy()}; ready resolves with {isAlreadyAccepted} once shown.
     */
    renderInline: function (container, request) {
      request = request || {};
      var item = { request: request, result: null, error: null, view: null, checkbox: null, presentedAt: null };
      var parts = null;
      item.ready = guarded(function () {
        var target = typeof container === 'string' ? document.querySelector(container) : container;
        if (!target || typeof target.appendChild !== 'function') throw invalid('renderInline needs a container element');
        checkRequest(request);
        if (request.style != null && typeof request.style !== 'object') throw invalid('style must be an object');
        var placeholders = encodePlaceholders(request.templatePlaceholders);
        item.placeholders = placeholders;
        parts = shell('clickwrap-inline');
        item.host = parts.host;
        target.appendChild(parts.host);
        inlines.push(item);
        callback(request.onLoading);
        return load(request, placeholders).then(function (view) {
          item.view = view;
          if (!view.acceptanceRequired) {
            item.result = result(view, null, null, null);
            return { isAlreadyAccepted: true };
          }
          var customizations = view.customizations || {};
          var box = h('div', { class: 'inline', lang: view.language || null });
          var style = request.style || {};
          Object.keys(style).forEach(function (name) { box.style.setProperty(kebab(name), String(style[name])); });
          applyInlineTheme(box, customizations, parts.host);
          var label = h('span', { class: 'label' });
          label.appendChild(contentFragment(view.inlineContent || textOf(customizations.texts, 'checkboxLabel')));
          // The agreement's name opens the full text, read-only.
          Array.prototype.forEach.call(label.querySelectorAll('strong'), function (strong) {
            var open = h('button', { type: 'button', class: 'link' });
            strong.parentNode.replaceChild(open, strong);
            open.appendChild(strong);
            open.addEventListener('click', function (event) {
              event.preventDefault();
              queued(function () { return present(view, { readOnly: true }); });
            });
          });
          item.checkbox = h('input', { type: 'checkbox' });
          box.appendChild(h('label', {}, [item.checkbox, label]));
          parts.shadow.appendChild(box);
          item.label = label;
          item.agreementMode = 'CHECKBOX';
          item.presentedAt = new Date().toISOString();
          return { isAlreadyAccepted: false };
        });
      }).then(function (state) {
        callback(request.onReady, state);
        return state;
      }, function (error) {
        item.error = error;
        callback(request.onError, error);
        throw error;
      });
      item.ready.catch(noop);
      return {
        get element() { return item.host || null; },
        ready: item.ready,
        get checked() { return !!(item.checkbox && item.checkbox.checked); },
        destroy: function () {
          inlines = inlines.filter(function (other) { return other !== item; });
          if (item.host && item.host.parentNode) item.host.parentNode.removeChild(item.host);
        }
      };
    },

    /**
     * Records the action of every inline clickwrap on the page (checked: ACCEPTED, else DECLINED).
     * Resolves with one result per inline clickwrap, in the order they were rendered.
     */
    finalizeAll: function () {
      return guarded(function () {
        inlines = inlines.filter(function (item) { return item.host && item.host.isConnected; });
        return Promise.all(inlines.map(function (item) {
          return item.ready.then(function () {
            if (item.result) return item.result;
            var action = item.checkbox.checked ? 'ACCEPTED' : 'DECLINED';
            var text = collapse(item.label.textContent);
            var presentation = {
              mode: 'INLINE', agreementMode: 'CHECKBOX', acceptLabel: text, checkboxLabel: text, scrollRequired: false
            };
            item.checkbox.disabled = true;
            return record(item.view, item.request, item.placeholders, action, presentation, item.presentedAt)
              .then(function (recorded) {
                item.result = recorded;
                return recorded;
              }, function (error) {
                item.checkbox.disabled = false;
                throw error;
              });
          });
        }));
      });
    }
  };

  /** Used by clickwrap.mjs: the module's own URL gives the default service address. */
  Object.defineProperty(ClickwrapClient, '_moduleUrl', {
    value: function (url) { if (!scriptUrl) scriptUrl = url; },
    enumerable: false
  });

  return { ClickwrapClient: ClickwrapClient, ClickwrapDom: ClickwrapDom };
});
