/**
 * The SDK's errors. Every error the SDK rejects with is a ClickwrapError whose `code` is one of
 * the web SDK's codes (docs/sdk.md), so one app can handle both SDKs' errors the same way.
 */

export type ClickwrapErrorCode =
  /** initialize() was not called, or no <ClickwrapProvider> is mounted to show the dialog. */
  | 'ERR_SERVICE_NOT_INITIALIZED'
  /** An argument is missing or malformed (also the service's 400 VALIDATION_FAILED). */
  | 'ERR_SERVICE_INVALID_ARGUMENT'
  /** The service does not know the App ID. */
  | 'ERR_SERVICE_APP_NOT_FOUND'
  /** The template is unknown, disabled, has no Effective version, or is not available to the app. */
  | 'ERR_SERVICE_TEMPLATE_NOT_FOUND'
  /** The app lists allowedOrigins and the request's Origin is not one of them. */
  | 'ERR_SERVICE_ORIGIN_NOT_ALLOWED'
  /** 429 from the service, after the one retry a load gets. */
  | 'ERR_SERVICE_RATE_LIMITED'
  /** The service could not be reached or answered 5xx, after the one retry a load gets. */
  | 'ERR_SERVICE_NETWORK'
  /** The service refused the request for another reason (details in `problem`). */
  | 'ERR_SERVICE_REQUEST_REJECTED'
  /** The user closed the dialog without accepting or declining. */
  | 'ERR_SERVICE_USER_CANCELLED';

/** The service's problem+json body (RFC 9457 with `code` and `message`). */
export interface Problem {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  code?: string;
  message?: string;
  [member: string]: unknown;
}

export class ClickwrapError extends Error {
  readonly code: ClickwrapErrorCode;
  /** The HTTP status when the error is the service's answer. */
  readonly status?: number;
  /** The service's problem body when it sent one. */
  readonly problem?: Problem | null;
  readonly cause?: unknown;

  constructor(code: ClickwrapErrorCode, message: string, extra: { status?: number; problem?: Problem | null; cause?: unknown } = {}) {
    super(message);
    this.name = 'ClickwrapError';
    this.code = code;
    this.status = extra.status;
    this.problem = extra.problem;
    this.cause = extra.cause;
    // Keeps `instanceof ClickwrapError` true when the class is compiled to ES5 functions.
    Object.setPrototypeOf(this, ClickwrapError.prototype);
  }
}

export function invalidArgument(message: string): ClickwrapError {
  return new ClickwrapError('ERR_SERVICE_INVALID_ARGUMENT', message);
}

export function notInitialized(message = 'call ClickwrapClient.initialize(appId) first'): ClickwrapError {
  return new ClickwrapError('ERR_SERVICE_NOT_INITIALIZED', message);
}

export function userCancelled(): ClickwrapError {
  return new ClickwrapError('ERR_SERVICE_USER_CANCELLED', 'the user closed the dialog without a decision');
}

/** The error for a service answer that is not a success (after any retry), as the web SDK maps it. */
export function answerError(status: number, problem: Problem | null): ClickwrapError {
  const code = problem && typeof problem.code === 'string' ? problem.code : '';
  const detail = (problem && (problem.detail || problem.message)) || `the service answered ${status}`;
  const extra = { status, problem };
  if (status === 404) {
    return new ClickwrapError(code === 'APP_NOT_FOUND' ? 'ERR_SERVICE_APP_NOT_FOUND' : 'ERR_SERVICE_TEMPLATE_NOT_FOUND', detail, extra);
  }
  if (status === 403 && code === 'ORIGIN_NOT_ALLOWED') return new ClickwrapError('ERR_SERVICE_ORIGIN_NOT_ALLOWED', detail, extra);
  if (status === 400 && code === 'VALIDATION_FAILED') return new ClickwrapError('ERR_SERVICE_INVALID_ARGUMENT', detail, extra);
  if (status === 429) return new ClickwrapError('ERR_SERVICE_RATE_LIMITED', detail, extra);
  if (status >= 500) return new ClickwrapError('ERR_SERVICE_NETWORK', detail, extra);
  return new ClickwrapError('ERR_SERVICE_REQUEST_REJECTED', detail, extra);
}

/** Failures worth another try: the network, the service's 5xx and 429. */
export function isTemporary(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ERR_SERVICE_NETWORK' || code === 'ERR_SERVICE_RATE_LIMITED';
}
