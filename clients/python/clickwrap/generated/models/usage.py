from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="Usage")



@_attrs_define
class Usage:
    """ 
        Attributes:
            event_quota (int | None): Verified events allowed per period; null: no quota.
            events_this_period (int):
            period_start (datetime.datetime): RFC 3339, UTC with `Z`, millisecond precision.
            period_end (datetime.datetime): RFC 3339, UTC with `Z`, millisecond precision.
     """

    event_quota: int | None
    events_this_period: int
    period_start: datetime.datetime
    period_end: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        event_quota: int | None
        event_quota = self.event_quota

        events_this_period = self.events_this_period

        period_start = self.period_start.isoformat()

        period_end = self.period_end.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "eventQuota": event_quota,
            "eventsThisPeriod": events_this_period,
            "periodStart": period_start,
            "periodEnd": period_end,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_event_quota(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        event_quota = _parse_event_quota(d.pop("eventQuota"))


        events_this_period = d.pop("eventsThisPeriod")

        period_start = datetime.datetime.fromisoformat(d.pop("periodStart"))




        period_end = datetime.datetime.fromisoformat(d.pop("periodEnd"))




        usage = cls(
            event_quota=event_quota,
            events_this_period=events_this_period,
            period_start=period_start,
            period_end=period_end,
        )


        usage.additional_properties = d
        return usage

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
