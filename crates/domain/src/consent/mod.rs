//! Clickwrap events: presenting, the end user's action, verification, listing and consent status.

pub mod acceptance;
pub mod cursor;
pub mod models;
pub mod queries;
pub mod service;
pub mod signature;
