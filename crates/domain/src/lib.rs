//! The clickwrap consent service's core: what a clickwrap event, a template version, an App and a
//! Signature are, the rules between them, the ports the core needs from the outside world, and the
//! use cases that drive them.
//!
//! Nothing here does IO or knows a framework: no HTTP, no database, no runtime. Adapters implement
//! the traits in [`ports`]; [`memory`] holds in-memory implementations for tests. The use cases are
//! the methods of [`service::ClickwrapService`], written next to their area.

#[macro_use]
mod string_enum;

pub mod apps;
pub mod audit;
pub mod consent;
pub mod content;
pub mod ledger;
pub mod limits;
pub mod templates;
pub mod tenants;
pub mod webhooks;

#[cfg(any(test, feature = "contract"))]
pub mod contract;

pub mod memory;
pub mod ports;
pub mod service;
pub mod serving_cache;
pub mod system;

pub mod end_user;
pub mod etag;
pub mod ids;
pub mod keys;
pub mod language;
pub mod name;
pub mod secrets;
pub mod tag;
pub mod timestamp;

pub use end_user::EndUserId;
pub use ids::{AppId, AuditEntryId, DeliveryId, EventId, OperatorTokenId, TemplateId, TenantId};
pub use language::{Language, LanguagePreference};
pub use name::Name;
pub use tag::Tag;
pub use timestamp::Timestamp;
