// The webhook check against docs/webhooks.md: known answers, the tolerance, and every refusal.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';

import { Webhook } from 'standardwebhooks';

import { WebhookVerificationError, verifyStandardWebhook, verifyWebhook, webhookId } from '../src/index.js';

// The same vector as the service's own signing tests (there computed with Python's hmac module).
const SECRET = 'whsec_000102030405060708090a0b0c0d0e0ff0e1d2c3b4a5968778695a4b3c2d1eff';
const BODY =
  '{"eventType":"CLICKWRAP_EVENT_VERIFIED","data":{"clickwrapEventId":"0190b7c4-2a1e-7cc3-9f00-5d1e2f3a4b5c"}}';
const TIMESTAMP = 1_763_795_703;
const SIGNATURE = 'sha256=9dab4a2d755013665023e72893a4094dd44bb560329d34b6ab62a92ca3af1123';
const AT_TIMESTAMP = TIMESTAMP * 1000;

const headers = (signature = SIGNATURE, timestamp = String(TIMESTAMP)) => ({
  'x-service-signature': signature,
  'x-service-timestamp': timestamp,
});

/** The reason verifyWebhook refuses with. */
function refusal(...args) {
  try {
    verifyWebhook(...args);
  } catch (error) {
    assert.ok(error instanceof WebhookVerificationError, `not a WebhookVerificationError: ${error}`);
    assert.ok(error.message.length > 0);
    return error.reason;
  }
  assert.fail('the webhook was accepted');
}

describe('verifyWebhook', () => {
  it('accepts the known answer and returns the parsed event', () => {
    const event = verifyWebhook(BODY, headers(), SECRET, { now: AT_TIMESTAMP });
    assert.equal(event.eventType, 'CLICKWRAP_EVENT_VERIFIED');
    assert.equal(event.data.clickwrapEventId, '0190b7c4-2a1e-7cc3-9f00-5d1e2f3a4b5c');
  });

  it('takes the body as bytes, headers as fetch Headers in any letter case, now as a Date', () => {
    const fetchHeaders = new Headers({ 'X-Service-Signature': SIGNATURE, 'X-SERVICE-TIMESTAMP': String(TIMESTAMP) });
    const event = verifyWebhook(Buffer.from(BODY), fetchHeaders, SECRET, { now: new Date(AT_TIMESTAMP) });
    assert.equal(event.data.clickwrapEventId, '0190b7c4-2a1e-7cc3-9f00-5d1e2f3a4b5c');
    const mixedCase = { 'X-Service-Signature': SIGNATURE, 'x-SERVICE-timestamp': String(TIMESTAMP) };
    assert.ok(verifyWebhook(new TextEncoder().encode(BODY), mixedCase, SECRET, { now: AT_TIMESTAMP }));
  });

  it('matches an HMAC computed here for another secret, body and time', () => {
    const secret = 'whsec_another';
    const body = '{"eventType":"CLICKWRAP_EVENT_VERIFIED","data":{"endUserId":"ünïcode"}}';
    const timestamp = '1800000000';
    const signature = 'sha256=' + createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
    const event = verifyWebhook(body, headers(signature, timestamp), secret, { now: 1_800_000_000_000 });
    assert.equal(event.data.endUserId, 'ünïcode');
  });

  it('allows 300 seconds either way by default, not 301', () => {
    for (const skew of [-300, 0, 300]) {
      assert.ok(verifyWebhook(BODY, headers(), SECRET, { now: AT_TIMESTAMP + skew * 1000 }), `skew ${skew}`);
    }
    for (const skew of [-301, 301, 86_400]) {
      assert.equal(refusal(BODY, headers(), SECRET, { now: AT_TIMESTAMP + skew * 1000 }), 'STALE_TIMESTAMP');
    }
  });

  it('takes another tolerance', () => {
    assert.ok(verifyWebhook(BODY, headers(), SECRET, { now: AT_TIMESTAMP + 600_000, toleranceSeconds: 600 }));
    assert.equal(
      refusal(BODY, headers(), SECRET, { now: AT_TIMESTAMP + 11_000, toleranceSeconds: 10 }),
      'STALE_TIMESTAMP',
    );
  });

  it('checks the clock by default', () => {
    assert.equal(refusal(BODY, headers(), SECRET), 'STALE_TIMESTAMP', 'the vector is from 2025');
  });

  it('refuses another secret, body or timestamp', () => {
    const now = { now: AT_TIMESTAMP };
    assert.equal(refusal(BODY, headers(), 'whsec_other', now), 'SIGNATURE_MISMATCH');
    // Re-serialised JSON is another body.
    const reserialised = JSON.stringify(JSON.parse(BODY), null, 1);
    assert.equal(refusal(reserialised, headers(), SECRET, now), 'SIGNATURE_MISMATCH');
    assert.equal(refusal(BODY + '\n', headers(), SECRET, now), 'SIGNATURE_MISMATCH');
    // The timestamp is signed: another one, or the same number written otherwise, does not match.
    assert.equal(refusal(BODY, headers(SIGNATURE, String(TIMESTAMP + 1)), SECRET, now), 'SIGNATURE_MISMATCH');
    assert.equal(refusal(BODY, headers(SIGNATURE, `0${TIMESTAMP}`), SECRET, now), 'SIGNATURE_MISMATCH');
  });

  it('refuses malformed and missing headers', () => {
    const now = { now: AT_TIMESTAMP };
    for (const signature of [SIGNATURE.toUpperCase(), SIGNATURE.slice(7), SIGNATURE.slice(0, -1), `${SIGNATURE}0`, '']) {
      assert.equal(refusal(BODY, headers(signature), SECRET, now), 'MALFORMED_SIGNATURE', signature);
    }
    for (const timestamp of ['', '-1', '1e9', ' 1763795703', '1'.repeat(20)]) {
      assert.equal(refusal(BODY, headers(SIGNATURE, timestamp), SECRET, now), 'MALFORMED_TIMESTAMP', timestamp);
    }
    assert.equal(refusal(BODY, { 'x-service-timestamp': String(TIMESTAMP) }, SECRET, now), 'MISSING_HEADER');
    assert.equal(refusal(BODY, { 'x-service-signature': SIGNATURE }, SECRET, now), 'MISSING_HEADER');
    assert.equal(refusal(BODY, new Headers(), SECRET, now), 'MISSING_HEADER');
  });

  it('refuses a header sent twice', () => {
    const now = { now: AT_TIMESTAMP };
    const twice = { ...headers(), 'x-service-signature': [SIGNATURE, SIGNATURE] };
    assert.equal(refusal(BODY, twice, SECRET, now), 'INVALID_HEADER');
    const fetchTwice = new Headers(headers());
    fetchTwice.append('X-Service-Signature', SIGNATURE);
    assert.equal(refusal(BODY, fetchTwice, SECRET, now), 'INVALID_HEADER');
  });

  it('refuses a signed body that is not JSON', () => {
    const body = 'not json';
    const signature = 'sha256=' + createHmac('sha256', SECRET).update(`${TIMESTAMP}.${body}`).digest('hex');
    assert.equal(refusal(body, headers(signature), SECRET, { now: AT_TIMESTAMP }), 'INVALID_BODY');
  });

  it('needs a secret', () => {
    assert.throws(() => verifyWebhook(BODY, headers(), '', { now: AT_TIMESTAMP }), TypeError);
  });
});

