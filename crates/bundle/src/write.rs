//! Writing a bundle, one event at a time: memory stays constant whatever the number of events.

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, ErrorKind, Write};
use std::path::{Path, PathBuf};

use crate::layout::{
    BundleCounts, CERTIFICATES_DIR, CONTENT_DIR, EVENTS_FILE, EventEntry, LEDGER_KEY_FILE, MANIFEST_FILE, Manifest,
    SIGNING_CERTIFICATES_FILE,
};

#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    #[error("{0} is not empty: a bundle is written into a new or empty directory")]
    NotEmpty(PathBuf),
    #[error("cannot write {path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("cannot encode {what}: {source}")]
    Json { what: &'static str, source: serde_json::Error },
    #[error("event {event} has no content file name (its content hash is not `sha256:<hex>`)")]
    NoContentFile { event: String },
    #[error("event {event} has a certificate but no certificate file name")]
    NoCertificateFile { event: String },
}

/// A bundle being written. The manifest comes last ([`BundleWriter::finish`]): a bundle whose
/// export stopped half-way has none and does not verify.
#[derive(Debug)]
pub struct BundleWriter {
    dir: PathBuf,
    events: BufWriter<File>,
    counts: BundleCounts,
}

impl BundleWriter {
    /// Starts a bundle in `dir`, which is made if missing and must be empty.
    pub fn create(dir: &Path) -> Result<Self, WriteError> {
        let io = |path: &Path| {
            let path = path.to_path_buf();
            move |source| WriteError::Io { path, source }
        };
        match std::fs::read_dir(dir) {
            Ok(mut entries) => {
                if entries.next().is_some() {
                    return Err(WriteError::NotEmpty(dir.to_path_buf()));
                }
            }
            Err(error) if error.kind() == ErrorKind::NotFound => std::fs::create_dir_all(dir).map_err(io(dir))?,
            Err(error) => return Err(io(dir)(error)),
        }
        for sub in ["keys", CONTENT_DIR, CERTIFICATES_DIR] {
            let path = dir.join(sub);
            std::fs::create_dir(&path).map_err(io(&path))?;
        }
        let path = dir.join(EVENTS_FILE);
        let events = File::create(&path).map_err(io(&path))?;
        Ok(Self { dir: dir.to_path_buf(), events: BufWriter::new(events), counts: BundleCounts::default() })
    }

    fn io(&self, file: &str) -> impl FnOnce(std::io::Error) -> WriteError {
        let path = self.dir.join(file);
        move |source| WriteError::Io { path, source }
    }

    /// The public keys: the ledger key and the certificates that sign certificate PDFs (PEM).
    pub fn write_keys(&mut self, ledger_key_pem: &str, signing_certificates_pem: &str) -> Result<(), WriteError> {
        std::fs::write(self.dir.join(LEDGER_KEY_FILE), ledger_key_pem).map_err(self.io(LEDGER_KEY_FILE))?;
        std::fs::write(self.dir.join(SIGNING_CERTIFICATES_FILE), signing_certificates_pem)
            .map_err(self.io(SIGNING_CERTIFICATES_FILE))
    }

    /// The next event, in leaf order, with its content as shown and its certificate PDF.
    pub fn add_event(
        &mut self,
        entry: &EventEntry,
        content: &str,
        certificate: Option<&[u8]>,
    ) -> Result<(), WriteError> {
        let content_file =
            entry.content_file.as_deref().ok_or_else(|| WriteError::NoContentFile { event: entry.event_id.clone() })?;
        // Contents are shared by many events: the first one writes the file.
        match OpenOptions::new().write(true).create_new(true).open(self.dir.join(content_file)) {
            Ok(mut file) => {
                file.write_all(content.as_bytes()).map_err(self.io(content_file))?;
                self.counts.content_files += 1;
            }
            Err(error) if error.kind() == ErrorKind::AlreadyExists => {}
            Err(error) => return Err(self.io(content_file)(error)),
        }
        if let Some(pdf) = certificate {
            let file = entry
                .certificate_file
                .as_deref()
                .ok_or_else(|| WriteError::NoCertificateFile { event: entry.event_id.clone() })?;
            std::fs::write(self.dir.join(file), pdf).map_err(self.io(file))?;
            self.counts.certificates += 1;
        }
        if entry.record.is_none() {
            self.counts.erased += 1;
        }
        serde_json::to_writer(&mut self.events, entry)
            .map_err(|source| WriteError::Json { what: "an event line", source })?;
        self.events.write_all(b"\n").map_err(self.io(EVENTS_FILE))?;
        self.counts.events += 1;
        Ok(())
    }

    /// The counts so far (events, certificates, content files, erased).
    pub fn counts(&self) -> &BundleCounts {
        &self.counts
    }

    /// Writes the manifest, with the counts of what was added, and closes the bundle.
    pub fn finish(mut self, mut manifest: Manifest) -> Result<Manifest, WriteError> {
        self.events.flush().map_err(self.io(EVENTS_FILE))?;
        self.events.get_ref().sync_all().map_err(self.io(EVENTS_FILE))?;
        manifest.counts =
            BundleCounts { verified_before_ledger: manifest.counts.verified_before_ledger, ..self.counts.clone() };
        let text = serde_json::to_string_pretty(&manifest)
            .map_err(|source| WriteError::Json { what: "the manifest", source })?;
        std::fs::write(self.dir.join(MANIFEST_FILE), text + "\n").map_err(self.io(MANIFEST_FILE))?;
        Ok(manifest)
    }
}
