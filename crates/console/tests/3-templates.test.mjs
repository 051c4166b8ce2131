// Templates: create one, write its draft in English (with the live preview filling {{fullName}})
// and German, publish 1.0 MAJOR, enable it, link it to an app, read the version; then a second
// version and the diff of the two; and the dialog customizations with the SDK's dialog preview.

import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';

import {
  ConsoleHttp, assertNoProblems, checkPage, createApp, createTemplate, env, expectSuccess, launchBrowser, newPage, open,
  signIn, SKIP, submit, unique,
} from './helpers.mjs';

const ENGLISH = [
  '<h1>Terms of service</h1>',
  '<p>Hello {{fullName}}, these are the terms of the console tests.</p>',
  '<p>You keep your data; we keep the record of your consent.</p>',
].join('\n');
const GERMAN = [
  '<h1>Nutzungsbedingungen</h1>',
  '<p>Hallo {{fullName}}, dies sind die Bedingungen der Konsolentests.</p>',
].join('\n');

/** The row of the version history for `number`. */
const versionRow = (page, number) => page.locator('section[aria-labelledby="versions-heading"] tbody tr', {
  has: page.locator('th', { hasText: new RegExp(`^${number.replace('.', '\\.')}$`) }),
});

describe('templates', { skip: SKIP }, () => {
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

  test('create a template, write English and German drafts with a live preview, publish 1.0, enable, link an app', async () => {
    const problems = [];
    const app = await createApp(http);
    const name = unique('Console test terms');
    const tag = `t${randomUUID().slice(0, 8)}`;
    const page = await newPage(browser);
    try {
      await signIn(page);
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Templates' }).click();
      await page.getByRole('heading', { level: 1, name: 'Templates', exact: true }).waitFor();
      await checkPage(page, 'templates-list', problems);

      const create = page.locator('form[action="/console/templates"]');
      await create.getByLabel('Name').fill(name);
      await create.getByLabel('Tags').fill(`${tag}, console-test`);
      await create.getByLabel('Default language').selectOption('en');
      await create.getByRole('button', { name: 'Create template' }).click();
      await page.getByRole('heading', { level: 1, name: `Draft: ${name}`, exact: true }).waitFor();
      await expectSuccess(page, 'The template was created.');
      const templateId = /\/console\/templates\/([0-9a-f-]{36})\/draft/.exec(page.url())?.[1];
      assert.ok(templateId, page.url());

      // The live preview: typed content and a sample full name, rendered by the server into the frame.
      await page.getByLabel('HTML in English (en)').fill(ENGLISH);
      await page.locator('#sample-fullName').fill('Ada Lovelace');
      await page.waitForFunction(() => (document.querySelector('#preview-frame').getAttribute('srcdoc') ?? '').includes('Hello Ada Lovelace,'));
      const preview = page.frameLocator('#preview-frame');
      await preview.getByRole('heading', { name: 'Terms of service', exact: true }).waitFor();
      assert.match(await preview.locator('p').first().textContent(), /^Hello Ada Lovelace, these are the terms/);
      assert.equal(await page.getAttribute('#preview-frame', 'sandbox'), '', 'the preview runs nothing');
      // The name typed again: the preview follows.
      await page.locator('#sample-fullName').fill('Grace Hopper');
      await page.waitForFunction(() => (document.querySelector('#preview-frame').getAttribute('srcdoc') ?? '').includes('Hello Grace Hopper,'));
      await checkPage(page, 'draft-editor', problems);

      await submit(page, page.getByRole('button', { name: 'Save draft' }));
      await expectSuccess(page, 'The draft was saved');
      assert.equal(await page.inputValue('#draft-content'), ENGLISH);
      // The saved draft is previewed as stored, the placeholder left for the SDK to fill.
      await page.frameLocator('#preview-frame').getByRole('heading', { name: 'Terms of service', exact: true }).waitFor();

      const tabs = page.getByRole('navigation', { name: 'Draft languages' });
      await tabs.getByRole('link', { name: /^German \(de\)/ }).click();
      await page.getByRole('heading', { level: 2, name: 'Content in German (de)', exact: true }).waitFor();
      assert.equal(await page.inputValue('#draft-content'), '');
      await page.getByLabel('HTML in German (de)').fill(GERMAN);
      await submit(page, page.getByRole('button', { name: 'Save draft' }));
      await expectSuccess(page, 'The draft was saved');
      assert.equal(await page.inputValue('#draft-content'), GERMAN);
      assert.match(await tabs.getByRole('link', { name: /^English \(en\)/ }).textContent(), /has content/);
      await checkPage(page, 'draft-editor-german', problems);

      // The template's page: publish MAJOR, enable, link the app.
      await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name }).click();
      await page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
      assert.match(await page.locator('section[aria-labelledby="publish-heading"]').textContent(), /Draft languages: de, en|Draft languages: en, de/);
      const publish = page.locator(`form[action="/console/templates/${templateId}/versions"]`);
      await publish.getByLabel('Major (1.0)').check();
      await submit(page, publish.getByRole('button', { name: 'Publish version' }));
      await expectSuccess(page, 'Version 1.0 is published and in force.');

      await submit(page, page.getByRole('button', { name: 'Enable template' }));
      await expectSuccess(page, 'The template is enabled');

      const links = page.locator(`form[action="/console/templates/${templateId}/apps"]`);
      await links.getByLabel(app.name, { exact: true }).check();
      await submit(page, links.getByRole('button', { name: 'Save linked apps' }));
      await expectSuccess(page, 'The linked apps were saved.');

      const facts = page.locator('section[aria-labelledby="template-facts-heading"]');
      assert.match(await facts.textContent(), /Enabled/);
      await facts.getByRole('link', { name: app.name }).waitFor();
      assert.match(await versionRow(page, '1.0').textContent(), /EFFECTIVE/);
      assert.match(await versionRow(page, '1.0').textContent(), /de, en|en, de/);
      await checkPage(page, 'template-detail', problems);

      await versionRow(page, '1.0').getByRole('link', { name: 'View version 1.0' }).click();
      await page.getByRole('heading', { level: 1, name: 'Version 1.0', exact: true }).waitFor();
      assert.match(await page.locator('section[aria-labelledby="version-facts-heading"]').textContent(), /EFFECTIVE/);
      await page.frameLocator('#frame-en').getByRole('heading', { name: 'Terms of service', exact: true }).waitFor();
      await page.frameLocator('#frame-de').getByRole('heading', { name: 'Nutzungsbedingungen', exact: true }).waitFor();
      assert.equal(await page.getAttribute('#frame-de', 'sandbox'), '');
      await checkPage(page, 'template-version', problems);

      // The list, filtered by the new tag: only this template, enabled at 1.0.
      await open(page, '/console/templates');
      await page.getByLabel('Tag', { exact: true }).selectOption(tag);
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.waitForURL((u) => u.searchParams.get('tag') === tag);
      const rows = page.locator('table tbody tr');
      assert.equal(await rows.count(), 1);
      assert.match(await rows.first().textContent(), new RegExp(`${name}.*Enabled.*1\\.0`, 's'));
    } finally {
      await page.context().close();
    }
    assertNoProblems(problems);
  });

  test('publish a second version and compare it with the first: removed and added lines', async () => {
    const problems = [];
    const first = '<h1>Terms</h1>\n<p>The old clause.</p>\n<p>A clause that stays.</p>';
    const template = await createTemplate(http, { content: { en: first } });
    const page = await newPage(browser);
    try {
      await signIn(page);
      await open(page, `/console/templates/${template.id}`);
      await page.getByRole('link', { name: 'Edit draft' }).click();
      await page.getByRole('heading', { level: 1, name: `Draft: ${template.name}`, exact: true }).waitFor();
      const draft = await page.inputValue('#draft-content');
      assert.match(draft, /The old clause\./, 'the draft starts from what was published');
      await page.fill('#draft-content', draft.replace('The old clause.', 'The new clause.') + '\n<p>An added clause.</p>');
      await submit(page, page.getByRole('button', { name: 'Save draft' }));
      await expectSuccess(page, 'The draft was saved');

      await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: template.name }).click();
      const publish = page.locator(`form[action="/console/templates/${template.id}/versions"]`);
      await publish.getByLabel('Major (2.0)').check();
      await submit(page, publish.getByRole('button', { name: 'Publish version' }));
      await expectSuccess(page, 'Version 2.0 is published and in force.');
      assert.match(await versionRow(page, '1.0').textContent(), /SUPERSEDED/);
      assert.match(await versionRow(page, '2.0').textContent(), /EFFECTIVE/);

      // The compare form starts at the two newest versions.
      assert.equal(await page.inputValue('#compare-a'), '1.0');
      assert.equal(await page.inputValue('#compare-b'), '2.0');
      await page.getByRole('button', { name: 'Compare' }).click();
      await page.getByRole('heading', { level: 1, name: 'Compare 1.0 and 2.0', exact: true }).waitFor();
      const removed = await page.locator('.diff-removed').allTextContents();
      const added = await page.locator('.diff-added').allTextContents();
      assert.ok(removed.some((line) => line.includes('Removed: ') && line.includes('The old clause.')), removed.join(' | '));
      assert.ok(added.some((line) => line.includes('Added: ') && line.includes('The new clause.')), added.join(' | '));
      assert.ok(added.some((line) => line.includes('An added clause.')), added.join(' | '));
      assert.ok(!removed.concat(added).some((line) => line.includes('A clause that stays.')), 'unchanged lines are not marked');
      assert.match(await page.locator('.diff-summary').textContent(), /\d+ removed, \d+ added lines?/);
      await checkPage(page, 'template-diff', problems);

      // The version page links the comparison with the previous version.
      await open(page, `/console/templates/${template.id}/versions/2.0`);
      await page.getByRole('link', { name: 'Compare with version 1.0' }).click();
      await page.getByRole('heading', { level: 1, name: 'Compare 1.0 and 2.0', exact: true }).waitFor();
    } finally {
      await page.context().close();
    }
    assertNoProblems(problems);
  });

  test('dialog customizations: save a primary colour, preview the real SDK dialog, close it', async () => {
    const problems = [];
    const template = await createTemplate(http);
    const page = await newPage(browser);
    try {
      await signIn(page);
      await open(page, `/console/templates/${template.id}`);
      await page.getByRole('link', { name: 'Dialog customizations' }).click();
      await page.getByRole('heading', { level: 1, name: 'Dialog customizations', exact: true }).waitFor();
      await checkPage(page, 'customizations', problems);

      await page.getByLabel('Primary colour').fill('#b91c1c');
      await submit(page, page.getByRole('button', { name: 'Save customizations' }));
      await expectSuccess(page, 'The dialog customizations were saved.');
      assert.equal(await page.inputValue('#primary_color'), '#b91c1c');

      await page.getByRole('button', { name: 'Preview dialog' }).click();
      const dialog = page.locator('clickwrap-dialog [role="dialog"]');
      await dialog.waitFor();
      assert.equal(await page.evaluate(() => document.querySelector('clickwrap-dialog').shadowRoot !== null), true);
      await dialog.getByRole('heading', { name: 'Terms', exact: true }).waitFor();
      const accept = page.locator('clickwrap-dialog button.accept');
      assert.equal(await accept.evaluate((b) => getComputedStyle(b).backgroundColor), 'rgb(185, 28, 28)', 'the saved colour');
      assert.equal(await page.textContent('#dialog-preview-status'), '');
      await checkPage(page, 'customizations-dialog-preview', problems);

      await page.locator('clickwrap-dialog button.close').click();
      await page.locator('clickwrap-dialog').waitFor({ state: 'detached' });

      // An unsaved change shows in the preview too.
      await page.getByLabel('Primary colour').fill('#047857');
      await page.getByRole('button', { name: 'Preview dialog' }).click();
      await dialog.waitFor();
      assert.equal(await accept.evaluate((b) => getComputedStyle(b).backgroundColor), 'rgb(4, 120, 87)');
      await page.keyboard.press('Escape');
      await page.locator('clickwrap-dialog').waitFor({ state: 'detached' });
    } finally {
      await page.context().close();
    }
    assertNoProblems(problems);
  });
});
