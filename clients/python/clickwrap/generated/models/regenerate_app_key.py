from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="RegenerateAppKey")



@_attrs_define
class RegenerateAppKey:
    """ 
        Attributes:
            expire_old_after_secs (int | None | Unset): How long the old App Key keeps working, in seconds (at most 7 days).
                0, null or absent: it fails at once. Default: 0.
     """

    expire_old_after_secs: int | None | Unset = 0





    def to_dict(self) -> dict[str, Any]:
        expire_old_after_secs: int | None | Unset
        if isinstance(self.expire_old_after_secs, Unset):
            expire_old_after_secs = UNSET
        else:
            expire_old_after_secs = self.expire_old_after_secs


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if expire_old_after_secs is not UNSET:
            field_dict["expireOldAfterSecs"] = expire_old_after_secs

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_expire_old_after_secs(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        expire_old_after_secs = _parse_expire_old_after_secs(d.pop("expireOldAfterSecs", UNSET))


        regenerate_app_key = cls(
            expire_old_after_secs=expire_old_after_secs,
        )

        return regenerate_app_key

