//! The evidence ledger: a per-tenant, append-only log of verified clickwrap events, kept as a
//! Merkle tree so that anyone holding a signed tree head can check that an event is in the log and
//! that the log was only ever appended to.
//!
//! - **Leaf.** When an event is verified, its [evidence record](leaf::evidence_record) is built: the
//!   event's details as the API names them, the content's hash, the Certificate of Acceptance's
//!   SHA-256. The leaf is the record's canonical JSON ([RFC 8785](canonical)), so that any
//!   implementation rebuilds the same bytes from the JSON alone.
//! - **Commitments instead of personal values.** The end user id, IP address, user agent,
//!   placeholder values and device metadata appear in the record only as
//!   [`commitment`](leaf::commitment)s: SHA-256 over a random per-event salt, the field name and
//!   the value. The values and the salt are stored beside the log, not in it. Erasing them (a
//!   request for erasure) leaves every leaf, root and proof as it was; while they are kept, anyone
//!   given a value and the salt can check it is the one recorded. Without the salt a commitment
//!   does not confirm a guess, even of a value as guessable as an IP address.
//! - **Tree.** The log is the Merkle tree of RFC 9162 (RFC 6962's, with SHA-256): leaves hashed as
//!   `SHA-256(0x00 || leaf)`, inner nodes as `SHA-256(0x01 || left || right)`, so a node can never
//!   pass for a leaf. [`merkle`] makes and verifies inclusion proofs (this event is leaf `i` of the
//!   tree with this root) and consistency proofs (the tree of size `m` is a prefix of the tree of
//!   size `n`).
//! - **Frontier.** Appending needs only the right frontier of the tree: one hash per perfect
//!   subtree, at most 64 for any size ([`merkle::Frontier`]). The storage keeps it with the size,
//!   appends in O(log n) inside the verify transaction and gets the new root without reading
//!   the leaves.
//! - **Tree heads.** A [tree head](tree_head::TreeHead) (size, root, time) is signed with the
//!   ledger's ECDSA P-256 key over its canonical JSON; the public key is published, so proofs
//!   can be checked offline.
//!
//! Everything here is pure: no IO, no clock, no randomness except the key's own signing nonce
//! (the salt comes from the caller's random source).

pub mod canonical;
pub mod key;
pub mod leaf;
pub mod merkle;
pub mod models;
pub mod service;
pub mod tree_head;

#[cfg(test)]
mod tests {
    use super::leaf::{PersonalValues, commitment, evidence_record, leaf_bytes, personal_values};
    use super::merkle::{
        Frontier, consistency_proof, inclusion_proof, leaf_hash, verify_consistency, verify_inclusion,
    };
    use super::models::SALT_LEN;
    use super::tree_head::{LedgerKey, TreeHead, verify_tree_head};
    use crate::Timestamp;
    use crate::consent::models::ClickwrapEvent;
    use crate::contract::fixtures;
    use time::Duration;

    /// Verified events of one app, every other one with placeholder values.
    fn events(count: u8) -> Vec<ClickwrapEvent> {
        let tenant = fixtures::tenant().id;
        let app = fixtures::app(tenant);
        let mut template = fixtures::template(tenant, &[app.id]);
        template.versions.push(fixtures::version(1, 0, fixtures::base_time().saturating_sub(Duration::days(1))));
        (0..count)
            .map(|i| {
                let builder = fixtures::event(&app, &template);
                let mut event = if i % 2 == 0 { builder.build() } else { builder.inline_checkbox().build() };
                event.verify(fixtures::base_time()).unwrap();
                event
            })
            .collect()
    }

    /// From events to a proof checked against a signed head, and the values still opening their
    /// commitments; then the values and salts are erased and the proof still holds.
    #[test]
    fn an_event_is_proven_in_the_signed_log_with_or_without_its_personal_values() {
        let events = events(5);
        let salts: Vec<[u8; SALT_LEN]> = (0..events.len()).map(|i| [i as u8; SALT_LEN]).collect();
        let records: Vec<_> =
            events.iter().zip(&salts).map(|(event, salt)| evidence_record(event, None, salt)).collect();
        let leaves: Vec<_> = records.iter().map(|record| leaf_hash(&leaf_bytes(record).unwrap())).collect();
        let mut frontier = Frontier::new();
        leaves.iter().for_each(|leaf| frontier.push(*leaf));

        let (key, _) = LedgerKey::generate().unwrap();
        let head = TreeHead {
            tree_size: frontier.size(),
            root_hash: frontier.root(),
            timestamp: Timestamp::parse_rfc3339("2026-11-22T08:00:00Z").unwrap(),
        };
        let signed = key.sign_head(head).unwrap();
        assert!(verify_tree_head(&signed.head, &signed.signature, &key.public_key_spki_der()));

        let index = 3;
        let path = inclusion_proof(&leaves, index).unwrap();
        let values: PersonalValues = personal_values(&events[3]);
        for (name, value) in values.fields() {
            let recorded = records[3][name].as_str().map(str::to_owned);
            assert_eq!(recorded, value.map(|value| commitment(&salts[3], name, value)), "{name}");
        }

        // Erasure: the values and the salt are gone; the record is rebuilt from what remains.
        drop(values);
        let kept = leaf_bytes(&records[3]).unwrap();
        assert!(verify_inclusion(&leaf_hash(&kept), index, signed.head.tree_size, &path, &signed.head.root_hash));

        let proof = consistency_proof(&leaves, 2).unwrap();
        let mut old = Frontier::new();
        leaves[..2].iter().for_each(|leaf| old.push(*leaf));
        assert!(verify_consistency(2, 5, &old.root(), &signed.head.root_hash, &proof));
    }
}
