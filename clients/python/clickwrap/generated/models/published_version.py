from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.language import Language
from ..models.version_state import VersionState
from typing import cast
from uuid import UUID
import datetime

if TYPE_CHECKING:
  from ..models.template import Template





T = TypeVar("T", bound="PublishedVersion")



@_attrs_define
class PublishedVersion:
    """ The new version, its template's id, and the template.

        Attributes:
            clickwrap_template_version (int):
            clickwrap_template_version_minor (int):
            effective_at (datetime.datetime): RFC 3339, UTC with `Z`, millisecond precision.
            published_at (datetime.datetime): RFC 3339, UTC with `Z`, millisecond precision.
            state (VersionState):
            languages (list[Language]):
            clickwrap_template_id (UUID):
            template (Template): A template with its versions' states now. `draft` is left out of the list.
     """

    clickwrap_template_version: int
    clickwrap_template_version_minor: int
    effective_at: datetime.datetime
    published_at: datetime.datetime
    state: VersionState
    languages: list[Language]
    clickwrap_template_id: UUID
    template: Template
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.template import Template # noqa: PLC0415
        clickwrap_template_version = self.clickwrap_template_version

        clickwrap_template_version_minor = self.clickwrap_template_version_minor

        effective_at = self.effective_at.isoformat()

        published_at = self.published_at.isoformat()

        state = self.state.value

        languages = []
        for languages_item_data in self.languages:
            languages_item = languages_item_data.value
            languages.append(languages_item)



        clickwrap_template_id = str(self.clickwrap_template_id)

        template = self.template.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "clickwrapTemplateVersion": clickwrap_template_version,
            "clickwrapTemplateVersionMinor": clickwrap_template_version_minor,
            "effectiveAt": effective_at,
            "publishedAt": published_at,
            "state": state,
            "languages": languages,
            "clickwrapTemplateId": clickwrap_template_id,
            "template": template,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.template import Template # noqa: PLC0415
        d = dict(src_dict)
        clickwrap_template_version = d.pop("clickwrapTemplateVersion")

        clickwrap_template_version_minor = d.pop("clickwrapTemplateVersionMinor")

        effective_at = datetime.datetime.fromisoformat(d.pop("effectiveAt"))




        published_at = datetime.datetime.fromisoformat(d.pop("publishedAt"))




        state = VersionState(d.pop("state"))




        languages = []
        _languages = d.pop("languages")
        for languages_item_data in (_languages):
            languages_item = Language(languages_item_data)



            languages.append(languages_item)


        clickwrap_template_id = UUID(d.pop("clickwrapTemplateId"))




        template = Template.from_dict(d.pop("template"))




        published_version = cls(
            clickwrap_template_version=clickwrap_template_version,
            clickwrap_template_version_minor=clickwrap_template_version_minor,
            effective_at=effective_at,
            published_at=published_at,
            state=state,
            languages=languages,
            clickwrap_template_id=clickwrap_template_id,
            template=template,
        )


        published_version.additional_properties = d
        return published_version

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
