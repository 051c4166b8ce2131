//! A test API over a throw-away PostgreSQL database, and helpers to call it like a client would.

#![allow(dead_code, unreachable_pub, clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use clickwrap_domain::tenants::models::Admin;
use std::sync::Arc;

use actix_web::body::MessageBody;
use actix_web::dev::{Service, ServiceResponse};
use actix_web::http::{Method, StatusCode};
use actix_web::test::{self, TestRequest};
use actix_web::web;
use clickwrap_domain::memory::{AllowAllWebhookTargets, TextCertificateRenderer};
use clickwrap_domain::service::{ClickwrapService, Ports, Settings};
use clickwrap_domain::system::{OsRandom, SystemClock, UuidV7};
use clickwrap_http::client_ip::TrustedProxies;
use clickwrap_http::{ApiState, api};
use clickwrap_postgres::test_db::TestDatabase;
use serde_json::{Value, json};

pub const PEM: &str = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";

pub struct Harness {
    pub db: TestDatabase,
    pub state: web::Data<ApiState>,
}

pub async fn harness() -> Harness {
    harness_with(Settings::default()).await
}

pub async fn harness_with(settings: Settings) -> Harness {
    let db = TestDatabase::new().await;
    let state = instance(&db, settings).await;
    Harness { db, state }
}

impl Harness {
    /// Another server instance on the same database (as behind a load balancer).
    pub async fn second_instance(&self, settings: Settings) -> Harness2 {
        Harness2 { state: instance(&self.db, settings).await }
    }
}

/// A second instance sharing the first one's database.
pub struct Harness2 {
    pub state: web::Data<ApiState>,
}

impl Harness2 {
    pub async fn call(&self, request: TestRequest) -> Reply {
        let app = test::init_service(api(self.state.clone(), |_| {})).await;
        read(app.call(request.to_request()).await.unwrap()).await
    }
}

async fn instance(db: &TestDatabase, settings: Settings) -> web::Data<ApiState> {
    let store = Arc::new(db.store());
    let ports = Ports::from_store(
        store,
        Arc::new(SystemClock),
        Arc::new(UuidV7),
        Arc::new(OsRandom::default()),
        Arc::new(AllowAllWebhookTargets),
        Arc::new(TextCertificateRenderer),
    );
    let service = ClickwrapService::start(
        ports,
        settings,
        clickwrap_domain::keys::master::MasterKeys::new(
            clickwrap_domain::keys::master::MasterKey::from_bytes([7; 32]),
            None,
        ),
    )
    .await
    .unwrap();
    web::Data::new(ApiState {
        service,
        trusted_proxies: TrustedProxies::new(vec!["10.0.0.0/8".parse().unwrap()]),
        signing_certificate_pem: PEM.to_owned(),
        webhook_allow: clickwrap_domain::webhooks::cidr::AllowCidrs::default(),
        documented_parameters: clickwrap_http::openapi::DocumentedParameters::compiled().unwrap(),
    })
}

/// A response, read out.
#[derive(Debug)]
pub struct Reply {
    pub status: StatusCode,
    pub headers: actix_web::http::header::HeaderMap,
    pub body: Vec<u8>,
}

impl Reply {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// Asserts the status, showing the body when it differs.
    pub fn expect(self, status: u16) -> Self {
        assert_eq!(self.status.as_u16(), status, "unexpected status; body: {}", String::from_utf8_lossy(&self.body));
        self
    }

    /// Asserts an error answer: status, problem+json, and its code.
    pub fn problem(self, status: u16, code: &str) -> Value {
        let reply = self.expect(status);
        assert_eq!(reply.header("content-type"), Some("application/problem+json"));
        let body = reply.json();
        assert_eq!(body["code"], code, "{body}");
        assert_eq!(body["status"], status);
        assert_eq!(body["message"], body["detail"]);
        body
    }
}

impl Harness {
    pub async fn call(&self, request: TestRequest) -> Reply {
        self.call_with(|_| {}, request).await
    }

    /// Calls the API with extra routes mounted the way the server mounts its own.
    pub async fn call_with(
        &self,
        extra: impl FnOnce(&mut web::ServiceConfig) + 'static,
        request: TestRequest,
    ) -> Reply {
        let app = test::init_service(api(self.state.clone(), extra)).await;
        match app.call(request.to_request()).await {
            Ok(response) => read(response).await,
            // An error that reaches the top is answered by the server with its own response.
            Err(error) => {
                let response = error.error_response();
                let status = response.status();
                let headers = response.headers().clone();
                let body =
                    actix_web::body::to_bytes(response.into_body()).await.map(|b| b.to_vec()).unwrap_or_default();
                Reply { status, headers, body }
            }
        }
    }

    pub fn service(&self) -> &ClickwrapService {
        &self.state.service
    }
}

async fn read<B: MessageBody>(response: ServiceResponse<B>) -> Reply {
    let status = response.status();
    let headers = response.headers().clone();
    let body = actix_web::body::to_bytes(response.into_body()).await.ok().map(|b| b.to_vec()).unwrap_or_default();
    Reply { status, headers, body }
}

/// Request builders.
/// The client every request comes from unless a test says otherwise.
pub const CLIENT: &str = "203.0.113.50:40000";

