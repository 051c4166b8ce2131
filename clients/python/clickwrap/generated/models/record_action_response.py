from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import Literal, cast
from uuid import UUID






T = TypeVar("T", bound="RecordActionResponse")



@_attrs_define
class RecordActionResponse:
    """ 
        Attributes:
            service_signature (str): Opaque; send it to your backend, which verifies it.
            clickwrap_event_id (UUID):
            clickwrap_event_status (Literal['UNVERIFIED']):
     """

    service_signature: str
    clickwrap_event_id: UUID
    clickwrap_event_status: Literal['UNVERIFIED']
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        service_signature = self.service_signature

        clickwrap_event_id = str(self.clickwrap_event_id)

        clickwrap_event_status = self.clickwrap_event_status


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "serviceSignature": service_signature,
            "clickwrapEventId": clickwrap_event_id,
            "clickwrapEventStatus": clickwrap_event_status,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        service_signature = d.pop("serviceSignature")

        clickwrap_event_id = UUID(d.pop("clickwrapEventId"))




        clickwrap_event_status = cast(Literal['UNVERIFIED'] , d.pop("clickwrapEventStatus"))
        if clickwrap_event_status != 'UNVERIFIED':
            raise ValueError(f"clickwrapEventStatus must match const 'UNVERIFIED', got '{clickwrap_event_status}'")

        record_action_response = cls(
            service_signature=service_signature,
            clickwrap_event_id=clickwrap_event_id,
            clickwrap_event_status=clickwrap_event_status,
        )


        record_action_response.additional_properties = d
        return record_action_response

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
