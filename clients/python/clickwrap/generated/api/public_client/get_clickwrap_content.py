from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.problem import Problem
from ...models.rendered_content import RenderedContent
from ...types import UNSET, Unset
from typing import cast
from uuid import UUID



def _get_kwargs(
    *,
    app_id: UUID,
    clickwrap_template_id: UUID,
    clickwrap_template_version: int | Unset = UNSET,
    clickwrap_template_version_minor: int | Unset = UNSET,
    language: str | Unset = UNSET,
    template_placeholders: str | Unset = UNSET,
    end_user_id: str | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_app_id = str(app_id)
    params["appId"] = json_app_id

    json_clickwrap_template_id = str(clickwrap_template_id)
    params["clickwrapTemplateId"] = json_clickwrap_template_id

    params["clickwrapTemplateVersion"] = clickwrap_template_version

    params["clickwrapTemplateVersionMinor"] = clickwrap_template_version_minor

    params["language"] = language

    params["templatePlaceholders"] = template_placeholders

    params["endUserId"] = end_user_id


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/public-client/v1/clickwrap/content",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | RenderedContent | None:
    if response.status_code == 200:
        response_200 = RenderedContent.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | RenderedContent]:
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
    clickwrap_template_version: int | Unset = UNSET,
    clickwrap_template_version_minor: int | Unset = UNSET,
    language: str | Unset = UNSET,
    template_placeholders: str | Unset = UNSET,
    end_user_id: str | Unset = UNSET,

) -> Response[Problem | RenderedContent]:
    """ The rendered content of a version

     By default the latest Effective version, rendered with the given language and placeholders; with
    `clickwrapTemplateVersion` (and optionally `clickwrapTemplateVersionMinor`, default 0) that version.
    With `endUserId` and no version (what `showAcceptedContent` shows): exactly what that end user last
    accepted, as stored with the verified event: the content as shown, in the language and with the
    placeholder values of that acceptance, with its stored `contentHash`, the template name and version
    of that moment; `language` and `templatePlaceholders` are then ignored, and it is answered also
    after the template was disabled or unlinked from the app. 404 when the end user has no verified
    acceptance of the template.

    Args:
        app_id (UUID):
        clickwrap_template_id (UUID):
        clickwrap_template_version (int | Unset):
        clickwrap_template_version_minor (int | Unset):
        language (str | Unset):
        template_placeholders (str | Unset):
        end_user_id (str | Unset): The caller's identifier of the end user: 1 to 256 characters,
            no control characters.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RenderedContent]
     """


    kwargs = _get_kwargs(
        app_id=app_id,
clickwrap_template_id=clickwrap_template_id,
clickwrap_template_version=clickwrap_template_version,
clickwrap_template_version_minor=clickwrap_template_version_minor,
language=language,
template_placeholders=template_placeholders,
end_user_id=end_user_id,

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
    clickwrap_template_version: int | Unset = UNSET,
    clickwrap_template_version_minor: int | Unset = UNSET,
    language: str | Unset = UNSET,
    template_placeholders: str | Unset = UNSET,
    end_user_id: str | Unset = UNSET,

) -> Problem | RenderedContent | None:
    """ The rendered content of a version

     By default the latest Effective version, rendered with the given language and placeholders; with
    `clickwrapTemplateVersion` (and optionally `clickwrapTemplateVersionMinor`, default 0) that version.
    With `endUserId` and no version (what `showAcceptedContent` shows): exactly what that end user last
    accepted, as stored with the verified event: the content as shown, in the language and with the
    placeholder values of that acceptance, with its stored `contentHash`, the template name and version
    of that moment; `language` and `templatePlaceholders` are then ignored, and it is answered also
    after the template was disabled or unlinked from the app. 404 when the end user has no verified
    acceptance of the template.

    Args:
        app_id (UUID):
        clickwrap_template_id (UUID):
        clickwrap_template_version (int | Unset):
        clickwrap_template_version_minor (int | Unset):
        language (str | Unset):
        template_placeholders (str | Unset):
        end_user_id (str | Unset): The caller's identifier of the end user: 1 to 256 characters,
            no control characters.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RenderedContent
     """


    return sync_detailed(
        client=client,
app_id=app_id,
clickwrap_template_id=clickwrap_template_id,
clickwrap_template_version=clickwrap_template_version,
clickwrap_template_version_minor=clickwrap_template_version_minor,
language=language,
template_placeholders=template_placeholders,
end_user_id=end_user_id,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    app_id: UUID,
    clickwrap_template_id: UUID,
    clickwrap_template_version: int | Unset = UNSET,
    clickwrap_template_version_minor: int | Unset = UNSET,
    language: str | Unset = UNSET,
    template_placeholders: str | Unset = UNSET,
    end_user_id: str | Unset = UNSET,

) -> Response[Problem | RenderedContent]:
    """ The rendered content of a version

     By default the latest Effective version, rendered with the given language and placeholders; with
    `clickwrapTemplateVersion` (and optionally `clickwrapTemplateVersionMinor`, default 0) that version.
    With `endUserId` and no version (what `showAcceptedContent` shows): exactly what that end user last
    accepted, as stored with the verified event: the content as shown, in the language and with the
    placeholder values of that acceptance, with its stored `contentHash`, the template name and version
    of that moment; `language` and `templatePlaceholders` are then ignored, and it is answered also
    after the template was disabled or unlinked from the app. 404 when the end user has no verified
    acceptance of the template.

    Args:
        app_id (UUID):
        clickwrap_template_id (UUID):
        clickwrap_template_version (int | Unset):
        clickwrap_template_version_minor (int | Unset):
        language (str | Unset):
        template_placeholders (str | Unset):
        end_user_id (str | Unset): The caller's identifier of the end user: 1 to 256 characters,
            no control characters.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RenderedContent]
     """


    kwargs = _get_kwargs(
        app_id=app_id,
clickwrap_template_id=clickwrap_template_id,
clickwrap_template_version=clickwrap_template_version,
clickwrap_template_version_minor=clickwrap_template_version_minor,
language=language,
template_placeholders=template_placeholders,
end_user_id=end_user_id,

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
    clickwrap_template_version: int | Unset = UNSET,
    clickwrap_template_version_minor: int | Unset = UNSET,
    language: str | Unset = UNSET,
    template_placeholders: str | Unset = UNSET,
    end_user_id: str | Unset = UNSET,

) -> Problem | RenderedContent | None:
    """ The rendered content of a version

     By default the latest Effective version, rendered with the given language and placeholders; with
    `clickwrapTemplateVersion` (and optionally `clickwrapTemplateVersionMinor`, default 0) that version.
    With `endUserId` and no version (what `showAcceptedContent` shows): exactly what that end user last
    accepted, as stored with the verified event: the content as shown, in the language and with the
    placeholder values of that acceptance, with its stored `contentHash`, the template name and version
    of that moment; `language` and `templatePlaceholders` are then ignored, and it is answered also
    after the template was disabled or unlinked from the app. 404 when the end user has no verified
    acceptance of the template.

    Args:
        app_id (UUID):
        clickwrap_template_id (UUID):
        clickwrap_template_version (int | Unset):
        clickwrap_template_version_minor (int | Unset):
        language (str | Unset):
        template_placeholders (str | Unset):
        end_user_id (str | Unset): The caller's identifier of the end user: 1 to 256 characters,
            no control characters.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RenderedContent
     """


    return (await asyncio_detailed(
        client=client,
app_id=app_id,
clickwrap_template_id=clickwrap_template_id,
clickwrap_template_version=clickwrap_template_version,
clickwrap_template_version_minor=clickwrap_template_version_minor,
language=language,
template_placeholders=template_placeholders,
end_user_id=end_user_id,

    )).parsed
