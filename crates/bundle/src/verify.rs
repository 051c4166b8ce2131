//! Checking a bundle offline. Every check that fails is reported as a [`BundleFailure`] naming the
//! event (or the tree head, the keys, the bundle) and what does not hold; checking goes on, so one
//! run lists everything wrong. Events are read one line at a time: memory stays constant.

use std::collections::HashMap;
use std::fmt;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

use clickwrap_domain::ledger::leaf::{commitment, leaf_bytes};
use clickwrap_domain::ledger::merkle::{Hash, leaf_hash, verify_inclusion};
use clickwrap_domain::ledger::models::SALT_LEN;
use clickwrap_domain::ledger::tree_head::{SignedTreeHead, verify_tree_head};
use clickwrap_pdf::certificates_from_pem;
use clickwrap_pdf::verify::verify_pdf_signature;
use serde_json::Value;

use crate::layout::{
    BUNDLE_FORMAT, BUNDLE_FORMAT_VERSION, EVENTS_FILE, EventEntry, LEDGER_KEY_FILE, MANIFEST_FILE, Manifest,
    SIGNING_CERTIFICATES_FILE, certificate_file, content_file, hash_from_hex, public_key_der_from_pem,
};

/// How many content files' hashes are remembered at most.
const CONTENT_CACHE: usize = 10_000;

/// What a failure is about: an event, or the bundle as a whole.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BundleFailure {
    /// `event <id>`, `line <n>` (when the line names no event), `tree head`, `keys` or `bundle`.
    pub subject: String,
    pub problem: String,
}

impl fmt::Display for BundleFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.subject, self.problem)
    }
}

/// What was checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifySummary {
    pub tenant_id: String,
    pub events_checked: u64,
    pub tree_size: u64,
    pub root_hash: String,
    pub certificates_checked: u64,
    pub failures: u64,
}

/// The bundle cannot be checked at all.
#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    #[error("{0} is not a directory")]
    NotADirectory(PathBuf),
    #[error("cannot read {path}: {source}")]
    Unreadable { path: PathBuf, source: std::io::Error },
    #[error("{path} is not a bundle manifest: {why}")]
    NotAManifest { path: PathBuf, why: String },
}

/// Checks the bundle in `dir`, reporting each failure to `report` as it is found.
pub fn verify_bundle(dir: &Path, report: &mut dyn FnMut(&BundleFailure)) -> Result<VerifySummary, VerifyError> {
    if !dir.is_dir() {
        return Err(VerifyError::NotADirectory(dir.to_path_buf()));
    }
    let read = |file: &str| {
        let path = dir.join(file);
        std::fs::read(&path).map_err(|source| VerifyError::Unreadable { path, source })
    };
    let manifest_path = dir.join(MANIFEST_FILE);
    let manifest: Manifest = serde_json::from_slice(&read(MANIFEST_FILE)?)
        .map_err(|e| VerifyError::NotAManifest { path: manifest_path.clone(), why: e.to_string() })?;
    if manifest.format != BUNDLE_FORMAT || manifest.format_version != BUNDLE_FORMAT_VERSION {
        let why = format!("format {} version {}", manifest.format, manifest.format_version);
        return Err(VerifyError::NotAManifest { path: manifest_path, why });
    }

    let mut checker = Checker {
        dir,
        report,
        failures: 0,
        tenant_id: manifest.tenant_id.clone(),
        tree_size: manifest.tree_head.tree_size,
        root: [0; 32],
        trusted: Vec::new(),
        contents: HashMap::new(),
        certificates_checked: 0,
    };
    let head = checker.tree_head(&manifest, &String::from_utf8_lossy(&read(LEDGER_KEY_FILE)?));
    if let Some(head) = &head {
        checker.root = head.head.root_hash;
    }
    checker.trusted = checker.signing_certificates(&read(SIGNING_CERTIFICATES_FILE)?);

    let events_path = dir.join(EVENTS_FILE);
    let events = std::fs::File::open(&events_path)
        .map_err(|source| VerifyError::Unreadable { path: events_path.clone(), source })?;
    let mut next_index = 0_u64;
    let mut lines_read = 0_u64;
    for (number, line) in BufReader::new(events).lines().enumerate() {
        let line = line.map_err(|source| VerifyError::Unreadable { path: events_path.clone(), source })?;
        lines_read += 1;
        let line_subject = format!("line {}", number + 1);
        let entry: EventEntry = match serde_json::from_str(&line) {
            Ok(entry) => entry,
            Err(error) => {
                checker.fail(&line_subject, format!("not an event entry: {error}"));
                next_index = next_index.saturating_add(1);
                continue;
            }
        };
        // Leaves are listed in order, each exactly once: a gap is a dropped event.
        if entry.leaf_index != next_index {
            checker.fail(
                &format!("event {}", entry.event_id),
                format!(
                    "leaf index {} where {next_index} was expected (an event is missing, repeated or out of order)",
                    entry.leaf_index
                ),
            );
        }
        next_index = next_index.max(entry.leaf_index).saturating_add(1);
        checker.event(&entry, head.is_some());
    }
    if lines_read != checker.tree_size {
        let problem = format!(
            "the bundle lists {lines_read} events but the tree head covers {} (events are missing or extra)",
            checker.tree_size
        );
        checker.fail("bundle", problem);
    } else if next_index != checker.tree_size {
        let problem = format!("leaf indices run past the tree head's size {}", checker.tree_size);
        checker.fail("bundle", problem);
    }
    Ok(VerifySummary {
        tenant_id: manifest.tenant_id,
        events_checked: lines_read,
        tree_size: manifest.tree_head.tree_size,
        root_hash: manifest.tree_head.root_hash,
        certificates_checked: checker.certificates_checked,
        failures: checker.failures,
    })
}

