//! Database failures become the domain's typed storage errors, once, here.

use clickwrap_domain::ports::StorageError;
use diesel::result::{DatabaseErrorKind, Error as DieselError};
use diesel_async::pooled_connection::deadpool::PoolError;

/// A query failed.
pub(crate) fn from_diesel(error: DieselError) -> StorageError {
    match error {
        DieselError::DatabaseError(DatabaseErrorKind::ClosedConnection, info) => {
            StorageError::Unavailable(info.message().to_owned())
        }
        DieselError::DatabaseError(_, info) if is_unavailable_message(info.message()) => {
            StorageError::Unavailable(info.message().to_owned())
        }
        DieselError::BrokenTransactionManager => {
            StorageError::Unavailable("the connection broke mid-transaction".into())
        }
        other => StorageError::Internal(other.to_string()),
    }
}

/// No connection could be had from the pool.
pub(crate) fn from_pool(error: PoolError) -> StorageError {
    StorageError::Unavailable(error.to_string())
}

/// A value read back from the database does not parse as the domain type it was written from.
pub(crate) fn corrupt(what: &str, detail: impl std::fmt::Display) -> StorageError {
    StorageError::Internal(format!("stored {what} is not valid: {detail}"))
}

/// Whether a database error is a unique violation (a concurrent insert of the same key).
pub(crate) fn is_unique_violation(error: &DieselError) -> bool {
    matches!(error, DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _))
}

fn is_unavailable_message(message: &str) -> bool {
    // Server shutting down, too many clients, or the database going read-only for maintenance.
    ["terminating connection", "the database system is", "too many clients", "read-only transaction"]
        .iter()
        .any(|needle| message.contains(needle))
}
