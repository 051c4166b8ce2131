from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="ConsoleDisableTemplateBody")



@_attrs_define
class ConsoleDisableTemplateBody:
    """ 
        Attributes:
            csrf_token (str): The session's CSRF token, as every console form carries it in a hidden field (and every page
                in its `csrf-token` meta tag). Required unless the header `X-CSRF-Token` carries it.
            confirm (str): Confirms disabling. A ticked checkbox: present (any value) is on, absent is off.
     """

    csrf_token: str
    confirm: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        csrf_token = self.csrf_token

        confirm = self.confirm


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "csrf_token": csrf_token,
            "confirm": confirm,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        csrf_token = d.pop("csrf_token")

        confirm = d.pop("confirm")

        console_disable_template_body = cls(
            csrf_token=csrf_token,
            confirm=confirm,
        )


        console_disable_template_body.additional_properties = d
        return console_disable_template_body

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
