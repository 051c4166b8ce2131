//! The query of a paged list: the events list's filters, its cursor and the page size, as the
//! events routes and the export read them.

use clickwrap_domain::consent::cursor::PageLimit;
use clickwrap_domain::consent::models::{Action, EventFilter};
use clickwrap_domain::{EndUserId, TemplateId, Timestamp};

use crate::problem::{ApiError, ApiResult};
use crate::query::QueryParams;

/// The events list's query: filters, cursor and page size.
pub(crate) struct ListQuery {
    pub(crate) filter: EventFilter,
    pub(crate) cursor: Option<String>,
    pub(crate) limit: PageLimit,
}

/// The `limit` of a paged list: 1 to 100, default 20.
pub(crate) fn page_limit(query: &QueryParams) -> ApiResult<PageLimit> {
    match query.get("limit")? {
        None => Ok(PageLimit::DEFAULT),
        Some(text) => text
            .parse::<i64>()
            .ok()
            .and_then(|n| PageLimit::parse(n).ok())
            .ok_or_else(|| ApiError::invalid_field("limit", "must be an integer from 1 to 100")),
    }
}

impl ListQuery {
    /// The events list's filters, `nextPageCursor` and `limit`; each bad one is named.
    pub(crate) fn parse(query: &QueryParams) -> ApiResult<Self> {
        let status =
            query.parsed("clickwrapEventStatus", |s| Action::parse(s).ok_or("must be ACCEPTED or DECLINED"))?;
        let filter = EventFilter {
            template_id: query.parsed("clickwrapTemplateId", TemplateId::parse)?,
            end_user_id: query.parsed("endUserId", EndUserId::parse)?,
            status,
            from: query.parsed("from", Timestamp::parse_rfc3339)?,
            to: query.parsed("to", Timestamp::parse_rfc3339)?,
        };
        let limit = page_limit(query)?;
        let cursor = match query.get("nextPageCursor")? {
            Some("") => {
                return Err(ApiError::bad_request("INVALID_CURSOR", "nextPageCursor is not valid for this list"));
            }
            other => other.map(str::to_owned),
        };
        Ok(Self { filter, cursor, limit })
    }
}
