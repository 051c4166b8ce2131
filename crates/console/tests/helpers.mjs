// Shared set-up of the operator console's browser tests: the server under test (from the
// environment), headless Chromium, signing in (in a browser and over plain HTTP), small fixtures
// made through the console's own forms, and the checks every page visited gets: axe-core, a
// full-page screenshot at desktop and at phone width, no sideways scrolling on a phone, and no
// script error or Content-Security-Policy report.
//
// Environment (`cargo xtask ci` starts `clickwrap-server demo` on a fresh database and sets them):
//   CLICKWRAP_BASE_URL         the server's origin, like http://127.0.0.1:8080; without it every
//                              test is skipped
//   CLICKWRAP_OPERATOR_TOKEN   an ADMIN operator token of the demo tenant
//   CLICKWRAP_APP_ID, CLICKWRAP_APP_KEY, CLICKWRAP_TEMPLATE_ID   the demo app and its template
//   CLICKWRAP_DEMO_URL         the demo page (same origin as the console; it loads the SDK)
//   CHROMIUM_PATH              the Chromium binary (default: /usr/bin/chromium, Debian's package)
//   CONSOLE_SCREENSHOT_DIR     where screenshots go (default: <repository>/target/console-screenshots)
//
// The server must accept webhooks to loopback and retry quickly (CLICKWRAP_WEBHOOK_ALLOW_CIDRS=
// 127.0.0.0/8, CLICKWRAP_WEBHOOK_RETRY_DELAYS=1): the tests watch a delivery to
// https://127.0.0.1:9/hook fail.

import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const HERE = dirname(fileURLToPath(import.meta.url));
export const SCREENSHOT_DIR = process.env.CONSOLE_SCREENSHOT_DIR || resolve(HERE, '../../../target/console-screenshots');

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/** The webhook URL the tests give their apps: accepted (loopback is allowed), nothing listens. */
export const FAILING_WEBHOOK_URL = 'https://127.0.0.1:9/hook';

const BASE = (process.env.CLICKWRAP_BASE_URL ?? '').trim().replace(/\/+$/, '').replace(/\/public-client\/v1$/, '');

/** For node:test's `skip` option. */
export const SKIP = BASE
  ? false
  : 'CLICKWRAP_BASE_URL is not set: the console tests need a running clickwrap-server (cargo xtask ci starts one)';

/** The server under test; `env()` checks that everything needed is there. */
export function env() {
  const missing = ['CLICKWRAP_OPERATOR_TOKEN', 'CLICKWRAP_APP_ID', 'CLICKWRAP_TEMPLATE_ID'].filter((name) => !process.env[name]);
  if (missing.length) throw new Error(`${missing.join(', ')} must be set with CLICKWRAP_BASE_URL`);
  return {
    base: BASE,
    operatorToken: process.env.CLICKWRAP_OPERATOR_TOKEN,
    appId: process.env.CLICKWRAP_APP_ID,
    appKey: process.env.CLICKWRAP_APP_KEY ?? null,
    templateId: process.env.CLICKWRAP_TEMPLATE_ID,
    demoUrl: process.env.CLICKWRAP_DEMO_URL || `${BASE}/demo`,
  };
}

/** `path` on the server under test. */
export function url(path) {
  return new URL(path, `${BASE}/`).href;
}

/** A name no other test (or earlier run on the same database) uses. */
export function unique(prefix) {
  return `${prefix} ${randomUUID().slice(0, 8)}`;
}

/** `fn`'s result, computed on the first call only (a fixture several tests may share). */
export function once(fn) {
  let value = null;
  return () => (value ??= fn());
}

// ---- browser ---------------------------------------------------------------------------------------

export function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run',
    ],
    // launch() gives every browser a fresh temporary profile and deletes it on close.
    timeout: 60_000,
  });
}

/**
 * A page in a fresh browser context (its own cookies) at desktop size. `page.scriptErrors` collects
 * uncaught errors and Content-Security-Policy reports until `checkPage` looks at them.
 */
