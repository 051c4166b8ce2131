"""Retries with exponential backoff on 429 and 503, honouring `Retry-After`.

Which requests are retried (and why):

- **429 Too Many Requests**, every request. The service checks rate limits and the event quota
  before it does anything, so a refused request had no effect and sending it again is safe, even a
  `POST /clickwrap/verify`.
- **503 Service Unavailable**, only requests whose method is idempotent (GET, HEAD, OPTIONS, PUT,
  DELETE). A 503 means the service could not reach its database; for a POST or PATCH that can happen
  after the change was made (the answer to a commit lost on the way), so sending it again could do
  it twice. Those are raised at once and left to the caller.

A `Retry-After` longer than `RetryPolicy.max_retry_after` is not waited out: the event quota's 429,
for example, says to come back when the billing period ends. The error is raised at once, with the
header in `ClickwrapError.retry_after`.
"""

from __future__ import annotations

import email.utils
import time
from collections.abc import Callable
from dataclasses import dataclass

import httpx

IDEMPOTENT_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE"})


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how long to retry. `RetryPolicy(max_attempts=1)` turns retries off."""

    #: Attempts in all, the first one included.
    max_attempts: int = 4
    #: The wait before the first retry when the answer has no `Retry-After`; it doubles each time.
    initial_backoff: float = 0.5
    #: The longest wait the backoff grows to.
    max_backoff: float = 30.0
    #: The longest `Retry-After` (seconds) worth waiting for; a longer one is raised at once.
    max_retry_after: float = 60.0

    def backoff(self, retry_number: int) -> float:
        """The exponential wait before retry `retry_number` (1 for the first retry)."""
        return min(self.max_backoff, self.initial_backoff * 2 ** (retry_number - 1))


def parse_retry_after(value: str | None, now: float) -> float | None:
    """Seconds to wait from a `Retry-After` header: delay-seconds or an HTTP date (RFC 9110).

    None when the header is missing or unreadable; a date in the past gives 0.
    """
    if value is None:
        return None
    value = value.strip()
    if value.isascii() and value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:  # HTTP dates are always GMT, but parsedate_to_datetime leaves "-0000" naive.
        return None
    return max(0.0, when.timestamp() - now)


class RetryTransport(httpx.BaseTransport):
    """An httpx transport that sends each request again on 429 and 503 as `RetryPolicy` says.

    `sleep` and `clock` are there for the tests, which record the waits instead of sleeping.
    """

    def __init__(
        self,
        policy: RetryPolicy,
        inner: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.time,
    ):
        self._policy = policy
        self._inner = inner or httpx.HTTPTransport()
        self._sleep = sleep
        self._clock = clock

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        attempt = 1
        while True:
            response = self._inner.handle_request(request)
            wait = self._wait_before_retry(request, response, attempt)
            if wait is None:
                return response
            # Read and close the refused answer so that its connection can be used again.
            response.read()
            response.close()
            self._sleep(wait)
            attempt += 1

    def close(self) -> None:
        self._inner.close()

    def _wait_before_retry(self, request: httpx.Request, response: httpx.Response, attempt: int) -> float | None:
        """Seconds to wait before sending `request` again, or None to hand `response` back."""
        retryable = response.status_code == 429 or (
            response.status_code == 503 and request.method in IDEMPOTENT_METHODS
        )
        if not retryable or attempt >= self._policy.max_attempts:
            return None
        if not isinstance(request.stream, httpx.ByteStream):
            return None  # a streamed body cannot be sent twice
        retry_after = parse_retry_after(response.headers.get("Retry-After"), self._clock())
        if retry_after is not None and retry_after > self._policy.max_retry_after:
            return None
        return max(retry_after or 0.0, self._policy.backoff(attempt))
