from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.agreement_mode import AgreementMode
from ..types import UNSET, Unset






T = TypeVar("T", bound="ConsoleSaveCustomizationsBody")



@_attrs_define
class ConsoleSaveCustomizationsBody:
    """ 
        Attributes:
            csrf_token (str): The session's CSRF token, as every console form carries it in a hidden field (and every page
                in its `csrf-token` meta tag). Required unless the header `X-CSRF-Token` carries it.
            agreement_mode (AgreementMode | Unset):
            primary_color (str | Unset): `#rgb` or `#rrggbb`; blank is the default.
            background_color (str | Unset): `#rgb` or `#rrggbb`; blank is the default.
            text_color (str | Unset): `#rgb` or `#rrggbb`; blank is the default.
            border_radius (str | Unset): Whole pixels, 0 to 48; blank is the default.
            accept_style (str | Unset): `FILLED`, `OUTLINED` or `TEXT`; blank is `FILLED`.
            decline_style (str | Unset): `FILLED`, `OUTLINED` or `TEXT`; blank is `FILLED`.
            show_decline (str | Unset): Whether the dialog has a decline button. A ticked checkbox: present (any value) is
                on, absent is off.
            logo_url (str | Unset): Optional, https.
     """

    csrf_token: str
    agreement_mode: AgreementMode | Unset = UNSET
    primary_color: str | Unset = UNSET
    background_color: str | Unset = UNSET
    text_color: str | Unset = UNSET
    border_radius: str | Unset = UNSET
    accept_style: str | Unset = UNSET
    decline_style: str | Unset = UNSET
    show_decline: str | Unset = UNSET
    logo_url: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        csrf_token = self.csrf_token

        agreement_mode: str | Unset = UNSET
        if not isinstance(self.agreement_mode, Unset):
            agreement_mode = self.agreement_mode.value


        primary_color = self.primary_color

        background_color = self.background_color

        text_color = self.text_color

        border_radius = self.border_radius

        accept_style = self.accept_style

        decline_style = self.decline_style

        show_decline = self.show_decline

        logo_url = self.logo_url


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "csrf_token": csrf_token,
        })
        if agreement_mode is not UNSET:
            field_dict["agreement_mode"] = agreement_mode
        if primary_color is not UNSET:
            field_dict["primary_color"] = primary_color
        if background_color is not UNSET:
            field_dict["background_color"] = background_color
        if text_color is not UNSET:
            field_dict["text_color"] = text_color
        if border_radius is not UNSET:
            field_dict["border_radius"] = border_radius
        if accept_style is not UNSET:
            field_dict["accept_style"] = accept_style
        if decline_style is not UNSET:
            field_dict["decline_style"] = decline_style
        if show_decline is not UNSET:
            field_dict["show_decline"] = show_decline
        if logo_url is not UNSET:
            field_dict["logo_url"] = logo_url

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        csrf_token = d.pop("csrf_token")

        _agreement_mode = d.pop("agreement_mode", UNSET)
        agreement_mode: AgreementMode | Unset
        if isinstance(_agreement_mode,  Unset):
            agreement_mode = UNSET
        else:
            agreement_mode = AgreementMode(_agreement_mode)




        primary_color = d.pop("primary_color", UNSET)

        background_color = d.pop("background_color", UNSET)

        text_color = d.pop("text_color", UNSET)

        border_radius = d.pop("border_radius", UNSET)

        accept_style = d.pop("accept_style", UNSET)

        decline_style = d.pop("decline_style", UNSET)

        show_decline = d.pop("show_decline", UNSET)

        logo_url = d.pop("logo_url", UNSET)

        console_save_customizations_body = cls(
            csrf_token=csrf_token,
            agreement_mode=agreement_mode,
            primary_color=primary_color,
            background_color=background_color,
            text_color=text_color,
            border_radius=border_radius,
            accept_style=accept_style,
            decline_style=decline_style,
            show_decline=show_decline,
            logo_url=logo_url,
        )


        console_save_customizations_body.additional_properties = d
        return console_save_customizations_body

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
