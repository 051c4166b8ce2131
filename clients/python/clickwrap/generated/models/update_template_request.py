from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.language import Language
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="UpdateTemplateRequest")



@_attrs_define
class UpdateTemplateRequest:
    """ 
        Attributes:
            name (str | Unset): 1 to 200 characters, no control characters, not only white space (leading and trailing white
                space is trimmed).
            tags (list[str] | Unset):
            default_language (Language | Unset):
            always_require_acceptance (bool | Unset):
     """

    name: str | Unset = UNSET
    tags: list[str] | Unset = UNSET
    default_language: Language | Unset = UNSET
    always_require_acceptance: bool | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        name = self.name

        tags: list[str] | Unset = UNSET
        if not isinstance(self.tags, Unset):
            tags = self.tags



        default_language: str | Unset = UNSET
        if not isinstance(self.default_language, Unset):
            default_language = self.default_language.value


        always_require_acceptance = self.always_require_acceptance


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if name is not UNSET:
            field_dict["name"] = name
        if tags is not UNSET:
            field_dict["tags"] = tags
        if default_language is not UNSET:
            field_dict["defaultLanguage"] = default_language
        if always_require_acceptance is not UNSET:
            field_dict["alwaysRequireAcceptance"] = always_require_acceptance

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name", UNSET)

        tags = cast(list[str], d.pop("tags", UNSET))


        _default_language = d.pop("defaultLanguage", UNSET)
        default_language: Language | Unset
        if isinstance(_default_language,  Unset):
            default_language = UNSET
        else:
            default_language = Language(_default_language)




        always_require_acceptance = d.pop("alwaysRequireAcceptance", UNSET)

        update_template_request = cls(
            name=name,
            tags=tags,
            default_language=default_language,
            always_require_acceptance=always_require_acceptance,
        )

        return update_template_request

