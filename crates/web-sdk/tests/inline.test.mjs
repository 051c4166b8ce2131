// Inline mode: consent checkboxes embedded in the page's own form, finalized together.

import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';

import { MOCK_ONLY, REAL, dialog, initialize, mock, newEndUser, openPage, screenshot, setUp, verify } from './helpers.mjs';
import { TEMPLATE_IDS } from './mock-server.mjs';

let env;
before(async () => {
  env = await setUp();
});
after(async () => {
  await env?.tearDown();
});
beforeEach(async () => {
  if (!REAL) await mock.reset(env);
});

const NEEDS_KEY = REAL && !process.env.CLICKWRAP_APP_KEY ? 'needs CLICKWRAP_APP_KEY to verify' : false;

/** Renders one inline clickwrap per request into #inline-a, #inline-b…; returns the callback log. */
function renderAll(page, requests) {
  return page.evaluate(async (list) => {
    window.__log = [];
    window.__handles = list.map((request, i) => window.ClickwrapDom.renderInline(`#inline-${'ab'[i]}`, {
      ...request,
      onLoading: () => window.__log.push(`loading ${i}`),
      onReady: (state) => window.__log.push(`ready ${i} ${state.isAlreadyAccepted}`),
      onError: (error) => window.__log.push(`error ${i} ${error.code}`),
    }));
    await Promise.allSettled(window.__handles.map((h) => h.ready));
    return window.__log;
  }, requests);
}

function finalizeAll(page) {
  return page.evaluate(() => window.ClickwrapDom.finalizeAll().then((results) => ({ results }), (error) => ({ error: error.code })));
}

test('two inline clickwraps: callbacks, style, reading the text, finalizeAll records each', async () => {
  const page = await openPage(env);
  const users = [newEndUser(), newEndUser()];
  const templates = REAL ? [env.templateId, env.templateId] : [TEMPLATE_IDS.scroll, TEMPLATE_IDS.checkbox];
  try {
    await initialize(page, env);
    const log = await renderAll(page, [
      { clickwrapTemplateId: templates[0], endUserId: users[0], style: { fontSize: '13px', '--cw-primary': '#aa3300' } },
      { clickwrapTemplateId: templates[1], endUserId: users[1], templatePlaceholders: { email: 'x@y.test' } },
    ]);
    assert.deepEqual(log.slice().sort(), ['loading 0', 'loading 1', 'ready 0 false', 'ready 1 false']);

    const inline = page.locator('#inline-a clickwrap-inline');
    const label = inline.locator('label');
    if (!REAL) {
      assert.equal(collapse(await label.textContent()), 'I have read and agree to the terms: Terms of Service');
      assert.equal(collapse(await page.locator('#inline-b clickwrap-inline label').textContent()), 'I have read the privacy policy: Privacy Policy');
    }
    const styles = await page.evaluate(() => {
      const root = document.querySelector('#inline-a clickwrap-inline').shadowRoot;
      return { fontSize: getComputedStyle(root.querySelector('.inline')).fontSize, accent: getComputedStyle(root.querySelector('input')).accentColor };
    });
    assert.equal(styles.fontSize, '13px', 'the style option');
    assert.equal(styles.accent, 'rgb(170, 51, 0)', 'a custom property of the style option');
    await screenshot(page, 'inline-unchecked');

    // The agreement's name opens its full text, read-only; the checkbox is untouched by that.
    await inline.locator('button.link').click();
    await dialog(page).waitFor();
    assert.equal(await page.locator('clickwrap-dialog button.accept').count(), 0);
    await page.keyboard.press('Escape');
    await page.locator('clickwrap-dialog').waitFor({ state: 'detached' });
    assert.equal(await inline.locator('input').isChecked(), false);

    await inline.locator('input').check();
    assert.equal(await page.evaluate(() => window.__handles.map((h) => h.checked).join()), 'true,false');
    await screenshot(page, 'inline-checked');

    const { results, error } = await finalizeAll(page);
    assert.equal(error, undefined);
    assert.equal(results.length, 2);
    assert.deepEqual(results.map((r) => r.action), ['ACCEPTED', 'DECLINED']);
    for (const result of results) {
      assert.equal(typeof result.serviceSignature, 'string');
      assert.equal(result.isAlreadyAccepted, false);
    }
    assert.equal(await inline.locator('input').isDisabled(), true, 'a finalized checkbox is locked');

    if (!REAL) {
      const posts = await mock.requests(env, { method: 'POST', path: '/clickwrap' });
      assert.equal(posts.length, 2);
      const accepted = posts.find((p) => p.body.action === 'ACCEPTED').body;
      assert.deepEqual(accepted.presentation, {
        mode: 'INLINE', agreementMode: 'CHECKBOX',
        acceptLabel: 'I have read and agree to the terms: Terms of Service',
        checkboxLabel: 'I have read and agree to the terms: Terms of Service',
        scrollRequired: false,
      });
      assert.equal(accepted.endUserId, users[0]);
      const declined = posts.find((p) => p.body.action === 'DECLINED').body;
      assert.deepEqual(declined.templatePlaceholders, { email: 'x%40y.test' });
      // Finalizing again records nothing twice.
      const again = await finalizeAll(page);
      assert.deepEqual(again.results.map((r) => r.serviceSignature), results.map((r) => r.serviceSignature));
      assert.equal((await mock.requests(env, { method: 'POST', path: '/clickwrap' })).length, 2);
    }
    if (!NEEDS_KEY) {
      assert.equal((await verify(env, results[0].serviceSignature)).body.clickwrapEventStatus, 'ACCEPTED');
      assert.equal((await verify(env, results[1].serviceSignature)).body.clickwrapEventStatus, 'DECLINED');
    }
  } finally {
    await page.closeAll();
  }
});

