-- The master key, kept outside the database, seals the server keys as well as the certificate
-- signing keys and webhook secrets. Keys made before master keys stay in clear (`material`) until
-- `clickwrap-server master-key rotate` seals them (`material_sealed`); exactly one of the two is set.
ALTER TABLE server_keys ALTER COLUMN material DROP NOT NULL;
ALTER TABLE server_keys ADD COLUMN material_sealed bytea;
ALTER TABLE server_keys ADD CONSTRAINT server_keys_material_once
    CHECK ((material IS NULL) <> (material_sealed IS NULL));
-- When another key became current: Signatures this key made expire a Signature lifetime later,
-- after which `clickwrap-server server-keys delete` may remove it.
ALTER TABLE server_keys ADD COLUMN replaced_at timestamptz;

-- An imported signing certificate comes with the chain up to its root (DER, leaf's issuer first).
ALTER TABLE signing_identities ADD COLUMN chain_der bytea[] NOT NULL DEFAULT '{}';
ALTER TABLE signing_identities ADD COLUMN replaced_at timestamptz;
