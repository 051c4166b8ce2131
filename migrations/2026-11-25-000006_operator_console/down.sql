DROP INDEX webhook_deliveries_failed;
DROP TABLE audit_log;
DROP TABLE console_sessions;
ALTER TABLE operator_tokens DROP CONSTRAINT operator_tokens_tenant_id_id_key;
ALTER TABLE operator_tokens DROP COLUMN name, DROP COLUMN role, DROP COLUMN last_used_at, DROP COLUMN revoked_at;
