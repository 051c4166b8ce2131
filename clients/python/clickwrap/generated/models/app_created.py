from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from uuid import UUID
import datetime






T = TypeVar("T", bound="AppCreated")



@_attrs_define
class AppCreated:
    """ The new app with its secrets, shown only here.

        Attributes:
            app_id (UUID):
            name (str):
            webhook_url (None | str):
            webhook_enabled (bool):
            allowed_origins (list[str]): Empty: any origin.
            created_at (datetime.datetime): RFC 3339, UTC with `Z`, millisecond precision.
            updated_at (datetime.datetime): RFC 3339, UTC with `Z`, millisecond precision.
            app_key (str): The App Key: secret, server-side only.
            webhook_signing_secret (str): Signs the webhooks (`X-Service-Signature` and the Standard Webhooks `webhook-
                signature`): `whsec_` + base64 of 32 random bytes. Give it as shown to the official `standardwebhooks`
                libraries.
     """

    app_id: UUID
    name: str
    webhook_url: None | str
    webhook_enabled: bool
    allowed_origins: list[str]
    created_at: datetime.datetime
    updated_at: datetime.datetime
    app_key: str
    webhook_signing_secret: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        app_id = str(self.app_id)

        name = self.name

        webhook_url: None | str
        webhook_url = self.webhook_url

        webhook_enabled = self.webhook_enabled

        allowed_origins = self.allowed_origins



        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        app_key = self.app_key

        webhook_signing_secret = self.webhook_signing_secret


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "appId": app_id,
            "name": name,
            "webhookUrl": webhook_url,
            "webhookEnabled": webhook_enabled,
            "allowedOrigins": allowed_origins,
            "createdAt": created_at,
            "updatedAt": updated_at,
            "appKey": app_key,
            "webhookSigningSecret": webhook_signing_secret,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        app_id = UUID(d.pop("appId"))




        name = d.pop("name")

        def _parse_webhook_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        webhook_url = _parse_webhook_url(d.pop("webhookUrl"))


        webhook_enabled = d.pop("webhookEnabled")

        allowed_origins = cast(list[str], d.pop("allowedOrigins"))


        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))




        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))




        app_key = d.pop("appKey")

        webhook_signing_secret = d.pop("webhookSigningSecret")

        app_created = cls(
            app_id=app_id,
            name=name,
            webhook_url=webhook_url,
            webhook_enabled=webhook_enabled,
            allowed_origins=allowed_origins,
            created_at=created_at,
            updated_at=updated_at,
            app_key=app_key,
            webhook_signing_secret=webhook_signing_secret,
        )


        app_created.additional_properties = d
        return app_created

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
