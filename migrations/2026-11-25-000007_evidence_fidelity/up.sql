-- What the client reported about the content's box: whether the content was taller than it, so
-- that (in scroll mode) accepting waited until the end had been reached. Null: not reported.
ALTER TABLE clickwrap_events ADD COLUMN scroll_required boolean;

-- The operator's legal name, printed on Certificates of Acceptance (null until an operator sets it).
ALTER TABLE tenants ADD COLUMN legal_name text;

-- The names a certificate was issued with (the app's, and the operator's legal name), so that the
-- agreement PDF, rendered from the stored evidence on each download, prints the names in force at
-- verification and is the same file every time. Null app_name: stored before this migration.
ALTER TABLE certificates ADD COLUMN app_name text, ADD COLUMN operator_name text;

-- The event guard compared a fixed list of columns, so a column added later (scroll_required) would
-- have been changeable on an unverified event. It now compares the whole row but for the two
-- columns verification sets, so no future column can slip through.
CREATE OR REPLACE FUNCTION clickwrap_guard_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        IF OLD.status <> 'UNVERIFIED' THEN
            RAISE EXCEPTION 'a verified clickwrap event cannot be deleted'
                USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        RETURN OLD;
    END IF;
    IF OLD.status <> 'UNVERIFIED' THEN
        RAISE EXCEPTION 'a verified clickwrap event cannot be changed'
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    IF to_jsonb(NEW) - 'status' - 'verified_at' IS DISTINCT FROM to_jsonb(OLD) - 'status' - 'verified_at' THEN
        RAISE EXCEPTION 'only the verification of a clickwrap event may change it'
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END;
$$;
