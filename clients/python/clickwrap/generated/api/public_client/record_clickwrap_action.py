from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.problem import Problem
from ...models.record_action_request import RecordActionRequest
from ...models.record_action_response import RecordActionResponse
from typing import cast



def _get_kwargs(
    *,
    body: RecordActionRequest,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/public-client/v1/clickwrap",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | RecordActionResponse | None:
    if response.status_code == 201:
        response_201 = RecordActionResponse.from_dict(response.json())



        return response_201

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())



        return response_400

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

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())



        return response_429

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | RecordActionResponse]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: RecordActionRequest,

) -> Response[Problem | RecordActionResponse]:
    """ Record the end user's action and get a Signature

     The version must exist and be Effective, and `contentHash` must equal the hash of that version's
    content rendered with these placeholders in this language: the record proves what was shown. Stores
    an UNVERIFIED event; the Signature is opaque, names the event and the app, and expires.

    Args:
        body (RecordActionRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RecordActionResponse]
     """


    kwargs = _get_kwargs(
        body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient | Client,
    body: RecordActionRequest,

) -> Problem | RecordActionResponse | None:
    """ Record the end user's action and get a Signature

     The version must exist and be Effective, and `contentHash` must equal the hash of that version's
    content rendered with these placeholders in this language: the record proves what was shown. Stores
    an UNVERIFIED event; the Signature is opaque, names the event and the app, and expires.

    Args:
        body (RecordActionRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RecordActionResponse
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: RecordActionRequest,

) -> Response[Problem | RecordActionResponse]:
    """ Record the end user's action and get a Signature

     The version must exist and be Effective, and `contentHash` must equal the hash of that version's
    content rendered with these placeholders in this language: the record proves what was shown. Stores
    an UNVERIFIED event; the Signature is opaque, names the event and the app, and expires.

    Args:
        body (RecordActionRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RecordActionResponse]
     """


    kwargs = _get_kwargs(
        body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: RecordActionRequest,

) -> Problem | RecordActionResponse | None:
    """ Record the end user's action and get a Signature

     The version must exist and be Effective, and `contentHash` must equal the hash of that version's
    content rendered with these placeholders in this language: the record proves what was shown. Stores
    an UNVERIFIED event; the Signature is opaque, names the event and the app, and expires.

    Args:
        body (RecordActionRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RecordActionResponse
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
