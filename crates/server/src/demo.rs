//! `clickwrap-server demo`: a tenant, an app and a published, enabled template in every launch
//! language, made once and reused on every start. Its App Key and an operator token are issued
//! anew on each start (only their hashes are stored, so old ones cannot be shown again).

use std::collections::{BTreeMap, BTreeSet};

use clickwrap_domain::apps::service::NewApp;
use clickwrap_domain::content::sanitize::sanitize;
use clickwrap_domain::service::ClickwrapService;
use clickwrap_domain::templates::customizations::Customizations;
use clickwrap_domain::templates::service::NewTemplate;
use clickwrap_domain::templates::versioning::VersionKind;
use clickwrap_domain::tenants::models::{Admin, OperatorRole};
use clickwrap_domain::{Language, Name, Tag};
use clickwrap_postgres::{DemoInstallation, PgStore};

/// What the demo prints and its page needs.
#[derive(Debug, Clone)]
pub(crate) struct DemoCredentials {
    pub(crate) installation: DemoInstallation,
    pub(crate) app_key: String,
    pub(crate) operator_token: String,
}

#[derive(Debug, thiserror::Error)]
#[error("setting up the demo failed: {0}")]
pub(crate) struct DemoError(String);

fn failed(error: impl std::fmt::Display) -> DemoError {
    DemoError(error.to_string())
}

/// The agreement in every launch language; `{{fullName}}` shows placeholder filling.
const CONTENT: [(Language, &str); 7] = [
    (
        Language::English,
        "<h1>Terms of Service</h1><p>Welcome, {{fullName}}. These terms govern your use of the demo service.</p><ol><li>Use the service lawfully.</li><li>Your consent is recorded with a signed certificate.</li></ol><p>Questions? Write to <a href=\"mailto:legal@example.com\">legal@example.com</a>.</p>",
    ),
    (
        Language::German,
        "<h1>Nutzungsbedingungen</h1><p>Willkommen, {{fullName}}. Diese Bedingungen regeln die Nutzung des Demodienstes.</p><ol><li>Nutzen Sie den Dienst rechtmäßig.</li><li>Ihre Zustimmung wird mit einem signierten Zertifikat festgehalten.</li></ol>",
    ),
    (
        Language::French,
        "<h1>Conditions d'utilisation</h1><p>Bienvenue, {{fullName}}. Ces conditions régissent l'utilisation du service de démonstration.</p><ol><li>Utilisez le service de manière légale.</li><li>Votre consentement est enregistré avec un certificat signé.</li></ol>",
    ),
    (
        Language::Spanish,
        "<h1>Condiciones de servicio</h1><p>Bienvenido, {{fullName}}. Estas condiciones rigen el uso del servicio de demostración.</p><ol><li>Utilice el servicio de forma lícita.</li><li>Su consentimiento se registra con un certificado firmado.</li></ol>",
    ),
    (
        Language::Chinese,
        "<h1>服务条款</h1><p>欢迎，{{fullName}}。本条款适用于您对演示服务的使用。</p><ol><li>请合法使用本服务。</li><li>您的同意将以签名证书记录。</li></ol>",
    ),
    (
        Language::Hindi,
        "<h1>सेवा की शर्तें</h1><p>स्वागत है, {{fullName}}। ये शर्तें डेमो सेवा के आपके उपयोग को नियंत्रित करती हैं।</p><ol><li>सेवा का कानूनी रूप से उपयोग करें।</li><li>आपकी सहमति एक हस्ताक्षरित प्रमाणपत्र के साथ दर्ज की जाती है।</li></ol>",
    ),
    (
        Language::Russian,
        "<h1>Условия использования</h1><p>Добро пожаловать, {{fullName}}. Эти условия регулируют использование демонстрационного сервиса.</p><ol><li>Используйте сервис законно.</li><li>Ваше согласие фиксируется подписанным сертификатом.</li></ol>",
    ),
];

/// The name of the operator token the demo makes (anew at every start).
const DEMO_OPERATOR: &str = "Demo operator";

pub(crate) async fn ensure(service: &ClickwrapService, store: &PgStore) -> Result<DemoCredentials, DemoError> {
    let installation = match store.demo_installation().await.map_err(failed)? {
        Some(existing) => existing,
        None => create(service, store).await?,
    };
    let admin = Admin::server(installation.tenant_id);
    let app_key = service.regenerate_app_key(&admin, installation.app_id).await.map_err(failed)?;
    // One demo operator token at a time: the previous start's stops working.
    for token in service.list_operator_tokens(installation.tenant_id).await.map_err(failed)? {
        if token.name.as_str() == DEMO_OPERATOR {
            service.revoke_operator_token(&admin, token.id).await.map_err(failed)?;
        }
    }
    let (_, token) = service.create_operator_token(&admin, DEMO_OPERATOR, OperatorRole::Admin).await.map_err(failed)?;
    Ok(DemoCredentials {
        installation,
        app_key: app_key.expose().to_owned(),
        operator_token: token.expose().to_owned(),
    })
}

async fn create(service: &ClickwrapService, store: &PgStore) -> Result<DemoInstallation, DemoError> {
    let (tenant, _) = service.create_tenant("Demo", None).await.map_err(failed)?;
    let admin = Admin::server(tenant.id);
    let app = service
        .create_app(
            &admin,
            NewApp { name: Name::parse("Demo app").map_err(failed)?, webhook_url: None, allowed_origins: vec![] },
        )
        .await
        .map_err(failed)?
        .app;
    let content = CONTENT
        .iter()
        .map(|(language, html)| sanitize(html).map(|html| (*language, html)))
        .collect::<Result<BTreeMap<_, _>, _>>()
        .map_err(failed)?;
    let template = service
        .create_template(
            &admin,
            NewTemplate {
                name: Name::parse("Demo Terms of Service").map_err(failed)?,
                tags: BTreeSet::from([Tag::parse("demo").map_err(failed)?]),
                app_ids: BTreeSet::new(),
                default_language: Language::English,
                content,
                customizations: Customizations::default(),
                always_require_acceptance: false,
            },
        )
        .await
        .map_err(failed)?;
    service.publish_version(&admin, template.id, VersionKind::Major, None).await.map_err(failed)?;
    service.enable_template(&admin, template.id).await.map_err(failed)?;
    let installation = DemoInstallation { tenant_id: tenant.id, app_id: app.id, template_id: template.id };
    if store.record_demo_installation(installation).await.map_err(failed)? {
        Ok(installation)
    } else {
        // Another instance set the demo up at the same moment: use that one.
        store.demo_installation().await.map_err(failed)?.ok_or_else(|| failed("the demo installation vanished"))
    }
}
