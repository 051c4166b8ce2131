//! Each domain error becomes an HTTP answer here, once.

use actix_web::http::StatusCode;
use actix_web::http::header;
use clickwrap_domain::AppId;
use clickwrap_domain::apps::service::{AppCredentialError, CreateAppError, UpdateAppError};
use clickwrap_domain::consent::queries::{
    AgreementError, CertificateError, EventLookupError, ExportEventsError, ListEventsError, ReAcceptError, StatusError,
};
use clickwrap_domain::consent::service::{ClickwrapQueryError, RecordActionError, VerifyError};
use clickwrap_domain::ports::{RenderError, StorageError};
use clickwrap_domain::service::{AuthError, PublicAppError};
use clickwrap_domain::templates::models::PublishError;
use clickwrap_domain::templates::service::{
    CreateTemplateError, EnableTemplateError, PublishVersionError, SetTemplateAppsError, TemplateError,
};

use crate::problem::ApiError;
use crate::query::ParameterError;

impl From<ParameterError> for ApiError {
    fn from(error: ParameterError) -> Self {
        ApiError::invalid_field(&error.name, error.message)
    }
}

impl From<StorageError> for ApiError {
    fn from(error: StorageError) -> Self {
        match error {
            StorageError::Unavailable(cause) => {
                tracing::warn!(%cause, "storage unavailable");
                ApiError::unavailable()
            }
            StorageError::Internal(cause) => {
                tracing::error!(%cause, "storage failed");
                ApiError::internal()
            }
        }
    }
}

impl From<RenderError> for ApiError {
    fn from(error: RenderError) -> Self {
        tracing::error!(cause = %error, "certificate rendering failed");
        ApiError::internal()
    }
}

impl From<AuthError> for ApiError {
    fn from(error: AuthError) -> Self {
        match error {
            AuthError::InvalidCredentials => ApiError::unauthorized("the credentials are missing or wrong"),
            AuthError::Storage(e) => e.into(),
        }
    }
}

impl From<PublicAppError> for ApiError {
    fn from(error: PublicAppError) -> Self {
        match error {
            PublicAppError::UnknownApp => ApiError::not_found("APP_NOT_FOUND", "the App ID is not valid"),
            PublicAppError::OriginNotAllowed => ApiError::new(
                StatusCode::FORBIDDEN,
                "ORIGIN_NOT_ALLOWED",
                "this origin is not in the app's allowed origins",
            ),
            PublicAppError::Storage(e) => e.into(),
        }
    }
}

fn template_not_found() -> ApiError {
    ApiError::not_found("TEMPLATE_NOT_FOUND", "the template could not be found")
}

impl From<ClickwrapQueryError> for ApiError {
    fn from(error: ClickwrapQueryError) -> Self {
        match error {
            ClickwrapQueryError::NotFound(_) => template_not_found(),
            ClickwrapQueryError::Storage(e) => e.into(),
        }
    }
}

impl From<RecordActionError> for ApiError {
    fn from(error: RecordActionError) -> Self {
        match error {
            RecordActionError::NotFound(_) => template_not_found(),
            RecordActionError::VersionSuperseded(_) => ApiError::bad_request("VERSION_SUPERSEDED", error.to_string()),
            RecordActionError::LanguageNotAvailable(_) => ApiError::invalid_field("language", error.to_string()),
            RecordActionError::ContentMismatch => ApiError::bad_request("CONTENT_MISMATCH", error.to_string()),
            RecordActionError::AgreementModeMismatch(_) => {
                ApiError::bad_request("AGREEMENT_MODE_MISMATCH", error.to_string())
            }
            RecordActionError::PresentedAtOutOfRange => ApiError::invalid_field("presentedAt", error.to_string()),
            RecordActionError::Storage(e) => e.into(),
        }
    }
}

impl From<VerifyError> for ApiError {
    fn from(error: VerifyError) -> Self {
        match error {
            VerifyError::InvalidSignature => ApiError::bad_request("INVALID_SIGNATURE", "the Signature is not valid"),
            VerifyError::SignatureExpired => ApiError::bad_request("SIGNATURE_EXPIRED", "the Signature has expired"),
            VerifyError::AppMismatch => ApiError::new(
                StatusCode::FORBIDDEN,
                "SIGNATURE_APP_MISMATCH",
                "the Signature was issued for another app",
            ),
            VerifyError::AlreadyVerified { event_id } => {
                ApiError::new(StatusCode::CONFLICT, "SIGNATURE_ALREADY_VERIFIED", "the Signature was already verified")
                    .with_extra("clickwrapEventId", event_id.to_string())
            }
            VerifyError::QuotaExceeded { quota, retry_after_secs } => ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "EVENT_QUOTA_EXCEEDED",
                "the event quota of this period is used up",
            )
            .with_header(header::RETRY_AFTER, retry_after_secs.to_string())
            .with_header(header::HeaderName::from_static("ratelimit-limit"), quota.to_string())
            .with_header(header::HeaderName::from_static("ratelimit-remaining"), "0")
            .with_header(header::HeaderName::from_static("ratelimit-reset"), retry_after_secs.to_string()),
            VerifyError::Certificate(e) => e.into(),
            VerifyError::Storage(e) => e.into(),
        }
    }
}

