from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.action import Action
from ...models.event_page import EventPage
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast
from uuid import UUID
import datetime



def _get_kwargs(
    *,
    clickwrap_template_id: UUID | Unset = UNSET,
    end_user_id: str | Unset = UNSET,
    clickwrap_event_status: Action | Unset = UNSET,
    from_: datetime.datetime | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,
    limit: int | Unset = 20,
    next_page_cursor: str | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

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

    params["limit"] = limit

    params["nextPageCursor"] = next_page_cursor


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/public-client/v1/clickwrap-events",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> EventPage | Problem | None:
    if response.status_code == 200:
        response_200 = EventPage.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[EventPage | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    clickwrap_template_id: UUID | Unset = UNSET,
    end_user_id: str | Unset = UNSET,
    clickwrap_event_status: Action | Unset = UNSET,
    from_: datetime.datetime | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,
    limit: int | Unset = 20,
    next_page_cursor: str | Unset = UNSET,

) -> Response[EventPage | Problem]:
    """ List verified clickwrap events, newest first by actionAt

     The app's verified events (accepted and declined), newest first by `actionAt`, filtered by end user,
    template, version, action and time range, a page at a time. Follow `nextCursor` for the next page;
    it is absent on the last one.

    Args:
        clickwrap_template_id (UUID | Unset):
        end_user_id (str | Unset): The caller's identifier of the end user: 1 to 256 characters,
            no control characters.
        clickwrap_event_status (Action | Unset): What the end user did: accepted or declined the
            agreement.
        from_ (datetime.datetime | Unset): RFC 3339, UTC with `Z`, millisecond precision.
        to (datetime.datetime | Unset): RFC 3339, UTC with `Z`, millisecond precision.
        limit (int | Unset):  Default: 20.
        next_page_cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EventPage | Problem]
     """


    kwargs = _get_kwargs(
        clickwrap_template_id=clickwrap_template_id,
end_user_id=end_user_id,
clickwrap_event_status=clickwrap_event_status,
from_=from_,
to=to,
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
    clickwrap_template_id: UUID | Unset = UNSET,
    end_user_id: str | Unset = UNSET,
    clickwrap_event_status: Action | Unset = UNSET,
    from_: datetime.datetime | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,
    limit: int | Unset = 20,
    next_page_cursor: str | Unset = UNSET,

) -> EventPage | Problem | None:
    """ List verified clickwrap events, newest first by actionAt

     The app's verified events (accepted and declined), newest first by `actionAt`, filtered by end user,
    template, version, action and time range, a page at a time. Follow `nextCursor` for the next page;
    it is absent on the last one.

    Args:
        clickwrap_template_id (UUID | Unset):
        end_user_id (str | Unset): The caller's identifier of the end user: 1 to 256 characters,
            no control characters.
        clickwrap_event_status (Action | Unset): What the end user did: accepted or declined the
            agreement.
        from_ (datetime.datetime | Unset): RFC 3339, UTC with `Z`, millisecond precision.
        to (datetime.datetime | Unset): RFC 3339, UTC with `Z`, millisecond precision.
        limit (int | Unset):  Default: 20.
        next_page_cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EventPage | Problem
     """


    return sync_detailed(
        client=client,
clickwrap_template_id=clickwrap_template_id,
end_user_id=end_user_id,
clickwrap_event_status=clickwrap_event_status,
from_=from_,
to=to,
limit=limit,
next_page_cursor=next_page_cursor,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    clickwrap_template_id: UUID | Unset = UNSET,
    end_user_id: str | Unset = UNSET,
    clickwrap_event_status: Action | Unset = UNSET,
    from_: datetime.datetime | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,
    limit: int | Unset = 20,
    next_page_cursor: str | Unset = UNSET,

) -> Response[EventPage | Problem]:
    """ List verified clickwrap events, newest first by actionAt

     The app's verified events (accepted and declined), newest first by `actionAt`, filtered by end user,
    template, version, action and time range, a page at a time. Follow `nextCursor` for the next page;
    it is absent on the last one.

    Args:
        clickwrap_template_id (UUID | Unset):
        end_user_id (str | Unset): The caller's identifier of the end user: 1 to 256 characters,
            no control characters.
        clickwrap_event_status (Action | Unset): What the end user did: accepted or declined the
            agreement.
        from_ (datetime.datetime | Unset): RFC 3339, UTC with `Z`, millisecond precision.
        to (datetime.datetime | Unset): RFC 3339, UTC with `Z`, millisecond precision.
        limit (int | Unset):  Default: 20.
        next_page_cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EventPage | Problem]
     """


    kwargs = _get_kwargs(
        clickwrap_template_id=clickwrap_template_id,
end_user_id=end_user_id,
clickwrap_event_status=clickwrap_event_status,
from_=from_,
to=to,
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
    clickwrap_template_id: UUID | Unset = UNSET,
    end_user_id: str | Unset = UNSET,
    clickwrap_event_status: Action | Unset = UNSET,
    from_: datetime.datetime | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,
    limit: int | Unset = 20,
    next_page_cursor: str | Unset = UNSET,

) -> EventPage | Problem | None:
    """ List verified clickwrap events, newest first by actionAt

     The app's verified events (accepted and declined), newest first by `actionAt`, filtered by end user,
    template, version, action and time range, a page at a time. Follow `nextCursor` for the next page;
    it is absent on the last one.

    Args:
        clickwrap_template_id (UUID | Unset):
        end_user_id (str | Unset): The caller's identifier of the end user: 1 to 256 characters,
            no control characters.
        clickwrap_event_status (Action | Unset): What the end user did: accepted or declined the
            agreement.
        from_ (datetime.datetime | Unset): RFC 3339, UTC with `Z`, millisecond precision.
        to (datetime.datetime | Unset): RFC 3339, UTC with `Z`, millisecond precision.
        limit (int | Unset):  Default: 20.
        next_page_cursor (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EventPage | Problem
     """


    return (await asyncio_detailed(
        client=client,
clickwrap_template_id=clickwrap_template_id,
end_user_id=end_user_id,
clickwrap_event_status=clickwrap_event_status,
from_=from_,
to=to,
limit=limit,
next_page_cursor=next_page_cursor,

    )).parsed
