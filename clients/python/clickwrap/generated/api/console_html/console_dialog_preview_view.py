from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.console_dialog_view import ConsoleDialogView
from ...models.language import Language
from ...types import UNSET, Unset
from typing import cast
from uuid import UUID



def _get_kwargs(
    clickwrap_template_id: UUID,
    *,
    language: Language | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_language: str | Unset = UNSET
    if not isinstance(language, Unset):
        json_language = language.value

    params["language"] = json_language


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/console/templates/{clickwrap_template_id}/preview-view".format(clickwrap_template_id=quote(str(clickwrap_template_id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | ConsoleDialogView | str | None:
    if response.status_code == 200:
        response_200 = ConsoleDialogView.from_dict(response.json())



        return response_200

    if response.status_code == 303:
        response_303 = cast(Any, None)
        return response_303

    if response.status_code == 404:
        response_404 = response.text
        return response_404

    if response.status_code == 500:
        response_500 = response.text
        return response_500

    if response.status_code == 503:
        response_503 = response.text
        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | ConsoleDialogView | str]:
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
    language: Language | Unset = UNSET,

) -> Response[Any | ConsoleDialogView | str]:
    """ What the SDK's dialog needs to preview the template (JSON, for the page's script)

     What the SDK's dialog needs to preview the template in the console (JSON, read by the page's script,
    with the console session).

    Args:
        clickwrap_template_id (UUID):
        language (Language | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ConsoleDialogView | str]
     """


    kwargs = _get_kwargs(
        clickwrap_template_id=clickwrap_template_id,
language=language,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    clickwrap_template_id: UUID,
    *,
    client: AuthenticatedClient,
    language: Language | Unset = UNSET,

) -> Any | ConsoleDialogView | str | None:
    """ What the SDK's dialog needs to preview the template (JSON, for the page's script)

     What the SDK's dialog needs to preview the template in the console (JSON, read by the page's script,
    with the console session).

    Args:
        clickwrap_template_id (UUID):
        language (Language | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ConsoleDialogView | str
     """


    return sync_detailed(
        clickwrap_template_id=clickwrap_template_id,
client=client,
language=language,

    ).parsed

async def asyncio_detailed(
    clickwrap_template_id: UUID,
    *,
    client: AuthenticatedClient,
    language: Language | Unset = UNSET,

) -> Response[Any | ConsoleDialogView | str]:
    """ What the SDK's dialog needs to preview the template (JSON, for the page's script)

     What the SDK's dialog needs to preview the template in the console (JSON, read by the page's script,
    with the console session).

    Args:
        clickwrap_template_id (UUID):
        language (Language | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ConsoleDialogView | str]
     """


    kwargs = _get_kwargs(
        clickwrap_template_id=clickwrap_template_id,
language=language,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    clickwrap_template_id: UUID,
    *,
    client: AuthenticatedClient,
    language: Language | Unset = UNSET,

) -> Any | ConsoleDialogView | str | None:
    """ What the SDK's dialog needs to preview the template (JSON, for the page's script)

     What the SDK's dialog needs to preview the template in the console (JSON, read by the page's script,
    with the console session).

    Args:
        clickwrap_template_id (UUID):
        language (Language | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ConsoleDialogView | str
     """


    return (await asyncio_detailed(
        clickwrap_template_id=clickwrap_template_id,
client=client,
language=language,

    )).parsed
