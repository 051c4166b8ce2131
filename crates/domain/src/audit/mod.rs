//! The audit log: who (which operator token) changed what, and when. Every use case that changes a
//! tenant's data hands its storage port an [`models::AuditEntry`] to write in the same transaction
//! as the change, so the log cannot miss a change nor record one that did not happen.

pub mod models;
pub mod service;
