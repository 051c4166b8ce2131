//! The Certificate of Acceptance renderer and its signing identity. The first instance to start
//! makes a key and a self-signed certificate (unless an operator imported one first); every
//! instance then uses the current one, read from the database, where the private key is kept
//! sealed with the master key.

use clickwrap_domain::keys::management::SIGNING_KEY_BINDING;
use clickwrap_domain::keys::master::MasterKeys;
use clickwrap_domain::ports::Random;
use clickwrap_domain::system::OsRandom;
use clickwrap_pdf::{FontLibrary, PdfRenderer, SigningIdentity, certificate_pem_from_der};
use clickwrap_postgres::{PgStore, StoredSigningIdentity};

use crate::app::StartError;
use crate::config::Config;

pub(crate) async fn renderer(config: &Config, store: &PgStore, master: &MasterKeys) -> Result<PdfRenderer, StartError> {
    let identity = current_identity(store, master).await?;
    let fonts = FontLibrary::from_env();
    // Missing fonts were reported by the font library as it looked for them.
    for (script, path) in fonts.describe().into_iter().filter_map(|(script, file)| Some((script, file?))) {
        tracing::info!(%script, font = %path.display(), "certificate font");
    }
    tracing::info!(fingerprint = %identity.fingerprint_hex(), "certificate signing identity");
    let certificate_url = format!("{}{}", config.public_url, clickwrap_http::SIGNING_CERTIFICATE_PATH);
    let renderer = PdfRenderer::new(identity, fonts, &certificate_url);
    crate::timestamps::with_configured_authority(renderer, config)
}

/// The subject of the self-signed certificates the service makes.
pub(crate) const GENERATED_NAME: &str = "Clickwrap certificate signing";

/// The current signing identity, made (self-signed) when there is none yet.
pub(crate) async fn current_identity(store: &PgStore, master: &MasterKeys) -> Result<SigningIdentity, StartError> {
    let candidate = SigningIdentity::generate(GENERATED_NAME).map_err(other)?;
    let stored = store.ensure_signing_identity(&seal(&candidate, master)?).await?;
    open(&stored, master)
}

/// An identity as it is stored: the private key sealed with the current master key.
pub(crate) fn seal(identity: &SigningIdentity, master: &MasterKeys) -> Result<StoredSigningIdentity, StartError> {
    let sealed = master
        .seal(identity.private_key_pkcs8_der(), OsRandom::default().nonce12(), SIGNING_KEY_BINDING)
        .map_err(other)?;
    Ok(StoredSigningIdentity {
        private_key_sealed: sealed,
        certificate_der: identity.certificate_der().to_vec(),
        chain_der: identity.chain_der().to_vec(),
    })
}

/// A stored identity, opened with the master keys.
pub(crate) fn open(stored: &StoredSigningIdentity, master: &MasterKeys) -> Result<SigningIdentity, StartError> {
    let private_key = master.open(&stored.private_key_sealed, SIGNING_KEY_BINDING).map_err(other)?;
    SigningIdentity::from_der(&private_key, &stored.certificate_der)
        .and_then(|identity| identity.with_chain(stored.chain_der.clone()))
        .map_err(other)
}

/// What `GET /public-client/v1/signing-certificate` serves: the current certificate and its chain,
/// then the certificates of earlier identities, so certificates they signed keep validating.
pub(crate) async fn published_pem(store: &PgStore, current: &SigningIdentity) -> Result<String, StartError> {
    let mut pem = current.chain_pem();
    for record in store.signing_identities().await?.iter().filter(|record| !record.is_current) {
        pem.push_str(&certificate_pem_from_der(&record.identity.certificate_der).map_err(other)?);
    }
    Ok(pem)
}

fn other(error: impl std::fmt::Display) -> StartError {
    StartError::Other(format!("the certificate signing identity could not be prepared: {error}"))
}
