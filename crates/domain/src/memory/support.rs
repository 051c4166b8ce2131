use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use async_trait::async_trait;
use time::Duration;

use crate::Timestamp;
use crate::consent::models::CertificateFacts;
use crate::ports::{
    CertificateRenderer, Clock, IdGenerator, Random, RenderError, WebhookTargetGuard, WebhookTargetRejected,
};
use crate::webhooks::url::WebhookUrl;

/// A clock that stands still until a test moves it.
#[derive(Debug)]
pub struct ManualClock(Mutex<Timestamp>);

impl ManualClock {
    pub fn new(start: Timestamp) -> Self {
        Self(Mutex::new(start))
    }

    pub fn advance(&self, by: Duration) {
        let mut now = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        *now = now.saturating_add(by);
    }

    pub fn set(&self, to: Timestamp) {
        *self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = to;
    }
}

impl Clock for ManualClock {
    fn now(&self) -> Timestamp {
        *self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// UUIDs counting up from 1, so tests read well and ordering is predictable.
#[derive(Debug, Default)]
pub struct SequentialIds(AtomicU64);

impl IdGenerator for SequentialIds {
    fn new_uuid(&self) -> uuid::Uuid {
        let n = self.0.fetch_add(1, Ordering::Relaxed) + 1;
        uuid::Uuid::from_u128(u128::from(n))
    }
}

/// Deterministic, distinct bytes on every call (SHA-256 of a counter). Not secret: tests only.
#[derive(Debug, Default)]
pub struct SeededRandom(AtomicU64);

impl Random for SeededRandom {
    fn fill(&self, dest: &mut [u8]) {
        for chunk in dest.chunks_mut(32) {
            let n = self.0.fetch_add(1, Ordering::Relaxed);
            let digest = ring::digest::digest(&ring::digest::SHA256, &n.to_be_bytes());
            for (byte, source) in chunk.iter_mut().zip(digest.as_ref()) {
                *byte = *source;
            }
        }
    }
}

/// Accepts every syntactically valid webhook URL (no DNS here).
#[derive(Debug, Default, Clone, Copy)]
pub struct AllowAllWebhookTargets;

#[async_trait]
impl WebhookTargetGuard for AllowAllWebhookTargets {
    async fn vet(&self, _url: &WebhookUrl) -> Result<(), WebhookTargetRejected> {
        Ok(())
    }
}

/// Writes the certificate's facts as plain text: enough for tests of the flow around it, not a PDF.
#[derive(Debug, Default, Clone, Copy)]
pub struct TextCertificateRenderer;

#[async_trait]
impl CertificateRenderer for TextCertificateRenderer {
    async fn render_certificate(&self, facts: &CertificateFacts) -> Result<Vec<u8>, RenderError> {
        Ok(certificate_text(facts))
    }

    /// The content as shown (its HTML, verbatim), then the certificate text.
    fn render_agreement(&self, facts: &CertificateFacts) -> Result<Vec<u8>, RenderError> {
        let mut text = format!("Clickwrap agreement\n{}\n\n", facts.event.content).into_bytes();
        text.extend(certificate_text(facts));
        Ok(text)
    }
}

fn certificate_text(facts: &CertificateFacts) -> Vec<u8> {
    let event = &facts.event;
    format!(
        "Certificate of Acceptance\nevent {}\ntemplate {} {} v{}\nend user {}\naction {} at {}\napp {}\ncontent {}\n",
        event.id,
        event.template_id,
        event.template_name,
        event.version,
        event.end_user_id,
        event.status.as_str(),
        event.action_at,
        facts.app_name,
        event.content_hash.as_str(),
    )
    .into_bytes()
}
