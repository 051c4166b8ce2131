/**
 * The React Native SDK and the web SDK against the same cases (cases.json): the language fallback,
 * placeholder encoding, argument checks, error mapping and the one retry of a load. The web SDK
 * (plain JavaScript, crates/web-sdk/clickwrap.js) runs here as it is, in Node, up to the point
 * where it would draw its dialog; every case stops before that.
 */
import path from 'path';

import { ClickwrapClient } from '../src/client';
import * as client from '../src/client';
import * as device from '../src/device';
import cases from './cases.json';

const BASE_URL = 'https://consent.example.test';
const TEMPLATE_ID = '0190a0b0-0000-7000-8000-000000000001';
const WEB_SDK = path.join(__dirname, '..', '..', '..', 'crates', 'web-sdk', 'clickwrap.js');

interface Sdk {
  show(request: unknown, options?: unknown): Promise<any>;
  initialize(appId: string, options: { baseUrl: string; locale?: string | null }): void;
}

interface Subject {
  name: string;
  sdk: Sdk;
  /** Makes the device (React Native) or the browser (web) prefer these languages. */
  setDeviceLocales(locales: string[]): void;
}

// The web SDK reads navigator.languages; Node 20 has no navigator.
function setNavigator(locales: string[]) {
  Object.defineProperty(globalThis, 'navigator', { value: { languages: locales, language: locales[0] }, configurable: true, writable: true });
}

setNavigator([]);
const web = require(WEB_SDK) as { ClickwrapClient: Sdk };

const subjects: Subject[] = [
  {
    name: 'react-native',
    sdk: ClickwrapClient as unknown as Sdk,
    setDeviceLocales: (locales) => jest.spyOn(device, 'deviceLocales').mockReturnValue(locales),
  },
  { name: 'web', sdk: web.ClickwrapClient, setDeviceLocales: setNavigator },
];

interface Response {
  status?: number;
  body?: unknown;
  retryAfter?: number;
  networkError?: boolean;
}

const alreadyAccepted = {
  acceptanceRequired: false,
  clickwrapTemplateId: TEMPLATE_ID,
  clickwrapTemplateVersion: 1,
  clickwrapTemplateVersionMinor: 0,
  effectiveAt: '2026-01-15T09:30:00.000Z',
  name: 'Terms',
  language: 'en',
  content: '<p>Terms</p>',
  contentHash: 'sha256:00',
};

/** fetch answering with `responses` in turn, then with an already-accepted view. */
function serve(responses: Response[]) {
  const queue = [...responses];
  const fetchMock = jest.fn(async (_url: string) => {
    const next = queue.shift();
    if (!next) return new Response(JSON.stringify(alreadyAccepted), { status: 200 });
    if (next.networkError) throw new TypeError('Network request failed');
    const headers: Record<string, string> = {};
    if (next.retryAfter != null) headers['retry-after'] = String(next.retryAfter);
    const body = typeof next.body === 'string' ? next.body : JSON.stringify(next.body ?? { status: next.status });
    return new Response(body, { status: next.status, headers });
  });
  (globalThis as any).fetch = fetchMock;
  return fetchMock;
}

function queryOf(fetchMock: jest.Mock, call = 0): URLSearchParams {
  return new URL(fetchMock.mock.calls[call][0]).searchParams;
}

beforeEach(() => {
  // The React Native SDK needs a host for its dialog; none of these cases may open one.
  client.setDialogHost(() => {
    throw new Error('no case here should open a dialog');
  });
});

afterEach(() => {
  jest.restoreAllMocks();
  setNavigator([]);
});

describe.each(subjects)('$name SDK', ({ sdk, setDeviceLocales }) => {
  test.each(cases.languages)('language fallback: $name', async ({ requested, appLocale, deviceLocales, expected }) => {
    setDeviceLocales(deviceLocales);
    sdk.initialize('app-1', { baseUrl: BASE_URL, locale: appLocale });
    const fetchMock = serve([]);
    await sdk.show({ clickwrapTemplateId: TEMPLATE_ID, endUserId: 'user-1', language: requested });
    expect(queryOf(fetchMock).get('language')).toBe(expected);
  });

  test.each(cases.placeholders)('placeholders: $name', async ({ input, expected }) => {
    sdk.initialize('app-1', { baseUrl: BASE_URL });
    const fetchMock = serve([]);
    await sdk.show({ clickwrapTemplateId: TEMPLATE_ID, endUserId: 'user-1', templatePlaceholders: input });
    const sent = queryOf(fetchMock).get('templatePlaceholders');
    expect(sent === null ? null : JSON.parse(sent)).toEqual(expected);
  });

  test.each(cases.invalidRequests)('invalid request: $name', async ({ request }) => {
    sdk.initialize('app-1', { baseUrl: BASE_URL });
    const fetchMock = serve([]);
    const concrete = { ...request, endUserId: request.endUserId === 'LONG_257' ? 'u'.repeat(257) : request.endUserId };
    await expect(sdk.show(concrete)).rejects.toMatchObject({ code: 'ERR_SERVICE_INVALID_ARGUMENT' });
    expect(fetchMock).not.toHaveBeenCalled();
  });

  test.each(cases.answers)('answer: $name', async ({ responses, code, calls }) => {
    sdk.initialize('app-1', { baseUrl: BASE_URL });
    const fetchMock = serve(responses as Response[]);
    const outcome = sdk.show({ clickwrapTemplateId: TEMPLATE_ID, endUserId: 'user-1' });
    if (code) {
      await expect(outcome).rejects.toMatchObject({ code, name: 'ClickwrapError' });
    } else {
      await expect(outcome).resolves.toMatchObject({ serviceSignature: null, isAlreadyAccepted: true, isCanceled: false });
    }
    expect(fetchMock).toHaveBeenCalledTimes(calls);
  });

  test('the service address and the App ID go where the service reads them', async () => {
    setDeviceLocales([]);
    sdk.initialize(' app-1 ', { baseUrl: `${BASE_URL}/public-client/v1/` });
    const fetchMock = serve([]);
    await sdk.show({ clickwrapTemplateId: TEMPLATE_ID, endUserId: 'user 1' });
    const url = new URL(fetchMock.mock.calls[0][0]);
    expect(url.origin + url.pathname).toBe(`${BASE_URL}/public-client/v1/clickwrap`);
    expect(Object.fromEntries(url.searchParams)).toEqual({ appId: 'app-1', clickwrapTemplateId: TEMPLATE_ID, endUserId: 'user 1' });
  });
});
