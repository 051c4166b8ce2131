"""`Clickwrap`: the generated operations behind one object, with credentials, typed errors and retries.

Every operation of the service is in `clickwrap.generated.api` (generated from docs/openapi.json).
`Clickwrap` holds three generated clients, one per kind of credentials the document declares, each
sending its credentials, retrying as `RetryPolicy` says and raising `ClickwrapError` for every
problem answer:

- `app_client`: App ID and App Key headers, for the server-side routes (`/public-client/v1/...`);
- `operator_client`: `Authorization: Bearer <operator token>`, for the operator API (`/operator/v1/...`);
- `public_client`: no credentials, for the public routes the browser SDK calls.

The methods below cover what a backend does most; any other operation is one generated call away:
`get_usage.sync(client=clickwrap.operator_client)`. The library is synchronous: the generated
`asyncio` functions need an `AuthenticatedClient` of your own (without these retries and errors).
"""

from __future__ import annotations

import ssl
from collections.abc import Callable, Iterator
from functools import cached_property
from typing import Any, TypeVar
from uuid import UUID

import httpx

from .errors import raise_for_problem
from .generated.api.operator import (
    create_app,
    create_template,
    enable_template,
    publish_template_version,
    regenerate_app_key,
    set_template_apps,
)
from .generated.api.server_side import (
    get_certificate_of_acceptance,
    get_clickwrap_agreement,
    get_clickwrap_event_details,
    get_consent_status,
    list_clickwrap_events,
    verify_signature,
)
from .generated.client import AuthenticatedClient, Client
from .generated.models import (
    AppCreated,
    ClickwrapEvent,
    ConsentStatus,
    CreateAppRequest,
    CreateTemplateRequest,
    EventDetails,
    EventPage,
    LocalizedContent,
    PublishedVersion,
    PublishRequest,
    RegeneratedAppKey,
    Template,
    TemplateAppsRequest,
    VerifiedEvent,
    VerifyRequest,
    VersionKind,
)
from .generated.types import UNSET, File, Unset
from .retry import RetryPolicy, RetryTransport

T = TypeVar("T")


class _CredentialedClient(AuthenticatedClient):
    """The generated AuthenticatedClient with a repr that leaves the credentials out. Its attrs
    repr shows the App Key or operator token (in `token`, and in the headers once a request is
    made), so logging the client, or an error report that records local variables, would write
    the secret out."""

    def __repr__(self) -> str:
        return f"AuthenticatedClient(base_url={self._base_url!r}, credentials hidden)"


