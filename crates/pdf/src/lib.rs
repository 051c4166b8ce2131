//! Certificate of Acceptance and agreement PDFs, digitally signed.
//!
//! [`PdfRenderer`] implements the domain's [`CertificateRenderer`] port. It lays out the facts of a
//! clickwrap event (and, for the agreement, the content exactly as shown) with real, extractable
//! text in embedded font subsets, and signs the file with the installation's
//! [`SigningIdentity`]: a detached CMS signature (`adbe.pkcs7.detached`, ECDSA P-256 with
//! SHA-256) that anyone can validate against the certificate the service publishes at
//! [`SIGNING_CERTIFICATE_PATH`].
//!
//! Fonts are found once, when the renderer is built ([`FontLibrary::from_env`]); rendering does
//! no IO. A script without a font falls back to the built-in Courier and logs a warning: a missing
//! font never fails a verification.
//!
//! Architecture invariant: this crate depends on the domain only; it knows nothing of storage,
//! HTTP or the server's configuration, which hands it a base URL, a font library and an identity.

mod certificate;
mod fonts;
mod html;
mod identity;
mod layout;
mod sign;
mod text;
mod writer;

use clickwrap_domain::ports::{CertificateFacts, CertificateRenderer, RenderError};

pub use fonts::{FONT_DIR_ENV, FontLibrary};
pub use identity::{IdentityError, SigningIdentity};

use crate::certificate::Validation;
use crate::layout::Composer;
use crate::writer::{DocumentInfo, write_pdf};

/// Where the service publishes its signing certificate (PEM), relative to its public base URL.
pub const SIGNING_CERTIFICATE_PATH: &str = "/public-client/v1/signing-certificate";

/// Renders and signs Certificates of Acceptance and agreement PDFs.
#[derive(Debug)]
pub struct PdfRenderer {
    identity: SigningIdentity,
    fonts: FontLibrary,
    validation: Validation,
}

impl PdfRenderer {
    /// `public_base_url` is the service's public address (`https://consent.example.com`), which the
    /// certificate names as where to fetch the signing certificate.
    pub fn new(identity: SigningIdentity, fonts: FontLibrary, public_base_url: &str) -> Self {
        let validation = Validation {
            certificate_url: format!("{}{SIGNING_CERTIFICATE_PATH}", public_base_url.trim_end_matches('/')),
            fingerprint: identity.fingerprint_hex(),
        };
        PdfRenderer { identity, fonts, validation }
    }

    pub fn identity(&self) -> &SigningIdentity {
        &self.identity
    }

    pub fn fonts(&self) -> &FontLibrary {
        &self.fonts
    }

    fn render(&self, facts: &CertificateFacts, with_agreement: bool) -> Result<Vec<u8>, RenderError> {
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
        };
        write_pdf(&self.fonts, &pages, &info, &self.identity).map_err(|error| RenderError(error.to_string()))
    }
}

impl CertificateRenderer for PdfRenderer {
    fn render_certificate(&self, facts: &CertificateFacts) -> Result<Vec<u8>, RenderError> {
        self.render(facts, false)
    }

    fn render_agreement(&self, facts: &CertificateFacts) -> Result<Vec<u8>, RenderError> {
        self.render(facts, true)
    }
}
