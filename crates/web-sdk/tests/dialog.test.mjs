// The consent dialog in headless Chromium: showing, scrolling, accepting, declining, closing,
// keyboard use, customizations, languages, retries and errors.

import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';

import {
  MOCK_ONLY, REAL, acceptButton, agree, closeButton, consentCheckbox, declineButton, dialog, initialize, mock,
  newEndUser, openPage, outcome, screenshot, scrollToEnd, setUp, startShow, verify,
} from './helpers.mjs';
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

/** Opens the test page, initializes the SDK and starts show() for a fresh end user. */
async function showFresh(request = {}, options = {}, pageOptions = {}) {
  const page = await openPage(env, pageOptions);
  await initialize(page, env, pageOptions.init ?? {});
  const endUserId = request.endUserId ?? newEndUser();
  await startShow(page, { clickwrapTemplateId: env.templateId, endUserId, ...request }, options);
  return { page, endUserId };
}

describe('showing the dialog', () => {
  test('a new end user sees an accessible dialog with the version and effective date', async () => {
    const { page } = await showFresh({ templatePlaceholders: { fullName: 'Ada Lovelace & Co' } });
    try {
      const box = dialog(page);
      await box.waitFor();
      assert.equal(await box.getAttribute('aria-modal'), 'true');
      const labelledBy = await box.getAttribute('aria-labelledby');
      const title = page.locator(`clickwrap-dialog #${labelledBy}`);
      assert.ok((await title.textContent()).trim().length > 0, 'the dialog is labelled by its title');
      const subtitle = await page.locator('clickwrap-dialog .sub').textContent();
      assert.match(subtitle, /\d+\.\d+/, 'the subtitle shows major.minor');
      if (!REAL) {
        assert.equal(await title.textContent(), 'Please review and accept');
        assert.match(subtitle, /Terms of Service · Version 1\.2 · January 15, 2026/);
        const text = await page.locator('clickwrap-dialog .content').textContent();
        assert.match(text, /Hello Ada Lovelace & Co,/, 'placeholder values arrive decoded exactly once');
        const [get] = await mock.requests(env, { method: 'GET', path: '/clickwrap' });
        assert.equal(get.query.templatePlaceholders, JSON.stringify({ fullName: 'Ada%20Lovelace%20%26%20Co' }));
        assert.equal(get.origin, env.origin, 'a cross-origin call, answered with CORS');
      }
      // Focus moved into the dialog, onto the agreement text.
      assert.equal(await page.evaluate(() => document.activeElement.localName), 'clickwrap-dialog');
      assert.equal(await page.evaluate(() => document.activeElement.shadowRoot.activeElement.className), 'content');
      await screenshot(page, 'dialog-scroll-mode');
    } finally {
      await page.closeAll();
    }
  });

  test('Accept is disabled until the agreement is scrolled to the end', async () => {
    const { page } = await showFresh();
    try {
      await dialog(page).waitFor();
      const overflowing = await page.evaluate(() => {
        const content = document.querySelector('clickwrap-dialog').shadowRoot.querySelector('.content');
        return content.scrollHeight > content.clientHeight + 2;
      });
      if (!REAL) assert.ok(overflowing, 'the mock template is longer than the dialog');
      if (await consentCheckbox(page).count()) return; // a real server's template in checkbox mode
      if (overflowing) {
        assert.equal(await acceptButton(page).isDisabled(), true);
        assert.ok(await page.locator('clickwrap-dialog .hint').isVisible(), 'a hint says why');
        await page.evaluate(() => {
          const content = document.querySelector('clickwrap-dialog').shadowRoot.querySelector('.content');
          content.scrollTop = content.scrollHeight / 2;
        });
        await page.waitForTimeout(150);
        assert.equal(await acceptButton(page).isDisabled(), true, 'half way is not the end');
        await scrollToEnd(page);
      }
      await page.waitForFunction(() => !document.querySelector('clickwrap-dialog').shadowRoot.querySelector('.accept').disabled);
      assert.equal(await page.locator('clickwrap-dialog .hint').isVisible(), false);
    } finally {
      await page.closeAll();
    }
  });

  test('on a phone-sized screen the dialog is a full-width sheet with reachable buttons', async () => {
    const { page } = await showFresh({}, {}, { viewport: { width: 375, height: 667 } });
    try {
      await dialog(page).waitFor();
      const box = await dialog(page).boundingBox();
      assert.equal(Math.round(box.width), 375);
      assert.ok(box.y + box.height <= 667 + 1, 'the dialog fits the screen');
      const accept = await acceptButton(page).boundingBox();
      assert.ok(accept.y + accept.height <= 667 && accept.height >= 36, 'Accept is on screen and tappable');
      await screenshot(page, 'dialog-phone');
    } finally {
      await page.closeAll();
    }
  });

  test('Accept is enabled at once when the agreement fits', { skip: MOCK_ONLY }, async () => {
    const { page } = await showFresh({ clickwrapTemplateId: TEMPLATE_IDS.short });
    try {
      await dialog(page).waitFor();
      await page.waitForFunction(() => !document.querySelector('clickwrap-dialog').shadowRoot.querySelector('.accept').disabled);
    } finally {
      await page.closeAll();
    }
  });
});

