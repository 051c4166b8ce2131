-- The App Key a rotation replaced, kept working until an expiry the operator chose (at most days),
-- so backends can switch keys without downtime. NULL (no overlap) costs no bytes in the row.
ALTER TABLE apps
    ADD COLUMN previous_app_key_hash       bytea CHECK (length(previous_app_key_hash) = 32),
    ADD COLUMN previous_app_key_expires_at timestamptz,
    ADD CONSTRAINT apps_previous_app_key_complete
        CHECK ((previous_app_key_hash IS NULL) = (previous_app_key_expires_at IS NULL));
