ALTER TABLE apps
    DROP CONSTRAINT apps_previous_app_key_complete,
    DROP COLUMN previous_app_key_expires_at,
    DROP COLUMN previous_app_key_hash;
