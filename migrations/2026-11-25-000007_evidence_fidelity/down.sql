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
    IF (NEW.id, NEW.tenant_id, NEW.app_id, NEW.template_id, NEW.template_name, NEW.version_major,
        NEW.version_minor, NEW.effective_at, NEW.end_user_id, NEW.action, NEW.language, NEW.content_hash,
        NEW.template_placeholders, NEW.technical_metadata, NEW.presentation_mode, NEW.agreement_mode,
        NEW.accept_label, NEW.checkbox_label, NEW.presented_at, NEW.action_at)
       IS DISTINCT FROM
       (OLD.id, OLD.tenant_id, OLD.app_id, OLD.template_id, OLD.template_name, OLD.version_major,
        OLD.version_minor, OLD.effective_at, OLD.end_user_id, OLD.action, OLD.language, OLD.content_hash,
        OLD.template_placeholders, OLD.technical_metadata, OLD.presentation_mode, OLD.agreement_mode,
        OLD.accept_label, OLD.checkbox_label, OLD.presented_at, OLD.action_at) THEN
        RAISE EXCEPTION 'only the verification of a clickwrap event may change it'
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END;
$$;
ALTER TABLE certificates DROP COLUMN app_name, DROP COLUMN operator_name;
ALTER TABLE tenants DROP COLUMN legal_name;
ALTER TABLE clickwrap_events DROP COLUMN scroll_required;
