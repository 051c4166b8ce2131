// Runs last (the files run one at a time, in name order): prints the axe-core results of every
// page the other test files checked in this run, violations counted by impact, minor and
// moderate included, for the record. Serious and critical ones have already failed their test.

import { test } from 'node:test';

import { SCREENSHOT_DIR, SKIP, axeResultsOfThisRun, forgetEarlierRuns, formatAxeSummary } from './helpers.mjs';

test('axe-core summary of every page checked in this run', { skip: SKIP }, (t) => {
  const rows = axeResultsOfThisRun();
  if (rows.length === 0) {
    t.skip('no page was checked in this run');
    return;
  }
  forgetEarlierRuns();
  console.log(`axe-core results per page (screenshots in ${SCREENSHOT_DIR}):\n${formatAxeSummary(rows)}`);
});
