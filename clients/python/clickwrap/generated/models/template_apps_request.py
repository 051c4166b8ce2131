from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
from uuid import UUID






T = TypeVar("T", bound="TemplateAppsRequest")



@_attrs_define
class TemplateAppsRequest:
    """ 
        Attributes:
            app_ids (list[UUID]):
     """

    app_ids: list[UUID]





    def to_dict(self) -> dict[str, Any]:
        app_ids = []
        for app_ids_item_data in self.app_ids:
            app_ids_item = str(app_ids_item_data)
            app_ids.append(app_ids_item)




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "appIds": app_ids,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        app_ids = []
        _app_ids = d.pop("appIds")
        for app_ids_item_data in (_app_ids):
            app_ids_item = UUID(app_ids_item_data)



            app_ids.append(app_ids_item)


        template_apps_request = cls(
            app_ids=app_ids,
        )

        return template_apps_request

