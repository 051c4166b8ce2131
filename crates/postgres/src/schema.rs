//! Diesel's view of the tables in `migrations/`. Written by hand to match the SQL exactly.

diesel::table! {
    tenants (id) {
        id -> Uuid,
        name -> Text,
        event_quota -> Nullable<Int8>,
        created_at -> Timestamptz,
        legal_name -> Nullable<Text>,
    }
}

diesel::table! {
    operator_tokens (id) {
        id -> Uuid,
        tenant_id -> Uuid,
        token_hash -> Bytea,
        created_at -> Timestamptz,
        name -> Text,
        role -> Text,
        last_used_at -> Nullable<Timestamptz>,
        revoked_at -> Nullable<Timestamptz>,
    }
}

diesel::table! {
    console_sessions (secret_hash) {
        secret_hash -> Bytea,
        tenant_id -> Uuid,
        operator_token_id -> Uuid,
        created_at -> Timestamptz,
        last_seen_at -> Timestamptz,
    }
}

diesel::table! {
    audit_log (id) {
        id -> Uuid,
        tenant_id -> Uuid,
        at -> Timestamptz,
        operator_token_id -> Nullable<Uuid>,
        action -> Text,
        subject_id -> Text,
        details -> Jsonb,
    }
}

diesel::table! {
    apps (id) {
        id -> Uuid,
        tenant_id -> Uuid,
        name -> Text,
        webhook_url -> Nullable<Text>,
        webhook_enabled -> Bool,
        allowed_origins -> Array<Text>,
        app_key_hash -> Bytea,
        webhook_secret_sealed -> Bytea,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
        previous_app_key_hash -> Nullable<Bytea>,
        previous_app_key_expires_at -> Nullable<Timestamptz>,
    }
}

