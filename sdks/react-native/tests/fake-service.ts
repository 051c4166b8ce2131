/**
 * A stand-in for the service's public client routes, installed as the global fetch: the request
 * and answer shapes of the real routes (docs/sdk.md, decisions), problem+json errors, and failures
 * the tests inject. It records every request the SDK makes.
 */
import type { ClickwrapView, Customizations } from '../src/types';

export const BASE_URL = 'https://consent.example.test';
export const API = `${BASE_URL}/public-client/v1`;
export const APP_ID = '0190a0b0-0000-7000-8000-00000000a991';
export const TEMPLATE_ID = '0190a0b0-0000-7000-8000-000000000001';

export interface SeenRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: any;
}

/** One injected answer, used instead of the normal one (`times` times). */
export interface Failure {
  method: 'GET' | 'POST';
  path: string;
  status?: number;
  body?: unknown;
  retryAfter?: number;
  /** The request never reaches the service (fetch rejects). */
  networkError?: boolean;
  times?: number;
}

export function longContent(sections = 12): string {
  const paragraph = 'These terms govern your use of the service. Please read them in full before you agree to them.';
  let html = '<p>Hello {{fullName}},</p>';
  for (let i = 1; i <= sections; i += 1) html += `<h3>Section ${i}</h3><p>${paragraph}</p>`;
  return `${html}<p>End of the terms.</p>`;
}

export function defaultCustomizations(): Customizations {
  return {
    agreementMode: 'SCROLL',
    theme: { primaryColor: null, backgroundColor: null, textColor: null, borderRadius: null },
    buttons: { acceptStyle: 'FILLED', declineStyle: 'FILLED', showDecline: true },
    logoUrl: null,
    texts: { title: 'Please review and accept', acceptButton: 'Accept', declineButton: 'Decline', checkboxLabel: 'I have read and agree to the terms', versionLabel: 'Version' },
  };
}

export interface FakeTemplate {
  name: string;
  content: string;
  agreementMode: 'SCROLL' | 'CHECKBOX';
  customizations: Customizations;
  language: string;
}

export function fakeService(template: Partial<FakeTemplate> = {}) {
  const state = {
    template: {
      name: 'Terms of Service',
      content: longContent(),
      agreementMode: 'SCROLL',
      customizations: defaultCustomizations(),
      language: 'en',
      ...template,
    } as FakeTemplate,
    requests: [] as SeenRequest[],
    failures: [] as Failure[],
    /** End users whose acceptance counts (as if verified). */
    accepted: new Set<string>(),
    signatures: 0,
  };

  function view(query: Record<string, string>): ClickwrapView {
    const placeholders = query.templatePlaceholders ? JSON.parse(query.templatePlaceholders) : {};
    const content = state.template.content.replace('{{fullName}}', decodeURIComponent(placeholders.fullName ?? ''));
    return {
      acceptanceRequired: !state.accepted.has(query.endUserId),
      clickwrapTemplateId: query.clickwrapTemplateId,
      clickwrapTemplateVersion: 1,
      clickwrapTemplateVersionMinor: 2,
      effectiveAt: '2026-01-15T09:30:00.000Z',
      name: state.template.name,
      language: state.template.language,
      agreementMode: state.template.agreementMode,
      content,
      contentHash: `sha256:${content.length}`,
      customizations: { ...state.template.customizations, agreementMode: state.template.agreementMode },
    };
  }

  function problem(status: number, code: string, detail: string) {
    return { status, body: { type: 'about:blank', title: code, status, detail, code, message: detail } };
  }

  function answer(method: string, path: string, query: Record<string, string>): { status: number; body: unknown } {
    if (query.appId && query.appId !== APP_ID) return problem(404, 'APP_NOT_FOUND', 'the App ID is not valid');
    if (method === 'GET' && path === '/clickwrap') return { status: 200, body: view(query) };
    if (method === 'POST' && path === '/clickwrap') {
      state.signatures += 1;
      return { status: 201, body: { serviceSignature: `signature-${state.signatures}`, clickwrapEventId: `event-${state.signatures}`, clickwrapEventStatus: 'UNVERIFIED' } };
    }
    if (method === 'GET' && path === '/clickwrap/content') {
      if (!state.accepted.has(query.endUserId)) return problem(404, 'TEMPLATE_NOT_FOUND', 'no accepted version');
      const { acceptanceRequired: _, customizations: __, agreementMode: ___, ...content } = view(query);
      return { status: 200, body: content };
    }
    if (method === 'GET' && path === '/clickwrap/customizations') return { status: 200, body: state.template.customizations };
    return problem(404, 'NOT_FOUND', 'no such route');
  }

  const fetchMock = jest.fn(async (url: string, init: { method?: string; body?: string } = {}) => {
    const parsed = new URL(url);
    const method = init.method ?? 'GET';
    const path = parsed.pathname.replace('/public-client/v1', '');
    const query = Object.fromEntries(parsed.searchParams.entries());
    const body = init.body ? JSON.parse(init.body) : undefined;
    state.requests.push({ method, path, query, body });
    const failure = state.failures.find((f) => f.method === method && f.path === path && (f.times ?? 1) > 0);
    if (failure) {
      failure.times = (failure.times ?? 1) - 1;
      if (failure.networkError) throw new TypeError('Network request failed');
      const headers: Record<string, string> = { 'content-type': 'application/problem+json' };
      if (failure.retryAfter != null) headers['retry-after'] = String(failure.retryAfter);
      return new Response(JSON.stringify(failure.body ?? { status: failure.status, code: 'INJECTED', detail: 'injected' }), { status: failure.status, headers });
    }
    const { status, body: out } = answer(method, path, query);
    return new Response(JSON.stringify(out), { status, headers: { 'content-type': 'application/json' } });
  });
  (globalThis as any).fetch = fetchMock;

  return {
    state,
    fetch: fetchMock,
    fail(failure: Failure) {
      state.failures.push(failure);
    },
    requestsTo(method: string, path: string) {
      return state.requests.filter((r) => r.method === method && r.path === path);
    },
  };
}
