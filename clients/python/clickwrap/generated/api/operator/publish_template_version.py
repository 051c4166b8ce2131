from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.problem import Problem
from ...models.publish_request import PublishRequest
from ...models.published_version import PublishedVersion
from typing import cast
from uuid import UUID



def _get_kwargs(
    clickwrap_template_id: UUID,
    *,
    body: PublishRequest,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/operator/v1/templates/{clickwrap_template_id}/versions".format(clickwrap_template_id=quote(str(clickwrap_template_id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | PublishedVersion | None:
    if response.status_code == 201:
        response_201 = PublishedVersion.from_dict(response.json())



        return response_201

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())



        return response_404

    if response.status_code == 406:
        response_406 = Problem.from_dict(response.json())



        return response_406

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())



        return response_409

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())



        return response_413

    if response.status_code == 415:
        response_415 = Problem.from_dict(response.json())



        return response_415

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | PublishedVersion]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    clickwrap_template_id: UUID,
    *,
    client: AuthenticatedClient,
    body: PublishRequest,

) -> Response[Problem | PublishedVersion]:
    """ Publish the draft as a new, locked version

     The first version is 1.0; MINOR bumps the minor, MAJOR bumps the major and resets the minor to 0.
    `effectiveAt` defaults to now and may not be earlier than the previous version's; a future one is
    SCHEDULED.

    Args:
        clickwrap_template_id (UUID):
        body (PublishRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | PublishedVersion]
     """


    kwargs = _get_kwargs(
        clickwrap_template_id=clickwrap_template_id,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    clickwrap_template_id: UUID,
    *,
    client: AuthenticatedClient,
    body: PublishRequest,

) -> Problem | PublishedVersion | None:
    """ Publish the draft as a new, locked version

     The first version is 1.0; MINOR bumps the minor, MAJOR bumps the major and resets the minor to 0.
    `effectiveAt` defaults to now and may not be earlier than the previous version's; a future one is
    SCHEDULED.

    Args:
        clickwrap_template_id (UUID):
        body (PublishRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | PublishedVersion
     """


    return sync_detailed(
        clickwrap_template_id=clickwrap_template_id,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    clickwrap_template_id: UUID,
    *,
    client: AuthenticatedClient,
    body: PublishRequest,

) -> Response[Problem | PublishedVersion]:
    """ Publish the draft as a new, locked version

     The first version is 1.0; MINOR bumps the minor, MAJOR bumps the major and resets the minor to 0.
    `effectiveAt` defaults to now and may not be earlier than the previous version's; a future one is
    SCHEDULED.

    Args:
        clickwrap_template_id (UUID):
        body (PublishRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | PublishedVersion]
     """


    kwargs = _get_kwargs(
        clickwrap_template_id=clickwrap_template_id,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    clickwrap_template_id: UUID,
    *,
    client: AuthenticatedClient,
    body: PublishRequest,

) -> Problem | PublishedVersion | None:
    """ Publish the draft as a new, locked version

     The first version is 1.0; MINOR bumps the minor, MAJOR bumps the major and resets the minor to 0.
    `effectiveAt` defaults to now and may not be earlier than the previous version's; a future one is
    SCHEDULED.

    Args:
        clickwrap_template_id (UUID):
        body (PublishRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | PublishedVersion
     """


    return (await asyncio_detailed(
        clickwrap_template_id=clickwrap_template_id,
client=client,
body=body,

    )).parsed
