// Checking a webhook from the service, as docs/webhooks.md describes it. Every delivery is signed
// twice over the same raw body; check either signature.
//
// verifyWebhook, the spec's scheme: X-Service-Signature = "sha256=" + lowercase hex HMAC-SHA256 of
// "<X-Service-Timestamp>.<raw body>", keyed with the app's webhook signing secret as text (the
// "whsec_" prefix included).
//
// verifyStandardWebhook, Standard Webhooks v1 (what the official `standardwebhooks` libraries
// check): webhook-signature = "v1," + base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw
// body>", keyed with the secret's text after "whsec_", base64-decoded; several signatures may be
// given, separated by spaces. webhook-id is the message id: the idempotency key.
//
// Both compare in constant time, with the timestamp at most 300 seconds from the receiver's clock
// either way.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Service-Signature';
export const TIMESTAMP_HEADER = 'X-Service-Timestamp';
export const STANDARD_ID_HEADER = 'webhook-id';
export const STANDARD_TIMESTAMP_HEADER = 'webhook-timestamp';
export const STANDARD_SIGNATURE_HEADER = 'webhook-signature';
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** Every event type the service sends (only CLICKWRAP_EVENT_VERIFIED today). */
export const WEBHOOK_EVENT_TYPES = Object.freeze([
  'CLICKWRAP_EVENT_VERIFIED',
  'CLICKWRAP_EVENT_WITHDRAWN',
  'TEMPLATE_VERSION_EFFECTIVE',
  'REACCEPTANCE_DEADLINE_PASSED',
  'END_USER_ERASED',
  'WEBHOOK_TEST',
]);

const SECRET_PREFIX = 'whsec_';
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const STANDARD_SIGNATURE = /^v1,[A-Za-z0-9+/]{43}=$/;

const SIGNATURE_FORMAT = /^sha256=[0-9a-f]{64}$/;
// At most 19 digits, as the service's own check: anything longer is not a Unix time in seconds.
const TIMESTAMP_FORMAT = /^[0-9]{1,19}$/;

/** Why a received webhook was refused: answer it 400 or 401 and do not process it. */
export class WebhookVerificationError extends Error {
  /**
   * @param {string} reason one of MISSING_HEADER, INVALID_HEADER, MALFORMED_SIGNATURE,
   *   MALFORMED_TIMESTAMP, STALE_TIMESTAMP, SIGNATURE_MISMATCH, INVALID_BODY
   * @param {string} message
   */
  constructor(reason, message) {
    super(message);
    this.name = 'WebhookVerificationError';
    this.reason = reason;
  }
}

/**
 * Checks a webhook's signature and timestamp, then parses its body.
 *
 * @param {string | Uint8Array} body the raw body exactly as received (not re-serialised JSON)
 * @param {Headers | Record<string, string | string[] | undefined>} headers the request's headers,
 *   a fetch Headers or a plain object such as Node's `request.headers` (names in any letter case)
 * @param {string} secret the app's webhook signing secret, as shown (`whsec_…`)
 * @param {{ toleranceSeconds?: number, now?: Date | number }} [options] `now` is the receiver's
 *   clock (a Date, or milliseconds since the epoch as Date.now() gives)
 * @returns the parsed event, `{ eventType, timestamp, data }`
 * @throws {WebhookVerificationError} when anything is wrong
 */
export function verifyWebhook(body, headers, secret, options = {}) {
  const toleranceSeconds = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const nowMs = options.now === undefined ? Date.now() : Number(options.now);
  if (typeof secret !== 'string' || secret === '') {
    throw new TypeError('verifyWebhook needs the webhook signing secret');
  }
  const rawBody = typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body);

  const signature = singleHeader(headers, SIGNATURE_HEADER);
  const timestamp = singleHeader(headers, TIMESTAMP_HEADER);
  if (!SIGNATURE_FORMAT.test(signature)) {
    throw new WebhookVerificationError(
      'MALFORMED_SIGNATURE',
      `${SIGNATURE_HEADER} is not sha256= followed by 64 lowercase hex digits`,
    );
  }
  if (!TIMESTAMP_FORMAT.test(timestamp)) {
    throw new WebhookVerificationError('MALFORMED_TIMESTAMP', `${TIMESTAMP_HEADER} is not a Unix time in seconds`);
  }
  // Freshness first, so that a replayed request is refused as such whatever its signature.
  checkFresh(TIMESTAMP_HEADER, timestamp, nowMs, toleranceSeconds);

  // The MAC covers the timestamp header's text as received, then a dot, then the raw body.
  const expected = Buffer.from(
    'sha256=' + createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex'),
  );
  // Both are 71 ASCII bytes here (the format was checked), as timingSafeEqual requires.
  if (!timingSafeEqual(expected, Buffer.from(signature))) {
    throw new WebhookVerificationError(
      'SIGNATURE_MISMATCH',
      `${SIGNATURE_HEADER} does not match this body and secret (was the body re-serialised, or the secret rotated?)`,
    );
  }

  return parseBody(rawBody);
}

