/**
 * ClickwrapClient.show() with the dialog in <ClickwrapProvider>: both agreement modes, accept,
 * decline, close, disableClose, Android's back button, the retry of a load and of a save, and what
 * the SDK sends with an action.
 */
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react-native';
import { Platform } from 'react-native';

import { ClickwrapClient, ClickwrapProvider } from '../src';
import { APP_ID, BASE_URL, TEMPLATE_ID, fakeService } from './fake-service';
import { inAct, isDisabled, layOut, pressBack, scrollTo, settle } from './helpers';

const USER = 'user-42';

function start(options = {}, request = {}) {
  return ClickwrapClient.show({ clickwrapTemplateId: TEMPLATE_ID, endUserId: USER, ...request }, options);
}

beforeEach(() => {
  ClickwrapClient.initialize(APP_ID, { baseUrl: BASE_URL, locale: null });
});

describe('scroll mode', () => {
  test('Accept waits for the end of the agreement, then the action is recorded with what was shown', async () => {
    const service = fakeService();
    Object.defineProperty(Platform, 'Version', { get: () => '17.4', configurable: true });
    render(<ClickwrapProvider />);
    const shown = start({}, { templatePlaceholders: { fullName: 'Ada Lovelace' } });
    await screen.findByTestId('clickwrap-dialog');

    expect(screen.getByText('Please review and accept')).toBeTruthy();
    expect(screen.getByTestId('clickwrap-subtitle')).toHaveTextContent('Terms of Service · Version 1.2 · January 15, 2026');
    expect(screen.getByText('Hello Ada Lovelace,')).toBeTruthy();
    expect(screen.getByTestId('clickwrap-hint')).toHaveTextContent('Scroll to the end to continue.');
    expect(isDisabled('clickwrap-accept')).toBe(true);

    layOut(400, 1200);
    expect(isDisabled('clickwrap-accept')).toBe(true);
    scrollTo(300, 400, 1200);
    expect(isDisabled('clickwrap-accept')).toBe(true);
    scrollTo(800, 400, 1200);
    expect(isDisabled('clickwrap-accept')).toBe(false);
    expect(screen.queryByTestId('clickwrap-hint')).toBeNull();

    fireEvent.press(screen.getByTestId('clickwrap-accept'));
    const result = await inAct(shown);
    expect(result).toEqual({
      serviceSignature: 'signature-1',
      isAlreadyAccepted: false,
      isCanceled: false,
      action: 'ACCEPTED',
      clickwrapEventId: 'event-1',
      clickwrapTemplateId: TEMPLATE_ID,
      clickwrapTemplateVersion: 1,
      clickwrapTemplateVersionMinor: 2,
    });
    await waitFor(() => expect(screen.queryByTestId('clickwrap-dialog')).toBeNull());

    const [load] = service.requestsTo('GET', '/clickwrap');
    const [posted] = service.requestsTo('POST', '/clickwrap');
    expect(posted.body).toMatchObject({
      appId: APP_ID,
      clickwrapTemplateId: TEMPLATE_ID,
      clickwrapTemplateVersion: 1,
      clickwrapTemplateVersionMinor: 2,
      endUserId: USER,
      action: 'ACCEPTED',
      language: 'en',
      templatePlaceholders: { fullName: 'Ada%20Lovelace' },
      contentHash: expect.stringMatching(/^sha256:/),
      presentation: { mode: 'DIALOG', agreementMode: 'SCROLL', acceptLabel: 'Accept', checkboxLabel: null, scrollRequired: true },
    });
    expect(JSON.parse(load.query.templatePlaceholders)).toEqual({ fullName: 'Ada%20Lovelace' });
    // presentedAt: when the dialog appeared, ISO 8601 UTC, not later than the action.
    expect(posted.body.presentedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Date.parse(posted.body.presentedAt)).toBeLessThanOrEqual(Date.now());
    const metadata = posted.body.clientMetadata;
    expect(metadata).toMatchObject({
      sdk: 'react-native/1.0.0',
      platform: Platform.OS,
      osVersion: '17.4',
      screen: { width: expect.any(Number), height: expect.any(Number), pixelRatio: expect.any(Number) },
      window: { width: expect.any(Number), height: expect.any(Number) },
    });
    expect(typeof metadata.timezone).toBe('string');
    expect(JSON.stringify(metadata).length).toBeLessThan(8192);
  });

  test('an agreement that fits its box enables Accept at once, and says no scrolling was required', async () => {
    const service = fakeService({ content: '<p>Short terms.</p>' });
    render(<ClickwrapProvider />);
    const shown = start();
    await screen.findByTestId('clickwrap-dialog');
    expect(isDisabled('clickwrap-accept')).toBe(true); // nothing measured yet
    layOut(400, 120);
    expect(isDisabled('clickwrap-accept')).toBe(false);
    fireEvent.press(screen.getByTestId('clickwrap-accept'));
    await inAct(shown);
    expect(service.requestsTo('POST', '/clickwrap')[0].body.presentation.scrollRequired).toBe(false);
  });
});

