from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="TemplateCustomizationsThemeType0")



@_attrs_define
class TemplateCustomizationsThemeType0:
    """ 
        Attributes:
            primary_color (None | str | Unset):
            background_color (None | str | Unset):
            text_color (None | str | Unset):
            border_radius (int | None | Unset):
     """

    primary_color: None | str | Unset = UNSET
    background_color: None | str | Unset = UNSET
    text_color: None | str | Unset = UNSET
    border_radius: int | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        primary_color: None | str | Unset
        if isinstance(self.primary_color, Unset):
            primary_color = UNSET
        else:
            primary_color = self.primary_color

        background_color: None | str | Unset
        if isinstance(self.background_color, Unset):
            background_color = UNSET
        else:
            background_color = self.background_color

        text_color: None | str | Unset
        if isinstance(self.text_color, Unset):
            text_color = UNSET
        else:
            text_color = self.text_color

        border_radius: int | None | Unset
        if isinstance(self.border_radius, Unset):
            border_radius = UNSET
        else:
            border_radius = self.border_radius


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if primary_color is not UNSET:
            field_dict["primaryColor"] = primary_color
        if background_color is not UNSET:
            field_dict["backgroundColor"] = background_color
        if text_color is not UNSET:
            field_dict["textColor"] = text_color
        if border_radius is not UNSET:
            field_dict["borderRadius"] = border_radius

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_primary_color(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        primary_color = _parse_primary_color(d.pop("primaryColor", UNSET))


        def _parse_background_color(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        background_color = _parse_background_color(d.pop("backgroundColor", UNSET))


        def _parse_text_color(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        text_color = _parse_text_color(d.pop("textColor", UNSET))


        def _parse_border_radius(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        border_radius = _parse_border_radius(d.pop("borderRadius", UNSET))


        template_customizations_theme_type_0 = cls(
            primary_color=primary_color,
            background_color=background_color,
            text_color=text_color,
            border_radius=border_radius,
        )

        return template_customizations_theme_type_0

