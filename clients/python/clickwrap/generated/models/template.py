from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.language import Language
from ..types import UNSET, Unset
from typing import cast
from uuid import UUID
import datetime

if TYPE_CHECKING:
  from ..models.template_customizations import TemplateCustomizations
  from ..models.template_draft import TemplateDraft
  from ..models.template_version import TemplateVersion





T = TypeVar("T", bound="Template")



@_attrs_define
class Template:
    """ A template with its versions' states now. `draft` is left out of the list.

        Attributes:
            clickwrap_template_id (UUID):
            name (str):
            tags (list[str]):
            app_ids (list[UUID]): Empty: available to every app of the tenant.
            default_language (Language):
            always_require_acceptance (bool):
            enabled (bool):
            customizations (TemplateCustomizations): The dialog's look as stored, texts per language. In a request, what is
                left out or null takes its default.
            versions (list[TemplateVersion]): In publish order.
            created_at (datetime.datetime): RFC 3339, UTC with `Z`, millisecond precision.
            updated_at (datetime.datetime): RFC 3339, UTC with `Z`, millisecond precision.
            draft (TemplateDraft | Unset):
     """

    clickwrap_template_id: UUID
    name: str
    tags: list[str]
    app_ids: list[UUID]
    default_language: Language
    always_require_acceptance: bool
    enabled: bool
    customizations: TemplateCustomizations
    versions: list[TemplateVersion]
    created_at: datetime.datetime
    updated_at: datetime.datetime
    draft: TemplateDraft | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.template_customizations import TemplateCustomizations # noqa: PLC0415
        from ..models.template_draft import TemplateDraft # noqa: PLC0415
        from ..models.template_version import TemplateVersion # noqa: PLC0415
        clickwrap_template_id = str(self.clickwrap_template_id)

        name = self.name

        tags = self.tags



        app_ids = []
        for app_ids_item_data in self.app_ids:
            app_ids_item = str(app_ids_item_data)
            app_ids.append(app_ids_item)



        default_language = self.default_language.value

        always_require_acceptance = self.always_require_acceptance

        enabled = self.enabled

        customizations = self.customizations.to_dict()

        versions = []
        for versions_item_data in self.versions:
            versions_item = versions_item_data.to_dict()
            versions.append(versions_item)



        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        draft: dict[str, Any] | Unset = UNSET
        if not isinstance(self.draft, Unset):
            draft = self.draft.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "clickwrapTemplateId": clickwrap_template_id,
            "name": name,
            "tags": tags,
            "appIds": app_ids,
            "defaultLanguage": default_language,
            "alwaysRequireAcceptance": always_require_acceptance,
            "enabled": enabled,
            "customizations": customizations,
            "versions": versions,
            "createdAt": created_at,
            "updatedAt": updated_at,
        })
        if draft is not UNSET:
            field_dict["draft"] = draft

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.template_customizations import TemplateCustomizations # noqa: PLC0415
        from ..models.template_draft import TemplateDraft # noqa: PLC0415
        from ..models.template_version import TemplateVersion # noqa: PLC0415
        d = dict(src_dict)
        clickwrap_template_id = UUID(d.pop("clickwrapTemplateId"))




        name = d.pop("name")

        tags = cast(list[str], d.pop("tags"))


        app_ids = []
        _app_ids = d.pop("appIds")
        for app_ids_item_data in (_app_ids):
            app_ids_item = UUID(app_ids_item_data)



            app_ids.append(app_ids_item)


        default_language = Language(d.pop("defaultLanguage"))




        always_require_acceptance = d.pop("alwaysRequireAcceptance")

        enabled = d.pop("enabled")

        customizations = TemplateCustomizations.from_dict(d.pop("customizations"))




        versions = []
        _versions = d.pop("versions")
        for versions_item_data in (_versions):
            versions_item = TemplateVersion.from_dict(versions_item_data)



            versions.append(versions_item)


        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))




        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))




        _draft = d.pop("draft", UNSET)
        draft: TemplateDraft | Unset
        if isinstance(_draft,  Unset):
            draft = UNSET
        else:
            draft = TemplateDraft.from_dict(_draft)




        template = cls(
            clickwrap_template_id=clickwrap_template_id,
            name=name,
            tags=tags,
            app_ids=app_ids,
            default_language=default_language,
            always_require_acceptance=always_require_acceptance,
            enabled=enabled,
            customizations=customizations,
            versions=versions,
            created_at=created_at,
            updated_at=updated_at,
            draft=draft,
        )


        template.additional_properties = d
        return template

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
