//! Webhooks: the signed messages (every event type: [`events`]), their delivery records, and where
//! they may be sent.

pub mod events;
pub mod models;
pub mod payload;
pub mod signing;
pub mod url;

pub mod cidr;
pub mod dispatch;
pub mod history;
pub mod retention;
