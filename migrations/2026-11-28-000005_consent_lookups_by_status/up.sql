-- The consent snapshot (every SDK check and status lookup) asks, per end user and template, for the
-- latest event of each status class of one major, and whether an earlier major was accepted. With
-- `status` right after the (tenant, end user, template) equalities, each of those questions is one
-- index descent that stops at its first row, whatever the end user's history and whether or not
-- PostgreSQL planned the statement for the values at hand. The old order put `status` out of the
-- index, so a generic plan read every event of the end user's major to find an unverified one.
-- It replaces `events_consent` one for one: an event insert or verification writes the same number
-- of index entries as before.
DROP INDEX events_consent;
CREATE INDEX events_consent ON clickwrap_events
    (tenant_id, end_user_id, template_id, status, version_major, action_at DESC, id DESC);
