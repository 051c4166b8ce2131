//! Rate limits and the event quota as pure policies; the rate limits' counts are kept in memory
//! ([`counter`]) and shared through [`crate::ports::RateLimitStore`], the quota's behind [`crate::ports`].

pub mod counter;
pub mod quota;
pub mod rate;
