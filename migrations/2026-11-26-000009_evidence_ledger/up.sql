-- The evidence ledger (docs/ledger.md): per tenant, an append-only Merkle log (RFC 9162) of the
-- verified events, with signed tree heads, so that rewriting history shows.

-- How many leaves each tenant's log has. The verify statement increments it and appends the leaf:
-- the row lock orders the leaves of one tenant, and tenants never wait on each other.
CREATE TABLE ledger_logs (
    tenant_id uuid PRIMARY KEY REFERENCES tenants (id),
    tree_size bigint NOT NULL CHECK (tree_size >= 0)
);

-- One leaf per verified event: its index, the hash of its evidence record (canonical JSON in which
-- personal values are salted commitments) and the salt. Erasing an end user's values deletes the
-- salt (it may be set to NULL, nothing else changes); the leaf hash, and every proof, stay valid.
CREATE TABLE ledger_leaves (
    tenant_id  uuid NOT NULL,
    leaf_index bigint NOT NULL CHECK (leaf_index >= 0),
    event_id   uuid NOT NULL UNIQUE,
    leaf_hash  bytea NOT NULL CHECK (length(leaf_hash) = 32),
    salt       bytea CHECK (length(salt) = 16),
    PRIMARY KEY (tenant_id, leaf_index),
    FOREIGN KEY (tenant_id, event_id) REFERENCES clickwrap_events (tenant_id, id)
);
CREATE FUNCTION clickwrap_guard_ledger_leaf() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND NEW.salt IS NULL
       AND (to_jsonb(NEW) - 'salt') = (to_jsonb(OLD) - 'salt') THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION '% on ledger_leaves is not allowed: the log is append-only (only a salt may be erased)', TG_OP
        USING ERRCODE = 'integrity_constraint_violation';
END;
$$;
CREATE TRIGGER ledger_leaves_are_append_only
    BEFORE UPDATE OR DELETE ON ledger_leaves
    FOR EACH ROW EXECUTE FUNCTION clickwrap_guard_ledger_leaf();
CREATE TRIGGER ledger_leaves_no_truncate
    BEFORE TRUNCATE ON ledger_leaves
    FOR EACH STATEMENT EXECUTE FUNCTION clickwrap_refuse_truncate();

-- What the last tree head was computed from: the log's right frontier (one hash per perfect
-- subtree, O(log n)), advanced by the tree-head task from the leaves appended since.
CREATE TABLE ledger_frontiers (
    tenant_id uuid PRIMARY KEY REFERENCES tenants (id),
    tree_size bigint NOT NULL CHECK (tree_size >= 0),
    frontier  bytea NOT NULL
);

-- Signed tree heads: ECDSA P-256 over the canonical JSON of {treeSize, rootHash, timestamp}.
CREATE TABLE ledger_tree_heads (
    tenant_id uuid NOT NULL REFERENCES tenants (id),
    tree_size bigint NOT NULL CHECK (tree_size >= 0),
    root_hash bytea NOT NULL CHECK (length(root_hash) = 32),
    signed_at timestamptz NOT NULL,
    signature bytea NOT NULL,
    key_id    text NOT NULL,
    PRIMARY KEY (tenant_id, tree_size)
);
CREATE TRIGGER ledger_tree_heads_are_immutable
    BEFORE UPDATE OR DELETE ON ledger_tree_heads
    FOR EACH ROW EXECUTE FUNCTION clickwrap_refuse_change();
CREATE TRIGGER ledger_tree_heads_no_truncate
    BEFORE TRUNCATE ON ledger_tree_heads
    FOR EACH STATEMENT EXECUTE FUNCTION clickwrap_refuse_truncate();

-- The key that signs tree heads (ECDSA P-256), its private part sealed with the master key. The
-- first instance makes it; earlier keys are kept so that old tree heads stay checkable.
CREATE TABLE ledger_keys (
    id                 text PRIMARY KEY,
    private_key_sealed bytea NOT NULL,
    public_key_der     bytea NOT NULL,
    is_current         boolean NOT NULL,
    created_at         timestamptz NOT NULL
);
CREATE UNIQUE INDEX ledger_keys_one_current ON ledger_keys (is_current) WHERE is_current;
