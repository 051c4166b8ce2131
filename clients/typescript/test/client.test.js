// The client against a local server: which credentials go where, problems as ClickwrapError, and
// the events iterator over the cursor.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { afterEach, describe, it } from 'node:test';

import { ClickwrapError, PUBLIC_CLIENT_PATHS, createClickwrapClient } from '../src/index.js';
import { problem, startScriptedServer } from './support/scripted-server.js';

const EVENT_ID = '0192f3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b';
const TEMPLATE_ID = '0192f3c0-1a2b-7c3d-8e4f-5a6b7c8d9e0f';

let server;
afterEach(() => server?.close());

function clientWithEverything() {
  return createClickwrapClient({
    baseUrl: server.baseUrl,
    appId: 'the-app-id',
    appKey: 'the-app-key',
    operatorToken: 'the-operator-token',
  });
}

describe('credentials', () => {
  it('sends the App ID and Key to server-side operations, the token to operator ones, nothing to public ones', async () => {
    server = await startScriptedServer(() => ({ status: 200, json: {} }));
    const client = clientWithEverything();
    await client.GET('/public-client/v1/clickwrap-events/{clickwrapEventId}/details', {
      params: { path: { clickwrapEventId: EVENT_ID } },
    });
    await client.GET('/operator/v1/usage');
    await client.GET('/public-client/v1/clickwrap', {
      params: { query: { appId: 'the-app-id', clickwrapTemplateId: TEMPLATE_ID, endUserId: 'user-42' } },
    });

    const [serverSide, operator, publicOne] = server.received;
    assert.equal(serverSide.url, `/public-client/v1/clickwrap-events/${EVENT_ID}/details`);
    assert.equal(serverSide.headers['x-app-id'], 'the-app-id');
    assert.equal(serverSide.headers['x-app-key'], 'the-app-key');
    assert.equal(serverSide.headers.authorization, undefined);

    assert.equal(operator.headers.authorization, 'Bearer the-operator-token');
    assert.equal(operator.headers['x-app-key'], undefined);

    assert.match(publicOne.url, /^\/public-client\/v1\/clickwrap\?appId=the-app-id&/);
    assert.equal(publicOne.headers['x-app-key'], undefined, 'the App Key goes nowhere it is not needed');
    assert.equal(publicOne.headers['x-app-id'], undefined);
    assert.equal(publicOne.headers.authorization, undefined);
  });

  it('knows the public operations exactly as the document declares them (empty security)', () => {
    const document = JSON.parse(readFileSync(new URL('../../../docs/openapi.json', import.meta.url), 'utf8'));
    const publicPaths = new Set();
    for (const [path, item] of Object.entries(document.paths)) {
      if (!path.startsWith('/public-client/v1/')) continue;
      for (const [method, operation] of Object.entries(item)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        const schemes = (operation.security ?? document.security ?? []).flatMap((requirement) => Object.keys(requirement));
        if (schemes.length === 0) {
          publicPaths.add(path);
        } else {
          assert.deepEqual(schemes.sort(), ['appId', 'appKey'], `${method} ${path}`);
        }
      }
    }
    assert.deepEqual([...PUBLIC_CLIENT_PATHS].sort(), [...publicPaths].sort());
  });
});

