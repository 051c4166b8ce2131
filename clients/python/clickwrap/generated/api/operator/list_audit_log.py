from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.audit_entry_page import AuditEntryPage
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
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
        "url": "/operator/v1/audit-log",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> AuditEntryPage | Problem | None:
    if response.status_code == 200:
        response_200 = AuditEntryPage.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[AuditEntryPage | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    next_page_cursor: str | Unset = UNSET,

) -> Response[AuditEntryPage | Problem]:
    """ The audit log: operator actions, newest first

     Every change made through the operator API or the console, written in the same transaction as the
    change; append-only.

    Args:
        limit (int | Unset):  Default: 20.
        next_page_cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AuditEntryPage | Problem]
     """


    kwargs = _get_kwargs(
        limit=limit,
next_page_cursor=next_page_cursor,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    next_page_cursor: str | Unset = UNSET,

) -> AuditEntryPage | Problem | None:
    """ The audit log: operator actions, newest first

     Every change made through the operator API or the console, written in the same transaction as the
    change; append-only.

    Args:
        limit (int | Unset):  Default: 20.
        next_page_cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AuditEntryPage | Problem
     """


    return sync_detailed(
        client=client,
limit=limit,
next_page_cursor=next_page_cursor,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    next_page_cursor: str | Unset = UNSET,

) -> Response[AuditEntryPage | Problem]:
    """ The audit log: operator actions, newest first

     Every change made through the operator API or the console, written in the same transaction as the
    change; append-only.

    Args:
        limit (int | Unset):  Default: 20.
        next_page_cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AuditEntryPage | Problem]
     """


    kwargs = _get_kwargs(
        limit=limit,
next_page_cursor=next_page_cursor,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 20,
    next_page_cursor: str | Unset = UNSET,

) -> AuditEntryPage | Problem | None:
    """ The audit log: operator actions, newest first

     Every change made through the operator API or the console, written in the same transaction as the
    change; append-only.

    Args:
        limit (int | Unset):  Default: 20.
        next_page_cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AuditEntryPage | Problem
     """


    return (await asyncio_detailed(
        client=client,
limit=limit,
next_page_cursor=next_page_cursor,

    )).parsed
