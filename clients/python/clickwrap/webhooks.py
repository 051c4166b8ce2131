"""Checking a `CLICKWRAP_EVENT_VERIFIED` webhook, as docs/webhooks.md describes.

- Signing payload: the `X-Service-Timestamp` value, a `.`, then the raw body.
- Expected `X-Service-Signature`: `sha256=` and the lowercase hex HMAC-SHA256 of that payload, keyed
  with the app's webhook signing secret: the whole text as shown (`whsec_…` included), as bytes.
- Compared in constant time; a timestamp more than `tolerance` seconds away from now, either way,
  is refused (a replay).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import time
from collections.abc import Mapping
from typing import Any

SIGNATURE_HEADER = "X-Service-Signature"
TIMESTAMP_HEADER = "X-Service-Timestamp"
DEFAULT_TOLERANCE = 300

_TIMESTAMP = re.compile(r"[0-9]{1,15}")
_SIGNATURE = re.compile(r"sha256=[0-9a-f]{64}")


class WebhookVerificationError(ValueError):
    """The request is not an authentic, fresh webhook of the service: answer it with 400 or 401.

    `reason` says why, as one of: `MISSING_HEADER`, `MALFORMED_TIMESTAMP`, `MALFORMED_SIGNATURE`,
    `SIGNATURE_MISMATCH`, `STALE_TIMESTAMP`, `MALFORMED_BODY`.
    """

    def __init__(self, reason: str, message: str):
        self.reason = reason
        super().__init__(message)


def verify_webhook(
    body: bytes,
    headers: Mapping[str, str],
    secret: str | bytes,
    tolerance: int = DEFAULT_TOLERANCE,
    now: float | None = None,
) -> dict[str, Any]:
    """Checks a webhook request and returns its parsed JSON body (`eventType` and `data`).

    `body` is the raw request body exactly as received (bytes, never re-serialised JSON);
    `headers` any mapping of the request's headers (names in any case); `secret` the app's webhook
    signing secret; `now` the current Unix time, by default the clock's. Raises
    WebhookVerificationError when the request is not authentic or not fresh.
    """
    if not isinstance(body, (bytes, bytearray)):
        raise TypeError("body must be the raw request body as bytes, not parsed or re-encoded JSON")
    # An empty key is one anybody can sign with: a secret missing from the configuration must not
    # turn every forged request into an authentic one.
    if not secret:
        raise ValueError("verify_webhook needs the app's webhook signing secret (whsec_…); it is empty")
    timestamp = _header(headers, TIMESTAMP_HEADER)
    signature = _header(headers, SIGNATURE_HEADER)
    if not _TIMESTAMP.fullmatch(timestamp):
        raise WebhookVerificationError(
            "MALFORMED_TIMESTAMP", f"{TIMESTAMP_HEADER} is not Unix time in seconds: {timestamp[:40]!r}"
        )
    if not _SIGNATURE.fullmatch(signature):
        raise WebhookVerificationError(
            "MALFORMED_SIGNATURE", f"{SIGNATURE_HEADER} is not 'sha256=' and 64 lowercase hex digits"
        )

    key = secret.encode("utf-8") if isinstance(secret, str) else bytes(secret)
    payload = timestamp.encode("ascii") + b"." + bytes(body)
    expected = "sha256=" + hmac.new(key, payload, hashlib.sha256).hexdigest()
    if not hmac.compare_digest(expected.encode("ascii"), signature.encode("ascii")):
        raise WebhookVerificationError(
            "SIGNATURE_MISMATCH", f"{SIGNATURE_HEADER} does not match the body, timestamp and secret"
        )

    # Checked after the signature, so that this error means "authentic but old": a replay.
    current = time.time() if now is None else now
    age = current - int(timestamp)
    if abs(age) > tolerance:
        direction = "past" if age > 0 else "future"
        raise WebhookVerificationError(
            "STALE_TIMESTAMP",
            f"{TIMESTAMP_HEADER} is {abs(age):.0f} s in the {direction}; at most {tolerance} s is allowed",
        )

    try:
        event = json.loads(body)
    except ValueError as error:
        raise WebhookVerificationError("MALFORMED_BODY", f"the body is not JSON: {error}") from None
    if not isinstance(event, dict):
        raise WebhookVerificationError("MALFORMED_BODY", "the body is not a JSON object")
    return event


def _header(headers: Mapping[str, str], name: str) -> str:
    """The value of header `name`, whatever the case of the mapping's keys."""
    wanted = name.lower()
    for key, value in headers.items():
        if key.lower() == wanted:
            return value
    raise WebhookVerificationError("MISSING_HEADER", f"the request has no {name} header")
