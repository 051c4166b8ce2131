UPDATE webhook_attempts AS a SET request_body = d.payload
FROM webhook_deliveries AS d
WHERE a.request_body IS NULL AND d.tenant_id = a.tenant_id AND d.id = a.delivery_id;
ALTER TABLE webhook_attempts ALTER COLUMN request_body SET NOT NULL;
