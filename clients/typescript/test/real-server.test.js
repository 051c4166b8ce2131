// The operator's whole flow through the library against a running service, plus a webhook
// checked by verifyWebhook, and every answer checked against docs/openapi.json with Ajv.
//
// Needs CLICKWRAP_BASE_URL and CLICKWRAP_OPERATOR_TOKEN (and reads CLICKWRAP_APP_ID,
// CLICKWRAP_APP_KEY, CLICKWRAP_TEMPLATE_ID of `clickwrap-server demo`); skipped without
// CLICKWRAP_BASE_URL. The server must accept a webhook URL on 127.0.0.1
// (CLICKWRAP_WEBHOOK_ALLOW_CIDRS=127.0.0.0/8) and trust the test CA
// (CLICKWRAP_WEBHOOK_CA_FILE=clients/typescript/test/fixtures/webhook-tls/ca.pem).
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';

import { Webhook } from 'standardwebhooks';

import {
  ClickwrapError,
  WebhookVerificationError,
  createClickwrapClient,
  verifyStandardWebhook,
  verifyWebhook,
  webhookId,
} from '../src/index.js';
import { createResponseValidator, recordAnswers } from './support/openapi-validator.js';
import { startWebhookReceiver } from './support/webhook-receiver.js';

const env = process.env;
const baseUrl = env.CLICKWRAP_BASE_URL;
const WEBHOOK_TIMEOUT_MS = 30_000;

