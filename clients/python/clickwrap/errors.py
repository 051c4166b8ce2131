"""The one exception every problem answer of the service becomes."""

from __future__ import annotations

import json
from typing import Any

import httpx


class ClickwrapError(Exception):
    """An answer of the service that is not a success (status 400 and up, or an unexpected 3xx).

    The service answers every error with an RFC 9457 problem document (`application/problem+json`)
    whose `code` is a stable identifier such as `SIGNATURE_ALREADY_VERIFIED`; branch on `code`, not
    on the human-readable text. Some problems carry more members, for example `clickwrapEventId`
    on `SIGNATURE_ALREADY_VERIFIED`: they are in `problem`.
    """

    def __init__(self, status: int, code: str | None, problem: dict[str, Any], retry_after: str | None = None):
        self.status = status
        self.code = code
        self.problem = problem
        #: The answer's `Retry-After` header (on 429 and 503), as sent.
        self.retry_after = retry_after
        detail = problem.get("detail") or problem.get("title") or "no problem document in the answer"
        super().__init__(f"{status} {code or 'UNKNOWN'}: {detail}")

    @classmethod
    def from_response(cls, response: httpx.Response) -> ClickwrapError:
        """Reads the problem document of `response` (which must have been read).

        An answer that is not a problem document (a proxy's HTML page, say) still becomes a
        ClickwrapError, with `code` None and an empty `problem`.
        """
        try:
            problem = json.loads(response.content)
        except ValueError:
            problem = None
        if not isinstance(problem, dict):
            problem = {}
        code = problem.get("code")
        return cls(
            status=response.status_code,
            code=code if isinstance(code, str) else None,
            problem=problem,
            retry_after=response.headers.get("Retry-After"),
        )


def raise_for_problem(response: httpx.Response) -> None:
    """An httpx response hook: turns every answer that is not a success into a ClickwrapError.

    It runs before the generated code parses the answer, so a problem is raised the same way for
    every operation, documented status or not. Redirects are not followed by the library, so a 3xx
    is an error too.
    """
    if response.status_code >= 300:
        response.read()
        raise ClickwrapError.from_response(response)
