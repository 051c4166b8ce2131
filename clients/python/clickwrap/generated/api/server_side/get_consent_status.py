from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.consent_status import ConsentStatus
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast
from uuid import UUID



def _get_kwargs(
    end_user_id: str,
    *,
    clickwrap_template_id: UUID | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_clickwrap_template_id: str | Unset = UNSET
    if not isinstance(clickwrap_template_id, Unset):
        json_clickwrap_template_id = str(clickwrap_template_id)
    params["clickwrapTemplateId"] = json_clickwrap_template_id


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/public-client/v1/clickwraps/{end_user_id}/status".format(end_user_id=quote(str(end_user_id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ConsentStatus | Problem | None:
    if response.status_code == 200:
        response_200 = ConsentStatus.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ConsentStatus | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    end_user_id: str,
    *,
    client: AuthenticatedClient,
    clickwrap_template_id: UUID | Unset = UNSET,

) -> Response[ConsentStatus | Problem]:
    """ Consent status of an end user

     One item per enabled template available to the app, for its latest Effective major version. `status`
    is ACCEPTED when every item is ACCEPTED, else the first item's status. Another tenant's end user
    simply has no data.

    Args:
        end_user_id (str): The caller's identifier of the end user: 1 to 256 characters, no
            control characters.
        clickwrap_template_id (UUID | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConsentStatus | Problem]
     """


    kwargs = _get_kwargs(
        end_user_id=end_user_id,
clickwrap_template_id=clickwrap_template_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    end_user_id: str,
    *,
    client: AuthenticatedClient,
    clickwrap_template_id: UUID | Unset = UNSET,

) -> ConsentStatus | Problem | None:
    """ Consent status of an end user

     One item per enabled template available to the app, for its latest Effective major version. `status`
    is ACCEPTED when every item is ACCEPTED, else the first item's status. Another tenant's end user
    simply has no data.

    Args:
        end_user_id (str): The caller's identifier of the end user: 1 to 256 characters, no
            control characters.
        clickwrap_template_id (UUID | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ConsentStatus | Problem
     """


    return sync_detailed(
        end_user_id=end_user_id,
client=client,
clickwrap_template_id=clickwrap_template_id,

    ).parsed

async def asyncio_detailed(
    end_user_id: str,
    *,
    client: AuthenticatedClient,
    clickwrap_template_id: UUID | Unset = UNSET,

) -> Response[ConsentStatus | Problem]:
    """ Consent status of an end user

     One item per enabled template available to the app, for its latest Effective major version. `status`
    is ACCEPTED when every item is ACCEPTED, else the first item's status. Another tenant's end user
    simply has no data.

    Args:
        end_user_id (str): The caller's identifier of the end user: 1 to 256 characters, no
            control characters.
        clickwrap_template_id (UUID | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConsentStatus | Problem]
     """


    kwargs = _get_kwargs(
        end_user_id=end_user_id,
clickwrap_template_id=clickwrap_template_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    end_user_id: str,
    *,
    client: AuthenticatedClient,
    clickwrap_template_id: UUID | Unset = UNSET,

) -> ConsentStatus | Problem | None:
    """ Consent status of an end user

     One item per enabled template available to the app, for its latest Effective major version. `status`
    is ACCEPTED when every item is ACCEPTED, else the first item's status. Another tenant's end user
    simply has no data.

    Args:
        end_user_id (str): The caller's identifier of the end user: 1 to 256 characters, no
            control characters.
        clickwrap_template_id (UUID | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ConsentStatus | Problem
     """


    return (await asyncio_detailed(
        end_user_id=end_user_id,
client=client,
clickwrap_template_id=clickwrap_template_id,

    )).parsed
