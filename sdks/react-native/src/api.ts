/**
 * Calls to the service's public client routes (App ID only), parallel to `call()` in the web SDK
 * (crates/web-sdk/clickwrap.js): the same retry rule and the same error mapping.
 */
import { ClickwrapError, Problem, answerError, isTemporary } from './errors';

export const API_PATH = '/public-client/v1';
/** The wait before the one retry, unless the service sends Retry-After. */
const RETRY_DELAY_MS = 400;
/** A Retry-After longer than this is not waited for: the error goes to the caller. */
const RETRY_AFTER_MAX_S = 10;

export type Query = Record<string, string | null | undefined>;

/** `baseUrl` as given to initialize(): an origin, or an origin with /public-client/v1. */
export function apiBase(baseUrl: string): string {
  let base = baseUrl.trim().replace(/\/+$/, '');
  if (!base.endsWith(API_PATH)) base += API_PATH;
  return base;
}

/** The query string; built by hand because React Native's URLSearchParams is incomplete. */
export function queryString(query: Query): string {
  return Object.keys(query)
    .filter((key) => query[key] != null)
    .map((key) => `${encodeURIComponent(key)}=${encodeURIComponent(query[key] as string)}`)
    .join('&');
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * One call to the service. `retries` is how many times a temporary failure (network error, 5xx,
 * 429) is tried again: 1 for loads, 0 for recording an action (the dialog lets the user retry).
 */
export async function call<T>(api: string, method: 'GET' | 'POST', path: string, query: Query | null, body: unknown, retries: number): Promise<T> {
  let url = api + path;
  if (query) url += `?${queryString(query)}`;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const init = { method, headers, body: body === undefined ? undefined : JSON.stringify(body) };

  for (let left = retries; ; left -= 1) {
    let response: Response;
    try {
      response = await fetch(url, init);
    } catch (cause) {
      if (left > 0) {
        await delay(RETRY_DELAY_MS);
        continue;
      }
      throw new ClickwrapError('ERR_SERVICE_NETWORK', 'the service could not be reached', { cause });
    }
    const text = await response.text();
    let data: unknown = null;
    try {
      data = text ? JSON.parse(text) : null;
    } catch {
      data = null;
    }
    if (response.ok) return data as T;
    const error = answerError(response.status, data as Problem | null);
    const after = Number(response.headers.get('retry-after')) || 0;
    if (left > 0 && isTemporary(error) && after <= RETRY_AFTER_MAX_S) {
      await delay(after > 0 ? after * 1000 : RETRY_DELAY_MS);
      continue;
    }
    throw error;
  }
}
