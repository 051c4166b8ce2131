-- A verification no longer announces its new delivery with NOTIFY: PostgreSQL serializes every
-- committing transaction that has NOTIFYed behind one global lock, which the busiest write of the
-- service (one per verification) should not wait for. The instance that verified wakes its own
-- dispatcher in process after the commit; other instances find the delivery by their poll.
-- Redeliveries (rare, by an operator) are still announced (`webhook_deliveries_notify_due`), as
-- are leases a stopping dispatcher gives back (in the statement that releases them).
DROP TRIGGER webhook_deliveries_notify_new ON webhook_deliveries;
