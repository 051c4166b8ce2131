// Operator tokens, roles, CSRF and the audit log: a VIEWER token (shown once) reads every page but
// is shown no change form and refused every change, even one POSTed with its own CSRF token;
// revoking it ends its session at once. A change without the session's CSRF token is refused and
// changes nothing. The audit log names the token that made each change.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import {
  ConsoleHttp, assertNoProblems, checkPage, env, expectSuccess, inputValue, launchBrowser, newPage, open,
  signIn, SKIP, submit, unique, url,
} from './helpers.mjs';

/** The actions of the page's POST forms. */
const postActions = (page) => page.locator('form[method="post" i]').evaluateAll((forms) => forms.map((f) => f.getAttribute('action')));

describe('operator tokens, roles, CSRF and the audit log', { skip: SKIP }, () => {
  let browser;
  let http;
  before(async () => {
    env();
    browser = await launchBrowser();
    http = await ConsoleHttp.signIn();
  });
  after(async () => {
    await browser?.close();
  });

  test('a VIEWER token: shown once; it reads every page without change forms, is refused changes, and revoking it ends its session', async () => {
    const problems = [];
    const { appId, templateId } = env();
    const name = unique('Console test viewer');
    const admin = await newPage(browser);
    const viewer = await newPage(browser);
    try {
      await signIn(admin);
      await admin.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Operator tokens' }).click();
      await admin.getByRole('heading', { level: 1, name: 'Operator tokens', exact: true }).waitFor();
      await checkPage(admin, 'tokens', problems);

      const create = admin.locator('form[action="/console/tokens"]');
      await create.getByLabel('Name').fill(name);
      assert.equal(await create.getByLabel('VIEWER: read only').isChecked(), true, 'VIEWER is the default');
      await create.getByRole('button', { name: 'Create token' }).click();
      await admin.getByRole('heading', { level: 2, name: `New token: ${name}`, exact: true }).waitFor();
      const secret = await admin.inputValue('#new-token-secret');
      assert.match(secret, /^ot_\S{32,}$/);
      await admin.getByRole('button', { name: 'Copy Operator token' }).waitFor();
      const row = admin.locator('tbody tr', { has: admin.locator('th', { hasText: name }) });
      assert.match(await row.textContent(), /VIEWER.*never/s);
      await checkPage(admin, 'token-created', problems);
      // Shown once.
      await open(admin, '/console/tokens');
      assert.ok(!(await admin.content()).includes(secret));

      // The VIEWER's session.
      await signIn(viewer, secret);
      await viewer.getByText('Viewer · read-only').waitFor();
      assert.match(await viewer.locator('.session-operator').textContent(), new RegExp(name));
      const pages = [
        ['viewer-overview', '/console'],
        ['viewer-apps', '/console/apps'],
        ['viewer-app-detail', `/console/apps/${appId}`],
        ['viewer-app-webhooks', `/console/apps/${appId}/webhooks`],
        ['viewer-templates', '/console/templates'],
        ['viewer-template-detail', `/console/templates/${templateId}`],
        ['viewer-draft', `/console/templates/${templateId}/draft?language=en`],
        ['viewer-customizations', `/console/templates/${templateId}/customizations`],
        ['viewer-events', '/console/events'],
        ['viewer-audit', '/console/audit'],
        ['viewer-tokens', '/console/tokens'],
      ];
      for (const [pageName, path] of pages) {
        await open(viewer, path);
        assert.deepEqual(await postActions(viewer), ['/console/logout'], `${path}: only the sign-out form`);
        await checkPage(viewer, pageName, problems);
      }
      assert.equal(await viewer.getByRole('button', { name: /^Revoke/ }).count(), 0, 'no revoke buttons');
      assert.match(await viewer.locator('main').textContent(), /can be changed with an ADMIN operator token/);
      // A published version and an event, when there are any.
      await open(viewer, `/console/templates/${templateId}`);
      const version = viewer.getByRole('link', { name: /^View version/ }).first();
      if (await version.count()) {
        await version.click();
        await viewer.getByRole('heading', { level: 1, name: /^Version / }).waitFor();
        assert.deepEqual(await postActions(viewer), ['/console/logout']);
        await checkPage(viewer, 'viewer-version', problems);
      }
      await open(viewer, '/console/events');
      const event = viewer.locator('tbody tr th a').first();
      if (await event.count()) {
        await event.click();
        await viewer.getByRole('heading', { level: 1, name: 'Clickwrap event', exact: true }).waitFor();
        assert.deepEqual(await postActions(viewer), ['/console/logout']);
        await checkPage(viewer, 'viewer-event-detail', problems);
      }

      // A change sent anyway, from the VIEWER's page with its own CSRF token: 403, nothing changes.
      const appName = unique('Viewer app');
      const refused = await viewer.evaluate(async ([appName, tokenName]) => {
        const csrf = document.querySelector('meta[name="csrf-token"]').getAttribute('content');
        const form = (fields) => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
        const app = await fetch('/console/apps', form({ csrf_token: csrf, name: appName }));
        const token = await fetch('/console/tokens', { ...form({ name: tokenName, role: 'ADMIN' }), headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-csrf-token': csrf } });
        return [app.status, token.status];
      }, [appName, `${name} escalated`]);
      assert.deepEqual(refused, [403, 403]);
      assert.ok(!(await http.html('/console/apps')).includes(appName), 'no app was created');
      assert.ok(!(await http.html('/console/tokens')).includes(`${name} escalated`), 'no token was created');

      // Revoked from the ADMIN session (confirmed): the VIEWER's next page is the sign-in page.
      await open(admin, '/console/tokens');
      await row.getByLabel('I understand this token stops working at once.').check();
      await submit(admin, row.getByRole('button', { name: `Revoke ${name}` }));
      await expectSuccess(admin, 'The token was revoked; its sessions have ended.');
      assert.equal(await row.count(), 0, 'no longer listed');
      await open(viewer, '/console/apps');
      assert.equal(new URL(viewer.url()).pathname, '/console/login');
      const again = await fetch(url('/console/login'), {
        method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: secret }).toString(),
      });
      assert.equal(again.status, 401, 'the revoked token cannot sign in');
    } finally {
      await admin.context().close();
      await viewer.context().close();
    }
    assertNoProblems(problems);
  });

  test('CSRF: a change without the session\'s CSRF token is refused (403) and changes nothing', async () => {
    const problems = [];
    const other = await ConsoleHttp.signIn();
    for (const [what, csrf] of [['no token', false], ['a made-up token', 'forged'], ["another session's token", await other.csrf()]]) {
      const name = unique('CSRF app');
      const response = await http.post('/console/apps', { name }, { csrf });
      assert.equal(response.status, 403, what);
      assert.ok(!(await http.html('/console/apps')).includes(name), `${what}: no app was created`);
    }
    const token = await http.get('/console/tokens');
    assert.equal(token.status, 200);

    // In a browser: a form posted without the field lands on the error page.
    const page = await newPage(browser);
    const name = unique('CSRF token');
    try {
      await signIn(page);
      const [response] = await Promise.all([
        page.waitForResponse((r) => r.url() === url('/console/tokens') && r.request().method() === 'POST'),
        page.evaluate((tokenName) => {
          const form = document.createElement('form');
          form.method = 'post';
          form.action = '/console/tokens';
          for (const [field, value] of [['name', tokenName], ['role', 'ADMIN']]) {
            const input = document.createElement('input');
            input.type = 'hidden';
            input.name = field;
            input.value = value;
            form.append(input);
          }
          document.body.append(form);
          form.submit();
        }, name),
      ]);
      assert.equal(response.status(), 403);
      await page.getByRole('alert').waitFor();
      assert.match(await page.getByRole('alert').textContent(), /form has expired or did not come from this console/);
      await checkPage(page, 'error-403-csrf', problems);
      assert.ok(!(await http.html('/console/tokens')).includes(name), 'no token was created');
    } finally {
      await page.context().close();
    }
    assertNoProblems(problems);
  });

  test('the audit log lists each change with the name of the token that made it', async () => {
    const problems = [];
    const tokenName = unique('Console test admin');
    const created = await http.post('/console/tokens', { name: tokenName, role: 'ADMIN' });
    assert.equal(created.status, 200);
    const secret = inputValue(await created.text(), 'new-token-secret');
    assert.match(secret, /^ot_/);
    const demoOperator = /<span class="session-label">Signed in as <\/span>([^<]+)</.exec(await http.html('/console'))?.[1];
    assert.ok(demoOperator, 'the demo token has a name');

    const page = await newPage(browser);
    try {
      await signIn(page, secret);
      assert.match(await page.locator('.session-operator').textContent(), new RegExp(tokenName));
      // Two changes as this token: an app created, its webhook signing secret rotated.
      const appName = unique('Audited app');
      await open(page, '/console/apps');
      await page.locator('form[action="/console/apps"]').getByLabel('Name').fill(appName);
      await page.getByRole('button', { name: 'Create app' }).click();
      await page.getByRole('heading', { level: 1, name: `App created: ${appName}`, exact: true }).waitFor();
      const appId = await page.inputValue('#app-id');
      await page.getByRole('link', { name: "Continue to the app's settings" }).click();
      const rotate = page.locator(`form[action="/console/apps/${appId}/webhook-signing-secret"]`);
      await rotate.getByLabel('I understand that receivers need the new secret.').check();
      await rotate.getByRole('button', { name: 'Rotate signing secret' }).click();
      await page.getByRole('heading', { level: 1, name: 'New webhook signing secret', exact: true }).waitFor();
      assert.match(await page.inputValue('#new-secret'), /^whsec_/);
      await checkPage(page, 'webhook-secret-rotated', problems);

      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Audit log' }).click();
      await page.getByRole('heading', { level: 1, name: 'Audit log', exact: true }).waitFor();
      const rows = page.locator('tbody tr');
      const entries = await rows.evaluateAll((trs) => trs.map((tr) => Array.from(tr.cells, (cell) => cell.textContent.trim())));
      const ofApp = entries.filter(([, , , subject]) => subject.includes(appId));
      assert.deepEqual(ofApp.map(([, , action]) => action), ['app.webhookSigningSecretRotated', 'app.created'], 'newest first');
      for (const [, who] of ofApp) assert.ok(who.startsWith(tokenName), `made by ${tokenName}: ${who}`);
      const tokenCreated = entries.find(([, , action, , details]) => action === 'operatorToken.created' && details.includes(tokenName));
      assert.ok(tokenCreated, `the token's creation is logged: ${JSON.stringify(entries.slice(0, 5))}`);
      assert.ok(tokenCreated[1].startsWith(demoOperator), `created by ${demoOperator}: ${tokenCreated[1]}`);
      await page.locator('tbody tr', { hasText: 'app.created' }).getByRole('link', { name: appId }).first().waitFor();
      await checkPage(page, 'audit', problems);
    } finally {
      await page.context().close();
    }
    assertNoProblems(problems);
  });
});
