//! `clickwrap-server`: the clickwrap consent service.
//!
//! ```text
//! clickwrap-server serve                 run the service
//! clickwrap-server demo                  run it with a demo tenant, app and template, and a /demo page
//! clickwrap-server migrate               create and migrate the database, then exit
//! clickwrap-server tenant create --name N [--event-quota Q] [--legal-name L]
//! clickwrap-server tenant set-quota --tenant-id ID (--event-quota Q | --unlimited)
//! clickwrap-server tenant set-legal-name --tenant-id ID (--legal-name L | --clear)
//! clickwrap-server master-key generate [--out FILE]
//! clickwrap-server master-key rotate     seal every stored secret with the current master key
//! clickwrap-server server-keys list | rotate | delete --key-id ID [--force]
//! clickwrap-server signing-identity list | rotate | import (--pkcs12 FILE | --cert PEM --key PEM [--chain PEM])
//! clickwrap-server export --tenant ID --out DIR     write a tenant's evidence bundle (docs/ledger.md)
//! clickwrap-server verify-bundle DIR                check a bundle offline (no database, no network)
//! clickwrap-server ledger check --tenant ID --state FILE   check the ledger only grew since FILE's head
//! ```
//! Configuration comes from the environment (see docs/configuration.md), optionally read first
//! from a `KEY=VALUE` file given with `--config`.

// A command-line program prints its results and errors by design.
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod app;
mod certificates;
mod config;
mod cpu;
mod demo;
mod demo_cluster;
mod key_commands;
mod ledger_commands;
mod master_key;
mod metrics;
mod pages;
mod telemetry;
mod timestamps;

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Parser, Subcommand};
use clickwrap_domain::TenantId;

use crate::config::{Config, ConfigError};

#[derive(Debug, Parser)]
#[command(name = "clickwrap-server", version, about = "A self-hostable clickwrap consent service")]
struct Cli {
    /// A file of KEY=VALUE lines read before the environment (the environment wins).
    #[arg(long, global = true, env = "CLICKWRAP_CONFIG")]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the service.
    Serve,
    /// Run the service with a demo tenant, app and template (made once), and a /demo page.
    Demo,
    /// Create the database if it is missing, apply the migrations, and exit. With
    /// CLICKWRAP_MIGRATION_DATABASE_URL, as that (owner) role, and the role of DATABASE_URL is then
    /// granted what the server needs.
    Migrate,
    /// Manage tenants.
    Tenant {
        #[command(subcommand)]
        command: TenantCommand,
    },
    /// The master key, which seals every secret the database holds.
    MasterKey {
        #[command(subcommand)]
        command: key_commands::MasterKeyCommand,
    },
    /// The server keys, which sign Signatures.
    ServerKeys {
        #[command(subcommand)]
        command: key_commands::ServerKeysCommand,
    },
    /// The key and certificate that sign Certificates of Acceptance.
    SigningIdentity {
        #[command(subcommand)]
        command: key_commands::SigningIdentityCommand,
    },
    /// Write a tenant's evidence bundle (every ledger event's record, content, certificate and
    /// inclusion proof, the signed tree head and the public keys) into a new or empty directory.
    Export {
        #[arg(long)]
        tenant: String,
        #[arg(long)]
        out: PathBuf,
    },
    /// Check an evidence bundle offline (no database, no network, no master key); exits 0 only
    /// when every record, hash, proof and signature holds, and names each failure otherwise.
    VerifyBundle { dir: PathBuf },
    /// Monitor the evidence ledger.
    Ledger {
        #[command(subcommand)]
        command: ledger_commands::LedgerCommand,
    },
}

#[derive(Debug, Subcommand)]
enum TenantCommand {
    /// Create a tenant and its first operator token; prints {"tenantId", "operatorToken"} as JSON.
    Create {
        #[arg(long)]
        name: String,
        /// Verified events allowed per calendar month; unlimited when left out.
        #[arg(long)]
        event_quota: Option<u64>,
        /// The operator's legal name, printed on every Certificate of Acceptance.
        #[arg(long)]
        legal_name: Option<String>,
    },
    /// Set (or clear) the operator's legal name that certificates print from now on.
    SetLegalName {
        #[arg(long)]
        tenant_id: String,
        #[arg(long, conflicts_with = "clear", required_unless_present = "clear")]
        legal_name: Option<String>,
        #[arg(long)]
        clear: bool,
    },
    /// Change a tenant's monthly event quota.
    SetQuota {
        #[arg(long)]
        tenant_id: String,
        #[arg(long, conflicts_with = "unlimited", required_unless_present = "unlimited")]
        event_quota: Option<u64>,
        #[arg(long)]
        unlimited: bool,
    },
}

