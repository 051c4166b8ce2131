"""Server-side library of the Clickwrap consent service.

- `Clickwrap`: the typed operations generated from the service's OpenAPI document
  (`clickwrap.generated`), with credentials, retries and typed errors.
- `ClickwrapError`: raised for every problem answer, with `.status`, `.code` and `.problem`.
- `verify_webhook`: checks a webhook's `X-Service-Signature` (the spec's scheme) and timestamp.
- `verify_standard_webhook`: checks its Standard Webhooks `webhook-signature`; `event_id` gives its
  `webhook-id`, the idempotency key.
- `WebhookEvent` and the other types of `clickwrap.events`: every event type's body.
- `iterate_pages`: every item of a cursor-paged list.
"""

from .client import Clickwrap, iterate_pages
from .errors import ClickwrapError
from .retry import RetryPolicy
from .events import EVENT_TYPES, EventType, WebhookEvent
from .webhooks import WebhookVerificationError, event_id, verify_standard_webhook, verify_webhook

__all__ = [
    "EVENT_TYPES",
    "Clickwrap",
    "ClickwrapError",
    "EventType",
    "RetryPolicy",
    "WebhookEvent",
    "WebhookVerificationError",
    "event_id",
    "iterate_pages",
    "verify_standard_webhook",
    "verify_webhook",
]
