// The client: openapi-fetch over the generated operations (schema.d.ts), with the document's
// authentication schemes filled in, retries, errors thrown as ClickwrapError, and iterators over
// the events lists' cursors.
import createClient from 'openapi-fetch';

import { ClickwrapError } from './errors.js';
import { retryingFetch } from './retry.js';

/**
 * The /public-client/v1 operations that take no credentials (the document gives them an empty
 * `security`): they identify the app by its App ID in the query or body. Every other
 * /public-client/v1 operation gets X-APP-ID and X-APP-KEY; every /operator/v1 one the operator
 * token. A test checks this list against docs/openapi.json.
 */
export const PUBLIC_CLIENT_PATHS = Object.freeze([
  '/public-client/v1/clickwrap',
  '/public-client/v1/clickwrap/content',
  '/public-client/v1/clickwrap/customizations',
  '/public-client/v1/signing-certificate',
  '/public-client/v1/ledger-key',
]);

/**
 * @param {object} options
 * @param {string} options.baseUrl the service's address, such as https://consent.example.com
 *   (the operations' paths carry their /public-client/v1 or /operator/v1 prefix)
 * @param {string} [options.appId] with appKey: for the server-side /public-client/v1 operations
 * @param {string} [options.appKey] the App Key: secret, keep it on the server
 * @param {string} [options.operatorToken] for the /operator/v1 operations
 * @param {false | Partial<import('./retry.js').DEFAULT_RETRY>} [options.retry] false: no retries
 * @param {(request: Request) => Promise<Response>} [options.fetch] defaults to globalThis.fetch
 * @param {Record<string, string>} [options.headers] sent with every request
 */
export function createClickwrapClient(options) {
  if (!options || typeof options.baseUrl !== 'string') {
    throw new TypeError('createClickwrapClient needs { baseUrl }');
  }
  const fetchOnce = options.fetch ?? ((request) => globalThis.fetch(request));
  const raw = createClient({
    baseUrl: options.baseUrl,
    headers: options.headers,
    // Redirects are not followed: the service sends none, and fetch would carry X-APP-KEY (it drops
    // only Authorization) and a verify's body to wherever a Location points, then return that
    // host's answer as the service's. A 3xx is a ClickwrapError, as in the Python library.
    redirect: 'manual',
    fetch: options.retry === false ? fetchOnce : retryingFetch(fetchOnce, options.retry),
  });
  raw.use(credentials(options));

  /** Sends one operation; resolves with its parsed answer, or throws ClickwrapError. */
  async function send(method, url, init) {
    const { data, error, response } = await raw.request(method, url, init);
    if (!response.ok) throw new ClickwrapError(response.status, error, response);
    return data;
  }

  /** Every event of a list operation, page after page, following nextPageCursor. */
  async function* eachEvent(path, query = {}) {
    let cursor = query.nextPageCursor;
    do {
      const page = await send('get', path, { params: { query: { ...query, nextPageCursor: cursor } } });
      yield* page.items;
      if (page.nextPageCursor && page.nextPageCursor === cursor) {
        // A page that points at itself would be fetched forever.
        throw new Error(`the service answered the cursor ${cursor} with the same cursor`);
      }
      cursor = page.nextPageCursor;
    } while (cursor);
  }

  return {
    GET: (url, init) => send('get', url, init),
    POST: (url, init) => send('post', url, init),
    PUT: (url, init) => send('put', url, init),
    PATCH: (url, init) => send('patch', url, init),
    DELETE: (url, init) => send('delete', url, init),
    HEAD: (url, init) => send('head', url, init),
    /** The app's verified events (GET /public-client/v1/clickwrap-events), newest first. */
    events: (query) => eachEvent('/public-client/v1/clickwrap-events', query),
    /** The tenant's verified events across its apps (GET /operator/v1/events), newest first. */
    tenantEvents: (query) => eachEvent('/operator/v1/events', query),
    /** The openapi-fetch client underneath: answers as { data, error, response }, nothing thrown. */
    raw,
  };
}

/** Adds the credentials each operation's security scheme asks for, and no others. */
function credentials({ appId, appKey, operatorToken }) {
  return {
    onRequest({ request, schemaPath }) {
      if (schemaPath.startsWith('/operator/v1/')) {
        if (operatorToken !== undefined) request.headers.set('Authorization', `Bearer ${operatorToken}`);
      } else if (schemaPath.startsWith('/public-client/v1/') && !PUBLIC_CLIENT_PATHS.includes(schemaPath)) {
        if (appId !== undefined) request.headers.set('X-APP-ID', appId);
        if (appKey !== undefined) request.headers.set('X-APP-KEY', appKey);
      }
      return request;
    },
  };
}
