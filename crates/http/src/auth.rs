//! Who is calling: an app by `X-APP-ID` + `X-APP-KEY`, or an operator by bearer token.

use std::future::Future;
use std::pin::Pin;

use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpRequest, web};
use clickwrap_domain::apps::models::App;
use clickwrap_domain::tenants::models::{Admin, Operator};

use crate::ApiState;
use crate::problem::ApiError;
use crate::query::carries_credentials;

/// The app of a server-side request, authenticated by its App ID and App Key headers.
#[derive(Debug)]
pub(crate) struct AuthenticatedApp(pub App);

/// The operator of a request, authenticated by its bearer token: may read everything of its tenant.
#[derive(Debug)]
pub(crate) struct SignedInOperator(pub Operator);

/// An operator whose token may change things (ADMIN); a VIEWER's request is refused with 403
/// `FORBIDDEN_ROLE` before its body is read.
#[derive(Debug)]
pub(crate) struct AdminOperator(pub Admin);

fn state(request: &HttpRequest) -> Result<web::Data<ApiState>, ApiError> {
    request.app_data::<web::Data<ApiState>>().cloned().ok_or_else(ApiError::internal)
}

fn header<'a>(request: &'a HttpRequest, name: &str) -> &'a str {
    request.headers().get(name).and_then(|v| v.to_str().ok()).unwrap_or_default()
}

impl FromRequest for AuthenticatedApp {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, ApiError>>>>;

    fn from_request(request: &HttpRequest, _: &mut Payload) -> Self::Future {
        let request = request.clone();
        Box::pin(async move {
            if carries_credentials(request.query_string()) {
                return Err(ApiError::unauthorized(
                    "credentials belong in the X-APP-ID and X-APP-KEY headers, never in the query string",
                ));
            }
            let state = state(&request)?;
            let app =
                state.service.authenticate_app(header(&request, "x-app-id"), header(&request, "x-app-key")).await?;
            Ok(Self(app))
        })
    }
}

impl FromRequest for SignedInOperator {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, ApiError>>>>;

    fn from_request(request: &HttpRequest, _: &mut Payload) -> Self::Future {
        let request = request.clone();
        Box::pin(async move { operator(&request).await.map(Self) })
    }
}

impl FromRequest for AdminOperator {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, ApiError>>>>;

    fn from_request(request: &HttpRequest, _: &mut Payload) -> Self::Future {
        let request = request.clone();
        Box::pin(async move { Ok(Self(operator(&request).await?.admin()?)) })
    }
}

async fn operator(request: &HttpRequest) -> Result<Operator, ApiError> {
    if carries_credentials(request.query_string()) {
        return Err(ApiError::unauthorized(
            "credentials belong in the Authorization header, never in the query string",
        ));
    }
    let authorization = header(request, "authorization");
    let token = authorization
        .split_once(' ')
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, token)| token.trim())
        .ok_or_else(|| ApiError::unauthorized("an operator token is required: Authorization: Bearer <token>"))?;
    let state = state(request)?;
    Ok(state.service.authenticate_operator(token).await?)
}
