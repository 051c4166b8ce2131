/**
 * The package as an app gets it: the compiled entry that `main` names (built by `npm run build`,
 * which `npm test` runs first, and by `prepare` on `npm ci` and `npm pack`) loads in React Native
 * and exports the same API as the sources.
 */
import fs from 'fs';
import path from 'path';

import * as sources from '../src';
import packageJson from '../package.json';

const ROOT = path.join(__dirname, '..');

test('main and types point at built files that the package ships', () => {
  expect(packageJson.files).toEqual(['lib']);
  for (const file of [packageJson.main, packageJson.types]) {
    expect(file.startsWith('lib/')).toBe(true);
    expect(fs.existsSync(path.join(ROOT, file))).toBe(true);
  }
});

test('the built entry exports what the sources export', () => {
  const built = require(path.join(ROOT, packageJson.main));
  expect(Object.keys(built).sort()).toEqual(Object.keys(sources).sort());
  expect(built.ClickwrapClient.version).toBe(packageJson.version);
  expect(typeof built.ClickwrapProvider).toBe('function');
  const error = new built.ClickwrapError('ERR_SERVICE_NETWORK', 'offline');
  expect(error).toBeInstanceOf(Error);
  expect(error).toMatchObject({ name: 'ClickwrapError', code: 'ERR_SERVICE_NETWORK', message: 'offline' });
});
