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

if TYPE_CHECKING:
  from ..models.localized_content import LocalizedContent
  from ..models.template_customizations import TemplateCustomizations





T = TypeVar("T", bound="CreateTemplateRequest")



@_attrs_define
class CreateTemplateRequest:
    """ 
        Attributes:
            name (str): 1 to 200 characters, no control characters, not only white space (leading and trailing white space
                is trimmed).
            content (LocalizedContent): HTML per language code; sanitized on save, at most 512 KiB, elements nested at most
                128 deep and at most 50,000 elements per language. Placeholders are written `{{fullName}}` … `{{vatNumber}}` and
                `{{custom.KEY}}`.
            tags (list[str] | None | Unset):
            app_ids (list[UUID] | None | Unset): Apps of this tenant; empty or left out: every app.
            default_language (Language | None | Unset): Default `en`.
            customizations (None | TemplateCustomizations | Unset):
            always_require_acceptance (bool | None | Unset): Default false.
     """

    name: str
    content: LocalizedContent
    tags: list[str] | None | Unset = UNSET
    app_ids: list[UUID] | None | Unset = UNSET
    default_language: Language | None | Unset = UNSET
    customizations: None | TemplateCustomizations | Unset = UNSET
    always_require_acceptance: bool | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.localized_content import LocalizedContent # noqa: PLC0415
        from ..models.template_customizations import TemplateCustomizations # noqa: PLC0415
        name = self.name

        content = self.content.to_dict()

        tags: list[str] | None | Unset
        if isinstance(self.tags, Unset):
            tags = UNSET
        elif isinstance(self.tags, list):
            tags = self.tags


        else:
            tags = self.tags

        app_ids: list[str] | None | Unset
        if isinstance(self.app_ids, Unset):
            app_ids = UNSET
        elif isinstance(self.app_ids, list):
            app_ids = []
            for app_ids_type_0_item_data in self.app_ids:
                app_ids_type_0_item = str(app_ids_type_0_item_data)
                app_ids.append(app_ids_type_0_item)


        else:
            app_ids = self.app_ids

        default_language: None | str | Unset
        if isinstance(self.default_language, Unset):
            default_language = UNSET
        elif isinstance(self.default_language, Language):
            default_language = self.default_language.value
        else:
            default_language = self.default_language

        customizations: dict[str, Any] | None | Unset
        if isinstance(self.customizations, Unset):
            customizations = UNSET
        elif isinstance(self.customizations, TemplateCustomizations):
            customizations = self.customizations.to_dict()
        else:
            customizations = self.customizations

        always_require_acceptance: bool | None | Unset
        if isinstance(self.always_require_acceptance, Unset):
            always_require_acceptance = UNSET
        else:
            always_require_acceptance = self.always_require_acceptance


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "name": name,
            "content": content,
        })
        if tags is not UNSET:
            field_dict["tags"] = tags
        if app_ids is not UNSET:
            field_dict["appIds"] = app_ids
        if default_language is not UNSET:
            field_dict["defaultLanguage"] = default_language
        if customizations is not UNSET:
            field_dict["customizations"] = customizations
        if always_require_acceptance is not UNSET:
            field_dict["alwaysRequireAcceptance"] = always_require_acceptance

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.localized_content import LocalizedContent # noqa: PLC0415
        from ..models.template_customizations import TemplateCustomizations # noqa: PLC0415
        d = dict(src_dict)
        name = d.pop("name")

        content = LocalizedContent.from_dict(d.pop("content"))




        def _parse_tags(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                tags_type_0 = cast(list[str], data)

                return tags_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        tags = _parse_tags(d.pop("tags", UNSET))


        def _parse_app_ids(data: object) -> list[UUID] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                app_ids_type_0 = []
                _app_ids_type_0 = data
                for app_ids_type_0_item_data in (_app_ids_type_0):
                    app_ids_type_0_item = UUID(app_ids_type_0_item_data)



                    app_ids_type_0.append(app_ids_type_0_item)

                return app_ids_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[UUID] | None | Unset, data)

        app_ids = _parse_app_ids(d.pop("appIds", UNSET))


        def _parse_default_language(data: object) -> Language | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                default_language_type_0 = Language(data)



                return default_language_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Language | None | Unset, data)

        default_language = _parse_default_language(d.pop("defaultLanguage", UNSET))


        def _parse_customizations(data: object) -> None | TemplateCustomizations | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                customizations_type_0 = TemplateCustomizations.from_dict(data)



                return customizations_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TemplateCustomizations | Unset, data)

        customizations = _parse_customizations(d.pop("customizations", UNSET))


        def _parse_always_require_acceptance(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        always_require_acceptance = _parse_always_require_acceptance(d.pop("alwaysRequireAcceptance", UNSET))


        create_template_request = cls(
            name=name,
            content=content,
            tags=tags,
            app_ids=app_ids,
            default_language=default_language,
            customizations=customizations,
            always_require_acceptance=always_require_acceptance,
        )

        return create_template_request

