from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.webhook_attempt_error import WebhookAttemptError
from typing import cast
import datetime






T = TypeVar("T", bound="WebhookAttempt")



@_attrs_define
class WebhookAttempt:
    """ 
        Attributes:
            attempt (int):
            started_at (datetime.datetime):
            duration_ms (int):
            request_body (str):
            response_status (int | None):
            response_body (None | str): At most 4 KiB of the receiver's answer.
            error (None | WebhookAttemptError):
     """

    attempt: int
    started_at: datetime.datetime
    duration_ms: int
    request_body: str
    response_status: int | None
    response_body: None | str
    error: None | WebhookAttemptError





    def to_dict(self) -> dict[str, Any]:
        attempt = self.attempt

        started_at = self.started_at.isoformat()

        duration_ms = self.duration_ms

        request_body = self.request_body

        response_status: int | None
        response_status = self.response_status

        response_body: None | str
        response_body = self.response_body

        error: None | str
        if isinstance(self.error, WebhookAttemptError):
            error = self.error.value
        else:
            error = self.error


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "attempt": attempt,
            "startedAt": started_at,
            "durationMs": duration_ms,
            "requestBody": request_body,
            "responseStatus": response_status,
            "responseBody": response_body,
            "error": error,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        attempt = d.pop("attempt")

        started_at = datetime.datetime.fromisoformat(d.pop("startedAt"))




        duration_ms = d.pop("durationMs")

        request_body = d.pop("requestBody")

        def _parse_response_status(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        response_status = _parse_response_status(d.pop("responseStatus"))


        def _parse_response_body(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        response_body = _parse_response_body(d.pop("responseBody"))


        def _parse_error(data: object) -> None | WebhookAttemptError:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                error_type_0 = WebhookAttemptError(data)



                return error_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | WebhookAttemptError, data)

        error = _parse_error(d.pop("error"))


        webhook_attempt = cls(
            attempt=attempt,
            started_at=started_at,
            duration_ms=duration_ms,
            request_body=request_body,
            response_status=response_status,
            response_body=response_body,
            error=error,
        )

        return webhook_attempt