/**
 * Checks a webhook's Standard Webhooks signature (webhook-id, webhook-timestamp,
 * webhook-signature), as the official `standardwebhooks` libraries do, then parses its body.
 *
 * @param {string | Uint8Array} body the raw body exactly as received (not re-serialised JSON)
 * @param {Headers | Record<string, string | string[] | undefined>} headers the request's headers
 * @param {string} secret the app's webhook signing secret, exactly as shown (`whsec_…`); both of
 *   its formats work (base64, and the 64 hex digits of secrets made before)
 * @param {{ toleranceSeconds?: number, now?: Date | number }} [options]
 * @returns the parsed event, `{ eventType, timestamp, data }`
 * @throws {WebhookVerificationError} when anything is wrong
 */
export function verifyStandardWebhook(body, headers, secret, options = {}) {
  const toleranceSeconds = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const nowMs = options.now === undefined ? Date.now() : Number(options.now);
  const key = standardKey(secret);
  const rawBody = typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body);

  const id = singleHeader(headers, STANDARD_ID_HEADER);
  const timestamp = singleHeader(headers, STANDARD_TIMESTAMP_HEADER);
  const signatures = singleHeader(headers, STANDARD_SIGNATURE_HEADER)
    .split(' ')
    .filter((signature) => STANDARD_SIGNATURE.test(signature));
  if (signatures.length === 0) {
    throw new WebhookVerificationError(
      'MALFORMED_SIGNATURE',
      `${STANDARD_SIGNATURE_HEADER} has no v1, followed by the base64 of 32 bytes`,
    );
  }
  if (!TIMESTAMP_FORMAT.test(timestamp)) {
    throw new WebhookVerificationError('MALFORMED_TIMESTAMP', `${STANDARD_TIMESTAMP_HEADER} is not a Unix time in seconds`);
  }
  checkFresh(STANDARD_TIMESTAMP_HEADER, timestamp, nowMs, toleranceSeconds);

  const expected = Buffer.from(
    'v1,' + createHmac('sha256', key).update(`${id}.${timestamp}.`).update(rawBody).digest('base64'),
  );
  // Every candidate is compared (each 47 ASCII bytes, as the format check made sure), so the time
  // taken does not say which one matched.
  let matched = false;
  for (const signature of signatures) {
    matched = timingSafeEqual(expected, Buffer.from(signature)) || matched;
  }
  if (!matched) {
    throw new WebhookVerificationError(
      'SIGNATURE_MISMATCH',
      `${STANDARD_SIGNATURE_HEADER} does not match this id, timestamp, body and secret`,
    );
  }
  return parseBody(rawBody);
}

/**
 * The message id (webhook-id) of a webhook: the same on every attempt and every redelivery of the
 * message, so the receiver's idempotency key.
 *
 * @param {Headers | Record<string, string | string[] | undefined>} headers
 */
export function webhookId(headers) {
  return singleHeader(headers, STANDARD_ID_HEADER);
}

/** The HMAC key of the Standard Webhooks signature: the text after whsec_, base64-decoded. */
function standardKey(secret) {
  if (typeof secret !== 'string' || secret === '') {
    throw new TypeError('verifyStandardWebhook needs the webhook signing secret');
  }
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  if (encoded === '' || !BASE64.test(encoded)) {
    throw new TypeError('the webhook signing secret is not whsec_ followed by base64');
  }
  return Buffer.from(encoded, 'base64');
}

function checkFresh(name, timestamp, nowMs, toleranceSeconds) {
  const skewSeconds = Math.abs(nowMs / 1000 - Number(timestamp));
  if (!(skewSeconds <= toleranceSeconds)) {
    throw new WebhookVerificationError(
      'STALE_TIMESTAMP',
      `${name} is ${Math.round(skewSeconds)} s from this clock (at most ${toleranceSeconds} s allowed)`,
    );
  }
}

function parseBody(rawBody) {
  try {
    return JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw new WebhookVerificationError('INVALID_BODY', 'the signed body is not JSON');
  }
}

/** The one value of a header, whatever the letter case of its name; refuses a repeated header. */
function singleHeader(headers, name) {
  /** @type {unknown[]} */
  let values;
  if (typeof headers?.get === 'function') {
    const joined = headers.get(name);
    // A fetch Headers joins repeated values with ", ", which no well-formed value contains.
    values = joined === null ? [] : joined.split(', ');
  } else {
    const wanted = name.toLowerCase();
    values = Object.keys(headers ?? {})
      .filter((key) => key.toLowerCase() === wanted && headers[key] !== undefined)
      .flatMap((key) => headers[key]);
  }
  if (values.length === 0) {
    throw new WebhookVerificationError('MISSING_HEADER', `the ${name} header is missing`);
  }
  if (values.length > 1) {
    throw new WebhookVerificationError('INVALID_HEADER', `the ${name} header is present more than once`);
  }
  return String(values[0]);
}
