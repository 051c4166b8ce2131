// Evidence and webhooks: an end user accepts through the real SDK (on the demo page, same origin),
// the Signature is verified from Node as an integrator's backend does; then the console shows the
// event (list with filter, details with the content in a sandboxed frame and its hash, certificate
// and agreement PDFs, NDJSON and CSV export, the end user's status); the event's webhook to a
// dead loopback port goes FAILED, the overview lists it, and Redeliver queues it again.

import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';

import {
  ConsoleHttp, FAILING_WEBHOOK_URL, acceptThroughSdk, assertNoProblems, checkPage, createApp, createTemplate, env,
  expectSuccess, launchBrowser, newPage, once, open, publicApi, signIn, SKIP, submit, unique, url,
} from './helpers.mjs';

/** The `<dd>` of the fact `term` in the page's fact lists. */
const factValue = (scope, term) => scope.locator('dl.facts > div', { has: scope.page().locator('dt', { hasText: new RegExp(`^${term}$`) }) }).locator('dd');

/** RFC 4180 records (quoted fields may hold commas, quotes and line breaks). */
function parseCsv(text) {
  const records = [];
  let record = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c === '"') {
      quoted = true;
    } else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i += 1;
      record.push(field);
      records.push(record);
      record = [];
      field = '';
    } else {
      field += c;
    }
  }
  if (field || record.length) records.push([...record, field]);
  return records;
}

