//! The evidence ledger on the wire: hashes and signatures in lowercase hex, times as everywhere.

use clickwrap_domain::ledger::merkle::Hash;
use clickwrap_domain::ledger::service::{ConsistencyProof, InclusionProof};
use clickwrap_domain::ledger::tree_head::SignedTreeHead;
use serde_json::{Value, json};

use super::timestamp;

fn hashes(path: &[Hash]) -> Vec<String> {
    path.iter().map(hex::encode).collect()
}

/// `{"treeSize", "rootHash", "timestamp", "signature", "keyId"}`: the signature is ECDSA P-256
/// (DER) over the canonical JSON (RFC 8785) of the first three.
pub(crate) fn tree_head(head: &SignedTreeHead) -> Value {
    json!({
        "treeSize": head.head.tree_size,
        "rootHash": hex::encode(head.head.root_hash),
        "timestamp": timestamp(head.head.timestamp),
        "signature": hex::encode(&head.signature),
        "keyId": head.key_id,
    })
}

pub(crate) fn inclusion(proof: &InclusionProof) -> Value {
    json!({
        "leafIndex": proof.leaf_index,
        "leafHash": hex::encode(proof.leaf_hash),
        "treeSize": proof.tree_head.head.tree_size,
        "rootHash": hex::encode(proof.tree_head.head.root_hash),
        "auditPath": hashes(&proof.audit_path),
        "treeHead": tree_head(&proof.tree_head),
        "evidenceRecord": proof.evidence_record,
    })
}

pub(crate) fn consistency(proof: &ConsistencyProof) -> Value {
    json!({
        "from": proof.from_size,
        "to": proof.to_size,
        "fromRootHash": hex::encode(proof.from_root),
        "toRootHash": hex::encode(proof.to_root),
        "consistencyPath": hashes(&proof.consistency_path),
    })
}
