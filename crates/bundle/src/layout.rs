//! The files of a bundle and the JSON in them.

use std::collections::BTreeMap;

use clickwrap_domain::Timestamp;
use clickwrap_domain::consent::models::ClickwrapEvent;
use clickwrap_domain::ledger::canonical::CanonicalJsonError;
use clickwrap_domain::ledger::leaf::{evidence_record, leaf_bytes, personal_values};
use clickwrap_domain::ledger::merkle::{Hash, leaf_hash};
use clickwrap_domain::ledger::models::SALT_LEN;
use clickwrap_domain::ledger::tree_head::{SignedTreeHead, TreeHead};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What `manifest.json` says it is.
pub const BUNDLE_FORMAT: &str = "clickwrap-evidence-bundle";
pub const BUNDLE_FORMAT_VERSION: u32 = 1;

pub const MANIFEST_FILE: &str = "manifest.json";
pub const EVENTS_FILE: &str = "events.ndjson";
pub const LEDGER_KEY_FILE: &str = "keys/ledger-key.pem";
pub const SIGNING_CERTIFICATES_FILE: &str = "keys/signing-certificates.pem";
pub const CONTENT_DIR: &str = "content";
pub const CERTIFICATES_DIR: &str = "certificates";

/// `content/<hex>.html` for a record's `contentHash` (`sha256:<hex>`); `None` when it is not one,
/// so that no name from a bundle can point outside it.
pub fn content_file(content_hash: &str) -> Option<String> {
    let hex = content_hash.strip_prefix("sha256:")?;
    is_lower_hex(hex, 64).then(|| format!("{CONTENT_DIR}/{hex}.html"))
}

/// `certificates/<event id>.pdf`; `None` unless the id is a UUID's text.
pub fn certificate_file(event_id: &str) -> Option<String> {
    let uuid_like = event_id.len() == 36 && event_id.chars().all(|c| c.is_ascii_hexdigit() || c == '-');
    uuid_like.then(|| format!("{CERTIFICATES_DIR}/{event_id}.pdf"))
}

fn is_lower_hex(text: &str, len: usize) -> bool {
    text.len() == len && text.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// `manifest.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Manifest {
    pub format: String,
    pub format_version: u32,
    pub tenant_id: String,
    pub created_at: String,
    /// The one tree head every inclusion proof of the bundle is against.
    pub tree_head: TreeHeadJson,
    pub counts: BundleCounts,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BundleCounts {
    /// Lines of `events.ndjson`: the tree head's size.
    pub events: u64,
    pub certificates: u64,
    pub content_files: u64,
    /// Events whose personal values and salt were erased: only their leaf hash and proof are here.
    pub erased: u64,
    /// Verified events of the tenant that are not in the ledger (verified before it existed).
    pub verified_before_ledger: u64,
}

/// A signed tree head as the API shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TreeHeadJson {
    pub tree_size: u64,
    pub root_hash: String,
    pub timestamp: String,
    pub signature: String,
    pub key_id: String,
}

impl From<&SignedTreeHead> for TreeHeadJson {
    fn from(signed: &SignedTreeHead) -> Self {
        TreeHeadJson {
            tree_size: signed.head.tree_size,
            root_hash: hex::encode(signed.head.root_hash),
            timestamp: signed.head.timestamp.to_rfc3339(),
            signature: hex::encode(&signed.signature),
            key_id: signed.key_id.clone(),
        }
    }
}

impl TreeHeadJson {
    /// The head it describes, or why it cannot be read.
    pub fn to_signed(&self) -> Result<SignedTreeHead, String> {
        Ok(SignedTreeHead {
            head: TreeHead {
                tree_size: self.tree_size,
                root_hash: hash_from_hex(&self.root_hash).ok_or("rootHash is not 32 bytes of hex")?,
                timestamp: Timestamp::parse_rfc3339(&self.timestamp).map_err(|e| format!("timestamp: {e}"))?,
            },
            signature: hex::decode(&self.signature).map_err(|e| format!("signature: {e}"))?,
            key_id: self.key_id.clone(),
        })
    }
}

pub(crate) fn hash_from_hex(text: &str) -> Option<Hash> {
    hex::decode(text).ok()?.try_into().ok()
}

/// One line of `events.ndjson`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EventEntry {
    pub leaf_index: u64,
    pub leaf_hash: String,
    pub event_id: String,
    /// The evidence record exactly as hashed into the leaf; `None` once erased.
    pub record: Option<Value>,
    /// Each committed value in clear, under the record's name for it (null: no value).
    pub personal_values: Option<BTreeMap<String, Option<String>>>,
    /// The commitments' salt, hex.
    pub salt: Option<String>,
    /// From the leaf's sibling up, hex (RFC 9162 §2.1.3).
    pub audit_path: Vec<String>,
    pub content_file: Option<String>,
    pub certificate_file: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EntryError {
    #[error("the evidence record of event {event} is not canonical JSON: {source}")]
    NotCanonical { event: String, source: CanonicalJsonError },
    /// The stored evidence no longer gives the leaf that was appended: it was changed.
    #[error("the evidence record of event {event} rebuilt from storage does not hash to its leaf {leaf_index}")]
    LeafMismatch { event: String, leaf_index: u64 },
}

impl EventEntry {
    /// The entry of an event that is leaf `leaf_index`: its record is rebuilt from the event,
    /// certificate hash and salt, and must hash to `stored_leaf_hash`. Without a salt (erased),
    /// only the leaf hash and the proof are given.
    pub fn for_event(
        leaf_index: u64,
        stored_leaf_hash: &Hash,
        event: &ClickwrapEvent,
        certificate_sha256: Option<&[u8; 32]>,
        salt: Option<&[u8; SALT_LEN]>,
        audit_path: &[Hash],
    ) -> Result<Self, EntryError> {
        let event_id = event.id.to_string();
        let mut entry = EventEntry {
            leaf_index,
            leaf_hash: hex::encode(stored_leaf_hash),
            event_id: event_id.clone(),
            record: None,
            personal_values: None,
            salt: None,
            audit_path: audit_path.iter().map(hex::encode).collect(),
            content_file: content_file(event.content_hash.as_str()),
            certificate_file: certificate_sha256.and_then(|_| certificate_file(&event_id)),
        };
        let Some(salt) = salt else { return Ok(entry) };
        let record = evidence_record(event, certificate_sha256, salt);
        let bytes =
            leaf_bytes(&record).map_err(|source| EntryError::NotCanonical { event: event_id.clone(), source })?;
        if leaf_hash(&bytes) != *stored_leaf_hash {
            return Err(EntryError::LeafMismatch { event: event_id, leaf_index });
        }
        let values = personal_values(event);
        entry.personal_values = Some(
            values.fields().into_iter().map(|(name, value)| (name.to_owned(), value.map(str::to_owned))).collect(),
        );
        entry.record = Some(record);
        entry.salt = Some(hex::encode(salt));
        Ok(entry)
    }
}

/// The DER of the first PEM block labelled `label` (`PUBLIC KEY`).
pub fn public_key_der_from_pem(pem: &str) -> Result<Vec<u8>, String> {
    let (label, der) = der::pem::decode_vec(pem.trim().as_bytes()).map_err(|e| e.to_string())?;
    if label != "PUBLIC KEY" {
        return Err(format!("a PEM `{label}`, not a `PUBLIC KEY`"));
    }
    Ok(der)
}
