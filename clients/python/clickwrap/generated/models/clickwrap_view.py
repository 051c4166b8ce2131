from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.agreement_mode import AgreementMode
from ..models.language import Language
from typing import cast
from uuid import UUID
import datetime

if TYPE_CHECKING:
  from ..models.customizations import Customizations





T = TypeVar("T", bound="ClickwrapView")



@_attrs_define
class ClickwrapView:
    """ 
        Attributes:
            acceptance_required (bool):
            clickwrap_template_id (UUID):
            clickwrap_template_version (int):
            clickwrap_template_version_minor (int):
            effective_at (datetime.datetime): RFC 3339, UTC with `Z`, millisecond precision.
            name (str):
            language (Language):
            agreement_mode (AgreementMode):
            content (str): Sanitized HTML, placeholders filled.
            inline_content (str): Short HTML for the inline checkbox label.
            content_hash (str): `sha256:` and the lowercase hex SHA-256 of the rendered content's UTF-8 bytes.
            customizations (Customizations): The dialog's look, with texts resolved for one language.
     """

    acceptance_required: bool
    clickwrap_template_id: UUID
    clickwrap_template_version: int
    clickwrap_template_version_minor: int
    effective_at: datetime.datetime
    name: str
    language: Language
    agreement_mode: AgreementMode
    content: str
    inline_content: str
    content_hash: str
    customizations: Customizations
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.customizations import Customizations # noqa: PLC0415
        acceptance_required = self.acceptance_required

        clickwrap_template_id = str(self.clickwrap_template_id)

        clickwrap_template_version = self.clickwrap_template_version

        clickwrap_template_version_minor = self.clickwrap_template_version_minor

        effective_at = self.effective_at.isoformat()

        name = self.name

        language = self.language.value

        agreement_mode = self.agreement_mode.value

        content = self.content

        inline_content = self.inline_content

        content_hash = self.content_hash

        customizations = self.customizations.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "acceptanceRequired": acceptance_required,
            "clickwrapTemplateId": clickwrap_template_id,
            "clickwrapTemplateVersion": clickwrap_template_version,
            "clickwrapTemplateVersionMinor": clickwrap_template_version_minor,
            "effectiveAt": effective_at,
            "name": name,
            "language": language,
            "agreementMode": agreement_mode,
            "content": content,
            "inlineContent": inline_content,
            "contentHash": content_hash,
            "customizations": customizations,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.customizations import Customizations # noqa: PLC0415
        d = dict(src_dict)
        acceptance_required = d.pop("acceptanceRequired")

        clickwrap_template_id = UUID(d.pop("clickwrapTemplateId"))




        clickwrap_template_version = d.pop("clickwrapTemplateVersion")

        clickwrap_template_version_minor = d.pop("clickwrapTemplateVersionMinor")

        effective_at = datetime.datetime.fromisoformat(d.pop("effectiveAt"))




        name = d.pop("name")

        language = Language(d.pop("language"))




        agreement_mode = AgreementMode(d.pop("agreementMode"))




        content = d.pop("content")

        inline_content = d.pop("inlineContent")

        content_hash = d.pop("contentHash")

        customizations = Customizations.from_dict(d.pop("customizations"))




        clickwrap_view = cls(
            acceptance_required=acceptance_required,
            clickwrap_template_id=clickwrap_template_id,
            clickwrap_template_version=clickwrap_template_version,
            clickwrap_template_version_minor=clickwrap_template_version_minor,
            effective_at=effective_at,
            name=name,
            language=language,
            agreement_mode=agreement_mode,
            content=content,
            inline_content=inline_content,
            content_hash=content_hash,
            customizations=customizations,
        )


        clickwrap_view.additional_properties = d
        return clickwrap_view

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
