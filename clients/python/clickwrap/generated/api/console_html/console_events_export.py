from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.action import Action
from ...models.export_format import ExportFormat
from ...types import UNSET, Unset
from uuid import UUID



def _get_kwargs(
    *,
    format_: ExportFormat | Unset = UNSET,
    clickwrap_template_id: UUID | Unset = UNSET,
    end_user_id: str | Unset = UNSET,
    status: Action | Unset = UNSET,
    from_: str | Unset = UNSET,
    to: str | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_format_: str | Unset = UNSET
    if not isinstance(format_, Unset):
        json_format_ = format_.value

    params["format"] = json_format_

    json_clickwrap_template_id: str | Unset = UNSET
    if not isinstance(clickwrap_template_id, Unset):
        json_clickwrap_template_id = str(clickwrap_template_id)
    params["clickwrapTemplateId"] = json_clickwrap_template_id

    params["endUserId"] = end_user_id

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status.value

    params["status"] = json_status

    params["from"] = from_

    params["to"] = to


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/console/events/export",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | str | None:
    if response.status_code == 200:
        response_200 = response.text
        return response_200

    if response.status_code == 303:
        response_303 = cast(Any, None)
        return response_303

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | str]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    format_: ExportFormat | Unset = UNSET,
    clickwrap_template_id: UUID | Unset = UNSET,
    end_user_id: str | Unset = UNSET,
    status: Action | Unset = UNSET,
    from_: str | Unset = UNSET,
    to: str | Unset = UNSET,

) -> Response[Any | str]:
    """ Download the filtered events (NDJSON or CSV)

     Exactly the file of `GET /operator/v1/events/export` for the same filters.

    Args:
        format_ (ExportFormat | Unset): `ndjson`: one JSON object per line. `csv`: RFC 4180.
        clickwrap_template_id (UUID | Unset):
        end_user_id (str | Unset):
        status (Action | Unset): What the end user did: accepted or declined the agreement.
        from_ (str | Unset):
        to (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | str]
     """


    kwargs = _get_kwargs(
        format_=format_,
clickwrap_template_id=clickwrap_template_id,
end_user_id=end_user_id,
status=status,
from_=from_,
to=to,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    format_: ExportFormat | Unset = UNSET,
    clickwrap_template_id: UUID | Unset = UNSET,
    end_user_id: str | Unset = UNSET,
    status: Action | Unset = UNSET,
    from_: str | Unset = UNSET,
    to: str | Unset = UNSET,

) -> Any | str | None:
    """ Download the filtered events (NDJSON or CSV)

     Exactly the file of `GET /operator/v1/events/export` for the same filters.

    Args:
        format_ (ExportFormat | Unset): `ndjson`: one JSON object per line. `csv`: RFC 4180.
        clickwrap_template_id (UUID | Unset):
        end_user_id (str | Unset):
        status (Action | Unset): What the end user did: accepted or declined the agreement.
        from_ (str | Unset):
        to (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | str
     """


    return sync_detailed(
        client=client,
format_=format_,
clickwrap_template_id=clickwrap_template_id,
end_user_id=end_user_id,
status=status,
from_=from_,
to=to,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    format_: ExportFormat | Unset = UNSET,
    clickwrap_template_id: UUID | Unset = UNSET,
    end_user_id: str | Unset = UNSET,
    status: Action | Unset = UNSET,
    from_: str | Unset = UNSET,
    to: str | Unset = UNSET,

) -> Response[Any | str]:
    """ Download the filtered events (NDJSON or CSV)

     Exactly the file of `GET /operator/v1/events/export` for the same filters.

    Args:
        format_ (ExportFormat | Unset): `ndjson`: one JSON object per line. `csv`: RFC 4180.
        clickwrap_template_id (UUID | Unset):
        end_user_id (str | Unset):
        status (Action | Unset): What the end user did: accepted or declined the agreement.
        from_ (str | Unset):
        to (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | str]
     """


    kwargs = _get_kwargs(
        format_=format_,
clickwrap_template_id=clickwrap_template_id,
end_user_id=end_user_id,
status=status,
from_=from_,
to=to,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    format_: ExportFormat | Unset = UNSET,
    clickwrap_template_id: UUID | Unset = UNSET,
    end_user_id: str | Unset = UNSET,
    status: Action | Unset = UNSET,
    from_: str | Unset = UNSET,
    to: str | Unset = UNSET,

) -> Any | str | None:
    """ Download the filtered events (NDJSON or CSV)

     Exactly the file of `GET /operator/v1/events/export` for the same filters.

    Args:
        format_ (ExportFormat | Unset): `ndjson`: one JSON object per line. `csv`: RFC 4180.
        clickwrap_template_id (UUID | Unset):
        end_user_id (str | Unset):
        status (Action | Unset): What the end user did: accepted or declined the agreement.
        from_ (str | Unset):
        to (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | str
     """


    return (await asyncio_detailed(
        client=client,
format_=format_,
clickwrap_template_id=clickwrap_template_id,
end_user_id=end_user_id,
status=status,
from_=from_,
to=to,

    )).parsed
