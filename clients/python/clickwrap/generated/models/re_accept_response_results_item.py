from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.re_accept_response_results_item_status import ReAcceptResponseResultsItemStatus
from uuid import UUID






T = TypeVar("T", bound="ReAcceptResponseResultsItem")



@_attrs_define
class ReAcceptResponseResultsItem:
    """ 
        Attributes:
            end_user_id (str): The caller's identifier of the end user: 1 to 256 characters, no control characters.
            clickwrap_template_id (UUID):
            status (ReAcceptResponseResultsItemStatus): SKIPPED: the template is not available to the app, or the end user
                has no standing acceptance of its current major version.
     """

    end_user_id: str
    clickwrap_template_id: UUID
    status: ReAcceptResponseResultsItemStatus
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        end_user_id = self.end_user_id

        clickwrap_template_id = str(self.clickwrap_template_id)

        status = self.status.value


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "endUserId": end_user_id,
            "clickwrapTemplateId": clickwrap_template_id,
            "status": status,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        end_user_id = d.pop("endUserId")

        clickwrap_template_id = UUID(d.pop("clickwrapTemplateId"))




        status = ReAcceptResponseResultsItemStatus(d.pop("status"))




        re_accept_response_results_item = cls(
            end_user_id=end_user_id,
            clickwrap_template_id=clickwrap_template_id,
            status=status,
        )


        re_accept_response_results_item.additional_properties = d
        return re_accept_response_results_item

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
