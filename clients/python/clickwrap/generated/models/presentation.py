from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.agreement_mode import AgreementMode
from ..models.presentation_mode import PresentationMode
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="Presentation")



@_attrs_define
class Presentation:
    """ How the clickwrap was presented.

        Attributes:
            mode (PresentationMode): `DIALOG`: the SDK's modal dialog. `INLINE`: a checkbox in the app's own form.
            agreement_mode (AgreementMode):
            accept_label (str):
            checkbox_label (None | str | Unset):
            scroll_required (bool | None | Unset): Reported by the client: whether the content was taller than its box, so
                that in SCROLL mode accepting waited until its end was reached (false: the content fitted). Null or absent: not
                reported. Recorded as a client-reported fact and printed on the certificate as such.
     """

    mode: PresentationMode
    agreement_mode: AgreementMode
    accept_label: str
    checkbox_label: None | str | Unset = UNSET
    scroll_required: bool | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        mode = self.mode.value

        agreement_mode = self.agreement_mode.value

        accept_label = self.accept_label

        checkbox_label: None | str | Unset
        if isinstance(self.checkbox_label, Unset):
            checkbox_label = UNSET
        else:
            checkbox_label = self.checkbox_label

        scroll_required: bool | None | Unset
        if isinstance(self.scroll_required, Unset):
            scroll_required = UNSET
        else:
            scroll_required = self.scroll_required


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "mode": mode,
            "agreementMode": agreement_mode,
            "acceptLabel": accept_label,
        })
        if checkbox_label is not UNSET:
            field_dict["checkboxLabel"] = checkbox_label
        if scroll_required is not UNSET:
            field_dict["scrollRequired"] = scroll_required

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        mode = PresentationMode(d.pop("mode"))




        agreement_mode = AgreementMode(d.pop("agreementMode"))




        accept_label = d.pop("acceptLabel")

        def _parse_checkbox_label(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        checkbox_label = _parse_checkbox_label(d.pop("checkboxLabel", UNSET))


        def _parse_scroll_required(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        scroll_required = _parse_scroll_required(d.pop("scrollRequired", UNSET))


        presentation = cls(
            mode=mode,
            agreement_mode=agreement_mode,
            accept_label=accept_label,
            checkbox_label=checkbox_label,
            scroll_required=scroll_required,
        )


        presentation.additional_properties = d
        return presentation

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
