//! The console's routes over the in-memory store: sign-in, sessions, CSRF, roles, and that a change
//! through a page is audited as the operator API's are. (The security headers are the HTTP layer's;
//! `crates/server/tests/hygiene.rs` checks them on the console's pages.)

use std::sync::Arc;

use actix_web::http::{StatusCode, header};
use actix_web::{App, HttpResponse, test, web};
use clickwrap_domain::memory::{self, ManualClock, MemoryStore};
use clickwrap_domain::service::{ClickwrapService, Settings};
use clickwrap_domain::tenants::models::{Admin, OperatorRole};
use clickwrap_domain::webhooks::cidr::AllowCidrs;
use clickwrap_domain::{Timestamp, audit::models::AuditAction};

use crate::ConsoleState;

struct World {
    service: ClickwrapService,
    console: web::Data<ConsoleState>,
    admin_token: String,
    viewer_token: String,
    tenant: clickwrap_domain::TenantId,
}

async fn world() -> World {
    let clock = Arc::new(ManualClock::new(Timestamp::parse_rfc3339("2026-11-25T07:00:00.000Z").unwrap()));
    let (ports, _store): (_, Arc<MemoryStore>) = memory::ports(clock);
    let service = ClickwrapService::start(
        ports,
        Settings::default(),
        clickwrap_domain::keys::master::MasterKeys::new(
            clickwrap_domain::keys::master::MasterKey::from_bytes([7; 32]),
            None,
        ),
    )
    .await
    .unwrap();
    let (tenant, admin_token) = service.create_tenant("Acme <GmbH>", None).await.unwrap();
    let (_, viewer_token) =
        service.create_operator_token(&Admin::server(tenant.id), "Auditor", OperatorRole::Viewer).await.unwrap();
    let console = web::Data::new(ConsoleState {
        service: service.clone(),
        webhook_allow: AllowCidrs::new(Vec::new()),
        secure_cookies: false,
        // Says what it was handed, so that a test can check the console's parsing.
        dialog_preview_json: |view| view.name.clone().into_bytes(),
        export: Arc::new(|_, _, filter, format| {
            HttpResponse::Ok().body(format!(
                "{format:?} {:?} {:?}",
                filter.end_user_id.map(|u| u.as_str().to_owned()),
                filter.status
            ))
        }),
    });
    World {
        service,
        console,
        admin_token: admin_token.expose().to_owned(),
        viewer_token: viewer_token.expose().to_owned(),
        tenant: tenant.id,
    }
}

macro_rules! app {
    ($world:expr) => {{
        let console = $world.console.clone();
        test::init_service(App::new().configure(move |c| crate::configure(c, console))).await
    }};
}

/// Signs in with `token`: the session cookie's `name=value`.
macro_rules! sign_in {
    ($app:expr, $token:expr) => {{
        let response = test::call_service(
            &$app,
            test::TestRequest::post().uri("/console/login").set_form([("token", $token.as_str())]).to_request(),
        )
        .await;
        assert_eq!(response.status(), StatusCode::SEE_OTHER);
        let cookie = response.response().cookies().find(|c| c.name() == "clickwrap_console").unwrap();
        format!("clickwrap_console={}", cookie.value())
    }};
}

/// A page's CSRF token, from its `<meta name="csrf-token">`.
macro_rules! csrf {
    ($app:expr, $cookie:expr) => {{
        let request = test::TestRequest::get().uri("/console/apps").insert_header((header::COOKIE, $cookie.clone()));
        let body = test::call_and_read_body(&$app, request.to_request()).await;
        let html = String::from_utf8(body.to_vec()).unwrap();
        let start = html.find("name=\"csrf-token\" content=\"").unwrap() + "name=\"csrf-token\" content=\"".len();
        html[start..start + html[start..].find('"').unwrap()].to_owned()
    }};
}

#[actix_web::test]
async fn without_a_session_every_page_goes_to_the_sign_in_form() {
    let w = world().await;
    let app = app!(w);
    for uri in ["/console", "/console/apps", "/console/events", "/console/tokens"] {
        let response = test::call_service(&app, test::TestRequest::get().uri(uri).to_request()).await;
        assert_eq!(response.status(), StatusCode::SEE_OTHER, "{uri}");
        assert_eq!(response.headers().get(header::LOCATION).unwrap(), "/console/login");
    }
    let forged = test::TestRequest::get().uri("/console").insert_header((header::COOKIE, "clickwrap_console=cs_00"));
    let response = test::call_service(&app, forged.to_request()).await;
    assert_eq!(response.status(), StatusCode::SEE_OTHER, "a made-up cookie is no session");
}

