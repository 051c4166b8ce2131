from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.consent_status_value import ConsentStatusValue
from typing import cast

if TYPE_CHECKING:
  from ..models.consent_status_item import ConsentStatusItem





T = TypeVar("T", bound="ConsentStatus")



@_attrs_define
class ConsentStatus:
    """ 
        Attributes:
            end_user_id (str): The caller's identifier of the end user: 1 to 256 characters, no control characters.
            status (ConsentStatusValue):
            items (list[ConsentStatusItem]):
     """

    end_user_id: str
    status: ConsentStatusValue
    items: list[ConsentStatusItem]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.consent_status_item import ConsentStatusItem # noqa: PLC0415
        end_user_id = self.end_user_id

        status = self.status.value

        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "endUserId": end_user_id,
            "status": status,
            "items": items,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.consent_status_item import ConsentStatusItem # noqa: PLC0415
        d = dict(src_dict)
        end_user_id = d.pop("endUserId")

        status = ConsentStatusValue(d.pop("status"))




        items = []
        _items = d.pop("items")
        for items_item_data in (_items):
            items_item = ConsentStatusItem.from_dict(items_item_data)



            items.append(items_item)


        consent_status = cls(
            end_user_id=end_user_id,
            status=status,
            items=items,
        )


        consent_status.additional_properties = d
        return consent_status

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
