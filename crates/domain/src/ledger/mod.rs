//! The evidence ledger (placeholder; documented below once all parts exist).

pub mod canonical;
pub mod leaf;
pub mod merkle;
pub mod tree_head;