class Clickwrap:
    """The service at `base_url` (its root, such as `https://consent.example.com`).

    Give `app_id` and `app_key` for the server-side routes, `operator_token` for the operator API,
    or both. `retry` says how to retry (by default as `RetryPolicy()` does); `timeout` is in
    seconds per attempt; `verify` is httpx's: False, a CA bundle's path or an `ssl.SSLContext`, for
    a service behind a private CA.
    """

    def __init__(
        self,
        base_url: str,
        *,
        app_id: str | UUID | None = None,
        app_key: str | None = None,
        operator_token: str | None = None,
        retry: RetryPolicy | None = None,
        timeout: float = 30.0,
        verify: bool | str | ssl.SSLContext = True,
    ):
        self.base_url = base_url.rstrip("/")
        self._app_id = str(app_id) if app_id is not None else None
        self._app_key = app_key
        self._operator_token = operator_token
        self._retry = retry or RetryPolicy()
        self._timeout = httpx.Timeout(timeout)
        # httpx 0.28 deprecates a CA bundle's path as `verify` (a warning on every client made, and
        # gone in a later httpx): the path becomes the SSL context httpx asks for instead.
        self._verify = ssl.create_default_context(cafile=verify) if isinstance(verify, str) else verify

    # ---- the generated clients -------------------------------------------------------------------

    @cached_property
    def app_client(self) -> AuthenticatedClient:
        """The client for the server-side routes: sends `X-APP-ID` and `X-APP-KEY`."""
        if self._app_id is None or self._app_key is None:
            raise ValueError("Clickwrap(...) needs app_id and app_key for the server-side routes")
        return _CredentialedClient(
            base_url=self.base_url,
            token=self._app_key,
            prefix="",
            auth_header_name="X-APP-KEY",
            headers={"X-APP-ID": self._app_id},
            timeout=self._timeout,
            httpx_args=self._httpx_args(),
        )

    @cached_property
    def operator_client(self) -> AuthenticatedClient:
        """The client for the operator API: sends `Authorization: Bearer <operator token>`."""
        if self._operator_token is None:
            raise ValueError("Clickwrap(...) needs operator_token for the operator API")
        return _CredentialedClient(
            base_url=self.base_url,
            token=self._operator_token,
            timeout=self._timeout,
            httpx_args=self._httpx_args(),
        )

    @cached_property
    def public_client(self) -> Client:
        """The client for the public routes (what the browser SDK calls): no credentials."""
        return Client(base_url=self.base_url, timeout=self._timeout, httpx_args=self._httpx_args())

    def close(self) -> None:
        """Closes the connections of the clients made so far."""
        for name in ("app_client", "operator_client", "public_client"):
            client = self.__dict__.pop(name, None)
            if client is not None:
                client.get_httpx_client().close()

    def __enter__(self) -> Clickwrap:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    # ---- server-side: App ID and App Key -----------------------------------------------------------

    def verify_signature(self, signature: str) -> VerifiedEvent:
        """`POST /clickwrap/verify`: records the end user's action. Billed.

        A Signature verified before raises ClickwrapError with `code` `SIGNATURE_ALREADY_VERIFIED`
        and the event in `problem["clickwrapEventId"]`.
        """
        body = VerifyRequest(service_signature=signature)
        return _expect(VerifiedEvent, verify_signature.sync(client=self.app_client, body=body))

    def list_events(self, **filters: Any) -> EventPage:
        """One page of `GET /clickwrap-events`, newest first. Filters as the generated
        `list_clickwrap_events.sync`: `clickwrap_template_id`, `end_user_id`,
        `clickwrap_event_status`, `from_`, `to`, `limit`, `next_page_cursor`."""
        return _expect(EventPage, list_clickwrap_events.sync(client=self.app_client, **filters))

    def iter_events(self, **filters: Any) -> Iterator[ClickwrapEvent]:
        """Every event matching `filters` (as `list_events`), newest first, page after page."""
        return iterate_pages(self.list_events, **filters)

    def event_details(self, event_id: str | UUID) -> EventDetails:
        """`GET /clickwrap-events/{id}/details`."""
        answer = get_clickwrap_event_details.sync(UUID(str(event_id)), client=self.app_client)
        return _expect(EventDetails, answer)

    def certificate(self, event_id: str | UUID) -> bytes:
        """The Certificate of Acceptance of an ACCEPTED event: a signed PDF."""
        answer = get_certificate_of_acceptance.sync(UUID(str(event_id)), client=self.app_client)
        return _expect(File, answer).payload.read()

    def agreement(self, event_id: str | UUID) -> bytes:
        """The Clickwrap Agreement of an ACCEPTED event: the content as shown and the certificate, a PDF."""
        answer = get_clickwrap_agreement.sync(UUID(str(event_id)), client=self.app_client)
        return _expect(File, answer).payload.read()

    def consent_status(self, end_user_id: str, template_id: str | UUID | None = None) -> ConsentStatus:
        """`GET /clickwraps/{endUserId}/status`, for every template or one."""
        template: UUID | Unset = UNSET if template_id is None else UUID(str(template_id))
        answer = get_consent_status.sync(end_user_id, client=self.app_client, clickwrap_template_id=template)
        return _expect(ConsentStatus, answer)

    # ---- operator API: operator token --------------------------------------------------------------

    def create_app(self, name: str, webhook_url: str | None = None) -> AppCreated:
        """A new app; its App Key and webhook signing secret are shown only in this answer."""
        body = CreateAppRequest(name=name, webhook_url=webhook_url if webhook_url is not None else UNSET)
        return _expect(AppCreated, create_app.sync(client=self.operator_client, body=body))

    def regenerate_app_key(self, app_id: str | UUID) -> str:
        """A new App Key for the app; the old one stops working at once."""
        answer = regenerate_app_key.sync(UUID(str(app_id)), client=self.operator_client)
        return _expect(RegeneratedAppKey, answer).app_key

    def create_template(self, name: str, content: dict[str, str]) -> Template:
        """A new template (a draft, disabled, no version) with HTML `content` per language."""
        localized = LocalizedContent()
        localized.additional_properties = dict(content)
        body = CreateTemplateRequest(name=name, content=localized)
        return _expect(Template, create_template.sync(client=self.operator_client, body=body))

    def publish_version(self, template_id: str | UUID, kind: VersionKind = VersionKind.MAJOR) -> PublishedVersion:
        """Publishes the template's draft as a new version, effective now."""
        answer = publish_template_version.sync(
            UUID(str(template_id)), client=self.operator_client, body=PublishRequest(kind=kind)
        )
        return _expect(PublishedVersion, answer)

    def enable_template(self, template_id: str | UUID) -> Template:
        """Enables the template: its Effective version is served."""
        return _expect(Template, enable_template.sync(UUID(str(template_id)), client=self.operator_client))

    def link_template(self, template_id: str | UUID, app_ids: list[str | UUID]) -> Template:
        """Makes the template available to these apps only (`[]`: to every app of the tenant)."""
        body = TemplateAppsRequest(app_ids=[UUID(str(app_id)) for app_id in app_ids])
        answer = set_template_apps.sync(UUID(str(template_id)), client=self.operator_client, body=body)
        return _expect(Template, answer)

    def _httpx_args(self) -> dict[str, Any]:
        """What each generated client passes to its httpx.Client: a retrying transport of its own
        (closing one client must not close another's connections) and the hook that turns problem
        answers into ClickwrapError."""
        return {
            "transport": RetryTransport(self._retry, inner=httpx.HTTPTransport(verify=self._verify)),
            "event_hooks": {"response": [raise_for_problem]},
        }


def iterate_pages(fetch_page: Callable[..., Any], **filters: Any) -> Iterator[Any]:
    """Every item of a cursor-paged list: calls `fetch_page(**filters, next_page_cursor=...)` with
    the cursor each page returns, until a page returns none (from `next_page_cursor` when given).

    Works for every list of the service that pages this way (the events lists, the webhook
    deliveries, the audit log), e.g. `iterate_pages(clickwrap.list_events, end_user_id="u-1")`.
    """
    cursor: str | Unset = filters.pop("next_page_cursor", None) or UNSET
    while True:
        page = fetch_page(**filters, next_page_cursor=cursor)
        yield from page.items
        if not page.next_page_cursor:
            return
        if page.next_page_cursor == cursor:
            # A page that points at itself would be fetched forever.
            raise RuntimeError(f"the service answered the cursor {cursor!r} with the same cursor")
        cursor = page.next_page_cursor


def _expect(kind: type[T], answer: object) -> T:
    """The parsed answer, which must be a `kind`: the response hook raised every problem already, so
    anything else means the service answered a success the document does not describe."""
    if not isinstance(answer, kind):
        raise RuntimeError(f"expected a {kind.__name__} from the service, got {answer!r}")
    return answer
