// A local HTTPS webhook receiver: it answers 200 to a request that verifyWebhook accepts, 401
// otherwise, and keeps every request it got. Its certificate (fixtures/webhook-tls) is for the
// address 127.0.0.1, signed by a test CA that the server under test must trust
// (CLICKWRAP_WEBHOOK_CA_FILE=clients/typescript/test/fixtures/webhook-tls/ca.pem).
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';

import { verifyWebhook } from '../../src/index.js';

const tls = (name) => readFileSync(new URL(`../fixtures/webhook-tls/${name}`, import.meta.url));

/**
 * @typedef {{ body: Buffer, headers: import('node:http').IncomingHttpHeaders, event?: any, refusal?: Error }} Delivery
 */

export async function startWebhookReceiver() {
  let secret = null;
  /** @type {Delivery[]} */
  const deliveries = [];
  const waiters = [];
  const server = createServer({ key: tls('receiver-key.pem'), cert: tls('receiver-cert.pem') }, async (request, response) => {
    const chunks = [];
    for await (const chunk of request) chunks.push(chunk);
    const delivery = { body: Buffer.concat(chunks), headers: request.headers };
    try {
      delivery.event = verifyWebhook(delivery.body, request.headers, secret ?? '-');
      response.writeHead(200).end();
    } catch (error) {
      delivery.refusal = error;
      response.writeHead(401).end(String(error));
    }
    deliveries.push(delivery);
    waiters.splice(0).forEach((wake) => wake());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());

  return {
    url: `https://127.0.0.1:${port}/webhooks/clickwrap`,
    deliveries,
    /** The app's signing secret, known once the app is made. */
    setSecret(value) {
      secret = value;
    },
    /** The first delivery `matches` accepts; rejects after `timeoutMs` with `explain()`'s text. */
    async waitFor(matches, timeoutMs, explain) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = deliveries.find(matches);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no matching webhook within ${timeoutMs} ms. ${await explain()}`);
        await new Promise((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 250);
        });
      }
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
