from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="DialogTexts")



@_attrs_define
class DialogTexts:
    """ 
        Attributes:
            title (str):
            accept_button (str):
            decline_button (str):
            checkbox_label (str):
            version_label (str):
     """

    title: str
    accept_button: str
    decline_button: str
    checkbox_label: str
    version_label: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        title = self.title

        accept_button = self.accept_button

        decline_button = self.decline_button

        checkbox_label = self.checkbox_label

        version_label = self.version_label


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "title": title,
            "acceptButton": accept_button,
            "declineButton": decline_button,
            "checkboxLabel": checkbox_label,
            "versionLabel": version_label,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        title = d.pop("title")

        accept_button = d.pop("acceptButton")

        decline_button = d.pop("declineButton")

        checkbox_label = d.pop("checkboxLabel")

        version_label = d.pop("versionLabel")

        dialog_texts = cls(
            title=title,
            accept_button=accept_button,
            decline_button=decline_button,
            checkbox_label=checkbox_label,
            version_label=version_label,
        )


        dialog_texts.additional_properties = d
        return dialog_texts

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
