from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.button_style import ButtonStyle
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="TemplateCustomizationsButtonsType0")



@_attrs_define
class TemplateCustomizationsButtonsType0:
    """ 
        Attributes:
            accept_style (ButtonStyle | None | Unset):
            decline_style (ButtonStyle | None | Unset):
            show_decline (bool | None | Unset):
     """

    accept_style: ButtonStyle | None | Unset = UNSET
    decline_style: ButtonStyle | None | Unset = UNSET
    show_decline: bool | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        accept_style: None | str | Unset
        if isinstance(self.accept_style, Unset):
            accept_style = UNSET
        elif isinstance(self.accept_style, ButtonStyle):
            accept_style = self.accept_style.value
        else:
            accept_style = self.accept_style

        decline_style: None | str | Unset
        if isinstance(self.decline_style, Unset):
            decline_style = UNSET
        elif isinstance(self.decline_style, ButtonStyle):
            decline_style = self.decline_style.value
        else:
            decline_style = self.decline_style

        show_decline: bool | None | Unset
        if isinstance(self.show_decline, Unset):
            show_decline = UNSET
        else:
            show_decline = self.show_decline


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if accept_style is not UNSET:
            field_dict["acceptStyle"] = accept_style
        if decline_style is not UNSET:
            field_dict["declineStyle"] = decline_style
        if show_decline is not UNSET:
            field_dict["showDecline"] = show_decline

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_accept_style(data: object) -> ButtonStyle | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                accept_style_type_0 = ButtonStyle(data)



                return accept_style_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ButtonStyle | None | Unset, data)

        accept_style = _parse_accept_style(d.pop("acceptStyle", UNSET))


        def _parse_decline_style(data: object) -> ButtonStyle | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                decline_style_type_0 = ButtonStyle(data)



                return decline_style_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ButtonStyle | None | Unset, data)

        decline_style = _parse_decline_style(d.pop("declineStyle", UNSET))


        def _parse_show_decline(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        show_decline = _parse_show_decline(d.pop("showDecline", UNSET))


        template_customizations_buttons_type_0 = cls(
            accept_style=accept_style,
            decline_style=decline_style,
            show_decline=show_decline,
        )

        return template_customizations_buttons_type_0

