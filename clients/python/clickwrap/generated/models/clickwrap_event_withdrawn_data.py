from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from typing import Literal, cast
from uuid import UUID
import datetime






T = TypeVar("T", bound="ClickwrapEventWithdrawnData")



@_attrs_define
class ClickwrapEventWithdrawnData:
    """ A withdrawal: the withdrawal event's fields, and `withdraws`, the acceptance it ends.

        Attributes:
            clickwrap_event_status (Literal['WITHDRAWN']):
            clickwrap_event_id (UUID):
            clickwrap_template_id (UUID):
            clickwrap_template_version (int):
            clickwrap_template_version_minor (int):
            end_user_id (str): The caller's identifier of the end user: 1 to 256 characters, no control characters.
            template_placeholders (None | str):
            technical_metadata (str):
            action_at (datetime.datetime): RFC 3339, UTC with `Z`, millisecond precision.
            effective_at (datetime.datetime): RFC 3339, UTC with `Z`, millisecond precision.
            withdraws (UUID):
     """

    clickwrap_event_status: Literal['WITHDRAWN']
    clickwrap_event_id: UUID
    clickwrap_template_id: UUID
    clickwrap_template_version: int
    clickwrap_template_version_minor: int
    end_user_id: str
    template_placeholders: None | str
    technical_metadata: str
    action_at: datetime.datetime
    effective_at: datetime.datetime
    withdraws: UUID
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        clickwrap_event_status = self.clickwrap_event_status

        clickwrap_event_id = str(self.clickwrap_event_id)

        clickwrap_template_id = str(self.clickwrap_template_id)

        clickwrap_template_version = self.clickwrap_template_version

        clickwrap_template_version_minor = self.clickwrap_template_version_minor

        end_user_id = self.end_user_id

        template_placeholders: None | str
        template_placeholders = self.template_placeholders

        technical_metadata = self.technical_metadata

        action_at = self.action_at.isoformat()

        effective_at = self.effective_at.isoformat()

        withdraws = str(self.withdraws)


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "clickwrapEventStatus": clickwrap_event_status,
            "clickwrapEventId": clickwrap_event_id,
            "clickwrapTemplateId": clickwrap_template_id,
            "clickwrapTemplateVersion": clickwrap_template_version,
            "clickwrapTemplateVersionMinor": clickwrap_template_version_minor,
            "endUserId": end_user_id,
            "templatePlaceholders": template_placeholders,
            "technicalMetadata": technical_metadata,
            "actionAt": action_at,
            "effectiveAt": effective_at,
            "withdraws": withdraws,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        clickwrap_event_status = cast(Literal['WITHDRAWN'] , d.pop("clickwrapEventStatus"))
        if clickwrap_event_status != 'WITHDRAWN':
            raise ValueError(f"clickwrapEventStatus must match const 'WITHDRAWN', got '{clickwrap_event_status}'")

        clickwrap_event_id = UUID(d.pop("clickwrapEventId"))




        clickwrap_template_id = UUID(d.pop("clickwrapTemplateId"))




        clickwrap_template_version = d.pop("clickwrapTemplateVersion")

        clickwrap_template_version_minor = d.pop("clickwrapTemplateVersionMinor")

        end_user_id = d.pop("endUserId")

        def _parse_template_placeholders(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        template_placeholders = _parse_template_placeholders(d.pop("templatePlaceholders"))


        technical_metadata = d.pop("technicalMetadata")

        action_at = datetime.datetime.fromisoformat(d.pop("actionAt"))




        effective_at = datetime.datetime.fromisoformat(d.pop("effectiveAt"))




        withdraws = UUID(d.pop("withdraws"))




        clickwrap_event_withdrawn_data = cls(
            clickwrap_event_status=clickwrap_event_status,
            clickwrap_event_id=clickwrap_event_id,
            clickwrap_template_id=clickwrap_template_id,
            clickwrap_template_version=clickwrap_template_version,
            clickwrap_template_version_minor=clickwrap_template_version_minor,
            end_user_id=end_user_id,
            template_placeholders=template_placeholders,
            technical_metadata=technical_metadata,
            action_at=action_at,
            effective_at=effective_at,
            withdraws=withdraws,
        )


        clickwrap_event_withdrawn_data.additional_properties = d
        return clickwrap_event_withdrawn_data

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
