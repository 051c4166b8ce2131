from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="ConsoleRedeliverWebhookBody")



@_attrs_define
class ConsoleRedeliverWebhookBody:
    """ 
        Attributes:
            csrf_token (str): The session's CSRF token, as every console form carries it in a hidden field (and every page
                in its `csrf-token` meta tag). Required unless the header `X-CSRF-Token` carries it.
            app_id (str | Unset): The delivery's app, to come back to its deliveries.
     """

    csrf_token: str
    app_id: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        csrf_token = self.csrf_token

        app_id = self.app_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "csrf_token": csrf_token,
        })
        if app_id is not UNSET:
            field_dict["app_id"] = app_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        csrf_token = d.pop("csrf_token")

        app_id = d.pop("app_id", UNSET)

        console_redeliver_webhook_body = cls(
            csrf_token=csrf_token,
            app_id=app_id,
        )


        console_redeliver_webhook_body.additional_properties = d
        return console_redeliver_webhook_body

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
