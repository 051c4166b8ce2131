CREATE TRIGGER webhook_deliveries_notify_new
    AFTER INSERT ON webhook_deliveries
    FOR EACH ROW WHEN (NEW.state = 'PENDING')
    EXECUTE FUNCTION clickwrap_notify_webhooks();