export async function newPage(browser, { permissions = [] } = {}) {
  const context = await browser.newContext({ viewport: DESKTOP, locale: 'en-US', timezoneId: 'UTC', acceptDownloads: true });
  if (permissions.length) await context.grantPermissions(permissions, { origin: BASE });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  page.scriptErrors = [];
  page.on('pageerror', (error) => page.scriptErrors.push(`uncaught: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text())) {
      page.scriptErrors.push(`CSP: ${message.text()}`);
    }
  });
  return page;
}

/** Goes to `path` and checks the status of the answer (after redirects). */
export async function open(page, path, { status = 200 } = {}) {
  const response = await page.goto(url(path));
  assert.ok(response, `no response for ${path}`);
  assert.equal(response.status(), status, `GET ${path} answered ${response.status()} (${page.url()})`);
  return response;
}

/** Signs in through the sign-in form; the page ends on the overview. */
export async function signIn(page, token = env().operatorToken) {
  await open(page, '/console/login');
  await page.fill('#token', token);
  await Promise.all([
    page.waitForURL((u) => u.pathname === '/console'),
    page.getByRole('button', { name: 'Sign in' }).click(),
  ]);
}

/** The page's one-time notice (flash), or null. */
export async function flash(page) {
  const notice = page.locator('main .flash-success, main .flash-error').first();
  return (await notice.count()) ? (await notice.textContent()).trim() : null;
}

/**
 * Clicks `locator` (a submit button or a link) and waits until the page it leads to has loaded:
 * the page before may show the same heading or notice, so waiting for those is not enough.
 */
export async function submit(page, locator) {
  const navigated = page.waitForEvent('framenavigated', { predicate: (frame) => frame === page.mainFrame() });
  await locator.click();
  await navigated;
  await page.waitForLoadState('load');
}

/** Waits for a success notice containing `text` (and fails with the error notice if there is one). */
export async function expectSuccess(page, text) {
  await page.locator('main .flash-success, main .flash-error').first().waitFor();
  const error = page.locator('main .flash-error');
  if (await error.count()) assert.fail(`expected "${text}" but the console said: ${(await error.textContent()).trim()}`);
  assert.match(await flash(page), new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
}

// ---- the console over plain HTTP ------------------------------------------------------------------------

/**
 * A console session driven with fetch (no browser): for fixtures and for what a browser hides
 * (status codes of redirects, raw headers, requests a page would never send).
 */
export class ConsoleHttp {
  constructor(cookie) {
    this.cookie = cookie;
    this.csrfToken = null;
  }

  /** Signs in with `token` (POST /console/login); fails unless the server answers 303. */
  static async signIn(token = env().operatorToken) {
    const response = await fetch(url('/console/login'), {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token }).toString(),
    });
    assert.equal(response.status, 303, 'signing in over HTTP');
    const cookie = sessionCookie(response);
    assert.ok(cookie, 'the sign-in sets the session cookie');
    return new ConsoleHttp(cookie.split(';')[0]);
  }

  request(method, path, { body = null, headers = {} } = {}) {
    return fetch(url(path), {
      method,
      redirect: 'manual',
      headers: { cookie: this.cookie, ...(body === null ? {} : { 'content-type': 'application/x-www-form-urlencoded' }), ...headers },
      body,
    });
  }

  get(path) {
    return this.request('GET', path);
  }

  /** GET `path`, expecting 200; its HTML. */
  async html(path) {
    const response = await this.get(path);
    assert.equal(response.status, 200, `GET ${path}`);
    return response.text();
  }

  /** The session's CSRF token (read once from a page's meta tag). */
  async csrf() {
    if (!this.csrfToken) {
      this.csrfToken = metaCsrf(await this.html('/console'));
      assert.ok(this.csrfToken, 'the console page carries its CSRF token');
    }
    return this.csrfToken;
  }

  /** POSTs a form (with the session's CSRF token unless `csrf` is false or a string to send instead). */
  async post(path, fields = {}, { csrf = true } = {}) {
    const body = new URLSearchParams();
    if (csrf === true) body.append('csrf_token', await this.csrf());
    else if (typeof csrf === 'string') body.append('csrf_token', csrf);
    for (const [name, value] of Object.entries(fields)) {
      for (const one of Array.isArray(value) ? value : [value]) body.append(name, one);
    }
    return this.request('POST', path, { body: body.toString() });
  }

  /** POSTs a form that answers with a redirect and a success notice; the redirect's target. */
  async change(path, fields = {}) {
    const response = await this.post(path, fields);
    assert.equal(response.status, 303, `POST ${path}: ${response.status} ${await response.text()}`);
    const notice = noticeOf(response);
    assert.ok(notice?.startsWith('ok:'), `POST ${path}: the console said ${notice}`);
    return response.headers.get('location');
  }
}

/** The `clickwrap_console` cookie a response sets, as sent (with its attributes). */
export function sessionCookie(response) {
  return response.headers.getSetCookie().find((c) => c.startsWith('clickwrap_console='));
}

/** The one-time notice a redirect leaves (`ok:…` or `error:…`), decoded. */
function noticeOf(response) {
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith('clickwrap_console_notice='));
  return cookie ? decodeURIComponent(cookie.split(';')[0].split('=').slice(1).join('=')) : null;
}

function metaCsrf(html) {
  return /<meta name="csrf-token" content="([^"]+)"/.exec(html)?.[1] ?? null;
}

/** The value of the read-only input `#id` (a copy field) in `html`. */
export function inputValue(html, id) {
  const tag = new RegExp(`<input[^>]*\\bid="${id}"[^>]*>`).exec(html)?.[0];
  return tag ? decodeEntities(/\bvalue="([^"]*)"/.exec(tag)?.[1] ?? '') : null;
}

function decodeEntities(text) {
  return text.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
}

// ---- fixtures through the console's forms ---------------------------------------------------------------

/** Creates an app; its id, App Key and webhook signing secret (shown once). */
export async function createApp(http, { name = unique('Test app'), webhookUrl = '' } = {}) {
  const response = await http.post('/console/apps', { name, webhook_url: webhookUrl, allowed_origins: '' });
  const html = await response.text();
  assert.equal(response.status, 200, `creating the app ${name}: ${response.status} ${response.headers.get('location') ?? ''}`);
  const app = { name, id: inputValue(html, 'app-id'), key: inputValue(html, 'app-key'), webhookSecret: inputValue(html, 'webhook-secret') };
  assert.match(app.id, /^[0-9a-f-]{36}$/);
  assert.match(app.key, /^ak_/);
  return app;
}

/**
 * Creates a template with `content` ({language code: HTML}) as its draft; unless `publish` is
 * false, publishes it as 1.0 and enables it. `appIds` links it to those apps (none: every app).
 */
export async function createTemplate(http, { name = unique('Test terms'), content, appIds = [], publish = true } = {}) {
  const location = await http.change('/console/templates', { name, tags: 'console-test', default_language: 'en' });
  const id = /\/console\/templates\/([0-9a-f-]{36})\//.exec(location)?.[1];
  assert.ok(id, `the new template's editor: ${location}`);
  for (const [language, html] of Object.entries(content ?? { en: '<h1>Terms</h1><p>Short terms for the console tests.</p>' })) {
    await http.change(`/console/templates/${id}/draft`, { language, content: html });
  }
  if (appIds.length) await http.change(`/console/templates/${id}/apps`, { app_ids: appIds });
  if (publish) {
    await http.change(`/console/templates/${id}/versions`, { kind: 'MAJOR', effective_at: '' });
    await http.change(`/console/templates/${id}/enable`);
  }
  return { id, name };
}

// ---- the public API, as an integrator's backend calls it ------------------------------------------------

/** A call of the public API with an app's credentials. */
export function publicApi(path, { appId, appKey, method = 'GET', body } = {}) {
  return fetch(url(`/public-client/v1${path}`), {
    method,
    headers: {
      'x-app-id': appId,
      'x-app-key': appKey,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/**
 * An end user accepts `templateId` through the real SDK in `page` (a same-origin page that loads
 * /sdk/v1/clickwrap.js: the demo page), for the app `appId`. Resolves with the SDK's result.
 */
export async function acceptThroughSdk(page, { appId, templateId, endUserId, placeholders = {} }) {
  await page.goto(env().demoUrl);
  await page.waitForFunction(() => typeof window.ClickwrapClient === 'object');
  await page.evaluate(([id, request]) => {
    window.ClickwrapClient.initialize(id, { baseUrl: window.location.origin });
    window.__outcome = window.ClickwrapClient.show(request).then(
      (result) => ({ result }),
      (error) => ({ error: { code: error.code, message: error.message } }),
    ).then((outcome) => {
      window.__settled = outcome;
      return outcome;
    });
  }, [appId, { clickwrapTemplateId: templateId, endUserId, templatePlaceholders: placeholders }]);
  await page.waitForFunction(() => window.__settled || document.querySelector('clickwrap-dialog'));
  const early = await page.evaluate(() => window.__settled ?? null);
  if (early) assert.fail(`the SDK did not show the dialog: ${JSON.stringify(early)}`);
  const checkbox = page.locator('clickwrap-dialog input[type="checkbox"]');
  if (await checkbox.count()) {
    await checkbox.check();
  } else {
    await page.evaluate(() => {
      const content = document.querySelector('clickwrap-dialog').shadowRoot.querySelector('.content');
      content.scrollTop = content.scrollHeight;
    });
  }
  await page.locator('clickwrap-dialog button.accept').click();
  const outcome = await page.evaluate(() => window.__outcome);
  assert.ok(outcome.result, `the SDK's show() failed: ${JSON.stringify(outcome.error)}`);
  return outcome.result;
}

// ---- the checks of every page -----------------------------------------------------------------------

const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];
const IMPACTS = ['critical', 'serious', 'moderate', 'minor'];
let axeSource = null;

/**
 * Runs axe-core on the page (injected with page.evaluate: the console's CSP allows no inline
 * script, and evaluation is not a script the page loads). Prints and fails on any serious or
 * critical violation; returns every violation. Each result is kept for the summary.
 */
export async function checkA11y(page, name) {
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(axeSource);
  const violations = await page.evaluate((tags) => window.axe.run(document, { runOnly: tags }).then((results) =>
    results.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      helpUrl: v.helpUrl,
      nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: n.failureSummary })),
    }))), AXE_TAGS);
  recordAxe(name, page.url(), violations);
  const severe = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  if (severe.length) {
    const text = `axe-core on ${name} (${page.url()}): ${severe.length} serious or critical violation(s)\n${describeViolations(severe)}`;
    console.log(text);
    throw new assert.AssertionError({ message: text });
  }
  return violations;
}

