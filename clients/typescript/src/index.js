// @clickwrap/server: the clickwrap consent service from a backend in JavaScript or TypeScript.
export { createClickwrapClient, PUBLIC_CLIENT_PATHS } from './client.js';
export { ClickwrapError, parseRetryAfter } from './errors.js';
export { DEFAULT_RETRY, retryingFetch } from './retry.js';
export {
  DEFAULT_TOLERANCE_SECONDS,
  SIGNATURE_HEADER,
  STANDARD_ID_HEADER,
  STANDARD_SIGNATURE_HEADER,
  STANDARD_TIMESTAMP_HEADER,
  TIMESTAMP_HEADER,
  WEBHOOK_EVENT_TYPES,
  WebhookVerificationError,
  verifyStandardWebhook,
  verifyWebhook,
  webhookId,
} from './webhooks.js';