describe('verifyStandardWebhook', () => {
  // The service's own known answers (crates/domain/src/webhooks/signing.rs, computed there with
  // Python's hmac and base64): a secret of the first format (hex, 48 bytes of key) and of the new
  // one (base64 of 32 bytes).
  const HEX_SECRET = SECRET;
  const NEW_SECRET = 'whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=';
  const MSG_ID = 'msg_0190b7c4-2a1e-7cc3-9f00-5d1e2f3a4b5c';
  const STANDARD_BODY =
    '{"eventType":"CLICKWRAP_EVENT_VERIFIED","timestamp":"2025-11-22T07:15:03.000Z","data":{"clickwrapEventId":"0190b7c4-2a1e-7cc3-9f00-5d1e2f3a4b5c"}}';
  const KNOWN = {
    [HEX_SECRET]: 'v1,ZF7K2pn//8iqgd6fh2CSW0n5GiDNUoUMCBJItUXzLT0=',
    [NEW_SECRET]: 'v1,v899I3vS7fBR5yxM9Nxpnl5vW6X58ZVQYQsU+fUVBF8=',
  };
  const standardHeaders = (signature, id = MSG_ID, timestamp = String(TIMESTAMP)) => ({
    'webhook-id': id,
    'webhook-timestamp': timestamp,
    'webhook-signature': signature,
  });
  const standardRefusal = (...args) => {
    try {
      verifyStandardWebhook(...args);
    } catch (error) {
      assert.ok(error instanceof WebhookVerificationError, `not a WebhookVerificationError: ${error}`);
      return error.reason;
    }
    assert.fail('the webhook was accepted');
  };

  it('accepts the known answers for both secret formats, and the official library agrees', () => {
    for (const secret of [HEX_SECRET, NEW_SECRET]) {
      const event = verifyStandardWebhook(STANDARD_BODY, standardHeaders(KNOWN[secret]), secret, { now: AT_TIMESTAMP });
      assert.equal(event.eventType, 'CLICKWRAP_EVENT_VERIFIED');
      assert.equal(webhookId(standardHeaders(KNOWN[secret])), MSG_ID);
      const official = new Webhook(secret).sign(MSG_ID, new Date(AT_TIMESTAMP), STANDARD_BODY);
      assert.equal(official, KNOWN[secret], secret);
    }
  });

  it('refuses another secret, id, body or time, and stale or malformed headers', () => {
    const good = standardHeaders(KNOWN[NEW_SECRET]);
    const now = { now: AT_TIMESTAMP };
    assert.equal(standardRefusal(STANDARD_BODY, good, HEX_SECRET, now), 'SIGNATURE_MISMATCH');
    assert.equal(standardRefusal(STANDARD_BODY, { ...good, 'webhook-id': 'msg_other' }, NEW_SECRET, now), 'SIGNATURE_MISMATCH');
    assert.equal(standardRefusal(STANDARD_BODY + ' ', good, NEW_SECRET, now), 'SIGNATURE_MISMATCH');
    assert.equal(standardRefusal(STANDARD_BODY, good, NEW_SECRET, { now: AT_TIMESTAMP + 301_000 }), 'STALE_TIMESTAMP');
    assert.equal(standardRefusal(STANDARD_BODY, { ...good, 'webhook-signature': 'v2,abc' }, NEW_SECRET, now), 'MALFORMED_SIGNATURE');
    const { 'webhook-id': _, ...noId } = good;
    assert.equal(standardRefusal(STANDARD_BODY, noId, NEW_SECRET, now), 'MISSING_HEADER');
    assert.throws(() => verifyStandardWebhook(STANDARD_BODY, good, 'whsec_not base64!', now), TypeError);
  });

  it('accepts when any one of several signatures matches', () => {
    const both = `${KNOWN[HEX_SECRET]} ${KNOWN[NEW_SECRET]}`;
    assert.ok(verifyStandardWebhook(STANDARD_BODY, standardHeaders(both), NEW_SECRET, { now: AT_TIMESTAMP }));
  });
});