function describeViolations(violations) {
  return violations.map((v) => [
    `  [${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})`,
    ...v.nodes.slice(0, 5).map((n) => `      ${n.target}\n        ${(n.summary ?? '').replace(/\n/g, '\n        ')}`),
    ...(v.nodes.length > 5 ? [`      … and ${v.nodes.length - 5} more`] : []),
  ].join('\n')).join('\n');
}

/**
 * Full-page screenshots at 1280×800 and 390×844 (`<name>-1280x800.png`, `<name>-390x844.png`).
 * Returns what sticks out of the page sideways at phone width (empty when nothing does).
 */
export async function shot(page, name) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const original = page.viewportSize() ?? DESKTOP;
  await page.setViewportSize(DESKTOP);
  await fullPageScreenshot(page, DESKTOP, join(SCREENSHOT_DIR, `${name}-1280x800.png`));
  await page.setViewportSize(PHONE);
  const overflow = await page.evaluate(horizontalOverflow);
  await fullPageScreenshot(page, PHONE, join(SCREENSHOT_DIR, `${name}-390x844.png`));
  await page.setViewportSize(original);
  return overflow;
}

/**
 * The whole page at `size`'s width. The viewport is made as tall as the page for the shot:
 * Chromium does not paint the sandboxed (out-of-process) preview frames that lie outside the
 * viewport, so Playwright's `fullPage` would show them blank.
 */