#[actix_web::test]
async fn signing_in_sets_a_strict_cookie_and_a_wrong_token_is_the_form_again_with_401() {
    let w = world().await;
    let app = app!(w);
    let wrong = test::TestRequest::post().uri("/console/login").set_form([("token", "ot_nope")]);
    let response = test::call_service(&app, wrong.to_request()).await;
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    assert!(response.response().cookies().next().is_none());
    let body = String::from_utf8(test::read_body(response).await.to_vec()).unwrap();
    assert!(body.contains("not valid") && body.contains("name=\"token\""), "{body}");

    let right = test::TestRequest::post().uri("/console/login").set_form([("token", w.admin_token.as_str())]);
    let response = test::call_service(&app, right.to_request()).await;
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    assert_eq!(response.headers().get(header::LOCATION).unwrap(), "/console");
    let set_cookie = response.headers().get(header::SET_COOKIE).unwrap().to_str().unwrap().to_owned();
    for attribute in ["HttpOnly", "SameSite=Strict", "Path=/console"] {
        assert!(set_cookie.contains(attribute), "{set_cookie} lacks {attribute}");
    }
    assert!(!set_cookie.contains(&w.admin_token), "the cookie holds a session secret, not the operator token");
}

#[actix_web::test]
async fn pages_escape_what_operators_typed() {
    let w = world().await;
    let app = app!(w);
    let cookie = sign_in!(app, w.admin_token);
    let request = test::TestRequest::get().uri("/console").insert_header((header::COOKIE, cookie));
    let response = test::call_service(&app, request.to_request()).await;
    assert_eq!(response.status(), StatusCode::OK);
    let body = String::from_utf8(test::read_body(response).await.to_vec()).unwrap();
    assert!(body.contains("Acme &lt;GmbH&gt;"), "the tenant's name is escaped");
}

#[actix_web::test]
async fn a_change_needs_the_sessions_csrf_token_and_is_audited_with_its_operator() {
    let w = world().await;
    let app = app!(w);
    let cookie = sign_in!(app, w.admin_token);
    let other = sign_in!(app, w.admin_token);
    let other_csrf = csrf!(app, other);
    for form in [
        vec![("name", "No token")],
        vec![("name", "Bad token"), ("csrf_token", "00")],
        vec![("name", "Another session's token"), ("csrf_token", other_csrf.as_str())],
    ] {
        let request = test::TestRequest::post()
            .uri("/console/apps")
            .insert_header((header::COOKIE, cookie.clone()))
            .set_form(form);
        assert_eq!(test::call_service(&app, request.to_request()).await.status(), StatusCode::FORBIDDEN);
    }
    assert!(w.service.list_apps(w.tenant).await.unwrap().is_empty(), "nothing was created");

    let token = csrf!(app, cookie);
    let request = test::TestRequest::post()
        .uri("/console/apps")
        .insert_header((header::COOKIE, cookie.clone()))
        .set_form([("name", "Web shop"), ("csrf_token", token.as_str())]);
    let response = test::call_service(&app, request.to_request()).await;
    assert_eq!(response.status(), StatusCode::OK);
    let body = String::from_utf8(test::read_body(response).await.to_vec()).unwrap();
    assert!(body.contains("ak_") && body.contains("whsec_"), "the new app's secrets are shown once");
    let apps = w.service.list_apps(w.tenant).await.unwrap();
    assert_eq!(apps.len(), 1);
    let log = w.service.audit_log(w.tenant, None, Default::default()).await.unwrap();
    let entry = log.items.iter().find(|e| e.action == AuditAction::AppCreated).unwrap();
    assert_eq!(entry.subject_id, apps[0].id.to_string());
    let operator = w.service.authenticate_operator(&w.admin_token).await.unwrap();
    assert_eq!(entry.operator_token_id, Some(operator.token_id));
}

#[actix_web::test]
async fn a_viewer_reads_every_page_and_changes_nothing() {
    let w = world().await;
    let app = app!(w);
    let cookie = sign_in!(app, w.viewer_token);
    for uri in
        ["/console", "/console/apps", "/console/templates", "/console/events", "/console/audit", "/console/tokens"]
    {
        let request = test::TestRequest::get().uri(uri).insert_header((header::COOKIE, cookie.clone()));
        let response = test::call_service(&app, request.to_request()).await;
        assert_eq!(response.status(), StatusCode::OK, "{uri}");
        let body = String::from_utf8(test::read_body(response).await.to_vec()).unwrap();
        let forms = body.matches("method=\"post\"").count();
        assert_eq!(forms, 1, "{uri}: a viewer sees no change form but sign-out");
    }
    let token = csrf!(app, cookie);
    let request = test::TestRequest::post()
        .uri("/console/apps")
        .insert_header((header::COOKIE, cookie.clone()))
        .set_form([("name", "Sneaky"), ("csrf_token", token.as_str())]);
    assert_eq!(test::call_service(&app, request.to_request()).await.status(), StatusCode::FORBIDDEN);
    assert!(w.service.list_apps(w.tenant).await.unwrap().is_empty());
}

