use std::collections::{BTreeMap, BTreeSet, HashMap};

use async_trait::async_trait;
use clickwrap_domain::audit::models::AuditEntry;
use clickwrap_domain::content::sanitize::SanitizedHtml;
use clickwrap_domain::ports::{InsertVersionError, StorageError, TemplateStore};
use clickwrap_domain::templates::customizations::{
    AgreementMode, ButtonStyle, Buttons, Color, Customizations, TextOverrides, Theme,
};
use clickwrap_domain::templates::models::TemplateUpdate;
use clickwrap_domain::templates::models::{LocalizedContent, Template, TemplateVersion};
use clickwrap_domain::templates::versioning::VersionNumber;
use clickwrap_domain::{AppId, Language, Name, Tag, TemplateId, TenantId, Timestamp};
use diesel::prelude::*;
use diesel_async::{AsyncConnection, RunQueryDsl};
use serde_json::{Map, Value, json};

use crate::connection::DbConnection;
use crate::convert::{at, i32_of, ts, u32_of};
use crate::errors::{corrupt, from_diesel, is_unique_violation};
use crate::schema::{template_apps, template_versions, templates};
use crate::{PgStore, audit};

#[derive(Queryable, Selectable, Insertable)]
#[diesel(table_name = templates, check_for_backend(diesel::pg::Pg))]
struct TemplateRow {
    id: uuid::Uuid,
    tenant_id: uuid::Uuid,
    name: String,
    tags: Vec<String>,
    default_language: String,
    draft: Value,
    customizations: Value,
    always_require_acceptance: bool,
    enabled: bool,
    created_at: time::OffsetDateTime,
    updated_at: time::OffsetDateTime,
}

/// The columns one [`TemplateUpdate`] writes; `None` leaves a column as it is.
#[derive(AsChangeset, Default)]
#[diesel(table_name = templates, check_for_backend(diesel::pg::Pg))]
struct TemplateChangeset {
    name: Option<String>,
    tags: Option<Vec<String>>,
    default_language: Option<String>,
    draft: Option<Value>,
    customizations: Option<Value>,
    always_require_acceptance: Option<bool>,
    enabled: Option<bool>,
    updated_at: Option<time::OffsetDateTime>,
}

impl TemplateChangeset {
    /// The columns `update` writes, with `updated_at`. Links are rows of their own (see
    /// [`write_links`]); for them only `updated_at` is set, which also locks the template row, so
    /// that link changes of one template take turns.
    fn of(update: &TemplateUpdate, updated_at: Timestamp) -> Self {
        let updated_at = Some(at(updated_at));
        match update {
            TemplateUpdate::Settings(changes) => Self {
                name: changes.name.as_ref().map(|n| n.as_str().to_owned()),
                tags: changes.tags.as_ref().map(tag_texts),
                default_language: changes.default_language.map(|l| l.code().to_owned()),
                always_require_acceptance: changes.always_require_acceptance,
                updated_at,
                ..Self::default()
            },
            TemplateUpdate::Draft(content) => {
                Self { draft: Some(content_to_json(content)), updated_at, ..Self::default() }
            }
            TemplateUpdate::Customizations(c) => {
                Self { customizations: Some(customizations_to_json(c)), updated_at, ..Self::default() }
            }
            TemplateUpdate::Apps(_) => Self { updated_at, ..Self::default() },
            // Not reached: `update_row` writes one draft language with a statement of its own and
            // asks for no changeset. Were it asked, stamping the row alone would lose no edit.
            TemplateUpdate::DraftLanguage(..) => Self { updated_at, ..Self::default() },
            TemplateUpdate::Enabled(enabled) => Self { enabled: Some(*enabled), updated_at, ..Self::default() },
        }
    }
}

fn tag_texts(tags: &BTreeSet<Tag>) -> Vec<String> {
    tags.iter().map(|t| t.as_str().to_owned()).collect()
}

#[derive(Queryable, Selectable, Insertable)]
#[diesel(table_name = template_versions, check_for_backend(diesel::pg::Pg))]
struct VersionRow {
    tenant_id: uuid::Uuid,
    template_id: uuid::Uuid,
    major: i32,
    minor: i32,
    effective_at: time::OffsetDateTime,
    published_at: time::OffsetDateTime,
    content: Value,
}

impl TemplateRow {
    fn from_domain(template: &Template) -> Self {
        Self {
            id: *template.id.as_uuid(),
            tenant_id: *template.tenant_id.as_uuid(),
            name: template.name.as_str().to_owned(),
            tags: tag_texts(&template.tags),
            default_language: template.default_language.code().to_owned(),
            draft: content_to_json(&template.draft),
            customizations: customizations_to_json(&template.customizations),
            always_require_acceptance: template.always_require_acceptance,
            enabled: template.enabled,
            created_at: at(template.created_at),
            updated_at: at(template.updated_at),
        }
    }