describe('checkbox mode', () => {
  test('Accept follows the checkbox, and the checkbox label is recorded', async () => {
    const service = fakeService({ agreementMode: 'CHECKBOX', content: '<p>We process your data.</p>' });
    render(<ClickwrapProvider />);
    const shown = start();
    await screen.findByTestId('clickwrap-dialog');
    expect(screen.queryByTestId('clickwrap-hint')).toBeNull();
    const checkbox = screen.getByRole('checkbox', { name: 'I have read and agree to the terms' });
    expect(checkbox.props.accessibilityState).toMatchObject({ checked: false });
    expect(isDisabled('clickwrap-accept')).toBe(true);

    fireEvent.press(checkbox);
    expect(screen.getByRole('checkbox').props.accessibilityState).toMatchObject({ checked: true });
    expect(isDisabled('clickwrap-accept')).toBe(false);
    fireEvent.press(checkbox);
    expect(isDisabled('clickwrap-accept')).toBe(true);
    fireEvent.press(checkbox);

    fireEvent.press(screen.getByRole('button', { name: 'Accept' }));
    expect((await inAct(shown)).action).toBe('ACCEPTED');
    expect(service.requestsTo('POST', '/clickwrap')[0].body.presentation).toEqual({
      mode: 'DIALOG', agreementMode: 'CHECKBOX', acceptLabel: 'Accept', checkboxLabel: 'I have read and agree to the terms', scrollRequired: false,
    });
  });

  test('the deprecated mode option does not override the template (and warns)', async () => {
    fakeService({ agreementMode: 'CHECKBOX' });
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    render(<ClickwrapProvider />);
    const shown = settle(start({ mode: 'scroll' }));
    await screen.findByTestId('clickwrap-dialog');
    expect(screen.getByRole('checkbox')).toBeTruthy();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('deprecated'));
    fireEvent.press(screen.getByTestId('clickwrap-close'));
    await inAct(shown);
  });
});

describe('decline, close and the back button', () => {
  test('Decline records DECLINED and gives a Signature to verify', async () => {
    const service = fakeService();
    render(<ClickwrapProvider />);
    const shown = start();
    await screen.findByTestId('clickwrap-dialog');
    // Declining needs no scrolling.
    fireEvent.press(screen.getByRole('button', { name: 'Decline' }));
    const result = await inAct(shown);
    expect(result).toMatchObject({ action: 'DECLINED', serviceSignature: 'signature-1', isAlreadyAccepted: false });
    expect(service.requestsTo('POST', '/clickwrap')[0].body.action).toBe('DECLINED');
  });

  test('the close button rejects with ERR_SERVICE_USER_CANCELLED and records nothing', async () => {
    const service = fakeService();
    render(<ClickwrapProvider />);
    const shown = settle(start());
    await screen.findByTestId('clickwrap-dialog');
    fireEvent.press(screen.getByRole('button', { name: 'Close' }));
    const { error } = await inAct(shown);
    expect(error).toMatchObject({ code: 'ERR_SERVICE_USER_CANCELLED', name: 'ClickwrapError' });
    expect(service.requestsTo('POST', '/clickwrap')).toHaveLength(0);
    expect(screen.queryByTestId('clickwrap-dialog')).toBeNull();
  });

  test("Android's back button closes the dialog", async () => {
    fakeService();
    render(<ClickwrapProvider />);
    const shown = settle(start());
    await screen.findByTestId('clickwrap-dialog');
    pressBack();
    expect((await inAct(shown)).error).toMatchObject({ code: 'ERR_SERVICE_USER_CANCELLED' });
  });

  test('disableClose: no close button, the back button does nothing, the user must decide', async () => {
    fakeService();
    render(<ClickwrapProvider />);
    const shown = start({ disableClose: true });
    await screen.findByTestId('clickwrap-dialog');
    expect(screen.queryByTestId('clickwrap-close')).toBeNull();
    pressBack();
    expect(screen.getByTestId('clickwrap-dialog')).toBeTruthy();
    layOut(400, 1000);
    scrollTo(600, 400, 1000);
    fireEvent.press(screen.getByTestId('clickwrap-accept'));
    expect((await inAct(shown)).action).toBe('ACCEPTED');
  });
});