describe('errors', () => {
  it('throws a problem as ClickwrapError with its status, code and extra members', async () => {
    server = await startScriptedServer(() => ({
      status: 409,
      json: problem(409, 'SIGNATURE_ALREADY_VERIFIED', { clickwrapEventId: EVENT_ID }),
    }));
    const error = await clientWithEverything()
      .POST('/public-client/v1/clickwrap/verify', { body: { serviceSignature: 'a Signature' } })
      .catch((e) => e);
    assert.ok(error instanceof ClickwrapError);
    assert.ok(error instanceof Error);
    assert.equal(error.name, 'ClickwrapError');
    assert.equal(error.status, 409);
    assert.equal(error.code, 'SIGNATURE_ALREADY_VERIFIED');
    assert.equal(error.problem.clickwrapEventId, EVENT_ID);
    assert.equal(error.retryAfterSeconds, null);
    assert.match(error.message, /409 SIGNATURE_ALREADY_VERIFIED: SIGNATURE_ALREADY_VERIFIED happened/);
  });

  it('throws an answer that is no problem (a proxy page, say) with code null', async () => {
    server = await startScriptedServer(() => ({ status: 502, text: 'Bad gateway' }));
    const error = await clientWithEverything().GET('/operator/v1/usage').catch((e) => e);
    assert.ok(error instanceof ClickwrapError);
    assert.equal(error.status, 502);
    assert.equal(error.code, null);
    assert.equal(error.problem, null);
    assert.match(error.message, /Bad gateway/);
  });

  it('does not follow a redirect, so the App Key and the body never reach another host', async () => {
    const elsewhere = await startScriptedServer(() => ({ status: 200, json: { clickwrapEventStatus: 'ACCEPTED' } }));
    try {
      server = await startScriptedServer((received) => ({ status: 307, headers: { location: elsewhere.baseUrl + received.url } }));
      const error = await clientWithEverything()
        .POST('/public-client/v1/clickwrap/verify', { body: { serviceSignature: 'the-signature' } })
        .catch((e) => e);
      assert.ok(error instanceof ClickwrapError, `resolved with ${JSON.stringify(error)}`);
      assert.equal(error.status, 307);
      assert.equal(server.received.length, 1);
      assert.equal(elsewhere.received.length, 0, 'the redirect target was sent nothing');
    } finally {
      await elsewhere.close();
    }
  });

  it('leaves the raw client its { data, error, response } answers', async () => {
    server = await startScriptedServer(() => ({ status: 401, json: problem(401, 'UNAUTHORIZED') }));
    const { data, error, response } = await clientWithEverything().raw.GET('/operator/v1/usage');
    assert.equal(data, undefined);
    assert.equal(error.code, 'UNAUTHORIZED');
    assert.equal(response.status, 401);
  });
});

describe('events iterator', () => {
  it('follows nextPageCursor with the same filters until it is null', async () => {
    const pages = {
      '': { items: [{ clickwrapEventId: 'e1' }, { clickwrapEventId: 'e2' }], nextPageCursor: 'c/1+=' },
      'c/1+=': { items: [{ clickwrapEventId: 'e3' }], nextPageCursor: 'c2' },
      c2: { items: [{ clickwrapEventId: 'e4' }], nextPageCursor: null },
    };
    server = await startScriptedServer((received) => {
      const cursor = new URL(received.url, server.baseUrl).searchParams.get('nextPageCursor') ?? '';
      return { status: 200, json: pages[cursor] };
    });
    const ids = [];
    for await (const event of clientWithEverything().events({ endUserId: 'user 42', limit: 2 })) {
      ids.push(event.clickwrapEventId);
    }
    assert.deepEqual(ids, ['e1', 'e2', 'e3', 'e4']);
    assert.equal(server.received.length, 3);
    for (const received of server.received) {
      const url = new URL(received.url, server.baseUrl);
      assert.equal(url.pathname, '/public-client/v1/clickwrap-events');
      assert.equal(url.searchParams.get('endUserId'), 'user 42');
      assert.equal(url.searchParams.get('limit'), '2');
      assert.equal(received.headers['x-app-key'], 'the-app-key');
    }
    assert.equal(new URL(server.received[0].url, server.baseUrl).searchParams.has('nextPageCursor'), false);
  });

  it('goes over the tenant events for an operator, and stops at an empty page', async () => {
    server = await startScriptedServer(() => ({ status: 200, json: { items: [], nextPageCursor: null } }));
    const events = [];
    for await (const event of clientWithEverything().tenantEvents()) events.push(event);
    assert.deepEqual(events, []);
    assert.equal(server.received.length, 1);
    assert.equal(server.received[0].url, '/operator/v1/events');
    assert.equal(server.received[0].headers.authorization, 'Bearer the-operator-token');
  });

  it('refuses a page that points at itself', async () => {
    server = await startScriptedServer(() => ({ status: 200, json: { items: [{ clickwrapEventId: 'e1' }], nextPageCursor: 'same' } }));
    const ids = [];
    const iterate = async () => {
      for await (const event of clientWithEverything().events({ nextPageCursor: 'same' })) ids.push(event.clickwrapEventId);
    };
    await assert.rejects(iterate, /same cursor/);
    assert.deepEqual(ids, ['e1']);
    assert.equal(server.received.length, 1);
  });

  it('throws the error of a page', async () => {
    server = await startScriptedServer(() => ({ status: 400, json: problem(400, 'INVALID_CURSOR') }));
    const iterate = async () => {
      for await (const event of clientWithEverything().events({ nextPageCursor: 'bad' })) assert.fail(event);
    };
    await assert.rejects(iterate, (error) => error instanceof ClickwrapError && error.code === 'INVALID_CURSOR');
  });
});
