// The error every failed answer of the service becomes. The service answers every error as an
// RFC 9457 problem (application/problem+json) with a stable SCREAMING_SNAKE `code`, so callers can
// branch on `error.code` rather than on status numbers or message text.

export class ClickwrapError extends Error {
  /**
   * @param {number} status the HTTP status
   * @param {unknown} body the answer's body, parsed as JSON when it was JSON
   * @param {Response} response
   */
  constructor(status, body, response) {
    const problem = isProblem(body) ? body : null;
    const detail = problem?.detail ?? (typeof body === 'string' && body ? body.slice(0, 200) : response.statusText);
    super(`${status}${problem ? ` ${problem.code}` : ''}: ${detail}`);
    this.name = 'ClickwrapError';
    this.status = status;
    /** The problem's `code` (such as SIGNATURE_ALREADY_VERIFIED), or null if the answer was no problem. */
    this.code = problem?.code ?? null;
    /** The whole problem document, with the members particular to its code (such as clickwrapEventId). */
    this.problem = problem;
    /** Seconds the service asked to wait (Retry-After of a 429 or 503), or null. */
    this.retryAfterSeconds = parseRetryAfter(response.headers.get('Retry-After'));
    this.response = response;
  }
}

function isProblem(body) {
  return typeof body === 'object' && body !== null && typeof body.code === 'string' && typeof body.status === 'number';
}

/**
 * Retry-After as seconds from now: either a number of seconds or an HTTP date (RFC 9110, 10.2.3).
 * Null when absent or unreadable; a date in the past is 0.
 *
 * @param {string | null} value
 * @param {number} [nowMs]
 * @returns {number | null}
 */
export function parseRetryAfter(value, nowMs = Date.now()) {
  if (value === null || value === undefined) return null;
  const text = value.trim();
  if (/^[0-9]+$/.test(text)) return Number(text);
  // An HTTP date names its weekday and month in letters; Date.parse alone would take "-5" too.
  const at = /[A-Za-z]/.test(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(at)) return null;
  return Math.max(0, Math.ceil((at - nowMs) / 1000));
}
