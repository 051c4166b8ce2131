//! Clickwrap templates: the draft an operator edits, the locked versions it publishes, when each
//! version is in force, which apps may use a template, and how its dialog looks.

pub mod customizations;
pub mod models;
pub mod service;
pub mod versioning;
