-- `clickwrap-server demo` makes its tenant, app and template once; this row remembers them.
CREATE TABLE demo_installation (
    singleton   boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    tenant_id   uuid NOT NULL REFERENCES tenants (id),
    app_id      uuid NOT NULL,
    template_id uuid NOT NULL,
    FOREIGN KEY (tenant_id, app_id) REFERENCES apps (tenant_id, id),
    FOREIGN KEY (tenant_id, template_id) REFERENCES templates (tenant_id, id)
);
