//! The clock, identifiers and randomness of the real world, for production wiring. (Tests use the
//! deterministic ones in [`crate::memory`].)

use ring::rand::{SecureRandom, SystemRandom};

use crate::Timestamp;
use crate::ports::{Clock, IdGenerator, Random};

/// The system clock, in UTC.
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Timestamp {
        Timestamp::from_datetime(time::OffsetDateTime::now_utc())
    }
}

/// Time-ordered UUIDs (version 7): new rows land at the end of their indexes.
#[derive(Debug, Default, Clone, Copy)]
pub struct UuidV7;

impl IdGenerator for UuidV7 {
    fn new_uuid(&self) -> uuid::Uuid {
        uuid::Uuid::now_v7()
    }
}

/// The operating system's cryptographically secure generator.
#[derive(Debug)]
pub struct OsRandom(SystemRandom);

impl Default for OsRandom {
    fn default() -> Self {
        Self(SystemRandom::new())
    }
}

impl Random for OsRandom {
    fn fill(&self, dest: &mut [u8]) {
        // The OS generator fails only when the kernel has none; nothing can continue safely then,
        // and an all-zero key must never be used, so this stops the process.
        #[allow(clippy::expect_used)]
        self.0.fill(dest).expect("the operating system's random generator failed");
    }
}
