// @clickwrap/server: the clickwrap consent service from a backend in JavaScript or TypeScript.
export { createClickwrapClient, PUBLIC_CLIENT_PATHS } from './client.js';
export { ClickwrapError, parseRetryAfter } from './errors.js';
export { DEFAULT_RETRY, retryingFetch } from './retry.js';
export {
  DEFAULT_TOLERANCE_SECONDS,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  WebhookVerificationError,
  verifyWebhook,
} from './webhooks.js';
