from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="WebhookTestData")



@_attrs_define
class WebhookTestData:
    """ 
        Attributes:
            webhook_endpoint_id (str): The endpoint the test was sent to.
            sent_at (datetime.datetime): RFC 3339, UTC with `Z`, millisecond precision.
     """

    webhook_endpoint_id: str
    sent_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        webhook_endpoint_id = self.webhook_endpoint_id

        sent_at = self.sent_at.isoformat()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "webhookEndpointId": webhook_endpoint_id,
            "sentAt": sent_at,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        webhook_endpoint_id = d.pop("webhookEndpointId")

        sent_at = datetime.datetime.fromisoformat(d.pop("sentAt"))




        webhook_test_data = cls(
            webhook_endpoint_id=webhook_endpoint_id,
            sent_at=sent_at,
        )


        webhook_test_data.additional_properties = d
        return webhook_test_data

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
