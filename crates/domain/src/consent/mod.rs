//! Clickwrap events: presenting, the end user's action, verification, listing and consent status.

pub mod acceptance;
pub mod cursor;
pub mod queries;
pub mod models;
pub mod service;
pub mod signature;
