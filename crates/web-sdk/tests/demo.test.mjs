// The demo page (demo.html, served at /demo): a new end user accepts, the page verifies through
// POST /demo/verify and shows the recorded event and its certificate link.
//
// With the mock the page is served by the mock with its placeholders filled. Against a real server
// set CLICKWRAP_DEMO_URL (for example http://127.0.0.1:8080/demo of `clickwrap-server demo`).

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { REAL, acceptButton, agree, closeButton, dialog, openPage, screenshot, setUp } from './helpers.mjs';

const DEMO_URL = process.env.CLICKWRAP_DEMO_URL ?? null;
const SKIP = REAL && !DEMO_URL ? 'set CLICKWRAP_DEMO_URL to run the demo page against a real server' : false;

let env;
before(async () => {
  env = await setUp();
});
after(async () => {
  await env?.tearDown();
});

test('the demo page: accept, verify, see the event and the certificate link', { skip: SKIP }, async () => {
  const page = await openPage(env, { url: DEMO_URL ?? `${env.origin}/demo` });
  try {
    const endUser = await page.inputValue('#end-user');
    assert.match(endUser, /^demo-[0-9a-f-]{36}$/, 'a fresh random end user');
    const ids = await page.evaluate(() => [document.body.dataset.appId, document.body.dataset.templateId]);
    for (const id of ids) assert.match(id, /^[0-9a-f-]{36}$/, 'the server filled the placeholders');

    await page.click('#show');
    await dialog(page).waitFor();
    await screenshot(page, 'demo-dialog');
    assert.equal(await acceptButton(page).isDisabled(), true, 'the agreement is long enough that Accept waits for the end');
    await agree(page);
    await acceptButton(page).click();
    await page.locator('#status', { hasText: 'Recorded and verified: ACCEPTED.' }).waitFor();
    const event = JSON.parse(await page.textContent('#event'));
    assert.equal(event.clickwrapEventStatus, 'ACCEPTED');
    assert.equal(event.endUserId, endUser);
    assert.equal(event.clickwrapTemplateId, ids[1]);
    assert.equal(event.certificateUrl, undefined, 'the link is shown as a link, not in the JSON');
    const href = await page.getAttribute('#certificate', 'href');
    assert.ok(href.includes(event.clickwrapEventId), href);
    const certificate = await page.request.get(new URL(href, page.url()).href);
    assert.equal(certificate.status(), 200);
    assert.match(certificate.headers()['content-type'], /application\/pdf/);
    await screenshot(page, 'demo-verified');

    // The same end user again: no dialog, the page says so.
    await page.click('#show');
    await page.locator('#status', { hasText: 'already accepted' }).waitFor();
    assert.equal(await page.locator('clickwrap-dialog').count(), 0);

    // What they accepted, read-only.
    await page.click('#show-accepted');
    await dialog(page).waitFor();
    await page.keyboard.press('Escape');
    await page.locator('#status', { hasText: 'as accepted' }).waitFor();

    // A new end user sees the dialog again.
    await page.click('#new-user');
    assert.notEqual(await page.inputValue('#end-user'), endUser);
    await page.click('#show');
    await dialog(page).waitFor();
  } finally {
    await page.closeAll();
  }
});

test('the demo agreement is whole in every launch language and needs scrolling on a laptop screen', { skip: DEMO_URL ? false : 'needs the real demo (CLICKWRAP_DEMO_URL)' }, async () => {
  const page = await openPage(env, { url: DEMO_URL, viewport: { width: 1280, height: 800 } });
  try {
    let shape = null;
    for (const language of ['en', 'de', 'fr', 'es', 'zh', 'hi', 'ru']) {
      await page.selectOption('#language', language);
      await page.click('#show');
      await dialog(page).waitFor();
      assert.equal(await dialog(page).getAttribute('lang'), language);
      const found = await page.evaluate(() => {
        const content = document.querySelector('clickwrap-dialog').shadowRoot.querySelector('.content');
        const count = (selector) => content.querySelectorAll(selector).length;
        return {
          shape: [count('h1'), count('h2'), count('p'), count('li'), count('a[href^="mailto:"]')],
          overflow: content.scrollHeight - content.clientHeight,
          name: content.textContent.includes('Ada Lovelace'),
        };
      });
      shape ??= found.shape;
      assert.deepEqual(found.shape, shape, `${language} has the same parts as English`);
      assert.equal(found.shape[1], 10, 'ten sections');
      assert.ok(found.name, `${language}: {{fullName}} is filled`);
      assert.ok(found.overflow > 100, `${language}: the text overflows its box by ${found.overflow} px`);
      assert.equal(await acceptButton(page).isDisabled(), true, `${language}: Accept waits for the end`);
      await screenshot(page, `demo-dialog-${language}`);
      await closeButton(page).click();
      await page.locator('clickwrap-dialog').waitFor({ state: 'detached' });
    }
  } finally {
    await page.closeAll();
  }
});
