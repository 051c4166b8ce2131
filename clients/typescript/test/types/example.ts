// A backend's use of the library, type-checked with `tsc --strict` (npm run typecheck) so that
// the published types are proven usable without casts. It is compiled, not run.
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';

import {
  ClickwrapError,
  WebhookVerificationError,
  WEBHOOK_EVENT_TYPES,
  createClickwrapClient,
  verifyStandardWebhook,
  verifyWebhook,
  webhookId,
  type ClickwrapEvent,
  type EventDetails,
  type VerifiedEvent,
  type WebhookEvent,
  type WebhookEventType,
} from '@clickwrap/server';

const client = createClickwrapClient({
  baseUrl: 'https://consent.example.com',
  appId: 'the App ID',
  appKey: 'the App Key',
  retry: { maxRetries: 2 },
});

// The frontend sent a Signature: verify it, once.
export async function verify(serviceSignature: string): Promise<string> {
  try {
    const event: VerifiedEvent = await client.POST('/public-client/v1/clickwrap/verify', {
      body: { serviceSignature },
    });
    const status: 'ACCEPTED' | 'DECLINED' = event.clickwrapEventStatus;
    console.log(status, event.endUserId, event.clickwrapTemplateVersion + 1);
    return event.clickwrapEventId;
  } catch (error) {
    if (error instanceof ClickwrapError && error.code === 'SIGNATURE_ALREADY_VERIFIED') {
      const eventId = error.problem?.['clickwrapEventId'];
      if (typeof eventId === 'string') return eventId;
    }
    throw error;
  }
}

export async function evidence(clickwrapEventId: string): Promise<boolean> {
  const details: EventDetails = await client.GET('/public-client/v1/clickwrap-events/{clickwrapEventId}/details', {
    params: { path: { clickwrapEventId } },
  });
  const pdf: ArrayBuffer = await client.GET('/public-client/v1/clickwrap-events/{clickwrapEventId}/certificate', {
    params: { path: { clickwrapEventId } },
    parseAs: 'arrayBuffer',
  });
  const sha256 = createHash('sha256').update(new Uint8Array(pdf)).digest('hex');
  return details.certificateSha256 === sha256;
}

export async function accepted(endUserId: string): Promise<boolean> {
  const status = await client.GET('/public-client/v1/clickwraps/{endUserId}/status', {
    params: { path: { endUserId } },
  });
  return status.status === 'ACCEPTED' && status.items.every((item) => !item.reAcceptanceRequired);
}

export async function declinedThisMonth(): Promise<ClickwrapEvent[]> {
  const events: ClickwrapEvent[] = [];
  for await (const event of client.events({ clickwrapEventStatus: 'DECLINED', from: '2026-11-01T00:00:00.000Z' })) {
    events.push(event);
  }
  return events;
}

// What the browser SDK sends, with free-form client metadata (no cast needed).
export async function recordAsTheSdkDoes(appId: string, clickwrapTemplateId: string): Promise<string> {
  const view = await client.GET('/public-client/v1/clickwrap', {
    params: { query: { appId, clickwrapTemplateId, endUserId: 'user-42' } },
  });
  const recorded = await client.POST('/public-client/v1/clickwrap', {
    body: {
      appId,
      clickwrapTemplateId,
      clickwrapTemplateVersion: view.clickwrapTemplateVersion,
      clickwrapTemplateVersionMinor: view.clickwrapTemplateVersionMinor,
      endUserId: 'user-42',
      action: 'ACCEPTED',
      language: view.language,
      contentHash: view.contentHash,
      presentedAt: new Date().toISOString(),
      presentation: { mode: 'DIALOG', agreementMode: view.agreementMode, acceptLabel: 'Accept' },
      clientMetadata: { sdk: 'example', screen: { width: 1280, height: 800 } },
    },
  });
  return recorded.serviceSignature;
}

export async function operatorSetUp(): Promise<string> {
  const operator = createClickwrapClient({ baseUrl: 'https://consent.example.com', operatorToken: 'token' });
  const app = await operator.POST('/operator/v1/apps', { body: { name: 'Shop' } });
  const { appKey } = await operator.POST('/operator/v1/apps/{appId}/app-key', { params: { path: { appId: app.appId } } });
  return `${app.webhookSigningSecret} ${appKey}`;
}

// A webhook receiver with node:http.
createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    try {
      const event = verifyWebhook(Buffer.concat(chunks), request.headers, 'whsec_…');
      const eventId: string = event.data.clickwrapEventId;
      console.log(event.eventType, eventId);
      response.writeHead(200).end();
    } catch (error) {
      const reason = error instanceof WebhookVerificationError ? error.reason : 'INVALID_BODY';
      response.writeHead(401).end(reason);
    }
  });
});

// Any event type, checked the Standard Webhooks way and narrowed on its eventType.
export function onAnyEvent(body: Buffer, headers: Record<string, string | string[] | undefined>): string {
  const event: WebhookEvent = verifyStandardWebhook(body, headers, 'whsec_…');
  const id: string = webhookId(headers);
  const when: string = event.timestamp;
  switch (event.eventType) {
    case 'CLICKWRAP_EVENT_VERIFIED':
      return `${id} ${when} ${event.data.clickwrapEventId}`;
    case 'TEMPLATE_VERSION_EFFECTIVE':
      return `${event.data.requireReacceptance} ${event.data.acceptBy ?? 'no deadline'}`;
    case 'REACCEPTANCE_DEADLINE_PASSED':
      return String(event.data.outstanding);
    case 'END_USER_ERASED':
      return event.data.endUserId;
    case 'CLICKWRAP_EVENT_WITHDRAWN':
      return event.data.withdraws;
    case 'WEBHOOK_TEST':
      // @ts-expect-error: a test event has no clickwrapEventId
      return event.data.clickwrapEventId;
  }
}
export const everyType: readonly WebhookEventType[] = WEBHOOK_EVENT_TYPES;

// The types refuse what the service would refuse.
export async function mistakes(): Promise<void> {
  // @ts-expect-error: serviceSignature is required
  await client.POST('/public-client/v1/clickwrap/verify', { body: {} });
  // @ts-expect-error: no such operation
  await client.GET('/public-client/v1/no-such-path');
  // @ts-expect-error: the status filter is ACCEPTED or DECLINED
  client.events({ clickwrapEventStatus: 'MAYBE' });
}
// The answers are typed, not `any`.
export async function notAny(): Promise<void> {
  // @ts-expect-error: verify answers a VerifiedEvent
  const wrong: number = await client.POST('/public-client/v1/clickwrap/verify', {
    body: { serviceSignature: 'a Signature' },
  });
  // @ts-expect-error: a PDF read with parseAs 'arrayBuffer' is an ArrayBuffer
  const text: string = await client.GET('/public-client/v1/clickwrap-events/{clickwrapEventId}/certificate', {
    params: { path: { clickwrapEventId: 'an event id' } },
    parseAs: 'arrayBuffer',
  });
  console.log(wrong, text);
}
