-- The operator console: named operator tokens with a role, revocable; server-side console sessions;
-- and the audit log of every change an operator makes.

ALTER TABLE operator_tokens
    ADD COLUMN name         text NOT NULL DEFAULT 'First token' CHECK (char_length(name) BETWEEN 1 AND 200),
    ADD COLUMN role         text NOT NULL DEFAULT 'ADMIN' CHECK (role IN ('ADMIN', 'VIEWER')),
    ADD COLUMN last_used_at timestamptz,
    ADD COLUMN revoked_at   timestamptz;
-- The defaults only named the tokens that existed before; new rows always say.
ALTER TABLE operator_tokens ALTER COLUMN name DROP DEFAULT, ALTER COLUMN role DROP DEFAULT;
-- The target of the composite keys below: a session or an audit row names a token of its own tenant.
ALTER TABLE operator_tokens ADD CONSTRAINT operator_tokens_tenant_id_id_key UNIQUE (tenant_id, id);

-- A console session is a cookie's secret (stored as its SHA-256) bound to an operator token; it ends
-- when signed out, after 12 hours idle, or when its token is revoked (sessions are deleted with it).
CREATE TABLE console_sessions (
    secret_hash       bytea PRIMARY KEY CHECK (length(secret_hash) = 32),
    tenant_id         uuid NOT NULL,
    operator_token_id uuid NOT NULL,
    created_at        timestamptz NOT NULL,
    last_seen_at      timestamptz NOT NULL,
    FOREIGN KEY (tenant_id, operator_token_id) REFERENCES operator_tokens (tenant_id, id)
);
CREATE INDEX console_sessions_by_token ON console_sessions (operator_token_id);
CREATE INDEX console_sessions_by_last_seen ON console_sessions (last_seen_at);

-- Who changed what, written in the transaction of the change; append-only like the evidence.
CREATE TABLE audit_log (
    id                uuid PRIMARY KEY,
    tenant_id         uuid NOT NULL REFERENCES tenants (id),
    at                timestamptz NOT NULL,
    -- NULL when the server binary itself made the change (the demo installation).
    operator_token_id uuid,
    action            text NOT NULL CHECK (char_length(action) BETWEEN 1 AND 100),
    subject_id        text NOT NULL CHECK (char_length(subject_id) BETWEEN 1 AND 100),
    details           jsonb NOT NULL CHECK (jsonb_typeof(details) = 'object'),
    FOREIGN KEY (tenant_id, operator_token_id) REFERENCES operator_tokens (tenant_id, id)
);
CREATE INDEX audit_log_by_tenant ON audit_log (tenant_id, at DESC, id DESC);
CREATE TRIGGER audit_log_is_append_only
    BEFORE UPDATE OR DELETE ON audit_log
    FOR EACH ROW EXECUTE FUNCTION clickwrap_refuse_change();
CREATE TRIGGER audit_log_no_truncate
    BEFORE TRUNCATE ON audit_log
    FOR EACH STATEMENT EXECUTE FUNCTION clickwrap_refuse_truncate();
CREATE INDEX webhook_deliveries_failed ON webhook_deliveries (tenant_id, last_attempt_at DESC) WHERE state = 'FAILED';
