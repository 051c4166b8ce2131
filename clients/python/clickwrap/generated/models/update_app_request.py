from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="UpdateAppRequest")



@_attrs_define
class UpdateAppRequest:
    """ 
        Attributes:
            name (str | Unset): 1 to 200 characters, no control characters, not only white space (leading and trailing white
                space is trimmed).
            webhook_url (None | str | Unset): null removes the URL.
            webhook_enabled (bool | Unset):
            allowed_origins (list[str] | Unset):
     """

    name: str | Unset = UNSET
    webhook_url: None | str | Unset = UNSET
    webhook_enabled: bool | Unset = UNSET
    allowed_origins: list[str] | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        name = self.name

        webhook_url: None | str | Unset
        if isinstance(self.webhook_url, Unset):
            webhook_url = UNSET
        else:
            webhook_url = self.webhook_url

        webhook_enabled = self.webhook_enabled

        allowed_origins: list[str] | Unset = UNSET
        if not isinstance(self.allowed_origins, Unset):
            allowed_origins = self.allowed_origins




        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if name is not UNSET:
            field_dict["name"] = name
        if webhook_url is not UNSET:
            field_dict["webhookUrl"] = webhook_url
        if webhook_enabled is not UNSET:
            field_dict["webhookEnabled"] = webhook_enabled
        if allowed_origins is not UNSET:
            field_dict["allowedOrigins"] = allowed_origins

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name", UNSET)

        def _parse_webhook_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        webhook_url = _parse_webhook_url(d.pop("webhookUrl", UNSET))


        webhook_enabled = d.pop("webhookEnabled", UNSET)

        allowed_origins = cast(list[str], d.pop("allowedOrigins", UNSET))


        update_app_request = cls(
            name=name,
            webhook_url=webhook_url,
            webhook_enabled=webhook_enabled,
            allowed_origins=allowed_origins,
        )

        return update_app_request

