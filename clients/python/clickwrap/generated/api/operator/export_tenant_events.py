from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.action import Action
from ...models.export_format import ExportFormat
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast
from uuid import UUID
import datetime



def _get_kwargs(
    *,
    format_: ExportFormat | Unset = UNSET,
    clickwrap_template_id: UUID | Unset = UNSET,
    end_user_id: str | Unset = UNSET,
    clickwrap_event_status: Action | Unset = UNSET,
    from_: datetime.datetime | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,

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

    json_clickwrap_event_status: str | Unset = UNSET
    if not isinstance(clickwrap_event_status, Unset):
        json_clickwrap_event_status = clickwrap_event_status.value

    params["clickwrapEventStatus"] = json_clickwrap_event_status

    json_from_: str | Unset = UNSET
    if not isinstance(from_, Unset):
        json_from_ = from_.isoformat()
    params["from"] = json_from_

    json_to: str | Unset = UNSET
    if not isinstance(to, Unset):
        json_to = to.isoformat()
    params["to"] = json_to


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/operator/v1/events/export",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | str | None:
    if response.status_code == 200:
        response_200 = response.text
        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())



        return response_401

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | str]:
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
    clickwrap_event_status: Action | Unset = UNSET,
    from_: datetime.datetime | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,

) -> Response[Problem | str]:
    """ Export every matching verified event as NDJSON or CSV

     Every verified event of the tenant's apps that matches the filters (those of `GET
    /operator/v1/events`), newest first by actionAt, in one streamed answer: no paging, and the server's
    memory stays bounded however many events match. A bad parameter answers 400 before anything is
    streamed; a failure after that ends the body early. Not subject to `Accept` negotiation: `format`
    chooses the media type.

    Args:
        format_ (ExportFormat | Unset): `ndjson`: one JSON object per line. `csv`: RFC 4180.
        clickwrap_template_id (UUID | Unset):
        end_user_id (str | Unset): The caller's identifier of the end user: 1 to 256 characters,
            no control characters.
        clickwrap_event_status (Action | Unset): What the end user did: accepted or declined the
            agreement.
        from_ (datetime.datetime | Unset): RFC 3339, UTC with `Z`, millisecond precision.
        to (datetime.datetime | Unset): RFC 3339, UTC with `Z`, millisecond precision.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | str]
     """


    kwargs = _get_kwargs(
        format_=format_,
clickwrap_template_id=clickwrap_template_id,
end_user_id=end_user_id,
clickwrap_event_status=clickwrap_event_status,
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
    clickwrap_event_status: Action | Unset = UNSET,
    from_: datetime.datetime | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,

) -> Problem | str | None:
    """ Export every matching verified event as NDJSON or CSV

     Every verified event of the tenant's apps that matches the filters (those of `GET
    /operator/v1/events`), newest first by actionAt, in one streamed answer: no paging, and the server's
    memory stays bounded however many events match. A bad parameter answers 400 before anything is
    streamed; a failure after that ends the body early. Not subject to `Accept` negotiation: `format`
    chooses the media type.

    Args:
        format_ (ExportFormat | Unset): `ndjson`: one JSON object per line. `csv`: RFC 4180.
        clickwrap_template_id (UUID | Unset):
        end_user_id (str | Unset): The caller's identifier of the end user: 1 to 256 characters,
            no control characters.
        clickwrap_event_status (Action | Unset): What the end user did: accepted or declined the
            agreement.
        from_ (datetime.datetime | Unset): RFC 3339, UTC with `Z`, millisecond precision.
        to (datetime.datetime | Unset): RFC 3339, UTC with `Z`, millisecond precision.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | str
     """


    return sync_detailed(
        client=client,
format_=format_,
clickwrap_template_id=clickwrap_template_id,
end_user_id=end_user_id,
clickwrap_event_status=clickwrap_event_status,
from_=from_,
to=to,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    format_: ExportFormat | Unset = UNSET,
    clickwrap_template_id: UUID | Unset = UNSET,
    end_user_id: str | Unset = UNSET,
    clickwrap_event_status: Action | Unset = UNSET,
    from_: datetime.datetime | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,

) -> Response[Problem | str]:
    """ Export every matching verified event as NDJSON or CSV

     Every verified event of the tenant's apps that matches the filters (those of `GET
    /operator/v1/events`), newest first by actionAt, in one streamed answer: no paging, and the server's
    memory stays bounded however many events match. A bad parameter answers 400 before anything is
    streamed; a failure after that ends the body early. Not subject to `Accept` negotiation: `format`
    chooses the media type.

    Args:
        format_ (ExportFormat | Unset): `ndjson`: one JSON object per line. `csv`: RFC 4180.
        clickwrap_template_id (UUID | Unset):
        end_user_id (str | Unset): The caller's identifier of the end user: 1 to 256 characters,
            no control characters.
        clickwrap_event_status (Action | Unset): What the end user did: accepted or declined the
            agreement.
        from_ (datetime.datetime | Unset): RFC 3339, UTC with `Z`, millisecond precision.
        to (datetime.datetime | Unset): RFC 3339, UTC with `Z`, millisecond precision.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | str]
     """


    kwargs = _get_kwargs(
        format_=format_,
clickwrap_template_id=clickwrap_template_id,
end_user_id=end_user_id,
clickwrap_event_status=clickwrap_event_status,
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
    clickwrap_event_status: Action | Unset = UNSET,
    from_: datetime.datetime | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,

) -> Problem | str | None:
    """ Export every matching verified event as NDJSON or CSV

     Every verified event of the tenant's apps that matches the filters (those of `GET
    /operator/v1/events`), newest first by actionAt, in one streamed answer: no paging, and the server's
    memory stays bounded however many events match. A bad parameter answers 400 before anything is
    streamed; a failure after that ends the body early. Not subject to `Accept` negotiation: `format`
    chooses the media type.

    Args:
        format_ (ExportFormat | Unset): `ndjson`: one JSON object per line. `csv`: RFC 4180.
        clickwrap_template_id (UUID | Unset):
        end_user_id (str | Unset): The caller's identifier of the end user: 1 to 256 characters,
            no control characters.
        clickwrap_event_status (Action | Unset): What the end user did: accepted or declined the
            agreement.
        from_ (datetime.datetime | Unset): RFC 3339, UTC with `Z`, millisecond precision.
        to (datetime.datetime | Unset): RFC 3339, UTC with `Z`, millisecond precision.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | str
     """


    return (await asyncio_detailed(
        client=client,
format_=format_,
clickwrap_template_id=clickwrap_template_id,
end_user_id=end_user_id,
clickwrap_event_status=clickwrap_event_status,
from_=from_,
to=to,

    )).parsed
