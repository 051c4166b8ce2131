from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.inclusion_proof_evidence_record_type_0 import InclusionProofEvidenceRecordType0
  from ..models.tree_head import TreeHead





T = TypeVar("T", bound="InclusionProof")



@_attrs_define
class InclusionProof:
    """ RFC 9162 inclusion proof of one event's leaf in its tenant's evidence ledger: hashing `leafHash` up `auditPath` (RFC
    9162 §2.1.3.2) gives `rootHash`, the root of `treeHead`.

        Attributes:
            leaf_index (int):
            leaf_hash (str): SHA-256(0x00 || the canonical JSON of the event's evidence record), hex.
            tree_size (int):
            root_hash (str): The root of the tree of `treeSize` leaves, hex.
            audit_path (list[str]): From the leaf's sibling up.
            tree_head (TreeHead): A signed tree head of a tenant's evidence ledger: `signature` is ECDSA P-256 (DER, hex)
                over the canonical JSON (RFC 8785) of `{"treeSize", "rootHash", "timestamp"}`, made with the key served at `GET
                /public-client/v1/ledger-key` and named by `keyId`.
            evidence_record (InclusionProofEvidenceRecordType0 | None): The event's evidence record, whose canonical JSON
                (RFC 8785) the leaf is the hash of: `SHA-256(0x00 || canonical JSON) = leafHash`. Personal values (end user ID,
                IP address, user agent, placeholder values, device metadata) appear only as salted commitments (`sha256:` +
                hex). `null` once the end user's values were erased. See docs/ledger.md.
     """

    leaf_index: int
    leaf_hash: str
    tree_size: int
    root_hash: str
    audit_path: list[str]
    tree_head: TreeHead
    evidence_record: InclusionProofEvidenceRecordType0 | None





    def to_dict(self) -> dict[str, Any]:
        from ..models.inclusion_proof_evidence_record_type_0 import InclusionProofEvidenceRecordType0 # noqa: PLC0415
        from ..models.tree_head import TreeHead # noqa: PLC0415
        leaf_index = self.leaf_index

        leaf_hash = self.leaf_hash

        tree_size = self.tree_size

        root_hash = self.root_hash

        audit_path = self.audit_path



        tree_head = self.tree_head.to_dict()

        evidence_record: dict[str, Any] | None
        if isinstance(self.evidence_record, InclusionProofEvidenceRecordType0):
            evidence_record = self.evidence_record.to_dict()
        else:
            evidence_record = self.evidence_record


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "leafIndex": leaf_index,
            "leafHash": leaf_hash,
            "treeSize": tree_size,
            "rootHash": root_hash,
            "auditPath": audit_path,
            "treeHead": tree_head,
            "evidenceRecord": evidence_record,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.inclusion_proof_evidence_record_type_0 import InclusionProofEvidenceRecordType0 # noqa: PLC0415
        from ..models.tree_head import TreeHead # noqa: PLC0415
        d = dict(src_dict)
        leaf_index = d.pop("leafIndex")

        leaf_hash = d.pop("leafHash")

        tree_size = d.pop("treeSize")

        root_hash = d.pop("rootHash")

        audit_path = cast(list[str], d.pop("auditPath"))


        tree_head = TreeHead.from_dict(d.pop("treeHead"))




        def _parse_evidence_record(data: object) -> InclusionProofEvidenceRecordType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                evidence_record_type_0 = InclusionProofEvidenceRecordType0.from_dict(data)



                return evidence_record_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(InclusionProofEvidenceRecordType0 | None, data)

        evidence_record = _parse_evidence_record(d.pop("evidenceRecord"))


        inclusion_proof = cls(
            leaf_index=leaf_index,
            leaf_hash=leaf_hash,
            tree_size=tree_size,
            root_hash=root_hash,
            audit_path=audit_path,
            tree_head=tree_head,
            evidence_record=evidence_record,
        )

        return inclusion_proof

