from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.problem import Problem
from ...models.signature_already_verified_problem import SignatureAlreadyVerifiedProblem
from ...models.verified_event import VerifiedEvent
from ...models.verify_request import VerifyRequest
from typing import cast



def _get_kwargs(
    *,
    body: VerifyRequest,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/public-client/v1/clickwrap/verify",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | SignatureAlreadyVerifiedProblem | VerifiedEvent | None:
    if response.status_code == 200:
        response_200 = VerifiedEvent.from_dict(response.json())



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

    if response.status_code == 406:
        response_406 = Problem.from_dict(response.json())



        return response_406

    if response.status_code == 409:
        response_409 = SignatureAlreadyVerifiedProblem.from_dict(response.json())



        return response_409

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | SignatureAlreadyVerifiedProblem | VerifiedEvent]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: VerifyRequest,

) -> Response[Problem | SignatureAlreadyVerifiedProblem | VerifiedEvent]:
    """ Verify a Signature and record the verified event

     Records the event as ACCEPTED or DECLINED, its Certificate of Acceptance (ACCEPTED only), the
    `CLICKWRAP_EVENT_VERIFIED` webhook and the billing count in one transaction. Counts toward billing
    and the event quota; rate limited per app and client IP.

    Args:
        body (VerifyRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SignatureAlreadyVerifiedProblem | VerifiedEvent]
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
    client: AuthenticatedClient,
    body: VerifyRequest,

) -> Problem | SignatureAlreadyVerifiedProblem | VerifiedEvent | None:
    """ Verify a Signature and record the verified event

     Records the event as ACCEPTED or DECLINED, its Certificate of Acceptance (ACCEPTED only), the
    `CLICKWRAP_EVENT_VERIFIED` webhook and the billing count in one transaction. Counts toward billing
    and the event quota; rate limited per app and client IP.

    Args:
        body (VerifyRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SignatureAlreadyVerifiedProblem | VerifiedEvent
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: VerifyRequest,

) -> Response[Problem | SignatureAlreadyVerifiedProblem | VerifiedEvent]:
    """ Verify a Signature and record the verified event

     Records the event as ACCEPTED or DECLINED, its Certificate of Acceptance (ACCEPTED only), the
    `CLICKWRAP_EVENT_VERIFIED` webhook and the billing count in one transaction. Counts toward billing
    and the event quota; rate limited per app and client IP.

    Args:
        body (VerifyRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SignatureAlreadyVerifiedProblem | VerifiedEvent]
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
    client: AuthenticatedClient,
    body: VerifyRequest,

) -> Problem | SignatureAlreadyVerifiedProblem | VerifiedEvent | None:
    """ Verify a Signature and record the verified event

     Records the event as ACCEPTED or DECLINED, its Certificate of Acceptance (ACCEPTED only), the
    `CLICKWRAP_EVENT_VERIFIED` webhook and the billing count in one transaction. Counts toward billing
    and the event quota; rate limited per app and client IP.

    Args:
        body (VerifyRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SignatureAlreadyVerifiedProblem | VerifiedEvent
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