describe('evidence and webhooks', { skip: SKIP }, () => {
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

  /** An app with a failing webhook, a template for it only, and an end user's verified acceptance. */
  const acceptedEvent = once(async () => {
    const app = await createApp(http, { name: unique('Evidence app'), webhookUrl: FAILING_WEBHOOK_URL });
    const template = await createTemplate(http, {
      name: unique('Evidence terms'),
      content: { en: '<h1>Evidence terms</h1>\n<p>Dear {{fullName}}, please accept.</p>' },
      appIds: [app.id],
    });
    const endUserId = `console-test-${randomUUID()}`;
    const page = await newPage(browser);
    try {
      const result = await acceptThroughSdk(page, {
        appId: app.id, templateId: template.id, endUserId, placeholders: { fullName: 'Ada Lovelace' },
      });
      assert.equal(result.action, 'ACCEPTED');
      assert.equal(typeof result.serviceSignature, 'string');
      // Verified from the backend, with the App Key.
      const response = await publicApi('/clickwrap/verify', {
        appId: app.id, appKey: app.key, method: 'POST', body: { serviceSignature: result.serviceSignature },
      });
      const verified = await response.json();
      assert.equal(response.status, 200, JSON.stringify(verified));
      assert.equal(verified.clickwrapEventStatus, 'ACCEPTED');
      assert.equal(verified.endUserId, endUserId);
      assert.equal(verified.clickwrapTemplateId, template.id);
      return { app, template, endUserId, eventId: verified.clickwrapEventId };
    } finally {
      await page.context().close();
    }
  });

  test('a consent through the SDK, verified; the events list, the event, its PDFs, the exports and the status', async () => {
    const problems = [];
    const { app, template, endUserId, eventId } = await acceptedEvent();
    const details = await (await publicApi(`/clickwrap-events/${eventId}/details`, { appId: app.id, appKey: app.key })).json();
    const page = await newPage(browser);
    try {
      await signIn(page);
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Events' }).click();
      await page.getByRole('heading', { level: 1, name: 'Events', exact: true }).waitFor();
      await page.getByLabel('End user ID').first().fill(endUserId);
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.waitForURL((u) => u.searchParams.get('endUserId') === endUserId);
      const rows = page.locator('table tbody tr');
      assert.equal(await rows.count(), 1, 'the filter leaves only this end user\'s event');
      const row = await rows.first().textContent();
      for (const text of [eventId, endUserId, template.name, '1.0', 'ACCEPTED']) assert.ok(row.includes(text), `${text} in ${row}`);
      await checkPage(page, 'events-list', problems);

      // The exports of the filtered list.
      const ndjsonHref = await page.getByRole('link', { name: 'NDJSON' }).getAttribute('href');
      const csvHref = await page.getByRole('link', { name: 'CSV' }).getAttribute('href');
      assert.ok(ndjsonHref.includes(`endUserId=${encodeURIComponent(endUserId)}`), ndjsonHref);
      const ndjson = await page.context().request.get(url(ndjsonHref));
      assert.equal(ndjson.status(), 200);
      assert.match(ndjson.headers()['content-type'], /ndjson/);
      const exported = (await ndjson.text()).split('\n').filter(Boolean).map((line) => JSON.parse(line));
      assert.equal(exported.length, 1);
      assert.equal(exported[0].clickwrapEventId, eventId);
      assert.equal(exported[0].clickwrapEventStatus, 'ACCEPTED');
      assert.equal(exported[0].endUserId, endUserId);
      const csv = await page.context().request.get(url(csvHref));
      assert.equal(csv.status(), 200);
      assert.match(csv.headers()['content-type'], /text\/csv/);
      const [header, ...records] = parseCsv(await csv.text());
      assert.equal(records.length, 1, 'the header and the event');
      const record = Object.fromEntries(header.map((name, i) => [name, records[0][i]]));
      assert.equal(record.clickwrapEventId, eventId);
      assert.equal(record.clickwrapEventStatus, 'ACCEPTED');
      assert.equal(record.endUserId, endUserId);
      assert.match(record.content, /Dear Ada Lovelace/);

      // Another end user: nothing.
      await open(page, `/console/events?endUserId=${encodeURIComponent(`${endUserId}-other`)}`);
      await page.getByText('No verified events match.').waitFor();

      // The event.
      await page.goBack();
      await page.getByRole('link', { name: eventId }).click();
      await page.getByRole('heading', { level: 1, name: 'Clickwrap event', exact: true }).waitFor();
      const main = page.locator('main');
      assert.equal((await factValue(main, 'Event ID').textContent()).trim(), eventId);
      assert.equal((await factValue(main, 'End user ID').textContent()).trim(), endUserId);
      assert.match(await factValue(main, 'Status').textContent(), /ACCEPTED/);
      assert.equal((await factValue(main, 'Content hash').textContent()).trim(), details.contentHash, 'the hash the API reports');
      assert.match(await factValue(main, 'Certificate SHA-256').textContent(), /^\s*[0-9a-f]{64}\s*$/);
      assert.equal(await page.getAttribute('#event-content', 'sandbox'), '', 'the content is shown in a sandbox');
      const shown = page.frameLocator('#event-content');
      await shown.getByRole('heading', { name: 'Evidence terms', exact: true }).waitFor();
      assert.match(await shown.locator('p').textContent(), /Dear Ada Lovelace, please accept\./);
      await checkPage(page, 'event-detail', problems);

      for (const [link, file] of [['Certificate of Acceptance (PDF)', `certificate-${eventId}.pdf`], ['Agreement as shown', `agreement-${eventId}.pdf`]]) {
        const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: link }).click()]);
        assert.equal(download.suggestedFilename(), file);
        const bytes = await readFile(await download.path());
        assert.equal(bytes.subarray(0, 5).toString('latin1'), '%PDF-', `${link} is a PDF`);
      }

      // The end user's consent status.
      await open(page, '/console/events');
      await page.locator('#status-end-user').fill(endUserId);
      await page.getByRole('button', { name: 'Look up' }).click();
      await page.getByRole('heading', { level: 1, name: 'Consent status', exact: true }).waitFor();
      assert.equal(new URL(page.url()).pathname, '/console/status');
      const statusRow = page.locator('tbody tr', { has: page.getByRole('link', { name: template.name, exact: true }) });
      assert.match(await statusRow.textContent(), /ACCEPTED/);
      assert.match(await statusRow.textContent(), /1\.0/);
      await statusRow.getByRole('link', { name: /^View/ }).waitFor();
      await checkPage(page, 'consent-status', problems);
    } finally {
      await page.context().close();
    }
    assertNoProblems(problems);
  });

  test('the webhook of the event goes FAILED, the overview lists it, Redeliver queues it again', async () => {
    const problems = [];
    const { app, eventId } = await acceptedEvent();
    const page = await newPage(browser);
    try {
      await signIn(page);
      const delivery = page.locator('article.delivery', { has: page.getByRole('link', { name: eventId }) });
      const stateOf = async () => (await delivery.locator('h2 .badge').textContent()).trim();
      const attemptsOf = async () => Number((await factValue(delivery, 'Attempts').textContent()).trim());

      // First attempt, then one retry a second later (CLICKWRAP_WEBHOOK_RETRY_DELAYS=1): FAILED.
      const deadline = Date.now() + 20_000;
      await open(page, `/console/apps/${app.id}/webhooks`);
      while ((await delivery.count()) === 0 || (await stateOf()) !== 'FAILED') {
        assert.ok(Date.now() < deadline, `the delivery did not go FAILED within 20 s (${(await delivery.count()) ? await stateOf() : 'not listed'})`);
        await page.waitForTimeout(500);
        await page.reload();
      }
      const deliveryId = (await factValue(delivery, 'Delivery').textContent()).trim();
      const attempts = await attemptsOf();
      assert.ok(attempts >= 2, `${attempts} attempts`);
      await delivery.locator('summary').click();
      const attemptList = delivery.locator('li.attempt');
      assert.equal(await attemptList.count(), attempts);
      const attemptTexts = await attemptList.allTextContents();
      for (let n = 1; n <= attempts; n += 1) assert.ok(attemptTexts.some((t) => t.includes(`Attempt ${n}`)), `attempt ${n} listed`);
      await checkPage(page, 'app-webhooks', problems);

      // The overview's failing webhooks.
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Overview' }).click();
      const failing = page.locator('section[aria-labelledby="failing-heading"] li', { hasText: eventId });
      await failing.waitFor();
      await failing.getByRole('link', { name: app.name }).waitFor();
      assert.match(await failing.textContent(), /FAILING/);
      assert.match(await failing.textContent(), new RegExp(`${attempts} attempts`));
      await checkPage(page, 'overview-failing-webhook', problems);

      // The event's page says so too.
      await open(page, `/console/events/${eventId}`);
      assert.match(await page.locator('section[aria-labelledby="webhook-heading"]').textContent(), /FAILED/);

      // Redeliver: a success notice, and the delivery is pending or attempted again.
      await open(page, `/console/apps/${app.id}/webhooks`);
      await submit(page, delivery.getByRole('button', { name: `Redeliver delivery ${deliveryId}` }));
      await expectSuccess(page, 'The delivery was queued to be sent again now.');
      assert.equal(new URL(page.url()).pathname, `/console/apps/${app.id}/webhooks`);
      const again = Date.now() + 10_000;
      while ((await stateOf()) !== 'PENDING' && (await attemptsOf()) <= attempts) {
        assert.ok(Date.now() < again, `after Redeliver: ${await stateOf()} with ${await attemptsOf()} attempts`);
        await page.waitForTimeout(300);
        await page.reload();
      }
      await checkPage(page, 'app-webhooks-redelivered', problems);
    } finally {
      await page.context().close();
    }
    assertNoProblems(problems);
  });
});
