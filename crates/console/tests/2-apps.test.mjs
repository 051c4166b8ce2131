// Apps: create one with a webhook URL (its App ID, App Key and webhook signing secret shown once,
// with copy buttons), its settings page with the SSRF guard's verdict, and regenerating the App Key
// (the old key fails on the public API at once, the new one works).

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import {
  ConsoleHttp, FAILING_WEBHOOK_URL, assertNoProblems, checkPage, createApp, env, expectSuccess, launchBrowser, newPage,
  open, publicApi, signIn, SKIP, submit, unique,
} from './helpers.mjs';

describe('apps', { skip: SKIP }, () => {
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

  test('create an app with a webhook URL: credentials shown once with copy buttons; its page shows the webhook verdict', async () => {
    const problems = [];
    const page = await newPage(browser, { permissions: ['clipboard-read', 'clipboard-write'] });
    const name = unique('Console test shop');
    try {
      await signIn(page);
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Apps' }).click();
      await page.getByRole('heading', { level: 1, name: 'Apps', exact: true }).waitFor();
      await checkPage(page, 'apps-list', problems);

      const form = page.locator('form[action="/console/apps"]');
      await form.getByLabel('Name').fill(name);
      await form.getByLabel('Webhook URL').fill(FAILING_WEBHOOK_URL);
      await form.getByRole('button', { name: 'Create app' }).click();
      await page.getByRole('heading', { level: 1, name: `App created: ${name}`, exact: true }).waitFor();
      assert.match(await page.locator('main').textContent(), /shown only once/);

      const appId = await page.inputValue('#app-id');
      const appKey = await page.inputValue('#app-key');
      const secret = await page.inputValue('#webhook-secret');
      assert.match(appId, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      assert.match(appKey, /^ak_[0-9a-f]{32,}$/);
      assert.match(secret, /^whsec_\S{16,}$/);
      for (const label of ['App ID', 'App Key', 'Webhook signing secret']) {
        await page.getByRole('button', { name: `Copy ${label}` }).waitFor();
      }
      await checkPage(page, 'app-created', problems);

      // Copy: the key lands on the clipboard and the copy is announced.
      await page.getByRole('button', { name: 'Copy App Key' }).click();
      await page.locator('#console-announcer', { hasText: 'Copied' }).waitFor();
      const clipboard = await page.evaluate(() => navigator.clipboard.readText().catch((e) => `unreadable: ${e.message}`));
      assert.equal(clipboard, appKey);
      await page.getByRole('button', { name: 'Copy Webhook signing secret' }).click();
      await page.waitForFunction((expected) => navigator.clipboard.readText().then((t) => t === expected), secret);

      // The new key works on the public API.
      assert.equal((await publicApi('/clickwrap-events', { appId, appKey })).status, 200);

      await page.getByRole('link', { name: "Continue to the app's settings" }).click();
      await page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
      const verdict = page.locator('.verdict');
      await verdict.waitFor();
      // The server allows loopback webhooks in these tests (CLICKWRAP_WEBHOOK_ALLOW_CIDRS).
      assert.match(await verdict.textContent(), /OK\s+Accepted:/);
      assert.match(await page.locator('main').textContent(), new RegExp(FAILING_WEBHOOK_URL.replace(/[.]/g, '\\.')));
      assert.equal(await page.inputValue('#app-webhook-url'), FAILING_WEBHOOK_URL);
      assert.equal(await page.isChecked('#app-webhook-enabled'), true);
      assert.equal(await page.locator('#app-key').count(), 0, 'the App Key is not shown again');
      assert.ok(!(await page.content()).includes(appKey), 'the App Key is nowhere on the app page');
      await checkPage(page, 'app-detail', problems);

      await page.getByRole('link', { name: 'Webhook deliveries' }).click();
      await page.getByRole('heading', { level: 1, name: 'Webhook deliveries', exact: true }).waitFor();
      await page.getByText('No webhook deliveries yet').waitFor();
      await checkPage(page, 'app-webhooks-empty', problems);

      // Listed, with its webhook URL.
      await open(page, '/console/apps');
      const row = page.locator('tbody tr', { has: page.getByRole('link', { name }) });
      assert.match(await row.textContent(), new RegExp(appId));
    } finally {
      await page.context().close();
    }
    assertNoProblems(problems);
  });

  test('edit the settings: a private webhook URL is refused with a message, a valid change is saved', async () => {
    const problems = [];
    const app = await createApp(http, { webhookUrl: FAILING_WEBHOOK_URL });
    const page = await newPage(browser);
    try {
      await signIn(page);
      await open(page, `/console/apps/${app.id}`);
      const settings = page.locator(`form[action="/console/apps/${app.id}"]`);
      await settings.getByLabel('Webhook URL').fill('https://10.1.2.3/hook');
      await submit(page, settings.getByRole('button', { name: 'Save settings' }));
      assert.match(await page.locator('main .flash-error').textContent(), /Webhook URL/);
      await checkPage(page, 'app-detail-invalid-webhook', problems);

      const renamed = `${app.name} (renamed)`;
      await settings.getByLabel('Name').fill(renamed);
      await settings.getByLabel('Allowed origins').fill('https://shop.example.com');
      await submit(page, settings.getByRole('button', { name: 'Save settings' }));
      await expectSuccess(page, 'The app was saved.');
      await page.getByRole('heading', { level: 1, name: renamed, exact: true }).waitFor();
      assert.match(await page.locator('dl.facts').first().textContent(), /https:\/\/shop\.example\.com/);
    } finally {
      await page.context().close();
    }
    assertNoProblems(problems);
  });

  test('regenerate the App Key (confirmed): the new key is shown once, the old one fails at once', async () => {
    const problems = [];
    const app = await createApp(http, { webhookUrl: FAILING_WEBHOOK_URL });
    const events = (appKey) => publicApi('/clickwrap-events', { appId: app.id, appKey });
    assert.equal((await events(app.key)).status, 200);

    // Without the confirmation box the server changes nothing.
    const unconfirmed = await http.post(`/console/apps/${app.id}/app-key`, {});
    assert.equal(unconfirmed.status, 303);
    assert.equal((await events(app.key)).status, 200, 'the key still works');

    const page = await newPage(browser);
    try {
      await signIn(page);
      await open(page, `/console/apps/${app.id}`);
      const form = page.locator(`form[action="/console/apps/${app.id}/app-key"]`);
      await form.getByLabel('I understand that the current App Key stops working now.').check();
      await form.getByRole('button', { name: 'Regenerate App Key' }).click();
      await page.getByRole('heading', { level: 1, name: 'New App Key', exact: true }).waitFor();
      const newKey = await page.inputValue('#new-secret');
      assert.match(newKey, /^ak_/);
      assert.notEqual(newKey, app.key);
      await page.getByRole('button', { name: 'Copy App Key' }).waitFor();
      await checkPage(page, 'app-key-regenerated', problems);

      const old = await events(app.key);
      assert.equal(old.status, 401, 'the old key fails at once');
      assert.equal((await old.json()).code, 'UNAUTHORIZED');
      assert.equal((await events(newKey)).status, 200, 'the new key works');

      // Shown once: the app's page does not show it again.
      await page.getByRole('link', { name: 'Back to the app' }).click();
      await page.getByRole('heading', { level: 1, name: app.name, exact: true }).waitFor();
      assert.ok(!(await page.content()).includes(newKey));
    } finally {
      await page.context().close();
    }
    assertNoProblems(problems);
  });
});