async function fullPageScreenshot(page, size, path) {
  const height = await page.evaluate(() => Math.max(document.documentElement.scrollHeight, document.body?.scrollHeight ?? 0));
  if (height > size.height) {
    await page.setViewportSize({ width: size.width, height: Math.min(height, 16_000) });
    // Two frames: the resized layout, then the frames painted in it.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  }
  await page.screenshot({ path });
  await page.setViewportSize(size);
}

/**
 * In the page: when the document is wider than the viewport, the elements that make it so (those
 * not clipped by a scrolling box that contains them; an absolutely positioned element is
 * contained by its positioned ancestor, not by its parent).
 */
function horizontalOverflow() {
  const width = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth <= width + 1) return [];
  const describe = (el) => el.tagName.toLowerCase() + (el.id ? `#${el.id}` : '') +
    (typeof el.className === 'string' && el.className.trim() ? `.${el.className.trim().split(/\s+/).join('.')}` : '');
  const path = (el) => {
    const parts = [];
    for (let n = el; n && n !== document.body && parts.length < 5; n = n.parentElement) parts.unshift(describe(n));
    return parts.join(' > ');
  };
  const escapes = (el) => {
    const own = getComputedStyle(el).position;
    if (own === 'fixed') return false;
    let needPositioned = own === 'absolute';
    for (let p = el.parentElement; p && p !== document.body && p !== document.documentElement; p = p.parentElement) {
      const style = getComputedStyle(p);
      const containing = style.position !== 'static' || style.transform !== 'none';
      if (!needPositioned || containing) {
        if (style.overflowX !== 'visible') return false;
        if (needPositioned) needPositioned = style.position === 'absolute';
      }
    }
    return true;
  };
  const found = [`the document is ${document.documentElement.scrollWidth} px wide in a ${width} px viewport`];
  for (const el of document.querySelectorAll('body *')) {
    const box = el.getBoundingClientRect();
    if (box.right > width + 1 && escapes(el)) found.push(`${path(el)} reaches ${Math.round(box.right)} px`);
  }
  return found.slice(0, 9);
}

