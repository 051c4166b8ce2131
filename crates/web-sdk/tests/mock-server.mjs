// A stand-in for the clickwrap server's public client routes, so that the SDK tests run without
// the Rust server and a database. It follows the real routes (crates/http/src/routes/public.rs and
// crates/http/src/wire/public.rs): the same paths, query parameters, JSON fields, status codes and
// problem+json errors, CORS on the public routes only, placeholder rendering (URL-decoded once,
// HTML-escaped) and `contentHash` = sha256 of the rendered content. It does NOT sanitize content:
// one template carries hostile markup on purpose, to prove the SDK never runs it.
//
// It also serves the SDK files at /sdk/v1/, the test pages at /test/, the demo page at /demo with a
// stand-in for POST /demo/verify, and a control API under /__mock/ for the tests (inject failures,
// read what the SDK sent, reset).
//
// Run by hand: `node tests/mock-server.mjs [port]`, then open http://127.0.0.1:<port>/demo.

import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const SDK_DIR = join(HERE, '..');
const API = '/public-client/v1';

export const MOCK_APP_ID = '0190a0b0-0000-7000-8000-00000000a991';
export const MOCK_APP_KEY = 'mock-app-key-for-tests-only';

export const TEMPLATE_IDS = {
  scroll: '0190a0b0-0000-7000-8000-000000000001',
  short: '0190a0b0-0000-7000-8000-000000000002',
  checkbox: '0190a0b0-0000-7000-8000-000000000003',
  hostile: '0190a0b0-0000-7000-8000-000000000004',
  disabled: '0190a0b0-0000-7000-8000-000000000005',
  languages: '0190a0b0-0000-7000-8000-000000000006',
  dark: '0190a0b0-0000-7000-8000-000000000007',
  pale: '0190a0b0-0000-7000-8000-000000000008',
};

const LANGUAGES = ['en', 'de', 'fr', 'es', 'zh', 'hi', 'ru'];

// crates/domain/src/templates/customizations.rs, builtin_texts.
const BUILTIN_TEXTS = {
  en: ['Please review and accept', 'Accept', 'Decline', 'I have read and agree to the terms', 'Version'],
  de: ['Bitte lesen und akzeptieren', 'Akzeptieren', 'Ablehnen', 'Ich habe die Bedingungen gelesen und stimme zu', 'Version'],
  fr: ['Veuillez lire et accepter', 'Accepter', 'Refuser', "J'ai lu et j'accepte les conditions", 'Version'],
  es: ['Lea y acepte', 'Aceptar', 'Rechazar', 'He leído y acepto los términos', 'Versión'],
  zh: ['请阅读并接受', '接受', '拒绝', '我已阅读并同意这些条款', '版本'],
  hi: ['कृपया पढ़ें और स्वीकार करें', 'स्वीकार करें', 'अस्वीकार करें', 'मैंने शर्तें पढ़ ली हैं और मैं सहमत हूँ', 'संस्करण'],
  ru: ['Пожалуйста, прочитайте и примите', 'Принять', 'Отклонить', 'Я прочитал(а) условия и согласен(на)', 'Версия'],
};

const NAMED_PLACEHOLDERS = ['fullName', 'email', 'company', 'jobTitle', 'date', 'phoneNumber', 'registrationNumber', 'vatNumber', 'address'];
const LEGACY_CUSTOM = Array.from({ length: 10 }, (_, i) => `custom${i + 1}`);

function longText(language) {
  const paragraph = language === 'de'
    ? 'Diese Bedingungen regeln die Nutzung des Dienstes. Bitte lesen Sie sie vollständig, bevor Sie zustimmen.'
    : 'These terms govern your use of the service. Please read them in full before you agree to them.';
  const sections = [];
  for (let i = 1; i <= 14; i += 1) {
    sections.push(`<h3>${language === 'de' ? 'Abschnitt' : 'Section'} ${i}</h3><p>${paragraph} ${paragraph}</p>`);
  }
  const greeting = language === 'de' ? 'Hallo {{ fullName }},' : 'Hello {{ fullName }},';
  return `<p>${greeting}</p>${sections.join('')}<p>${language === 'de' ? 'Ende der Bedingungen.' : 'End of the terms.'}</p>`;
}

