from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.localized_content import LocalizedContent





T = TypeVar("T", bound="DraftRequest")



@_attrs_define
class DraftRequest:
    """ 
        Attributes:
            content (LocalizedContent): HTML per language code; sanitized on save, at most 512 KiB, elements nested at most
                128 deep and at most 50,000 elements per language. Placeholders are written `{{fullName}}` … `{{vatNumber}}` and
                `{{custom.KEY}}`.
     """

    content: LocalizedContent





    def to_dict(self) -> dict[str, Any]:
        from ..models.localized_content import LocalizedContent # noqa: PLC0415
        content = self.content.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "content": content,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.localized_content import LocalizedContent # noqa: PLC0415
        d = dict(src_dict)
        content = LocalizedContent.from_dict(d.pop("content"))




        draft_request = cls(
            content=content,
        )

        return draft_request

