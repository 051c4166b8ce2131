//! The benchmark's installation: an app and ten templates made through the operator API (so they are
//! exactly what an operator would have), then one verified event per end user and template written
//! in bulk by SQL (a million through the API would take the better part of an hour).
//!
//! One more end user, the heavy one, holds one event in twenty of the table (see `heavy.rs`).
//!
//! Which (end user, template) pairs accepted the current version is a rule of their numbers, shared
//! with the load scripts: a pair is on the older major version when `(u + k) % 10 = 0` (so that end
//! user must accept again) and declined when `(3u + k) % 20 = 1`; every other pair accepted the
//! current version. Events are spread over the time each version was in force.

use diesel_async::{AsyncPgConnection, SimpleAsyncConnection};
use hyper::Method;
use serde_json::{Value, json};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use super::client::{Connection, query_value};

/// A published version as the public API shows it.
#[derive(Debug, Clone)]
pub(crate) struct Version {
    pub(crate) major: i64,
    pub(crate) minor: i64,
    pub(crate) effective_at: String,
    pub(crate) language: String,
    pub(crate) content_hash: String,
    pub(crate) content: String,
}

#[derive(Debug, Clone)]
pub(crate) struct Template {
    pub(crate) id: String,
    pub(crate) name: String,
    pub(crate) current: Version,
    /// The version before the current major (1.1), which some end users accepted last.
    pub(crate) older: Version,
}

/// The app and templates the load runs against.
#[derive(Debug, Clone)]
pub(crate) struct Installation {
    pub(crate) app: App,
    pub(crate) templates: Vec<Template>,
}

impl Installation {
    /// The `POST /clickwrap` body of an acceptance by `end_user_id`, of template `n` modulo their
    /// number, and the client address it comes from (one per flow, so rate limits stay out of the way).
    pub(crate) fn acceptance(&self, n: u64, end_user_id: &str) -> Result<(serde_json::Value, String), String> {
        let count = self.templates.len().max(1) as u64;
        let template =
            self.templates.get(usize::try_from(n % count).unwrap_or(0)).ok_or("the installation has no templates")?;
        let action = acceptance(&self.app.app_id, &template.id, &template.current, end_user_id, &Value::Null);
        let ip = format!("10.{}.{}.{}", 200 + n / 65_536 % 50, n / 256 % 256, n % 256);
        Ok((action, ip))
    }
}

/// The `POST /clickwrap` body of an acceptance of `version` (as the check showed it) by
/// `end_user_id`, with the placeholder values the text was rendered with.
pub(crate) fn acceptance(
    app_id: &str,
    template_id: &str,
    version: &Version,
    end_user_id: &str,
    placeholders: &Value,
) -> Value {
    json!({
        "appId": app_id,
        "clickwrapTemplateId": template_id,
        "clickwrapTemplateVersion": version.major,
        "clickwrapTemplateVersionMinor": version.minor,
        "endUserId": end_user_id,
        "action": "ACCEPTED",
        "language": version.language,
        "templatePlaceholders": placeholders,
        "contentHash": version.content_hash,
        "presentedAt": OffsetDateTime::now_utc().format(&Rfc3339).unwrap_or_default(),
        "presentation": {"mode": "DIALOG", "agreementMode": "SCROLL", "acceptLabel": "Accept", "checkboxLabel": null},
        "clientMetadata": {"screen": "1920x1080", "timezone": "Europe/Berlin"},
    })
}

pub(crate) const OPERATOR: &str = "/operator/v1";
pub(crate) const PUBLIC: &str = "/public-client/v1";

/// An app's credentials as its creation answered them.
#[derive(Debug, Clone)]
pub(crate) struct App {
    pub(crate) app_id: String,
    pub(crate) app_key: String,
    pub(crate) webhook_secret: String,
}

