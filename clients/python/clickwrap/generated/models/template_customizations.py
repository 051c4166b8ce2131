from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.agreement_mode import AgreementMode
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.template_customizations_buttons_type_0 import TemplateCustomizationsButtonsType0
  from ..models.template_customizations_texts_type_0 import TemplateCustomizationsTextsType0
  from ..models.template_customizations_theme_type_0 import TemplateCustomizationsThemeType0





T = TypeVar("T", bound="TemplateCustomizations")



@_attrs_define
class TemplateCustomizations:
    """ The dialog's look as stored, texts per language. In a request, what is left out or null takes its default.

        Attributes:
            agreement_mode (AgreementMode | None | Unset):
            theme (None | TemplateCustomizationsThemeType0 | Unset):
            buttons (None | TemplateCustomizationsButtonsType0 | Unset):
            logo_url (None | str | Unset): An https URL.
            texts (None | TemplateCustomizationsTextsType0 | Unset):
     """

    agreement_mode: AgreementMode | None | Unset = UNSET
    theme: None | TemplateCustomizationsThemeType0 | Unset = UNSET
    buttons: None | TemplateCustomizationsButtonsType0 | Unset = UNSET
    logo_url: None | str | Unset = UNSET
    texts: None | TemplateCustomizationsTextsType0 | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.template_customizations_buttons_type_0 import TemplateCustomizationsButtonsType0 # noqa: PLC0415
        from ..models.template_customizations_texts_type_0 import TemplateCustomizationsTextsType0 # noqa: PLC0415
        from ..models.template_customizations_theme_type_0 import TemplateCustomizationsThemeType0 # noqa: PLC0415
        agreement_mode: None | str | Unset
        if isinstance(self.agreement_mode, Unset):
            agreement_mode = UNSET
        elif isinstance(self.agreement_mode, AgreementMode):
            agreement_mode = self.agreement_mode.value
        else:
            agreement_mode = self.agreement_mode

        theme: dict[str, Any] | None | Unset
        if isinstance(self.theme, Unset):
            theme = UNSET
        elif isinstance(self.theme, TemplateCustomizationsThemeType0):
            theme = self.theme.to_dict()
        else:
            theme = self.theme

        buttons: dict[str, Any] | None | Unset
        if isinstance(self.buttons, Unset):
            buttons = UNSET
        elif isinstance(self.buttons, TemplateCustomizationsButtonsType0):
            buttons = self.buttons.to_dict()
        else:
            buttons = self.buttons

        logo_url: None | str | Unset
        if isinstance(self.logo_url, Unset):
            logo_url = UNSET
        else:
            logo_url = self.logo_url

        texts: dict[str, Any] | None | Unset
        if isinstance(self.texts, Unset):
            texts = UNSET
        elif isinstance(self.texts, TemplateCustomizationsTextsType0):
            texts = self.texts.to_dict()
        else:
            texts = self.texts


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if agreement_mode is not UNSET:
            field_dict["agreementMode"] = agreement_mode
        if theme is not UNSET:
            field_dict["theme"] = theme
        if buttons is not UNSET:
            field_dict["buttons"] = buttons
        if logo_url is not UNSET:
            field_dict["logoUrl"] = logo_url
        if texts is not UNSET:
            field_dict["texts"] = texts

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.template_customizations_buttons_type_0 import TemplateCustomizationsButtonsType0 # noqa: PLC0415
        from ..models.template_customizations_texts_type_0 import TemplateCustomizationsTextsType0 # noqa: PLC0415
        from ..models.template_customizations_theme_type_0 import TemplateCustomizationsThemeType0 # noqa: PLC0415
        d = dict(src_dict)
        def _parse_agreement_mode(data: object) -> AgreementMode | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                agreement_mode_type_0 = AgreementMode(data)



                return agreement_mode_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AgreementMode | None | Unset, data)

        agreement_mode = _parse_agreement_mode(d.pop("agreementMode", UNSET))


        def _parse_theme(data: object) -> None | TemplateCustomizationsThemeType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                theme_type_0 = TemplateCustomizationsThemeType0.from_dict(data)



                return theme_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TemplateCustomizationsThemeType0 | Unset, data)

        theme = _parse_theme(d.pop("theme", UNSET))


        def _parse_buttons(data: object) -> None | TemplateCustomizationsButtonsType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                buttons_type_0 = TemplateCustomizationsButtonsType0.from_dict(data)



                return buttons_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TemplateCustomizationsButtonsType0 | Unset, data)

        buttons = _parse_buttons(d.pop("buttons", UNSET))


        def _parse_logo_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        logo_url = _parse_logo_url(d.pop("logoUrl", UNSET))


        def _parse_texts(data: object) -> None | TemplateCustomizationsTextsType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                texts_type_0 = TemplateCustomizationsTextsType0.from_dict(data)



                return texts_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TemplateCustomizationsTextsType0 | Unset, data)

        texts = _parse_texts(d.pop("texts", UNSET))


        template_customizations = cls(
            agreement_mode=agreement_mode,
            theme=theme,
            buttons=buttons,
            logo_url=logo_url,
            texts=texts,
        )

        return template_customizations

