"""Checking a webhook of the service, as docs/webhooks.md describes. Every delivery is signed twice
over the same raw body; check either signature.

`verify_webhook`, the spec's scheme:
- Signing payload: the `X-Service-Timestamp` value, a `.`, then the raw body.
- Expected `X-Service-Signature`: `sha256=` and the lowercase hex HMAC-SHA256 of that payload, keyed
  with the app's webhook signing secret: the whole text as shown (`whsec_…` included), as bytes.

`verify_standard_webhook`, Standard Webhooks v1 (what the official `standardwebhooks` libraries check):
- Signed content: the `webhook-id` value, `.`, the `webhook-timestamp` value, `.`, the raw body.
- Expected `webhook-signature`: `v1,` and the base64 HMAC-SHA256 of that content, keyed with the
  secret's text after `whsec_`, base64-decoded; the header may hold several, separated by spaces.
- `webhook-id` is the message id, the same on every attempt and redelivery: the idempotency key.

Both compare in constant time and refuse a timestamp more than `tolerance` seconds away from now,
either way (a replay). Both return the body as a typed `WebhookEvent` (see `clickwrap.events`).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import re
import time
from collections.abc import Mapping
from typing import cast

from .events import WebhookEvent

SIGNATURE_HEADER = "X-Service-Signature"
TIMESTAMP_HEADER = "X-Service-Timestamp"
STANDARD_ID_HEADER = "webhook-id"
STANDARD_TIMESTAMP_HEADER = "webhook-timestamp"
STANDARD_SIGNATURE_HEADER = "webhook-signature"
SECRET_PREFIX = "whsec_"
DEFAULT_TOLERANCE = 300

_TIMESTAMP = re.compile(r"[0-9]{1,15}")
_SIGNATURE = re.compile(r"sha256=[0-9a-f]{64}")
_STANDARD_SIGNATURE = re.compile(r"v1,[A-Za-z0-9+/]{43}=")


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
) -> WebhookEvent:
    """Checks a webhook request's `X-Service-Signature` and returns its parsed JSON body
    (`eventType`, `timestamp` and `data`).

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

    _check_fresh(TIMESTAMP_HEADER, timestamp, tolerance, now)
    return _parse(body)


def verify_standard_webhook(
    body: bytes,
    headers: Mapping[str, str],
    secret: str,
    tolerance: int = DEFAULT_TOLERANCE,
    now: float | None = None,
) -> WebhookEvent:
    """Checks a webhook request the Standard Webhooks way (`webhook-id`, `webhook-timestamp`,
    `webhook-signature`) and returns its parsed JSON body.

    `secret` is the app's webhook signing secret exactly as shown (`whsec_…`); both of its formats
    work (base64, and the 64 hex digits of secrets made before). Otherwise as `verify_webhook`.
    Use `event_id(headers)` (the `webhook-id`) as the idempotency key.
    """
    if not isinstance(body, (bytes, bytearray)):
        raise TypeError("body must be the raw request body as bytes, not parsed or re-encoded JSON")
    key = standard_key(secret)
    message_id = _header(headers, STANDARD_ID_HEADER)
    timestamp = _header(headers, STANDARD_TIMESTAMP_HEADER)
    signatures = _header(headers, STANDARD_SIGNATURE_HEADER)
    if not _TIMESTAMP.fullmatch(timestamp):
        raise WebhookVerificationError(
            "MALFORMED_TIMESTAMP", f"{STANDARD_TIMESTAMP_HEADER} is not Unix time in seconds: {timestamp[:40]!r}"
        )
    candidates = [s.removeprefix("v1,") for s in signatures.split(" ") if _STANDARD_SIGNATURE.fullmatch(s)]
    if not candidates:
        raise WebhookVerificationError(
            "MALFORMED_SIGNATURE", f"{STANDARD_SIGNATURE_HEADER} has no 'v1,' and base64 of 32 bytes"
        )

    content = f"{message_id}.{timestamp}.".encode() + bytes(body)
    expected = base64.b64encode(hmac.new(key, content, hashlib.sha256).digest())
    matched = False
    for candidate in candidates:
        matched |= hmac.compare_digest(expected, candidate.encode("ascii"))
    if not matched:
        raise WebhookVerificationError(
            "SIGNATURE_MISMATCH", f"{STANDARD_SIGNATURE_HEADER} does not match the id, timestamp, body and secret"
        )

    _check_fresh(STANDARD_TIMESTAMP_HEADER, timestamp, tolerance, now)
    return _parse(body)


def standard_key(secret: str) -> bytes:
    """The HMAC key of the Standard Webhooks signature: the secret's text after `whsec_`,
    base64-decoded, as the official libraries decode it."""
    text = secret.decode("ascii") if isinstance(secret, (bytes, bytearray)) else secret
    try:
        key = base64.b64decode(text.removeprefix(SECRET_PREFIX), validate=True)
    except (binascii.Error, ValueError):
        raise ValueError("the webhook signing secret is not whsec_ followed by base64") from None
    if not key:
        raise ValueError("verify_standard_webhook needs the app's webhook signing secret (whsec_…); it is empty")
    return key


def event_id(headers: Mapping[str, str]) -> str:
    """The message id (`webhook-id`): the same on every attempt and redelivery of a message."""
    return _header(headers, STANDARD_ID_HEADER)


def _check_fresh(name: str, timestamp: str, tolerance: int, now: float | None) -> None:
    # Checked after the signature, so that this error means "authentic but old": a replay.
    current = time.time() if now is None else now
    age = current - int(timestamp)
    if abs(age) > tolerance:
        direction = "past" if age > 0 else "future"
        raise WebhookVerificationError(
            "STALE_TIMESTAMP",
            f"{name} is {abs(age):.0f} s in the {direction}; at most {tolerance} s is allowed",
        )


def _parse(body: bytes) -> WebhookEvent:
    try:
        event = json.loads(body)
    except ValueError as error:
        raise WebhookVerificationError("MALFORMED_BODY", f"the body is not JSON: {error}") from None
    if not isinstance(event, dict):
        raise WebhookVerificationError("MALFORMED_BODY", "the body is not a JSON object")
    return cast(WebhookEvent, event)


def _header(headers: Mapping[str, str], name: str) -> str:
    """The value of header `name`, whatever the case of the mapping's keys."""
    wanted = name.lower()
    for key, value in headers.items():
        if key.lower() == wanted:
            return value
    raise WebhookVerificationError("MISSING_HEADER", f"the request has no {name} header")