describe('the end user acts', () => {
  test('accept returns a Signature that verifies as ACCEPTED; the next load shows nothing', { skip: NEEDS_KEY }, async () => {
    const { page, endUserId } = await showFresh({ templatePlaceholders: { fullName: 'Grace Hopper' } });
    try {
      await dialog(page).waitFor();
      const shownAt = Date.now();
      await agree(page);
      await acceptButton(page).click();
      const { result, error } = await outcome(page);
      assert.equal(error, undefined);
      assert.equal(typeof result.serviceSignature, 'string');
      assert.ok(result.serviceSignature.length > 10);
      assert.equal(result.isAlreadyAccepted, false);
      assert.equal(result.isCanceled, false);
      assert.equal(result.action, 'ACCEPTED');
      assert.equal(await page.locator('clickwrap-dialog').count(), 0, 'the dialog is gone');

      if (!REAL) {
        const [get] = await mock.requests(env, { method: 'GET', path: '/clickwrap' });
        const [post] = await mock.requests(env, { method: 'POST', path: '/clickwrap' });
        const body = post.body;
        assert.deepEqual(Object.keys(body).sort(), ['action', 'appId', 'clickwrapTemplateId', 'clickwrapTemplateVersion',
          'clickwrapTemplateVersionMinor', 'clientMetadata', 'contentHash', 'endUserId', 'language', 'presentation',
          'presentedAt', 'templatePlaceholders'].sort());
        assert.equal(body.appId, env.appId);
        assert.equal(body.endUserId, endUserId);
        assert.equal(body.action, 'ACCEPTED');
        assert.equal(body.clickwrapTemplateVersion, 1);
        assert.equal(body.clickwrapTemplateVersionMinor, 2);
        assert.equal(body.language, 'en');
        assert.deepEqual(body.templatePlaceholders, { fullName: 'Grace%20Hopper' });
        assert.match(body.contentHash, /^sha256:[0-9a-f]{64}$/);
        assert.match(body.presentedAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        assert.ok(Math.abs(Date.parse(body.presentedAt) - shownAt) < 10_000, 'presentedAt is when the dialog appeared');
        assert.ok(Date.parse(body.presentedAt) >= Date.parse(get.at) - 1000);
        assert.deepEqual(body.presentation, {
          mode: 'DIALOG', agreementMode: 'SCROLL', acceptLabel: 'Accept', checkboxLabel: null, scrollRequired: true,
        });
        const meta = body.clientMetadata;
        assert.equal(meta.screen.width > 0 && meta.screen.height > 0, true);
        assert.deepEqual(meta.viewport, { width: 1000, height: 720 });
        assert.equal(typeof meta.timezone, 'string');
        assert.equal(typeof meta.platform, 'string');
        assert.equal(meta.language, 'en-US');
        assert.match(meta.sdk, /^web\/\d+\.\d+\.\d+$/);
      }

      const verified = await verify(env, result.serviceSignature);
      assert.equal(verified.status, 200, JSON.stringify(verified.body));
      assert.equal(verified.body.clickwrapEventStatus, 'ACCEPTED');
      assert.equal(verified.body.endUserId, endUserId);
      assert.equal(verified.body.clickwrapEventId, result.clickwrapEventId);
      const metadata = JSON.parse(verified.body.technicalMetadata);
      assert.ok(metadata.userAgent.includes('Chrome'), 'the user agent is on record');

      // The same end user on a reloaded page: no dialog, a null Signature.
      await page.reload();
      await initialize(page, env);
      await startShow(page, { clickwrapTemplateId: env.templateId, endUserId });
      const again = await outcome(page);
      assert.equal(again.error, undefined);
      assert.equal(again.result.serviceSignature, null);
      assert.equal(again.result.isAlreadyAccepted, true);
      assert.equal(await page.locator('clickwrap-dialog').count(), 0, 'no dialog was shown');
    } finally {
      await page.closeAll();
    }
  });

  test('decline returns a Signature that verifies as DECLINED', async (t) => {
    const { page, endUserId } = await showFresh();
    try {
      await dialog(page).waitFor();
      if (!(await declineButton(page).count())) return t.skip('the template hides Decline');
      assert.equal(await declineButton(page).isDisabled(), false, 'declining needs no scrolling');
      await declineButton(page).click();
      const { result } = await outcome(page);
      assert.equal(result.action, 'DECLINED');
      assert.equal(typeof result.serviceSignature, 'string');
      if (NEEDS_KEY) return;
      const verified = await verify(env, result.serviceSignature);
      assert.equal(verified.body.clickwrapEventStatus, 'DECLINED');
      // Declining is not accepting: the dialog comes again.
      await startShow(page, { clickwrapTemplateId: env.templateId, endUserId });
      await dialog(page).waitFor();
    } finally {
      await page.closeAll();
    }
  });

  test('closing with × or Escape rejects with ERR_SERVICE_USER_CANCELLED and gives focus back', async () => {
    const page = await openPage(env);
    try {
      await initialize(page, env);
      await page.focus('#outside');
      await startShow(page, { clickwrapTemplateId: env.templateId, endUserId: newEndUser() });
      await dialog(page).waitFor();
      await closeButton(page).click();
      const closed = await outcome(page);
      assert.equal(closed.error.code, 'ERR_SERVICE_USER_CANCELLED');
      assert.equal(await page.locator('clickwrap-dialog').count(), 0);
      assert.equal(await page.evaluate(() => document.activeElement.id), 'outside', 'focus returns to the page');

      await startShow(page, { clickwrapTemplateId: env.templateId, endUserId: newEndUser() });
      await dialog(page).waitFor();
      await page.keyboard.press('Escape');
      const escaped = await outcome(page);
      assert.equal(escaped.error.code, 'ERR_SERVICE_USER_CANCELLED');
      if (!REAL) assert.equal((await mock.requests(env, { method: 'POST' })).length, 0, 'closing records nothing');
    } finally {
      await page.closeAll();
    }
  });

  test('disableClose: no close button, Escape does nothing', async () => {
    const { page } = await showFresh({}, { disableClose: true });
    try {
      await dialog(page).waitFor();
      assert.equal(await closeButton(page).count(), 0);
      await page.keyboard.press('Escape');
      await page.waitForTimeout(200);
      assert.equal(await dialog(page).count(), 1, 'still open');
      await agree(page);
      await acceptButton(page).click();
      const { result } = await outcome(page);
      assert.equal(result.action, 'ACCEPTED');
    } finally {
      await page.closeAll();
    }
  });

  test('keyboard only: focus stays trapped in the dialog, End scrolls, Enter accepts', async () => {
    const { page } = await showFresh();
    try {
      await dialog(page).waitFor();
      const focused = () => page.evaluate(() => {
        const active = document.activeElement;
        return active.localName === 'clickwrap-dialog' ? active.shadowRoot.activeElement?.className ?? null : `page:${active.localName}`;
      });
      const seen = new Set();
      for (let i = 0; i < 8; i += 1) {
        await page.keyboard.press('Tab');
        const name = await focused();
        assert.ok(!name.startsWith('page:'), `Tab #${i + 1} left the dialog for ${name}`);
        seen.add(name);
      }
      for (let i = 0; i < 3; i += 1) {
        await page.keyboard.press('Shift+Tab');
        assert.ok(!(await focused()).startsWith('page:'));
      }
      assert.ok(seen.has('content'), 'the agreement text is focusable, so it can be scrolled by keyboard');
      assert.ok(seen.has('close'));
      // Clicking the page behind does not take focus out of the dialog either.
      await page.evaluate(() => document.getElementById('outside').focus());
      assert.ok(!(await focused()).startsWith('page:'), 'focus is pulled back into the dialog');

      if (await consentCheckbox(page).count()) {
        await consentCheckbox(page).focus();
        await page.keyboard.press('Space');
      } else {
        await page.locator('clickwrap-dialog .content').focus();
        await page.keyboard.press('End');
      }
      await page.waitForFunction(() => !document.querySelector('clickwrap-dialog').shadowRoot.querySelector('.accept').disabled);
      await acceptButton(page).focus();
      await page.keyboard.press('Enter');
      const { result } = await outcome(page);
      assert.equal(result.action, 'ACCEPTED');
    } finally {
      await page.closeAll();
    }
  });
});

describe('what the template decides', { skip: MOCK_ONLY }, () => {
  test('checkbox mode: the template wins over the deprecated mode option, which warns', async () => {
    const { page } = await showFresh(
      { clickwrapTemplateId: TEMPLATE_IDS.checkbox, templatePlaceholders: { email: 'a@b.test', customPlaceholders: { ref: 'X/1 ?' } } },
      { mode: 'scroll' },
    );
    try {
      await dialog(page).waitFor();
      assert.equal(await acceptButton(page).textContent(), 'I agree', 'the customization text');
      assert.equal(await acceptButton(page).isDisabled(), true);
      assert.equal(await page.locator('clickwrap-dialog .hint').count(), 0, 'no scroll hint in checkbox mode');
      const label = page.locator('clickwrap-dialog label.check');
      assert.equal((await label.textContent()).trim(), 'I have read the privacy policy');
      assert.ok(page.messages.some((m) => m.type === 'warning' && /`mode` option is deprecated/.test(m.text)), 'a deprecation warning');
      await screenshot(page, 'dialog-checkbox-mode');
      await label.click();
      assert.equal(await acceptButton(page).isDisabled(), false);
      await consentCheckbox(page).uncheck();
      assert.equal(await acceptButton(page).isDisabled(), true);
      await consentCheckbox(page).check();
      await acceptButton(page).click();
      const { result } = await outcome(page);
      assert.equal(result.action, 'ACCEPTED');
      const [post] = await mock.requests(env, { method: 'POST', path: '/clickwrap' });
      assert.deepEqual(post.body.presentation, {
        mode: 'DIALOG', agreementMode: 'CHECKBOX', acceptLabel: 'I agree', checkboxLabel: 'I have read the privacy policy',
        scrollRequired: false,
      });
      assert.deepEqual(post.body.templatePlaceholders, { email: 'a%40b.test', customPlaceholders: { ref: 'X%2F1%20%3F' } });
      const text = await page.evaluate(() => document.body.textContent);
      assert.ok(!text.includes('X/1'), 'nothing of the dialog is left in the page');
    } finally {
      await page.closeAll();
    }
  });

  test('German through the fallback chain: no language asked, the browser prefers German', async () => {
    const { page } = await showFresh({}, {}, { locale: 'de-DE' });
    try {
      await dialog(page).waitFor();
      assert.equal(await page.locator('clickwrap-dialog h2').textContent(), 'Bitte lesen und akzeptieren');
      assert.equal(await acceptButton(page).textContent(), 'Akzeptieren');
      assert.equal(await declineButton(page).textContent(), 'Ablehnen');
      assert.match(await page.locator('clickwrap-dialog .content').textContent(), /Diese Bedingungen regeln/);
      assert.match(await page.locator('clickwrap-dialog .sub').textContent(), /Version 1\.2 · 15\. Januar 2026/);
      assert.equal(await page.locator('clickwrap-dialog .hint').textContent(), 'Scrollen Sie bis zum Ende, um fortzufahren.');
      assert.equal(await dialog(page).getAttribute('lang'), 'de');
      const [get] = await mock.requests(env, { method: 'GET', path: '/clickwrap' });
      assert.equal(get.query.language, 'de-DE');
      await screenshot(page, 'dialog-german');
      await scrollToEnd(page);
      await acceptButton(page).click();
      await outcome(page);
      const [post] = await mock.requests(env, { method: 'POST', path: '/clickwrap' });
      assert.equal(post.body.language, 'de');
      assert.equal(post.body.presentation.acceptLabel, 'Akzeptieren');
    } finally {
      await page.closeAll();
    }
  });

  test('language order: requested, then the initialize locale, then the browser; no English added', async () => {
    const { page } = await showFresh({ language: 'fr-CA' }, {}, { locale: 'de-DE', init: { locale: 'es' } });
    try {
      await dialog(page).waitFor();
      const [get] = await mock.requests(env, { method: 'GET', path: '/clickwrap' });
      assert.equal(get.query.language, 'fr-CA,es,de-DE');
      // The template has en and de only: French and Spanish are skipped, German wins.
      assert.equal(await acceptButton(page).textContent(), 'Akzeptieren');
    } finally {
      await page.closeAll();
    }
  });

  // The template has en, de, fr and es, and French as its default language. Each step of the
  // fallback is seen in what the SDK asks for and in the language the dialog shows.
  for (const [step, request, init, browser, sent, shown] of [
    ['the requested language wins', 'es', 'de', 'fr-FR', 'es,de,fr-FR', 'es'],
    ['then the initialize() locale', 'zh', 'de', 'fr-FR', 'zh,de,fr-FR', 'de'],
    ['then the browser languages', 'zh', 'ru', 'es-ES', 'zh,ru,es-ES', 'es'],
    ['none of them available: no `en` is sent, so the template\'s default language applies', 'zh', 'ru', 'hi-IN', 'zh,ru,hi-IN', 'fr'],
  ]) {
    test(`language fallback: ${step}`, async () => {
      const { page } = await showFresh({ clickwrapTemplateId: TEMPLATE_IDS.languages, language: request }, {}, { locale: browser, init: { locale: init } });
      try {
        await dialog(page).waitFor();
        const [get] = await mock.requests(env, { method: 'GET', path: '/clickwrap' });
        assert.equal(get.query.language, sent);
        assert.ok(!get.query.language.split(',').includes('en'), 'the SDK never adds English itself');
        assert.equal(await dialog(page).getAttribute('lang'), shown);
        await acceptButton(page).click();
        await outcome(page);
        const [post] = await mock.requests(env, { method: 'POST', path: '/clickwrap' });
        assert.equal(post.body.language, shown, 'the action is recorded in the language shown');
      } finally {
        await page.closeAll();
      }
    });
  }

  test('language fallback: no wish at all sends no language parameter', async () => {
    const page = await openPage(env);
    try {
      await initialize(page, env);
      await page.evaluate((templateId) => {
        Object.defineProperty(navigator, 'languages', { value: [] });
        Object.defineProperty(navigator, 'language', { value: undefined });
        window.__outcome = window.ClickwrapClient.show({ clickwrapTemplateId: templateId, endUserId: 'no-language' })
          .then((result) => ({ result }), (error) => ({ error: { code: error.code } }));
      }, TEMPLATE_IDS.languages);
      await dialog(page).waitFor();
      const [get] = await mock.requests(env, { method: 'GET', path: '/clickwrap' });
      assert.equal('language' in get.query, false);
      assert.equal(await dialog(page).getAttribute('lang'), 'fr', 'the template\'s default language');
    } finally {
      await page.closeAll();
    }
  });

  test('customizations are visible: colours, radius, button styles, logo; page styles do not leak in', async () => {
    const { page } = await showFresh();
    try {
      await dialog(page).waitFor();
      await scrollToEnd(page);
      await page.waitForFunction(() => !document.querySelector('clickwrap-dialog').shadowRoot.querySelector('.accept').disabled);
      const styles = await page.evaluate(() => {
        const root = document.querySelector('clickwrap-dialog').shadowRoot;
        const css = (selector) => getComputedStyle(root.querySelector(selector));
        return {
          accept: { background: css('.accept').backgroundColor, color: css('.accept').color, fontSize: css('.accept').fontSize },
          decline: { background: css('.decline').backgroundColor, color: css('.decline').color, border: css('.decline').borderTopColor },
          dialog: { background: css('.dialog').backgroundColor, color: css('.dialog').color, radius: css('.dialog').borderTopLeftRadius },
          subtitle: css('.sub').color,
          logo: root.querySelector('img.logo')?.getAttribute('src') ?? null,
          logoLoaded: root.querySelector('img.logo')?.naturalWidth ?? 0,
        };
      });
      assert.equal(styles.accept.background, 'rgb(10, 125, 56)', 'primaryColor on the filled Accept button');
      assert.equal(styles.accept.color, 'rgb(255, 255, 255)', 'readable text on the primary colour');
      assert.equal(styles.accept.fontSize, '15px', 'the page\'s button styles do not reach the dialog');
      assert.equal(styles.decline.background, 'rgba(0, 0, 0, 0)', 'OUTLINED Decline');
      assert.equal(styles.decline.color, 'rgb(10, 125, 56)');
      assert.equal(styles.decline.border, 'rgb(10, 125, 56)');
      assert.equal(styles.dialog.background, 'rgb(255, 253, 245)');
      assert.equal(styles.dialog.color, 'rgb(27, 27, 27)');
      assert.equal(styles.dialog.radius, '4px');
      assert.notEqual(styles.subtitle, 'rgb(255, 0, 255)', 'the page\'s p { color } does not leak in');
      assert.equal(styles.logo, 'https://cdn.example.test/logo.png');
      assert.equal(styles.logoLoaded, 1);
      await screenshot(page, 'dialog-customized-scrolled');
    } finally {
      await page.closeAll();
    }
  });

  test('hostile content cannot run script in the page', async () => {
    const { page } = await showFresh({ clickwrapTemplateId: TEMPLATE_IDS.hostile });
    try {
      await dialog(page).waitFor();
      await page.waitForTimeout(300); // time for an onerror to fire, if an image were loaded
      const found = await page.evaluate(() => {
        const root = document.querySelector('clickwrap-dialog').shadowRoot;
        const content = root.querySelector('.content');
        return {
          xss: window.__xss ?? null,
          html: content.innerHTML,
          dangerous: content.querySelectorAll('script, img, svg, iframe, [onerror], [onclick], [style]').length,
          links: [...content.querySelectorAll('a')].map((a) => ({ href: a.getAttribute('href'), target: a.target, rel: a.rel })),
          text: content.textContent,
        };
      });
      assert.equal(found.xss, null);
      assert.equal(found.dangerous, 0, found.html);
      assert.deepEqual(found.links, [
        { href: null, target: '_blank', rel: 'noopener noreferrer nofollow' },
        { href: 'https://example.test/terms', target: '_blank', rel: 'noopener noreferrer nofollow' },
      ]);
      assert.match(found.text, /Before/);
      assert.match(found.text, /After/);
      await page.locator('clickwrap-dialog .content a', { hasText: 'a link' }).click();
      await page.locator('clickwrap-dialog .content p', { hasText: 'After' }).click();
      await page.waitForTimeout(200);
      assert.equal(await page.evaluate(() => window.__xss ?? null), null);
      assert.deepEqual(page.messages.filter((m) => m.type === 'pageerror'), []);
    } finally {
      await page.closeAll();
    }
  });
});

describe('presentation.scrollRequired', { skip: MOCK_ONLY }, () => {
  test('false when the agreement fits its box: Accept was never held back', async () => {
    const { page } = await showFresh({ clickwrapTemplateId: TEMPLATE_IDS.short });
    try {
      await dialog(page).waitFor();
      assert.equal(await acceptButton(page).isDisabled(), false);
      await acceptButton(page).click();
      assert.equal((await outcome(page)).result.action, 'ACCEPTED');
      const [post] = await mock.requests(env, { method: 'POST', path: '/clickwrap' });
      assert.equal(post.body.presentation.agreementMode, 'SCROLL');
      assert.equal(post.body.presentation.scrollRequired, false);
    } finally {
      await page.closeAll();
    }
  });

  test('true when the agreement is taller than its box and Accept waited for the end', async () => {
    const { page } = await showFresh();
    try {
      await dialog(page).waitFor();
      assert.equal(await acceptButton(page).isDisabled(), true);
      await scrollToEnd(page);
      await acceptButton(page).click();
      assert.equal((await outcome(page)).result.action, 'ACCEPTED');
      const [post] = await mock.requests(env, { method: 'POST', path: '/clickwrap' });
      assert.equal(post.body.presentation.scrollRequired, true);
    } finally {
      await page.closeAll();
    }
  });

  test('true also for a Decline before the end was reached', async () => {
    const { page } = await showFresh();
    try {
      await dialog(page).waitFor();
      await declineButton(page).click();
      assert.equal((await outcome(page)).result.action, 'DECLINED');
      const [post] = await mock.requests(env, { method: 'POST', path: '/clickwrap' });
      assert.equal(post.body.presentation.scrollRequired, true);
    } finally {
      await page.closeAll();
    }
  });
});

describe('callbacks beside the Promise', () => {
  test('show(): onSuccess gets the result first, then the Promise resolves with it', async () => {
    const page = await openPage(env);
    try {
      await initialize(page, env);
      await page.evaluate((templateId) => {
        window.__calls = [];
        const options = {
          onSuccess: (result) => window.__calls.push(['onSuccess', result]),
          onError: (error) => window.__calls.push(['onError', error.code]),
        };
        window.__outcome = window.ClickwrapClient.show({ clickwrapTemplateId: templateId, endUserId: `cb-${crypto.randomUUID()}` }, options)
          .then((result) => {
            window.__calls.push(['then']);
            return { result };
          });
      }, env.templateId);
      await dialog(page).waitFor();
      await agree(page);
      await acceptButton(page).click();
      const { result } = await outcome(page);
      assert.equal(result.action, 'ACCEPTED');
      assert.deepEqual(await page.evaluate(() => window.__calls), [['onSuccess', result], ['then']]);
    } finally {
      await page.closeAll();
    }
  });

  test('show(): onError gets each failure; with onError, an ignored Promise is no unhandled rejection', async () => {
    const page = await openPage(env);
    try {
      await initialize(page, env);
      await page.evaluate((templateId) => {
        window.__errors = [];
        const onError = (error) => window.__errors.push(error.code);
        // The caller ignores the Promises: callbacks only.
        window.ClickwrapClient.show({ clickwrapTemplateId: crypto.randomUUID(), endUserId: 'u' }, { onError });
        window.ClickwrapClient.show({ clickwrapTemplateId: templateId, endUserId: `cb-${crypto.randomUUID()}` }, { onError });
      }, env.templateId);
      await dialog(page).waitFor();
      await closeButton(page).click();
      await page.waitForFunction(() => window.__errors.length === 2);
      assert.deepEqual(await page.evaluate(() => window.__errors), ['ERR_SERVICE_TEMPLATE_NOT_FOUND', 'ERR_SERVICE_USER_CANCELLED']);
      // The same error reaches a Promise handler too.
      const code = await page.evaluate(() => window.ClickwrapClient.show({ clickwrapTemplateId: crypto.randomUUID(), endUserId: 'u' }, { onError() {} })
        .then(() => 'resolved', (error) => error.code));
      assert.equal(code, 'ERR_SERVICE_TEMPLATE_NOT_FOUND');
      await page.waitForTimeout(200);
      assert.deepEqual(page.messages.filter((m) => m.type === 'pageerror'), []);
    } finally {
      await page.closeAll();
    }
  });

  test('a callback that throws is logged and breaks nothing', async () => {
    const page = await openPage(env);
    try {
      await initialize(page, env);
      const failed = await page.evaluate(() => window.ClickwrapClient.show({ clickwrapTemplateId: crypto.randomUUID(), endUserId: 'u' }, {
        onError() { throw new Error('a broken error handler'); },
      }).then(() => 'resolved', (error) => error.code));
      assert.equal(failed, 'ERR_SERVICE_TEMPLATE_NOT_FOUND', 'the Promise still rejects with the SDK\'s error');

      await page.evaluate((templateId) => {
        window.__outcome = window.ClickwrapClient.show({ clickwrapTemplateId: templateId, endUserId: `cb-${crypto.randomUUID()}` }, {
          onSuccess() { throw new Error('a broken success handler'); },
        }).then((result) => ({ result }), (error) => ({ error: { code: error.code } }));
      }, env.templateId);
      await dialog(page).waitFor();
      await agree(page);
      await acceptButton(page).click();
      const { result, error } = await outcome(page);
      assert.equal(error, undefined);
      assert.equal(result.action, 'ACCEPTED', 'the Promise still resolves');
      const logged = page.messages.filter((m) => m.type === 'error' && m.text.includes('[clickwrap] a callback failed'));
      assert.equal(logged.length, 2, JSON.stringify(page.messages));
      // The SDK goes on working: the next dialog opens.
      await startShow(page, { clickwrapTemplateId: env.templateId, endUserId: newEndUser() });
      await dialog(page).waitFor();
      await closeButton(page).click();
      assert.equal((await outcome(page)).error.code, 'ERR_SERVICE_USER_CANCELLED');
      assert.deepEqual(page.messages.filter((m) => m.type === 'pageerror'), []);
    } finally {
      await page.closeAll();
    }
  });

  test('callbacks that are not functions: ERR_SERVICE_INVALID_ARGUMENT, nothing sent', async () => {
    const page = await openPage(env);
    try {
      await initialize(page, env);
      const codes = await page.evaluate((templateId) => Promise.all([
        window.ClickwrapClient.show({ clickwrapTemplateId: templateId, endUserId: 'u' }, { onSuccess: 'yes' }),
        window.ClickwrapClient.showAcceptedContent({ clickwrapTemplateId: templateId, endUserId: 'u' }, { onError: {} }),
      ].map((p) => p.then(() => 'resolved', (e) => e.code))), env.templateId);
      assert.deepEqual(codes, ['ERR_SERVICE_INVALID_ARGUMENT', 'ERR_SERVICE_INVALID_ARGUMENT']);
      if (!REAL) assert.equal((await mock.requests(env)).length, 0);
    } finally {
      await page.closeAll();
    }
  });

  test('showAcceptedContent(): onError before accepting, onSuccess with the content after', async () => {
    const page = await openPage(env);
    const endUserId = newEndUser();
    try {
      await initialize(page, env);
      const request = { clickwrapTemplateId: env.templateId, endUserId };
      const before = await page.evaluate((r) => new Promise((resolve) => {
        window.ClickwrapClient.showAcceptedContent(r, { onSuccess: () => resolve('onSuccess'), onError: (e) => resolve(e.code) });
      }), request);
      assert.equal(before, 'ERR_SERVICE_TEMPLATE_NOT_FOUND');
      if (NEEDS_KEY) return;

      await startShow(page, request);
      await dialog(page).waitFor();
      await agree(page);
      await acceptButton(page).click();
      await verify(env, (await outcome(page)).result.serviceSignature);
      await page.evaluate((r) => {
        window.__content = new Promise((resolve) => {
          window.ClickwrapClient.showAcceptedContent(r, { onSuccess: resolve, onError: (e) => resolve(e.code) });
        });
      }, request);
      await dialog(page).waitFor();
      await page.keyboard.press('Escape');
      const content = await page.evaluate(() => window.__content);
      assert.equal(content.clickwrapTemplateId, env.templateId);
      assert.match(content.contentHash, /^sha256:/);
    } finally {
      await page.closeAll();
    }
  });
});

describe('failures', () => {
  test('a failed load is retried once (503, then success)', { skip: MOCK_ONLY }, async () => {
    await mock.fail(env, { method: 'GET', path: '/public-client/v1/clickwrap', status: 503, times: 1 });
    const { page } = await showFresh();
    try {
      await dialog(page).waitFor();
      const gets = await mock.requests(env, { method: 'GET', path: '/clickwrap' });
      assert.equal(gets.length, 2, 'one failure, one retry');
    } finally {
      await page.closeAll();
    }
  });

  test('a network error twice gives ERR_SERVICE_NETWORK after one retry', { skip: MOCK_ONLY }, async () => {
    await mock.fail(env, { method: 'GET', path: '/public-client/v1/clickwrap', status: 0, times: 2 });
    const { page } = await showFresh();
    try {
      const { error } = await outcome(page);
      assert.equal(error.code, 'ERR_SERVICE_NETWORK');
      assert.equal((await mock.requests(env, { method: 'GET', path: '/clickwrap' })).length, 2);
    } finally {
      await page.closeAll();
    }
  });

  test('a failed save keeps the dialog open with a message; trying again works', { skip: MOCK_ONLY }, async () => {
    await mock.fail(env, { method: 'POST', path: '/public-client/v1/clickwrap', status: 503, times: 1 });
    const { page } = await showFresh({ clickwrapTemplateId: TEMPLATE_IDS.short });
    try {
      await dialog(page).waitFor();
      await acceptButton(page).click();
      const error = page.locator('clickwrap-dialog .error');
      await error.waitFor();
      assert.match(await error.textContent(), /could not be saved/);
      assert.equal(await error.getAttribute('role'), 'alert');
      await acceptButton(page).click();
      const { result } = await outcome(page);
      assert.equal(result.action, 'ACCEPTED');
    } finally {
      await page.closeAll();
    }
  });

  test('not initialized: ERR_SERVICE_NOT_INITIALIZED', async () => {
    const page = await openPage(env);
    try {
      const codes = await page.evaluate(async () => {
        const code = (promise) => promise.then(() => 'resolved', (e) => e.code);
        const request = { clickwrapTemplateId: '0190a0b0-0000-7000-8000-000000000001', endUserId: 'u' };
        const inline = await new Promise((resolve) => {
          window.ClickwrapDom.renderInline(document.body, { ...request, onError: (e) => resolve(e.code) });
        });
        return {
          show: await code(window.ClickwrapClient.show(request)),
          accepted: await code(window.ClickwrapClient.showAcceptedContent(request)),
          finalize: await code(window.ClickwrapDom.finalizeAll()),
          inline,
        };
      });
      assert.deepEqual(codes, {
        show: 'ERR_SERVICE_NOT_INITIALIZED', accepted: 'ERR_SERVICE_NOT_INITIALIZED',
        finalize: 'ERR_SERVICE_NOT_INITIALIZED', inline: 'ERR_SERVICE_NOT_INITIALIZED',
      });
    } finally {
      await page.closeAll();
    }
  });

  test('an unknown template: ERR_SERVICE_TEMPLATE_NOT_FOUND', async () => {
    const { page } = await showFresh({ clickwrapTemplateId: crypto.randomUUID() });
    try {
      const { error } = await outcome(page);
      assert.equal(error.code, 'ERR_SERVICE_TEMPLATE_NOT_FOUND');
      assert.equal(error.status, 404);
    } finally {
      await page.closeAll();
    }
  });

  test('a disabled template: ERR_SERVICE_TEMPLATE_NOT_FOUND', { skip: MOCK_ONLY }, async () => {
    const { page } = await showFresh({ clickwrapTemplateId: TEMPLATE_IDS.disabled });
    try {
      assert.equal((await outcome(page)).error.code, 'ERR_SERVICE_TEMPLATE_NOT_FOUND');
    } finally {
      await page.closeAll();
    }
  });

  test('bad arguments: ERR_SERVICE_INVALID_ARGUMENT, nothing sent', async () => {
    const page = await openPage(env);
    try {
      await initialize(page, env);
      const codes = await page.evaluate(async (templateId) => {
        const code = (promise) => promise.then(() => 'resolved', (e) => e.code);
        return [
          await code(window.ClickwrapClient.show({ clickwrapTemplateId: 'not-a-uuid', endUserId: 'u' })),
          await code(window.ClickwrapClient.show({ clickwrapTemplateId: templateId })),
          await code(window.ClickwrapClient.show({ clickwrapTemplateId: templateId, endUserId: 'x'.repeat(257) })),
          await code(window.ClickwrapClient.show({ clickwrapTemplateId: templateId, endUserId: 'u', templatePlaceholders: 'x' })),
          await code(window.ClickwrapClient.show(null)),
          (() => { try { window.ClickwrapClient.initialize(''); return 'returned'; } catch (e) { return e.code; } })(),
        ];
      }, env.templateId);
      assert.deepEqual(codes, Array(6).fill('ERR_SERVICE_INVALID_ARGUMENT'));
      if (!REAL) assert.equal((await mock.requests(env)).length, 0);
    } finally {
      await page.closeAll();
    }
  });
});

describe('showAcceptedContent', () => {
  test('shows the accepted version read-only and returns it; before accepting: TEMPLATE_NOT_FOUND', async () => {
    const page = await openPage(env);
    const endUserId = newEndUser();
    try {
      await initialize(page, env);
      const before = await page.evaluate((request) => window.ClickwrapClient.showAcceptedContent(request).then(() => null, (e) => e.code),
        { clickwrapTemplateId: env.templateId, endUserId });
      assert.equal(before, 'ERR_SERVICE_TEMPLATE_NOT_FOUND');
      if (NEEDS_KEY) return;

      await startShow(page, { clickwrapTemplateId: env.templateId, endUserId });
      await dialog(page).waitFor();
      await agree(page);
      await acceptButton(page).click();
      const { result } = await outcome(page);
      await verify(env, result.serviceSignature);

      await page.evaluate((request) => {
        window.__accepted = window.ClickwrapClient.showAcceptedContent(request);
      }, { clickwrapTemplateId: env.templateId, endUserId });
      await dialog(page).waitFor();
      assert.equal(await acceptButton(page).count(), 0, 'read-only: nothing to accept');
      assert.equal(await consentCheckbox(page).count(), 0);
      await screenshot(page, 'accepted-content');
      await page.keyboard.press('Escape');
      const content = await page.evaluate(() => window.__accepted);
      assert.equal(content.clickwrapTemplateId, env.templateId);
      assert.equal(content.clickwrapTemplateVersion, result.clickwrapTemplateVersion);
      assert.match(content.contentHash, /^sha256:/);
      assert.equal(typeof content.content, 'string');
    } finally {
      await page.closeAll();
    }
  });
});

describe('loading the SDK', () => {
  test('as an ES module, with the service address taken from the module URL', { skip: MOCK_ONLY }, async () => {
    const page = await openPage(env, { url: `${env.origin}/test/module.html` });
    try {
      await page.waitForFunction(() => window.sdkFromModule);
      const same = await page.evaluate(() => window.sdkFromModule.ClickwrapClient === window.ClickwrapClient);
      assert.equal(same, true);
      await page.evaluate(([appId, templateId]) => {
        window.sdkFromModule.ClickwrapClient.initialize(appId); // no baseUrl: the module's own server
        window.__outcome = window.sdkFromModule.ClickwrapClient.show({ clickwrapTemplateId: templateId, endUserId: 'module-user' })
          .then((result) => ({ result }), (error) => ({ error: { code: error.code } }));
      }, [env.appId, TEMPLATE_IDS.short]);
      await dialog(page).waitFor();
      await acceptButton(page).click();
      assert.equal((await outcome(page)).result.action, 'ACCEPTED');
    } finally {
      await page.closeAll();
    }
  });

  test('under a strict Content Security Policy (no eval, no inline styles) the dialog works and is styled', async () => {
    const connect = new URL(env.api).origin;
    const page = await openPage(env, { url: `${env.origin}/test/csp.html?api=${encodeURIComponent(connect)}` });
    try {
      await initialize(page, env);
      await startShow(page, { clickwrapTemplateId: env.templateId, endUserId: newEndUser() });
      await dialog(page).waitFor();
      const position = await page.evaluate(() => {
        const root = document.querySelector('clickwrap-dialog').shadowRoot;
        return getComputedStyle(root.querySelector('.backdrop')).position;
      });
      assert.equal(position, 'fixed', 'the SDK\'s styles apply without style-src \'unsafe-inline\'');
      await agree(page);
      await acceptButton(page).click();
      assert.equal((await outcome(page)).result.action, 'ACCEPTED');
      const violations = page.messages.filter((m) => /Content Security Policy/i.test(m.text));
      assert.deepEqual(violations, []);
    } finally {
      await page.closeAll();
    }
  });

  test('two show() calls run one after another', async () => {
    const page = await openPage(env);
    try {
      await initialize(page, env);
      await page.evaluate((templateId) => {
        const show = (user) => window.ClickwrapClient.show({ clickwrapTemplateId: templateId, endUserId: user })
          .then((r) => r.action, (e) => e.code);
        window.__both = Promise.all([show(`a-${Math.random()}`), show(`b-${Math.random()}`)]);
      }, env.templateId);
      await dialog(page).waitFor();
      assert.equal(await page.locator('clickwrap-dialog').count(), 1, 'one dialog at a time');
      await closeButton(page).click();
      await dialog(page).waitFor();
      await agree(page);
      await acceptButton(page).click();
      assert.deepEqual(await page.evaluate(() => window.__both), ['ERR_SERVICE_USER_CANCELLED', 'ACCEPTED']);
    } finally {
      await page.closeAll();
    }
  });
});