    fn into_domain(self, app_ids: BTreeSet<AppId>, versions: Vec<TemplateVersion>) -> Result<Template, StorageError> {
        Ok(Template {
            id: TemplateId::from_uuid(self.id),
            tenant_id: TenantId::from_uuid(self.tenant_id),
            name: Name::parse(&self.name).map_err(|e| corrupt("template name", e))?,
            tags: self.tags.iter().map(|t| Tag::parse(t)).collect::<Result<_, _>>().map_err(|e| corrupt("tag", e))?,
            default_language: language(&self.default_language)?,
            draft: content_from_json(&self.draft)?,
            customizations: customizations_from_json(&self.customizations)?,
            always_require_acceptance: self.always_require_acceptance,
            enabled: self.enabled,
            app_ids,
            versions,
            created_at: ts(self.created_at),
            updated_at: ts(self.updated_at),
        })
    }
}

impl VersionRow {
    fn from_domain(tenant: TenantId, template: TemplateId, version: &TemplateVersion) -> Self {
        Self {
            tenant_id: *tenant.as_uuid(),
            template_id: *template.as_uuid(),
            major: i32_of(version.number.major),
            minor: i32_of(version.number.minor),
            effective_at: at(version.effective_at),
            published_at: at(version.published_at),
            content: content_to_json(&version.content),
        }
    }

    fn into_domain(self) -> Result<TemplateVersion, StorageError> {
        Ok(TemplateVersion {
            number: VersionNumber::new(u32_of(self.major, "major")?, u32_of(self.minor, "minor")?),
            effective_at: ts(self.effective_at),
            published_at: ts(self.published_at),
            content: content_from_json(&self.content)?,
        })
    }
}

fn language(code: &str) -> Result<Language, StorageError> {
    Language::from_tag(code).map_err(|e| corrupt("language", e))
}

fn content_to_json(content: &LocalizedContent) -> Value {
    Value::Object(content.iter().map(|(lang, html)| (lang.code().to_owned(), Value::from(html.as_str()))).collect())
}

fn content_from_json(value: &Value) -> Result<LocalizedContent, StorageError> {
    let object = value.as_object().ok_or_else(|| corrupt("content", "not an object"))?;
    object
        .iter()
        .map(|(code, html)| {
            let html = html.as_str().ok_or_else(|| corrupt("content", "not a string"))?;
            // Sanitized before it was stored.
            Ok((language(code)?, SanitizedHtml::from_stored(html.to_owned())))
        })
        .collect()
}

fn customizations_to_json(c: &Customizations) -> Value {
    let texts: Map<String, Value> = c
        .texts
        .iter()
        .map(|(lang, t)| {
            let texts = json!({
                "title": t.title, "acceptButton": t.accept_button, "declineButton": t.decline_button,
                "checkboxLabel": t.checkbox_label, "versionLabel": t.version_label,
            });
            (lang.code().to_owned(), texts)
        })
        .collect();
    json!({
        "agreementMode": c.agreement_mode.as_str(),
        "theme": {
            "primaryColor": c.theme.primary_color.as_ref().map(Color::as_str),
            "backgroundColor": c.theme.background_color.as_ref().map(Color::as_str),
            "textColor": c.theme.text_color.as_ref().map(Color::as_str),
            "borderRadius": c.theme.border_radius,
        },
        "buttons": {
            "acceptStyle": c.buttons.accept_style.as_str(),
            "declineStyle": c.buttons.decline_style.as_str(),
            "showDecline": c.buttons.show_decline,
        },
        "logoUrl": c.logo_url,
        "texts": texts,
    })
}

fn customizations_from_json(value: &Value) -> Result<Customizations, StorageError> {
    let bad = |what: &str| corrupt("customizations", what);
    let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::to_owned);
    let color = |v: &Value, key: &str| -> Result<Option<Color>, StorageError> {
        text(v, key).map(|c| Color::parse(&c).map_err(|e| corrupt("color", e))).transpose()
    };
    let style = |v: &Value, key: &str| -> Result<ButtonStyle, StorageError> {
        ButtonStyle::parse(&text(v, key).unwrap_or_default()).map_err(|e| corrupt("button style", e))
    };
    let theme = value.get("theme").ok_or_else(|| bad("theme"))?;
    let buttons = value.get("buttons").ok_or_else(|| bad("buttons"))?;
    let mut texts = BTreeMap::new();
    for (code, t) in value.get("texts").and_then(Value::as_object).into_iter().flatten() {
        texts.insert(
            language(code)?,
            TextOverrides {
                title: text(t, "title"),
                accept_button: text(t, "acceptButton"),
                decline_button: text(t, "declineButton"),
                checkbox_label: text(t, "checkboxLabel"),
                version_label: text(t, "versionLabel"),
            },
        );
    }
    Ok(Customizations {
        agreement_mode: AgreementMode::parse(&text(value, "agreementMode").unwrap_or_default())
            .ok_or_else(|| bad("agreementMode"))?,
        theme: Theme {
            primary_color: color(theme, "primaryColor")?,
            background_color: color(theme, "backgroundColor")?,
            text_color: color(theme, "textColor")?,
            border_radius: theme.get("borderRadius").and_then(Value::as_u64).and_then(|r| u8::try_from(r).ok()),
        },
        buttons: Buttons {
            accept_style: style(buttons, "acceptStyle")?,
            decline_style: style(buttons, "declineStyle")?,
            show_decline: buttons.get("showDecline").and_then(Value::as_bool).unwrap_or(true),
        },
        logo_url: text(value, "logoUrl"),
        texts,
    })
}

