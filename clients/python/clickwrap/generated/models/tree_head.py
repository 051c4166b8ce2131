from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast
import datetime






T = TypeVar("T", bound="TreeHead")



@_attrs_define
class TreeHead:
    """ A signed tree head of a tenant's evidence ledger: `signature` is ECDSA P-256 (DER, hex) over the canonical JSON (RFC
    8785) of `{"treeSize", "rootHash", "timestamp"}`, made with the key served at `GET /public-client/v1/ledger-key` and
    named by `keyId`.

        Attributes:
            tree_size (int): How many leaves the tree has.
            root_hash (str): The Merkle tree hash (RFC 9162) of the first `treeSize` leaves, hex.
            timestamp (datetime.datetime):
            signature (str): ECDSA P-256 signature, DER, hex.
            key_id (str):
     """

    tree_size: int
    root_hash: str
    timestamp: datetime.datetime
    signature: str
    key_id: str





    def to_dict(self) -> dict[str, Any]:
        tree_size = self.tree_size

        root_hash = self.root_hash

        timestamp = self.timestamp.isoformat()

        signature = self.signature

        key_id = self.key_id


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "treeSize": tree_size,
            "rootHash": root_hash,
            "timestamp": timestamp,
            "signature": signature,
            "keyId": key_id,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        tree_size = d.pop("treeSize")

        root_hash = d.pop("rootHash")

        timestamp = datetime.datetime.fromisoformat(d.pop("timestamp"))




        signature = d.pop("signature")

        key_id = d.pop("keyId")

        tree_head = cls(
            tree_size=tree_size,
            root_hash=root_hash,
            timestamp=timestamp,
            signature=signature,
            key_id=key_id,
        )

        return tree_head