fn load_config(file: Option<&PathBuf>) -> Result<Config, ConfigError> {
    let from_file = match file {
        Some(path) => config::read_file(path)?,
        None => Default::default(),
    };
    Config::from_lookup(|name| std::env::var(name).ok().or_else(|| from_file.get(name).cloned()))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // Needs nothing but the bundle: no configuration, database or key.
    if let Command::VerifyBundle { dir } = &cli.command {
        return match ledger_commands::verify_bundle_command(dir) {
            Ok(true) => ExitCode::SUCCESS,
            Ok(false) => ExitCode::FAILURE,
            Err(error) => {
                eprintln!("clickwrap-server: {error}");
                ExitCode::FAILURE
            }
        };
    }
    let config = match load_config(cli.config.as_ref()) {
        Ok(config) => config,
        Err(error) => {
            eprintln!("clickwrap-server: {error}");
            return ExitCode::from(2);
        }
    };
    telemetry::init(config.log_format, &config.log_filter);
    let runtime = actix_web::rt::System::new();
    match runtime.block_on(run(cli.command, config)) {
        Ok(()) => ExitCode::SUCCESS,
        Err((code, message)) => {
            eprintln!("clickwrap-server: {message}");
            ExitCode::from(code)
        }
    }
}

async fn run(command: Command, config: Config) -> Result<(), (u8, String)> {
    let fail = |e: app::StartError| (e.exit_code(), e.explain());
    if let Command::MasterKey { command: key_commands::MasterKeyCommand::Generate { out } } = command {
        return key_commands::generate(out).map_err(|m| (1, m));
    }
    // The demo may run a private PostgreSQL, stopped when `cluster` goes at the end of the demo.
    let cluster = match command {
        Command::Demo => demo_cluster::start_if_needed(&config.database_url).await.map_err(|e| (1, e.explain()))?,
        _ => None,
    };
    let config = match &cluster {
        Some(cluster) => Config {
            database_url: cluster.url().clone(),
            migration_database_url: None,
            database_pooler: config::Pooler::None,
            database_direct_url: None,
            ..config
        },
        None => config,
    };
    let store = app::prepare_database(&config).await.map_err(fail)?;
    match command {
        Command::Migrate => {
            eprintln!("database {} is migrated", config.schema_url());
            if let Some(role) = app::serving_role(&config) {
                eprintln!("the serving role {role:?} (DATABASE_URL) has the privileges the server needs");
            }
            Ok(())
        }
        Command::MasterKey { command: _ } => {
            let master = app::master_keys(&config).map_err(fail)?;
            let report = key_commands::reseal_everything(&store, &master).await.map_err(|m| (1, m))?;
            println!("{report}");
            Ok(())
        }
        Command::ServerKeys { command } => {
            let master = app::master_keys(&config).map_err(fail)?;
            let report = key_commands::server_keys(&store, &config, &master, command).await.map_err(|m| (1, m))?;
            println!("{report}");
            Ok(())
        }
        Command::SigningIdentity { command } => {
            let master = app::master_keys(&config).map_err(fail)?;
            let report = key_commands::signing_identity(&store, &master, command).await.map_err(|m| (1, m))?;
            println!("{report}");
            Ok(())
        }
        Command::Export { tenant, out } => {
            let tenant = TenantId::parse(&tenant).map_err(|e| (2, format!("--tenant: {e}")))?;
            let master = app::master_keys(&config).map_err(fail)?;
            let (service, signing_certificates_pem) = app::service(&config, &store, master).await.map_err(fail)?;
            let report = ledger_commands::export(&store, &service, &signing_certificates_pem, tenant, &out)
                .await
                .map_err(|e| (1, format!("export failed: {e}")))?;
            println!("{report}");
            Ok(())
        }
        Command::Ledger { command: ledger_commands::LedgerCommand::Check { tenant, state } } => {
            let tenant = TenantId::parse(&tenant).map_err(|e| (2, format!("--tenant: {e}")))?;
            let master = app::master_keys(&config).map_err(fail)?;
            let (service, _) = app::service(&config, &store, master).await.map_err(fail)?;
            let line = ledger_commands::ledger_check(&service, tenant, &state)
                .await
                .map_err(|e| (1, format!("ledger check FAILED, {} left as it was: {e}", state.display())))?;
            println!("{line}");
            Ok(())
        }
        // Handled in `main`, before any configuration or database.
        Command::VerifyBundle { .. } => Ok(()),
        Command::Tenant { command } => {
            let master = app::master_keys(&config).map_err(fail)?;
            let (service, _) = app::service(&config, &store, master).await.map_err(fail)?;
            tenant(&service, command).await.map_err(|m| (1, m))
        }
        Command::Serve => {
            let master = app::master_keys(&config).map_err(fail)?;
            let service = app::service(&config, &store, master).await.map_err(fail)?;
            app::serve(config, store, service, Arc::new(pages::sdk_routes)).await.map_err(fail)
        }
        Command::Demo => {
            let key_file = cluster.as_ref().map_or_else(
                || PathBuf::from(master_key::DEMO_KEY_FILE),
                |cluster| cluster.directory().join("master.key"),
            );
            let master = demo_master_keys(&config, &store, &key_file).await?;
            let service = app::service(&config, &store, master).await.map_err(fail)?;
            let credentials =
                demo::ensure(&service.0, &store, &config.database_url).await.map_err(|e| (1, e.to_string()))?;
            print_demo(&config, &credentials, cluster.as_ref());
            let routes = move |routes: &mut actix_web::web::ServiceConfig| {
                pages::sdk_routes(routes);
                pages::demo_routes(routes, credentials.clone());
            };
            app::serve(config, store, service, Arc::new(routes)).await.map_err(fail)
        }
    }
}