impl App {
    /// The headers that authenticate the app's backend.
    pub(crate) fn credentials(&self) -> [(&'static str, &str); 2] {
        [("x-app-id", &self.app_id), ("x-app-key", &self.app_key)]
    }
}

/// Sends an operator API request and expects `status`: its JSON answer.
async fn operator_call(
    connection: &mut Connection,
    operator_token: &str,
    method: Method,
    path: &str,
    body: Option<&Value>,
    (status, what): (u16, &str),
) -> Result<Value, String> {
    let bearer = format!("Bearer {operator_token}");
    let auth = [("authorization", bearer.as_str())];
    connection.send(method, &format!("{OPERATOR}{path}"), &auth, body).await?.expect(status, what)
}

/// Makes an app whose webhooks go to `webhook_url`.
pub(crate) async fn create_app(
    connection: &mut Connection,
    operator_token: &str,
    name: &str,
    webhook_url: &str,
) -> Result<App, String> {
    let body = json!({"name": name, "webhookUrl": webhook_url});
    let app = operator_call(connection, operator_token, Method::POST, "/apps", Some(&body), (201, "creating the app"))
        .await?;
    Ok(App {
        app_id: text(&app, "appId")?,
        app_key: text(&app, "appKey")?,
        webhook_secret: text(&app, "webhookSigningSecret")?,
    })
}

/// Makes a template from `body` (its name and draft): its id.
pub(crate) async fn create_template(
    connection: &mut Connection,
    operator_token: &str,
    body: &Value,
) -> Result<String, String> {
    let template =
        operator_call(connection, operator_token, Method::POST, "/templates", Some(body), (201, "creating a template"))
            .await?;
    text(&template, "clickwrapTemplateId")
}

/// Publishes the template's draft as a `kind` (MAJOR or MINOR) version in force from `effective_at`.
pub(crate) async fn publish(
    connection: &mut Connection,
    operator_token: &str,
    template_id: &str,
    kind: &str,
    effective_at: &str,
) -> Result<(), String> {
    let body = json!({"kind": kind, "effectiveAt": effective_at});
    let path = format!("/templates/{template_id}/versions");
    operator_call(connection, operator_token, Method::POST, &path, Some(&body), (201, "publishing")).await.map(|_| ())
}

/// Serves the template to the apps.
pub(crate) async fn enable(connection: &mut Connection, operator_token: &str, template_id: &str) -> Result<(), String> {
    let path = format!("/templates/{template_id}/enable");
    operator_call(connection, operator_token, Method::POST, &path, None, (200, "enabling")).await.map(|_| ())
}

/// The text at `key` of a JSON answer.
fn text(value: &Value, key: &str) -> Result<String, String> {
    value.get(key).and_then(|v| v.as_str()).map(str::to_owned).ok_or(format!("no `{key}` in {value}"))
}

/// The end user id of number `u` (also in the load scripts).
pub(crate) fn end_user(u: u64) -> String {
    format!("bench-user-{u:06}")
}

/// Makes the app (its webhook pointing at `webhook_url`) and `templates` templates with versions
/// 1.0, 1.1 and 2.0, published with effective dates in the past, through the operator API.
pub(crate) async fn install(
    connection: &mut Connection,
    operator_token: &str,
    webhook_url: &str,
    templates: u32,
) -> Result<Installation, String> {
    let app = create_app(connection, operator_token, "Bench app", webhook_url).await?;
    let app_id = &app.app_id;

    let now = OffsetDateTime::now_utc();
    let days_ago = |days: i64| (now - time::Duration::days(days)).format(&Rfc3339).unwrap_or_default();
    let mut made = Vec::new();
    for k in 0..templates {
        let name = format!("Bench terms {k}");
        let body = json!({"name": name, "tags": ["bench"], "content": {"en": agreement(k, "1.0")}});
        let id = create_template(connection, operator_token, &body).await?;
        for (kind, days, next) in [("MAJOR", 400, Some("1.1")), ("MINOR", 300, Some("2.0")), ("MAJOR", 200, None)] {
            publish(connection, operator_token, &id, kind, &days_ago(days)).await?;
            if let Some(next) = next {
                let draft = json!({"content": {"en": agreement(k, next)}});
                let path = format!("/templates/{id}/draft");
                operator_call(connection, operator_token, Method::PUT, &path, Some(&draft), (200, "draft")).await?;
            }
        }
        enable(connection, operator_token, &id).await?;

        let current = format!(
            "{PUBLIC}/clickwrap?appId={app_id}&clickwrapTemplateId={id}&endUserId={}",
            query_value("bench-setup")
        );
        let current = version(connection.send(Method::GET, &current, &[], None).await?.expect(200, "the check")?)?;
        let older = format!(
            "{PUBLIC}/clickwrap/content?appId={app_id}&clickwrapTemplateId={id}&clickwrapTemplateVersion=1&clickwrapTemplateVersionMinor=1"
        );
        let older = version(connection.send(Method::GET, &older, &[], None).await?.expect(200, "version 1.1")?)?;
        if (current.major, current.minor) != (2, 0) {
            return Err(format!("template {k}: the current version is {}.{}, not 2.0", current.major, current.minor));
        }
        made.push(Template { id, name, current, older });
    }
    Ok(Installation { app, templates: made })
}

/// A version as the check (or the content route) answered it.
pub(crate) fn version(view: Value) -> Result<Version, String> {
    let text = |key: &str| {
        view.get(key).and_then(|v| v.as_str()).map(str::to_owned).ok_or(format!("no `{key}` in the answer"))
    };
    let number = |key: &str| view.get(key).and_then(|v| v.as_i64()).ok_or(format!("no `{key}` in the answer"));
    Ok(Version {
        major: number("clickwrapTemplateVersion")?,
        minor: number("clickwrapTemplateVersionMinor")?,
        effective_at: text("effectiveAt")?,
        language: text("language")?,
        content_hash: text("contentHash")?,
        content: text("content")?,
    })
}

/// An agreement of about 8 KB: twenty numbered sections of plain terms.
fn agreement(k: u32, version: &str) -> String {
    let mut html = format!("<h1>Terms of Service {k}</h1><p>Version {version}. Please read these terms carefully.</p>");
    push_sections(&mut html, &format!(" of version {version}"));
    html
}

/// Twenty numbered sections of plain terms (about 7.5 KB); each names itself with `of` after its
/// number (" of version 1.1", or nothing).
pub(crate) fn push_sections(html: &mut String, of: &str) {
    for section in 1..=20 {
        html.push_str(&format!(
            "<h2>{section}. Section {section}</h2><p>The service is provided as is, without warranty of any kind. \
             You agree to use it lawfully and not to misuse it. We may change these terms; when a change is \
             material we will ask you to accept the new version before you go on using the service. \
             Section {section}{of} applies to accounts opened in any country.</p>"
        ));
    }
}

/// Writes one verified event per end user and template (see the module's rule) and the heavy end
/// user's history, with the events' secondary indexes set aside during the load, then VACUUM ANALYZE.
pub(crate) async fn fill(
    conn: &mut AsyncPgConnection,
    installation: &Installation,
    end_users: u64,
) -> Result<(), String> {
    let mut rows = Vec::new();
    let mut contents = Vec::new();
    for (k, t) in installation.templates.iter().enumerate() {
        let (c, o) = (&t.current, &t.older);
        rows.push(format!(
            "({k}, '{}'::uuid, {}, {}, {}, {}::timestamptz, {}, {}, {}, {}::timestamptz, {})",
            t.id,
            super::super::quote(&t.name),
            c.major,
            c.minor,
            super::super::quote(&c.effective_at),
            super::super::quote(&c.content_hash),
            o.major,
            o.minor,
            super::super::quote(&o.effective_at),
            super::super::quote(&o.content_hash)
        ));
        for v in [c, o] {
            contents.push(format!("({}, {})", super::super::quote(&v.content_hash), super::super::quote(&v.content)));
        }
    }
    let templates = installation.templates.len();
    let pairs = end_users.saturating_mul(templates as u64);
    let app = &installation.app.app_id;
    let setup = format!(
        "
SET synchronous_commit = off;
INSERT INTO event_contents (content_hash, content) VALUES {contents} ON CONFLICT DO NOTHING;
CREATE TEMP TABLE bench_templates (k int, template_id uuid, name text,
    major int, minor int, effective_at timestamptz, content_hash text,
    old_major int, old_minor int, old_effective_at timestamptz, old_content_hash text);
INSERT INTO bench_templates VALUES {rows};
",
        contents = contents.join(", "),
        rows = rows.join(", "),
    );
    let events = format!(
        "
INSERT INTO clickwrap_events (id, tenant_id, app_id, template_id, template_name, version_major, version_minor,
    effective_at, end_user_id, action, status, language, content_hash, template_placeholders, technical_metadata,
    presentation_mode, agreement_mode, accept_label, checkbox_label, presented_at, action_at, verified_at)
SELECT md5('bench-event:' || u || ':' || t.k)::uuid, a.tenant_id, a.id, t.template_id, t.name,
       CASE WHEN s.older THEN t.old_major ELSE t.major END, CASE WHEN s.older THEN t.old_minor ELSE t.minor END,
       CASE WHEN s.older THEN t.old_effective_at ELSE t.effective_at END,
       'bench-user-' || lpad(u::text, 6, '0'), s.action, s.action, 'en',
       CASE WHEN s.older THEN t.old_content_hash ELSE t.content_hash END, NULL,
       json_build_object('ip', format('10.%s.%s.%s', u / 65536 % 256, u / 256 % 256, u % 256),
                         'userAgent', 'Mozilla/5.0 (bench)')::text,
       'DIALOG', 'SCROLL', 'Accept', NULL, s.action_at - interval '20 seconds', s.action_at,
       s.action_at + interval '1 second'
FROM apps a
CROSS JOIN generate_series(0, {last}) AS u
CROSS JOIN bench_templates t
CROSS JOIN LATERAL (SELECT (u + t.k) % 10 = 0 AS older,
                           CASE WHEN (3 * u + t.k) % 20 = 1 THEN 'DECLINED' ELSE 'ACCEPTED' END AS action,
                           (u * {templates} + t.k)::float8 / {pairs} AS share) AS f
CROSS JOIN LATERAL (SELECT f.older, f.action,
       CASE WHEN f.older THEN t.old_effective_at + f.share * (t.effective_at - t.old_effective_at)
            ELSE t.effective_at + f.share * (now() - interval '1 hour' - t.effective_at) END AS action_at) AS s
WHERE a.id = '{app}';
",
        last = end_users.saturating_sub(1),
        pairs = pairs.max(1),
    );
    let steps = [
        ("event contents and templates", setup),
        ("set aside the events_* indexes", super::super::SET_ASIDE_INDEXES.to_owned()),
        ("verified events", events),
        ("the heavy end user's events", super::heavy::events_sql(app, super::heavy::heavy_events(pairs), templates)),
        ("build the events_* indexes", super::super::REBUILD_INDEXES.to_owned()),
        ("VACUUM ANALYZE", "VACUUM ANALYZE".to_owned()),
    ];
    for (what, sql) in steps {
        let started = std::time::Instant::now();
        conn.batch_execute(&sql).await.map_err(|e| format!("filling the database ({what}) failed: {e}"))?;
        println!("    {what}: {:.1}s", started.elapsed().as_secs_f64());
    }
    Ok(())
}

/// Whether end user `u` accepted template `k`'s current version (the rule above).
pub(crate) fn accepted_current(u: u64, k: u64) -> bool {
    !(u + k).is_multiple_of(10) && (3 * u + k) % 20 != 1
}

/// Checks the rule against the service: a few pairs of each kind, through `GET /clickwrap`.
pub(crate) async fn check_rule(
    connection: &mut Connection,
    installation: &Installation,
    end_users: u64,
) -> Result<(), String> {
    let templates = installation.templates.len() as u64;
    for n in 0..60_u64 {
        let u = (n * 7_919) % end_users;
        let k = n % templates;
        let Some(template) = installation.templates.get(usize::try_from(k).unwrap_or(0)) else { continue };
        let path = format!(
            "{PUBLIC}/clickwrap?appId={}&clickwrapTemplateId={}&endUserId={}",
            installation.app.app_id,
            template.id,
            end_user(u)
        );
        let ip = format!("10.{}.{}.{}", u / 65_536 % 256, u / 256 % 256, u % 256);
        let view =
            connection.send(Method::GET, &path, &[("x-forwarded-for", &ip)], None).await?.expect(200, "check")?;
        let required = view.get("acceptanceRequired").and_then(|v| v.as_bool());
        if required != Some(!accepted_current(u, k)) {
            return Err(format!("end user {u}, template {k}: acceptanceRequired is {required:?}, not as filled"));
        }
    }
    Ok(())
}
