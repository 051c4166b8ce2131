//! Integrations (Apps): the public App ID, the secret App Key, the webhook settings and the
//! browser origins allowed to use the public client routes.

pub mod models;
pub mod service;
