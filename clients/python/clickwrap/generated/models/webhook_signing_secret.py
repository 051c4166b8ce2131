from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="WebhookSigningSecret")



@_attrs_define
class WebhookSigningSecret:
    """ 
        Attributes:
            webhook_signing_secret (str): `whsec_` + base64 (standard alphabet, padded) of 32 random bytes, the Standard
                Webhooks format; secrets made before are `whsec_` + 64 hex digits and keep working. Give it as shown to the
                official `standardwebhooks` libraries; the spec's `X-Service-Signature` is keyed by its text.
     """

    webhook_signing_secret: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        webhook_signing_secret = self.webhook_signing_secret


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "webhookSigningSecret": webhook_signing_secret,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        webhook_signing_secret = d.pop("webhookSigningSecret")

        webhook_signing_secret = cls(
            webhook_signing_secret=webhook_signing_secret,
        )


        webhook_signing_secret.additional_properties = d
        return webhook_signing_secret

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
