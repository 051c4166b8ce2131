-- The key and X.509 certificate that sign Certificates of Acceptance. Made by the first instance that
-- starts; the private key is sealed with the server keyring (AES-256-GCM), never stored in clear.
CREATE TABLE signing_identities (
    id                 uuid PRIMARY KEY,
    private_key_sealed bytea NOT NULL,
    certificate_der    bytea NOT NULL,
    is_current         boolean NOT NULL,
    created_at         timestamptz NOT NULL
);
CREATE UNIQUE INDEX signing_identities_one_current ON signing_identities (is_current) WHERE is_current;