struct Checker<'a> {
    dir: &'a Path,
    report: &'a mut dyn FnMut(&BundleFailure),
    failures: u64,
    tenant_id: String,
    tree_size: u64,
    root: Hash,
    /// The bundled signing certificates, DER.
    trusted: Vec<Vec<u8>>,
    /// Content files already hashed (by name): the content hash each turned out to have.
    contents: HashMap<String, Option<String>>,
    certificates_checked: u64,
}

impl Checker<'_> {
    fn fail(&mut self, subject: &str, problem: impl Into<String>) {
        self.failures += 1;
        (self.report)(&BundleFailure { subject: subject.to_owned(), problem: problem.into() });
    }

    /// The manifest's tree head, if it reads and its signature verifies with the bundled key.
    fn tree_head(&mut self, manifest: &Manifest, ledger_key_pem: &str) -> Option<SignedTreeHead> {
        let head = match manifest.tree_head.to_signed() {
            Ok(head) => head,
            Err(why) => {
                self.fail("tree head", format!("unreadable: {why}"));
                return None;
            }
        };
        let key = match public_key_der_from_pem(ledger_key_pem) {
            Ok(key) => key,
            Err(why) => {
                self.fail("keys", format!("{LEDGER_KEY_FILE} is not a public key: {why}"));
                return None;
            }
        };
        if !verify_tree_head(&head.head, &head.signature, &key) {
            self.fail("tree head", "its signature does not verify with the bundled ledger key");
            return None;
        }
        Some(head)
    }

    fn signing_certificates(&mut self, pem: &[u8]) -> Vec<Vec<u8>> {
        match certificates_from_pem(&String::from_utf8_lossy(pem)) {
            Ok(certificates) if !certificates.is_empty() => certificates,
            Ok(_) => {
                self.fail("keys", format!("{SIGNING_CERTIFICATES_FILE} holds no certificate"));
                Vec::new()
            }
            Err(why) => {
                self.fail("keys", format!("{SIGNING_CERTIFICATES_FILE} does not hold certificates: {why}"));
                Vec::new()
            }
        }
    }

    fn event(&mut self, entry: &EventEntry, head_holds: bool) {
        let subject = format!("event {}", entry.event_id);
        let Some(leaf) = hash_from_hex(&entry.leaf_hash) else {
            self.fail(&subject, "leafHash is not 32 bytes of hex");
            return;
        };
        self.inclusion(&subject, entry, &leaf, head_holds);
        let Some(record) = &entry.record else {
            // Erased: the leaf and its proof are all there is to check.
            return;
        };
        match leaf_bytes(record) {
            Ok(bytes) if leaf_hash(&bytes) == leaf => {}
            Ok(_) => self.fail(&subject, "the record does not hash to its leafHash (the record was changed)"),
            Err(error) => self.fail(&subject, format!("the record is not canonical JSON: {error}")),
        }
        if record.get("clickwrapEventId").and_then(Value::as_str) != Some(entry.event_id.as_str()) {
            self.fail(&subject, "the record is another event's");
        }
        if record.get("tenantId").and_then(Value::as_str) != Some(self.tenant_id.as_str()) {
            self.fail(&subject, "the record is another tenant's");
        }
        self.commitments(&subject, entry, record);
        self.content(&subject, record);
        self.certificate(&subject, entry, record);
    }

    fn inclusion(&mut self, subject: &str, entry: &EventEntry, leaf: &Hash, head_holds: bool) {
        let path: Option<Vec<Hash>> = entry.audit_path.iter().map(|hash| hash_from_hex(hash)).collect();
        let Some(path) = path else {
            self.fail(subject, "the inclusion proof (auditPath) is not a list of 32-byte hex hashes");
            return;
        };
        // Against an unverified head a proof means nothing; that head's failure is reported once.
        if head_holds && !verify_inclusion(leaf, entry.leaf_index, self.tree_size, &path, &self.root) {
            self.fail(subject, "the inclusion proof does not lead to the tree head's root");
        }
    }

    fn commitments(&mut self, subject: &str, entry: &EventEntry, record: &Value) {
        let (Some(values), Some(salt)) = (&entry.personal_values, &entry.salt) else { return };
        let Some(salt) = hex::decode(salt).ok().and_then(|salt| <[u8; SALT_LEN]>::try_from(salt).ok()) else {
            self.fail(subject, "the salt is not 16 bytes of hex");
            return;
        };
        for (name, value) in values {
            let expected = value.as_deref().map(|value| commitment(&salt, name, value));
            if record.get(name).map(|recorded| recorded.as_str()) != Some(expected.as_deref()) {
                self.fail(subject, format!("the personal value {name} does not open the record's commitment"));
            }
        }
    }

    fn content(&mut self, subject: &str, record: &Value) {
        let Some(hash) = record.get("contentHash").and_then(Value::as_str) else {
            self.fail(subject, "the record has no contentHash");
            return;
        };
        let Some(file) = content_file(hash) else {
            self.fail(subject, "the record's contentHash is not sha256:<hex>");
            return;
        };
        // Contents repeat (one per template version) or not (filled placeholders): the memory of
        // hashed files is bounded either way.
        if self.contents.len() >= CONTENT_CACHE {
            self.contents.clear();
        }
        let dir = self.dir;
        let found = self.contents.entry(file.clone()).or_insert_with(|| {
            let bytes = std::fs::read(dir.join(&file)).ok()?;
            Some(format!("sha256:{}", hex::encode(ring::digest::digest(&ring::digest::SHA256, &bytes))))
        });
        match found.as_deref() {
            None => self.fail(subject, format!("the content file {file} is missing")),
            Some(actual) if actual != hash => {
                let problem = format!("the content file {file} does not hash to the record's contentHash");
                self.fail(subject, problem);
            }
            Some(_) => {}
        }
    }

    fn certificate(&mut self, subject: &str, entry: &EventEntry, record: &Value) {
        let Some(expected) = record.get("certificateSha256").and_then(Value::as_str) else { return };
        let Some(file) = certificate_file(&entry.event_id) else {
            self.fail(subject, "the event id is not a UUID, so its certificate file cannot be named");
            return;
        };
        let pdf = match std::fs::read(self.dir.join(&file)) {
            Ok(pdf) => pdf,
            Err(error) => {
                self.fail(subject, format!("the certificate {file} cannot be read: {error}"));
                return;
            }
        };
        self.certificates_checked += 1;
        if hex::encode(ring::digest::digest(&ring::digest::SHA256, &pdf)) != expected {
            self.fail(subject, format!("the certificate {file} is not the one recorded (certificateSha256 differs)"));
        }
        if let Err(error) = verify_pdf_signature(&pdf, &self.trusted) {
            self.fail(subject, format!("the certificate {file} has no valid signature: {error}"));
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("clickwrap-bundle-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("keys")).unwrap();
        dir
    }

    fn failures_of(dir: &Path) -> Vec<String> {
        let mut failures = Vec::new();
        verify_bundle(dir, &mut |failure| failures.push(failure.to_string())).unwrap();
        failures
    }

    #[test]
    fn what_is_not_a_bundle_is_an_error_not_a_panic() {
        let missing = std::env::temp_dir().join("clickwrap-bundle-surely-missing");
        assert!(matches!(verify_bundle(&missing, &mut |_| {}), Err(VerifyError::NotADirectory(_))));
        let dir = scratch("garbage-manifest");
        assert!(matches!(verify_bundle(&dir, &mut |_| {}), Err(VerifyError::Unreadable { .. })));
        std::fs::write(dir.join(MANIFEST_FILE), "{not json").unwrap();
        assert!(matches!(verify_bundle(&dir, &mut |_| {}), Err(VerifyError::NotAManifest { .. })));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn malformed_keys_head_and_lines_are_named_failures() {
        let dir = scratch("malformed");
        let manifest = serde_json::json!({
            "format": BUNDLE_FORMAT, "formatVersion": BUNDLE_FORMAT_VERSION, "tenantId": "t",
            "createdAt": "2026-11-26T10:00:00Z",
            "treeHead": {"treeSize": 2, "rootHash": "zz", "timestamp": "x", "signature": "00", "keyId": "k"},
            "counts": {"events": 2, "certificates": 0, "contentFiles": 0, "erased": 0, "verifiedBeforeLedger": 0},
        });
        std::fs::write(dir.join(MANIFEST_FILE), manifest.to_string()).unwrap();
        std::fs::write(dir.join(LEDGER_KEY_FILE), "not a key").unwrap();
        std::fs::write(dir.join(SIGNING_CERTIFICATES_FILE), "").unwrap();
        let huge = u64::MAX;
        let lines = format!(
            "[1, 2]\n{{\"leafIndex\": {huge}, \"leafHash\": \"ab\", \"eventId\": \"../../x\", \"record\": {{\"contentHash\": \"sha256:../../etc\"}}, \"personalValues\": null, \"salt\": null, \"auditPath\": [\"q\"], \"contentFile\": null, \"certificateFile\": null}}\n"
        );
        std::fs::write(dir.join(EVENTS_FILE), lines).unwrap();
        let failures = failures_of(&dir).join("\n");
        assert!(failures.contains("tree head: unreadable"), "{failures}");
        assert!(failures.contains("line 1: not an event entry"), "{failures}");
        assert!(failures.contains("keys: keys/signing-certificates.pem holds no certificate"), "{failures}");
        assert!(failures.contains("leafHash is not 32 bytes of hex"), "{failures}");
        assert!(failures.contains("bundle: leaf indices run past the tree head's size 2"), "{failures}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
