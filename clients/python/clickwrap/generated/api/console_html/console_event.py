from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from uuid import UUID



def _get_kwargs(
    clickwrap_event_id: UUID,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/console/events/{clickwrap_event_id}".format(clickwrap_event_id=quote(str(clickwrap_event_id), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | str | None:
    if response.status_code == 200:
        response_200 = response.text
        return response_200

    if response.status_code == 303:
        response_303 = cast(Any, None)
        return response_303

    if response.status_code == 404:
        response_404 = response.text
        return response_404

    if response.status_code == 500:
        response_500 = response.text
        return response_500

    if response.status_code == 503:
        response_503 = response.text
        return response_503

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
    clickwrap_event_id: UUID,
    *,
    client: AuthenticatedClient,

) -> Response[Any | str]:
    """ A verified event's details, content as shown and webhook

     A verified event's details (HTML): the facts, the content as shown and its webhook delivery.

    Args:
        clickwrap_event_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | str]
     """


    kwargs = _get_kwargs(
        clickwrap_event_id=clickwrap_event_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    clickwrap_event_id: UUID,
    *,
    client: AuthenticatedClient,

) -> Any | str | None:
    """ A verified event's details, content as shown and webhook

     A verified event's details (HTML): the facts, the content as shown and its webhook delivery.

    Args:
        clickwrap_event_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | str
     """


    return sync_detailed(
        clickwrap_event_id=clickwrap_event_id,
client=client,

    ).parsed

async def asyncio_detailed(
    clickwrap_event_id: UUID,
    *,
    client: AuthenticatedClient,

) -> Response[Any | str]:
    """ A verified event's details, content as shown and webhook

     A verified event's details (HTML): the facts, the content as shown and its webhook delivery.

    Args:
        clickwrap_event_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | str]
     """


    kwargs = _get_kwargs(
        clickwrap_event_id=clickwrap_event_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    clickwrap_event_id: UUID,
    *,
    client: AuthenticatedClient,

) -> Any | str | None:
    """ A verified event's details, content as shown and webhook

     A verified event's details (HTML): the facts, the content as shown and its webhook delivery.

    Args:
        clickwrap_event_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | str
     """


    return (await asyncio_detailed(
        clickwrap_event_id=clickwrap_event_id,
client=client,

    )).parsed
