from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.available_template_list import AvailableTemplateList
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    tags: list[str] | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_tags: list[str] | Unset = UNSET
    if not isinstance(tags, Unset):
        json_tags = tags


    params["tags"] = json_tags


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/public-client/v1/clickwrap-templates",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> AvailableTemplateList | Problem | None:
    if response.status_code == 200:
        response_200 = AvailableTemplateList.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())



        return response_401

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[AvailableTemplateList | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    tags: list[str] | Unset = UNSET,

) -> Response[AvailableTemplateList | Problem]:
    """ Enabled templates with an Effective version available to the app

     The templates the app may show: enabled, linked to the app, with an Effective version. Use their ids
    with the SDK's `show` and with the status check.

    Args:
        tags (list[str] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AvailableTemplateList | Problem]
     """


    kwargs = _get_kwargs(
        tags=tags,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    tags: list[str] | Unset = UNSET,

) -> AvailableTemplateList | Problem | None:
    """ Enabled templates with an Effective version available to the app

     The templates the app may show: enabled, linked to the app, with an Effective version. Use their ids
    with the SDK's `show` and with the status check.

    Args:
        tags (list[str] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AvailableTemplateList | Problem
     """


    return sync_detailed(
        client=client,
tags=tags,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    tags: list[str] | Unset = UNSET,

) -> Response[AvailableTemplateList | Problem]:
    """ Enabled templates with an Effective version available to the app

     The templates the app may show: enabled, linked to the app, with an Effective version. Use their ids
    with the SDK's `show` and with the status check.

    Args:
        tags (list[str] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AvailableTemplateList | Problem]
     """


    kwargs = _get_kwargs(
        tags=tags,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    tags: list[str] | Unset = UNSET,

) -> AvailableTemplateList | Problem | None:
    """ Enabled templates with an Effective version available to the app

     The templates the app may show: enabled, linked to the app, with an Effective version. Use their ids
    with the SDK's `show` and with the status check.

    Args:
        tags (list[str] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AvailableTemplateList | Problem
     """


    return (await asyncio_detailed(
        client=client,
tags=tags,

    )).parsed
