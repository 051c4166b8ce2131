from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from uuid import UUID






T = TypeVar("T", bound="ReAcceptRequest")



@_attrs_define
class ReAcceptRequest:
    """ 
        Attributes:
            end_user_ids (list[str]):
            clickwrap_template_ids (list[UUID]):
            reason (None | str | Unset):
     """

    end_user_ids: list[str]
    clickwrap_template_ids: list[UUID]
    reason: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        end_user_ids = self.end_user_ids



        clickwrap_template_ids = []
        for clickwrap_template_ids_item_data in self.clickwrap_template_ids:
            clickwrap_template_ids_item = str(clickwrap_template_ids_item_data)
            clickwrap_template_ids.append(clickwrap_template_ids_item)



        reason: None | str | Unset
        if isinstance(self.reason, Unset):
            reason = UNSET
        else:
            reason = self.reason


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "endUserIds": end_user_ids,
            "clickwrapTemplateIds": clickwrap_template_ids,
        })
        if reason is not UNSET:
            field_dict["reason"] = reason

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        end_user_ids = cast(list[str], d.pop("endUserIds"))


        clickwrap_template_ids = []
        _clickwrap_template_ids = d.pop("clickwrapTemplateIds")
        for clickwrap_template_ids_item_data in (_clickwrap_template_ids):
            clickwrap_template_ids_item = UUID(clickwrap_template_ids_item_data)



            clickwrap_template_ids.append(clickwrap_template_ids_item)


        def _parse_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reason = _parse_reason(d.pop("reason", UNSET))


        re_accept_request = cls(
            end_user_ids=end_user_ids,
            clickwrap_template_ids=clickwrap_template_ids,
            reason=reason,
        )


        re_accept_request.additional_properties = d
        return re_accept_request

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
