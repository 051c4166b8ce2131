//! Evidence: the events list with its filters and paging, one event's details, its certificate and
//! agreement PDFs, the export of the filtered list, and an end user's consent status.

use actix_web::http::header;
use actix_web::web::{Data, Path};
use actix_web::{HttpRequest, HttpResponse};
use clickwrap_domain::consent::cursor::PageLimit;
use clickwrap_domain::consent::models::{Action, EventFilter, ExportFormat};
use clickwrap_domain::consent::queries::{AgreementError, CertificateError, EventLookupError, ListEventsError};
use clickwrap_domain::{EndUserId, EventId, TemplateId};

use super::{PageResult, chrome, page};
use crate::ConsoleState;
use crate::error::ConsoleError;
use crate::form::{Form, utc_datetime};
use crate::session::{SignedIn, redirect_with};
use crate::views::events::EventFilters;
use crate::views::{self, Section};

impl From<EventLookupError> for ConsoleError {
    fn from(error: EventLookupError) -> Self {
        match error {
            EventLookupError::NotFound => ConsoleError::NotFound("the event"),
            EventLookupError::Storage(e) => e.into(),
        }
    }
}

fn not_accepted() -> ConsoleError {
    ConsoleError::Conflict("The event was declined: only accepted events have a certificate.".into())
}

impl From<CertificateError> for ConsoleError {
    fn from(error: CertificateError) -> Self {
        match error {
            CertificateError::NotFound => ConsoleError::NotFound("the event"),
            CertificateError::NotAccepted => not_accepted(),
            CertificateError::Storage(e) => e.into(),
        }
    }
}

impl From<AgreementError> for ConsoleError {
    fn from(error: AgreementError) -> Self {
        match error {
            AgreementError::NotFound => ConsoleError::NotFound("the event"),
            AgreementError::NotAccepted => not_accepted(),
            AgreementError::Render(e) => {
                tracing::error!(cause = %e, "rendering an agreement failed");
                ConsoleError::Internal
            }
            AgreementError::Storage(e) => e.into(),
        }
    }
}

/// The list's filters as the form sent them, and as the domain reads them.
fn filters(query: &Form) -> (EventFilters, Result<EventFilter, ConsoleError>) {
    let echo = EventFilters {
        template_id: query.text("clickwrapTemplateId").to_owned(),
        end_user_id: query.text("endUserId").to_owned(),
        status: query.text("status").to_owned(),
        from: query.text("from").to_owned(),
        to: query.text("to").to_owned(),
    };
    let parsed = (|| {
        Ok(EventFilter {
            template_id: query
                .optional("clickwrapTemplateId")
                .map(|t| TemplateId::parse(t).map_err(|e| ConsoleError::invalid("Template", e)))
                .transpose()?,
            end_user_id: query
                .optional("endUserId")
                .map(|u| EndUserId::parse(u).map_err(|e| ConsoleError::invalid("End user", e)))
                .transpose()?,
            status: query
                .optional("status")
                .map(|s| Action::parse(s).ok_or_else(|| ConsoleError::Invalid("Action: ACCEPTED or DECLINED.".into())))
                .transpose()?,
            from: query.optional("from").map(|t| utc_datetime(t, "From")).transpose()?,
            to: query.optional("to").map(|t| utc_datetime(t, "To")).transpose()?,
        })
    })();
    (echo, parsed)
}

/// `GET /console/events?clickwrapTemplateId&endUserId&status&from&to&cursor`.
pub(super) async fn list(state: Data<ConsoleState>, session: SignedIn, request: HttpRequest) -> PageResult {
    let query = Form::parse(request.query_string().as_bytes());
    let (echo, filter) = filters(&query);
    let filter = match filter {
        Ok(filter) => filter,
        Err(ConsoleError::Invalid(message)) => return Ok(redirect_with("/console/events", false, &message)),
        Err(e) => return Err(e),
    };
    let listed =
        state.service.list_events(session.tenant_id(), &filter, query.optional("cursor"), PageLimit::DEFAULT).await;
    let events = match listed {
        Ok(events) => events,
        Err(ListEventsError::FromAfterTo) => {
            return Ok(redirect_with("/console/events", false, "From must not be after To."));
        }
        Err(ListEventsError::InvalidCursor) => {
            return Ok(redirect_with("/console/events", false, "That page link is not valid for these filters."));
        }
        Err(ListEventsError::Storage(e)) => return Err(e.into()),
    };
    let templates = state.service.list_templates(session.tenant_id()).await?;
    Ok(page(&session, views::events::list(&chrome(&session, Section::Events), &events, &templates, &echo)))
}

