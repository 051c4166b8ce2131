//! `clickwrap-server master-key …`, `server-keys …` and `signing-identity …`: key handling without
//! hand-written SQL. Each prints what it did as JSON on stdout.

use std::path::PathBuf;

use clap::Subcommand;
use clickwrap_domain::keys::{KeyId, MasterKeys, Resealer, delete_server_key, list_server_keys, rotate_server_key};
use clickwrap_domain::ports::{Clock, KeyStore, Random};
use clickwrap_domain::system::{OsRandom, SystemClock};
use clickwrap_postgres::PgStore;
use serde_json::json;

use crate::config::Config;

#[derive(Debug, Subcommand)]
pub(crate) enum MasterKeyCommand {
    /// Make a new master key: 32 random bytes, base64. Written to --out (readable by its owner
    /// only, never over an existing file) or printed.
    Generate {
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Seal every stored secret (server keys, certificate signing keys, webhook secrets) with the
    /// current master key, in one transaction. Opens them with the current key or
    /// CLICKWRAP_MASTER_KEY_PREVIOUS_FILE; also seals a database made before master keys.
    Rotate,
}

#[derive(Debug, Subcommand)]
pub(crate) enum ServerKeysCommand {
    /// The server keys (which sign Signatures, cursors and console forms), current first.
    List,
    /// Make a new current server key; the old one keeps verifying what it signed.
    Rotate,
    /// Delete a replaced key once the Signatures it made have expired (--force: sooner).
    Delete {
        #[arg(long)]
        key_id: String,
        #[arg(long)]
        force: bool,
    },
}

pub(crate) fn generate(out: Option<PathBuf>) -> Result<(), String> {
    let key = crate::master_key::generate();
    match out {
        Some(path) => {
            crate::master_key::write_new_file(&path, &key).map_err(|e| e.to_string())?;
            println!("{}", json!({"masterKeyId": key.id().as_str(), "file": path.display().to_string()}));
        }
        None => print!("{}", crate::master_key::encode(&key)),
    }
    Ok(())
}

/// Re-seals everything with the current master key.
pub(crate) async fn reseal_everything(store: &PgStore, master: &MasterKeys) -> Result<serde_json::Value, String> {
    let server_keys = store.server_keys().await.map_err(|e| e.to_string())?;
    let resealer = Resealer::new(master, &server_keys).map_err(|e| e.to_string())?;
    let random = OsRandom::default();
    let counts = store
        .reseal_all(&|secret| resealer.reseal(secret, random.nonce12()))
        .await
        .map_err(|e| format!("nothing was changed: {e}"))?;
    Ok(json!({
        "masterKeyId": master.current_id().as_str(),
        "serverKeys": counts.server_keys,
        "signingKeys": counts.signing_keys,
        "webhookSecrets": counts.webhook_secrets,
    }))
}

pub(crate) async fn server_keys(
    store: &PgStore,
    config: &Config,
    master: &MasterKeys,
    command: ServerKeysCommand,
) -> Result<serde_json::Value, String> {
    let ttl = time::Duration::try_from(config.signature_ttl).map_err(|e| e.to_string())?;
    match command {
        ServerKeysCommand::List => {
            let keys = list_server_keys(store, ttl).await.map_err(|e| e.to_string())?;
            Ok(json!(
                keys.iter()
                    .map(|key| json!({
                        "id": key.id.as_str(),
                        "current": key.is_current,
                        "createdAt": key.created_at.to_rfc3339(),
                        "replacedAt": key.replaced_at.map(|at| at.to_rfc3339()),
                        "deletableFrom": key.deletable_from.map(|at| at.to_rfc3339()),
                        "sealedWith": key.sealed_with.as_ref().map(KeyId::as_str),
                    }))
                    .collect::<Vec<_>>()
            ))
        }
        ServerKeysCommand::Rotate => {
            let id = rotate_server_key(store, &OsRandom::default(), master, SystemClock.now())
                .await
                .map_err(|e| e.to_string())?;
            Ok(json!({"currentKeyId": id.as_str()}))
        }
        ServerKeysCommand::Delete { key_id, force } => {
            let id = KeyId::parse(&key_id).map_err(|e| e.to_string())?;
            delete_server_key(store, &id, SystemClock.now(), ttl, force).await.map_err(|e| e.to_string())?;
            Ok(json!({"deletedKeyId": id.as_str()}))
        }
    }
}
