from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.clickwrap_view import ClickwrapView
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast
from uuid import UUID



def _get_kwargs(
    *,
    app_id: UUID,
    clickwrap_template_id: UUID,
    end_user_id: str,
    language: str | Unset = UNSET,
    template_placeholders: str | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_app_id = str(app_id)
    params["appId"] = json_app_id

    json_clickwrap_template_id = str(clickwrap_template_id)
    params["clickwrapTemplateId"] = json_clickwrap_template_id

    params["endUserId"] = end_user_id

    params["language"] = language

    params["templatePlaceholders"] = template_placeholders


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/public-client/v1/clickwrap",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ClickwrapView | Problem | None:
    if response.status_code == 200:
        response_200 = ClickwrapView.from_dict(response.json())



        return response_200

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ClickwrapView | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    app_id: UUID,
    clickwrap_template_id: UUID,
    end_user_id: str,
    language: str | Unset = UNSET,
    template_placeholders: str | Unset = UNSET,

) -> Response[ClickwrapView | Problem]:
    """ Fetch a template's latest Effective version and whether the end user must accept it

     `acceptanceRequired` is false when the end user's latest verified action on the latest Effective
    major version is ACCEPTED (then the SDK shows nothing), unless the template always requires
    acceptance or a re-accept was requested. Rate limited per app and client IP.

    Args:
        app_id (UUID):
        clickwrap_template_id (UUID):
        end_user_id (str): The caller's identifier of the end user: 1 to 256 characters, no
            control characters.
        language (str | Unset):
        template_placeholders (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ClickwrapView | Problem]
     """


    kwargs = _get_kwargs(
        app_id=app_id,
clickwrap_template_id=clickwrap_template_id,
end_user_id=end_user_id,
language=language,
template_placeholders=template_placeholders,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient | Client,
    app_id: UUID,
    clickwrap_template_id: UUID,
    end_user_id: str,
    language: str | Unset = UNSET,
    template_placeholders: str | Unset = UNSET,

) -> ClickwrapView | Problem | None:
    """ Fetch a template's latest Effective version and whether the end user must accept it

     `acceptanceRequired` is false when the end user's latest verified action on the latest Effective
    major version is ACCEPTED (then the SDK shows nothing), unless the template always requires
    acceptance or a re-accept was requested. Rate limited per app and client IP.

    Args:
        app_id (UUID):
        clickwrap_template_id (UUID):
        end_user_id (str): The caller's identifier of the end user: 1 to 256 characters, no
            control characters.
        language (str | Unset):
        template_placeholders (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ClickwrapView | Problem
     """


    return sync_detailed(
        client=client,
app_id=app_id,
clickwrap_template_id=clickwrap_template_id,
end_user_id=end_user_id,
language=language,
template_placeholders=template_placeholders,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    app_id: UUID,
    clickwrap_template_id: UUID,
    end_user_id: str,
    language: str | Unset = UNSET,
    template_placeholders: str | Unset = UNSET,

) -> Response[ClickwrapView | Problem]:
    """ Fetch a template's latest Effective version and whether the end user must accept it

     `acceptanceRequired` is false when the end user's latest verified action on the latest Effective
    major version is ACCEPTED (then the SDK shows nothing), unless the template always requires
    acceptance or a re-accept was requested. Rate limited per app and client IP.

    Args:
        app_id (UUID):
        clickwrap_template_id (UUID):
        end_user_id (str): The caller's identifier of the end user: 1 to 256 characters, no
            control characters.
        language (str | Unset):
        template_placeholders (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ClickwrapView | Problem]
     """


    kwargs = _get_kwargs(
        app_id=app_id,
clickwrap_template_id=clickwrap_template_id,
end_user_id=end_user_id,
language=language,
template_placeholders=template_placeholders,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    app_id: UUID,
    clickwrap_template_id: UUID,
    end_user_id: str,
    language: str | Unset = UNSET,
    template_placeholders: str | Unset = UNSET,

) -> ClickwrapView | Problem | None:
    """ Fetch a template's latest Effective version and whether the end user must accept it

     `acceptanceRequired` is false when the end user's latest verified action on the latest Effective
    major version is ACCEPTED (then the SDK shows nothing), unless the template always requires
    acceptance or a re-accept was requested. Rate limited per app and client IP.

    Args:
        app_id (UUID):
        clickwrap_template_id (UUID):
        end_user_id (str): The caller's identifier of the end user: 1 to 256 characters, no
            control characters.
        language (str | Unset):
        template_placeholders (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ClickwrapView | Problem
     """


    return (await asyncio_detailed(
        client=client,
app_id=app_id,
clickwrap_template_id=clickwrap_template_id,
end_user_id=end_user_id,
language=language,
template_placeholders=template_placeholders,

    )).parsed
