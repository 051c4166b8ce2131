DROP TABLE signing_identities;
