// src/schema.d.ts is what the pinned openapi-typescript makes of docs/openapi.json today:
// regenerate it (node clients/typescript/scripts/generate.js) when the document changes.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';

it('src/schema.d.ts is a fresh generation from docs/openapi.json', () => {
  const folder = mkdtempSync(join(tmpdir(), 'clickwrap-schema-'));
  try {
    const script = new URL('../scripts/generate.js', import.meta.url).pathname;
    execFileSync(process.execPath, [script, folder], { stdio: 'pipe' });
    const fresh = readFileSync(join(folder, 'schema.d.ts'), 'utf8');
    const committed = readFileSync(new URL('../src/schema.d.ts', import.meta.url), 'utf8');
    assert.ok(fresh === committed, 'src/schema.d.ts differs from a fresh generation: run scripts/generate.js');
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
