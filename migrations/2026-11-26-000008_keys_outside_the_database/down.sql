ALTER TABLE signing_identities DROP COLUMN replaced_at;
ALTER TABLE signing_identities DROP COLUMN chain_der;
ALTER TABLE server_keys DROP COLUMN replaced_at;
ALTER TABLE server_keys DROP CONSTRAINT server_keys_material_once;
-- Sealed keys cannot be put back in clear without the master key: they are dropped.
DELETE FROM server_keys WHERE material IS NULL;
ALTER TABLE server_keys DROP COLUMN material_sealed;
ALTER TABLE server_keys ALTER COLUMN material SET NOT NULL;
