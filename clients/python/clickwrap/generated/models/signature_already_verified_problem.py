from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.problem_code import ProblemCode
from ..types import UNSET, Unset
from typing import cast
from uuid import UUID

if TYPE_CHECKING:
  from ..models.field_error import FieldError





T = TypeVar("T", bound="SignatureAlreadyVerifiedProblem")



@_attrs_define
class SignatureAlreadyVerifiedProblem:
    """ 409 `SIGNATURE_ALREADY_VERIFIED`: the Signature was verified before. `clickwrapEventId` names the event it recorded,
    so a retried verification can go on with it.

        Attributes:
            type_ (str): `about:blank` or a URI.
            title (str):
            status (int):
            detail (str):
            code (ProblemCode): A stable identifier of the error, the same for every language and version of the service. A
                code is never reused for another meaning; a new one comes with a new version of this document.
            message (str): The same text as `detail`.
            clickwrap_event_id (UUID):
            errors (list[FieldError] | Unset): For field errors: each invalid field.
     """

    type_: str
    title: str
    status: int
    detail: str
    code: ProblemCode
    message: str
    clickwrap_event_id: UUID
    errors: list[FieldError] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.field_error import FieldError # noqa: PLC0415
        type_ = self.type_

        title = self.title

        status = self.status

        detail = self.detail

        code = self.code.value

        message = self.message

        clickwrap_event_id = str(self.clickwrap_event_id)

        errors: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.errors, Unset):
            errors = []
            for errors_item_data in self.errors:
                errors_item = errors_item_data.to_dict()
                errors.append(errors_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "type": type_,
            "title": title,
            "status": status,
            "detail": detail,
            "code": code,
            "message": message,
            "clickwrapEventId": clickwrap_event_id,
        })
        if errors is not UNSET:
            field_dict["errors"] = errors

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.field_error import FieldError # noqa: PLC0415
        d = dict(src_dict)
        type_ = d.pop("type")

        title = d.pop("title")

        status = d.pop("status")

        detail = d.pop("detail")

        code = ProblemCode(d.pop("code"))




        message = d.pop("message")

        clickwrap_event_id = UUID(d.pop("clickwrapEventId"))




        _errors = d.pop("errors", UNSET)
        errors: list[FieldError] | Unset = UNSET
        if _errors is not UNSET:
            errors = []
            for errors_item_data in _errors:
                errors_item = FieldError.from_dict(errors_item_data)



                errors.append(errors_item)


        signature_already_verified_problem = cls(
            type_=type_,
            title=title,
            status=status,
            detail=detail,
            code=code,
            message=message,
            clickwrap_event_id=clickwrap_event_id,
            errors=errors,
        )


        signature_already_verified_problem.additional_properties = d
        return signature_already_verified_problem

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
