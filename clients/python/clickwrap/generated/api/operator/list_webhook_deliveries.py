from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.problem import Problem
from ...models.webhook_delivery_page import WebhookDeliveryPage
from ...types import UNSET, Unset
from typing import cast
from uuid import UUID



def _get_kwargs(
    app_id: UUID,
    *,
    limit: int | Unset = 20,
    next_page_cursor: str | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["nextPageCursor"] = next_page_cursor


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/operator/v1/apps/{app_id}/webhook-deliveries".format(app_id=quote(str(app_id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | WebhookDeliveryPage | None:
    if response.status_code == 200:
        response_200 = WebhookDeliveryPage.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | WebhookDeliveryPage]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    app_id: UUID,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    next_page_cursor: str | Unset = UNSET,

) -> Response[Problem | WebhookDeliveryPage]:
    """ Webhook delivery history of an app

     Deliveries newest first, each with every attempt (request body, response status, up to 4 KiB of the
    response, error class, duration, timestamps).

    Args:
        app_id (UUID):
        limit (int | Unset):  Default: 20.
        next_page_cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | WebhookDeliveryPage]
     """


    kwargs = _get_kwargs(
        app_id=app_id,
limit=limit,
next_page_cursor=next_page_cursor,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    app_id: UUID,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    next_page_cursor: str | Unset = UNSET,

) -> Problem | WebhookDeliveryPage | None:
    """ Webhook delivery history of an app

     Deliveries newest first, each with every attempt (request body, response status, up to 4 KiB of the
    response, error class, duration, timestamps).

    Args:
        app_id (UUID):
        limit (int | Unset):  Default: 20.
        next_page_cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | WebhookDeliveryPage
     """


    return sync_detailed(
        app_id=app_id,
client=client,
limit=limit,
next_page_cursor=next_page_cursor,

    ).parsed

async def asyncio_detailed(
    app_id: UUID,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    next_page_cursor: str | Unset = UNSET,

) -> Response[Problem | WebhookDeliveryPage]:
    """ Webhook delivery history of an app

     Deliveries newest first, each with every attempt (request body, response status, up to 4 KiB of the
    response, error class, duration, timestamps).

    Args:
        app_id (UUID):
        limit (int | Unset):  Default: 20.
        next_page_cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | WebhookDeliveryPage]
     """


    kwargs = _get_kwargs(
        app_id=app_id,
limit=limit,
next_page_cursor=next_page_cursor,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    app_id: UUID,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    next_page_cursor: str | Unset = UNSET,

) -> Problem | WebhookDeliveryPage | None:
    """ Webhook delivery history of an app

     Deliveries newest first, each with every attempt (request body, response status, up to 4 KiB of the
    response, error class, duration, timestamps).

    Args:
        app_id (UUID):
        limit (int | Unset):  Default: 20.
        next_page_cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | WebhookDeliveryPage
     """


    return (await asyncio_detailed(
        app_id=app_id,
client=client,
limit=limit,
next_page_cursor=next_page_cursor,

    )).parsed
