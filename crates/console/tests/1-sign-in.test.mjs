// Signing in and out: the redirect without a session, the sign-in page, a wrong token, the
// security headers of the pages, the session cookie's attributes, and signing out for good.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import {
  ConsoleHttp, assertNoProblems, checkPage, env, launchBrowser, newPage, open, sessionCookie, signIn, SKIP, url,
} from './helpers.mjs';

describe('signing in and out', { skip: SKIP }, () => {
  let browser;
  before(async () => {
    env();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
  });

  test('without a session every console page redirects (303) to the sign-in page', async () => {
    for (const path of ['/console', '/console/apps', '/console/events', '/console/tokens']) {
      const response = await fetch(url(path), { redirect: 'manual' });
      assert.equal(response.status, 303, path);
      assert.equal(new URL(response.headers.get('location'), url('/')).pathname, '/console/login', path);
    }
    // A session cookie the server does not know is no session either.
    const forged = await fetch(url('/console'), { redirect: 'manual', headers: { cookie: 'clickwrap_console=cs_forged' } });
    assert.equal(forged.status, 303);
  });

  test('the sign-in page: a wrong token is refused with 401 and a message, the right one opens the overview', async () => {
    const problems = [];
    const page = await newPage(browser);
    try {
      await open(page, '/console/login');
      assert.equal(await page.title(), 'Sign in · Clickwrap console');
      await page.getByLabel('Operator token').waitFor();
      assert.equal(await page.getAttribute('#token', 'type'), 'password');
      await checkPage(page, 'login', problems);

      await page.fill('#token', 'ot_not-a-token-of-this-server');
      const [refused] = await Promise.all([
        page.waitForResponse((r) => r.url() === url('/console/login') && r.request().method() === 'POST'),
        page.getByRole('button', { name: 'Sign in' }).click(),
      ]);
      assert.equal(refused.status(), 401);
      await page.getByRole('alert').waitFor();
      assert.match(await page.getByRole('alert').textContent(), /not valid/);
      await checkPage(page, 'login-wrong-token', problems);

      await page.fill('#token', env().operatorToken);
      await Promise.all([
        page.waitForURL((u) => u.pathname === '/console'),
        page.getByRole('button', { name: 'Sign in' }).click(),
      ]);
      assert.equal(await page.locator('h1').textContent(), 'Overview');
      await page.getByRole('heading', { name: 'Usage this period', exact: true }).waitFor();
      await page.getByRole('heading', { name: 'Failing webhooks', exact: true }).waitFor();
      await checkPage(page, 'overview', problems);

      // Signed in already: the sign-in page sends back to the console.
      await open(page, '/console/login');
      assert.equal(new URL(page.url()).pathname, '/console');

      const [cookie] = await page.context().cookies(url('/console'));
      assert.equal(cookie?.name, 'clickwrap_console');
      assert.equal(cookie.httpOnly, true);
      assert.equal(cookie.sameSite, 'Strict');
      assert.equal(cookie.path, '/console');
      assert.equal(await page.evaluate(() => document.cookie.includes('clickwrap_console=')), false, 'not readable by scripts');
    } finally {
      await page.context().close();
    }
    assertNoProblems(problems);
  });

  test('the session cookie is HttpOnly, SameSite=Strict, Path=/console', async () => {
    const response = await fetch(url('/console/login'), {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: env().operatorToken }).toString(),
    });
    assert.equal(response.status, 303);
    assert.equal(response.headers.get('location'), '/console');
    const attributes = sessionCookie(response).split(';').slice(1).map((a) => a.trim().toLowerCase());
    assert.ok(attributes.includes('httponly'), attributes.join('; '));
    assert.ok(attributes.includes('samesite=strict'), attributes.join('; '));
    assert.ok(attributes.includes('path=/console'), attributes.join('; '));
  });

  test('console pages send the security headers', async () => {
    const http = await ConsoleHttp.signIn();
    const anonymous = await fetch(url('/console/login'));
    const answers = [['/console/login', anonymous]];
    for (const path of ['/console', '/console/apps', '/console/templates', '/console/events', '/console/audit', '/console/tokens', '/console/no-such-page']) {
      answers.push([path, await http.get(path)]);
    }
    for (const [path, response] of answers) {
      const csp = response.headers.get('content-security-policy') ?? '';
      assert.ok(csp, `${path}: no Content-Security-Policy`);
      assert.ok(!csp.includes("'unsafe-inline'"), `${path}: ${csp}`);
      assert.ok(!csp.includes("'unsafe-eval'"), `${path}: ${csp}`);
      assert.match(csp, /frame-ancestors 'none'/, path);
      assert.match(csp, /script-src 'self'(;|$)/, path);
      assert.equal(response.headers.get('x-frame-options'), 'DENY', path);
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff', path);
      assert.equal(response.headers.get('cache-control'), 'no-store', path);
      assert.match(response.headers.get('content-type'), /^text\/html/, path);
    }
    assert.equal(answers.at(-1)[1].status, 404);
  });

  test('signing out ends the session: the old cookie no longer works', async () => {
    const problems = [];
    const page = await newPage(browser);
    try {
      await signIn(page);
      const [cookie] = await page.context().cookies(url('/console'));
      const before = await fetch(url('/console'), { redirect: 'manual', headers: { cookie: `${cookie.name}=${cookie.value}` } });
      assert.equal(before.status, 200);

      await Promise.all([
        page.waitForURL((u) => u.pathname === '/console/login'),
        page.getByRole('button', { name: 'Sign out' }).click(),
      ]);
      assert.deepEqual(await page.context().cookies(url('/console')), [], 'the browser forgot the cookie');

      // The server forgot the session too: the old cookie, sent again, is no session.
      const afterwards = await fetch(url('/console'), { redirect: 'manual', headers: { cookie: `${cookie.name}=${cookie.value}` } });
      assert.equal(afterwards.status, 303);
      assert.equal(afterwards.headers.get('location'), '/console/login');
      await page.context().addCookies([cookie]);
      await open(page, '/console/apps');
      assert.equal(new URL(page.url()).pathname, '/console/login');
    } finally {
      await page.context().close();
    }
    assertNoProblems(problems);
  });
});