pub fn request(method: Method, uri: &str) -> TestRequest {
    TestRequest::default().method(method).uri(uri).peer_addr(CLIENT.parse().unwrap())
}

pub fn get(uri: &str) -> TestRequest {
    request(Method::GET, uri)
}

pub fn post(uri: &str, body: &Value) -> TestRequest {
    request(Method::POST, uri).insert_header(("content-type", "application/json")).set_payload(body.to_string())
}

pub trait WithApp {
    fn app(self, operator: &Operator) -> Self;
}

impl WithApp for TestRequest {
    fn app(self, operator: &Operator) -> Self {
        self.insert_header(("x-app-id", operator.app_id.as_str()))
            .insert_header(("x-app-key", operator.app_key.as_str()))
    }
}

/// A tenant with one app and its credentials, made through the use cases.
pub struct Operator {
    pub tenant_id: String,
    pub token: String,
    pub app_id: String,
    pub app_key: String,
}

pub async fn operator(h: &Harness, quota: Option<u64>) -> Operator {
    use clickwrap_domain::Name;
    use clickwrap_domain::apps::service::NewApp;
    use clickwrap_domain::webhooks::url::WebhookUrl;
    let (tenant, token) = h.service().create_tenant("Acme", quota).await.unwrap();
    let created = h
        .service()
        .create_app(
            &Admin::server(tenant.id),
            NewApp {
                name: Name::parse("Shop").unwrap(),
                webhook_url: Some(WebhookUrl::parse("https://hooks.example.com/clickwrap").unwrap()),
                allowed_origins: vec![],
            },
        )
        .await
        .unwrap();
    Operator {
        tenant_id: tenant.id.to_string(),
        token: token.expose().to_owned(),
        app_id: created.app.id.to_string(),
        app_key: created.app_key.expose().to_owned(),
    }
}

/// A published, enabled template with content in English and German; its id.
pub async fn template(h: &Harness, operator: &Operator, html_en: &str) -> String {
    use std::collections::{BTreeMap, BTreeSet};

    use clickwrap_domain::content::sanitize::sanitize;
    use clickwrap_domain::templates::customizations::Customizations;
    use clickwrap_domain::templates::service::NewTemplate;
    use clickwrap_domain::templates::versioning::VersionKind;
    use clickwrap_domain::{Language, Name, Tag, TenantId};
    let tenant = TenantId::parse(&operator.tenant_id).unwrap();
    let template = h
        .service()
        .create_template(
            &Admin::server(tenant),
            NewTemplate {
                name: Name::parse("Terms of Service").unwrap(),
                tags: BTreeSet::from([Tag::parse("legal").unwrap()]),
                app_ids: BTreeSet::new(),
                default_language: Language::English,
                content: BTreeMap::from([
                    (Language::English, sanitize(html_en).unwrap()),
                    (Language::German, sanitize("<p>Bedingungen für {{fullName}}</p>").unwrap()),
                ]),
                customizations: Customizations::default(),
                always_require_acceptance: false,
            },
        )
        .await
        .unwrap();
    h.service().publish_version(&Admin::server(tenant), template.id, VersionKind::Major, None).await.unwrap();
    h.service().enable_template(&Admin::server(tenant), template.id).await.unwrap();
    template.id.to_string()
}

pub const V1: &str = "/public-client/v1";

/// What the SDK does for an end user: fetch, then post the action with the hash of what it showed.
pub async fn act(h: &Harness, operator: &Operator, template: &str, user: &str, action: &str) -> Value {
    let body = action_body(h, operator, template, user, action).await;
    h.call(post(&format!("{V1}/clickwrap"), &body).insert_header(("user-agent", "Mozilla/5.0 (test)")))
        .await
        .expect(201)
        .json()
}

/// The body of `POST /clickwrap` for what `GET /clickwrap` showed the end user.
pub async fn action_body(h: &Harness, operator: &Operator, template: &str, user: &str, action: &str) -> Value {
    let view = h
        .call(get(&format!("{V1}/clickwrap?appId={}&clickwrapTemplateId={template}&endUserId={user}", operator.app_id)))
        .await
        .expect(200)
        .json();
    json!({
        "appId": operator.app_id,
        "clickwrapTemplateId": template,
        "clickwrapTemplateVersion": view["clickwrapTemplateVersion"],
        "clickwrapTemplateVersionMinor": view["clickwrapTemplateVersionMinor"],
        "endUserId": user,
        "action": action,
        "language": view["language"],
        "templatePlaceholders": null,
        "contentHash": view["contentHash"],
        "presentedAt": time::OffsetDateTime::now_utc().format(&time::format_description::well_known::Rfc3339).unwrap(),
        "presentation": {"mode": "DIALOG", "agreementMode": view["agreementMode"], "acceptLabel": "Accept",
                         "checkboxLabel": null},
        "clientMetadata": {"screen": "1920x1080", "timezone": "Europe/Berlin"},
    })
}

pub async fn verify(h: &Harness, operator: &Operator, signature: &str) -> Reply {
    h.call(post(&format!("{V1}/clickwrap/verify"), &json!({"serviceSignature": signature})).app(operator)).await
}
