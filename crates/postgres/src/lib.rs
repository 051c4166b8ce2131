//! PostgreSQL storage adapter (in progress).
