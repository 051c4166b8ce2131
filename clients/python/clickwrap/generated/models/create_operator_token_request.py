from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.operator_role import OperatorRole






T = TypeVar("T", bound="CreateOperatorTokenRequest")



@_attrs_define
class CreateOperatorTokenRequest:
    """ 
        Attributes:
            name (str): 1 to 200 characters, no control characters, not only white space (leading and trailing white space
                is trimmed).
            role (OperatorRole): ADMIN reads and changes; VIEWER only reads.
     """

    name: str
    role: OperatorRole





    def to_dict(self) -> dict[str, Any]:
        name = self.name

        role = self.role.value


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "name": name,
            "role": role,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        role = OperatorRole(d.pop("role"))




        create_operator_token_request = cls(
            name=name,
            role=role,
        )

        return create_operator_token_request

