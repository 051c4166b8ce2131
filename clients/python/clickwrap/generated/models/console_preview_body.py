from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.language import Language
from ..types import UNSET, Unset






T = TypeVar("T", bound="ConsolePreviewBody")



@_attrs_define
class ConsolePreviewBody:
    """ 
        Attributes:
            csrf_token (str): The session's CSRF token, as every console form carries it in a hidden field (and every page
                in its `csrf-token` meta tag). Required unless the header `X-CSRF-Token` carries it.
            content (str | Unset): The HTML, sanitized and with the sample placeholder values filled in.
            language (Language | Unset):
     """

    csrf_token: str
    content: str | Unset = UNSET
    language: Language | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        csrf_token = self.csrf_token

        content = self.content

        language: str | Unset = UNSET
        if not isinstance(self.language, Unset):
            language = self.language.value



        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "csrf_token": csrf_token,
        })
        if content is not UNSET:
            field_dict["content"] = content
        if language is not UNSET:
            field_dict["language"] = language

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        csrf_token = d.pop("csrf_token")

        content = d.pop("content", UNSET)

        _language = d.pop("language", UNSET)
        language: Language | Unset
        if isinstance(_language,  Unset):
            language = UNSET
        else:
            language = Language(_language)




        console_preview_body = cls(
            csrf_token=csrf_token,
            content=content,
            language=language,
        )


        console_preview_body.additional_properties = d
        return console_preview_body

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