fn event_id(text: &str) -> Result<EventId, ConsoleError> {
    EventId::parse(text).map_err(|_| ConsoleError::NotFound("the event"))
}

/// `GET /console/events/{id}`.
pub(super) async fn detail(state: Data<ConsoleState>, session: SignedIn, path: Path<String>) -> PageResult {
    let details = state.service.event_details(session.tenant_id(), event_id(&path)?).await?;
    let event = &details.event;
    let template = state.service.get_template(session.tenant_id(), event.template_id).await.ok();
    let app = state.service.find_app(session.tenant_id(), event.app_id).await?;
    let template_name = template.as_ref().map_or("(deleted template)", |t| t.name.as_str());
    let app_name = app.as_ref().map_or("(deleted app)", |a| a.name.as_str());
    let markup = views::events::detail(&chrome(&session, Section::Events), &details, template_name, app_name);
    Ok(page(&session, markup))
}

fn pdf(filename: &str, bytes: Vec<u8>) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/pdf")
        .insert_header((header::CONTENT_DISPOSITION, format!("attachment; filename=\"{filename}\"")))
        .body(bytes)
}

/// `GET /console/events/{id}/certificate`: the stored, signed Certificate of Acceptance.
pub(super) async fn certificate(state: Data<ConsoleState>, session: SignedIn, path: Path<String>) -> PageResult {
    let (event, certificate) = state.service.certificate(session.tenant_id(), event_id(&path)?).await?;
    Ok(pdf(&format!("certificate-{}.pdf", event.id), certificate.pdf))
}

/// `GET /console/events/{id}/agreement`: the content as shown, then the certificate, signed.
pub(super) async fn agreement(state: Data<ConsoleState>, session: SignedIn, path: Path<String>) -> PageResult {
    let (event, bytes) = state.service.agreement(session.tenant_id(), event_id(&path)?).await?;
    Ok(pdf(&format!("agreement-{}.pdf", event.id), bytes))
}

/// `GET /console/events/export?format=ndjson|csv` and the list's filters: the operator API's
/// export of the filter the list's form describes.
pub(super) async fn export(state: Data<ConsoleState>, session: SignedIn, request: HttpRequest) -> PageResult {
    let query = Form::parse(request.query_string().as_bytes());
    let (_, filter) = filters(&query);
    let filter = match filter {
        Ok(filter) => filter,
        Err(ConsoleError::Invalid(message)) => return Ok(redirect_with("/console/events", false, &message)),
        Err(e) => return Err(e),
    };
    let format = match query.optional("format").map(ExportFormat::parse) {
        None => ExportFormat::Ndjson,
        Some(Some(format)) => format,
        Some(None) => return Ok(redirect_with("/console/events", false, "Export: choose NDJSON or CSV.")),
    };
    Ok((state.export)(&state.service, session.tenant_id(), filter, format))
}

/// `GET /console/status?endUserId=`: the end user's status over the tenant's templates in force.
pub(super) async fn status(state: Data<ConsoleState>, session: SignedIn, request: HttpRequest) -> PageResult {
    let query = Form::parse(request.query_string().as_bytes());
    let Some(text) = query.optional("endUserId") else {
        return Ok(redirect_with("/console/events", false, "Enter an end user id to look up."));
    };
    let end_user = match EndUserId::parse(text) {
        Ok(end_user) => end_user,
        Err(e) => return Ok(redirect_with("/console/events", false, &format!("End user: {e}"))),
    };
    let view = state.service.tenant_consent_status(session.tenant_id(), &end_user).await?;
    Ok(page(&session, views::events::status(&chrome(&session, Section::Events), text, Some(&view))))
}
