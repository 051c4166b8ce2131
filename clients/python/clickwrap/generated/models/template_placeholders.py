from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.template_placeholders_custom_placeholders_type_0 import TemplatePlaceholdersCustomPlaceholdersType0





T = TypeVar("T", bound="TemplatePlaceholders")



@_attrs_define
class TemplatePlaceholders:
    """ Placeholder values, URL-encoded; they are URL-decoded once and HTML-escaped when rendered, and missing ones render
    empty. `{{custom.KEY}}` is filled from `customPlaceholders.KEY`. A null field is an absent value.

        Attributes:
            full_name (None | str | Unset):
            email (None | str | Unset):
            company (None | str | Unset):
            job_title (None | str | Unset):
            date (None | str | Unset):
            phone_number (None | str | Unset):
            registration_number (None | str | Unset):
            vat_number (None | str | Unset):
            address (None | str | Unset):
            custom_placeholders (None | TemplatePlaceholdersCustomPlaceholdersType0 | Unset):
            custom1 (None | str | Unset): Older SDKs' flat field; fills `{{custom.customN}}`.
            custom2 (None | str | Unset): Older SDKs' flat field; fills `{{custom.customN}}`.
            custom3 (None | str | Unset): Older SDKs' flat field; fills `{{custom.customN}}`.
            custom4 (None | str | Unset): Older SDKs' flat field; fills `{{custom.customN}}`.
            custom5 (None | str | Unset): Older SDKs' flat field; fills `{{custom.customN}}`.
            custom6 (None | str | Unset): Older SDKs' flat field; fills `{{custom.customN}}`.
            custom7 (None | str | Unset): Older SDKs' flat field; fills `{{custom.customN}}`.
            custom8 (None | str | Unset): Older SDKs' flat field; fills `{{custom.customN}}`.
            custom9 (None | str | Unset): Older SDKs' flat field; fills `{{custom.customN}}`.
            custom10 (None | str | Unset): Older SDKs' flat field; fills `{{custom.customN}}`.
     """

    full_name: None | str | Unset = UNSET
    email: None | str | Unset = UNSET
    company: None | str | Unset = UNSET
    job_title: None | str | Unset = UNSET
    date: None | str | Unset = UNSET
    phone_number: None | str | Unset = UNSET
    registration_number: None | str | Unset = UNSET
    vat_number: None | str | Unset = UNSET
    address: None | str | Unset = UNSET
    custom_placeholders: None | TemplatePlaceholdersCustomPlaceholdersType0 | Unset = UNSET
    custom1: None | str | Unset = UNSET
    custom2: None | str | Unset = UNSET
    custom3: None | str | Unset = UNSET
    custom4: None | str | Unset = UNSET
    custom5: None | str | Unset = UNSET
    custom6: None | str | Unset = UNSET
    custom7: None | str | Unset = UNSET
    custom8: None | str | Unset = UNSET
    custom9: None | str | Unset = UNSET
    custom10: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.template_placeholders_custom_placeholders_type_0 import TemplatePlaceholdersCustomPlaceholdersType0 # noqa: PLC0415
        full_name: None | str | Unset
        if isinstance(self.full_name, Unset):
            full_name = UNSET
        else:
            full_name = self.full_name

        email: None | str | Unset
        if isinstance(self.email, Unset):
            email = UNSET
        else:
            email = self.email

        company: None | str | Unset
        if isinstance(self.company, Unset):
            company = UNSET
        else:
            company = self.company

        job_title: None | str | Unset
        if isinstance(self.job_title, Unset):
            job_title = UNSET
        else:
            job_title = self.job_title

        date: None | str | Unset
        if isinstance(self.date, Unset):
            date = UNSET
        else:
            date = self.date

        phone_number: None | str | Unset
        if isinstance(self.phone_number, Unset):
            phone_number = UNSET
        else:
            phone_number = self.phone_number

        registration_number: None | str | Unset
        if isinstance(self.registration_number, Unset):
            registration_number = UNSET
        else:
            registration_number = self.registration_number

        vat_number: None | str | Unset
        if isinstance(self.vat_number, Unset):
            vat_number = UNSET
        else:
            vat_number = self.vat_number

        address: None | str | Unset
        if isinstance(self.address, Unset):
            address = UNSET
        else:
            address = self.address

        custom_placeholders: dict[str, Any] | None | Unset
        if isinstance(self.custom_placeholders, Unset):
            custom_placeholders = UNSET
        elif isinstance(self.custom_placeholders, TemplatePlaceholdersCustomPlaceholdersType0):
            custom_placeholders = self.custom_placeholders.to_dict()
        else:
            custom_placeholders = self.custom_placeholders

        custom1: None | str | Unset
        if isinstance(self.custom1, Unset):
            custom1 = UNSET
        else:
            custom1 = self.custom1

        custom2: None | str | Unset
        if isinstance(self.custom2, Unset):
            custom2 = UNSET
        else:
            custom2 = self.custom2

        custom3: None | str | Unset
        if isinstance(self.custom3, Unset):
            custom3 = UNSET
        else:
            custom3 = self.custom3

        custom4: None | str | Unset
        if isinstance(self.custom4, Unset):
            custom4 = UNSET
        else:
            custom4 = self.custom4

        custom5: None | str | Unset
        if isinstance(self.custom5, Unset):
            custom5 = UNSET
        else:
            custom5 = self.custom5

        custom6: None | str | Unset
        if isinstance(self.custom6, Unset):
            custom6 = UNSET
        else:
            custom6 = self.custom6

        custom7: None | str | Unset
        if isinstance(self.custom7, Unset):
            custom7 = UNSET
        else:
            custom7 = self.custom7

        custom8: None | str | Unset
        if isinstance(self.custom8, Unset):
            custom8 = UNSET
        else:
            custom8 = self.custom8

        custom9: None | str | Unset
        if isinstance(self.custom9, Unset):
            custom9 = UNSET
        else:
            custom9 = self.custom9

        custom10: None | str | Unset
        if isinstance(self.custom10, Unset):
            custom10 = UNSET
        else:
            custom10 = self.custom10


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if full_name is not UNSET:
            field_dict["fullName"] = full_name
        if email is not UNSET:
            field_dict["email"] = email
        if company is not UNSET:
            field_dict["company"] = company
        if job_title is not UNSET:
            field_dict["jobTitle"] = job_title
        if date is not UNSET:
            field_dict["date"] = date
        if phone_number is not UNSET:
            field_dict["phoneNumber"] = phone_number
        if registration_number is not UNSET:
            field_dict["registrationNumber"] = registration_number
        if vat_number is not UNSET:
            field_dict["vatNumber"] = vat_number
        if address is not UNSET:
            field_dict["address"] = address
        if custom_placeholders is not UNSET:
            field_dict["customPlaceholders"] = custom_placeholders
        if custom1 is not UNSET:
            field_dict["custom1"] = custom1
        if custom2 is not UNSET:
            field_dict["custom2"] = custom2
        if custom3 is not UNSET:
            field_dict["custom3"] = custom3
        if custom4 is not UNSET:
            field_dict["custom4"] = custom4
        if custom5 is not UNSET:
            field_dict["custom5"] = custom5
        if custom6 is not UNSET:
            field_dict["custom6"] = custom6
        if custom7 is not UNSET:
            field_dict["custom7"] = custom7
        if custom8 is not UNSET:
            field_dict["custom8"] = custom8
        if custom9 is not UNSET:
            field_dict["custom9"] = custom9
        if custom10 is not UNSET:
            field_dict["custom10"] = custom10

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.template_placeholders_custom_placeholders_type_0 import TemplatePlaceholdersCustomPlaceholdersType0 # noqa: PLC0415
        d = dict(src_dict)
        def _parse_full_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        full_name = _parse_full_name(d.pop("fullName", UNSET))


        def _parse_email(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        email = _parse_email(d.pop("email", UNSET))


        def _parse_company(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        company = _parse_company(d.pop("company", UNSET))


        def _parse_job_title(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        job_title = _parse_job_title(d.pop("jobTitle", UNSET))


        def _parse_date(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        date = _parse_date(d.pop("date", UNSET))


        def _parse_phone_number(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        phone_number = _parse_phone_number(d.pop("phoneNumber", UNSET))


        def _parse_registration_number(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        registration_number = _parse_registration_number(d.pop("registrationNumber", UNSET))


        def _parse_vat_number(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        vat_number = _parse_vat_number(d.pop("vatNumber", UNSET))


        def _parse_address(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        address = _parse_address(d.pop("address", UNSET))


        def _parse_custom_placeholders(data: object) -> None | TemplatePlaceholdersCustomPlaceholdersType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                custom_placeholders_type_0 = TemplatePlaceholdersCustomPlaceholdersType0.from_dict(data)



                return custom_placeholders_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TemplatePlaceholdersCustomPlaceholdersType0 | Unset, data)

        custom_placeholders = _parse_custom_placeholders(d.pop("customPlaceholders", UNSET))


        def _parse_custom1(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        custom1 = _parse_custom1(d.pop("custom1", UNSET))


        def _parse_custom2(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        custom2 = _parse_custom2(d.pop("custom2", UNSET))


        def _parse_custom3(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        custom3 = _parse_custom3(d.pop("custom3", UNSET))


        def _parse_custom4(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        custom4 = _parse_custom4(d.pop("custom4", UNSET))


        def _parse_custom5(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        custom5 = _parse_custom5(d.pop("custom5", UNSET))


        def _parse_custom6(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        custom6 = _parse_custom6(d.pop("custom6", UNSET))


        def _parse_custom7(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        custom7 = _parse_custom7(d.pop("custom7", UNSET))


        def _parse_custom8(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        custom8 = _parse_custom8(d.pop("custom8", UNSET))


        def _parse_custom9(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        custom9 = _parse_custom9(d.pop("custom9", UNSET))


        def _parse_custom10(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        custom10 = _parse_custom10(d.pop("custom10", UNSET))


        template_placeholders = cls(
            full_name=full_name,
            email=email,
            company=company,
            job_title=job_title,
            date=date,
            phone_number=phone_number,
            registration_number=registration_number,
            vat_number=vat_number,
            address=address,
            custom_placeholders=custom_placeholders,
            custom1=custom1,
            custom2=custom2,
            custom3=custom3,
            custom4=custom4,
            custom5=custom5,
            custom6=custom6,
            custom7=custom7,
            custom8=custom8,
            custom9=custom9,
            custom10=custom10,
        )

        return template_placeholders

