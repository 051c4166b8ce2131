//! `GET /operator/v1/events/export`: every verified event matching the events list's filters,
//! newest first, streamed as NDJSON (one details object a line) or CSV, fetched in batches so that
//! memory stays bounded however many events match.

use actix_web::HttpResponse;
use actix_web::http::header;
use actix_web::web::Bytes;
use clickwrap_domain::TenantId;
use clickwrap_domain::consent::cursor::EventPosition;
use clickwrap_domain::consent::models::EventDetails;
use clickwrap_domain::consent::models::EventFilter;
use clickwrap_domain::service::ClickwrapService;
use serde_json::Value;

use crate::problem::{ApiError, ApiResult};
use crate::query::QueryParams;
use crate::wire;

/// Events fetched per query while streaming.
const BATCH: usize = 500;

/// The export formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportFormat {
    /// One JSON object per line, each exactly the event's details answer.
    Ndjson,
    /// A header row, then one row per event; nested values as JSON text.
    Csv,
}

impl ExportFormat {
    fn parse(text: &str) -> Option<Self> {
        match text {
            "ndjson" => Some(Self::Ndjson),
            "csv" => Some(Self::Csv),
            _ => None,
        }
    }

    fn content_type(self) -> &'static str {
        match self {
            Self::Ndjson => "application/x-ndjson; charset=utf-8",
            Self::Csv => "text/csv; charset=utf-8",
        }
    }

    fn extension(self) -> &'static str {
        match self {
            Self::Ndjson => "ndjson",
            Self::Csv => "csv",
        }
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
pub fn events_export(service: &ClickwrapService, tenant: TenantId, query: &str) -> ApiResult<HttpResponse> {
    let query = QueryParams::parse(query);
    let format = match query.get("format")? {
        None => ExportFormat::Ndjson,
        Some(text) => {
            ExportFormat::parse(text).ok_or_else(|| ApiError::invalid_field("format", "must be ndjson or csv"))?
        }
    };
    let filter = wire::events::list_query(&query)?.filter;
    // Checked before the status line goes out: after it, an error can only cut the body short.
    if !filter.range_is_valid() {
        return Err(clickwrap_domain::consent::queries::ListEventsError::FromAfterTo.into());
    }
    let stream = batches(service.clone(), tenant, filter, format);
    Ok(HttpResponse::Ok()
        .content_type(format.content_type())
        .insert_header((header::CACHE_CONTROL, "private, no-store"))
        .insert_header((
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"clickwrap-events.{}\"", format.extension()),
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
            let (after, mut chunk) = match progress {
                Progress::Done => return None,
                Progress::Start if format == ExportFormat::Csv => (None, csv_row(CSV_COLUMNS.map(Value::from))),
                Progress::Start => (None, String::new()),
                Progress::After(position) => (Some(position), String::new()),
            };
            match service.export_events_batch(tenant, &filter, after, BATCH).await {
                Ok((items, next)) => {
                    for details in &items {
                        chunk.push_str(&line(format, details));
                    }
                    let progress = next.map_or(Progress::Done, Progress::After);
                    Some((Ok(Bytes::from(chunk)), progress))
                }
                Err(error) => {
                    // The status line is gone; ending the body early is the only way left to say it.
                    tracing::error!(%error, "an events export failed mid-stream");
                    Some((Err(ApiError::from(error).into()), Progress::Done))
                }
            }
        }
    })
}

fn line(format: ExportFormat, details: &EventDetails) -> String {
    let value = wire::events::details(details);
    match format {
        ExportFormat::Ndjson => format!("{value}\n"),
        ExportFormat::Csv => csv_row(CSV_COLUMNS.map(|column| value.get(column).cloned().unwrap_or(Value::Null))),
    }
}

/// One CSV row (RFC 4180): every cell quoted; strings as they are, other values as JSON, null as
/// empty. A cell a spreadsheet would run as a formula gets a leading `'` (NDJSON stays exact).
fn csv_row<const N: usize>(cells: [Value; N]) -> String {
    let mut row = String::new();
    for (index, cell) in cells.iter().enumerate() {
        if index > 0 {
            row.push(',');
        }
        let text = match cell {
            Value::Null => String::new(),
            Value::String(text) => text.clone(),
            other => other.to_string(),
        };
        let guarded = if text.starts_with(['=', '+', '-', '@', '\t', '\r']) { format!("'{text}") } else { text };
        row.push('"');
        row.push_str(&guarded.replace('"', "\"\""));
        row.push('"');
    }
    row.push_str("\r\n");
    row
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_cells_are_quoted_escaped_and_defused() {
        let row = csv_row([
            Value::from("plain"),
            Value::from("say \"hi\", twice\nplease"),
            Value::from("=HYPERLINK(\"x\")"),
            Value::Null,
            Value::from(3),
            serde_json::json!({"a": 1}),
        ]);
        assert_eq!(
            row,
            "\"plain\",\"say \"\"hi\"\", twice\nplease\",\"'=HYPERLINK(\"\"x\"\")\",\"\",\"3\",\"{\"\"a\"\":1}\"\r\n"
        );
    }
}
