from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.button_style import ButtonStyle






T = TypeVar("T", bound="Buttons")



@_attrs_define
class Buttons:
    """ 
        Attributes:
            accept_style (ButtonStyle):
            decline_style (ButtonStyle):
            show_decline (bool):
     """

    accept_style: ButtonStyle
    decline_style: ButtonStyle
    show_decline: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        accept_style = self.accept_style.value

        decline_style = self.decline_style.value

        show_decline = self.show_decline


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "acceptStyle": accept_style,
            "declineStyle": decline_style,
            "showDecline": show_decline,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        accept_style = ButtonStyle(d.pop("acceptStyle"))




        decline_style = ButtonStyle(d.pop("declineStyle"))




        show_decline = d.pop("showDecline")

        buttons = cls(
            accept_style=accept_style,
            decline_style=decline_style,
            show_decline=show_decline,
        )


        buttons.additional_properties = d
        return buttons

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
