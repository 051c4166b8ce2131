//! The one value per server that [`crate::api`] is built with: the routes read it as app data,
//! and the unknown-parameter check is handed its documented parameters when the app is built.

use clickwrap_domain::service::ClickwrapService;
use clickwrap_domain::webhooks::cidr::AllowCidrs;

use crate::client_ip::TrustedProxies;
use crate::openapi::DocumentedParameters;

/// What the routes share.
#[derive(Debug)]
pub struct ApiState {
    pub service: ClickwrapService,
    pub trusted_proxies: TrustedProxies,
    /// The PEM certificate that signs Certificates of Acceptance, served for anyone to validate them.
    pub signing_certificate_pem: String,
    /// Address ranges a webhook URL may point at although they are not public
    /// (`CLICKWRAP_WEBHOOK_ALLOW_CIDRS`).
    pub webhook_allow: AllowCidrs,
    /// The query parameters each operation takes, for the unknown-parameter check
    /// ([`DocumentedParameters::compiled`], read once at start-up).
    pub documented_parameters: DocumentedParameters,
}
