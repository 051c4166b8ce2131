//! The Certificate of Acceptance renderer and its signing identity. The first instance to start
//! makes the key and self-signed certificate; every instance then uses that one, read from the
//! database where the private key is kept sealed with the server keyring.

use clickwrap_domain::ports::Random;
use clickwrap_domain::secrets::SecretBox;
use clickwrap_domain::service::load_keyring;
use clickwrap_domain::system::OsRandom;
use clickwrap_pdf::{FontLibrary, PdfRenderer, SigningIdentity};
use clickwrap_postgres::{PgStore, StoredSigningIdentity};

use crate::app::StartError;
use crate::config::Config;

/// Ties the sealed private key to its purpose, so it cannot be swapped for another sealed secret.
const BINDING: &[u8] = b"clickwrap/certificate-signing-key";

pub(crate) async fn renderer(config: &Config, store: &PgStore) -> Result<PdfRenderer, StartError> {
    let random = OsRandom::default();
    let keyring = load_keyring(store, &random).await?;
    let candidate = SigningIdentity::generate("Clickwrap certificate signing").map_err(other)?;
    let sealed = SecretBox::seal(keyring.current(), candidate.private_key_pkcs8_der(), random.nonce12(), BINDING)
        .map_err(other)?;
    let stored = store
        .ensure_signing_identity(&StoredSigningIdentity {
            private_key_sealed: sealed,
            certificate_der: candidate.certificate_der().to_vec(),
        })
        .await?;
    let private_key = SecretBox::open(&keyring, &stored.private_key_sealed, BINDING).map_err(other)?;
    let identity = SigningIdentity::from_der(&private_key, &stored.certificate_der).map_err(other)?;
    let fonts = FontLibrary::from_env();
    // Missing fonts were reported by the font library as it looked for them.
    for (script, path) in fonts.describe().into_iter().filter_map(|(script, file)| Some((script, file?))) {
        tracing::info!(%script, font = %path.display(), "certificate font");
    }
    tracing::info!(fingerprint = %identity.fingerprint_hex(), "certificate signing identity");
    let renderer = PdfRenderer::new(identity, fonts, &config.public_url);
    crate::timestamps::with_configured_authority(renderer, config)
}

fn other(error: impl std::fmt::Display) -> StartError {
    StartError::Other(format!("the certificate signing identity could not be prepared: {error}"))
}
