//! Certificate of Acceptance and agreement PDFs, digitally signed.
//!
//! [`PdfRenderer`] implements the domain's [`CertificateRenderer`] port. It lays out the facts of a
//! clickwrap event (and, for the agreement, the content exactly as shown) with real, extractable
//! text in embedded font subsets, and signs the file with the installation's
//! [`SigningIdentity`]: a PAdES baseline signature (`ETSI.CAdES.detached`, ECDSA P-256 or RSA
//! with SHA-256, the certificate chain embedded) that anyone can validate against the certificate
//! the service publishes (at the URL the server hands to [`PdfRenderer::new`]) or against its CA's
//! root.
//!
//! With a [`TimestampAuthority`] ([`PdfRenderer::with_timestamp_authority`]), the Certificate of
//! Acceptance's signature carries an RFC 3161 timestamp (PAdES B-T); when the authority fails, the
//! certificate is signed without it (B-B), a warning is logged and [`TimestampCounts`] counts it.
//! The room for the token is the authority's last token's length and a margin; a token that does
//! not fit makes the certificate be signed and stamped again with room for it.
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
mod file;
mod fonts;
mod html;
mod identity;
mod layout;
mod sfnt;
mod sign;
mod text;
mod timestamp;
pub mod verify;
mod writer;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use async_trait::async_trait;
use clickwrap_domain::consent::models::CertificateFacts;
use clickwrap_domain::ports::{CertificateRenderer, RenderError};

pub use fonts::{FONT_DIR_ENV, FontLibrary};
pub use identity::{IdentityError, KeyAlgorithm, SigningIdentity, certificate_pem_from_der, certificates_from_pem};
pub use timestamp::{
    TIMESTAMP_QUERY_MEDIA_TYPE, TIMESTAMP_REPLY_MEDIA_TYPE, TimestampAuthority, TimestampCounts, TimestampError,
    TimestampRequest,
};

use crate::certificate::Validation;
use crate::layout::Composer;
use crate::sign::{PendingSignature, SignError};
use crate::writer::{DocumentInfo, write_pdf};

/// Room reserved for a renderer's first timestamp token, before it has seen one: a token with
/// one certificate. A larger token makes that certificate be signed and stamped again.
const FIRST_TOKEN_ROOM: usize = 2048;

/// Added to the length of the authority's last token: its tokens differ by a few bytes (serial
/// number, nonce, signature value, fractions of a second).
const TOKEN_MARGIN: usize = 64;

/// Renders and signs Certificates of Acceptance and agreement PDFs.
#[derive(Debug)]
pub struct PdfRenderer {
    identity: SigningIdentity,
    fonts: FontLibrary,
    validation: Validation,
    timestamps: Option<Arc<dyn TimestampAuthority>>,
    timestamp_counts: Arc<TimestampCounts>,
    /// The length of the last timestamp token received (0: none yet): the signature's room for
    /// the next one is sized by it, as the reservation is hex that no compression reduces.
    last_token_len: AtomicUsize,
}

/// Why a certificate's signature has no timestamp token.
enum Unstamped {
    /// The token is larger than the room reserved for it.
    TooLarge {
        token_len: usize,
    },
    Failed(String),
}

impl PdfRenderer {
    /// `signing_certificate_url` is where the service publishes its signing certificate (PEM), which
    /// the certificate names; the composer knows the service's address and routes, this crate not.
    pub fn new(identity: SigningIdentity, fonts: FontLibrary, signing_certificate_url: &str) -> Self {
        let validation = Validation {
            certificate_url: signing_certificate_url.to_owned(),
            fingerprint: identity.fingerprint_hex(),
            key_algorithm: identity.key_algorithm().to_string(),
        };
        PdfRenderer {
            identity,
            fonts,
            validation,
            timestamps: None,
            timestamp_counts: Arc::default(),
            last_token_len: AtomicUsize::new(0),
        }
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
    /// timestamp token (of at most `token_room` bytes) or without.
    fn render(
        &self,
        facts: &CertificateFacts,
        with_agreement: bool,
        token_room: Option<usize>,
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
            // The event is named by the document's subject and text; the reason says what it is.
            reason: kind.to_owned(),
            signature_page,
            token_room,
        };
        write_pdf(&self.fonts, &pages, &info, &self.identity).map_err(|error| RenderError(error.to_string()))
    }

    /// Room for the next timestamp token: the last one's length and a margin.
    fn token_room(&self) -> usize {
        match self.last_token_len.load(Ordering::Relaxed) {
            0 => FIRST_TOKEN_ROOM,
            len => len + TOKEN_MARGIN,
        }
    }

    /// The pending signature with a timestamp token written in, or why there is none.
    async fn timestamp(
        &self,
        authority: &dyn TimestampAuthority,
        pending: &PendingSignature,
    ) -> Result<Vec<u8>, Unstamped> {
        let digest = ring::digest::digest(&ring::digest::SHA256, pending.signature_value());
        let mut imprint = [0_u8; 32];
        imprint.copy_from_slice(digest.as_ref());
        let token = authority.timestamp(imprint).await.map_err(|error| Unstamped::Failed(error.to_string()))?;
        self.last_token_len.store(token.len(), Ordering::Relaxed);
        pending.signed_pdf(Some(&token)).map_err(|error| match error {
            SignError::TooLarge { .. } => Unstamped::TooLarge { token_len: token.len() },
            other => Unstamped::Failed(other.to_string()),
        })
    }
}

#[async_trait]
impl CertificateRenderer for PdfRenderer {
    async fn render_certificate(&self, facts: &CertificateFacts) -> Result<Vec<u8>, RenderError> {
        let Some(authority) = &self.timestamps else {
            return self.render(facts, false, None)?.signed_pdf(None).map_err(|error| RenderError(error.to_string()));
        };
        let mut pending = self.render(facts, false, Some(self.token_room()))?;
        let mut outcome = self.timestamp(authority.as_ref(), &pending).await;
        if let Err(Unstamped::TooLarge { token_len }) = outcome {
            // The token is over the signature value, which is over the reservation's size: a
            // larger room needs a fresh signature and a fresh token.
            pending = self.render(facts, false, Some(token_len + TOKEN_MARGIN))?;
            outcome = self.timestamp(authority.as_ref(), &pending).await;
        }
        let error = match outcome {
            Ok(pdf) => {
                self.timestamp_counts.count(true);
                return Ok(pdf);
            }
            Err(Unstamped::TooLarge { token_len }) => format!(
                "the timestamp token ({token_len} bytes) does not fit the room reserved for it ({} bytes of signature)",
                pending.reserved()
            ),
            Err(Unstamped::Failed(error)) => error,
        };
        self.timestamp_counts.count(false);
        tracing::warn!(
            event_id = %facts.event.id,
            %error,
            "the certificate's signature could not be timestamped; it is signed without a timestamp (PAdES B-B)"
        );
        pending.signed_pdf(None).map_err(|error| RenderError(error.to_string()))
    }

    fn render_agreement(&self, facts: &CertificateFacts) -> Result<Vec<u8>, RenderError> {
        self.render(facts, true, None)?.signed_pdf(None).map_err(|error| RenderError(error.to_string()))
    }
}