#[actix_web::test]
async fn revoking_the_token_or_signing_out_ends_the_session() {
    let w = world().await;
    let app = app!(w);
    let viewer = sign_in!(app, w.viewer_token);
    let admin = sign_in!(app, w.admin_token);
    let page =
        |cookie: &String| test::TestRequest::get().uri("/console").insert_header((header::COOKIE, cookie.clone()));
    assert_eq!(test::call_service(&app, page(&viewer).to_request()).await.status(), StatusCode::OK);

    let viewer_id = w.service.authenticate_operator(&w.viewer_token).await.unwrap().token_id;
    let token = csrf!(app, admin);
    let revoke = test::TestRequest::post()
        .uri(&format!("/console/tokens/{viewer_id}/revoke"))
        .insert_header((header::COOKIE, admin.clone()))
        .set_form([("confirm", "on"), ("csrf_token", token.as_str())]);
    assert_eq!(test::call_service(&app, revoke.to_request()).await.status(), StatusCode::SEE_OTHER);
    assert_eq!(test::call_service(&app, page(&viewer).to_request()).await.status(), StatusCode::SEE_OTHER);

    let logout = test::TestRequest::post()
        .uri("/console/logout")
        .insert_header((header::COOKIE, admin.clone()))
        .set_form([("csrf_token", token.as_str())]);
    assert_eq!(test::call_service(&app, logout.to_request()).await.status(), StatusCode::SEE_OTHER);
    assert_eq!(test::call_service(&app, page(&admin).to_request()).await.status(), StatusCode::SEE_OTHER);
}

#[actix_web::test]
async fn assets_are_served_with_an_etag_that_revalidates() {
    let w = world().await;
    let app = app!(w);
    let response =
        test::call_service(&app, test::TestRequest::get().uri("/console/assets/console.css").to_request()).await;
    assert_eq!(response.status(), StatusCode::OK);
    let etag = response.headers().get(header::ETAG).unwrap().clone();
    let again =
        test::TestRequest::get().uri("/console/assets/console.css").insert_header((header::IF_NONE_MATCH, etag));
    assert_eq!(test::call_service(&app, again.to_request()).await.status(), StatusCode::NOT_MODIFIED);
    let missing = test::TestRequest::get().uri("/console/assets/nothing.js");
    assert_eq!(test::call_service(&app, missing.to_request()).await.status(), StatusCode::NOT_FOUND);
}

/// A POST of `form` (with the session's CSRF token) to `uri`; the answer's status.
macro_rules! post {
    ($app:expr, $cookie:expr, $csrf:expr, $uri:expr, $form:expr) => {{
        let mut form: Vec<(&str, &str)> = $form.to_vec();
        form.push(("csrf_token", $csrf.as_str()));
        let request =
            test::TestRequest::post().uri($uri).insert_header((header::COOKIE, $cookie.clone())).set_form(form);
        test::call_service(&$app, request.to_request())
    }};
}

async fn draft_template(w: &World) -> clickwrap_domain::templates::models::Template {
    use clickwrap_domain::content::sanitize::sanitize;
    use clickwrap_domain::templates::service::NewTemplate;
    let new = NewTemplate {
        name: clickwrap_domain::Name::parse("Terms").unwrap(),
        tags: Default::default(),
        app_ids: Default::default(),
        default_language: clickwrap_domain::Language::English,
        content: [(clickwrap_domain::Language::English, sanitize("<p>Terms</p>").unwrap())].into(),
        customizations: Default::default(),
        always_require_acceptance: false,
    };
    w.service.create_template(&Admin::server(w.tenant), new).await.unwrap()
}

