// Retries of 429 and 503 against a local server: Retry-After in seconds and as a date, backoff
// without it, the bounds, and which methods are retried at all.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';

import { ClickwrapError, createClickwrapClient, parseRetryAfter } from '../src/index.js';
import { problem, startScriptedServer } from './support/scripted-server.js';

const EVENT_ID = '0192f3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b';
const DETAILS = `/public-client/v1/clickwrap-events/${EVENT_ID}/details`;
const detailsInit = { params: { path: { clickwrapEventId: EVENT_ID } } };

let server;
afterEach(() => server?.close());

/** A client whose waits are recorded instead of slept. */
function recordingClient(retry = {}) {
  const waits = [];
  const client = createClickwrapClient({
    baseUrl: server.baseUrl,
    appId: 'app',
    appKey: 'key',
    retry: { ...retry, sleep: async (ms) => void waits.push(ms) },
  });
  return { client, waits };
}

/** Answers `first` in turn, then 200 with `{ ok: n }`. */
function answersThen(first) {
  return (received, index) => first[index] ?? { status: 200, json: { ok: index } };
}

describe('retries', () => {
  it('waits what Retry-After says, in seconds or as an HTTP date, then succeeds', async () => {
    const inTenSeconds = new Date(Date.now() + 10_000).toUTCString();
    server = await startScriptedServer(
      answersThen([
        { status: 503, headers: { 'Retry-After': '2' }, json: problem(503, 'UNAVAILABLE') },
        { status: 429, headers: { 'Retry-After': inTenSeconds }, json: problem(429, 'RATE_LIMITED') },
      ]),
    );
    const { client, waits } = recordingClient();
    assert.deepEqual(await client.GET(DETAILS, detailsInit), { ok: 2 });
    assert.equal(server.received.length, 3);
    assert.equal(waits.length, 2);
    assert.equal(waits[0], 2000);
    // The date has whole seconds, so it is 9 to 10 seconds away.
    assert.ok(waits[1] >= 9000 && waits[1] <= 10_000, `waited ${waits[1]} ms`);
  });

  it('backs off exponentially, with jitter, when there is no Retry-After', async () => {
    server = await startScriptedServer(answersThen([{ status: 503 }, { status: 503 }, { status: 429 }]));
    const { client, waits } = recordingClient({ baseDelayMs: 100, maxDelayMs: 300 });
    assert.deepEqual(await client.GET(DETAILS, detailsInit), { ok: 3 });
    // Each wait lies in the upper half of 100, 200, then 400 capped at 300 ms.
    const ceilings = [100, 200, 300];
    assert.equal(waits.length, 3);
    waits.forEach((wait, retry) => {
      assert.ok(wait >= ceilings[retry] / 2 && wait <= ceilings[retry], `retry ${retry} waited ${wait} ms`);
    });
  });

  it('gives up after maxRetries and throws the last answer as a ClickwrapError', async () => {
    server = await startScriptedServer(() => ({
      status: 503,
      headers: { 'Retry-After': '1' },
      json: problem(503, 'SERVICE_UNAVAILABLE'),
    }));
    const { client, waits } = recordingClient({ maxRetries: 2 });
    const error = await client.GET(DETAILS, detailsInit).catch((e) => e);
    assert.ok(error instanceof ClickwrapError);
    assert.equal(error.status, 503);
    assert.equal(error.code, 'SERVICE_UNAVAILABLE');
    assert.equal(error.retryAfterSeconds, 1);
    assert.equal(server.received.length, 3, 'the first attempt and two retries');
    assert.deepEqual(waits, [1000, 1000]);
  });

  it('takes the default of an option given as undefined, so that the retries still end', async () => {
    // Ten refusals, then a success: more than the default retries reach, and an end for a client
    // that would retry without bound.
    const refusal = { status: 503, json: problem(503, 'SERVICE_UNAVAILABLE') };
    server = await startScriptedServer(answersThen(Array(10).fill(refusal)));
    const { client, waits } = recordingClient({ maxRetries: undefined, baseDelayMs: undefined });
    const error = await client.GET(DETAILS, detailsInit).catch((e) => e);
    assert.ok(error instanceof ClickwrapError);
    assert.equal(server.received.length, 4, 'the first attempt and the default 3 retries');
    // The default backoff: the upper half of 500, 1000, then 2000 ms.
    [500, 1000, 2000].forEach((ceiling, retry) => {
      assert.ok(waits[retry] >= ceiling / 2 && waits[retry] <= ceiling, `retry ${retry} waited ${waits[retry]} ms`);
    });
  });

  it('does not wait for a Retry-After longer than maxRetryAfterSeconds', async () => {
    server = await startScriptedServer(answersThen([
      { status: 429, headers: { 'Retry-After': '3600' }, json: problem(429, 'EVENT_QUOTA_EXCEEDED') },
    ]));
    const { client, waits } = recordingClient({ maxRetryAfterSeconds: 60 });
    const error = await client.GET(DETAILS, detailsInit).catch((e) => e);
    assert.equal(error.code, 'EVENT_QUOTA_EXCEEDED');
    assert.equal(error.retryAfterSeconds, 3600);
    assert.equal(server.received.length, 1);
    assert.deepEqual(waits, []);
  });

  it('does not retry a POST, which may not be safe to send twice', async () => {
    server = await startScriptedServer(answersThen([
      { status: 429, headers: { 'Retry-After': '1' }, json: problem(429, 'RATE_LIMITED') },
    ]));
    const { client, waits } = recordingClient();
    const error = await client
      .POST('/public-client/v1/clickwrap/verify', { body: { serviceSignature: 'a Signature' } })
      .catch((e) => e);
    assert.equal(error.status, 429);
    assert.equal(error.retryAfterSeconds, 1);
    assert.equal(server.received.length, 1);
    assert.deepEqual(waits, []);
  });

  it('sends an idempotent PUT again with its whole body', async () => {
    server = await startScriptedServer(answersThen([{ status: 503, headers: { 'Retry-After': '0' } }]));
    const { client } = recordingClient();
    const body = { content: { en: '<p>Terms</p>' } };
    await client.PUT('/operator/v1/templates/{clickwrapTemplateId}/draft', {
      params: { path: { clickwrapTemplateId: EVENT_ID } },
      body,
    });
    assert.equal(server.received.length, 2);
    for (const received of server.received) assert.deepEqual(JSON.parse(received.body), body);
  });

  it('really sleeps by default (Retry-After: 0 here)', async () => {
    server = await startScriptedServer(answersThen([{ status: 429, headers: { 'Retry-After': '0' } }]));
    const client = createClickwrapClient({ baseUrl: server.baseUrl, appId: 'app', appKey: 'key' });
    assert.deepEqual(await client.GET(DETAILS, detailsInit), { ok: 1 });
  });

  it('leaves other errors alone, and retries nothing with retry: false', async () => {
    server = await startScriptedServer(() => ({ status: 500, json: problem(500, 'INTERNAL') }));
    const { client } = recordingClient();
    assert.equal((await client.GET(DETAILS, detailsInit).catch((e) => e)).code, 'INTERNAL');
    assert.equal(server.received.length, 1);
    await server.close();

    server = await startScriptedServer(() => ({ status: 503, headers: { 'Retry-After': '0' } }));
    const once = createClickwrapClient({ baseUrl: server.baseUrl, retry: false });
    assert.equal((await once.GET(DETAILS, detailsInit).catch((e) => e)).status, 503);
    assert.equal(server.received.length, 1);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-22T07:15:03.000Z');
  it('reads seconds and HTTP dates', () => {
    assert.equal(parseRetryAfter('120', now), 120);
    assert.equal(parseRetryAfter(' 0 ', now), 0);
    assert.equal(parseRetryAfter('Sun, 22 Nov 2026 07:16:03 GMT', now), 60);
    assert.equal(parseRetryAfter('Sun, 22 Nov 2026 07:00:00 GMT', now), 0, 'a date in the past');
  });
  it('gives null for nothing readable', () => {
    assert.equal(parseRetryAfter(null, now), null);
    assert.equal(parseRetryAfter('soon', now), null);
    assert.equal(parseRetryAfter('-5', now), null);
  });
});
