from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast
from uuid import UUID






T = TypeVar("T", bound="ConsoleTemplateAppsBody")



@_attrs_define
class ConsoleTemplateAppsBody:
    """ 
        Attributes:
            csrf_token (str): The session's CSRF token, as every console form carries it in a hidden field (and every page
                in its `csrf-token` meta tag). Required unless the header `X-CSRF-Token` carries it.
            app_ids (list[UUID] | Unset): Repeated, one per linked app; none: available to every app of the tenant.
     """

    csrf_token: str
    app_ids: list[UUID] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        csrf_token = self.csrf_token

        app_ids: list[str] | Unset = UNSET
        if not isinstance(self.app_ids, Unset):
            app_ids = []
            for app_ids_item_data in self.app_ids:
                app_ids_item = str(app_ids_item_data)
                app_ids.append(app_ids_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "csrf_token": csrf_token,
        })
        if app_ids is not UNSET:
            field_dict["app_ids"] = app_ids

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        csrf_token = d.pop("csrf_token")

        _app_ids = d.pop("app_ids", UNSET)
        app_ids: list[UUID] | Unset = UNSET
        if _app_ids is not UNSET:
            app_ids = []
            for app_ids_item_data in _app_ids:
                app_ids_item = UUID(app_ids_item_data)



                app_ids.append(app_ids_item)


        console_template_apps_body = cls(
            csrf_token=csrf_token,
            app_ids=app_ids,
        )


        console_template_apps_body.additional_properties = d
        return console_template_apps_body

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
