DROP TABLE server_keys, re_accept_requests, rate_limit_windows, usage_counters, webhook_attempts,
    webhook_deliveries, certificates, clickwrap_events, event_contents, template_versions,
    template_apps, templates, apps, operator_tokens, tenants;
DROP FUNCTION clickwrap_guard_event();
DROP FUNCTION clickwrap_refuse_change();
DROP FUNCTION clickwrap_refuse_truncate();
