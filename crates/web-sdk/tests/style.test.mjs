// How the dialog and the inline checkbox look: Decline is secondary to Accept, and every text is
// readable (WCAG AA: 4.5:1 for text, 3:1 for button edges) in the default style and in themes whose
// colours do not read well as given. Each case is screenshotted at desktop and phone width.

import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';

import {
  MOCK_ONLY, REAL, acceptButton, agree, declineButton, dialog, initialize, mock, newEndUser, openPage, screenshot, setUp,
  startShow,
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

const DESKTOP = { width: 1000, height: 720 };
const PHONE = { width: 375, height: 667 };

function parse(color) {
  const m = /^rgba?\((\d+(?:\.\d+)?), (\d+(?:\.\d+)?), (\d+(?:\.\d+)?)(?:, (\d+(?:\.\d+)?))?\)$/.exec(color);
  assert.ok(m, `a computed colour: ${color}`);
  return { rgb: [Number(m[1]), Number(m[2]), Number(m[3])], alpha: m[4] === undefined ? 1 : Number(m[4]) };
}

/** The WCAG 2 contrast ratio of two computed colours. */
export function contrast(a, b) {
  const luminance = (color) => {
    const [r, g, bl] = parse(color).rgb.map((v) => {
      const c = v / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl + 0.05;
  };
  const [x, y] = [luminance(a), luminance(b)];
  return Math.max(x, y) / Math.min(x, y);
}

const transparent = (color) => parse(color).alpha === 0;

/** The computed colours of the open dialog's parts (Accept enabled). */
function dialogColors(page) {
  return page.evaluate(() => {
    const root = document.querySelector('clickwrap-dialog').shadowRoot;
    const style = (selector) => {
      const node = root.querySelector(selector);
      if (!node || !node.getClientRects().length) return null;
      const css = getComputedStyle(node);
      return { color: css.color, background: css.backgroundColor, border: css.borderTopColor, opacity: css.opacity, className: node.className };
    };
    return {
      dialog: style('.dialog'),
      title: style('h2'),
      subtitle: style('.sub'),
      text: style('.content p'),
      link: style('.content a'),
      hint: style('.hint'),
      check: style('label.check span'),
      error: style('.error'),
      accept: style('.accept'),
      decline: style('.decline'),
    };
  });
}

/** Every text readable on the dialog, Decline visibly secondary to Accept. */
function assertReadable(colors, label) {
  const bg = colors.dialog.background;
  for (const part of ['title', 'subtitle', 'text', 'link', 'hint', 'check', 'error']) {
    if (!colors[part]) continue;
    const ratio = contrast(colors[part].color, bg);
    assert.ok(ratio >= 4.5, `${label}: ${part} ${colors[part].color} on ${bg} is ${ratio.toFixed(2)}:1`);
  }
  for (const part of ['accept', 'decline']) {
    const button = colors[part];
    if (!button) continue;
    assert.equal(button.opacity, '1', `${label}: ${part} is enabled`);
    const behind = transparent(button.background) ? bg : button.background;
    const ratio = contrast(button.color, behind);
    assert.ok(ratio >= 4.5, `${label}: ${part} text ${button.color} on ${behind} is ${ratio.toFixed(2)}:1`);
    if (!transparent(button.border)) {
      const edge = contrast(button.border, bg);
      assert.ok(edge >= 3, `${label}: ${part} edge ${button.border} on ${bg} is ${edge.toFixed(2)}:1`);
    }
  }
  const { accept, decline } = colors;
  if (accept && decline) {
    assert.ok(!transparent(accept.background), `${label}: Accept is filled`);
    assert.ok(transparent(decline.background), `${label}: Decline is not filled like Accept (${decline.background})`);
  }
}

async function open(templateId, viewport) {
  const page = await openPage(env, { viewport });
  await initialize(page, env);
  await startShow(page, { clickwrapTemplateId: templateId, endUserId: newEndUser(), templatePlaceholders: { fullName: 'Ada Lovelace' } });
  await dialog(page).waitFor();
  return page;
}

describe('the dialog', { skip: MOCK_ONLY }, () => {
  const CASES = [
    ['default', TEMPLATE_IDS.short, 'the default style: FILLED Decline is drawn as a neutral outline'],
    ['customized', TEMPLATE_IDS.scroll, 'a green theme with an OUTLINED Decline'],
    ['checkbox', TEMPLATE_IDS.checkbox, 'checkbox mode with a TEXT Decline'],
    ['dark', TEMPLATE_IDS.dark, 'a dark theme with an amber primary colour'],
    ['pale', TEMPLATE_IDS.pale, 'a pale primary colour and a text colour too light for white'],
  ];
  for (const [name, templateId, what] of CASES) {
    for (const [size, viewport] of [['desktop', DESKTOP], ['phone', PHONE]]) {
      test(`${what} (${size}): readable, Decline secondary`, async () => {
        const page = await open(templateId, viewport);
        try {
          const waiting = await dialogColors(page);
          if (waiting.hint) {
            const ratio = contrast(waiting.hint.color, waiting.dialog.background);
            assert.ok(ratio >= 4.5, `the scroll hint is ${ratio.toFixed(2)}:1`);
          }
          await screenshot(page, `style-${name}-${size}`);
          await agree(page);
          await page.waitForFunction(() => !document.querySelector('clickwrap-dialog').shadowRoot.querySelector('.accept').disabled);
          const colors = await dialogColors(page);
          assertReadable(colors, `${name} ${size}`);
          if (size === 'desktop') await screenshot(page, `style-${name}-${size}-ready`);
          // Both buttons are comfortable touch targets on a phone.
          if (size === 'phone') {
            for (const button of [acceptButton(page), declineButton(page)]) {
              if (!(await button.count())) continue;
              assert.ok((await button.boundingBox()).height >= 44, 'at least 44 px tall');
            }
          }
        } finally {
          await page.closeAll();
        }
      });
    }
  }

  test('the default style: Accept is the primary colour, Decline neutral in the text colour', async () => {
    const page = await open(TEMPLATE_IDS.short, DESKTOP);
    try {
      const colors = await dialogColors(page);
      assert.match(colors.decline.className, /\bneutral\b/);
      assert.equal(colors.accept.background, 'rgb(37, 99, 235)');
      assert.equal(colors.accept.color, 'rgb(255, 255, 255)');
      assert.equal(colors.decline.color, colors.dialog.color, 'Decline speaks in the text colour');
      assert.notEqual(colors.decline.border, colors.accept.border, 'no primary-coloured edge on Decline');
    } finally {
      await page.closeAll();
    }
  });

  test('a save error is readable on a dark theme', async () => {
    await mock.fail(env, { method: 'POST', path: '/public-client/v1/clickwrap', status: 503, times: 1 });
    const page = await open(TEMPLATE_IDS.dark, DESKTOP);
    try {
      await agree(page);
      await acceptButton(page).click();
      await page.locator('clickwrap-dialog .error').waitFor();
      await page.waitForFunction(() => !document.querySelector('clickwrap-dialog').shadowRoot.querySelector('.accept').disabled);
      const colors = await dialogColors(page);
      assertReadable(colors, 'dark with an error');
      await screenshot(page, 'style-dark-error');
    } finally {
      await page.closeAll();
    }
  });
});

describe('the inline checkbox', { skip: MOCK_ONLY }, () => {
  for (const [size, viewport] of [['desktop', DESKTOP], ['phone', PHONE]]) {
    test(`its link reads on the page's background, also with a pale --cw-primary (${size})`, async () => {
      const page = await openPage(env, { viewport });
      try {
        await initialize(page, env);
        await page.evaluate(([a, b]) => Promise.all([
          window.ClickwrapDom.renderInline('#inline-a', { clickwrapTemplateId: a, endUserId: `inline-${crypto.randomUUID()}` }).ready,
          window.ClickwrapDom.renderInline('#inline-b', {
            clickwrapTemplateId: b, endUserId: `inline-${crypto.randomUUID()}`, style: { '--cw-primary': '#7dd3fc' },
          }).ready,
        ]), [TEMPLATE_IDS.short, TEMPLATE_IDS.checkbox]);
        const colors = await page.evaluate(() => ['#inline-a', '#inline-b'].map((id) => {
          const root = document.querySelector(`${id} clickwrap-inline`).shadowRoot;
          return {
            link: getComputedStyle(root.querySelector('.link')).color,
            text: getComputedStyle(root.querySelector('label')).color,
            page: getComputedStyle(document.body).backgroundColor,
          };
        }));
        for (const [i, c] of colors.entries()) {
          const ratio = contrast(c.link, c.page);
          assert.ok(ratio >= 4.5, `inline ${i}: link ${c.link} on ${c.page} is ${ratio.toFixed(2)}:1`);
        }
        await screenshot(page, `style-inline-${size}`);
      } finally {
        await page.closeAll();
      }
    });
  }
});
