from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from uuid import UUID
import datetime






T = TypeVar("T", bound="TemplateVersionEffectiveData")



@_attrs_define
class TemplateVersionEffectiveData:
    """ 
        Attributes:
            clickwrap_template_id (UUID):
            clickwrap_template_version (int):
            clickwrap_template_version_minor (int):
            effective_at (datetime.datetime): RFC 3339, UTC with `Z`, millisecond precision.
            require_reacceptance (bool):
            accept_by (datetime.datetime | None): The re-acceptance deadline, if the version sets one.
     """

    clickwrap_template_id: UUID
    clickwrap_template_version: int
    clickwrap_template_version_minor: int
    effective_at: datetime.datetime
    require_reacceptance: bool
    accept_by: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        clickwrap_template_id = str(self.clickwrap_template_id)

        clickwrap_template_version = self.clickwrap_template_version

        clickwrap_template_version_minor = self.clickwrap_template_version_minor

        effective_at = self.effective_at.isoformat()

        require_reacceptance = self.require_reacceptance

        accept_by: None | str
        if isinstance(self.accept_by, datetime.datetime):
            accept_by = self.accept_by.isoformat()
        else:
            accept_by = self.accept_by


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "clickwrapTemplateId": clickwrap_template_id,
            "clickwrapTemplateVersion": clickwrap_template_version,
            "clickwrapTemplateVersionMinor": clickwrap_template_version_minor,
            "effectiveAt": effective_at,
            "requireReacceptance": require_reacceptance,
            "acceptBy": accept_by,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        clickwrap_template_id = UUID(d.pop("clickwrapTemplateId"))




        clickwrap_template_version = d.pop("clickwrapTemplateVersion")

        clickwrap_template_version_minor = d.pop("clickwrapTemplateVersionMinor")

        effective_at = datetime.datetime.fromisoformat(d.pop("effectiveAt"))




        require_reacceptance = d.pop("requireReacceptance")

        def _parse_accept_by(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                accept_by_type_0 = datetime.datetime.fromisoformat(data)



                return accept_by_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        accept_by = _parse_accept_by(d.pop("acceptBy"))


        template_version_effective_data = cls(
            clickwrap_template_id=clickwrap_template_id,
            clickwrap_template_version=clickwrap_template_version,
            clickwrap_template_version_minor=clickwrap_template_version_minor,
            effective_at=effective_at,
            require_reacceptance=require_reacceptance,
            accept_by=accept_by,
        )


        template_version_effective_data.additional_properties = d
        return template_version_effective_data

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
