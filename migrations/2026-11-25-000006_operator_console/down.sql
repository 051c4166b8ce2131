DROP INDEX webhook_deliveries_failed;
DROP TABLE audit_log;
DROP TABLE console_sessions;
DROP INDEX operator_tokens_by_tenant;
ALTER TABLE operator_tokens DROP COLUMN name, DROP COLUMN role, DROP COLUMN last_used_at, DROP COLUMN revoked_at;
