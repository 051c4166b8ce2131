from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.language import Language
from typing import cast
import datetime

if TYPE_CHECKING:
  from ..models.console_dialog_view_customizations import ConsoleDialogViewCustomizations





T = TypeVar("T", bound="ConsoleDialogView")



@_attrs_define
class ConsoleDialogView:
    """ What the SDK's dialog needs to show a template (a subset of `ClickwrapView`), for the console's dialog preview.

        Attributes:
            name (str):
            language (Language):
            content (str): The sanitized HTML of the version in force (else the latest, else the draft), placeholders empty.
            clickwrap_template_version (int):
            clickwrap_template_version_minor (int):
            effective_at (datetime.datetime): RFC 3339, UTC with `Z`, millisecond precision.
            customizations (ConsoleDialogViewCustomizations):
     """

    name: str
    language: Language
    content: str
    clickwrap_template_version: int
    clickwrap_template_version_minor: int
    effective_at: datetime.datetime
    customizations: ConsoleDialogViewCustomizations
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.console_dialog_view_customizations import ConsoleDialogViewCustomizations # noqa: PLC0415
        name = self.name

        language = self.language.value

        content = self.content

        clickwrap_template_version = self.clickwrap_template_version

        clickwrap_template_version_minor = self.clickwrap_template_version_minor

        effective_at = self.effective_at.isoformat()

        customizations = self.customizations.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "name": name,
            "language": language,
            "content": content,
            "clickwrapTemplateVersion": clickwrap_template_version,
            "clickwrapTemplateVersionMinor": clickwrap_template_version_minor,
            "effectiveAt": effective_at,
            "customizations": customizations,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.console_dialog_view_customizations import ConsoleDialogViewCustomizations # noqa: PLC0415
        d = dict(src_dict)
        name = d.pop("name")

        language = Language(d.pop("language"))




        content = d.pop("content")

        clickwrap_template_version = d.pop("clickwrapTemplateVersion")

        clickwrap_template_version_minor = d.pop("clickwrapTemplateVersionMinor")

        effective_at = datetime.datetime.fromisoformat(d.pop("effectiveAt"))




        customizations = ConsoleDialogViewCustomizations.from_dict(d.pop("customizations"))




        console_dialog_view = cls(
            name=name,
            language=language,
            content=content,
            clickwrap_template_version=clickwrap_template_version,
            clickwrap_template_version_minor=clickwrap_template_version_minor,
            effective_at=effective_at,
            customizations=customizations,
        )


        console_dialog_view.additional_properties = d
        return console_dialog_view

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