#[actix_web::test]
async fn two_operators_saving_different_languages_at_once_both_keep_their_edit() {
    use clickwrap_domain::Language;
    let w = world().await;
    let app = app!(w);
    let template = draft_template(&w).await;
    let (first, second) = (sign_in!(app, w.admin_token), sign_in!(app, w.admin_token));
    let (first_csrf, second_csrf) = (csrf!(app, first), csrf!(app, second));
    let uri = format!("/console/templates/{}/draft", template.id);
    let (german, french) = tokio::join!(
        post!(app, first, first_csrf, &uri, [("language", "de"), ("content", "<p>Bedingungen</p>")]),
        post!(app, second, second_csrf, &uri, [("language", "fr"), ("content", "<p>Conditions</p>")]),
    );
    assert_eq!((german.status(), french.status()), (StatusCode::SEE_OTHER, StatusCode::SEE_OTHER));
    let draft = w.service.get_template(w.tenant, template.id).await.unwrap().draft;
    let texts: Vec<(Language, &str)> = draft.iter().map(|(l, html)| (*l, html.as_str())).collect();
    assert_eq!(
        texts,
        vec![
            (Language::English, "<p>Terms</p>"),
            (Language::German, "<p>Bedingungen</p>"),
            (Language::French, "<p>Conditions</p>")
        ]
    );
    // A blank content removes its language only.
    let response = post!(app, first, first_csrf, &uri, [("language", "de"), ("content", "")]).await;
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    let draft = w.service.get_template(w.tenant, template.id).await.unwrap().draft;
    assert_eq!(draft.keys().copied().collect::<Vec<_>>(), vec![Language::English, Language::French]);
}

#[actix_web::test]
async fn unknown_form_values_are_refused_not_replaced_by_a_default() {
    let w = world().await;
    let app = app!(w);
    let cookie = sign_in!(app, w.admin_token);
    let csrf = csrf!(app, cookie);
    let template = draft_template(&w).await;
    let base = format!("/console/templates/{}", template.id);
    let refused = [
        ("/console/templates".to_owned(), vec![("name", "New"), ("default_language", "xx")], "/console/templates"),
        (format!("{base}/versions"), vec![("kind", "PATCH")], base.as_str()),
        (format!("{base}/versions"), vec![], base.as_str()),
        (format!("{base}/draft"), vec![("language", "xx"), ("content", "<p>x</p>")], &format!("{base}/draft")),
        (format!("{base}/customizations"), vec![("agreement_mode", "SWIPE")], &format!("{base}/customizations")),
        ("/console/tokens".to_owned(), vec![("name", "Robot"), ("role", "OWNER")], "/console/tokens"),
        ("/console/tokens".to_owned(), vec![("name", "Robot"), ("role", "admin")], "/console/tokens"),
        ("/console/tokens".to_owned(), vec![("name", "Robot")], "/console/tokens"),
    ];
    for (uri, form, back) in &refused {
        let response = post!(app, cookie, csrf, uri, form).await;
        assert_eq!(response.status(), StatusCode::SEE_OTHER, "{uri} {form:?}");
        assert_eq!(response.headers().get(header::LOCATION).unwrap(), *back, "{uri} {form:?}: back to the form");
        let notice = response
            .response()
            .cookies()
            .find(|c| c.name() == "clickwrap_console_notice")
            .map(|c| c.value().to_owned());
        assert!(notice.is_some(), "{uri} {form:?}: with a notice saying why");
    }
    let templates = w.service.list_templates(w.tenant).await.unwrap();
    assert_eq!(templates, vec![template], "no template was created, published, edited or customized");
    let tokens = w.service.list_operator_tokens(w.tenant).await.unwrap();
    assert_eq!(tokens.len(), 2, "no operator token was created (an unknown or missing role is not ADMIN)");
    assert!(tokens.iter().all(|t| t.name.as_str() != "Robot"));

    let preview = post!(app, cookie, csrf, "/console/preview", [("language", "xx"), ("content", "<p>x</p>")]).await;
    assert_eq!(preview.status(), StatusCode::BAD_REQUEST, "the preview refuses an unknown language");
}

#[actix_web::test]
async fn the_export_is_handed_the_lists_filter_and_format_and_refuses_an_unknown_format() {
    let w = world().await;
    let app = app!(w);
    let cookie = sign_in!(app, w.viewer_token);
    let get =
        |uri: &str| test::TestRequest::get().uri(uri).insert_header((header::COOKIE, cookie.clone())).to_request();
    let body =
        test::call_and_read_body(&app, get("/console/events/export?format=csv&endUserId=u-1&status=DECLINED")).await;
    assert_eq!(String::from_utf8(body.to_vec()).unwrap(), r#"Csv Some("u-1") Some(Declined)"#);
    let body = test::call_and_read_body(&app, get("/console/events/export")).await;
    assert_eq!(String::from_utf8(body.to_vec()).unwrap(), "Ndjson None None", "NDJSON unless asked");
    let response = test::call_service(&app, get("/console/events/export?format=xlsx")).await;
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    assert_eq!(response.headers().get(header::LOCATION).unwrap(), "/console/events");
}
