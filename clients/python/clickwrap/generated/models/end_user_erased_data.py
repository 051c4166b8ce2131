from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="EndUserErasedData")



@_attrs_define
class EndUserErasedData:
    """ 
        Attributes:
            end_user_id (str): The caller's identifier of the end user: 1 to 256 characters, no control characters.
            erased_at (datetime.datetime): RFC 3339, UTC with `Z`, millisecond precision.
            events (int): How many of the end user's events were erased.
     """

    end_user_id: str
    erased_at: datetime.datetime
    events: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        end_user_id = self.end_user_id

        erased_at = self.erased_at.isoformat()

        events = self.events


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "endUserId": end_user_id,
            "erasedAt": erased_at,
            "events": events,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        end_user_id = d.pop("endUserId")

        erased_at = datetime.datetime.fromisoformat(d.pop("erasedAt"))




        events = d.pop("events")

        end_user_erased_data = cls(
            end_user_id=end_user_id,
            erased_at=erased_at,
            events=events,
        )


        end_user_erased_data.additional_properties = d
        return end_user_erased_data

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
