-- What the webhook dispatcher needs beyond the outbox of the first migration:
--   * rounds: an operator's redelivery starts the retry schedule over, so the attempts of the
--     current round are counted apart from all attempts ever made (`attempts`);
--   * leases are looked up by owner when a dispatcher stops and gives its leases back;
--   * a wake-up: every delivery that becomes due is announced on the channel `clickwrap_webhooks`
--     (NOTIFY is sent when the writing transaction commits), so dispatchers that LISTEN pick it up
--     within milliseconds instead of at their next poll. Done by triggers so that no writer (the
--     verification's transaction, a redelivery) has to remember it.

ALTER TABLE webhook_deliveries
    ADD COLUMN round_attempts integer NOT NULL DEFAULT 0,
    ADD CONSTRAINT webhook_deliveries_round_attempts CHECK (round_attempts BETWEEN 0 AND attempts);

CREATE INDEX webhook_deliveries_leases ON webhook_deliveries (lease_owner) WHERE lease_owner IS NOT NULL;

CREATE FUNCTION clickwrap_notify_webhooks() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- One payload for all: PostgreSQL folds identical notifications of one transaction into one.
    PERFORM pg_notify('clickwrap_webhooks', '');
    RETURN NULL;
END;
$$;

CREATE TRIGGER webhook_deliveries_notify_new
    AFTER INSERT ON webhook_deliveries
    FOR EACH ROW WHEN (NEW.state = 'PENDING')
    EXECUTE FUNCTION clickwrap_notify_webhooks();

-- A redelivery (back to PENDING, or brought forward); not a retry scheduled for later.
CREATE TRIGGER webhook_deliveries_notify_due
    AFTER UPDATE OF state, next_attempt_at ON webhook_deliveries
    FOR EACH ROW WHEN (NEW.state = 'PENDING'
                       AND (OLD.state <> 'PENDING' OR NEW.next_attempt_at < OLD.next_attempt_at))
    EXECUTE FUNCTION clickwrap_notify_webhooks();
