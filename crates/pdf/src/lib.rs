//! Certificate of Acceptance and agreement PDFs, digitally signed.
//!
//! [`PdfRenderer`] implements the domain's [`CertificateRenderer`] port. It lays out the facts of a
//! clickwrap event (and, for the agreement, the content exactly as shown) with real, extractable
//! text in embedded font subsets, and signs the file with the installation's
//! [`SigningIdentity`]: a PAdES baseline signature (`ETSI.CAdES.detached`, ECDSA P-256 or RSA
//! with SHA-256, the certificate chain embedded) that anyone can validate against the certificate
//! the service publishes at [`SIGNING_CERTIFICATE_PATH`] or against its CA's root.
//!
//! With a [`TimestampAuthority`] ([`PdfRenderer::with_timestamp_authority`]), the Certificate of
//! Acceptance's signature carries an RFC 3161 timestamp (PAdES B-T); when the authority fails, the
//! certificate is signed without it (B-B), a warning is logged and [`TimestampCounts`] counts it.
//! The agreement PDF, rendered again for every download and the same file each time, is never
//! timestamped (B-B).
//!
//! Fonts are found once, when the renderer is built ([`FontLibrary::from_env`]); rendering does
//! no IO. A script without a font falls back to the built-in Courier and logs a warning: a missing
//! font never fails a verification.
//!
//! Architecture invariant: this crate depends on the domain only; it knows nothing of storage,
//! HTTP or the server's configuration, which hands it a base URL, a font library, an identity and
//! maybe a timestamp authority (whose HTTP client is the server's).

mod cache;
mod certificate;
mod fonts;
mod html;
mod identity;
mod layout;
mod sign;
mod text;
mod timestamp;
pub mod verify;
mod writer;

use std::sync::Arc;

use async_trait::async_trait;
use clickwrap_domain::ports::{CertificateFacts, CertificateRenderer, RenderError};

pub use fonts::{FONT_DIR_ENV, FontLibrary};
pub use identity::{IdentityError, KeyAlgorithm, SigningIdentity, certificate_pem_from_der, certificates_from_pem};
pub use timestamp::{
    TIMESTAMP_QUERY_MEDIA_TYPE, TIMESTAMP_REPLY_MEDIA_TYPE, TimestampAuthority, TimestampCounts, TimestampError,
    TimestampRequest,
};

use crate::certificate::Validation;
use crate::layout::Composer;
use crate::sign::PendingSignature;
use crate::writer::{DocumentInfo, write_pdf};

/// Where the service publishes its signing certificate (PEM), relative to its public base URL.
pub const SIGNING_CERTIFICATE_PATH: &str = "/public-client/v1/signing-certificate";

/// Renders and signs Certificates of Acceptance and agreement PDFs.
#[derive(Debug)]
pub struct PdfRenderer {
    identity: SigningIdentity,
    fonts: FontLibrary,
    validation: Validation,
    timestamps: Option<Arc<dyn TimestampAuthority>>,
    timestamp_counts: Arc<TimestampCounts>,
}

impl PdfRenderer {
    /// `public_base_url` is the service's public address (`https://consent.example.com`), which the
    /// certificate names as where to fetch the signing certificate.
    pub fn new(identity: SigningIdentity, fonts: FontLibrary, public_base_url: &str) -> Self {
        let validation = Validation {
            certificate_url: format!("{}{SIGNING_CERTIFICATE_PATH}", public_base_url.trim_end_matches('/')),
            fingerprint: identity.fingerprint_hex(),
            key_algorithm: identity.key_algorithm().to_string(),
        };
        PdfRenderer { identity, fonts, validation, timestamps: None, timestamp_counts: Arc::default() }
    }

    /// Timestamps the signature of every Certificate of Acceptance (PAdES B-T) with `authority`.
    pub fn with_timestamp_authority(self, authority: Arc<dyn TimestampAuthority>) -> Self {
        PdfRenderer { timestamps: Some(authority), ..self }
    }

