from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="ConsistencyProof")



@_attrs_define
class ConsistencyProof:
    """ RFC 9162 consistency proof (§2.1.4) that the tree of `to` leaves extends the tree of `from` leaves.

        Attributes:
            from_ (int):
            to (int):
            from_root_hash (str): The root of the first `from` leaves, hex.
            to_root_hash (str): The root of the first `to` leaves, hex.
            consistency_path (list[str]):
     """

    from_: int
    to: int
    from_root_hash: str
    to_root_hash: str
    consistency_path: list[str]





    def to_dict(self) -> dict[str, Any]:
        from_ = self.from_

        to = self.to

        from_root_hash = self.from_root_hash

        to_root_hash = self.to_root_hash

        consistency_path = self.consistency_path




        field_dict: dict[str, Any] = {}

        field_dict.update({
            "from": from_,
            "to": to,
            "fromRootHash": from_root_hash,
            "toRootHash": to_root_hash,
            "consistencyPath": consistency_path,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        from_ = d.pop("from")

        to = d.pop("to")

        from_root_hash = d.pop("fromRootHash")

        to_root_hash = d.pop("toRootHash")

        consistency_path = cast(list[str], d.pop("consistencyPath"))


        consistency_proof = cls(
            from_=from_,
            to=to,
            from_root_hash=from_root_hash,
            to_root_hash=to_root_hash,
            consistency_path=consistency_path,
        )

        return consistency_proof

