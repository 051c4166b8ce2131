from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from typing import Literal, cast
import datetime

if TYPE_CHECKING:
  from ..models.template_version_effective_data import TemplateVersionEffectiveData





T = TypeVar("T", bound="TemplateVersionEffectiveWebhook")



@_attrs_define
class TemplateVersionEffectiveWebhook:
    """ The body of `TEMPLATE_VERSION_EFFECTIVE`: a version became effective (a scheduled one at its time), sent once.

        Attributes:
            event_type (Literal['TEMPLATE_VERSION_EFFECTIVE']):
            timestamp (datetime.datetime): RFC 3339, UTC with `Z`, millisecond precision.
            data (TemplateVersionEffectiveData):
     """

    event_type: Literal['TEMPLATE_VERSION_EFFECTIVE']
    timestamp: datetime.datetime
    data: TemplateVersionEffectiveData
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.template_version_effective_data import TemplateVersionEffectiveData # noqa: PLC0415
        event_type = self.event_type

        timestamp = self.timestamp.isoformat()

        data = self.data.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "eventType": event_type,
            "timestamp": timestamp,
            "data": data,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.template_version_effective_data import TemplateVersionEffectiveData # noqa: PLC0415
        d = dict(src_dict)
        event_type = cast(Literal['TEMPLATE_VERSION_EFFECTIVE'] , d.pop("eventType"))
        if event_type != 'TEMPLATE_VERSION_EFFECTIVE':
            raise ValueError(f"eventType must match const 'TEMPLATE_VERSION_EFFECTIVE', got '{event_type}'")

        timestamp = datetime.datetime.fromisoformat(d.pop("timestamp"))




        data = TemplateVersionEffectiveData.from_dict(d.pop("data"))




        template_version_effective_webhook = cls(
            event_type=event_type,
            timestamp=timestamp,
            data=data,
        )


        template_version_effective_webhook.additional_properties = d
        return template_version_effective_webhook

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