describe('loading and saving', () => {
  test('a user who already accepted sees nothing and gets a null Signature', async () => {
    const service = fakeService();
    service.state.accepted.add(USER);
    render(<ClickwrapProvider />);
    const result = await start();
    expect(result).toMatchObject({ serviceSignature: null, isAlreadyAccepted: true, isCanceled: false, action: null, clickwrapEventId: null });
    expect(screen.queryByTestId('clickwrap-dialog')).toBeNull();
    expect(service.requestsTo('POST', '/clickwrap')).toHaveLength(0);
  });

  test('a load that fails once with a temporary error is retried once', async () => {
    const service = fakeService();
    service.fail({ method: 'GET', path: '/clickwrap', status: 503 });
    render(<ClickwrapProvider />);
    const shown = settle(start());
    await screen.findByTestId('clickwrap-dialog');
    expect(service.requestsTo('GET', '/clickwrap')).toHaveLength(2);
    fireEvent.press(screen.getByTestId('clickwrap-close'));
    await inAct(shown);
  });

  test('a save that fails temporarily keeps the dialog open with a message; pressing again saves', async () => {
    const service = fakeService({ agreementMode: 'CHECKBOX' });
    service.fail({ method: 'POST', path: '/clickwrap', status: 503 });
    render(<ClickwrapProvider />);
    const shown = start();
    await screen.findByTestId('clickwrap-dialog');
    fireEvent.press(screen.getByRole('checkbox'));
    fireEvent.press(screen.getByTestId('clickwrap-accept'));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Your choice could not be saved. Please try again.');
    // A save is not retried behind the user's back: one request per press.
    expect(service.requestsTo('POST', '/clickwrap')).toHaveLength(1);
    expect(isDisabled('clickwrap-accept')).toBe(false);
    fireEvent.press(screen.getByTestId('clickwrap-accept'));
    expect((await inAct(shown)).serviceSignature).toBe('signature-1');
    expect(service.requestsTo('POST', '/clickwrap')).toHaveLength(2);
  });

  test('a save the service refuses closes the dialog and rejects with the mapped code', async () => {
    const service = fakeService({ agreementMode: 'CHECKBOX' });
    service.fail({ method: 'POST', path: '/clickwrap', status: 400, body: { status: 400, code: 'CONTENT_MISMATCH', detail: 'the content changed' } });
    render(<ClickwrapProvider />);
    const shown = settle(start());
    await screen.findByTestId('clickwrap-dialog');
    fireEvent.press(screen.getByRole('checkbox'));
    fireEvent.press(screen.getByTestId('clickwrap-accept'));
    const { error } = await inAct(shown);
    expect(error).toMatchObject({ code: 'ERR_SERVICE_REQUEST_REJECTED', status: 400, message: 'the content changed' });
    expect(error.problem.code).toBe('CONTENT_MISMATCH');
    await waitFor(() => expect(screen.queryByTestId('clickwrap-dialog')).toBeNull());
  });

  test('a second show() waits until the first dialog is closed', async () => {
    const service = fakeService();
    render(<ClickwrapProvider />);
    const first = settle(start());
    const second = settle(ClickwrapClient.show({ clickwrapTemplateId: TEMPLATE_ID, endUserId: 'other-user' }));
    await screen.findByTestId('clickwrap-dialog');
    expect(service.requestsTo('GET', '/clickwrap').map((r) => r.query.endUserId)).toEqual([USER]);
    fireEvent.press(screen.getByTestId('clickwrap-close'));
    await inAct(first);
    await waitFor(() => expect(service.requestsTo('GET', '/clickwrap')).toHaveLength(2));
    await screen.findByTestId('clickwrap-dialog');
    expect(screen.getAllByTestId('clickwrap-dialog')).toHaveLength(1);
    fireEvent.press(screen.getByTestId('clickwrap-close'));
    expect((await inAct(second)).error).toMatchObject({ code: 'ERR_SERVICE_USER_CANCELLED' });
  });

  test('unmounting the provider with a dialog open rejects with ERR_SERVICE_USER_CANCELLED', async () => {
    fakeService();
    const { unmount } = render(<ClickwrapProvider />);
    const shown = settle(start());
    await screen.findByTestId('clickwrap-dialog');
    unmount();
    expect((await inAct(shown)).error).toMatchObject({ code: 'ERR_SERVICE_USER_CANCELLED' });
  });
});

