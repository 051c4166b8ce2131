//! Tenants (operator organisations), their operator tokens and their event quota.

pub mod models;
pub mod service;
