/**
 * The SDK against a real clickwrap-server: consent through the dialog, verify on the backend with
 * the App Key, the end user's status ACCEPTED, and a second show() that needs no dialog.
 *
 * Runs when CLICKWRAP_BASE_URL is set (with CLICKWRAP_APP_ID, CLICKWRAP_APP_KEY and
 * CLICKWRAP_TEMPLATE_ID: an app, its key, and an enabled template with an Effective version that is
 * available to it, as `clickwrap-server demo` prints them); skipped otherwise. Uses Node's fetch.
 */
import { randomUUID } from 'crypto';
import { fireEvent, render, screen } from '@testing-library/react-native';

import { ClickwrapClient, ClickwrapProvider } from '../src';
import { inAct, layOut, scrollTo } from './helpers';

const BASE_URL = process.env.CLICKWRAP_BASE_URL;
const describeWithServer = BASE_URL ? describe : describe.skip;

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required with CLICKWRAP_BASE_URL`);
  return value;
}

describeWithServer('against a real clickwrap-server', () => {
  const api = `${(BASE_URL ?? '').replace(/\/+$/, '').replace(/\/public-client\/v1$/, '')}/public-client/v1`;
  let appId: string;
  let appKey: string;
  let templateId: string;

  beforeAll(() => {
    appId = required('CLICKWRAP_APP_ID');
    appKey = required('CLICKWRAP_APP_KEY');
    templateId = required('CLICKWRAP_TEMPLATE_ID');
  });

  /** What the operator's backend does, with the App Key that never reaches the app. */
  async function backend(method: string, path: string, body?: unknown) {
    const response = await fetch(api + path, {
      method,
      headers: { 'X-APP-ID': appId, 'X-APP-KEY': appKey, 'content-type': 'application/json', accept: 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any };
  }

  /** Shows the dialog and acts in it as a user would, whichever mode the template has. */
  async function consent(endUserId: string, action: 'ACCEPTED' | 'DECLINED') {
    const shown = ClickwrapClient.show({ clickwrapTemplateId: templateId, endUserId, templatePlaceholders: { fullName: 'Ada Lovelace' } });
    await screen.findByTestId('clickwrap-dialog', {}, { timeout: 10000 });
    if (action === 'DECLINED') {
      fireEvent.press(screen.getByTestId('clickwrap-decline'));
    } else {
      if (screen.queryByRole('checkbox')) {
        fireEvent.press(screen.getByRole('checkbox'));
      } else {
        layOut(400, 4000);
        scrollTo(3600, 400, 4000);
      }
      fireEvent.press(screen.getByTestId('clickwrap-accept'));
    }
    return inAct(shown);
  }

  test('consent, backend verify, status ACCEPTED, then no dialog and a null Signature', async () => {
    ClickwrapClient.initialize(appId, { baseUrl: BASE_URL as string, locale: 'en' });
    render(<ClickwrapProvider />);
    const endUserId = `rn-sdk-${randomUUID()}`;

    expect(screen.queryByTestId('clickwrap-dialog')).toBeNull();
    const first = await consent(endUserId, 'ACCEPTED');
    expect(first.isAlreadyAccepted).toBe(false);
    expect(first.action).toBe('ACCEPTED');
    expect(typeof first.serviceSignature).toBe('string');
    expect(screen.queryByTestId('clickwrap-dialog')).toBeNull();

    const verified = await backend('POST', '/clickwrap/verify', { serviceSignature: first.serviceSignature });
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ clickwrapEventStatus: 'ACCEPTED', endUserId, clickwrapTemplateId: templateId, clickwrapEventId: first.clickwrapEventId });
    expect(JSON.parse(verified.body.templatePlaceholders)).toMatchObject({ fullName: 'Ada Lovelace' });
    // The service keeps what the SDK reported under `client`, beside what it saw itself.
    const metadata = JSON.parse(verified.body.technicalMetadata);
    expect(metadata.client).toMatchObject({ sdk: 'react-native/1.0.0', platform: expect.any(String), timezone: expect.any(String) });

    const details = await backend('GET', `/clickwrap-events/${first.clickwrapEventId}/details`);
    expect(details.status).toBe(200);
    expect(details.body.presentation).toMatchObject({ mode: 'DIALOG', acceptLabel: expect.any(String) });
    expect(details.body.content).toContain('Ada Lovelace');

    const status = await backend('GET', `/clickwraps/${encodeURIComponent(endUserId)}/status?clickwrapTemplateId=${templateId}`);
    expect(status.status).toBe(200);
    expect(status.body.status).toBe('ACCEPTED');

    const second = await inAct(ClickwrapClient.show({ clickwrapTemplateId: templateId, endUserId }));
    expect(second).toMatchObject({ serviceSignature: null, isAlreadyAccepted: true, isCanceled: false, action: null });
    expect(screen.queryByTestId('clickwrap-dialog')).toBeNull();

    // What the user accepted, read-only, as it was shown.
    const accepted = ClickwrapClient.showAcceptedContent({ clickwrapTemplateId: templateId, endUserId });
    await screen.findByTestId('clickwrap-dialog');
    expect(screen.queryByTestId('clickwrap-accept')).toBeNull();
    fireEvent.press(screen.getByTestId('clickwrap-done'));
    expect((await inAct(accepted)).content).toBe(details.body.content);
  });

  test('a decline is recorded as DECLINED, and the dialog comes again', async () => {
    ClickwrapClient.initialize(appId, { baseUrl: BASE_URL as string });
    render(<ClickwrapProvider />);
    const endUserId = `rn-sdk-${randomUUID()}`;
    const declined = await consent(endUserId, 'DECLINED');
    const verified = await backend('POST', '/clickwrap/verify', { serviceSignature: declined.serviceSignature });
    expect(verified.body.clickwrapEventStatus).toBe('DECLINED');
    const again = await consent(endUserId, 'ACCEPTED');
    expect(again.isAlreadyAccepted).toBe(false);
  });

  test('an unknown template is ERR_SERVICE_TEMPLATE_NOT_FOUND', async () => {
    ClickwrapClient.initialize(appId, { baseUrl: BASE_URL as string });
    render(<ClickwrapProvider />);
    await expect(ClickwrapClient.show({ clickwrapTemplateId: randomUUID(), endUserId: 'rn-sdk-nobody' }))
      .rejects.toMatchObject({ code: 'ERR_SERVICE_TEMPLATE_NOT_FOUND', status: 404 });
  });
});
