DROP INDEX events_consent;
CREATE INDEX events_consent ON clickwrap_events
    (tenant_id, end_user_id, template_id, version_major, action_at DESC, id DESC);
