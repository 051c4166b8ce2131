//! Templates: the list and create form, a template's settings, publishing, availability and
//! version history, the draft editor with live preview, a published version, the comparison of two
//! versions, and the dialog customizations.

mod customizations;
mod detail;
mod diff;
mod draft;
mod list;
mod parts;
#[cfg(test)]
mod tests;
mod version;

pub use customizations::customizations;
pub use detail::detail;
pub use diff::diff;
pub use draft::draft;
pub use list::list;
pub use version::version;
