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






T = TypeVar("T", bound="RenderedContent")



@_attrs_define
class RenderedContent:
    """ 
        Attributes:
            clickwrap_template_id (UUID):
            clickwrap_template_version (int):
            clickwrap_template_version_minor (int):
            effective_at (datetime.datetime): RFC 3339, UTC with `Z`, millisecond precision.
            name (str):
            language (Language):
            content (str): Sanitized HTML, placeholders filled.
            content_hash (str): `sha256:` and the lowercase hex SHA-256 of the rendered content's UTF-8 bytes.
     """

    clickwrap_template_id: UUID
    clickwrap_template_version: int
    clickwrap_template_version_minor: int
    effective_at: datetime.datetime
    name: str
    language: Language
    content: str
    content_hash: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        clickwrap_template_id = str(self.clickwrap_template_id)

        clickwrap_template_version = self.clickwrap_template_version

        clickwrap_template_version_minor = self.clickwrap_template_version_minor

        effective_at = self.effective_at.isoformat()

        name = self.name

        language = self.language.value

        content = self.content

        content_hash = self.content_hash


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "clickwrapTemplateId": clickwrap_template_id,
            "clickwrapTemplateVersion": clickwrap_template_version,
            "clickwrapTemplateVersionMinor": clickwrap_template_version_minor,
            "effectiveAt": effective_at,
            "name": name,
            "language": language,
            "content": content,
            "contentHash": content_hash,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        clickwrap_template_id = UUID(d.pop("clickwrapTemplateId"))




        clickwrap_template_version = d.pop("clickwrapTemplateVersion")

        clickwrap_template_version_minor = d.pop("clickwrapTemplateVersionMinor")

        effective_at = datetime.datetime.fromisoformat(d.pop("effectiveAt"))




        name = d.pop("name")

        language = Language(d.pop("language"))




        content = d.pop("content")

        content_hash = d.pop("contentHash")

        rendered_content = cls(
            clickwrap_template_id=clickwrap_template_id,
            clickwrap_template_version=clickwrap_template_version,
            clickwrap_template_version_minor=clickwrap_template_version_minor,
            effective_at=effective_at,
            name=name,
            language=language,
            content=content,
            content_hash=content_hash,
        )


        rendered_content.additional_properties = d
        return rendered_content

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