test('an end user who already accepted gets no checkbox and a null Signature', { skip: NEEDS_KEY }, async () => {
  const page = await openPage(env);
  const endUserId = newEndUser();
  try {
    await initialize(page, env);
    await renderAll(page, [{ clickwrapTemplateId: env.templateId, endUserId }]);
    await page.locator('#inline-a clickwrap-inline input').check();
    const { results } = await finalizeAll(page);
    await verify(env, results[0].serviceSignature);

    await page.reload();
    await initialize(page, env);
    const log = await renderAll(page, [{ clickwrapTemplateId: env.templateId, endUserId }]);
    assert.deepEqual(log, ['loading 0', 'ready 0 true']);
    assert.equal(await page.locator('#inline-a clickwrap-inline input').count(), 0);
    const second = await finalizeAll(page);
    assert.equal(second.results[0].serviceSignature, null);
    assert.equal(second.results[0].isAlreadyAccepted, true);
  } finally {
    await page.closeAll();
  }
});

test('a failing inline clickwrap calls onError and makes finalizeAll reject', async () => {
  const page = await openPage(env);
  try {
    await initialize(page, env);
    const log = await renderAll(page, [{ clickwrapTemplateId: crypto.randomUUID(), endUserId: newEndUser() }]);
    assert.deepEqual(log, ['loading 0', 'error 0 ERR_SERVICE_TEMPLATE_NOT_FOUND']);
    assert.deepEqual(await finalizeAll(page), { error: 'ERR_SERVICE_TEMPLATE_NOT_FOUND' });
    // Removing it lets the rest of the form go on.
    await page.evaluate(() => window.__handles[0].destroy());
    assert.deepEqual(await finalizeAll(page), { results: [] });
  } finally {
    await page.closeAll();
  }
});

test('a load retried after a 503 still renders', { skip: MOCK_ONLY }, async () => {
  await mock.fail(env, { method: 'GET', path: '/public-client/v1/clickwrap', status: 503, times: 1 });
  const page = await openPage(env);
  try {
    await initialize(page, env);
    const log = await renderAll(page, [{ clickwrapTemplateId: TEMPLATE_IDS.short, endUserId: newEndUser() }]);
    assert.deepEqual(log, ['loading 0', 'ready 0 false']);
  } finally {
    await page.closeAll();
  }
});

function collapse(text) {
  return text.replace(/\s+/g, ' ').trim();
}