function defaultCustomizations() {
  return {
    agreementMode: 'SCROLL',
    theme: { primaryColor: null, backgroundColor: null, textColor: null, borderRadius: null },
    buttons: { acceptStyle: 'FILLED', declineStyle: 'FILLED', showDecline: true },
    logoUrl: null,
    texts: {},
  };
}

function initialTemplates() {
  const effectiveAt = '2026-01-15T09:30:00.000Z';
  const make = (id, name, content, customizations = {}, extra = {}) => ({
    id,
    name,
    enabled: true,
    defaultLanguage: 'en',
    alwaysRequireAcceptance: false,
    versions: [{ major: 1, minor: 0, effectiveAt: '2025-06-01T00:00:00.000Z', content }, { major: 1, minor: 2, effectiveAt, content }],
    customizations: { ...defaultCustomizations(), ...customizations },
    ...extra,
  });
  const templates = [
    make(TEMPLATE_IDS.scroll, 'Terms of Service', { en: longText('en'), de: longText('de') }, {
      theme: { primaryColor: '#0a7d38', backgroundColor: '#fffdf5', textColor: '#1b1b1b', borderRadius: 4 },
      buttons: { acceptStyle: 'FILLED', declineStyle: 'OUTLINED', showDecline: true },
      logoUrl: 'https://cdn.example.test/logo.png',
    }),
    make(TEMPLATE_IDS.short, 'Cookie Notice', { en: '<p>We use cookies to keep you signed in, {{fullName}}.</p>' }),
    make(TEMPLATE_IDS.checkbox, 'Privacy Policy', {
      en: '<p>We process your data as described here.</p><p>Contact: {{email}} / {{custom.ref}}</p>',
      de: '<p>Wir verarbeiten Ihre Daten wie hier beschrieben.</p>',
    }, {
      agreementMode: 'CHECKBOX',
      buttons: { acceptStyle: 'FILLED', declineStyle: 'TEXT', showDecline: true },
      texts: { en: { title: null, acceptButton: 'I agree', declineButton: null, checkboxLabel: 'I have read the privacy policy', versionLabel: null } },
    }),
    make(TEMPLATE_IDS.hostile, 'Hostile Content', {
      en: '<p>Before</p><img src="x" onerror="window.__xss = \'img\'">'
        + '<script>window.__xss = "script"</script>'
        + '<a id="js-link" href="javascript:window.__xss=\'link\'">a link</a>'
        + '<svg><script>window.__xss = "svg"</script></svg>'
        + '<iframe src="javascript:parent.__xss=\'iframe\'"></iframe>'
        + '<p onclick="window.__xss=\'click\'" style="position:fixed;inset:0">After</p>'
        + '<a href="https://example.test/terms">the terms</a>',
    }),
    make(TEMPLATE_IDS.disabled, 'Disabled Template', { en: '<p>Off</p>' }, {}, { enabled: false }),
    // Four languages and French as the template's default language (the server's second fallback).
    make(TEMPLATE_IDS.languages, 'Multilingual Terms', {
      en: '<p>The terms in English.</p>',
      de: '<p>Die Bedingungen auf Deutsch.</p>',
      fr: '<p>Les conditions en français.</p>',
      es: '<p>Las condiciones en español.</p>',
    }, {}, { defaultLanguage: 'fr' }),
    // Themes whose colours do not all read well as given: the SDK must keep every text readable.
    make(TEMPLATE_IDS.dark, 'Dark Terms', { en: longText('en') }, {
      theme: { primaryColor: '#fbbf24', backgroundColor: '#111827', textColor: '#e5e7eb', borderRadius: 16 },
    }),
    make(TEMPLATE_IDS.pale, 'Pale Terms', { en: '<p>Short terms with <a href="https://example.test/more">a link</a>.</p>' }, {
      agreementMode: 'CHECKBOX',
      theme: { primaryColor: '#7dd3fc', backgroundColor: null, textColor: '#9ca3af', borderRadius: null },
    }),
  ];
  return new Map(templates.map((t) => [t.id, t]));
}

