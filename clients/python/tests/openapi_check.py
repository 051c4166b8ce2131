"""Checks real traffic against docs/openapi.json with openapi-core.

`TrafficRecorder.watch(clickwrap)` adds an httpx response hook to the clients a `Clickwrap` builds,
which keeps every request and its answer; `TrafficRecorder.mismatches()` then checks each request
and each answer against the document (path, method, parameters, credentials, body; status, headers,
media type, body) and names every difference. Webhooks the service sent are checked with
`webhook_mismatches`.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import httpx
from openapi_core import Config, OpenAPI
from openapi_core.datatypes import RequestParameters
from werkzeug.datastructures import Headers, ImmutableMultiDict

from clickwrap import Clickwrap

DOCUMENT = Path(__file__).resolve().parents[3] / "docs" / "openapi.json"

# The name of the one webhook in the document's `webhooks`.
VERIFIED_WEBHOOK = "clickwrapEventVerified"

# A schema error quotes the value it refused; a PDF's bytes would fill the screen.
LONGEST_MESSAGE = 300


def parse_json(body: bytes, **media_type_parameters: str) -> Any:
    """A JSON body; a `charset` parameter changes nothing (JSON is UTF-8)."""
    return json.loads(body)


@cache
def load_document() -> OpenAPI:
    """docs/openapi.json, read once per test run (reading and checking it takes most of a second)."""
    # A workaround for openapi-core, which parses only `application/json` and a few other media
    # types as JSON and hands any other body to the schema as raw bytes: every problem answer
    # (`application/problem+json`, RFC 9457) would fail its object schema.
    config = Config(extra_media_type_deserializers={"application/problem+json": parse_json})
    return OpenAPI.from_file_path(str(DOCUMENT), config=config)


class OpenAPIRequest:
    """An httpx request as openapi-core reads it (its `Request` protocol)."""

    def __init__(self, request: httpx.Request):
        self.method = request.method.lower()
        self.host_url = f"{request.url.scheme}://{request.url.netloc.decode('ascii')}"
        self.path = request.url.path
        self.body = request.content or None
        self.content_type = request.headers.get("Content-Type", "")
        self.parameters = RequestParameters(
            query=ImmutableMultiDict(request.url.params.multi_items()),
            header=Headers(request.headers.multi_items()),
        )


class OpenAPIWebhookRequest:
    """A webhook the service sent, as openapi-core reads it (its `WebhookRequest` protocol)."""

    def __init__(self, name: str, headers: dict[str, str], body: bytes):
        self.name = name
        self.method = "post"
        self.body = body
        self.content_type = Headers(headers).get("Content-Type", "")
        self.parameters = RequestParameters(header=Headers(headers))


class OpenAPIResponse:
    """An httpx response (read) as openapi-core reads it (its `Response` protocol)."""

    def __init__(self, response: httpx.Response):
        self.status_code = response.status_code
        self.headers = Headers(response.headers.multi_items())
        self.content_type = response.headers.get("Content-Type", "")
        self.data = response.content


def mismatches(request: httpx.Request, response: httpx.Response) -> list[str]:
    """Every way in which `request` and its `response` differ from the document; empty if none."""
    document = load_document()
    openapi_request = OpenAPIRequest(request)
    where = f"{request.method} {request.url.path}"
    found = [f"{where} (request): {describe(error)}" for error in document.iter_request_errors(openapi_request)]
    answer = f"{where} → {response.status_code} {response.headers.get('Content-Type', '(no media type)')}"
    found += [
        f"{answer}: {describe(error)}"
        for error in document.iter_response_errors(openapi_request, OpenAPIResponse(response))
    ]
    return found


def webhook_mismatches(headers: dict[str, str], body: bytes) -> list[str]:
    """Every way in which a webhook the service sent differs from the document's webhook."""
    request = OpenAPIWebhookRequest(VERIFIED_WEBHOOK, headers, body)
    errors = load_document().iter_webhook_request_errors(request)
    return [f"webhook {VERIFIED_WEBHOOK}: {describe(error)}" for error in errors]


def describe(error: Exception) -> str:
    """What openapi-core found: the JSON Schema errors with where they are (prefixed with the
    parameter's or header's name when it was one), else the error itself, whose cause holds the
    detail (a missing member, an undeclared media type)."""
    schema_errors = getattr(error.__cause__, "schema_errors", None)
    if not schema_errors:
        return f"{type(error).__name__}: {shorten(str(error.__cause__ or error))}"
    subject = f"{error.name} " if hasattr(error, "name") else ""
    # A schema whose branches (allOf) fail alike reports the same error once per branch.
    lines = [f"{subject}{pointer(found.absolute_path)} {shorten(found.message)}" for found in schema_errors]
    return "; ".join(dict.fromkeys(lines))


def pointer(path: Any) -> str:
    """A JSON pointer to the refused value: `/items/0/status`."""
    return "/" + "/".join(str(part) for part in path)


def shorten(message: str) -> str:
    return message if len(message) <= LONGEST_MESSAGE else message[:LONGEST_MESSAGE] + "…"


class TrafficRecorder:
    """Keeps every request the watched clients send and the answer each one got."""

    def __init__(self) -> None:
        self.exchanges: list[tuple[httpx.Request, httpx.Response]] = []

    def watch(self, clickwrap: Clickwrap) -> Clickwrap:
        """Records the traffic of each client `clickwrap` has credentials for; returns `clickwrap`."""
        for name in ("app_client", "operator_client", "public_client"):
            try:
                generated = getattr(clickwrap, name)
            except ValueError:
                continue  # built without the credentials this client needs
            hooks = generated.get_httpx_client().event_hooks
            # First, before the library's hook raises ClickwrapError for a problem answer: the
            # problems are answers to check too. The retries happen inside the transport, so this
            # sees the answer the library hands on, not a 429 or 503 it retried.
            hooks["response"].insert(0, self._record)
        return clickwrap

    def _record(self, response: httpx.Response) -> None:
        # The library reads every answer whole anyway; reading it here lets the check see the body.
        response.read()
        self.exchanges.append((response.request, response))

    def mismatches(self) -> list[str]:
        return [found for request, response in self.exchanges for found in mismatches(request, response)]

    def assert_matches_document(self, at_least: int) -> None:
        """Fails listing every mismatch; also when fewer than `at_least` exchanges were recorded
        (then the recording, not the traffic, broke)."""
        assert len(self.exchanges) >= at_least, f"only {len(self.exchanges)} exchanges recorded"
        found = self.mismatches()
        assert not found, f"{len(found)} mismatches with {DOCUMENT.name}:\n" + "\n".join(found)
