DROP TRIGGER webhook_deliveries_notify_due ON webhook_deliveries;
DROP TRIGGER webhook_deliveries_notify_new ON webhook_deliveries;
DROP FUNCTION clickwrap_notify_webhooks();
DROP INDEX webhook_deliveries_leases;
ALTER TABLE webhook_deliveries DROP COLUMN round_attempts;