/// The demo runs without setup: without a configured master key it keeps one in a local file
/// (and says so), and it seals the secrets of a database made before master keys.
async fn demo_master_keys(
    config: &Config,
    store: &clickwrap_postgres::PgStore,
    key_file: &std::path::Path,
) -> Result<clickwrap_domain::keys::master::MasterKeys, (u8, String)> {
    let master = match &config.master_keys {
        Some(keys) => keys.clone(),
        None => {
            let (key, made) = master_key::demo_key(key_file).map_err(|e| (1, e.to_string()))?;
            let file = key_file.display();
            if made {
                eprintln!("Made a master key for the demo in {file} (keep it: it seals the demo database's secrets).");
            } else {
                eprintln!("Using the demo's master key in {file}.");
            }
            clickwrap_domain::keys::master::MasterKeys::new(key, None)
        }
    };
    let keys = clickwrap_domain::ports::KeyStore::server_keys(store).await.map_err(|e| (1, e.to_string()))?;
    if keys.iter().any(|key| matches!(key.material, clickwrap_domain::keys::models::StoredKeyMaterial::Clear(_))) {
        let report = key_commands::reseal_everything(store, &master).await.map_err(|m| (1, m))?;
        eprintln!("Sealed the secrets of this database (made before master keys) with the master key: {report}");
    }
    Ok(master)
}

async fn tenant(service: &clickwrap_domain::service::ClickwrapService, command: TenantCommand) -> Result<(), String> {
    match command {
        TenantCommand::Create { name, event_quota, legal_name } => {
            // Checked before the tenant exists, so a bad name leaves nothing half made.
            if let Some(legal) = &legal_name {
                clickwrap_domain::Name::parse(legal).map_err(|e| format!("legal name: {e}"))?;
            }
            let (tenant, token) = service.create_tenant(&name, event_quota).await.map_err(|e| e.to_string())?;
            if let Some(legal) = &legal_name {
                service.set_legal_name(tenant.id, Some(legal)).await.map_err(|e| e.to_string())?;
            }
            println!("{}", serde_json::json!({"tenantId": tenant.id.to_string(), "operatorToken": token.expose()}));
            Ok(())
        }
        TenantCommand::SetQuota { tenant_id, event_quota, unlimited } => {
            let id = TenantId::parse(&tenant_id).map_err(|e| e.to_string())?;
            let quota = if unlimited { None } else { event_quota };
            service.set_event_quota(id, quota).await.map_err(|e| e.to_string())?;
            println!("{}", serde_json::json!({"tenantId": id.to_string(), "eventQuota": quota}));
            Ok(())
        }
        TenantCommand::SetLegalName { tenant_id, legal_name, clear } => {
            let id = TenantId::parse(&tenant_id).map_err(|e| e.to_string())?;
            let legal_name = if clear { None } else { legal_name };
            service.set_legal_name(id, legal_name.as_deref()).await.map_err(|e| e.to_string())?;
            println!("{}", serde_json::json!({"tenantId": id.to_string(), "legalName": legal_name}));
            Ok(())
        }
    }
}

fn print_demo(config: &Config, credentials: &demo::DemoCredentials, cluster: Option<&demo_cluster::PrivateCluster>) {
    let base = &config.public_url;
    let d = &credentials.installation;
    println!("Clickwrap demo is ready.");
    println!("  Demo page:        {base}/demo");
    println!("  Operator console: {base}/console  (one click from the demo page, or sign in with the operator token)");
    println!("  Tenant ID:        {}", d.tenant_id);
    println!("  App ID:           {}", d.app_id);
    println!("  App Key:          {}", credentials.app_key);
    println!("  Operator token:   {}", credentials.operator_token);
    println!("  Template ID:      {}", d.template_id);
    println!("  API:              {base}/public-client/v1  (OpenAPI: {base}/openapi.json)");
    if let Some(cluster) = cluster {
        println!(
            "  Database:         a private PostgreSQL on 127.0.0.1:{}, data in {} (stopped with the demo)",
            cluster.port(),
            cluster.directory().display()
        );
    }
    println!("The App Key and operator token stay the same from one start to the next.");
}
