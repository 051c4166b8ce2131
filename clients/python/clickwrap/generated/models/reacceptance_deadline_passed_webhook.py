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
  from ..models.reacceptance_deadline_passed_data import ReacceptanceDeadlinePassedData





T = TypeVar("T", bound="ReacceptanceDeadlinePassedWebhook")



@_attrs_define
class ReacceptanceDeadlinePassedWebhook:
    """ The body of `REACCEPTANCE_DEADLINE_PASSED`, sent once per version.

        Attributes:
            event_type (Literal['REACCEPTANCE_DEADLINE_PASSED']):
            timestamp (datetime.datetime): RFC 3339, UTC with `Z`, millisecond precision.
            data (ReacceptanceDeadlinePassedData): The version whose re-acceptance deadline passed, and its campaign's
                counts then.
     """

    event_type: Literal['REACCEPTANCE_DEADLINE_PASSED']
    timestamp: datetime.datetime
    data: ReacceptanceDeadlinePassedData
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.reacceptance_deadline_passed_data import ReacceptanceDeadlinePassedData # noqa: PLC0415
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
        from ..models.reacceptance_deadline_passed_data import ReacceptanceDeadlinePassedData # noqa: PLC0415
        d = dict(src_dict)
        event_type = cast(Literal['REACCEPTANCE_DEADLINE_PASSED'] , d.pop("eventType"))
        if event_type != 'REACCEPTANCE_DEADLINE_PASSED':
            raise ValueError(f"eventType must match const 'REACCEPTANCE_DEADLINE_PASSED', got '{event_type}'")

        timestamp = datetime.datetime.fromisoformat(d.pop("timestamp"))




        data = ReacceptanceDeadlinePassedData.from_dict(d.pop("data"))




        reacceptance_deadline_passed_webhook = cls(
            event_type=event_type,
            timestamp=timestamp,
            data=data,
        )


        reacceptance_deadline_passed_webhook.additional_properties = d
        return reacceptance_deadline_passed_webhook

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
