//! `clickwrap-server master-key …`, `server-keys …` and `signing-identity …`: key handling without
//! hand-written SQL. Each prints what it did as JSON on stdout.

use std::path::PathBuf;

use clap::Subcommand;
use clickwrap_domain::keys::KeyId;
use clickwrap_domain::keys::management::{Resealer, delete_server_key, list_server_keys, rotate_server_key};
use clickwrap_domain::keys::master::MasterKeys;
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
        "ledgerKeys": counts.ledger_keys,
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

#[derive(Debug, Subcommand)]
pub(crate) enum SigningIdentityCommand {
    /// The certificate signing identities, the current one first.
    List,
    /// Make a new self-signed identity current; certificates signed before keep validating.
    Rotate,
    /// Make your own certificate (issued by a CA) the signing identity: a PKCS#12 file (password
    /// from CLICKWRAP_PKCS12_PASSWORD or typed at the prompt), or PEM files.
    Import {
        #[arg(long, conflicts_with_all = ["cert", "key", "chain"], required_unless_present = "cert")]
        pkcs12: Option<PathBuf>,
        /// The certificate (PEM); may hold the chain after it.
        #[arg(long, requires = "key")]
        cert: Option<PathBuf>,
        /// The private key (PEM, not encrypted): PKCS#8, SEC1 (EC) or PKCS#1 (RSA).
        #[arg(long, requires = "cert")]
        key: Option<PathBuf>,
        /// The certificates above it, up to the root (PEM).
        #[arg(long, requires = "cert")]
        chain: Option<PathBuf>,
    },
}

pub(crate) async fn signing_identity(
    store: &PgStore,
    master: &MasterKeys,
    command: SigningIdentityCommand,
) -> Result<serde_json::Value, String> {
    let made = match command {
        SigningIdentityCommand::List => {
            let mut listed = Vec::new();
            for record in store.signing_identities().await.map_err(|e| e.to_string())? {
                let mut shown = match crate::certificates::open(&record.identity, master) {
                    Ok(identity) => describe(&identity),
                    Err(error) => serde_json::Map::from_iter([("unreadable".to_owned(), json!(error.to_string()))]),
                };
                shown.insert("current".to_owned(), json!(record.is_current));
                shown.insert("createdAt".to_owned(), json!(rfc3339(record.created_at)));
                shown.insert("replacedAt".to_owned(), json!(record.replaced_at.map(rfc3339)));
                listed.push(shown);
            }
            return Ok(json!(listed));
        }
        SigningIdentityCommand::Rotate => clickwrap_pdf::SigningIdentity::generate(crate::certificates::GENERATED_NAME),
        SigningIdentityCommand::Import { pkcs12: Some(file), .. } => {
            let bytes = std::fs::read(&file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
            clickwrap_pdf::SigningIdentity::from_pkcs12(&bytes, &pkcs12_password()?)
        }
        SigningIdentityCommand::Import { cert: Some(cert), key: Some(key), chain, .. } => {
            let read = |path: &PathBuf| {
                std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
            };
            let chain = chain.as_ref().map(read).transpose()?;
            clickwrap_pdf::SigningIdentity::from_pem(&read(&key)?, &read(&cert)?, chain.as_deref())
        }
        SigningIdentityCommand::Import { .. } => return Err("give --pkcs12 FILE, or --cert and --key".to_owned()),
    };
    let identity = made.map_err(|e| e.to_string())?;
    let stored = crate::certificates::seal(&identity, master).map_err(|e| e.to_string())?;
    store.replace_signing_identity(&stored).await.map_err(|e| e.to_string())?;
    eprintln!("Restart the instances: each reads the signing identity at start-up.");
    let mut shown = describe(&identity);
    shown.insert("current".to_owned(), json!(true));
    Ok(serde_json::Value::Object(shown))
}

fn describe(identity: &clickwrap_pdf::SigningIdentity) -> serde_json::Map<String, serde_json::Value> {
    serde_json::Map::from_iter([
        ("subject".to_owned(), json!(identity.common_name())),
        ("issuer".to_owned(), json!(identity.issuer_common_name())),
        ("fingerprint".to_owned(), json!(identity.fingerprint_hex())),
        ("keyAlgorithm".to_owned(), json!(identity.key_algorithm().to_string())),
        ("notBefore".to_owned(), json!(rfc3339(identity.not_before()))),
        ("notAfter".to_owned(), json!(rfc3339(identity.not_after()))),
        ("chainLength".to_owned(), json!(identity.chain_der().len())),
    ])
}

fn rfc3339(at: time::OffsetDateTime) -> String {
    at.format(&time::format_description::well_known::Rfc3339).unwrap_or_default()
}

/// From CLICKWRAP_PKCS12_PASSWORD, or typed at the prompt (not echoed when the input is a terminal).
fn pkcs12_password() -> Result<String, String> {
    if let Ok(password) = std::env::var("CLICKWRAP_PKCS12_PASSWORD") {
        return Ok(password);
    }
    use std::io::IsTerminal;
    let terminal = std::io::stdin().is_terminal();
    eprint!("PKCS#12 password: ");
    let echo = |on: bool| {
        if terminal {
            let _ = std::process::Command::new("stty").arg(if on { "echo" } else { "-echo" }).status();
        }
    };
    echo(false);
    let mut password = String::new();
    let read = std::io::stdin().read_line(&mut password);
    echo(true);
    eprintln!();
    read.map_err(|e| format!("cannot read the password: {e}"))?;
    Ok(password.trim_end_matches(['\r', '\n']).to_owned())
}
