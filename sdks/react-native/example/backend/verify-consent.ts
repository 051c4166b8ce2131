/**
 * The backend half (Node 20+, no framework): the app posts {endUserId, serviceSignature}; this
 * verifies the Signature with the App Key, which never leaves the server, and checks that the
 * consent is the one expected before the account relies on it.
 */
import { createServer } from 'node:http';

const SERVICE = process.env.CLICKWRAP_BASE_URL ?? 'https://consent.example.com';
const APP_ID = process.env.CLICKWRAP_APP_ID ?? '';
const APP_KEY = process.env.CLICKWRAP_APP_KEY ?? '';
const TERMS_TEMPLATE_ID = '0190a0b0-0000-7000-8000-000000000001';

interface VerifiedEvent {
  clickwrapEventStatus: 'ACCEPTED' | 'DECLINED';
  clickwrapEventId: string;
  clickwrapTemplateId: string;
  clickwrapTemplateVersion: number;
  clickwrapTemplateVersionMinor: number;
  endUserId: string;
  actionAt: string;
}

export async function verifyConsent(endUserId: string, serviceSignature: string): Promise<VerifiedEvent> {
  const response = await fetch(`${SERVICE}/public-client/v1/clickwrap/verify`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-APP-ID': APP_ID, 'X-APP-KEY': APP_KEY },
    body: JSON.stringify({ serviceSignature }),
    // The App Key goes to the service only: fetch would send it on to wherever a redirect points.
    redirect: 'error',
  });
  if (!response.ok) {
    // 400 INVALID_SIGNATURE / SIGNATURE_EXPIRED, 403 SIGNATURE_APP_MISMATCH, 409 SIGNATURE_ALREADY_VERIFIED.
    const problem = (await response.json()) as { code?: string };
    throw new Error(`verify failed: ${response.status} ${problem.code ?? ''}`);
  }
  const event = (await response.json()) as VerifiedEvent;
  if (event.endUserId !== endUserId || event.clickwrapTemplateId !== TERMS_TEMPLATE_ID) {
    throw new Error('the Signature is for another user or agreement');
  }
  return event;
}

createServer((request, response) => {
  if (request.method !== 'POST' || request.url !== '/consents') {
    response.writeHead(404).end();
    return;
  }
  let body = '';
  request.on('data', (chunk: Buffer) => {
    body += chunk.toString('utf8');
  });
  request.on('end', () => {
    let consent: { endUserId: string; serviceSignature: string };
    try {
      consent = JSON.parse(body);
    } catch {
      response.writeHead(400).end(); // not JSON: refused, rather than an exception that stops the server
      return;
    }
    const { endUserId, serviceSignature } = consent;
    verifyConsent(endUserId, serviceSignature).then(
      (event) => {
        // Store event.clickwrapEventId with the account: the certificate is at
        // GET /public-client/v1/clickwrap-events/{clickwrapEventId}/certificate (same headers).
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: event.clickwrapEventStatus }));
      },
      () => response.writeHead(400).end(),
    );
  });
}).listen(3000);
