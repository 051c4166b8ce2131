from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.language import Language
from typing import cast
from uuid import UUID
import datetime






T = TypeVar("T", bound="AvailableTemplate")



@_attrs_define
class AvailableTemplate:
    """ 
        Attributes:
            clickwrap_template_id (UUID):
            name (str):
            tags (list[str]):
            clickwrap_template_version (int):
            clickwrap_template_version_minor (int):
            effective_at (datetime.datetime): RFC 3339, UTC with `Z`, millisecond precision.
            languages (list[Language]):
     """

    clickwrap_template_id: UUID
    name: str
    tags: list[str]
    clickwrap_template_version: int
    clickwrap_template_version_minor: int
    effective_at: datetime.datetime
    languages: list[Language]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        clickwrap_template_id = str(self.clickwrap_template_id)

        name = self.name

        tags = self.tags



        clickwrap_template_version = self.clickwrap_template_version

        clickwrap_template_version_minor = self.clickwrap_template_version_minor

        effective_at = self.effective_at.isoformat()

        languages = []
        for languages_item_data in self.languages:
            languages_item = languages_item_data.value
            languages.append(languages_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "clickwrapTemplateId": clickwrap_template_id,
            "name": name,
            "tags": tags,
            "clickwrapTemplateVersion": clickwrap_template_version,
            "clickwrapTemplateVersionMinor": clickwrap_template_version_minor,
            "effectiveAt": effective_at,
            "languages": languages,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        clickwrap_template_id = UUID(d.pop("clickwrapTemplateId"))




        name = d.pop("name")

        tags = cast(list[str], d.pop("tags"))


        clickwrap_template_version = d.pop("clickwrapTemplateVersion")

        clickwrap_template_version_minor = d.pop("clickwrapTemplateVersionMinor")

        effective_at = datetime.datetime.fromisoformat(d.pop("effectiveAt"))




        languages = []
        _languages = d.pop("languages")
        for languages_item_data in (_languages):
            languages_item = Language(languages_item_data)



            languages.append(languages_item)


        available_template = cls(
            clickwrap_template_id=clickwrap_template_id,
            name=name,
            tags=tags,
            clickwrap_template_version=clickwrap_template_version,
            clickwrap_template_version_minor=clickwrap_template_version_minor,
            effective_at=effective_at,
            languages=languages,
        )


        available_template.additional_properties = d
        return available_template

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
