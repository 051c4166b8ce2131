from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.problem import Problem
from ...types import File, FileTypes
from io import BytesIO
from typing import cast
from uuid import UUID



def _get_kwargs(
    clickwrap_event_id: UUID,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/demo/certificate/{clickwrap_event_id}".format(clickwrap_event_id=quote(str(clickwrap_event_id), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> File | Problem | None:
    if response.status_code == 200:
        response_200 = File(
             payload = BytesIO(response.content)
        )



        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())



        return response_400

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())



        return response_404

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())



        return response_409

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[File | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    clickwrap_event_id: UUID,
    *,
    client: AuthenticatedClient | Client,

) -> Response[File | Problem]:
    """ A demo event's Certificate of Acceptance

     The signed PDF of an ACCEPTED event of the demo tenant, as `GET /public-client/v1/clickwrap-
    events/{clickwrapEventId}/certificate` gives it. No `Accept` negotiation. Only under `clickwrap-
    server demo`; under `serve` this path answers 404 `ROUTE_NOT_FOUND`.

    Args:
        clickwrap_event_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[File | Problem]
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
    client: AuthenticatedClient | Client,

) -> File | Problem | None:
    """ A demo event's Certificate of Acceptance

     The signed PDF of an ACCEPTED event of the demo tenant, as `GET /public-client/v1/clickwrap-
    events/{clickwrapEventId}/certificate` gives it. No `Accept` negotiation. Only under `clickwrap-
    server demo`; under `serve` this path answers 404 `ROUTE_NOT_FOUND`.

    Args:
        clickwrap_event_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        File | Problem
     """


    return sync_detailed(
        clickwrap_event_id=clickwrap_event_id,
client=client,

    ).parsed

async def asyncio_detailed(
    clickwrap_event_id: UUID,
    *,
    client: AuthenticatedClient | Client,

) -> Response[File | Problem]:
    """ A demo event's Certificate of Acceptance

     The signed PDF of an ACCEPTED event of the demo tenant, as `GET /public-client/v1/clickwrap-
    events/{clickwrapEventId}/certificate` gives it. No `Accept` negotiation. Only under `clickwrap-
    server demo`; under `serve` this path answers 404 `ROUTE_NOT_FOUND`.

    Args:
        clickwrap_event_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[File | Problem]
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
    client: AuthenticatedClient | Client,

) -> File | Problem | None:
    """ A demo event's Certificate of Acceptance

     The signed PDF of an ACCEPTED event of the demo tenant, as `GET /public-client/v1/clickwrap-
    events/{clickwrapEventId}/certificate` gives it. No `Accept` negotiation. Only under `clickwrap-
    server demo`; under `serve` this path answers 404 `ROUTE_NOT_FOUND`.

    Args:
        clickwrap_event_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        File | Problem
     """


    return (await asyncio_detailed(
        clickwrap_event_id=clickwrap_event_id,
client=client,

    )).parsed