describe('errors and callbacks', () => {
  test('ERR_SERVICE_NOT_INITIALIZED before initialize() and after shutdown()', async () => {
    const service = fakeService();
    render(<ClickwrapProvider />);
    ClickwrapClient.shutdown();
    expect(ClickwrapClient.isInitialized()).toBe(false);
    await expect(start()).rejects.toMatchObject({ code: 'ERR_SERVICE_NOT_INITIALIZED' });
    await expect(ClickwrapClient.showAcceptedContent({ clickwrapTemplateId: TEMPLATE_ID, endUserId: USER }))
      .rejects.toMatchObject({ code: 'ERR_SERVICE_NOT_INITIALIZED' });
    expect(service.fetch).not.toHaveBeenCalled();
  });

  test('ERR_SERVICE_NOT_INITIALIZED without a mounted <ClickwrapProvider>', async () => {
    const service = fakeService();
    await expect(start()).rejects.toMatchObject({ code: 'ERR_SERVICE_NOT_INITIALIZED', message: expect.stringContaining('ClickwrapProvider') });
    expect(service.fetch).not.toHaveBeenCalled();
  });

  test('initialize() refuses an empty App ID or a missing service address', () => {
    expect(() => ClickwrapClient.initialize('', { baseUrl: BASE_URL })).toThrow(expect.objectContaining({ code: 'ERR_SERVICE_INVALID_ARGUMENT' }));
    expect(() => ClickwrapClient.initialize(APP_ID, { baseUrl: 'consent.example.test' })).toThrow(expect.objectContaining({ code: 'ERR_SERVICE_INVALID_ARGUMENT' }));
    expect(() => ClickwrapClient.initialize(APP_ID, undefined as never)).toThrow(expect.objectContaining({ code: 'ERR_SERVICE_INVALID_ARGUMENT' }));
  });

  test('onSuccess and onError are called like the promise settles; a throwing callback changes nothing', async () => {
    const service = fakeService();
    service.state.accepted.add(USER);
    render(<ClickwrapProvider />);
    const onSuccess = jest.fn(() => {
      throw new Error('app bug');
    });
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    await expect(start({ onSuccess })).resolves.toMatchObject({ isAlreadyAccepted: true });
    expect(onSuccess).toHaveBeenCalledWith(expect.objectContaining({ serviceSignature: null }));
    expect(logged).toHaveBeenCalled();

    service.fail({ method: 'GET', path: '/clickwrap', status: 404, body: { status: 404, code: 'TEMPLATE_NOT_FOUND', detail: 'gone' } });
    const onError = jest.fn();
    await expect(start({ onError })).rejects.toMatchObject({ code: 'ERR_SERVICE_TEMPLATE_NOT_FOUND' });
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ code: 'ERR_SERVICE_TEMPLATE_NOT_FOUND' }));

    await expect(start({ onError: 'not a function' as never })).rejects.toMatchObject({ code: 'ERR_SERVICE_INVALID_ARGUMENT' });
  });
});

test('the language wishes reach the service, and the dialog speaks the language it got', async () => {
  const service = fakeService({
    language: 'de',
    customizations: {
      agreementMode: 'SCROLL',
      texts: { title: 'Bitte lesen und akzeptieren', acceptButton: 'Akzeptieren', declineButton: 'Ablehnen', checkboxLabel: 'Ich stimme zu', versionLabel: 'Version' },
    },
  });
  ClickwrapClient.initialize(APP_ID, { baseUrl: BASE_URL, locale: 'fr' });
  render(<ClickwrapProvider />);
  const shown = settle(start({}, { language: 'de-AT' }));
  await screen.findByTestId('clickwrap-dialog');
  expect(service.requestsTo('GET', '/clickwrap')[0].query.language).toMatch(/^de-AT,fr(,|$)/);
  expect(screen.getByText('Bitte lesen und akzeptieren')).toBeTruthy();
  expect(screen.getByTestId('clickwrap-hint')).toHaveTextContent('Scrollen Sie bis zum Ende, um fortzufahren.');
  expect(screen.getByTestId('clickwrap-subtitle')).toHaveTextContent('Terms of Service · Version 1.2 · 15. Januar 2026');
  expect(screen.getByTestId('clickwrap-dialog').props.accessibilityLanguage).toBe('de');
  act(() => {
    fireEvent.press(screen.getByRole('button', { name: 'Schließen' }));
  });
  await inAct(shown);
});
