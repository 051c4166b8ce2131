from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from uuid import UUID
import datetime






T = TypeVar("T", bound="ReacceptanceDeadlinePassedData")



@_attrs_define
class ReacceptanceDeadlinePassedData:
    """ The version whose re-acceptance deadline passed, and its campaign's counts then.

        Attributes:
            clickwrap_template_id (UUID):
            clickwrap_template_version (int):
            clickwrap_template_version_minor (int):
            accept_by (datetime.datetime): RFC 3339, UTC with `Z`, millisecond precision.
            required (int):
            accepted (int):
            declined (int):
            withdrawn (int):
            outstanding (int):
     """

    clickwrap_template_id: UUID
    clickwrap_template_version: int
    clickwrap_template_version_minor: int
    accept_by: datetime.datetime
    required: int
    accepted: int
    declined: int
    withdrawn: int
    outstanding: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        clickwrap_template_id = str(self.clickwrap_template_id)

        clickwrap_template_version = self.clickwrap_template_version

        clickwrap_template_version_minor = self.clickwrap_template_version_minor

        accept_by = self.accept_by.isoformat()

        required = self.required

        accepted = self.accepted

        declined = self.declined

        withdrawn = self.withdrawn

        outstanding = self.outstanding


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "clickwrapTemplateId": clickwrap_template_id,
            "clickwrapTemplateVersion": clickwrap_template_version,
            "clickwrapTemplateVersionMinor": clickwrap_template_version_minor,
            "acceptBy": accept_by,
            "required": required,
            "accepted": accepted,
            "declined": declined,
            "withdrawn": withdrawn,
            "outstanding": outstanding,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        clickwrap_template_id = UUID(d.pop("clickwrapTemplateId"))




        clickwrap_template_version = d.pop("clickwrapTemplateVersion")

        clickwrap_template_version_minor = d.pop("clickwrapTemplateVersionMinor")

        accept_by = datetime.datetime.fromisoformat(d.pop("acceptBy"))




        required = d.pop("required")

        accepted = d.pop("accepted")

        declined = d.pop("declined")

        withdrawn = d.pop("withdrawn")

        outstanding = d.pop("outstanding")

        reacceptance_deadline_passed_data = cls(
            clickwrap_template_id=clickwrap_template_id,
            clickwrap_template_version=clickwrap_template_version,
            clickwrap_template_version_minor=clickwrap_template_version_minor,
            accept_by=accept_by,
            required=required,
            accepted=accepted,
            declined=declined,
            withdrawn=withdrawn,
            outstanding=outstanding,
        )


        reacceptance_deadline_passed_data.additional_properties = d
        return reacceptance_deadline_passed_data

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
