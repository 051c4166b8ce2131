// Types of @clickwrap/server. The operations' types come from schema.d.ts, which openapi-typescript
// generates from docs/openapi.json (scripts/generate.js); this file is written by hand.
import type { Client, FetchResponse, MaybeOptionalInit } from 'openapi-fetch';
import type { HttpMethod, MediaType, PathsWithMethod, RequiredKeysOf } from 'openapi-typescript-helpers';

import type { components, operations, paths } from './schema.js';

export type { components, operations, paths };

/** The document's named schemas, e.g. `Schemas['EventDetails']`. */
export type Schemas = components['schemas'];
export type Problem = Schemas['Problem'];
export type ProblemCode = Schemas['ProblemCode'];
export type ClickwrapEvent = Schemas['ClickwrapEvent'];
export type VerifiedEvent = Schemas['VerifiedEvent'];
export type EventDetails = Schemas['EventDetails'];
/** The body of CLICKWRAP_EVENT_VERIFIED, what the app's webhook URL receives. */
export type WebhookPayload = Schemas['WebhookPayload'];
/** Every webhook event type (only CLICKWRAP_EVENT_VERIFIED is sent today). */
export type WebhookEventType = Schemas['WebhookEventType'];
export type ClickwrapEventVerifiedWebhook = Schemas['WebhookPayload'];
export type ClickwrapEventWithdrawnWebhook = Schemas['ClickwrapEventWithdrawnWebhook'];
export type TemplateVersionEffectiveWebhook = Schemas['TemplateVersionEffectiveWebhook'];
export type ReacceptanceDeadlinePassedWebhook = Schemas['ReacceptanceDeadlinePassedWebhook'];
export type EndUserErasedWebhook = Schemas['EndUserErasedWebhook'];
export type WebhookTestWebhook = Schemas['WebhookTestWebhook'];
/** A webhook body of any event type, `{ eventType, timestamp, data }`: narrow it on `eventType`. */
export type WebhookEvent =
  | ClickwrapEventVerifiedWebhook
  | ClickwrapEventWithdrawnWebhook
  | TemplateVersionEffectiveWebhook
  | ReacceptanceDeadlinePassedWebhook
  | EndUserErasedWebhook
  | WebhookTestWebhook;
/** The filters of GET /public-client/v1/clickwrap-events. */
export type EventsQuery = NonNullable<operations['listClickwrapEvents']['parameters']['query']>;
/** The filters of GET /operator/v1/events. */
export type TenantEventsQuery = NonNullable<operations['listTenantEvents']['parameters']['query']>;

export interface RetryOptions {
  /** Retries after the first attempt (default 3). */
  maxRetries?: number;
  /** Wait before the first retry when there is no Retry-After (default 500 ms); doubles each retry. */
  baseDelayMs?: number;
  /** Upper bound of the doubled wait (default 30 000 ms). */
  maxDelayMs?: number;
  /** A longer Retry-After is not waited for; the error goes to the caller (default 60 s). */
  maxRetryAfterSeconds?: number;
  /** How to wait between attempts (default setTimeout). */
  sleep?: (ms: number) => Promise<void>;
}

export interface ClickwrapClientOptions {
  /** The service's address, such as https://consent.example.com (no path). */
  baseUrl: string;
  /** With appKey: the server-side /public-client/v1 operations. */
  appId?: string;
  /** The App Key: secret, keep it on the server. */
  appKey?: string;
  /** For the /operator/v1 operations. */
  operatorToken?: string;
  /** Retries of 429 and 503 answers to idempotent requests; false for none. */
  retry?: false | RetryOptions;
  /** Defaults to globalThis.fetch. */
  fetch?: (request: Request) => Promise<Response>;
  /** Sent with every request. */
  headers?: Record<string, string>;
}

// The shapes openapi-fetch's own methods use, with the answer's data as the result.
type InitParam<Init> =
  RequiredKeysOf<Init> extends never ? [(Init & { [key: string]: unknown })?] : [Init & { [key: string]: unknown }];
type OrUndefined<T> = [T] extends [never] ? undefined : T;
type OperationPaths = Record<string, any>;
type DataMethodOf<Paths extends OperationPaths, Method extends HttpMethod> = <
  Path extends PathsWithMethod<Paths, Method>,
  Init extends MaybeOptionalInit<Paths[Path], Method>,
>(
  url: Path,
  ...init: InitParam<Init>
) => Promise<OrUndefined<NonNullable<FetchResponse<Paths[Path][Method], Init, MediaType>['data']>>>;

/** An operation resolving with its parsed answer (parseAs changes how), or throwing ClickwrapError. */
export type DataMethod<Method extends HttpMethod> = DataMethodOf<paths, Method>;