fn invalid_range() -> ApiError {
    let mut e = ApiError::bad_request("INVALID_RANGE", "from must not be after to");
    e.errors.push(crate::problem::FieldError { field: "from".into(), message: "must not be after to".into() });
    e
}

impl From<ListEventsError> for ApiError {
    fn from(error: ListEventsError) -> Self {
        match error {
            ListEventsError::FromAfterTo => invalid_range(),
            ListEventsError::InvalidCursor => {
                ApiError::bad_request("INVALID_CURSOR", "nextPageCursor is not valid for this list")
            }
            ListEventsError::Storage(e) => e.into(),
        }
    }
}

impl From<ExportEventsError> for ApiError {
    fn from(error: ExportEventsError) -> Self {
        match error {
            ExportEventsError::FromAfterTo => invalid_range(),
            ExportEventsError::Storage(e) => e.into(),
        }
    }
}

fn event_not_found() -> ApiError {
    ApiError::not_found("EVENT_NOT_FOUND", "the clickwrap event could not be found")
}

impl From<EventLookupError> for ApiError {
    fn from(error: EventLookupError) -> Self {
        match error {
            EventLookupError::NotFound => event_not_found(),
            EventLookupError::Storage(e) => e.into(),
        }
    }
}

impl From<clickwrap_domain::ledger::service::InclusionProofError> for ApiError {
    fn from(error: clickwrap_domain::ledger::service::InclusionProofError) -> Self {
        use clickwrap_domain::ledger::service::InclusionProofError as E;
        match error {
            E::NotInLedger => ApiError::not_found(
                "EVENT_NOT_IN_LEDGER",
                "the clickwrap event is not in the evidence ledger (unknown, not verified, or verified before the ledger existed)",
            ),
            E::Storage(e) => e.into(),
        }
    }
}

impl From<clickwrap_domain::ledger::service::ConsistencyProofError> for ApiError {
    fn from(error: clickwrap_domain::ledger::service::ConsistencyProofError) -> Self {
        use clickwrap_domain::ledger::service::ConsistencyProofError as E;
        match error {
            e @ E::SizesOutOfRange { .. } => ApiError::bad_request("INVALID_TREE_SIZES", e.to_string()),
            E::Storage(e) => e.into(),
        }
    }
}

fn not_accepted() -> ApiError {
    ApiError::new(
        StatusCode::CONFLICT,
        "NOT_ACCEPTED",
        "the event was declined; only accepted events have a certificate",
    )
}

impl From<CertificateError> for ApiError {
    fn from(error: CertificateError) -> Self {
        match error {
            CertificateError::NotFound => event_not_found(),
            CertificateError::NotAccepted => not_accepted(),
            CertificateError::Storage(e) => e.into(),
        }
    }
}

impl From<AgreementError> for ApiError {
    fn from(error: AgreementError) -> Self {
        match error {
            AgreementError::NotFound => event_not_found(),
            AgreementError::NotAccepted => not_accepted(),
            AgreementError::Render(e) => e.into(),
            AgreementError::Storage(e) => e.into(),
        }
    }
}

impl From<StatusError> for ApiError {
    fn from(error: StatusError) -> Self {
        match error {
            StatusError::TemplateNotFound => template_not_found(),
            StatusError::Storage(e) => e.into(),
        }
    }
}

impl From<ReAcceptError> for ApiError {
    fn from(error: ReAcceptError) -> Self {
        match error {
            ReAcceptError::Empty | ReAcceptError::TooMany => {
                ApiError::bad_request("VALIDATION_FAILED", error.to_string())
            }
            ReAcceptError::ReasonTooLong => ApiError::invalid_field("reason", error.to_string()),
            ReAcceptError::Storage(e) => e.into(),
        }
    }
}

fn app_not_found() -> ApiError {
    ApiError::not_found("APP_NOT_FOUND", "the app could not be found")
}

impl From<CreateAppError> for ApiError {
    fn from(error: CreateAppError) -> Self {
        match error {
            CreateAppError::WebhookUrlRejected(e) => ApiError::bad_request("WEBHOOK_URL_REJECTED", e.to_string()),
            CreateAppError::Storage(e) => e.into(),
        }
    }
}

impl From<UpdateAppError> for ApiError {
    fn from(error: UpdateAppError) -> Self {
        match error {
            UpdateAppError::NotFound => app_not_found(),
            UpdateAppError::WebhookUrlRejected(e) => ApiError::bad_request("WEBHOOK_URL_REJECTED", e.to_string()),
            UpdateAppError::Storage(e) => e.into(),
        }
    }
}

impl From<AppCredentialError> for ApiError {
    fn from(error: AppCredentialError) -> Self {
        match error {
            AppCredentialError::NotFound => app_not_found(),
            AppCredentialError::Storage(e) => e.into(),
        }
    }
}

impl From<TemplateError> for ApiError {
    fn from(error: TemplateError) -> Self {
        match error {
            TemplateError::NotFound => template_not_found(),
            TemplateError::Storage(e) => e.into(),
        }
    }
}

