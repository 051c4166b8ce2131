from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.language import Language
from ..types import UNSET, Unset






T = TypeVar("T", bound="ConsoleTemplateSettingsBody")



@_attrs_define
class ConsoleTemplateSettingsBody:
    """ 
        Attributes:
            csrf_token (str): The session's CSRF token, as every console form carries it in a hidden field (and every page
                in its `csrf-token` meta tag). Required unless the header `X-CSRF-Token` carries it.
            name (str): 1 to 200 characters.
            default_language (Language):
            tags (str | Unset): Comma-separated; blank removes every tag.
            always_require_acceptance (str | Unset): Whether every presentation asks for acceptance, even after one. A
                ticked checkbox: present (any value) is on, absent is off.
     """

    csrf_token: str
    name: str
    default_language: Language
    tags: str | Unset = UNSET
    always_require_acceptance: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        csrf_token = self.csrf_token

        name = self.name

        default_language = self.default_language.value

        tags = self.tags

        always_require_acceptance = self.always_require_acceptance


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "csrf_token": csrf_token,
            "name": name,
            "default_language": default_language,
        })
        if tags is not UNSET:
            field_dict["tags"] = tags
        if always_require_acceptance is not UNSET:
            field_dict["always_require_acceptance"] = always_require_acceptance

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        csrf_token = d.pop("csrf_token")

        name = d.pop("name")

        default_language = Language(d.pop("default_language"))




        tags = d.pop("tags", UNSET)

        always_require_acceptance = d.pop("always_require_acceptance", UNSET)

        console_template_settings_body = cls(
            csrf_token=csrf_token,
            name=name,
            default_language=default_language,
            tags=tags,
            always_require_acceptance=always_require_acceptance,
        )


        console_template_settings_body.additional_properties = d
        return console_template_settings_body

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