/// Loads the versions and app links of these templates and assembles them.
async fn assemble(conn: &mut DbConnection, rows: Vec<TemplateRow>) -> Result<Vec<Template>, StorageError> {
    let ids: Vec<uuid::Uuid> = rows.iter().map(|r| r.id).collect();
    let version_rows: Vec<VersionRow> = template_versions::table
        .filter(template_versions::template_id.eq_any(&ids))
        .order((template_versions::template_id, template_versions::major, template_versions::minor))
        .select(VersionRow::as_select())
        .load(conn)
        .await
        .map_err(from_diesel)?;
    let links: Vec<(uuid::Uuid, uuid::Uuid)> = template_apps::table
        .filter(template_apps::template_id.eq_any(&ids))
        .select((template_apps::template_id, template_apps::app_id))
        .load(conn)
        .await
        .map_err(from_diesel)?;
    let mut versions: HashMap<uuid::Uuid, Vec<TemplateVersion>> = HashMap::new();
    for row in version_rows {
        let template = row.template_id;
        versions.entry(template).or_default().push(row.into_domain()?);
    }
    let mut app_ids: HashMap<uuid::Uuid, BTreeSet<AppId>> = HashMap::new();
    for (template, app) in links {
        app_ids.entry(template).or_default().insert(AppId::from_uuid(app));
    }
    rows.into_iter()
        .map(|row| {
            let id = row.id;
            row.into_domain(app_ids.remove(&id).unwrap_or_default(), versions.remove(&id).unwrap_or_default())
        })
        .collect()
}

/// Writes `update` to the tenant's template row; the row as it is afterwards, or none.
async fn update_row(
    conn: &mut DbConnection,
    tenant: TenantId,
    id: TemplateId,
    update: &TemplateUpdate,
    updated_at: Timestamp,
) -> QueryResult<Option<TemplateRow>> {
    let target =
        || templates::table.filter(templates::tenant_id.eq(tenant.as_uuid())).filter(templates::id.eq(id.as_uuid()));
    let stamp = templates::updated_at.eq(at(updated_at));
    // One draft language is changed inside the stored object by the statement itself, so that a
    // save of another language committed in between is kept, not overwritten by an older copy.
    match update {
        TemplateUpdate::DraftLanguage(language, Some(content)) => {
            let entry = json!({ language.code(): content.as_str() });
            diesel::update(target())
                .set((templates::draft.eq(templates::draft.concat(entry)), stamp))
                .returning(TemplateRow::as_returning())
                .get_result(conn)
                .await
                .optional()
        }
        TemplateUpdate::DraftLanguage(language, None) => diesel::update(target())
            .set((templates::draft.eq(templates::draft.remove(language.code())), stamp))
            .returning(TemplateRow::as_returning())
            .get_result(conn)
            .await
            .optional(),
        other => diesel::update(target())
            .set(&TemplateChangeset::of(other, updated_at))
            .returning(TemplateRow::as_returning())
            .get_result(conn)
            .await
            .optional(),
    }
}

/// Makes `app_ids` the template's only links.
async fn write_links(
    conn: &mut DbConnection,
    tenant: TenantId,
    template: TemplateId,
    app_ids: &BTreeSet<AppId>,
) -> QueryResult<()> {
    diesel::delete(template_apps::table.filter(template_apps::template_id.eq(template.as_uuid())))
        .execute(conn)
        .await?;
    let links: Vec<_> = app_ids
        .iter()
        .map(|app| {
            (
                template_apps::tenant_id.eq(*tenant.as_uuid()),
                template_apps::template_id.eq(*template.as_uuid()),
                template_apps::app_id.eq(*app.as_uuid()),
            )
        })
        .collect();
    if !links.is_empty() {
        diesel::insert_into(template_apps::table).values(links).execute(conn).await?;
    }
    Ok(())
}

