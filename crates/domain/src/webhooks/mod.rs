//! Webhooks: the signed `CLICKWRAP_EVENT_VERIFIED` notification, its delivery record, and where it
//! may be sent.

pub mod models;
pub mod payload;
pub mod signing;
pub mod url;

pub mod cidr;
pub mod dispatch;
pub mod history;
pub mod retention;
