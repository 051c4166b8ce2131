//! What the store asks of PostgreSQL, for tests that count it: every statement run, and which of
//! them were prepared to be kept (a statement kept prepared is not prepared again on its
//! connection, so in steady state its runs come without a `Prepared` entry).

#![allow(clippy::expect_used)] // test support

use std::sync::Mutex;

use diesel::connection::{Instrumentation, InstrumentationEvent, set_default_instrumentation};

/// One thing a connection did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoggedStatement {
    /// A statement was sent: its SQL (with its bound values after `-- binds:`).
    Run(String),
    /// A statement was prepared under a name, to be reused on its connection: its SQL.
    Prepared(String),
}

static LOG: Mutex<Vec<LoggedStatement>> = Mutex::new(Vec::new());

struct Recorder;

impl Instrumentation for Recorder {
    fn on_connection_event(&mut self, event: InstrumentationEvent<'_>) {
        let entry = match event {
            InstrumentationEvent::StartQuery { query, .. } => LoggedStatement::Run(query.to_string()),
            InstrumentationEvent::CacheQuery { sql, .. } => LoggedStatement::Prepared(sql.to_owned()),
            _ => return,
        };
        LOG.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(entry);
    }
}

/// Records the statements of every connection opened from now on, in this process. The log is
/// shared by the whole process, so a test that reads it should be alone in its test binary.
pub fn record_statements() {
    set_default_instrumentation(|| Some(Box::new(Recorder))).expect("set the default instrumentation");
}

/// What was recorded since the last call, oldest first.
pub fn take_statements() -> Vec<LoggedStatement> {
    std::mem::take(&mut *LOG.lock().unwrap_or_else(std::sync::PoisonError::into_inner))
}
