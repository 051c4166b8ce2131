// The real-server suite's check of answers against docs/openapi.json can fail: it names a
// missing member, an undeclared status and an undeclared media type.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { createResponseValidator } from './support/openapi-validator.js';

const validate = createResponseValidator();
const CERTIFICATE = '/public-client/v1/clickwrap-events/{clickwrapEventId}/certificate';
const conflict = {
  type: 'about:blank',
  title: 'Conflict',
  status: 409,
  detail: 'already verified',
  message: 'already verified',
  code: 'SIGNATURE_ALREADY_VERIFIED',
};
const verifyAnswer = (body) => ({
  method: 'POST',
  schemaPath: '/public-client/v1/clickwrap/verify',
  status: 409,
  contentType: 'application/problem+json',
  body: JSON.stringify(body),
});

describe('the response validator', () => {
  it('accepts an answer as the document declares it', () => {
    const eventId = '0192f3c4-5d6e-7f80-9a1b-2c3d4e5f6a7b';
    assert.deepEqual(validate(verifyAnswer({ ...conflict, clickwrapEventId: eventId })), []);
    const pdf = { method: 'GET', schemaPath: CERTIFICATE, status: 200, contentType: 'application/pdf', body: '%PDF-1.7' };
    assert.deepEqual(validate(pdf), []);
  });

  it('names what does not match', () => {
    const [missing] = validate(verifyAnswer(conflict));
    assert.match(missing, /clickwrapEventId/);
    const badCode = validate(verifyAnswer({ ...conflict, code: 'NOT_A_CODE', clickwrapEventId: 'x' }));
    assert.ok(badCode.some((mismatch) => mismatch.includes('/code')), badCode.join('\n'));
    assert.ok(badCode.some((mismatch) => mismatch.includes('/clickwrapEventId')), badCode.join('\n'));
    const [status] = validate({ method: 'GET', schemaPath: CERTIFICATE, status: 418, contentType: null, body: '' });
    assert.match(status, /status not declared/);
    const html = { method: 'GET', schemaPath: CERTIFICATE, status: 200, contentType: 'text/html', body: '<p>' };
    assert.match(validate(html)[0], /media type text\/html not declared/);
    const unknown = { method: 'GET', schemaPath: '/nowhere', status: 200, contentType: null, body: '' };
    assert.match(validate(unknown)[0], /no such operation/);
  });
});
