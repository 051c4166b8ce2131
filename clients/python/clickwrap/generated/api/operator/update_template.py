from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.problem import Problem
from ...models.template import Template
from ...models.update_template_request import UpdateTemplateRequest
from typing import cast
from uuid import UUID



def _get_kwargs(
    clickwrap_template_id: UUID,
    *,
    body: UpdateTemplateRequest,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/operator/v1/templates/{clickwrap_template_id}".format(clickwrap_template_id=quote(str(clickwrap_template_id), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | Template | None:
    if response.status_code == 200:
        response_200 = Template.from_dict(response.json())



        return response_200

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | Template]:
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
    body: UpdateTemplateRequest,

) -> Response[Problem | Template]:
    """ Change a template's settings

     Name, tags, default language and `alwaysRequireAcceptance`; members left out stay as they are.

    Args:
        clickwrap_template_id (UUID):
        body (UpdateTemplateRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Template]
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
    body: UpdateTemplateRequest,

) -> Problem | Template | None:
    """ Change a template's settings

     Name, tags, default language and `alwaysRequireAcceptance`; members left out stay as they are.

    Args:
        clickwrap_template_id (UUID):
        body (UpdateTemplateRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Template
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
    body: UpdateTemplateRequest,

) -> Response[Problem | Template]:
    """ Change a template's settings

     Name, tags, default language and `alwaysRequireAcceptance`; members left out stay as they are.

    Args:
        clickwrap_template_id (UUID):
        body (UpdateTemplateRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Template]
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
    body: UpdateTemplateRequest,

) -> Problem | Template | None:
    """ Change a template's settings

     Name, tags, default language and `alwaysRequireAcceptance`; members left out stay as they are.

    Args:
        clickwrap_template_id (UUID):
        body (UpdateTemplateRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Template
     """


    return (await asyncio_detailed(
        clickwrap_template_id=clickwrap_template_id,
client=client,
body=body,

    )).parsed
