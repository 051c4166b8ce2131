//! The evidence bundle: everything needed to check a tenant's evidence ledger offline, with no
//! database, no network and no secret.
//!
//! ```text
//! DIR/manifest.json                    format, tenant, the signed tree head, counts, when made
//! DIR/keys/ledger-key.pem              the ledger's public key (verifies the tree head)
//! DIR/keys/signing-certificates.pem    the certificates that sign certificate PDFs, current first
//! DIR/events.ndjson                    one event per line, in leaf order (0 .. treeSize-1)
//! DIR/content/<sha256 hex>.html        each content as shown, once per distinct content
//! DIR/certificates/<event id>.pdf      each accepted event's Certificate of Acceptance
//! ```
//!
//! [`BundleWriter`] writes one (the server's `export` streams the events into it);
//! [`verify_bundle`] checks one and names every failure. The Merkle and signature logic is the
//! domain's (and the PDF check the pdf crate's): this crate only lays the files out and reads them
//! back.
//!
//! Architecture invariant: no storage and no network; only the files of the bundle are read.

mod layout;
mod verify;
mod write;

pub use layout::{
    BUNDLE_FORMAT, BUNDLE_FORMAT_VERSION, BundleCounts, CERTIFICATES_DIR, CONTENT_DIR, EVENTS_FILE, EntryError,
    EventEntry, LEDGER_KEY_FILE, MANIFEST_FILE, Manifest, SIGNING_CERTIFICATES_FILE, TreeHeadJson, certificate_file,
    content_file, public_key_der_from_pem,
};
pub use verify::{BundleFailure, VerifyError, VerifySummary, verify_bundle};
pub use write::{BundleWriter, WriteError};