    /// Certificates timestamped, and certificates signed without a timestamp because the
    /// authority failed, since this renderer was made.
    pub fn timestamp_counts(&self) -> Arc<TimestampCounts> {
        self.timestamp_counts.clone()
    }

    pub fn identity(&self) -> &SigningIdentity {
        &self.identity
    }

    pub fn fonts(&self) -> &FontLibrary {
        &self.fonts
    }

    /// Lays out and writes the PDF and signs it; the CMS is written in by the caller, with a
    /// timestamp token or without.
    fn render(
        &self,
        facts: &CertificateFacts,
        with_agreement: bool,
        timestamped: bool,
    ) -> Result<PendingSignature, RenderError> {
        let event = &facts.event;
        let mut composer = Composer::new(&self.fonts);
        let (kind, title) = if with_agreement {
            certificate::agreement(&mut composer, facts);
            ("Clickwrap agreement", format!("Clickwrap agreement: {} {}", event.template_name, event.version))
        } else {
            ("Certificate of Acceptance", format!("Certificate of Acceptance: {}", event.template_name))
        };
        let first_certificate_page = if with_agreement { composer.pages.len() } else { 0 };
        certificate::certificate(&mut composer, facts, &self.validation);
        let signature_page = if with_agreement {
            // `certificate` starts a fresh page unless the last one was still empty.
            first_certificate_page.min(composer.pages.len().saturating_sub(1))
        } else {
            0
        };
        certificate::footers(&mut composer, facts, kind);
        let (pages, missing) = composer.finish();
        if missing > 0 {
            tracing::warn!(
                event_id = %event.id,
                missing,
                "characters no installed font can show were drawn as '?' (see {FONT_DIR_ENV})"
            );
        }
        let signed_at = event.verified_at.unwrap_or(event.action_at).as_datetime();
        let info = DocumentInfo {
            title,
            subject: format!("Clickwrap event {} by end user {}", event.id, event.end_user_id.as_str()),
            language: event.language.code().to_owned(),
            signing_time: signed_at,
            reason: format!("{kind} for clickwrap event {}", event.id),
            signature_page,
            timestamped,
        };
        write_pdf(&self.fonts, &pages, &info, &self.identity).map_err(|error| RenderError(error.to_string()))
    }

    /// The timestamp token for the pending signature, or why there is none.
    async fn timestamp(
        &self,
        authority: &dyn TimestampAuthority,
        pending: &PendingSignature,
    ) -> Result<Vec<u8>, String> {
        let digest = ring::digest::digest(&ring::digest::SHA256, pending.signature_value());
        let mut imprint = [0_u8; 32];
        imprint.copy_from_slice(digest.as_ref());
        let token = authority.timestamp(imprint).await.map_err(|error| error.to_string())?;
        // A token too large for the room reserved is a failure like any other: checked here, so
        // that the certificate is still signed (without it).
        pending.signed_pdf(Some(&token)).map_err(|error| error.to_string())
    }
}

#[async_trait]
impl CertificateRenderer for PdfRenderer {
    async fn render_certificate(&self, facts: &CertificateFacts) -> Result<Vec<u8>, RenderError> {
        let pending = self.render(facts, false, self.timestamps.is_some())?;
        let Some(authority) = &self.timestamps else {
            return pending.signed_pdf(None).map_err(|error| RenderError(error.to_string()));
        };
        match self.timestamp(authority.as_ref(), &pending).await {
            Ok(pdf) => {
                self.timestamp_counts.count(true);
                Ok(pdf)
            }
            Err(error) => {
                self.timestamp_counts.count(false);
                tracing::warn!(
                    event_id = %facts.event.id,
                    %error,
                    "the certificate's signature could not be timestamped; it is signed without a timestamp (PAdES B-B)"
                );
                pending.signed_pdf(None).map_err(|error| RenderError(error.to_string()))
            }
        }
    }

    fn render_agreement(&self, facts: &CertificateFacts) -> Result<Vec<u8>, RenderError> {
        self.render(facts, true, false)?.signed_pdf(None).map_err(|error| RenderError(error.to_string()))
    }
}
