//! `GET /operator/v1/events/export`: every verified event matching the events list's filters,
//! newest first, streamed as NDJSON (one details object a line) or CSV, fetched in batches so that
//! memory stays bounded however many events match.

use actix_web::HttpResponse;
use actix_web::http::header;
use actix_web::web::Bytes;
use clickwrap_domain::TenantId;
use clickwrap_domain::consent::cursor::EventPosition;
use clickwrap_domain::consent::models::EventDetails;
use clickwrap_domain::consent::models::{EventFilter, ExportFormat};
use clickwrap_domain::service::ClickwrapService;
use serde_json::Value;

use crate::list_query::ListQuery;
use crate::problem::{ApiError, ApiResult};
use crate::query::QueryParams;
use crate::wire;

/// Events fetched per query while streaming.
const BATCH: usize = 500;

/// The `Content-Type` of an export in `format`.
fn content_type(format: ExportFormat) -> &'static str {
    match format {
        ExportFormat::Ndjson => "application/x-ndjson; charset=utf-8",
        ExportFormat::Csv => "text/csv; charset=utf-8",
    }
}

/// The CSV columns: the details fields, nested ones as JSON.
const CSV_COLUMNS: [&str; 17] = [
    "clickwrapEventId",
    "clickwrapEventStatus",
    "clickwrapTemplateId",
    "clickwrapTemplateVersion",
    "clickwrapTemplateVersionMinor",
    "endUserId",
    "language",
    "presentedAt",
    "actionAt",
    "effectiveAt",
    "contentHash",
    "certificateSha256",
    "templatePlaceholders",
    "technicalMetadata",
    "presentation",
    "webhook",
    "content",
];

/// The streaming answer for an export request with this query string (`format` and the events
/// list's filters); a bad parameter answers 400 before anything is streamed.
pub(crate) fn events_export(service: &ClickwrapService, tenant: TenantId, query: &str) -> ApiResult<HttpResponse> {
    let query = QueryParams::parse(query);
    let format = match query.get("format")? {
        None => ExportFormat::Ndjson,
        Some(text) => {
            ExportFormat::parse(text).ok_or_else(|| ApiError::invalid_field("format", "must be ndjson or csv"))?
        }
    };
    let filter = ListQuery::parse(&query)?.filter;
    export_response(service, tenant, filter, format)
}

/// The streaming answer for the tenant's verified events matching `filter`, in `format` (the
/// console hands its parsed filters here); a range from after its end answers 400.
pub fn export_response(
    service: &ClickwrapService,
    tenant: TenantId,
    filter: EventFilter,
    format: ExportFormat,
) -> ApiResult<HttpResponse> {
    // Checked before the status line goes out: after it, an error can only cut the body short.
    if !filter.range_is_valid() {
        return Err(clickwrap_domain::consent::queries::ExportEventsError::FromAfterTo.into());
    }
    let stream = batches(service.clone(), tenant, filter, format);
    Ok(HttpResponse::Ok()
        .content_type(content_type(format))
        .insert_header((header::CACHE_CONTROL, "private, no-store"))
        .insert_header((
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"clickwrap-events.{}\"", format.as_str()),
        ))
        .streaming(stream))
}

/// Where the export stands between batches.
enum Progress {
    Start,
    After(EventPosition),
    Done,
}

fn batches(
    service: ClickwrapService,
    tenant: TenantId,
    filter: EventFilter,
    format: ExportFormat,
) -> impl futures_util::Stream<Item = Result<Bytes, actix_web::Error>> {
    futures_util::stream::unfold(Progress::Start, move |progress| {
        let service = service.clone();
        let filter = filter.clone();
        async move {
            let (after, first) = match progress {
                Progress::Done => return None,
                Progress::Start => (None, true),
                Progress::After(position) => (Some(position), false),
            };
            // The status line is gone; ending the body early is the only way left to say it.
            let error = match service.export_events_batch(tenant, &filter, after, BATCH).await {
                Ok((items, next)) => match chunk(format, first, &items) {
                    Ok(chunk) => {
                        return Some((Ok(Bytes::from(chunk)), next.map_or(Progress::Done, Progress::After)));
                    }
                    Err(error) => {
                        tracing::error!(%error, "an events export could not write CSV; its body ends here");
                        ApiError::internal()
                    }
                },
                Err(error) => {
                    let error = ApiError::from(error);
                    tracing::error!(%error, "an events export failed mid-stream");
                    error
                }
            };
            Some((Err(error.into()), Progress::Done))
        }
    })
}

/// One batch as the export's bytes; a CSV export's first batch starts with the header row. Writing
/// CSV into memory does not fail with rows of one length, but the writer's type says it could.
fn chunk(format: ExportFormat, first: bool, items: &[EventDetails]) -> Result<Vec<u8>, csv::Error> {
    let values = items.iter().map(wire::events::details);
    match format {
        ExportFormat::Ndjson => Ok(values.map(|value| format!("{value}\n")).collect::<String>().into_bytes()),
        ExportFormat::Csv => {
            let header = first.then(|| CSV_COLUMNS.map(Value::from));
            let rows = values.map(|value| CSV_COLUMNS.map(|column| value.get(column).cloned().unwrap_or(Value::Null)));
            csv_rows(header.into_iter().chain(rows))
        }
    }
}

/// CSV rows (RFC 4180, CRLF line ends): every cell quoted; strings as they are, other values as
/// JSON, null as empty. A cell a spreadsheet would run as a formula gets a leading `'` (NDJSON
/// stays exact).
fn csv_rows<const N: usize>(rows: impl IntoIterator<Item = [Value; N]>) -> Result<Vec<u8>, csv::Error> {
    let mut writer = csv::WriterBuilder::new()
        .quote_style(csv::QuoteStyle::Always)
        .terminator(csv::Terminator::CRLF)
        .from_writer(Vec::new());
    for row in rows {
        writer.write_record(row.iter().map(cell))?;
    }
    writer.into_inner().map_err(|error| error.into_error().into())
}

fn cell(value: &Value) -> String {
    let text = match value {
        Value::Null => String::new(),
        Value::String(text) => text.clone(),
        other => other.to_string(),
    };
    if text.starts_with(['=', '+', '-', '@', '\t', '\r']) { format!("'{text}") } else { text }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_cells_are_quoted_escaped_and_defused() {
        let row = csv_rows([[
            Value::from("plain"),
            Value::from("say \"hi\", twice\nplease"),
            Value::from("=HYPERLINK(\"x\")"),
            Value::Null,
            Value::from(3),
            serde_json::json!({"a": 1}),
        ]])
        .unwrap();
        let row = String::from_utf8(row).unwrap();
        assert_eq!(
            row,
            "\"plain\",\"say \"\"hi\"\", twice\nplease\",\"'=HYPERLINK(\"\"x\"\")\",\"\",\"3\",\"{\"\"a\"\":1}\"\r\n"
        );
    }
}
