//! Database failures become the domain's typed storage errors, once, here.
//!
//! Unavailability (HTTP 503, worth retrying) is told apart from real failures (HTTP 500, a bug):
//! a connection that was refused, closed, reset or timed out, a server shutting down, starting up
//! or recovering, and a pool with no connection to give are all unavailability.

use clickwrap_domain::ports::StorageError;
use diesel::result::{DatabaseErrorKind, Error as DieselError};
use diesel_async::pooled_connection::deadpool::PoolError;

/// A query failed.
pub(crate) fn from_diesel(error: DieselError) -> StorageError {
    if is_unavailable(&error) {
        StorageError::Unavailable(error.to_string())
    } else {
        StorageError::Internal(error.to_string())
    }
}

/// No connection could be had from the pool: none was free in time, or a new one could not be
/// opened (refused, reset, or the server is starting up or shutting down).
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

fn is_unavailable(error: &DieselError) -> bool {
    match error {
        DieselError::DatabaseError(DatabaseErrorKind::ClosedConnection | DatabaseErrorKind::ReadOnlyTransaction, _) => {
            true
        }
        // diesel-async reports every client-side failure of tokio-postgres (it has no SQLSTATE) with
        // this kind and the error's text; only some of them are a lost connection.
        DieselError::DatabaseError(DatabaseErrorKind::UnableToSendCommand, info) => is_lost_connection(info.message()),
        DieselError::DatabaseError(_, info) => is_server_unavailable(info.message()),
        DieselError::BrokenTransactionManager => true,
        // A commit that failed and whose rollback failed too: the connection went away mid-commit.
        DieselError::RollbackErrorOnCommit { rollback_error, commit_error } => {
            is_unavailable(commit_error) || is_unavailable(rollback_error)
        }
        _ => false,
    }
}

/// tokio-postgres's texts for its I/O failures; others of its client-side errors (a parameter that
/// does not serialize, a column that does not parse) are bugs.
fn is_lost_connection(message: &str) -> bool {
    const LOST: [&str; 4] = [
        "connection closed",
        "error communicating with the server",
        "error connecting to server",
        "timeout waiting for server",
    ];
    LOST.iter().any(|text| message.starts_with(text))
}

/// PostgreSQL's own texts: shutting down (`admin_shutdown`, `crash_shutdown`), starting up or in
/// recovery (`cannot_connect_now`), too many clients, or read-only after a failover. diesel does not
/// hand on the SQLSTATE, so the (untranslated) message is what there is to go by.
fn is_server_unavailable(message: &str) -> bool {
    const UNAVAILABLE: [&str; 4] =
        ["terminating connection", "the database system is", "too many clients", "read-only transaction"];
    UNAVAILABLE.iter().any(|text| message.contains(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn database_error(kind: DatabaseErrorKind, message: &str) -> DieselError {
        DieselError::DatabaseError(kind, Box::new(message.to_owned()))
    }

    fn class(error: DieselError) -> &'static str {
        match from_diesel(error) {
            StorageError::Unavailable(_) => "unavailable",
            StorageError::Internal(_) => "internal",
        }
    }

    #[test]
    fn a_lost_connection_is_unavailability() {
        // The texts tokio-postgres gives diesel-async for a closed, reset, refused or silent connection.
        for message in [
            "connection closed",
            "error communicating with the server",
            "error connecting to server",
            "timeout waiting for server",
        ] {
            assert_eq!(
                class(database_error(DatabaseErrorKind::UnableToSendCommand, message)),
                "unavailable",
                "{message}"
            );
        }
        assert_eq!(
            class(database_error(DatabaseErrorKind::ClosedConnection, "server closed the connection")),
            "unavailable"
        );
        assert_eq!(class(DieselError::BrokenTransactionManager), "unavailable");
    }

    #[test]
    fn a_server_going_down_or_coming_up_is_unavailability() {
        for message in [
            "terminating connection due to administrator command",
            "terminating connection because of crash of another server process",
            "the database system is starting up",
            "the database system is shutting down",
            "the database system is in recovery mode",
            "sorry, too many clients already",
        ] {
            assert_eq!(class(database_error(DatabaseErrorKind::Unknown, message)), "unavailable", "{message}");
        }
        let read_only = "cannot execute UPDATE in a read-only transaction";
        assert_eq!(class(database_error(DatabaseErrorKind::ReadOnlyTransaction, read_only)), "unavailable");
    }

    #[test]
    fn a_commit_lost_with_its_connection_is_unavailability() {
        let lost = DieselError::RollbackErrorOnCommit {
            rollback_error: Box::new(database_error(DatabaseErrorKind::UnableToSendCommand, "connection closed")),
            commit_error: Box::new(database_error(DatabaseErrorKind::UnableToSendCommand, "connection closed")),
        };
        assert_eq!(class(lost), "unavailable");
        let bug = DieselError::RollbackErrorOnCommit {
            rollback_error: Box::new(DieselError::NotInTransaction),
            commit_error: Box::new(database_error(DatabaseErrorKind::CheckViolation, "violates check constraint")),
        };
        assert_eq!(class(bug), "internal");
    }

    #[test]
    fn bugs_stay_internal_errors() {
        for (kind, message) in [
            (DatabaseErrorKind::UnableToSendCommand, "error serializing parameter 3"),
            (DatabaseErrorKind::UnableToSendCommand, "error deserializing column 0"),
            (DatabaseErrorKind::UnableToSendCommand, "expected 4 parameters but got 3"),
            (DatabaseErrorKind::UnableToSendCommand, "unexpected message from server"),
            (DatabaseErrorKind::Unknown, "syntax error at or near \"SELEC\""),
            (DatabaseErrorKind::Unknown, "relation \"clickwrap_event\" does not exist"),
            (DatabaseErrorKind::NotNullViolation, "null value in column \"status\""),
            (DatabaseErrorKind::UniqueViolation, "duplicate key value violates unique constraint"),
        ] {
            assert_eq!(class(database_error(kind, message)), "internal", "{message}");
        }
        assert_eq!(class(DieselError::NotFound), "internal");
        assert_eq!(class(DieselError::AlreadyInTransaction), "internal");
    }
}