diesel::table! {
    templates (id) {
        id -> Uuid,
        tenant_id -> Uuid,
        name -> Text,
        tags -> Array<Text>,
        default_language -> Text,
        draft -> Jsonb,
        customizations -> Jsonb,
        always_require_acceptance -> Bool,
        enabled -> Bool,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    template_apps (template_id, app_id) {
        tenant_id -> Uuid,
        template_id -> Uuid,
        app_id -> Uuid,
    }
}

diesel::table! {
    template_versions (template_id, major, minor) {
        tenant_id -> Uuid,
        template_id -> Uuid,
        major -> Int4,
        minor -> Int4,
        effective_at -> Timestamptz,
        published_at -> Timestamptz,
        content -> Jsonb,
    }
}

diesel::table! {
    event_contents (content_hash) {
        content_hash -> Text,
        content -> Text,
    }
}

diesel::table! {
    clickwrap_events (id) {
        id -> Uuid,
        tenant_id -> Uuid,
        app_id -> Uuid,
        template_id -> Uuid,
        template_name -> Text,
        version_major -> Int4,
        version_minor -> Int4,
        effective_at -> Timestamptz,
        end_user_id -> Text,
        action -> Text,
        status -> Text,
        language -> Text,
        content_hash -> Text,
        template_placeholders -> Nullable<Text>,
        technical_metadata -> Text,
        presentation_mode -> Text,
        agreement_mode -> Text,
        accept_label -> Text,
        checkbox_label -> Nullable<Text>,
        presented_at -> Timestamptz,
        action_at -> Timestamptz,
        verified_at -> Nullable<Timestamptz>,
        scroll_required -> Nullable<Bool>,
    }
}

diesel::table! {
    certificates (event_id) {
        event_id -> Uuid,
        tenant_id -> Uuid,
        pdf -> Bytea,
        sha256 -> Bytea,
        created_at -> Timestamptz,
        app_name -> Nullable<Text>,
        operator_name -> Nullable<Text>,
    }
}

diesel::table! {
    webhook_deliveries (id) {
        id -> Uuid,
        tenant_id -> Uuid,
        app_id -> Uuid,
        event_id -> Uuid,
        payload -> Text,
        state -> Text,
        attempts -> Int4,
        next_attempt_at -> Nullable<Timestamptz>,
        last_attempt_at -> Nullable<Timestamptz>,
        last_response_status -> Nullable<Int4>,
        lease_owner -> Nullable<Uuid>,
        lease_until -> Nullable<Timestamptz>,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    webhook_attempts (id) {
        id -> Uuid,
        tenant_id -> Uuid,
        delivery_id -> Uuid,
        attempt -> Int4,
        request_body -> Nullable<Text>,
        response_status -> Nullable<Int4>,
        response_excerpt -> Nullable<Text>,
        error_class -> Nullable<Text>,
        started_at -> Timestamptz,
        duration_ms -> Int4,
    }
}

diesel::table! {
    usage_counters (tenant_id, period_start, shard) {
        tenant_id -> Uuid,
        period_start -> Timestamptz,
        shard -> Int2,
        events -> Int8,
    }
}

diesel::table! {
    rate_limit_windows (app_id, client_ip, route, window_start) {
        app_id -> Uuid,
        client_ip -> Text,
        route -> Text,
        window_start -> Timestamptz,
        hits -> Int8,
    }
}

diesel::table! {
    re_accept_requests (id) {
        id -> Int8,
        tenant_id -> Uuid,
        template_id -> Uuid,
        end_user_id -> Text,
        reason -> Nullable<Text>,
        requested_at -> Timestamptz,
    }
}

diesel::table! {
    server_keys (id) {
        id -> Text,
        material -> Nullable<Bytea>,
        is_current -> Bool,
        created_at -> Timestamptz,
        material_sealed -> Nullable<Bytea>,
        replaced_at -> Nullable<Timestamptz>,
    }
}

diesel::joinable!(clickwrap_events -> event_contents (content_hash));

diesel::allow_tables_to_appear_in_same_query!(
    tenants,
    operator_tokens,
    console_sessions,
    audit_log,
    apps,
    templates,
    template_apps,
    template_versions,
    event_contents,
    clickwrap_events,
    certificates,
    webhook_deliveries,
    webhook_attempts,
    usage_counters,
    rate_limit_windows,
    re_accept_requests,
    server_keys,
);

diesel::table! {
    demo_installation (singleton) {
        singleton -> Bool,
        tenant_id -> Uuid,
        app_id -> Uuid,
        template_id -> Uuid,
        app_key_sealed -> Nullable<Bytea>,
        operator_token_sealed -> Nullable<Bytea>,
    }
}

diesel::table! {
    signing_identities (id) {
        id -> Uuid,
        private_key_sealed -> Bytea,
        certificate_der -> Bytea,
        is_current -> Bool,
        created_at -> Timestamptz,
        chain_der -> Array<Bytea>,
        replaced_at -> Nullable<Timestamptz>,
    }
}

diesel::table! {
    ledger_logs (tenant_id) {
        tenant_id -> Uuid,
        tree_size -> Int8,
    }
}

diesel::table! {
    ledger_leaves (tenant_id, leaf_index) {
        tenant_id -> Uuid,
        leaf_index -> Int8,
        event_id -> Uuid,
        leaf_hash -> Bytea,
        salt -> Nullable<Bytea>,
    }
}

diesel::table! {
    ledger_frontiers (tenant_id) {
        tenant_id -> Uuid,
        tree_size -> Int8,
        frontier -> Bytea,
    }
}

diesel::table! {
    ledger_tree_heads (tenant_id, tree_size) {
        tenant_id -> Uuid,
        tree_size -> Int8,
        root_hash -> Bytea,
        signed_at -> Timestamptz,
        signature -> Bytea,
        key_id -> Text,
    }
}

diesel::table! {
    ledger_keys (id) {
        id -> Text,
        private_key_sealed -> Bytea,
        public_key_der -> Bytea,
        is_current -> Bool,
        created_at -> Timestamptz,
    }
}

diesel::allow_tables_to_appear_in_same_query!(ledger_logs, ledger_leaves, ledger_frontiers, ledger_tree_heads);