export interface ClickwrapClient {
  GET: DataMethod<'get'>;
  POST: DataMethod<'post'>;
  PUT: DataMethod<'put'>;
  PATCH: DataMethod<'patch'>;
  DELETE: DataMethod<'delete'>;
  HEAD: DataMethod<'head'>;
  /** The app's verified events, newest first, across every page (needs appId and appKey). */
  events(query?: EventsQuery): AsyncGenerator<ClickwrapEvent, void, undefined>;
  /** The tenant's verified events across its apps, newest first, across every page (operator token). */
  tenantEvents(query?: TenantEventsQuery): AsyncGenerator<ClickwrapEvent, void, undefined>;
  /** The openapi-fetch client underneath: answers as { data, error, response }, nothing thrown. */
  raw: Client<paths, MediaType>;
}

export function createClickwrapClient(options: ClickwrapClientOptions): ClickwrapClient;

/** The /public-client/v1 paths that take no credentials. */
export const PUBLIC_CLIENT_PATHS: readonly string[];

/** An error answer of the service. */
export class ClickwrapError extends Error {
  constructor(status: number, body: unknown, response: Response);
  readonly name: 'ClickwrapError';
  /** The HTTP status. */
  readonly status: number;
  /** The problem's stable code, or null when the answer was not a problem document. */
  readonly code: ProblemCode | null;
  /** The problem document with the members particular to its code (such as clickwrapEventId). */
  readonly problem: (Problem & { [member: string]: unknown }) | null;
  /** Seconds the service asked to wait (Retry-After), or null. */
  readonly retryAfterSeconds: number | null;
  readonly response: Response;
}

/** Retry-After (seconds or an HTTP date) as seconds from now, or null. */
export function parseRetryAfter(value: string | null, nowMs?: number): number | null;

export const DEFAULT_RETRY: Readonly<Required<Omit<RetryOptions, 'sleep'>>>;

/** Wraps a fetch so that 429 and 503 answers to idempotent requests are retried. */
export function retryingFetch(
  fetchOnce: (request: Request) => Promise<Response>,
  options?: RetryOptions,
): (request: Request) => Promise<Response>;

export const SIGNATURE_HEADER: 'X-Service-Signature';
export const TIMESTAMP_HEADER: 'X-Service-Timestamp';
export const STANDARD_ID_HEADER: 'webhook-id';
export const STANDARD_TIMESTAMP_HEADER: 'webhook-timestamp';
export const STANDARD_SIGNATURE_HEADER: 'webhook-signature';
export const DEFAULT_TOLERANCE_SECONDS: 300;
export const WEBHOOK_EVENT_TYPES: readonly WebhookEventType[];

export type WebhookVerificationReason =
  | 'MISSING_HEADER'
  | 'INVALID_HEADER'
  | 'MALFORMED_SIGNATURE'
  | 'MALFORMED_TIMESTAMP'
  | 'STALE_TIMESTAMP'
  | 'SIGNATURE_MISMATCH'
  | 'INVALID_BODY';

/** Why a received webhook was refused: answer 400 or 401, do not process it. */
export class WebhookVerificationError extends Error {
  constructor(reason: WebhookVerificationReason, message: string);
  readonly name: 'WebhookVerificationError';
  readonly reason: WebhookVerificationReason;
}

export interface VerifyWebhookOptions {
  /** How far the timestamp may be from `now`, either way (default 300 seconds). */
  toleranceSeconds?: number;
  /** The receiver's clock: a Date, or milliseconds since the epoch (default Date.now()). */
  now?: Date | number;
}

/**
 * Checks a webhook's X-Service-Signature (constant time) and X-Service-Timestamp, then parses
 * the body. Throws WebhookVerificationError when anything is wrong.
 *
 * @param body the raw body exactly as received
 * @param headers a fetch Headers, or a plain object such as Node's request.headers
 * @param secret the app's webhook signing secret, as shown (whsec_…)
 */
export function verifyWebhook(
  body: string | Uint8Array,
  headers: Headers | Record<string, string | string[] | undefined>,
  secret: string,
  options?: VerifyWebhookOptions,
): WebhookPayload;

/**
 * Checks a webhook's Standard Webhooks signature (webhook-id, webhook-timestamp,
 * webhook-signature; constant time) as the official `standardwebhooks` libraries do, then parses
 * the body. Throws WebhookVerificationError when anything is wrong.
 *
 * @param body the raw body exactly as received
 * @param headers a fetch Headers, or a plain object such as Node's request.headers
 * @param secret the app's webhook signing secret, exactly as shown (whsec_…)
 */
export function verifyStandardWebhook(
  body: string | Uint8Array,
  headers: Headers | Record<string, string | string[] | undefined>,
  secret: string,
  options?: VerifyWebhookOptions,
): WebhookEvent;

/** The webhook's message id (webhook-id): the same on every attempt and redelivery, the idempotency key. */
export function webhookId(headers: Headers | Record<string, string | string[] | undefined>): string;
