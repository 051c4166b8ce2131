// Retries of answers that say "try again later" (429 Too Many Requests, 503 Service Unavailable),
// as a fetch wrapper that openapi-fetch calls. Only idempotent methods are retried: sending them
// twice does what sending them once does. A POST or PATCH comes back to the caller as a
// ClickwrapError with its retryAfterSeconds, so the caller decides (a repeated verify, for one,
// answers 409 SIGNATURE_ALREADY_VERIFIED naming the event it recorded).
import { parseRetryAfter } from './errors.js';

const RETRIED_STATUSES = new Set([429, 503]);
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

export const DEFAULT_RETRY = Object.freeze({
  /** Retries after the first attempt. */
  maxRetries: 3,
  /** Wait before the first retry when the answer has no Retry-After; doubles each retry. */
  baseDelayMs: 500,
  /** Upper bound of that doubling. */
  maxDelayMs: 30_000,
  /**
   * A Retry-After longer than this is not waited for: the answer goes back to the caller at once
   * (an exhausted event quota, say, asks to wait until the end of the quota period).
   */
  maxRetryAfterSeconds: 60,
});

/**
 * @param {(request: Request) => Promise<Response>} fetchOnce
 * @param {Partial<typeof DEFAULT_RETRY> & { sleep?: (ms: number) => Promise<void> }} [options]
 *   `sleep` waits between attempts (replaceable so that tests can see the waits)
 * @returns {(request: Request) => Promise<Response>}
 */
export function retryingFetch(fetchOnce, options = {}) {
  // An option left undefined ({ maxRetries: config.maxRetries } with nothing configured) takes its
  // default: spread as it is, it would replace the default with undefined, and `retry >= undefined`
  // never ends the retries.
  const given = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
  const settings = { ...DEFAULT_RETRY, ...given };
  const sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  return async (request) => {
    if (!IDEMPOTENT_METHODS.has(request.method)) return fetchOnce(request);
    for (let retry = 0; ; retry += 1) {
      // A clone per attempt: a request's body can be read only once.
      const response = await fetchOnce(request.clone());
      if (!RETRIED_STATUSES.has(response.status) || retry >= settings.maxRetries) return response;
      const waitMs = delayBeforeRetry(response, retry, settings);
      if (waitMs === null) return response;
      await response.body?.cancel();
      await sleep(waitMs);
    }
  };
}

/**
 * How long to wait before retry number `retry` (0 for the first): what Retry-After says, or an
 * exponential backoff with jitter (half of the doubled delay plus a random part of the other half,
 * so that many clients refused at once do not come back at once). Null: do not retry.
 */
function delayBeforeRetry(response, retry, settings) {
  const retryAfter = parseRetryAfter(response.headers.get('Retry-After'));
  if (retryAfter !== null) {
    return retryAfter <= settings.maxRetryAfterSeconds ? retryAfter * 1000 : null;
  }
  const backoff = Math.min(settings.maxDelayMs, settings.baseDelayMs * 2 ** retry);
  return backoff / 2 + Math.random() * (backoff / 2);
}