fn unknown_app(app: AppId) -> ApiError {
    ApiError::invalid_field("appIds", format!("{app} is not an app of this tenant"))
}

impl From<CreateTemplateError> for ApiError {
    fn from(error: CreateTemplateError) -> Self {
        match error {
            CreateTemplateError::UnknownApp(app) => unknown_app(app),
            CreateTemplateError::Storage(e) => e.into(),
        }
    }
}

impl From<SetTemplateAppsError> for ApiError {
    fn from(error: SetTemplateAppsError) -> Self {
        match error {
            SetTemplateAppsError::NotFound => template_not_found(),
            SetTemplateAppsError::UnknownApp(app) => unknown_app(app),
            SetTemplateAppsError::Storage(e) => e.into(),
        }
    }
}

impl From<PublishVersionError> for ApiError {
    fn from(error: PublishVersionError) -> Self {
        match error {
            PublishVersionError::NotFound => template_not_found(),
            PublishVersionError::Invalid(PublishError::UnknownPlaceholder(e)) => {
                ApiError::bad_request("UNKNOWN_PLACEHOLDER", e.to_string())
            }
            PublishVersionError::Invalid(PublishError::EmptyDraft) => {
                ApiError::bad_request("EMPTY_DRAFT", "the draft has no content to publish")
            }
            PublishVersionError::Invalid(e @ PublishError::EffectiveBeforePrevious { .. }) => {
                ApiError::invalid_field("effectiveAt", e.to_string())
            }
            PublishVersionError::Invalid(PublishError::Exhausted(e)) => {
                ApiError::bad_request("VERSION_EXHAUSTED", e.to_string())
            }
            PublishVersionError::Conflict => ApiError::new(
                StatusCode::CONFLICT,
                "PUBLISH_CONFLICT",
                "another version was published at the same time",
            ),
            PublishVersionError::Storage(e) => e.into(),
        }
    }
}

impl From<EnableTemplateError> for ApiError {
    fn from(error: EnableTemplateError) -> Self {
        match error {
            EnableTemplateError::NotFound => template_not_found(),
            EnableTemplateError::NoVersion(_) => {
                ApiError::bad_request("NO_VERSION", "a template can be enabled only after a version was published")
            }
            EnableTemplateError::Storage(e) => e.into(),
        }
    }
}

impl From<clickwrap_domain::webhooks::history::ListDeliveriesError> for ApiError {
    fn from(error: clickwrap_domain::webhooks::history::ListDeliveriesError) -> Self {
        use clickwrap_domain::webhooks::history::ListDeliveriesError as E;
        match error {
            E::AppNotFound => app_not_found(),
            E::InvalidCursor => ApiError::bad_request("INVALID_CURSOR", "nextPageCursor is not valid for this list"),
            E::Storage(e) => e.into(),
        }
    }
}

impl From<clickwrap_domain::webhooks::history::RedeliverError> for ApiError {
    fn from(error: clickwrap_domain::webhooks::history::RedeliverError) -> Self {
        use clickwrap_domain::webhooks::history::RedeliverError as E;
        match error {
            E::NotFound => ApiError::not_found("DELIVERY_NOT_FOUND", "the webhook delivery could not be found"),
            E::Storage(e) => e.into(),
        }
    }
}

impl From<clickwrap_domain::tenants::models::ForbiddenRole> for ApiError {
    fn from(error: clickwrap_domain::tenants::models::ForbiddenRole) -> Self {
        ApiError::new(StatusCode::FORBIDDEN, "FORBIDDEN_ROLE", error.to_string())
    }
}

impl From<clickwrap_domain::tenants::service::CreateOperatorTokenError> for ApiError {
    fn from(error: clickwrap_domain::tenants::service::CreateOperatorTokenError) -> Self {
        use clickwrap_domain::tenants::service::CreateOperatorTokenError as E;
        match error {
            E::InvalidName(e) => ApiError::invalid_field("name", e),
            E::UnknownTenant => ApiError::unauthorized("the credentials are missing or wrong"),
            E::Storage(e) => e.into(),
        }
    }
}

impl From<clickwrap_domain::tenants::service::RevokeOperatorTokenError> for ApiError {
    fn from(error: clickwrap_domain::tenants::service::RevokeOperatorTokenError) -> Self {
        use clickwrap_domain::tenants::service::RevokeOperatorTokenError as E;
        match error {
            E::NotFound => ApiError::not_found("OPERATOR_TOKEN_NOT_FOUND", "the operator token could not be found"),
            E::Storage(e) => e.into(),
        }
    }
}

impl From<clickwrap_domain::audit::service::AuditLogError> for ApiError {
    fn from(error: clickwrap_domain::audit::service::AuditLogError) -> Self {
        use clickwrap_domain::audit::service::AuditLogError as E;
        match error {
            E::InvalidCursor => ApiError::bad_request("INVALID_CURSOR", "nextPageCursor is not valid for this list"),
            E::Storage(e) => e.into(),
        }
    }
}
