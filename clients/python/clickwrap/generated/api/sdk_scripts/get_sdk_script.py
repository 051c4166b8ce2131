from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...types import UNSET, Unset



def _get_kwargs(
    *,
    if_none_match: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_none_match, Unset):
        headers["If-None-Match"] = if_none_match



    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/sdk/v1/clickwrap.js",
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | str | None:
    if response.status_code == 200:
        response_200 = response.text
        return response_200

    if response.status_code == 304:
        response_304 = cast(Any, None)
        return response_304

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | str]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    if_none_match: str | Unset = UNSET,

) -> Response[Any | str]:
    """ The browser SDK (classic script)

     The SDK as a classic script, loaded by a script element's `src` attribute: it defines the globals
    `ClickwrapClient` and `ClickwrapDom`. See docs/sdk.md. Served as `text/javascript; charset=utf-8`
    (RFC 9239), not subject to `Accept` negotiation. `If-None-Match` equal to the current `ETag` (one
    tag, compared exactly) answers 304.

    Args:
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | str]
     """


    kwargs = _get_kwargs(
        if_none_match=if_none_match,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient | Client,
    if_none_match: str | Unset = UNSET,

) -> Any | str | None:
    """ The browser SDK (classic script)

     The SDK as a classic script, loaded by a script element's `src` attribute: it defines the globals
    `ClickwrapClient` and `ClickwrapDom`. See docs/sdk.md. Served as `text/javascript; charset=utf-8`
    (RFC 9239), not subject to `Accept` negotiation. `If-None-Match` equal to the current `ETag` (one
    tag, compared exactly) answers 304.

    Args:
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | str
     """


    return sync_detailed(
        client=client,
if_none_match=if_none_match,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    if_none_match: str | Unset = UNSET,

) -> Response[Any | str]:
    """ The browser SDK (classic script)

     The SDK as a classic script, loaded by a script element's `src` attribute: it defines the globals
    `ClickwrapClient` and `ClickwrapDom`. See docs/sdk.md. Served as `text/javascript; charset=utf-8`
    (RFC 9239), not subject to `Accept` negotiation. `If-None-Match` equal to the current `ETag` (one
    tag, compared exactly) answers 304.

    Args:
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | str]
     """


    kwargs = _get_kwargs(
        if_none_match=if_none_match,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    if_none_match: str | Unset = UNSET,

) -> Any | str | None:
    """ The browser SDK (classic script)

     The SDK as a classic script, loaded by a script element's `src` attribute: it defines the globals
    `ClickwrapClient` and `ClickwrapDom`. See docs/sdk.md. Served as `text/javascript; charset=utf-8`
    (RFC 9239), not subject to `Accept` negotiation. `If-None-Match` equal to the current `ETag` (one
    tag, compared exactly) answers 304.

    Args:
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | str
     """


    return (await asyncio_detailed(
        client=client,
if_none_match=if_none_match,

    )).parsed
