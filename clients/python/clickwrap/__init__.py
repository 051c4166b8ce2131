"""Server-side library of the Clickwrap consent service.

- `Clickwrap`: the typed operations generated from the service's OpenAPI document
  (`clickwrap.generated`), with credentials, retries and typed errors.
- `ClickwrapError`: raised for every problem answer, with `.status`, `.code` and `.problem`.
- `verify_webhook`: checks the signature and timestamp of a `CLICKWRAP_EVENT_VERIFIED` webhook.
- `iterate_pages`: every item of a cursor-paged list.
"""

from .client import Clickwrap, iterate_pages
from .errors import ClickwrapError
from .retry import RetryPolicy
from .webhooks import WebhookVerificationError, verify_webhook

__all__ = [
    "Clickwrap",
    "ClickwrapError",
    "RetryPolicy",
    "WebhookVerificationError",
    "iterate_pages",
    "verify_webhook",
]
