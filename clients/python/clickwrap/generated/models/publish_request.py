from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.version_kind import VersionKind
from ..types import UNSET, Unset
from typing import cast
import datetime






T = TypeVar("T", bound="PublishRequest")



@_attrs_define
class PublishRequest:
    """ 
        Attributes:
            kind (VersionKind): `MAJOR`: end users must accept again. `MINOR`: a correction that keeps standing acceptances.
            effective_at (datetime.datetime | None | Unset): Default now; a future time makes the version SCHEDULED.
     """

    kind: VersionKind
    effective_at: datetime.datetime | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        kind = self.kind.value

        effective_at: None | str | Unset
        if isinstance(self.effective_at, Unset):
            effective_at = UNSET
        elif isinstance(self.effective_at, datetime.datetime):
            effective_at = self.effective_at.isoformat()
        else:
            effective_at = self.effective_at


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "kind": kind,
        })
        if effective_at is not UNSET:
            field_dict["effectiveAt"] = effective_at

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        kind = VersionKind(d.pop("kind"))




        def _parse_effective_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                effective_at_type_0 = datetime.datetime.fromisoformat(data)



                return effective_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        effective_at = _parse_effective_at(d.pop("effectiveAt", UNSET))


        publish_request = cls(
            kind=kind,
            effective_at=effective_at,
        )

        return publish_request

