from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="RegeneratedAppKey")



@_attrs_define
class RegeneratedAppKey:
    """ 
        Attributes:
            app_key (str):
            old_key_expires_at (datetime.datetime): When the old App Key stops (stopped) working: the moment of the rotation
                when there is no overlap.
     """

    app_key: str
    old_key_expires_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        app_key = self.app_key

        old_key_expires_at = self.old_key_expires_at.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "appKey": app_key,
            "oldKeyExpiresAt": old_key_expires_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        app_key = d.pop("appKey")

        old_key_expires_at = datetime.datetime.fromisoformat(d.pop("oldKeyExpiresAt"))




        regenerated_app_key = cls(
            app_key=app_key,
            old_key_expires_at=old_key_expires_at,
        )


        regenerated_app_key.additional_properties = d
        return regenerated_app_key

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
