from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.console_disable_template_body import ConsoleDisableTemplateBody
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast
from uuid import UUID



def _get_kwargs(
    clickwrap_template_id: UUID,
    *,
    body: ConsoleDisableTemplateBody,
    x_csrf_token: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_csrf_token, Unset):
        headers["X-CSRF-Token"] = x_csrf_token



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/console/templates/{clickwrap_template_id}/disable".format(clickwrap_template_id=quote(str(clickwrap_template_id), safe=""),),
    }

    _kwargs["data"] = body.to_dict()
    headers["Content-Type"] = "application/x-www-form-urlencoded"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | Problem | str | None:
    if response.status_code == 303:
        response_303 = cast(Any, None)
        return response_303

    if response.status_code == 403:
        response_403 = response.text
        return response_403

    if response.status_code == 404:
        response_404 = response.text
        return response_404

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())



        return response_413

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | Problem | str]:
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
    body: ConsoleDisableTemplateBody,
    x_csrf_token: str | Unset = UNSET,

) -> Response[Any | Problem | str]:
    """ Disable a template (it is no longer served)

     Disables a template (it is no longer served) and redirects (303) back to its page.

    Args:
        clickwrap_template_id (UUID):
        x_csrf_token (str | Unset):
        body (ConsoleDisableTemplateBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem | str]
     """


    kwargs = _get_kwargs(
        clickwrap_template_id=clickwrap_template_id,
body=body,
x_csrf_token=x_csrf_token,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    clickwrap_template_id: UUID,
    *,
    client: AuthenticatedClient,
    body: ConsoleDisableTemplateBody,
    x_csrf_token: str | Unset = UNSET,

) -> Any | Problem | str | None:
    """ Disable a template (it is no longer served)

     Disables a template (it is no longer served) and redirects (303) back to its page.

    Args:
        clickwrap_template_id (UUID):
        x_csrf_token (str | Unset):
        body (ConsoleDisableTemplateBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem | str
     """


    return sync_detailed(
        clickwrap_template_id=clickwrap_template_id,
client=client,
body=body,
x_csrf_token=x_csrf_token,

    ).parsed

async def asyncio_detailed(
    clickwrap_template_id: UUID,
    *,
    client: AuthenticatedClient,
    body: ConsoleDisableTemplateBody,
    x_csrf_token: str | Unset = UNSET,

) -> Response[Any | Problem | str]:
    """ Disable a template (it is no longer served)

     Disables a template (it is no longer served) and redirects (303) back to its page.

    Args:
        clickwrap_template_id (UUID):
        x_csrf_token (str | Unset):
        body (ConsoleDisableTemplateBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem | str]
     """


    kwargs = _get_kwargs(
        clickwrap_template_id=clickwrap_template_id,
body=body,
x_csrf_token=x_csrf_token,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    clickwrap_template_id: UUID,
    *,
    client: AuthenticatedClient,
    body: ConsoleDisableTemplateBody,
    x_csrf_token: str | Unset = UNSET,

) -> Any | Problem | str | None:
    """ Disable a template (it is no longer served)

     Disables a template (it is no longer served) and redirects (303) back to its page.

    Args:
        clickwrap_template_id (UUID):
        x_csrf_token (str | Unset):
        body (ConsoleDisableTemplateBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem | str
     """


    return (await asyncio_detailed(
        clickwrap_template_id=clickwrap_template_id,
client=client,
body=body,
x_csrf_token=x_csrf_token,

    )).parsed
