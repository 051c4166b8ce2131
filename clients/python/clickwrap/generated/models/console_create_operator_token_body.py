from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.operator_role import OperatorRole
from ..types import UNSET, Unset






T = TypeVar("T", bound="ConsoleCreateOperatorTokenBody")



@_attrs_define
class ConsoleCreateOperatorTokenBody:
    """ 
        Attributes:
            csrf_token (str): The session's CSRF token, as every console form carries it in a hidden field (and every page
                in its `csrf-token` meta tag). Required unless the header `X-CSRF-Token` carries it.
            name (str): 1 to 200 characters.
            role (OperatorRole | Unset): ADMIN reads and changes; VIEWER only reads.
     """

    csrf_token: str
    name: str
    role: OperatorRole | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        csrf_token = self.csrf_token

        name = self.name

        role: str | Unset = UNSET
        if not isinstance(self.role, Unset):
            role = self.role.value



        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "csrf_token": csrf_token,
            "name": name,
        })
        if role is not UNSET:
            field_dict["role"] = role

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        csrf_token = d.pop("csrf_token")

        name = d.pop("name")

        _role = d.pop("role", UNSET)
        role: OperatorRole | Unset
        if isinstance(_role,  Unset):
            role = UNSET
        else:
            role = OperatorRole(_role)




        console_create_operator_token_body = cls(
            csrf_token=csrf_token,
            name=name,
            role=role,
        )


        console_create_operator_token_body.additional_properties = d
        return console_create_operator_token_body

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
