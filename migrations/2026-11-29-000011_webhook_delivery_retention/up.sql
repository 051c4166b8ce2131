-- Finished webhook deliveries (and their attempts) are purged once past their retention period
-- (CLICKWRAP_WEBHOOK_RETENTION_DAYS for DELIVERED, CLICKWRAP_WEBHOOK_FAILED_RETENTION_DAYS for
-- FAILED and DISABLED). A delivery's last activity is its last attempt, or its creation when it had
-- none. This index lets each purge batch go straight to the finished deliveries of one state last
-- active before a cutoff, without reading the PENDING ones or the recent ones. Old binaries do not
-- purge and are not affected by it. Built without CONCURRENTLY (migrations run in one transaction):
-- writes to webhook_deliveries wait while it is built, as for the other indexes of this table.
CREATE INDEX webhook_deliveries_finished
    ON webhook_deliveries (state, (COALESCE(last_attempt_at, created_at)))
    WHERE state IN ('DELIVERED', 'FAILED', 'DISABLED');
