from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.operator_role import OperatorRole
from typing import cast
from uuid import UUID
import datetime






T = TypeVar("T", bound="OperatorTokenCreated")



@_attrs_define
class OperatorTokenCreated:
    """ The new operator token with its secret, shown only here.

        Attributes:
            id (UUID):
            name (str):
            role (OperatorRole): ADMIN reads and changes; VIEWER only reads.
            created_at (datetime.datetime): RFC 3339, UTC with `Z`, millisecond precision.
            last_used_at (datetime.datetime | None): When the token last authenticated a request; null: never used.
            token (str): The token to send as `Authorization: Bearer <token>`; only its hash is stored.
     """

    id: UUID
    name: str
    role: OperatorRole
    created_at: datetime.datetime
    last_used_at: datetime.datetime | None
    token: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        name = self.name

        role = self.role.value

        created_at = self.created_at.isoformat()

        last_used_at: None | str
        if isinstance(self.last_used_at, datetime.datetime):
            last_used_at = self.last_used_at.isoformat()
        else:
            last_used_at = self.last_used_at

        token = self.token


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "name": name,
            "role": role,
            "createdAt": created_at,
            "lastUsedAt": last_used_at,
            "token": token,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = UUID(d.pop("id"))




        name = d.pop("name")

        role = OperatorRole(d.pop("role"))




        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))




        def _parse_last_used_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_used_at_type_0 = datetime.datetime.fromisoformat(data)



                return last_used_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_used_at = _parse_last_used_at(d.pop("lastUsedAt"))


        token = d.pop("token")

        operator_token_created = cls(
            id=id,
            name=name,
            role=role,
            created_at=created_at,
            last_used_at=last_used_at,
            token=token,
        )


        operator_token_created.additional_properties = d
        return operator_token_created

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