/**
 * Every check of a page: screenshots at both sizes, no sideways scrolling at phone width, no
 * script error or CSP report, and axe-core. Problems are added to `problems` (so one bad page does
 * not hide the next); end the test with `assertNoProblems(problems)`.
 */
export async function checkPage(page, name, problems) {
  await page.waitForLoadState('load');
  const overflow = await shot(page, name);
  if (overflow.length) {
    const text = `${name} (${page.url()}): scrolls sideways at ${PHONE.width} px: ${overflow.join('; ')}`;
    console.log(text);
    problems.push(text);
  }
  if (page.scriptErrors.length) {
    const text = `${name} (${page.url()}): ${page.scriptErrors.splice(0).join('; ')}`;
    console.log(text);
    problems.push(text);
  }
  try {
    await checkA11y(page, name);
  } catch (error) {
    problems.push(error.message);
  }
}

export function assertNoProblems(problems) {
  assert.ok(problems.length === 0, `${problems.length} page problem(s):\n${problems.join('\n')}`);
}

// ---- the axe-core summary ----------------------------------------------------------------------------

// Each test file runs in its own process; the files of one `node --test` run share its process id
// as their parent's, so their results go to one directory per run, which 9-axe-summary.test.mjs reads.
const RESULTS_ROOT = join(SCREENSHOT_DIR, 'axe-results');
const RESULTS_DIR = join(RESULTS_ROOT, `run-${process.ppid}`);
const results = [];

function recordAxe(name, pageUrl, violations) {
  const counts = Object.fromEntries(IMPACTS.map((impact) => [impact, 0]));
  for (const v of violations) counts[v.impact ?? 'minor'] += 1;
  results.push({
    page: name,
    url: pageUrl.replace(BASE, ''),
    file: basename(process.argv[1] ?? 'unknown'),
    at: Date.now(),
    counts,
    rules: violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, targets: v.nodes.slice(0, 3).map((n) => n.target) })),
  });
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(join(RESULTS_DIR, `${process.pid}.json`), JSON.stringify(results, null, 1));
}

/** Every page's axe results of this run (all test files), in the order they were checked. */
export function axeResultsOfThisRun() {
  let files = [];
  try {
    files = readdirSync(RESULTS_DIR).filter((f) => f.endsWith('.json'));
  } catch {
    return [];
  }
  return files.flatMap((f) => JSON.parse(readFileSync(join(RESULTS_DIR, f), 'utf8'))).sort((a, b) => a.at - b.at);
}

/** Removes the results of earlier runs. */
export function forgetEarlierRuns() {
  for (const dir of readdirSync(RESULTS_ROOT, { withFileTypes: true })) {
    if (dir.isDirectory() && join(RESULTS_ROOT, dir.name) !== RESULTS_DIR) rmSync(join(RESULTS_ROOT, dir.name), { recursive: true, force: true });
  }
}

/** The per-page summary table: counts of violations by impact and the rules broken. */
export function formatAxeSummary(rows) {
  const nameWidth = Math.max(4, ...rows.map((r) => r.page.length));
  const header = `${'page'.padEnd(nameWidth)}  critical  serious  moderate  minor  rules (impact, nodes)`;
  const lines = rows.map((r) => {
    const rules = r.rules.map((rule) => `${rule.id} (${rule.impact}, ${rule.nodes})`).join(', ') || '-';
    return `${r.page.padEnd(nameWidth)}  ${String(r.counts.critical).padStart(8)}  ${String(r.counts.serious).padStart(7)}  ` +
      `${String(r.counts.moderate).padStart(8)}  ${String(r.counts.minor).padStart(5)}  ${rules}`;
  });
  const total = Object.fromEntries(IMPACTS.map((impact) => [impact, rows.reduce((sum, r) => sum + r.counts[impact], 0)]));
  const totals = `${'TOTAL'.padEnd(nameWidth)}  ${String(total.critical).padStart(8)}  ${String(total.serious).padStart(7)}  ` +
    `${String(total.moderate).padStart(8)}  ${String(total.minor).padStart(5)}  (${rows.length} pages checked)`;
  const where = rows.flatMap((r) => r.rules.map((rule) => `  ${r.page}: ${rule.id} (${rule.impact}) at ${rule.targets.join(' | ')}`));
  return [header, '-'.repeat(header.length), ...lines, '-'.repeat(header.length), totals,
    ...(where.length ? ['', 'where:', ...where] : [])].join('\n');
}
