from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="ConsoleUpdateAppBody")



@_attrs_define
class ConsoleUpdateAppBody:
    """ 
        Attributes:
            csrf_token (str): The session's CSRF token, as every console form carries it in a hidden field (and every page
                in its `csrf-token` meta tag). Required unless the header `X-CSRF-Token` carries it.
            name (str): 1 to 200 characters.
            webhook_url (str | Unset): https, and a host that resolves to public addresses; blank removes it.
            webhook_enabled (str | Unset): Whether webhooks are sent. A ticked checkbox: present (any value) is on, absent
                is off.
            allowed_origins (str | Unset): One origin per line; blank allows every origin.
     """

    csrf_token: str
    name: str
    webhook_url: str | Unset = UNSET
    webhook_enabled: str | Unset = UNSET
    allowed_origins: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        csrf_token = self.csrf_token

        name = self.name

        webhook_url = self.webhook_url

        webhook_enabled = self.webhook_enabled

        allowed_origins = self.allowed_origins


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "csrf_token": csrf_token,
            "name": name,
        })
        if webhook_url is not UNSET:
            field_dict["webhook_url"] = webhook_url
        if webhook_enabled is not UNSET:
            field_dict["webhook_enabled"] = webhook_enabled
        if allowed_origins is not UNSET:
            field_dict["allowed_origins"] = allowed_origins

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        csrf_token = d.pop("csrf_token")

        name = d.pop("name")

        webhook_url = d.pop("webhook_url", UNSET)

        webhook_enabled = d.pop("webhook_enabled", UNSET)

        allowed_origins = d.pop("allowed_origins", UNSET)

        console_update_app_body = cls(
            csrf_token=csrf_token,
            name=name,
            webhook_url=webhook_url,
            webhook_enabled=webhook_enabled,
            allowed_origins=allowed_origins,
        )


        console_update_app_body.additional_properties = d
        return console_update_app_body

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
