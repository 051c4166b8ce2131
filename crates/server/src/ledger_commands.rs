//! `clickwrap-server export`, `verify-bundle` and `ledger check`: the evidence ledger from the
//! command line. The bundle's layout, writer and verifier are `clickwrap_bundle`'s; here they meet
//! the storage and the service.

use std::io::{IsTerminal, Write as _};
use std::path::{Path, PathBuf};

use clap::Subcommand;
use clickwrap_bundle::{
    BUNDLE_FORMAT, BUNDLE_FORMAT_VERSION, BundleCounts, BundleWriter, EventEntry, Manifest, TreeHeadJson, VerifyError,
    WriteError, public_key_der_from_pem, verify_bundle,
};
use clickwrap_domain::TenantId;
use clickwrap_domain::ledger::merkle::{TreeLevels, verify_consistency};
use clickwrap_domain::ledger::service::ConsistencyProofError;
use clickwrap_domain::ledger::tree_head::{SignedTreeHead, verify_tree_head};
use clickwrap_domain::ports::{Clock, EventStore, LedgerStore, StorageError, TenantStore};
use clickwrap_domain::service::ClickwrapService;
use clickwrap_domain::system::SystemClock;
use clickwrap_postgres::PgStore;
use serde::{Deserialize, Serialize};
use serde_json::json;

/// Leaves read from the database at a time.
const EXPORT_BATCH: usize = 1000;

#[derive(Debug, Subcommand)]
pub(crate) enum LedgerCommand {
    /// Check that the ledger only grew since the tree head kept in --state (made on the first
    /// run), then keep the new head there. Exits non-zero, leaving the file as it was, when the
    /// head's signature fails, the log shrank or its history was rewritten.
    Check {
        #[arg(long)]
        tenant: String,
        #[arg(long)]
        state: PathBuf,
    },
}

