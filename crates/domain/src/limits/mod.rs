//! Rate limits and the event quota as pure policies; their counters live behind [`crate::ports`].

pub mod quota;
pub mod rate;