// ---- helpers ------------------------------------------------------------------------------------

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

class Problem extends Error {
  constructor(status, code, detail, extra = {}) {
    super(detail);
    this.status = status;
    this.code = code;
    this.extra = extra;
  }
}

const TITLES = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed', 409: 'Conflict', 429: 'Too Many Requests', 500: 'Internal Server Error', 503: 'Service Unavailable' };

function invalidField(field, message) {
  return new Problem(400, 'VALIDATION_FAILED', `${field}: ${message}`, { errors: [{ field, message }] });
}

function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

function percentDecode(value) {
  // Percent-decoding only, as the server does: `+` stays `+`; undecodable values are used as given.
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** PlaceholderValues::from_json_object: a map from placeholder name to value. */
function parsePlaceholders(json) {
  const values = new Map();
  if (json === null || json === undefined) return values;
  if (typeof json !== 'object' || Array.isArray(json)) throw invalidField('templatePlaceholders', 'templatePlaceholders must be a JSON object');
  const add = (name, field, value) => {
    if (value === null) return;
    if (typeof value !== 'string') throw invalidField('templatePlaceholders', `templatePlaceholders.${field} must be a string or null`);
    if ([...value].length > 1000) throw invalidField('templatePlaceholders', `templatePlaceholders.${field} is longer than 1000 characters`);
    values.set(name, value);
  };
  for (const [field, value] of Object.entries(json)) {
    if (field === 'customPlaceholders') {
      if (value === null) continue;
      if (typeof value !== 'object' || Array.isArray(value)) throw invalidField('templatePlaceholders', 'templatePlaceholders.customPlaceholders must be an object or null');
      for (const [key, inner] of Object.entries(value)) {
        if (!/^[A-Za-z0-9_]{1,64}$/.test(key)) throw invalidField('templatePlaceholders', `templatePlaceholders.customPlaceholders has an invalid key \`${key}\``);
        add(`custom.${key}`, `customPlaceholders.${key}`, inner);
      }
    } else if (LEGACY_CUSTOM.includes(field)) {
      add(`custom.${field}`, field, value);
    } else if (NAMED_PLACEHOLDERS.includes(field)) {
      add(field, field, value);
    } else {
      throw invalidField('templatePlaceholders', `templatePlaceholders has an unknown field \`${field}\``);
    }
  }
  return values;
}

/** The canonical JSON the server stores: named fields in order, then customPlaceholders by key. */
function canonicalPlaceholders(values) {
  if (!values.size) return null;
  const named = NAMED_PLACEHOLDERS.filter((n) => values.has(n)).map((n) => `${JSON.stringify(n)}:${JSON.stringify(values.get(n))}`);
  const custom = [...values.keys()].filter((k) => k.startsWith('custom.')).sort()
    .map((k) => `${JSON.stringify(k.slice(7))}:${JSON.stringify(values.get(k))}`);
  if (custom.length) named.push(`"customPlaceholders":{${custom.join(',')}}`);
  return `{${named.join(',')}}`;
}

function render(html, values) {
  return html.replace(/\{\{([^{}<>\n]{0,100}?)\}\}/g, (whole, inner) => {
    const name = inner.trim();
    if (!NAMED_PLACEHOLDERS.includes(name) && !/^custom\.[A-Za-z0-9_]{1,64}$/.test(name)) return whole;
    return escapeHtml(percentDecode(values.get(name) ?? ''));
  });
}

function contentHash(content) {
  return `sha256:${createHash('sha256').update(content, 'utf8').digest('hex')}`;
}

/** LanguagePreference::parse: supported languages in order; malformed tags are an error. */
function parseLanguages(text) {
  if (text === undefined || text === null) return [];
  const tags = text.split(',').map((t) => t.trim()).filter(Boolean);
  if (tags.length > 16) throw invalidField('language', 'language lists at most 16 tags');
  const wanted = [];
  for (const tag of tags) {
    const parts = tag.split(/[-_]/);
    const primary = parts[0];
    const ok = /^[A-Za-z]{2,8}$/.test(primary) && parts.slice(1).every((s) => /^[A-Za-z0-9]{1,8}$/.test(s));
    if (!ok) throw invalidField('language', 'language must be a language tag such as en or de-AT');
    const code = primary.toLowerCase();
    if (LANGUAGES.includes(code) && !wanted.includes(code)) wanted.push(code);
  }
  return wanted;
}

function resolveLanguage(wanted, available, fallback) {
  return [...wanted, fallback, 'en'].find((l) => available.includes(l)) ?? available[0];
}

function textsFor(customizations, language) {
  const builtin = BUILTIN_TEXTS[language] ?? BUILTIN_TEXTS.en;
  const o = customizations.texts?.[language] ?? {};
  return {
    title: o.title ?? builtin[0],
    acceptButton: o.acceptButton ?? builtin[1],
    declineButton: o.declineButton ?? builtin[2],
    checkboxLabel: o.checkboxLabel ?? builtin[3],
    versionLabel: o.versionLabel ?? builtin[4],
  };
}

/** wire::customizations: texts already resolved for one language. */
function customizationsWire(c, language) {
  return { agreementMode: c.agreementMode, theme: c.theme, buttons: c.buttons, logoUrl: c.logoUrl, texts: textsFor(c, language) };
}

function latestEffective(template, now = Date.now()) {
  return template.versions.filter((v) => Date.parse(v.effectiveAt) <= now).at(-1) ?? null;
}

// ---- the server ---------------------------------------------------------------------------------

/**
 * Starts the mock on 127.0.0.1 (port 0: any free port). Returns {url, close(), state}.
 */
export async function startMockServer({ port = 0 } = {}) {
  const state = {
    templates: initialTemplates(),
    events: new Map(), // signature → event
    requests: [],
    failures: [], // {method, path, status, times, body}
  };

  function servable(appId, templateId) {
    if (appId !== MOCK_APP_ID) throw new Problem(404, 'APP_NOT_FOUND', 'the App ID is not valid');
    if (!UUID.test(templateId ?? '')) throw invalidField('clickwrapTemplateId', 'must be a UUID');
    const template = state.templates.get(templateId.toLowerCase());
    const version = template?.enabled ? latestEffective(template) : null;
    if (!version) throw new Problem(404, 'TEMPLATE_NOT_FOUND', 'the template could not be found');
    return { template, version };
  }

  function require(query, name) {
    const all = query.getAll(name);
    if (all.length > 1) throw invalidField(name, 'may be given only once');
    if (!all[0]) throw invalidField(name, 'is required');
    return all[0];
  }

  function queryPlaceholders(query) {
    const text = query.get('templatePlaceholders');
    if (text === null) return new Map();
    let json;
    try {
      json = JSON.parse(text);
    } catch {
      throw invalidField('templatePlaceholders', 'templatePlaceholders is not valid JSON');
    }
    return parsePlaceholders(json);
  }

  function rendered(template, version, language, values) {
    const content = render(version.content[language], values);
    return {
      clickwrapTemplateId: template.id,
      clickwrapTemplateVersion: version.major,
      clickwrapTemplateVersionMinor: version.minor,
      effectiveAt: version.effectiveAt,
      name: template.name,
      language,
      content,
      contentHash: contentHash(content),
    };
  }

  function acceptedMajor(endUserId, templateId, major) {
    const verified = [...state.events.values()].filter((e) => e.endUserId === endUserId && e.clickwrapTemplateId === templateId
      && e.clickwrapTemplateVersion === major && e.clickwrapEventStatus !== 'UNVERIFIED');
    return verified.at(-1)?.clickwrapEventStatus === 'ACCEPTED';
  }

  const routes = {
    [`GET ${API}/clickwrap`](query) {
      const { template, version } = servable(require(query, 'appId'), require(query, 'clickwrapTemplateId'));
      const endUserId = require(query, 'endUserId');
      const language = resolveLanguage(parseLanguages(query.get('language')), Object.keys(version.content), template.defaultLanguage);
      const view = rendered(template, version, language, queryPlaceholders(query));
      const texts = textsFor(template.customizations, language);
      view.acceptanceRequired = template.alwaysRequireAcceptance || !acceptedMajor(endUserId, template.id, version.major);
      view.agreementMode = template.customizations.agreementMode;
      view.inlineContent = `${escapeHtml(texts.checkboxLabel)}: <strong>${escapeHtml(template.name)}</strong>`;
      view.customizations = customizationsWire(template.customizations, language);
      return [200, view];
    },

    [`POST ${API}/clickwrap`](_query, body, request) {
      if (!body || typeof body !== 'object') throw new Problem(400, 'INVALID_JSON', 'the body is not valid JSON');
      const missing = ['appId', 'clickwrapTemplateId', 'clickwrapTemplateVersion', 'clickwrapTemplateVersionMinor', 'endUserId', 'action', 'language', 'contentHash', 'presentedAt', 'presentation']
        .find((f) => body[f] === undefined);
      if (missing) throw new Problem(400, 'INVALID_JSON', `missing field \`${missing}\``);
      const { template } = servable(body.appId, body.clickwrapTemplateId);
      const values = parsePlaceholders(body.templatePlaceholders ?? null);
      const metadata = body.clientMetadata ?? {};
      if (typeof metadata !== 'object' || Array.isArray(metadata)) throw new Problem(400, 'INVALID_JSON', 'clientMetadata must be an object');
      if (JSON.stringify(metadata).length > 8 * 1024) throw invalidField('clientMetadata', 'must be at most 8192 bytes of JSON');
      const p = body.presentation;
      if (!['DIALOG', 'INLINE'].includes(p.mode)) throw invalidField('presentation.mode', 'must be DIALOG or INLINE');
      if (!['SCROLL', 'CHECKBOX'].includes(String(p.agreementMode).toUpperCase())) throw invalidField('presentation.agreementMode', 'must be SCROLL or CHECKBOX');
      const label = (name, text) => {
        if (typeof text !== 'string' || !text.trim() || [...text].length > 500 || /[\u0000-\u001f\u007f-\u009f]/.test(text)) {
          throw invalidField(name, 'must be 1 to 500 characters of text');
        }
      };
      label('presentation.acceptLabel', p.acceptLabel);
      if (p.checkboxLabel !== null && p.checkboxLabel !== undefined) label('presentation.checkboxLabel', p.checkboxLabel);
      if (p.scrollRequired !== undefined && typeof p.scrollRequired !== 'boolean') throw invalidField('presentation.scrollRequired', 'must be a boolean');
      if (typeof body.endUserId !== 'string' || !body.endUserId || [...body.endUserId].length > 256) throw invalidField('endUserId', 'must be 1 to 256 characters');
      if (!['ACCEPTED', 'DECLINED'].includes(body.action)) throw invalidField('action', 'must be ACCEPTED or DECLINED');
      const language = parseLanguages(body.language)[0];
      if (!language) throw invalidField('language', 'language is not supported');
      if (!/^sha256:[0-9a-f]{64}$/.test(body.contentHash)) throw invalidField('contentHash', 'a content hash is `sha256:` followed by 64 lowercase hexadecimal digits');
      const presentedAt = Date.parse(body.presentedAt);
      if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(body.presentedAt) || Number.isNaN(presentedAt)) throw invalidField('presentedAt', 'must be an RFC 3339 timestamp');
      if (presentedAt < Date.now() - 86_400_000 || presentedAt > Date.now() + 300_000) throw invalidField('presentedAt', 'presentedAt must lie within the last day and not in the future');
      const version = template.versions.find((v) => v.major === body.clickwrapTemplateVersion && v.minor === body.clickwrapTemplateVersionMinor);
      if (!version) throw new Problem(404, 'TEMPLATE_NOT_FOUND', 'the template could not be found');
      if (version !== latestEffective(template)) throw new Problem(400, 'VERSION_SUPERSEDED', 'the version is no longer in force');
      if (!version.content[language]) throw invalidField('language', `the version has no content in ${language}`);
      const content = render(version.content[language], values);
      if (contentHash(content) !== body.contentHash) {
        throw new Problem(400, 'CONTENT_MISMATCH', 'contentHash does not match the content of that version in that language with those placeholders');
      }
      const event = {
        clickwrapEventStatus: 'UNVERIFIED',
        action: body.action,
        clickwrapEventId: randomUUID(),
        clickwrapTemplateId: template.id,
        clickwrapTemplateVersion: version.major,
        clickwrapTemplateVersionMinor: version.minor,
        endUserId: body.endUserId,
        templatePlaceholders: canonicalPlaceholders(values),
        technicalMetadata: JSON.stringify({ ipAddress: request.socket.remoteAddress, userAgent: request.headers['user-agent'] ?? null, client: metadata }),
        presentedAt: new Date(Math.min(presentedAt, Date.now())).toISOString(),
        actionAt: new Date().toISOString(),
        effectiveAt: version.effectiveAt,
        language,
        content,
        contentHash: body.contentHash,
        presentation: {
          mode: p.mode, agreementMode: String(p.agreementMode).toUpperCase(), acceptLabel: p.acceptLabel, checkboxLabel: p.checkboxLabel ?? null,
          ...(p.scrollRequired === undefined ? {} : { scrollRequired: p.scrollRequired }),
        },
      };
      const signature = `mock.${Buffer.from(JSON.stringify({ e: event.clickwrapEventId, a: MOCK_APP_ID })).toString('base64url')}.${randomUUID().replaceAll('-', '')}`;
      state.events.set(signature, event);
      return [201, { serviceSignature: signature, clickwrapEventId: event.clickwrapEventId, clickwrapEventStatus: 'UNVERIFIED' }];
    },

    [`GET ${API}/clickwrap/content`](query) {
      const { template } = servable(require(query, 'appId'), require(query, 'clickwrapTemplateId'));
      const major = query.get('clickwrapTemplateVersion');
      const minor = query.get('clickwrapTemplateVersionMinor');
      if (major === null && minor !== null) throw invalidField('clickwrapTemplateVersion', 'is required with clickwrapTemplateVersionMinor');
      const endUserId = query.get('endUserId');
      let version;
      if (major !== null) {
        version = template.versions.find((v) => v.major === Number(major) && v.minor === Number(minor ?? 0));
      } else if (endUserId) {
        const accepted = [...state.events.values()].filter((e) => e.endUserId === endUserId && e.clickwrapTemplateId === template.id
          && e.clickwrapEventStatus === 'ACCEPTED').at(-1);
        version = accepted && template.versions.find((v) => v.major === accepted.clickwrapTemplateVersion && v.minor === accepted.clickwrapTemplateVersionMinor);
      } else {
        version = latestEffective(template);
      }
      if (!version || Date.parse(version.effectiveAt) > Date.now()) throw new Problem(404, 'TEMPLATE_NOT_FOUND', 'the template could not be found');
      const language = resolveLanguage(parseLanguages(query.get('language')), Object.keys(version.content), template.defaultLanguage);
      return [200, rendered(template, version, language, queryPlaceholders(query))];
    },

    [`GET ${API}/clickwrap/customizations`](query) {
      const { template, version } = servable(require(query, 'appId'), require(query, 'clickwrapTemplateId'));
      const language = resolveLanguage(parseLanguages(query.get('language')), Object.keys(version.content), template.defaultLanguage);
      return [200, customizationsWire(template.customizations, language)];
    },

    [`POST ${API}/clickwrap/verify`](_query, body, request) {
      if (request.headers['x-app-id'] !== MOCK_APP_ID || request.headers['x-app-key'] !== MOCK_APP_KEY) {
        throw new Problem(401, 'UNAUTHORIZED', 'the credentials are missing or wrong');
      }
      return [200, verify(body?.serviceSignature)];
    },

    // The demo server's endpoint (the real one lives in the server binary and uses the demo app's key).
    'POST /demo/verify'(_query, body) {
      const verified = verify(body?.serviceSignature);
      return [200, { ...verified, certificateUrl: `/demo/certificate/${verified.clickwrapEventId}` }];
    },
  };

  function verify(signature) {
    const event = typeof signature === 'string' ? state.events.get(signature) : undefined;
    if (!event) throw new Problem(400, 'INVALID_SIGNATURE', 'the Signature is not valid');
    if (event.clickwrapEventStatus !== 'UNVERIFIED') {
      throw new Problem(409, 'SIGNATURE_ALREADY_VERIFIED', 'the Signature was already verified', { clickwrapEventId: event.clickwrapEventId });
    }
    event.clickwrapEventStatus = event.action;
    const { clickwrapEventStatus, clickwrapEventId, clickwrapTemplateId, clickwrapTemplateVersion, clickwrapTemplateVersionMinor, endUserId, templatePlaceholders, technicalMetadata, actionAt, effectiveAt } = event;
    return { clickwrapEventStatus, clickwrapEventId, clickwrapTemplateId, clickwrapTemplateVersion, clickwrapTemplateVersionMinor, endUserId, templatePlaceholders, technicalMetadata, actionAt, effectiveAt };
  }

  const STATIC = {
    '/sdk/v1/clickwrap.js': ['clickwrap.js', 'text/javascript; charset=utf-8'],
    '/sdk/v1/clickwrap.mjs': ['clickwrap.mjs', 'text/javascript; charset=utf-8'],
    '/test/page.html': ['tests/pages/page.html', 'text/html; charset=utf-8'],
    '/test/module.html': ['tests/pages/module.html', 'text/html; charset=utf-8'],
    '/test/csp.html': ['tests/pages/csp.html', 'text/html; charset=utf-8'],
    '/demo': ['demo.html', 'text/html; charset=utf-8'],
  };

  function send(response, status, body, headers = {}) {
    const text = body === null ? '' : JSON.stringify(body);
    const type = status >= 400 ? 'application/problem+json' : 'application/json';
    response.writeHead(status, { ...(text ? { 'content-type': type } : {}), ...headers });
    response.end(text);
  }

  function problemBody(problem) {
    return {
      type: 'about:blank', title: TITLES[problem.status] ?? 'Error', status: problem.status, detail: problem.message,
      code: problem.code, message: problem.message, ...problem.extra,
    };
  }

  async function handle(request, response) {
    const url = new URL(request.url, 'http://mock');
    const path = url.pathname;
    const chunks = [];
    for await (const chunk of request) chunks.push(chunk);
    const raw = Buffer.concat(chunks).toString('utf8');

    // CORS on the public routes only, as crates/http/src/routes/cors.rs answers it.
    const cors = {};
    const isPublic = path.startsWith(`${API}/clickwrap`) && path !== `${API}/clickwrap/verify`;
    if (isPublic && request.headers.origin) {
      Object.assign(cors, {
        'access-control-allow-origin': request.headers.origin,
        vary: 'Origin',
        'access-control-expose-headers': 'Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset',
      });
    }
    if (isPublic && request.method === 'OPTIONS') {
      const headers = request.headers.origin ? {
        'access-control-allow-origin': request.headers.origin,
        'access-control-allow-methods': 'GET, POST, OPTIONS',
        'access-control-allow-headers': 'content-type, accept',
        'access-control-max-age': '600',
        vary: 'Origin',
      } : {};
      response.writeHead(204, headers);
      response.end();
      return;
    }

    // The control API of the tests.
    if (path === '/__mock/reset' && request.method === 'POST') {
      state.templates = initialTemplates();
      state.events.clear();
      state.requests.length = 0;
      state.failures.length = 0;
      return send(response, 204, null);
    }
    if (path === '/__mock/fail' && request.method === 'POST') {
      state.failures.push({ times: 1, ...JSON.parse(raw) });
      return send(response, 204, null);
    }
    if (path === '/__mock/requests' && request.method === 'GET') {
      return send(response, 200, state.requests);
    }

    if (request.method === 'GET' && STATIC[path]) {
      const [file, type] = STATIC[path];
      let body = readFileSync(join(SDK_DIR, file), 'utf8');
      const headers = { 'content-type': type, 'cache-control': 'no-store' };
      if (path === '/demo') {
        body = body.replaceAll('{{APP_ID}}', MOCK_APP_ID).replaceAll('{{TEMPLATE_ID}}', TEMPLATE_IDS.scroll);
      }
      if (path === '/test/csp.html') {
        const api = url.searchParams.get('api') ?? "'self'";
        headers['content-security-policy'] = `default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' https://cdn.example.test; connect-src ${api}`;
      }
      response.writeHead(200, headers);
      response.end(body);
      return;
    }
    if (request.method === 'GET' && path.startsWith('/demo/certificate/')) {
      response.writeHead(200, { 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="certificate.pdf"' });
      response.end('%PDF-1.7\n% mock certificate\n');
      return;
    }

    let body = null;
    if (raw) {
      try {
        body = JSON.parse(raw);
      } catch {
        return send(response, 400, problemBody(new Problem(400, 'INVALID_JSON', 'the body is not valid JSON')), cors);
      }
    }
    state.requests.push({ method: request.method, path, query: Object.fromEntries(url.searchParams), body, origin: request.headers.origin ?? null, at: new Date().toISOString() });

    const failure = state.failures.find((f) => f.times > 0 && f.path === path && (!f.method || f.method === request.method));
    if (failure) {
      failure.times -= 1;
      if (failure.status === 0) {
        request.socket.destroy(); // a network error
        return;
      }
      return send(response, failure.status, problemBody(new Problem(failure.status, 'SERVICE_UNAVAILABLE', 'injected failure')), cors);
    }

    const route = routes[`${request.method} ${path}`];
    if (!route) {
      const known = Object.keys(routes).some((key) => key.endsWith(` ${path}`));
      const problem = known ? new Problem(405, 'METHOD_NOT_ALLOWED', 'method not allowed') : new Problem(404, 'NOT_FOUND', 'no such route');
      return send(response, problem.status, problemBody(problem), cors);
    }
    try {
      const [status, answer] = route(url.searchParams, body, request);
      return send(response, status, answer, cors);
    } catch (error) {
      if (!(error instanceof Problem)) throw error;
      return send(response, error.status, problemBody(error), cors);
    }
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error) => {
      response.writeHead(500, { 'content-type': 'application/problem+json' });
      response.end(JSON.stringify(problemBody(new Problem(500, 'INTERNAL_ERROR', String(error)))));
    });
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address();
  return {
    url: `http://127.0.0.1:${address.port}`,
    port: address.port,
    state,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(resolve);
    }),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const mock = await startMockServer({ port: Number(process.argv[2] ?? 0) });
  process.stdout.write(`mock clickwrap server on ${mock.url} (demo: ${mock.url}/demo, app ${MOCK_APP_ID})\n`);
}
