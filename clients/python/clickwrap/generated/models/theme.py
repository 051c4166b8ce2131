from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="Theme")



@_attrs_define
class Theme:
    """ 
        Attributes:
            primary_color (None | str):
            background_color (None | str):
            text_color (None | str):
            border_radius (int | None): Pixels.
     """

    primary_color: None | str
    background_color: None | str
    text_color: None | str
    border_radius: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        primary_color: None | str
        primary_color = self.primary_color

        background_color: None | str
        background_color = self.background_color

        text_color: None | str
        text_color = self.text_color

        border_radius: int | None
        border_radius = self.border_radius


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "primaryColor": primary_color,
            "backgroundColor": background_color,
            "textColor": text_color,
            "borderRadius": border_radius,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_primary_color(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        primary_color = _parse_primary_color(d.pop("primaryColor"))


        def _parse_background_color(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        background_color = _parse_background_color(d.pop("backgroundColor"))


        def _parse_text_color(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        text_color = _parse_text_color(d.pop("textColor"))


        def _parse_border_radius(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        border_radius = _parse_border_radius(d.pop("borderRadius"))


        theme = cls(
            primary_color=primary_color,
            background_color=background_color,
            text_color=text_color,
            border_radius=border_radius,
        )


        theme.additional_properties = d
        return theme

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