#[async_trait]
impl TemplateStore for PgStore {
    async fn insert_template(&self, template: &Template, audit: &AuditEntry) -> Result<(), StorageError> {
        let mut conn = self.conn().await?;
        let row = TemplateRow::from_domain(template);
        let versions: Vec<VersionRow> =
            template.versions.iter().map(|v| VersionRow::from_domain(template.tenant_id, template.id, v)).collect();
        conn.transaction::<_, diesel::result::Error, _>(async |conn| {
            diesel::insert_into(templates::table).values(&row).execute(conn).await?;
            write_links(conn, template.tenant_id, template.id, &template.app_ids).await?;
            if !versions.is_empty() {
                diesel::insert_into(template_versions::table).values(&versions).execute(conn).await?;
            }
            audit::write(conn, audit).await
        })
        .await
        .map_err(from_diesel)
    }

    async fn find_template(&self, tenant: TenantId, id: TemplateId) -> Result<Option<Template>, StorageError> {
        let mut conn = self.conn().await?;
        let rows: Vec<TemplateRow> = templates::table
            .filter(templates::tenant_id.eq(tenant.as_uuid()))
            .filter(templates::id.eq(id.as_uuid()))
            .select(TemplateRow::as_select())
            .load(&mut conn)
            .await
            .map_err(from_diesel)?;
        if rows.is_empty() {
            return Ok(None);
        }
        Ok(assemble(&mut conn, rows).await?.into_iter().next())
    }

    async fn list_templates(&self, tenant: TenantId) -> Result<Vec<Template>, StorageError> {
        let mut conn = self.conn().await?;
        let rows: Vec<TemplateRow> = templates::table
            .filter(templates::tenant_id.eq(tenant.as_uuid()))
            .order((templates::created_at, templates::id))
            .select(TemplateRow::as_select())
            .load(&mut conn)
            .await
            .map_err(from_diesel)?;
        assemble(&mut conn, rows).await
    }

    async fn update_template(
        &self,
        tenant: TenantId,
        id: TemplateId,
        update: &TemplateUpdate,
        updated_at: Timestamp,
        audit: &AuditEntry,
    ) -> Result<Option<Template>, StorageError> {
        let mut conn = self.conn().await?;
        let row = conn
            .transaction::<_, diesel::result::Error, _>(async |conn| {
                let row = update_row(conn, tenant, id, update, updated_at).await?;
                if row.is_some() {
                    if let TemplateUpdate::Apps(app_ids) = update {
                        write_links(conn, tenant, id, app_ids).await?;
                    }
                    audit::write(conn, audit).await?;
                }
                Ok(row)
            })
            .await
            .map_err(from_diesel)?;
        match row {
            Some(row) => Ok(assemble(&mut conn, vec![row]).await?.into_iter().next()),
            None => Ok(None),
        }
    }

    async fn insert_version(
        &self,
        tenant: TenantId,
        template: TemplateId,
        version: &TemplateVersion,
        audit: &AuditEntry,
    ) -> Result<(), InsertVersionError> {
        let mut conn = self.conn().await?;
        let row = VersionRow::from_domain(tenant, template, version);
        let result = conn
            .transaction::<_, diesel::result::Error, _>(async |conn| {
                // Publishes of one template take turns, so numbers and effectiveAt only ever grow.
                let locked: Option<uuid::Uuid> = templates::table
                    .filter(templates::tenant_id.eq(tenant.as_uuid()))
                    .filter(templates::id.eq(template.as_uuid()))
                    .select(templates::id)
                    .for_update()
                    .first(conn)
                    .await
                    .optional()?;
                if locked.is_none() {
                    return Err(diesel::result::Error::NotFound);
                }
                let latest: Option<(i32, i32)> = template_versions::table
                    .filter(template_versions::template_id.eq(template.as_uuid()))
                    .order((template_versions::major.desc(), template_versions::minor.desc()))
                    .select((template_versions::major, template_versions::minor))
                    .first(conn)
                    .await
                    .optional()?;
                if latest.is_some_and(|latest| latest >= (row.major, row.minor)) {
                    return Ok(false);
                }
                diesel::insert_into(template_versions::table).values(&row).execute(conn).await?;
                audit::write(conn, audit).await?;
                Ok(true)
            })
            .await;
        match result {
            Ok(true) => Ok(()),
            Ok(false) => Err(InsertVersionError::Conflict(version.number)),
            Err(e) if is_unique_violation(&e) => Err(InsertVersionError::Conflict(version.number)),
            Err(diesel::result::Error::NotFound) => {
                Err(StorageError::Internal(format!("template {template} does not exist")).into())
            }
            Err(e) => Err(from_diesel(e).into()),
        }
    }
}
