from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="CreateAppRequest")



@_attrs_define
class CreateAppRequest:
    """ 
        Attributes:
            name (str): 1 to 200 characters, no control characters, not only white space (leading and trailing white space
                is trimmed).
            webhook_url (None | str | Unset):
            allowed_origins (list[str] | None | Unset):
     """

    name: str
    webhook_url: None | str | Unset = UNSET
    allowed_origins: list[str] | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        name = self.name

        webhook_url: None | str | Unset
        if isinstance(self.webhook_url, Unset):
            webhook_url = UNSET
        else:
            webhook_url = self.webhook_url

        allowed_origins: list[str] | None | Unset
        if isinstance(self.allowed_origins, Unset):
            allowed_origins = UNSET
        elif isinstance(self.allowed_origins, list):
            allowed_origins = self.allowed_origins


        else:
            allowed_origins = self.allowed_origins


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "name": name,
        })
        if webhook_url is not UNSET:
            field_dict["webhookUrl"] = webhook_url
        if allowed_origins is not UNSET:
            field_dict["allowedOrigins"] = allowed_origins

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        def _parse_webhook_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        webhook_url = _parse_webhook_url(d.pop("webhookUrl", UNSET))


        def _parse_allowed_origins(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                allowed_origins_type_0 = cast(list[str], data)

                return allowed_origins_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        allowed_origins = _parse_allowed_origins(d.pop("allowedOrigins", UNSET))


        create_app_request = cls(
            name=name,
            webhook_url=webhook_url,
            allowed_origins=allowed_origins,
        )

        return create_app_request

