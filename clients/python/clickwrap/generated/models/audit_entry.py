from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.audit_action import AuditAction
from ..models.audit_entry_subject_type import AuditEntrySubjectType
from typing import cast
from uuid import UUID
import datetime

if TYPE_CHECKING:
  from ..models.audit_entry_details import AuditEntryDetails





T = TypeVar("T", bound="AuditEntry")



@_attrs_define
class AuditEntry:
    """ 
        Attributes:
            id (UUID):
            at (datetime.datetime): RFC 3339, UTC with `Z`, millisecond precision.
            operator_token_id (None | UUID): The operator token that made the change; null when the server itself made it
                (the demo installation).
            action (AuditAction): What an operator did; `<subjectType>.<what>`. The names are stable.
            subject_type (AuditEntrySubjectType):
            subject_id (UUID): The id of the app, template, webhook delivery or operator token that was changed.
            details (AuditEntryDetails): What changed, to what; never a secret's value.
     """

    id: UUID
    at: datetime.datetime
    operator_token_id: None | UUID
    action: AuditAction
    subject_type: AuditEntrySubjectType
    subject_id: UUID
    details: AuditEntryDetails





    def to_dict(self) -> dict[str, Any]:
        from ..models.audit_entry_details import AuditEntryDetails # noqa: PLC0415
        id = str(self.id)

        at = self.at.isoformat()

        operator_token_id: None | str
        if isinstance(self.operator_token_id, UUID):
            operator_token_id = str(self.operator_token_id)
        else:
            operator_token_id = self.operator_token_id

        action = self.action.value

        subject_type = self.subject_type.value

        subject_id = str(self.subject_id)

        details = self.details.to_dict()


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "id": id,
            "at": at,
            "operatorTokenId": operator_token_id,
            "action": action,
            "subjectType": subject_type,
            "subjectId": subject_id,
            "details": details,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.audit_entry_details import AuditEntryDetails # noqa: PLC0415
        d = dict(src_dict)
        id = UUID(d.pop("id"))




        at = datetime.datetime.fromisoformat(d.pop("at"))




        def _parse_operator_token_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                operator_token_id_type_0 = UUID(data)



                return operator_token_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        operator_token_id = _parse_operator_token_id(d.pop("operatorTokenId"))


        action = AuditAction(d.pop("action"))




        subject_type = AuditEntrySubjectType(d.pop("subjectType"))




        subject_id = UUID(d.pop("subjectId"))




        details = AuditEntryDetails.from_dict(d.pop("details"))




        audit_entry = cls(
            id=id,
            at=at,
            operator_token_id=operator_token_id,
            action=action,
            subject_type=subject_type,
            subject_id=subject_id,
            details=details,
        )

        return audit_entry

