-- Every change of what the public endpoints keep in their serving caches (an app; a template, its
-- versions or its app links) is announced to every instance with NOTIFY clickwrap_serving, naming
-- what changed: 'app <app id>' or 'template <tenant id> <template id>'. Each instance forgets just
-- that entry. NOTIFY belongs to the changing transaction: it is heard only once the change is
-- committed, and never for a change rolled back. Triggers, so that every path that writes (operator
-- API, console, command line) announces. These tables change only by an operator's hand, so the
-- commit-time lock that NOTIFY takes is never on a busy path. A new app or template is not
-- announced: nothing is cached of what did not exist.

CREATE FUNCTION clickwrap_announce_app_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('clickwrap_serving', 'app ' || OLD.id);
    RETURN NULL;
END;
$$;

CREATE TRIGGER apps_announce_change
    AFTER UPDATE OR DELETE ON apps
    FOR EACH ROW EXECUTE FUNCTION clickwrap_announce_app_change();

CREATE FUNCTION clickwrap_announce_template_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    changed record;
BEGIN
    IF TG_OP = 'DELETE' THEN
        changed := OLD;
    ELSE
        changed := NEW;
    END IF;
    -- PostgreSQL folds identical notifications of one transaction (a template's versions) into one.
    IF TG_TABLE_NAME = 'templates' THEN
        PERFORM pg_notify('clickwrap_serving', 'template ' || changed.tenant_id || ' ' || changed.id);
    ELSE
        PERFORM pg_notify('clickwrap_serving', 'template ' || changed.tenant_id || ' ' || changed.template_id);
    END IF;
    RETURN NULL;
END;
$$;

CREATE TRIGGER templates_announce_change
    AFTER UPDATE OR DELETE ON templates
    FOR EACH ROW EXECUTE FUNCTION clickwrap_announce_template_change();

CREATE TRIGGER template_versions_announce_change
    AFTER INSERT OR UPDATE OR DELETE ON template_versions
    FOR EACH ROW EXECUTE FUNCTION clickwrap_announce_template_change();

CREATE TRIGGER template_apps_announce_change
    AFTER INSERT OR UPDATE OR DELETE ON template_apps
    FOR EACH ROW EXECUTE FUNCTION clickwrap_announce_template_change();
