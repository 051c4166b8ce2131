-- The demo's App Key and operator token, sealed with the master key, so that `clickwrap-server demo`
-- shows the same ones at every start (elsewhere only their hashes are kept, which cannot be shown).
ALTER TABLE demo_installation
    ADD COLUMN app_key_sealed bytea,
    ADD COLUMN operator_token_sealed bytea;
