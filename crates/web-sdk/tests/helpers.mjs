// Shared set-up of the browser tests: the mock server (or a real server), headless Chromium, and
// small helpers to drive the SDK inside a page.
//
// Environment:
//   CHROMIUM_PATH          the Chromium binary (default: /usr/bin/chromium, Debian's package)
//   CLICKWRAP_BASE_URL     run against a real server instead of the mock (origin, or origin plus
//                          /public-client/v1); needs CLICKWRAP_APP_ID and CLICKWRAP_TEMPLATE_ID of
//                          an enabled template with an Effective version, available to that app, and
//                          an app without allowedOrigins (the test page is served from 127.0.0.1)
//   CLICKWRAP_APP_KEY      optional, with a real server: lets the tests verify Signatures
//   SDK_SCREENSHOT_DIR     where screenshots go (default: <repository>/target/sdk-screenshots)

import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

import { MOCK_APP_ID, MOCK_APP_KEY, TEMPLATE_IDS, startMockServer } from './mock-server.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
export const SCREENSHOT_DIR = process.env.SDK_SCREENSHOT_DIR ?? resolve(HERE, '../../../target/sdk-screenshots');
const API_PATH = '/public-client/v1';

export const REAL = Boolean(process.env.CLICKWRAP_BASE_URL);
/** For node:test's `skip` option: checks that need the mock's templates or its control API. */
export const MOCK_ONLY = REAL ? 'needs the mock server (CLICKWRAP_BASE_URL is set)' : false;

/**
 * Starts what the tests need: the mock server (always: it also serves the SDK and the test pages)
 * and Chromium. Returns the environment the tests use.
 */
export async function setUp() {
  const mock = await startMockServer();
  let api;
  let appId;
  let appKey;
  let templateId;
  if (REAL) {
    for (const name of ['CLICKWRAP_APP_ID', 'CLICKWRAP_TEMPLATE_ID']) {
      if (!process.env[name]) throw new Error(`${name} is required with CLICKWRAP_BASE_URL`);
    }
    api = process.env.CLICKWRAP_BASE_URL.replace(/\/+$/, '');
    if (!api.endsWith(API_PATH)) api += API_PATH;
    appId = process.env.CLICKWRAP_APP_ID;
    appKey = process.env.CLICKWRAP_APP_KEY ?? null;
    templateId = process.env.CLICKWRAP_TEMPLATE_ID;
  } else {
    // Another origin than the page's (localhost vs 127.0.0.1), so every call goes through CORS.
    api = `http://localhost:${mock.port}${API_PATH}`;
    appId = MOCK_APP_ID;
    appKey = MOCK_APP_KEY;
    templateId = TEMPLATE_IDS.scroll;
  }
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run',
    ],
    // launch() gives every browser a fresh temporary profile (user data dir) and deletes it on close.
    timeout: 60_000,
  });
  return {
    mock,
    browser,
    api,
    appId,
    appKey,
    templateId,
    origin: mock.url,
    pageUrl: `${mock.url}/test/page.html`,
    async tearDown() {
      await browser.close();
      await mock.close();
    },
  };
}

/** A fresh browser context (its own storage) and page on the test page, with its console kept. */
export async function openPage(env, { locale = 'en-US', url = env.pageUrl, viewport = { width: 1000, height: 720 } } = {}) {
  const context = await env.browser.newContext({ locale, viewport });
  // The logo of a customization: served locally, nothing leaves the machine.
  await context.route('https://cdn.example.test/**', (route) => route.fulfill({ status: 200, contentType: 'image/png', body: PNG }));
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const messages = [];
  page.on('console', (message) => messages.push({ type: message.type(), text: message.text() }));
  page.on('pageerror', (error) => messages.push({ type: 'pageerror', text: String(error) }));
  await page.goto(url);
  page.messages = messages;
  page.closeAll = () => context.close();
  return page;
}

/** A 1×1 green PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

export function newEndUser() {
  return `test-${crypto.randomUUID()}`;
}

/** Calls ClickwrapClient.initialize in the page. */
export function initialize(page, env, options = {}) {
  return page.evaluate(([appId, baseUrl, opts]) => window.ClickwrapClient.initialize(appId, { baseUrl, ...opts }), [env.appId, env.api, options]);
}

/**
 * Starts ClickwrapClient.show in the page without waiting for it; `outcome(page)` gets
 * {result} or {error: {code, message}} once it settles.
 */
export async function startShow(page, request, options) {
  await page.evaluate(([req, opts]) => {
    window.__outcome = window.ClickwrapClient.show(req, opts).then(
      (result) => ({ result }),
      (error) => ({ error: { code: error.code, message: error.message, status: error.status ?? null } }),
    );
  }, [request, options ?? {}]);
}

export function outcome(page) {
  return page.evaluate(() => window.__outcome);
}

export const dialog = (page) => page.locator('clickwrap-dialog [role="dialog"]');
export const acceptButton = (page) => page.locator('clickwrap-dialog button.accept');
export const declineButton = (page) => page.locator('clickwrap-dialog button.decline');
export const closeButton = (page) => page.locator('clickwrap-dialog button.close');
export const consentCheckbox = (page) => page.locator('clickwrap-dialog input[type="checkbox"]');

/** Scrolls the dialog's agreement text to its end. */
export function scrollToEnd(page) {
  return page.evaluate(() => {
    const content = document.querySelector('clickwrap-dialog').shadowRoot.querySelector('.content');
    content.scrollTop = content.scrollHeight;
  });
}

/** Whatever the template's agreement mode, makes Accept clickable (scroll or tick). */
export async function agree(page) {
  if (await consentCheckbox(page).count()) await consentCheckbox(page).check();
  else await scrollToEnd(page);
}

/** POST /clickwrap/verify as an operator's backend does it, with the App Key. */
export async function verify(env, signature) {
  const response = await fetch(`${env.api}/clickwrap/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-app-id': env.appId, 'x-app-key': env.appKey },
    body: JSON.stringify({ serviceSignature: signature }),
  });
  return { status: response.status, body: await response.json() };
}

/** The mock's control API. */
export const mock = {
  async reset(env) {
    await fetch(`${env.mock.url}/__mock/reset`, { method: 'POST' });
  },
  async fail(env, failure) {
    await fetch(`${env.mock.url}/__mock/fail`, { method: 'POST', body: JSON.stringify(failure) });
  },
  async requests(env, filter = {}) {
    const all = await (await fetch(`${env.mock.url}/__mock/requests`)).json();
    return all.filter((r) => (!filter.method || r.method === filter.method) && (!filter.path || r.path.endsWith(filter.path)));
  },
};

export async function screenshot(page, name) {
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`) });
}
