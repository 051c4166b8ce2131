from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from typing import Literal, cast
import datetime

if TYPE_CHECKING:
  from ..models.verified_event import VerifiedEvent





T = TypeVar("T", bound="WebhookPayload")



@_attrs_define
class WebhookPayload:
    """ The body of `CLICKWRAP_EVENT_VERIFIED`.

        Attributes:
            event_type (Literal['CLICKWRAP_EVENT_VERIFIED']):
            timestamp (datetime.datetime): RFC 3339, UTC with `Z`, millisecond precision.
            data (VerifiedEvent): The answer of a verification: the event's fields less `presentedAt`.
     """

    event_type: Literal['CLICKWRAP_EVENT_VERIFIED']
    timestamp: datetime.datetime
    data: VerifiedEvent
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.verified_event import VerifiedEvent # noqa: PLC0415
        event_type = self.event_type

        timestamp = self.timestamp.isoformat()

        data = self.data.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "eventType": event_type,
            "timestamp": timestamp,
            "data": data,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.verified_event import VerifiedEvent # noqa: PLC0415
        d = dict(src_dict)
        event_type = cast(Literal['CLICKWRAP_EVENT_VERIFIED'] , d.pop("eventType"))
        if event_type != 'CLICKWRAP_EVENT_VERIFIED':
            raise ValueError(f"eventType must match const 'CLICKWRAP_EVENT_VERIFIED', got '{event_type}'")

        timestamp = datetime.datetime.fromisoformat(d.pop("timestamp"))




        data = VerifiedEvent.from_dict(d.pop("data"))




        webhook_payload = cls(
            event_type=event_type,
            timestamp=timestamp,
            data=data,
        )


        webhook_payload.additional_properties = d
        return webhook_payload

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
