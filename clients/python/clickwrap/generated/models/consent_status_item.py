from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.consent_status_value import ConsentStatusValue
from typing import cast
from uuid import UUID
import datetime






T = TypeVar("T", bound="ConsentStatusItem")



@_attrs_define
class ConsentStatusItem:
    """ 
        Attributes:
            clickwrap_template_id (UUID):
            clickwrap_template_name (str):
            clickwrap_template_version (int):
            clickwrap_template_version_minor (int):
            effective_at (datetime.datetime): RFC 3339, UTC with `Z`, millisecond precision.
            tags (list[str]):
            status (ConsentStatusValue):
            re_acceptance_required (bool):
            last_status_update (datetime.datetime | None):
            clickwrap_event_id (None | UUID):
     """

    clickwrap_template_id: UUID
    clickwrap_template_name: str
    clickwrap_template_version: int
    clickwrap_template_version_minor: int
    effective_at: datetime.datetime
    tags: list[str]
    status: ConsentStatusValue
    re_acceptance_required: bool
    last_status_update: datetime.datetime | None
    clickwrap_event_id: None | UUID
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        clickwrap_template_id = str(self.clickwrap_template_id)

        clickwrap_template_name = self.clickwrap_template_name

        clickwrap_template_version = self.clickwrap_template_version

        clickwrap_template_version_minor = self.clickwrap_template_version_minor

        effective_at = self.effective_at.isoformat()

        tags = self.tags



        status = self.status.value

        re_acceptance_required = self.re_acceptance_required

        last_status_update: None | str
        if isinstance(self.last_status_update, datetime.datetime):
            last_status_update = self.last_status_update.isoformat()
        else:
            last_status_update = self.last_status_update

        clickwrap_event_id: None | str
        if isinstance(self.clickwrap_event_id, UUID):
            clickwrap_event_id = str(self.clickwrap_event_id)
        else:
            clickwrap_event_id = self.clickwrap_event_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "clickwrapTemplateId": clickwrap_template_id,
            "clickwrapTemplateName": clickwrap_template_name,
            "clickwrapTemplateVersion": clickwrap_template_version,
            "clickwrapTemplateVersionMinor": clickwrap_template_version_minor,
            "effectiveAt": effective_at,
            "tags": tags,
            "status": status,
            "reAcceptanceRequired": re_acceptance_required,
            "lastStatusUpdate": last_status_update,
            "clickwrapEventId": clickwrap_event_id,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        clickwrap_template_id = UUID(d.pop("clickwrapTemplateId"))




        clickwrap_template_name = d.pop("clickwrapTemplateName")

        clickwrap_template_version = d.pop("clickwrapTemplateVersion")

        clickwrap_template_version_minor = d.pop("clickwrapTemplateVersionMinor")

        effective_at = datetime.datetime.fromisoformat(d.pop("effectiveAt"))




        tags = cast(list[str], d.pop("tags"))


        status = ConsentStatusValue(d.pop("status"))




        re_acceptance_required = d.pop("reAcceptanceRequired")

        def _parse_last_status_update(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_status_update_type_0 = datetime.datetime.fromisoformat(data)



                return last_status_update_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_status_update = _parse_last_status_update(d.pop("lastStatusUpdate"))


        def _parse_clickwrap_event_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                clickwrap_event_id_type_0 = UUID(data)



                return clickwrap_event_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        clickwrap_event_id = _parse_clickwrap_event_id(d.pop("clickwrapEventId"))


        consent_status_item = cls(
            clickwrap_template_id=clickwrap_template_id,
            clickwrap_template_name=clickwrap_template_name,
            clickwrap_template_version=clickwrap_template_version,
            clickwrap_template_version_minor=clickwrap_template_version_minor,
            effective_at=effective_at,
            tags=tags,
            status=status,
            re_acceptance_required=re_acceptance_required,
            last_status_update=last_status_update,
            clickwrap_event_id=clickwrap_event_id,
        )


        consent_status_item.additional_properties = d
        return consent_status_item

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
