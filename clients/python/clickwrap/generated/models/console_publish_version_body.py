from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.version_kind import VersionKind
from ..types import UNSET, Unset






T = TypeVar("T", bound="ConsolePublishVersionBody")



@_attrs_define
class ConsolePublishVersionBody:
    """ 
        Attributes:
            csrf_token (str): The session's CSRF token, as every console form carries it in a hidden field (and every page
                in its `csrf-token` meta tag). Required unless the header `X-CSRF-Token` carries it.
            kind (VersionKind | Unset): `MAJOR`: end users must accept again. `MINOR`: a correction that keeps standing
                acceptances.
            effective_at (str | Unset): Optional, `2026-12-01T09:30` (UTC, seconds optional): when the version comes into
                force; blank is now.
     """

    csrf_token: str
    kind: VersionKind | Unset = UNSET
    effective_at: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        csrf_token = self.csrf_token

        kind: str | Unset = UNSET
        if not isinstance(self.kind, Unset):
            kind = self.kind.value


        effective_at = self.effective_at


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "csrf_token": csrf_token,
        })
        if kind is not UNSET:
            field_dict["kind"] = kind
        if effective_at is not UNSET:
            field_dict["effective_at"] = effective_at

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        csrf_token = d.pop("csrf_token")

        _kind = d.pop("kind", UNSET)
        kind: VersionKind | Unset
        if isinstance(_kind,  Unset):
            kind = UNSET
        else:
            kind = VersionKind(_kind)




        effective_at = d.pop("effective_at", UNSET)

        console_publish_version_body = cls(
            csrf_token=csrf_token,
            kind=kind,
            effective_at=effective_at,
        )


        console_publish_version_body.additional_properties = d
        return console_publish_version_body

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
