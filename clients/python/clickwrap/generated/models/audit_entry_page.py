from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.audit_entry import AuditEntry





T = TypeVar("T", bound="AuditEntryPage")



@_attrs_define
class AuditEntryPage:
    """ 
        Attributes:
            items (list[AuditEntry]):
            next_page_cursor (None | str): Opaque; null when no more results remain.
     """

    items: list[AuditEntry]
    next_page_cursor: None | str





    def to_dict(self) -> dict[str, Any]:
        from ..models.audit_entry import AuditEntry # noqa: PLC0415
        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)



        next_page_cursor: None | str
        next_page_cursor = self.next_page_cursor


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "items": items,
            "nextPageCursor": next_page_cursor,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.audit_entry import AuditEntry # noqa: PLC0415
        d = dict(src_dict)
        items = []
        _items = d.pop("items")
        for items_item_data in (_items):
            items_item = AuditEntry.from_dict(items_item_data)



            items.append(items_item)


        def _parse_next_page_cursor(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_page_cursor = _parse_next_page_cursor(d.pop("nextPageCursor"))


        audit_entry_page = cls(
            items=items,
            next_page_cursor=next_page_cursor,
        )

        return audit_entry_page

