//! The evidence ledger over HTTP: inclusion proofs, tree heads, consistency proofs and the public
//! key, checked with the domain's independent verification functions and the published key.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use clickwrap_domain::ledger::canonical::canonical_json;
use clickwrap_domain::ledger::merkle::{self, Hash};
use clickwrap_domain::ledger::tree_head::{TreeHead, verify_tree_head};
use common::*;
use serde_json::Value;

fn hash(value: &Value) -> Hash {
    hex::decode(value.as_str().expect("a hex hash")).unwrap().try_into().expect("32 bytes")
}

fn path(value: &Value) -> Vec<Hash> {
    value.as_array().expect("a path").iter().map(hash).collect()
}

fn operator_get(uri: &str, op: &Operator) -> actix_web::test::TestRequest {
    get(uri).insert_header(("authorization", format!("Bearer {}", op.token)))
}

async fn public_key(h: &Harness) -> Vec<u8> {
    use base64ct::Encoding as _;
    let reply = h.call(get(&format!("{V1}/ledger-key"))).await.expect(200);
    assert_eq!(reply.header("content-type"), Some("application/x-pem-file"));
    let pem = String::from_utf8(reply.body.to_vec()).unwrap();
    assert!(pem.starts_with("-----BEGIN PUBLIC KEY-----\n"), "{pem}");
    let body: String = pem.lines().filter(|line| !line.starts_with("-----")).collect();
    base64ct::Base64::decode_vec(&body).unwrap()
}

/// The tree head as the wire gives it, checked against the published key.
fn checked_head(head: &Value, key: &[u8]) -> TreeHead {
    let parsed = TreeHead {
        tree_size: head["treeSize"].as_u64().unwrap(),
        root_hash: hash(&head["rootHash"]),
        timestamp: clickwrap_domain::Timestamp::parse_rfc3339(head["timestamp"].as_str().unwrap()).unwrap(),
    };
    let signature = hex::decode(head["signature"].as_str().unwrap()).unwrap();
    assert!(verify_tree_head(&parsed, &signature, key), "the tree head's signature verifies: {head}");
    assert!(head["keyId"].as_str().unwrap().starts_with("lk-"), "{head}");
    parsed
}

#[actix_web::test]
async fn verified_events_have_inclusion_proofs_against_signed_tree_heads_that_stay_consistent() {
    let h = harness().await;
    let op = operator(&h, None).await;
    let t = template(&h, &op, "<p>Terms</p>").await;
    let key = public_key(&h).await;

    let mut ids = Vec::new();
    for (user, action) in [("ada-lovelace-1815", "ACCEPTED"), ("bob-the-builder", "DECLINED")] {
        let recorded = act(&h, &op, &t, user, action).await;
        verify(&h, &op, recorded["serviceSignature"].as_str().unwrap()).await.expect(200);
        ids.push(recorded["clickwrapEventId"].as_str().unwrap().to_owned());
    }
    for (index, id) in ids.iter().enumerate() {
        let proof = h.call(get(&format!("{V1}/clickwrap-events/{id}/proof")).app(&op)).await.expect(200).json();
        assert_eq!(proof["leafIndex"], index);
        assert_eq!(proof["treeSize"], 2);
        let head = checked_head(&proof["treeHead"], &key);
        assert_eq!((head.tree_size, head.root_hash), (2, hash(&proof["rootHash"])));
        let leaf = hash(&proof["leafHash"]);
        assert!(merkle::verify_inclusion(&leaf, index as u64, 2, &path(&proof["auditPath"]), &head.root_hash));
        // The record the leaf is the hash of: anyone can recompute it, and it names no person.
        let record = &proof["evidenceRecord"];
        assert_eq!(merkle::leaf_hash(canonical_json(record).unwrap().as_bytes()), leaf, "{record}");
        assert_eq!(record["clickwrapEventId"], id.as_str());
        let text = record.to_string();
        assert!(!text.contains("lovelace") && !text.contains("builder") && !text.contains("Mozilla"), "{text}");
    }

    let first = h.call(operator_get("/operator/v1/ledger/tree-head", &op)).await.expect(200).json();
    let first = checked_head(&first, &key);
    assert_eq!(first.tree_size, 2);

    let recorded = act(&h, &op, &t, "cy", "ACCEPTED").await;
    verify(&h, &op, recorded["serviceSignature"].as_str().unwrap()).await.expect(200);
    let second = h.call(operator_get("/operator/v1/ledger/tree-head", &op)).await.expect(200).json();
    let second = checked_head(&second, &key);
    assert_eq!(second.tree_size, 3);
    let consistency = h.call(operator_get("/operator/v1/ledger/consistency?from=2&to=3", &op)).await.expect(200).json();
    assert_eq!(
        (hash(&consistency["fromRootHash"]), hash(&consistency["toRootHash"])),
        (first.root_hash, second.root_hash)
    );
    assert!(merkle::verify_consistency(
        2,
        3,
        &first.root_hash,
        &second.root_hash,
        &path(&consistency["consistencyPath"])
    ));

    for query in ["from=0&to=3", "from=3&to=2", "from=1&to=4"] {
        h.call(operator_get(&format!("/operator/v1/ledger/consistency?{query}"), &op))
            .await
            .problem(400, "INVALID_TREE_SIZES");
    }
    h.call(operator_get("/operator/v1/ledger/consistency?from=1", &op)).await.expect(400);
    h.call(operator_get("/operator/v1/ledger/consistency?from=x&to=2", &op)).await.expect(400);
    h.call(get("/operator/v1/ledger/tree-head")).await.expect(401);
}

#[actix_web::test]
async fn proofs_exist_only_for_verified_events_of_ones_own_tenant() {
    let h = harness().await;
    let op = operator(&h, None).await;
    let other = operator(&h, None).await;
    let t = template(&h, &op, "<p>Terms</p>").await;
    let recorded = act(&h, &op, &t, "ada", "ACCEPTED").await;
    let id = recorded["clickwrapEventId"].as_str().unwrap();
    h.call(get(&format!("{V1}/clickwrap-events/{id}/proof")).app(&op)).await.problem(404, "EVENT_NOT_IN_LEDGER");
    verify(&h, &op, recorded["serviceSignature"].as_str().unwrap()).await.expect(200);
    h.call(get(&format!("{V1}/clickwrap-events/{id}/proof")).app(&op)).await.expect(200);
    h.call(get(&format!("{V1}/clickwrap-events/{id}/proof")).app(&other)).await.problem(404, "EVENT_NOT_IN_LEDGER");
    h.call(get(&format!("{V1}/clickwrap-events/{id}/proof"))).await.expect(401);
    h.call(get(&format!("{V1}/clickwrap-events/not-an-id/proof")).app(&op)).await.expect(400);

    // Another tenant's log is its own: empty, yet signed.
    let empty = h.call(operator_get("/operator/v1/ledger/tree-head", &other)).await.expect(200).json();
    assert_eq!(empty["treeSize"], 0);
    assert_eq!(hash(&empty["rootHash"]), merkle::empty_root());
}
