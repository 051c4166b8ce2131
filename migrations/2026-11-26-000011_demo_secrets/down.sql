ALTER TABLE demo_installation
    DROP COLUMN app_key_sealed,
    DROP COLUMN operator_token_sealed;
