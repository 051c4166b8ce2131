-- Unverified events are not evidence: once no Signature for one can be verified any more, the
-- purge task deletes it (the event guard has always allowed deleting an unverified event and
-- refused it for verified ones). This index lets each batch find the oldest unverified events
-- without reading the verified ones, whose number only grows.
CREATE INDEX clickwrap_events_unverified_age ON clickwrap_events (action_at) WHERE status = 'UNVERIFIED';
