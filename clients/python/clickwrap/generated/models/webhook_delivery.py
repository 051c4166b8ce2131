from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.webhook_event_type import WebhookEventType
from ..models.webhook_state import WebhookState
from typing import cast
from uuid import UUID
import datetime

if TYPE_CHECKING:
  from ..models.webhook_attempt import WebhookAttempt





T = TypeVar("T", bound="WebhookDelivery")



@_attrs_define
class WebhookDelivery:
    """ 
        Attributes:
            delivery_id (UUID):
            app_id (UUID):
            clickwrap_event_id (UUID):
            event_type (WebhookEventType): Every webhook event type. Only `CLICKWRAP_EVENT_VERIFIED` is sent today; the
                others belong to the features that emit them.
            state (WebhookState):
            attempts (int):
            next_attempt_at (datetime.datetime | None):
            last_attempt_at (datetime.datetime | None):
            last_response_status (int | None):
            created_at (datetime.datetime):
            request_body (str): The exact JSON body sent on every attempt.
            attempt_history (list[WebhookAttempt]):
     """

    delivery_id: UUID
    app_id: UUID
    clickwrap_event_id: UUID
    event_type: WebhookEventType
    state: WebhookState
    attempts: int
    next_attempt_at: datetime.datetime | None
    last_attempt_at: datetime.datetime | None
    last_response_status: int | None
    created_at: datetime.datetime
    request_body: str
    attempt_history: list[WebhookAttempt]





    def to_dict(self) -> dict[str, Any]:
        from ..models.webhook_attempt import WebhookAttempt # noqa: PLC0415
        delivery_id = str(self.delivery_id)

        app_id = str(self.app_id)

        clickwrap_event_id = str(self.clickwrap_event_id)

        event_type = self.event_type.value

        state = self.state.value

        attempts = self.attempts

        next_attempt_at: None | str
        if isinstance(self.next_attempt_at, datetime.datetime):
            next_attempt_at = self.next_attempt_at.isoformat()
        else:
            next_attempt_at = self.next_attempt_at

        last_attempt_at: None | str
        if isinstance(self.last_attempt_at, datetime.datetime):
            last_attempt_at = self.last_attempt_at.isoformat()
        else:
            last_attempt_at = self.last_attempt_at

        last_response_status: int | None
        last_response_status = self.last_response_status

        created_at = self.created_at.isoformat()

        request_body = self.request_body

        attempt_history = []
        for attempt_history_item_data in self.attempt_history:
            attempt_history_item = attempt_history_item_data.to_dict()
            attempt_history.append(attempt_history_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "deliveryId": delivery_id,
            "appId": app_id,
            "clickwrapEventId": clickwrap_event_id,
            "eventType": event_type,
            "state": state,
            "attempts": attempts,
            "nextAttemptAt": next_attempt_at,
            "lastAttemptAt": last_attempt_at,
            "lastResponseStatus": last_response_status,
            "createdAt": created_at,
            "requestBody": request_body,
            "attemptHistory": attempt_history,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.webhook_attempt import WebhookAttempt # noqa: PLC0415
        d = dict(src_dict)
        delivery_id = UUID(d.pop("deliveryId"))




        app_id = UUID(d.pop("appId"))




        clickwrap_event_id = UUID(d.pop("clickwrapEventId"))




        event_type = WebhookEventType(d.pop("eventType"))




        state = WebhookState(d.pop("state"))




        attempts = d.pop("attempts")

        def _parse_next_attempt_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_attempt_at_type_0 = datetime.datetime.fromisoformat(data)



                return next_attempt_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        next_attempt_at = _parse_next_attempt_at(d.pop("nextAttemptAt"))


        def _parse_last_attempt_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_attempt_at_type_0 = datetime.datetime.fromisoformat(data)



                return last_attempt_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_attempt_at = _parse_last_attempt_at(d.pop("lastAttemptAt"))


        def _parse_last_response_status(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        last_response_status = _parse_last_response_status(d.pop("lastResponseStatus"))


        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))




        request_body = d.pop("requestBody")

        attempt_history = []
        _attempt_history = d.pop("attemptHistory")
        for attempt_history_item_data in (_attempt_history):
            attempt_history_item = WebhookAttempt.from_dict(attempt_history_item_data)



            attempt_history.append(attempt_history_item)


        webhook_delivery = cls(
            delivery_id=delivery_id,
            app_id=app_id,
            clickwrap_event_id=clickwrap_event_id,
            event_type=event_type,
            state=state,
            attempts=attempts,
            next_attempt_at=next_attempt_at,
            last_attempt_at=last_attempt_at,
            last_response_status=last_response_status,
            created_at=created_at,
            request_body=request_body,
            attempt_history=attempt_history,
        )

        return webhook_delivery

