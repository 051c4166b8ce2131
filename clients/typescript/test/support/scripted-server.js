// A local HTTP server that answers from a script and records what it was sent: the service's
// side of the unit tests of retries, credentials, errors and pagination.
import { once } from 'node:events';
import { createServer } from 'node:http';

/**
 * @typedef {{ status: number, headers?: Record<string, string>, json?: unknown, text?: string }} Answer
 * @typedef {{ method: string, url: string, headers: import('node:http').IncomingHttpHeaders, body: string }} Received
 */

/**
 * Starts a server answering with `answer(received, index)`; stop it with `close()`.
 * @param {(received: Received, index: number) => Answer} answer
 */
export async function startScriptedServer(answer) {
  /** @type {Received[]} */
  const received = [];
  const server = createServer(async (request, response) => {
    const chunks = [];
    for await (const chunk of request) chunks.push(chunk);
    const entry = { method: request.method, url: request.url, headers: request.headers, body: Buffer.concat(chunks).toString() };
    received.push(entry);
    const { status, headers = {}, json, text } = answer(entry, received.length - 1);
    if (json !== undefined) {
      const type = status >= 400 ? 'application/problem+json' : 'application/json';
      response.writeHead(status, { 'content-type': type, ...headers }).end(JSON.stringify(json));
    } else {
      response.writeHead(status, headers).end(text ?? '');
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** A problem document as the service writes them. */
export function problem(status, code, extra = {}) {
  return { type: 'about:blank', title: 'Error', status, detail: `${code} happened`, code, message: `${code} happened`, ...extra };
}
