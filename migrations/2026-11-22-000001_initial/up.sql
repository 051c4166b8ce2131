-- The whole schema of the first release. Guarantees that the evidence depends on are enforced here,
-- by the database, so that they hold even against a buggy caller:
--   * verified events, their certificates and published template versions are never changed or
--     deleted (triggers);
--   * an event is verified at most once (the adapter's conditional update; the trigger refuses the rest);
--   * every row carries its tenant, and composite foreign keys keep references inside one tenant.

CREATE FUNCTION clickwrap_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% on % is not allowed: the row is immutable evidence', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'integrity_constraint_violation';
END;
$$;

-- TRUNCATE skips row triggers, so the evidence tables refuse it with a statement trigger each.
CREATE FUNCTION clickwrap_refuse_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'TRUNCATE on % is not allowed: it holds immutable evidence', TG_TABLE_NAME
        USING ERRCODE = 'integrity_constraint_violation';
END;
$$;

CREATE TABLE tenants (
    id          uuid PRIMARY KEY,
    name        text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
    event_quota bigint CHECK (event_quota >= 0),
    created_at  timestamptz NOT NULL
);

CREATE TABLE operator_tokens (
    id         uuid PRIMARY KEY,
    tenant_id  uuid NOT NULL REFERENCES tenants (id),
    token_hash bytea NOT NULL UNIQUE CHECK (length(token_hash) = 32),
    created_at timestamptz NOT NULL
);

CREATE TABLE apps (
    id                    uuid PRIMARY KEY,
    tenant_id             uuid NOT NULL REFERENCES tenants (id),
    name                  text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
    webhook_url           text CHECK (webhook_url LIKE 'https://%'),
    webhook_enabled       boolean NOT NULL,
    allowed_origins       text[] NOT NULL,
    app_key_hash          bytea NOT NULL CHECK (length(app_key_hash) = 32),
    webhook_secret_sealed bytea NOT NULL,
    created_at            timestamptz NOT NULL,
    updated_at            timestamptz NOT NULL,
    UNIQUE (tenant_id, id)
);
CREATE INDEX apps_by_tenant ON apps (tenant_id, created_at, id);

CREATE TABLE templates (
    id                        uuid PRIMARY KEY,
    tenant_id                 uuid NOT NULL REFERENCES tenants (id),
    name                      text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
    tags                      text[] NOT NULL,
    default_language          text NOT NULL CHECK (default_language IN ('en', 'de', 'fr', 'es', 'zh', 'hi', 'ru')),
    draft                     jsonb NOT NULL CHECK (jsonb_typeof(draft) = 'object'),
    customizations            jsonb NOT NULL CHECK (jsonb_typeof(customizations) = 'object'),
    always_require_acceptance boolean NOT NULL,
    enabled                   boolean NOT NULL,
    created_at                timestamptz NOT NULL,
    updated_at                timestamptz NOT NULL,
    UNIQUE (tenant_id, id)
);
CREATE INDEX templates_by_tenant ON templates (tenant_id, created_at, id);

-- A template linked to no app is available to every app of its tenant.
CREATE TABLE template_apps (
    tenant_id   uuid NOT NULL,
    template_id uuid NOT NULL,
    app_id      uuid NOT NULL,
    PRIMARY KEY (template_id, app_id),
    FOREIGN KEY (tenant_id, template_id) REFERENCES templates (tenant_id, id) ON DELETE CASCADE,
    FOREIGN KEY (tenant_id, app_id) REFERENCES apps (tenant_id, id) ON DELETE CASCADE
);

CREATE TABLE template_versions (
    tenant_id    uuid NOT NULL,
    template_id  uuid NOT NULL,
    major        integer NOT NULL CHECK (major >= 1),
    minor        integer NOT NULL CHECK (minor >= 0),
    effective_at timestamptz NOT NULL,
    published_at timestamptz NOT NULL,
    content      jsonb NOT NULL CHECK (jsonb_typeof(content) = 'object'),
    PRIMARY KEY (template_id, major, minor),
    FOREIGN KEY (tenant_id, template_id) REFERENCES templates (tenant_id, id)
);
CREATE TRIGGER template_versions_are_locked
    BEFORE UPDATE OR DELETE ON template_versions
    FOR EACH ROW EXECUTE FUNCTION clickwrap_refuse_change();
CREATE TRIGGER template_versions_no_truncate
    BEFORE TRUNCATE ON template_versions
    FOR EACH STATEMENT EXECUTE FUNCTION clickwrap_refuse_truncate();

-- Rendered content is stored once per distinct text: most end users see the very same agreement.
CREATE TABLE event_contents (
    content_hash text PRIMARY KEY CHECK (content_hash ~ '^sha256:[0-9a-f]{64}$'),
    content      text NOT NULL
);
CREATE TRIGGER event_contents_are_immutable
    BEFORE UPDATE OR DELETE ON event_contents
    FOR EACH ROW EXECUTE FUNCTION clickwrap_refuse_change();
CREATE TRIGGER event_contents_no_truncate
    BEFORE TRUNCATE ON event_contents
    FOR EACH STATEMENT EXECUTE FUNCTION clickwrap_refuse_truncate();

CREATE TABLE clickwrap_events (
    id                    uuid PRIMARY KEY,
    tenant_id             uuid NOT NULL,
    app_id                uuid NOT NULL,
    template_id           uuid NOT NULL,
    template_name         text NOT NULL,
    version_major         integer NOT NULL,
    version_minor         integer NOT NULL,
    effective_at          timestamptz NOT NULL,
    end_user_id           text NOT NULL CHECK (char_length(end_user_id) BETWEEN 1 AND 256),
    action                text NOT NULL CHECK (action IN ('ACCEPTED', 'DECLINED')),
    status                text NOT NULL CHECK (status IN ('UNVERIFIED', 'ACCEPTED', 'DECLINED')),
    language              text NOT NULL CHECK (language IN ('en', 'de', 'fr', 'es', 'zh', 'hi', 'ru')),
    content_hash          text NOT NULL REFERENCES event_contents (content_hash),
    template_placeholders text,
    technical_metadata    text NOT NULL,
    presentation_mode     text NOT NULL CHECK (presentation_mode IN ('DIALOG', 'INLINE')),
    agreement_mode        text NOT NULL CHECK (agreement_mode IN ('SCROLL', 'CHECKBOX')),
    accept_label          text NOT NULL,
    checkbox_label        text,
    presented_at          timestamptz NOT NULL,
    action_at             timestamptz NOT NULL,
    verified_at           timestamptz,
    UNIQUE (tenant_id, id),
    -- A verified event carries the end user's action and its verification time; an unverified none.
    CHECK (status = 'UNVERIFIED' OR status = action),
    CHECK ((status = 'UNVERIFIED') = (verified_at IS NULL)),
    FOREIGN KEY (tenant_id, app_id) REFERENCES apps (tenant_id, id),
    FOREIGN KEY (tenant_id, template_id) REFERENCES templates (tenant_id, id),
    FOREIGN KEY (template_id, version_major, version_minor) REFERENCES template_versions (template_id, major, minor)
);

-- The only change an event may see: UNVERIFIED to its action, with the verification time.
CREATE FUNCTION clickwrap_guard_event() RETURNS trigger LANGUAGE plpgsql AS $$
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
CREATE TRIGGER clickwrap_events_guard
    BEFORE UPDATE OR DELETE ON clickwrap_events
    FOR EACH ROW EXECUTE FUNCTION clickwrap_guard_event();
CREATE TRIGGER clickwrap_events_no_truncate
    BEFORE TRUNCATE ON clickwrap_events
    FOR EACH STATEMENT EXECUTE FUNCTION clickwrap_refuse_truncate();

-- The events list: newest first by (action_at, id) over verified events, one index per combination
-- of the equality filters (template, end user, status), so every page of every filter combination
-- is a single index range scan; from/to bound the same range.
CREATE INDEX events_list ON clickwrap_events (tenant_id, action_at DESC, id DESC)
    WHERE status <> 'UNVERIFIED';
CREATE INDEX events_list_t ON clickwrap_events (tenant_id, template_id, action_at DESC, id DESC)
    WHERE status <> 'UNVERIFIED';
CREATE INDEX events_list_u ON clickwrap_events (tenant_id, end_user_id, action_at DESC, id DESC)
    WHERE status <> 'UNVERIFIED';
CREATE INDEX events_list_s ON clickwrap_events (tenant_id, status, action_at DESC, id DESC)
    WHERE status <> 'UNVERIFIED';
CREATE INDEX events_list_tu ON clickwrap_events (tenant_id, template_id, end_user_id, action_at DESC, id DESC)
    WHERE status <> 'UNVERIFIED';
CREATE INDEX events_list_ts ON clickwrap_events (tenant_id, template_id, status, action_at DESC, id DESC)
    WHERE status <> 'UNVERIFIED';
CREATE INDEX events_list_us ON clickwrap_events (tenant_id, end_user_id, status, action_at DESC, id DESC)
    WHERE status <> 'UNVERIFIED';
CREATE INDEX events_list_tus ON clickwrap_events (tenant_id, template_id, end_user_id, status, action_at DESC, id DESC)
    WHERE status <> 'UNVERIFIED';
-- Consent lookups of one end user and template (any status), latest first.
CREATE INDEX events_consent ON clickwrap_events (tenant_id, end_user_id, template_id, version_major, action_at DESC, id DESC);

CREATE TABLE certificates (
    event_id   uuid PRIMARY KEY,
    tenant_id  uuid NOT NULL,
    pdf        bytea NOT NULL,
    sha256     bytea NOT NULL CHECK (length(sha256) = 32),
    created_at timestamptz NOT NULL,
    FOREIGN KEY (tenant_id, event_id) REFERENCES clickwrap_events (tenant_id, id)
);
CREATE TRIGGER certificates_are_immutable
    BEFORE UPDATE OR DELETE ON certificates
    FOR EACH ROW EXECUTE FUNCTION clickwrap_refuse_change();
CREATE TRIGGER certificates_no_truncate
    BEFORE TRUNCATE ON certificates
    FOR EACH STATEMENT EXECUTE FUNCTION clickwrap_refuse_truncate();

-- The webhook outbox: written in the verification's transaction, worked off by the dispatcher.
CREATE TABLE webhook_deliveries (
    id                   uuid PRIMARY KEY,
    tenant_id            uuid NOT NULL,
    app_id               uuid NOT NULL,
    event_id             uuid NOT NULL,
    payload              text NOT NULL,
    state                text NOT NULL CHECK (state IN ('PENDING', 'DELIVERED', 'FAILED', 'DISABLED')),
    attempts             integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    next_attempt_at      timestamptz,
    last_attempt_at      timestamptz,
    last_response_status integer,
    lease_owner          uuid,
    lease_until          timestamptz,
    created_at           timestamptz NOT NULL,
    UNIQUE (tenant_id, id),
    CHECK (state <> 'PENDING' OR next_attempt_at IS NOT NULL),
    FOREIGN KEY (tenant_id, app_id) REFERENCES apps (tenant_id, id),
    FOREIGN KEY (tenant_id, event_id) REFERENCES clickwrap_events (tenant_id, id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'PENDING';
CREATE INDEX webhook_deliveries_by_event ON webhook_deliveries (tenant_id, event_id, created_at DESC);
CREATE INDEX webhook_deliveries_by_app ON webhook_deliveries (tenant_id, app_id, created_at DESC, id DESC);

CREATE TABLE webhook_attempts (
    id                uuid PRIMARY KEY,
    tenant_id         uuid NOT NULL,
    delivery_id       uuid NOT NULL,
    attempt           integer NOT NULL CHECK (attempt >= 1),
    request_body      text NOT NULL,
    response_status   integer,
    response_excerpt  text,
    error_class       text,
    started_at        timestamptz NOT NULL,
    duration_ms       integer NOT NULL CHECK (duration_ms >= 0),
    FOREIGN KEY (tenant_id, delivery_id) REFERENCES webhook_deliveries (tenant_id, id)
);
CREATE INDEX webhook_attempts_by_delivery ON webhook_attempts (tenant_id, delivery_id, started_at DESC);

-- Verified events per tenant and month, spread over a few rows so that concurrent verifications of
-- one tenant do not queue on a single counter row.
CREATE TABLE usage_counters (
    tenant_id    uuid NOT NULL REFERENCES tenants (id),
    period_start timestamptz NOT NULL,
    shard        smallint NOT NULL CHECK (shard >= 0),
    events       bigint NOT NULL CHECK (events >= 0),
    PRIMARY KEY (tenant_id, period_start, shard)
);

CREATE TABLE rate_limit_windows (
    app_id       uuid NOT NULL,
    client_ip    text NOT NULL,
    route        text NOT NULL,
    window_start timestamptz NOT NULL,
    hits         bigint NOT NULL,
    PRIMARY KEY (app_id, client_ip, route, window_start)
);
CREATE INDEX rate_limit_windows_age ON rate_limit_windows (window_start);

CREATE TABLE re_accept_requests (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    tenant_id    uuid NOT NULL,
    template_id  uuid NOT NULL,
    end_user_id  text NOT NULL CHECK (char_length(end_user_id) BETWEEN 1 AND 256),
    reason       text CHECK (char_length(reason) <= 500),
    requested_at timestamptz NOT NULL,
    FOREIGN KEY (tenant_id, template_id) REFERENCES templates (tenant_id, id)
);
CREATE INDEX re_accept_lookup ON re_accept_requests (tenant_id, end_user_id, template_id, requested_at DESC);

-- Server keys (Signatures, cursors, sealed secrets). Access to the database implies access to these.
CREATE TABLE server_keys (
    id         text PRIMARY KEY CHECK (id ~ '^[a-z0-9-]{1,32}$'),
    material   bytea NOT NULL CHECK (length(material) = 32),
    is_current boolean NOT NULL,
    created_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX server_keys_one_current ON server_keys (is_current) WHERE is_current;
