from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="DialogTextOverridesType0")



@_attrs_define
class DialogTextOverridesType0:
    """ A null text uses the built-in wording of the language.

        Attributes:
            title (None | str | Unset):
            accept_button (None | str | Unset):
            decline_button (None | str | Unset):
            checkbox_label (None | str | Unset):
            version_label (None | str | Unset):
     """

    title: None | str | Unset = UNSET
    accept_button: None | str | Unset = UNSET
    decline_button: None | str | Unset = UNSET
    checkbox_label: None | str | Unset = UNSET
    version_label: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        title: None | str | Unset
        if isinstance(self.title, Unset):
            title = UNSET
        else:
            title = self.title

        accept_button: None | str | Unset
        if isinstance(self.accept_button, Unset):
            accept_button = UNSET
        else:
            accept_button = self.accept_button

        decline_button: None | str | Unset
        if isinstance(self.decline_button, Unset):
            decline_button = UNSET
        else:
            decline_button = self.decline_button

        checkbox_label: None | str | Unset
        if isinstance(self.checkbox_label, Unset):
            checkbox_label = UNSET
        else:
            checkbox_label = self.checkbox_label

        version_label: None | str | Unset
        if isinstance(self.version_label, Unset):
            version_label = UNSET
        else:
            version_label = self.version_label


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if title is not UNSET:
            field_dict["title"] = title
        if accept_button is not UNSET:
            field_dict["acceptButton"] = accept_button
        if decline_button is not UNSET:
            field_dict["declineButton"] = decline_button
        if checkbox_label is not UNSET:
            field_dict["checkboxLabel"] = checkbox_label
        if version_label is not UNSET:
            field_dict["versionLabel"] = version_label

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_title(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        title = _parse_title(d.pop("title", UNSET))


        def _parse_accept_button(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        accept_button = _parse_accept_button(d.pop("acceptButton", UNSET))


        def _parse_decline_button(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        decline_button = _parse_decline_button(d.pop("declineButton", UNSET))


        def _parse_checkbox_label(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        checkbox_label = _parse_checkbox_label(d.pop("checkboxLabel", UNSET))


        def _parse_version_label(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        version_label = _parse_version_label(d.pop("versionLabel", UNSET))


        dialog_text_overrides_type_0 = cls(
            title=title,
            accept_button=accept_button,
            decline_button=decline_button,
            checkbox_label=checkbox_label,
            version_label=version_label,
        )

        return dialog_text_overrides_type_0