describe('against the real server', { skip: !baseUrl && 'CLICKWRAP_BASE_URL is not set' }, () => {
  /** Every answer any client below got, checked against the document at the end. */
  const answers = [];
  const endUserId = `ts-client-${randomUUID()}`;
  const placeholders = { fullName: encodeURIComponent('Ada Lovelace') };
  let receiver;
  let operator;
  let app; // the new app: { appId, appKey, webhookSigningSecret, ... }
  let server; // a client with the new app's credentials
  let templateId;
  let signature;
  let verified;
  let details;

  /** A client of the library whose answers are recorded for the document check. */
  function client(options) {
    const made = createClickwrapClient({ baseUrl, ...options });
    made.raw.use(recordAnswers(answers));
    return made;
  }

  before(async () => {
    assert.ok(env.CLICKWRAP_OPERATOR_TOKEN, 'CLICKWRAP_OPERATOR_TOKEN must be set with CLICKWRAP_BASE_URL');
    receiver = await startWebhookReceiver();
    operator = client({ operatorToken: env.CLICKWRAP_OPERATOR_TOKEN });
  });

  after(() => receiver?.close());

  it('1. creates an app with a webhook URL', async () => {
    app = await operator.POST('/operator/v1/apps', {
      body: { name: `TypeScript client test ${endUserId}`, webhookUrl: receiver.url },
    });
    assert.equal(app.webhookUrl, receiver.url);
    assert.match(app.webhookSigningSecret, /^whsec_/);
    receiver.setSecret(app.webhookSigningSecret);
    server = client({ appId: app.appId, appKey: app.appKey });
  });

  it('2. creates a template', async () => {
    const template = await operator.POST('/operator/v1/templates', {
      body: { name: 'Terms (TypeScript client test)', content: { en: '<p>Terms for {{fullName}}.</p>' } },
    });
    templateId = template.clickwrapTemplateId;
    assert.equal(template.enabled, false);
  });

  it('3. publishes its first version', async () => {
    const version = await operator.POST('/operator/v1/templates/{clickwrapTemplateId}/versions', {
      params: { path: { clickwrapTemplateId: templateId } },
      body: { kind: 'MAJOR' },
    });
    assert.equal(version.clickwrapTemplateVersion, 1);
    assert.equal(version.clickwrapTemplateVersionMinor, 0);
  });

  it('4. enables it', async () => {
    const template = await operator.POST('/operator/v1/templates/{clickwrapTemplateId}/enable', {
      params: { path: { clickwrapTemplateId: templateId } },
    });
    assert.equal(template.enabled, true);
  });

  it('5. links it to the app', async () => {
    const template = await operator.PUT('/operator/v1/templates/{clickwrapTemplateId}/apps', {
      params: { path: { clickwrapTemplateId: templateId } },
      body: { appIds: [app.appId] },
    });
    assert.deepEqual(template.appIds, [app.appId]);
  });

  it('6. records the end user accepting, as the browser SDK does (App ID only)', async () => {
    const browser = client({}); // no credentials: what a browser has
    const view = await browser.GET('/public-client/v1/clickwrap', {
      params: {
        query: {
          appId: app.appId,
          clickwrapTemplateId: templateId,
          endUserId,
          templatePlaceholders: JSON.stringify(placeholders),
        },
      },
    });
    assert.equal(view.acceptanceRequired, true);
    assert.match(view.content, /Terms for Ada Lovelace\./);
    const recorded = await browser.POST('/public-client/v1/clickwrap', {
      body: {
        appId: app.appId,
        clickwrapTemplateId: templateId,
        clickwrapTemplateVersion: view.clickwrapTemplateVersion,
        clickwrapTemplateVersionMinor: view.clickwrapTemplateVersionMinor,
        endUserId,
        action: 'ACCEPTED',
        language: view.language,
        templatePlaceholders: placeholders,
        contentHash: view.contentHash,
        presentedAt: new Date().toISOString(),
        presentation: { mode: 'DIALOG', agreementMode: view.agreementMode, acceptLabel: 'Accept' },
        clientMetadata: { sdk: 'typescript-client-test', screen: { width: 1280, height: 800 } },
      },
    });
    assert.equal(recorded.clickwrapEventStatus, 'UNVERIFIED');
    signature = recorded.serviceSignature;
  });

  it('7. verifies the Signature', async () => {
    verified = await server.POST('/public-client/v1/clickwrap/verify', { body: { serviceSignature: signature } });
    assert.equal(verified.clickwrapEventStatus, 'ACCEPTED');
    assert.equal(verified.endUserId, endUserId);
    assert.equal(verified.clickwrapTemplateId, templateId);
    assert.equal(verified.templatePlaceholders, JSON.stringify({ fullName: 'Ada Lovelace' }));
  });

  it('8. a second verify is a ClickwrapError SIGNATURE_ALREADY_VERIFIED naming the event', async () => {
    const error = await server
      .POST('/public-client/v1/clickwrap/verify', { body: { serviceSignature: signature } })
      .catch((e) => e);
    assert.ok(error instanceof ClickwrapError, String(error));
    assert.equal(error.status, 409);
    assert.equal(error.code, 'SIGNATURE_ALREADY_VERIFIED');
    assert.equal(error.problem?.clickwrapEventId, verified.clickwrapEventId);
  });

  it('9. lists the event (across pages of one)', async () => {
    const listed = [];
    for await (const event of server.events({ endUserId, limit: 1 })) listed.push(event);
    assert.deepEqual(
      listed.map((event) => event.clickwrapEventId),
      [verified.clickwrapEventId],
    );
    assert.equal(listed[0].actionAt, verified.actionAt);
    const tenantWide = [];
    for await (const event of operator.tenantEvents({ endUserId })) tenantWide.push(event.clickwrapEventId);
    assert.deepEqual(tenantWide, [verified.clickwrapEventId]);
  });

  it('10. reads the event details', async () => {
    details = await server.GET('/public-client/v1/clickwrap-events/{clickwrapEventId}/details', {
      params: { path: { clickwrapEventId: verified.clickwrapEventId } },
    });
    assert.equal(details.clickwrapEventStatus, 'ACCEPTED');
    assert.equal(details.contentHash.startsWith('sha256:'), true);
    assert.match(details.content, /Terms for Ada Lovelace\./);
    assert.match(details.certificateSha256 ?? '', /^[0-9a-f]{64}$/);
  });

  it('11. downloads the certificate, whose SHA-256 is the one in the details', async () => {
    const pdf = await server.GET('/public-client/v1/clickwrap-events/{clickwrapEventId}/certificate', {
      params: { path: { clickwrapEventId: verified.clickwrapEventId } },
      parseAs: 'arrayBuffer',
    });
    const bytes = Buffer.from(pdf);
    assert.equal(bytes.subarray(0, 5).toString('latin1'), '%PDF-');
    assert.equal(createHash('sha256').update(bytes).digest('hex'), details.certificateSha256);
  });

  it("12. reads the end user's consent status", async () => {
    const status = await server.GET('/public-client/v1/clickwraps/{endUserId}/status', {
      params: { path: { endUserId }, query: { clickwrapTemplateId: templateId } },
    });
    assert.equal(status.status, 'ACCEPTED');
    const [item] = status.items;
    assert.equal(item?.clickwrapEventId, verified.clickwrapEventId);
    assert.equal(item?.reAcceptanceRequired, false);
  });

  it('13. regenerates the App Key: the old one fails at once, the new one works', async () => {
    const { appKey } = await operator.POST('/operator/v1/apps/{appId}/app-key', {
      params: { path: { appId: app.appId } },
    });
    assert.notEqual(appKey, app.appKey);
    const error = await server.GET('/public-client/v1/clickwrap-templates').catch((e) => e);
    assert.ok(error instanceof ClickwrapError, String(error));
    assert.equal(error.status, 401);
    assert.equal(error.code, 'UNAUTHORIZED');
    const renewed = client({ appId: app.appId, appKey });
    const templates = await renewed.GET('/public-client/v1/clickwrap-templates');
    assert.ok(templates.items.some((template) => template.clickwrapTemplateId === templateId));
  });

  it('receives the CLICKWRAP_EVENT_VERIFIED webhook, which verifyWebhook accepts', async () => {
    const delivery = await receiver.waitFor(
      (received) => received.event?.data?.clickwrapEventId === verified.clickwrapEventId,
      WEBHOOK_TIMEOUT_MS,
      async () => {
        const page = await operator.GET('/operator/v1/apps/{appId}/webhook-deliveries', {
          params: { path: { appId: app.appId } },
        });
        const attempts = page.items.flatMap((d) => d.attemptHistory.map((a) => a.error ?? a.responseStatus));
        const refused = receiver.deliveries.map((received) => received.refusal?.message).filter(Boolean);
        const hint = attempts.includes('TLS')
          ? ' The server does not trust the test receiver: start it with' +
            ' CLICKWRAP_WEBHOOK_CA_FILE=clients/typescript/test/fixtures/webhook-tls/ca.pem.'
          : '';
        return `Attempts: ${JSON.stringify(attempts)}; refused by verifyWebhook: ${JSON.stringify(refused)}.${hint}`;
      },
    );
    // Checked again here, in the open: the raw body, the headers as received, the app's secret.
    const event = verifyWebhook(delivery.body, delivery.headers, app.webhookSigningSecret);
    assert.equal(event.eventType, 'CLICKWRAP_EVENT_VERIFIED');
    const { effectiveAt, ...rest } = event.data;
    assert.ok(effectiveAt);
    assert.deepEqual(rest, {
      clickwrapEventId: verified.clickwrapEventId,
      clickwrapTemplateId: templateId,
      clickwrapTemplateVersion: 1,
      clickwrapTemplateVersionMinor: 0,
      endUserId,
      templatePlaceholders: verified.templatePlaceholders,
      technicalMetadata: verified.technicalMetadata,
      actionAt: verified.actionAt,
      clickwrapEventStatus: 'ACCEPTED',
    });
    // One changed byte, another secret: refused.
    const tampered = Buffer.from(delivery.body);
    tampered[tampered.length - 2] ^= 1;
    assert.throws(
      () => verifyWebhook(tampered, delivery.headers, app.webhookSigningSecret),
      (error) => error instanceof WebhookVerificationError && error.reason === 'SIGNATURE_MISMATCH',
    );
    assert.throws(
      () => verifyWebhook(delivery.body, delivery.headers, 'whsec_not-the-secret'),
      (error) => error instanceof WebhookVerificationError && error.reason === 'SIGNATURE_MISMATCH',
    );
  });

  it('the official standardwebhooks package verifies the delivery and its redelivery, which keeps webhook-id', async () => {
    const isOurs = (received) => received.event?.data?.clickwrapEventId === verified.clickwrapEventId;
    const first = await receiver.waitFor(isOurs, WEBHOOK_TIMEOUT_MS, async () => 'the first delivery did not arrive');
    // The secret exactly as the service showed it, given to the official library, unchanged.
    assert.match(app.webhookSigningSecret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    const official = new Webhook(app.webhookSigningSecret);
    const event = official.verify(first.body, first.headers);
    assert.equal(event.eventType, 'CLICKWRAP_EVENT_VERIFIED');
    assert.equal(event.data.clickwrapEventId, verified.clickwrapEventId);
    assert.ok(!Number.isNaN(Date.parse(event.timestamp)), `timestamp ${event.timestamp}`);
    assert.equal(webhookId(first.headers), `msg_${verified.clickwrapEventId}`);
    assert.equal(first.headers['webhook-timestamp'], first.headers['x-service-timestamp']);
    assert.deepEqual(verifyStandardWebhook(first.body, first.headers, app.webhookSigningSecret), event);
    assert.throws(() => new Webhook(`whsec_${'A'.repeat(43)}=`).verify(first.body, first.headers), /signature/);

    // The operator redelivers it: the same message id and body, verified again by the official library.
    const page = await operator.GET('/operator/v1/apps/{appId}/webhook-deliveries', {
      params: { path: { appId: app.appId } },
    });
    const delivery = page.items.find((item) => item.clickwrapEventId === verified.clickwrapEventId);
    assert.ok(delivery, 'the delivery is in the history');
    const before = receiver.deliveries.filter(isOurs).length;
    await operator.POST('/operator/v1/webhook-deliveries/{deliveryId}/redeliver', {
      params: { path: { deliveryId: delivery.deliveryId } },
    });
    const again = await receiver.waitFor(
      (received) => isOurs(received) && receiver.deliveries.filter(isOurs).indexOf(received) >= before,
      WEBHOOK_TIMEOUT_MS,
      async () => 'the redelivery did not arrive',
    );
    assert.deepEqual(official.verify(again.body, again.headers), event);
    assert.equal(webhookId(again.headers), webhookId(first.headers));
    assert.ok(Buffer.from(again.body).equals(Buffer.from(first.body)), 'the same bytes on every attempt');
  });

  it("serves the demo app's template to the demo app's credentials", { skip: !env.CLICKWRAP_APP_KEY }, async () => {
    const demo = client({ appId: env.CLICKWRAP_APP_ID, appKey: env.CLICKWRAP_APP_KEY });
    const templates = await demo.GET('/public-client/v1/clickwrap-templates');
    assert.ok(templates.items.some((template) => template.clickwrapTemplateId === env.CLICKWRAP_TEMPLATE_ID));
  });

  it('got only answers that match docs/openapi.json', (t) => {
    const validate = createResponseValidator();
    assert.ok(answers.length >= 15, `only ${answers.length} answers recorded`);
    const mismatches = answers.flatMap(validate);
    assert.deepEqual(mismatches, []);
    t.diagnostic(`${answers.length} answers checked against docs/openapi.json`);
  });
});
