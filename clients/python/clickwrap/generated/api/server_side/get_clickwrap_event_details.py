from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.event_details import EventDetails
from ...models.problem import Problem
from typing import cast
from uuid import UUID



def _get_kwargs(
    clickwrap_event_id: UUID,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/public-client/v1/clickwrap-events/{clickwrap_event_id}/details".format(clickwrap_event_id=quote(str(clickwrap_event_id), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> EventDetails | Problem | None:
    if response.status_code == 200:
        response_200 = EventDetails.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())



        return response_401

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())



        return response_404

    if response.status_code == 406:
        response_406 = Problem.from_dict(response.json())



        return response_406

    if response.status_code == 500:
        response_500 = Problem.from_dict(response.json())



        return response_500

    if response.status_code == 503:
        response_503 = Problem.from_dict(response.json())



        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[EventDetails | Problem]:
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

) -> Response[EventDetails | Problem]:
    """ A verified event with its content, presentation, certificate hash and webhook delivery

     Everything recorded for one verified event of the app: the facts, the content exactly as shown (with
    its hash), how it was presented, the SHA-256 of its Certificate of Acceptance and the state of its
    webhook delivery.

    Args:
        clickwrap_event_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EventDetails | Problem]
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

) -> EventDetails | Problem | None:
    """ A verified event with its content, presentation, certificate hash and webhook delivery

     Everything recorded for one verified event of the app: the facts, the content exactly as shown (with
    its hash), how it was presented, the SHA-256 of its Certificate of Acceptance and the state of its
    webhook delivery.

    Args:
        clickwrap_event_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EventDetails | Problem
     """


    return sync_detailed(
        clickwrap_event_id=clickwrap_event_id,
client=client,

    ).parsed

async def asyncio_detailed(
    clickwrap_event_id: UUID,
    *,
    client: AuthenticatedClient,

) -> Response[EventDetails | Problem]:
    """ A verified event with its content, presentation, certificate hash and webhook delivery

     Everything recorded for one verified event of the app: the facts, the content exactly as shown (with
    its hash), how it was presented, the SHA-256 of its Certificate of Acceptance and the state of its
    webhook delivery.

    Args:
        clickwrap_event_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EventDetails | Problem]
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

) -> EventDetails | Problem | None:
    """ A verified event with its content, presentation, certificate hash and webhook delivery

     Everything recorded for one verified event of the app: the facts, the content exactly as shown (with
    its hash), how it was presented, the SHA-256 of its Certificate of Acceptance and the state of its
    webhook delivery.

    Args:
        clickwrap_event_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EventDetails | Problem
     """


    return (await asyncio_detailed(
        clickwrap_event_id=clickwrap_event_id,
client=client,

    )).parsed