#[derive(Debug, thiserror::Error)]
pub(crate) enum ExportError {
    #[error("no tenant {0}")]
    UnknownTenant(TenantId),
    #[error(transparent)]
    Write(#[from] WriteError),
    #[error(transparent)]
    Storage(#[from] StorageError),
    #[error("the stored evidence was changed: {0}")]
    Evidence(#[from] clickwrap_bundle::EntryError),
    #[error("the stored leaves do not give the root of the signed tree head: the ledger was changed")]
    RootMismatch,
    #[error("leaf {0} is missing from the ledger, or its event from storage")]
    LeafMissing(u64),
}

/// Writes the tenant's evidence bundle into `out` (new or empty); what was written, as JSON.
pub(crate) async fn export(
    store: &PgStore,
    service: &ClickwrapService,
    signing_certificates_pem: &str,
    tenant: TenantId,
    out: &Path,
) -> Result<serde_json::Value, ExportError> {
    if store.find_tenant(tenant).await?.is_none() {
        return Err(ExportError::UnknownTenant(tenant));
    }
    let mut writer = BundleWriter::create(out)?;
    writer.write_keys(&service.ledger_public_key_pem(), signing_certificates_pem)?;
    let head = service.latest_tree_head(tenant).await?;
    let size = head.head.tree_size;
    // All levels of the tree at the head's size: about 64 bytes per leaf (6.4 MB for 100,000), so
    // that every audit path costs O(log n) instead of rehashing the whole tree.
    let levels = TreeLevels::new(store.leaf_hashes(tenant, size).await?);
    if levels.size() != size || levels.root() != head.head.root_hash {
        return Err(ExportError::RootMismatch);
    }
    let progress = std::io::stderr().is_terminal();
    let mut next = 0_u64;
    while next < size {
        let page = store.ledger_leaves_from(tenant, next, EXPORT_BATCH).await?;
        if page.is_empty() {
            return Err(ExportError::LeafMissing(next));
        }
        for (event_id, leaf) in page.into_iter().take_while(|(_, leaf)| leaf.leaf_index < size) {
            if leaf.leaf_index != next {
                return Err(ExportError::LeafMissing(next));
            }
            let event = store.find_event(tenant, event_id).await?.ok_or(ExportError::LeafMissing(next))?;
            let certificate = store.find_certificate(tenant, event_id).await?;
            let path = levels.inclusion_proof(next).ok_or(ExportError::LeafMissing(next))?;
            let entry = EventEntry::for_event(
                next,
                &leaf.leaf_hash,
                &event,
                certificate.as_ref().map(|c| &c.sha256),
                leaf.salt.as_ref(),
                &path,
            )?;
            writer.add_event(&entry, &event.content, certificate.as_ref().map(|c| c.pdf.as_slice()))?;
            next += 1;
        }
        if progress {
            eprint!("\rexported {next} of {size} events");
            let _ = std::io::stderr().flush();
        }
    }
    if progress {
        eprintln!();
    }
    let verified_before_ledger = store.verified_events_outside_ledger(tenant).await?;
    let manifest = writer.finish(Manifest {
        format: BUNDLE_FORMAT.to_owned(),
        format_version: BUNDLE_FORMAT_VERSION,
        tenant_id: tenant.to_string(),
        created_at: SystemClock.now().to_rfc3339(),
        tree_head: TreeHeadJson::from(&head),
        counts: BundleCounts { verified_before_ledger, ..BundleCounts::default() },
    })?;
    let counts = &manifest.counts;
    Ok(json!({
        "tenantId": manifest.tenant_id,
        "out": out.display().to_string(),
        "treeSize": manifest.tree_head.tree_size,
        "rootHash": manifest.tree_head.root_hash,
        "events": counts.events,
        "certificates": counts.certificates,
        "contentFiles": counts.content_files,
        "erased": counts.erased,
        "verifiedBeforeLedger": counts.verified_before_ledger,
    }))
}

/// Checks the bundle in `dir`: each failure on its own line, then a summary line. `Ok(true)`
/// when everything holds.
pub(crate) fn verify_bundle_command(dir: &Path) -> Result<bool, VerifyError> {
    let summary = verify_bundle(dir, &mut |failure| println!("FAILED {failure}"))?;
    let what = format!(
        "{} events ({} certificates) of tenant {}, tree size {}, root {}",
        summary.events_checked, summary.certificates_checked, summary.tenant_id, summary.tree_size, summary.root_hash
    );
    if summary.failures == 0 {
        println!("verified: {what}");
    } else {
        println!("NOT VERIFIED: {} failures in {what}", summary.failures);
    }
    Ok(summary.failures == 0)
}

/// The monitor's state file: the last tree head it accepted and the ledger key it trusts.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct MonitorState {
    tenant_id: String,
    /// Pinned on the first run: a head signed by another key is not accepted.
    ledger_key: String,
    tree_head: TreeHeadJson,
    checked_at: String,
}

#[derive(Debug, thiserror::Error)]
pub(crate) enum CheckError {
    #[error("cannot read the state file {path}: {why}")]
    State { path: PathBuf, why: String },
    #[error("cannot write the state file {path}: {source}")]
    WriteState { path: PathBuf, source: std::io::Error },
    #[error("the state file is tenant {0}'s")]
    OtherTenant(String),
    #[error(transparent)]
    Storage(#[from] StorageError),
    #[error(transparent)]
    Proof(#[from] ConsistencyProofError),
    #[error("THE LEDGER KEY CHANGED: the state file trusts another key than the service's")]
    KeyChanged,
    #[error("THE TREE HEAD'S SIGNATURE IS INVALID (size {0})")]
    SignatureInvalid(u64),
    #[error("THE LEDGER SHRANK from {old} to {new} leaves: history was rewritten")]
    Shrank { old: u64, new: u64 },
    #[error("HISTORY WAS REWRITTEN: {0}")]
    Rewritten(String),
}

/// `ledger check`: the live head is signed, and extends the one in `state`; then it is kept there.
pub(crate) async fn ledger_check(
    service: &ClickwrapService,
    tenant: TenantId,
    state: &Path,
) -> Result<String, CheckError> {
    let previous = read_state(state)?;
    if let Some(previous) = &previous
        && previous.tenant_id != tenant.to_string()
    {
        return Err(CheckError::OtherTenant(previous.tenant_id.clone()));
    }
    let live_key = service.ledger_public_key_pem();
    let key_pem = previous.as_ref().map_or(live_key.clone(), |p| p.ledger_key.clone());
    if key_pem.trim() != live_key.trim() {
        return Err(CheckError::KeyChanged);
    }
    let key = public_key_der_from_pem(&key_pem).map_err(|why| state_error(state, why))?;
    let live = service.latest_tree_head(tenant).await?;
    if !verify_tree_head(&live.head, &live.signature, &key) {
        return Err(CheckError::SignatureInvalid(live.head.tree_size));
    }
    let new = live.head.tree_size;
    let outcome = match &previous {
        None => format!("first tree head kept: size {new}, root {}", hex_root(&live)),
        Some(previous) => {
            let old = previous.tree_head.to_signed().map_err(|why| state_error(state, why))?;
            check_extends(service, tenant, &old, &live).await?;
            format!("consistent: size {} -> {new}, root {}", old.head.tree_size, hex_root(&live))
        }
    };
    write_state(
        state,
        &MonitorState {
            tenant_id: tenant.to_string(),
            ledger_key: key_pem,
            tree_head: TreeHeadJson::from(&live),
            checked_at: SystemClock.now().to_rfc3339(),
        },
    )?;
    Ok(format!("ledger check: tenant {tenant}: {outcome}"))
}

fn hex_root(head: &SignedTreeHead) -> String {
    hex::encode(head.head.root_hash)
}

/// The live log extends the old one: the old root is the one kept in the state file, never one
/// the database gives now.
async fn check_extends(
    service: &ClickwrapService,
    tenant: TenantId,
    old: &SignedTreeHead,
    live: &SignedTreeHead,
) -> Result<(), CheckError> {
    let (old_size, new_size) = (old.head.tree_size, live.head.tree_size);
    if new_size < old_size {
        return Err(CheckError::Shrank { old: old_size, new: new_size });
    }
    if new_size == old_size {
        if live.head.root_hash != old.head.root_hash {
            return Err(CheckError::Rewritten(format!("the root of the {old_size} leaves differs from the one kept")));
        }
        return Ok(());
    }
    // Every log extends the empty one.
    if old_size == 0 {
        return Ok(());
    }
    let proof = service.consistency_proof(tenant, old_size, new_size).await?;
    if !verify_consistency(old_size, new_size, &old.head.root_hash, &live.head.root_hash, &proof.consistency_path) {
        return Err(CheckError::Rewritten(format!(
            "no valid consistency proof from the kept head (size {old_size}) to the live one (size {new_size})"
        )));
    }
    Ok(())
}

fn state_error(path: &Path, why: impl ToString) -> CheckError {
    CheckError::State { path: path.to_path_buf(), why: why.to_string() }
}

fn read_state(path: &Path) -> Result<Option<MonitorState>, CheckError> {
    match std::fs::read(path) {
        Ok(bytes) => serde_json::from_slice(&bytes).map(Some).map_err(|e| state_error(path, e)),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(state_error(path, error)),
    }
}

/// Written beside the file and renamed over it, so the file is always one whole state.
fn write_state(path: &Path, state: &MonitorState) -> Result<(), CheckError> {
    let failed = |source| CheckError::WriteState { path: path.to_path_buf(), source };
    let text = serde_json::to_string_pretty(state).map_err(|e| failed(std::io::Error::other(e)))?;
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".tmp");
    let temporary = PathBuf::from(temporary);
    let mut file = std::fs::File::create(&temporary).map_err(failed)?;
    file.write_all(text.as_bytes()).and_then(|()| file.sync_all()).map_err(failed)?;
    std::fs::rename(&temporary, path).map_err(failed)
}
