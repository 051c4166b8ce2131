//! The evidence ledger (placeholder; documented below once all parts exist).

pub mod merkle;
