// Checks of the SDK file itself, without a browser: its size budget, what it must never contain,
// and that it loads as CommonJS (for bundlers) without touching a DOM.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';

const SOURCE = readFileSync(new URL('../clickwrap.js', import.meta.url), 'utf8');
const BUDGET_GZIPPED = 15 * 1024;

test(`clickwrap.js is at most ${BUDGET_GZIPPED} bytes gzipped`, () => {
  const size = gzipSync(SOURCE, { level: 9 }).length;
  assert.ok(size <= BUDGET_GZIPPED, `${size} bytes gzipped`);
});

test('the SDK never evaluates text as code', () => {
  const code = SOURCE.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  assert.doesNotMatch(code, /\beval\s*\(/);
  assert.doesNotMatch(code, /\bFunction\s*\(/);
  assert.doesNotMatch(code, /set(Timeout|Interval)\(\s*['"`]/);
  assert.doesNotMatch(code, /document\.write|insertAdjacentHTML|outerHTML|createContextualFragment/);
  // Markup is parsed in exactly one place: an inert DOMParser document, before the allow-list.
  assert.equal(code.match(/innerHTML/g)?.length, 1);
  assert.match(code, /new DOMParser\(\)\.parseFromString\([^)]*\)\.body;\s*holder\.innerHTML = /);
});

test('it loads as CommonJS without a DOM and asks for initialize() first', async () => {
  const sdk = createRequire(import.meta.url)('../clickwrap.js');
  assert.equal(typeof sdk.ClickwrapClient.show, 'function');
  assert.equal(typeof sdk.ClickwrapDom.finalizeAll, 'function');
  assert.equal(sdk.ClickwrapClient.version, '1.0.0');
  await assert.rejects(sdk.ClickwrapClient.show({}), { code: 'ERR_SERVICE_NOT_INITIALIZED' });
  assert.throws(() => sdk.ClickwrapClient.initialize(''), { code: 'ERR_SERVICE_INVALID_ARGUMENT' });
});
