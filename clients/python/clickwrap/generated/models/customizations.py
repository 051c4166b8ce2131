from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.agreement_mode import AgreementMode
from typing import cast

if TYPE_CHECKING:
  from ..models.buttons import Buttons
  from ..models.dialog_texts import DialogTexts
  from ..models.theme import Theme





T = TypeVar("T", bound="Customizations")



@_attrs_define
class Customizations:
    """ The dialog's look, with texts resolved for one language.

        Attributes:
            agreement_mode (AgreementMode):
            theme (Theme):
            buttons (Buttons):
            logo_url (None | str):
            texts (DialogTexts):
     """

    agreement_mode: AgreementMode
    theme: Theme
    buttons: Buttons
    logo_url: None | str
    texts: DialogTexts
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.buttons import Buttons # noqa: PLC0415
        from ..models.dialog_texts import DialogTexts # noqa: PLC0415
        from ..models.theme import Theme # noqa: PLC0415
        agreement_mode = self.agreement_mode.value

        theme = self.theme.to_dict()

        buttons = self.buttons.to_dict()

        logo_url: None | str
        logo_url = self.logo_url

        texts = self.texts.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "agreementMode": agreement_mode,
            "theme": theme,
            "buttons": buttons,
            "logoUrl": logo_url,
            "texts": texts,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.buttons import Buttons # noqa: PLC0415
        from ..models.dialog_texts import DialogTexts # noqa: PLC0415
        from ..models.theme import Theme # noqa: PLC0415
        d = dict(src_dict)
        agreement_mode = AgreementMode(d.pop("agreementMode"))




        theme = Theme.from_dict(d.pop("theme"))




        buttons = Buttons.from_dict(d.pop("buttons"))




        def _parse_logo_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        logo_url = _parse_logo_url(d.pop("logoUrl"))


        texts = DialogTexts.from_dict(d.pop("texts"))




        customizations = cls(
            agreement_mode=agreement_mode,
            theme=theme,
            buttons=buttons,
            logo_url=logo_url,
            texts=texts,
        )


        customizations.additional_properties = d
        return customizations

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
