from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.localized_content import LocalizedContent





T = TypeVar("T", bound="TemplateDraft")



@_attrs_define
class TemplateDraft:
    """ 
        Attributes:
            content (LocalizedContent): HTML per language code; sanitized on save, at most 512 KiB, elements nested at most
                128 deep and at most 50,000 elements per language. Placeholders are written `{{fullName}}` … `{{vatNumber}}` and
                `{{custom.KEY}}`.
     """

    content: LocalizedContent
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.localized_content import LocalizedContent # noqa: PLC0415
        content = self.content.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "content": content,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.localized_content import LocalizedContent # noqa: PLC0415
        d = dict(src_dict)
        content = LocalizedContent.from_dict(d.pop("content"))




        template_draft = cls(
            content=content,
        )


        template_draft.additional_properties = d
        return template_draft

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
