//! The console's pages. Each is a pure function from a [`Chrome`] (who is signed in, where they
//! are, the CSRF token) and the page's data to [`maud::Markup`].

pub mod apps;
pub mod audit;
pub mod components;
pub mod events;
pub mod layout;
pub mod login;
pub mod overview;
pub mod templates;
pub mod tokens;

pub use layout::{Chrome, Flash, Section};

#[cfg(test)]
pub(crate) mod test_support;
