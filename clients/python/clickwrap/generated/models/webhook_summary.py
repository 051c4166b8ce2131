from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.webhook_state import WebhookState
from typing import cast
import datetime






T = TypeVar("T", bound="WebhookSummary")



@_attrs_define
class WebhookSummary:
    """ 
        Attributes:
            state (WebhookState):
            attempts (int):
            last_attempt_at (datetime.datetime | None):
            last_response_status (int | None):
     """

    state: WebhookState
    attempts: int
    last_attempt_at: datetime.datetime | None
    last_response_status: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        state = self.state.value

        attempts = self.attempts

        last_attempt_at: None | str
        if isinstance(self.last_attempt_at, datetime.datetime):
            last_attempt_at = self.last_attempt_at.isoformat()
        else:
            last_attempt_at = self.last_attempt_at

        last_response_status: int | None
        last_response_status = self.last_response_status


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "state": state,
            "attempts": attempts,
            "lastAttemptAt": last_attempt_at,
            "lastResponseStatus": last_response_status,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        state = WebhookState(d.pop("state"))




        attempts = d.pop("attempts")

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


        webhook_summary = cls(
            state=state,
            attempts=attempts,
            last_attempt_at=last_attempt_at,
            last_response_status=last_response_status,
        )


        webhook_summary.additional_properties = d
        return webhook_summary

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
