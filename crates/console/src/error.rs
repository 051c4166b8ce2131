//! What a console request can fail with, and what each failure answers: the sign-in page's
//! redirect for a missing session, else an error page with its status. Storage, sign-in and role
//! errors become one of these here; each use case's own error is mapped once, next to the routes
//! that call it (`pages/templates.rs`, `pages/apps.rs`, `pages/evidence.rs`, `pages/operators.rs`).
//! A form's value refused (`Invalid`) or a conflict goes back to the form as a notice
//! (`pages::back_on_invalid`) rather than to the error page.

use actix_web::http::{StatusCode, header};
use actix_web::{HttpResponse, ResponseError};
use clickwrap_domain::ports::StorageError;
use clickwrap_domain::service::AuthError;
use clickwrap_domain::tenants::models::ForbiddenRole;
use maud::{DOCTYPE, html};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum ConsoleError {
    /// No session, or it ended: to the sign-in page.
    #[error("Please sign in.")]
    SignedOut,
    /// The request did not carry the session's CSRF token.
    #[error("The form has expired or did not come from this console. Reload the page and try again.")]
    Csrf,
    /// A VIEWER asked to change something.
    #[error("This operator token has the VIEWER role, which cannot change anything.")]
    ForbiddenRole,
    #[error("Sorry, {0} could not be found.")]
    NotFound(&'static str),
    /// The submitted values are not acceptable; the message says which and why.
    #[error("{0}")]
    Invalid(String),
    #[error("{0}")]
    Conflict(String),
    #[error("The database cannot be reached right now. Try again in a moment.")]
    Unavailable,
    #[error("Something went wrong on the server. It has been logged.")]
    Internal,
}

impl ConsoleError {
    pub(crate) fn invalid(field: &str, error: impl std::fmt::Display) -> Self {
        Self::Invalid(format!("{field}: {error}"))
    }
}

impl From<StorageError> for ConsoleError {
    fn from(error: StorageError) -> Self {
        match error {
            StorageError::Unavailable(cause) => {
                tracing::warn!(%cause, "storage unavailable");
                Self::Unavailable
            }
            StorageError::Internal(cause) => {
                tracing::error!(%cause, "storage failed");
                Self::Internal
            }
        }
    }
}

impl From<AuthError> for ConsoleError {
    fn from(error: AuthError) -> Self {
        match error {
            AuthError::InvalidCredentials => Self::SignedOut,
            AuthError::Storage(e) => e.into(),
        }
    }
}

impl From<ForbiddenRole> for ConsoleError {
    fn from(_: ForbiddenRole) -> Self {
        Self::ForbiddenRole
    }
}

impl ResponseError for ConsoleError {
    fn status_code(&self) -> StatusCode {
        match self {
            Self::SignedOut => StatusCode::SEE_OTHER,
            Self::Csrf | Self::ForbiddenRole => StatusCode::FORBIDDEN,
            Self::NotFound(_) => StatusCode::NOT_FOUND,
            Self::Invalid(_) => StatusCode::BAD_REQUEST,
            Self::Conflict(_) => StatusCode::CONFLICT,
            Self::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
            Self::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        if *self == Self::SignedOut {
            return HttpResponse::SeeOther().insert_header((header::LOCATION, "/console/login")).finish();
        }
        let status = self.status_code();
        let title = status.canonical_reason().unwrap_or("Error");
        let page = html! {
            (DOCTYPE)
            html lang="en" {
                head {
                    meta charset="utf-8";
                    meta name="viewport" content="width=device-width, initial-scale=1";
                    title { (title) " · Clickwrap console" }
                    link rel="stylesheet" href="/console/assets/console.css";
                }
                body {
                    main id="main" class="error-page" {
                        h1 { (title) }
                        p role="alert" { (self.to_string()) }
                        p { a href="/console" { "Back to the console" } }
                    }
                }
            }
        };
        let mut response = HttpResponse::build(status);
        if matches!(self, Self::Unavailable) {
            response.insert_header((header::RETRY_AFTER, "5"));
        }
        response.content_type("text/html; charset=utf-8").body(page.into_string())
    }
}
