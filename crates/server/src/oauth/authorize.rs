//! The authorization endpoint: `GET` checks the request and shows the consent page; `POST`
//! (the page's form, naming its one-time request id) answers the client through its
//! redirect URI with `code`, `state` and `iss` (RFC 9207), or `error=access_denied`. An
//! unknown client or an unregistered redirect URI is explained on the page, never
//! redirected: sending the user there would make this server an open redirector.

use std::sync::Arc;
use std::time::Instant;

use axum::Form;
use axum::extract::{Query, State};
use axum::response::{IntoResponse, Response};
use http::{HeaderValue, StatusCode, header};
use serde::Deserialize;

use super::consent_page::{self, ConsentView};
use super::scopes;
use super::store::{Code, Grant, Pending, random_secret};
use super::{AuthServer, OwnOrigin, resource_for};

/// How long the consent page may stay open before its request expires.
const CONSENT_LIFETIME: std::time::Duration = std::time::Duration::from_secs(10 * 60);

#[derive(Debug, Deserialize)]
pub struct AuthorizeQuery {
    client_id: Option<String>,
    redirect_uri: Option<String>,
    response_type: Option<String>,
    scope: Option<String>,
    state: Option<String>,
    code_challenge: Option<String>,
    code_challenge_method: Option<String>,
    resource: Option<String>,
}

/// `GET /oauth/authorize`.
pub async fn show(
    State(server): State<Arc<AuthServer>>,
    OwnOrigin(origin): OwnOrigin,
    Query(query): Query<AuthorizeQuery>,
) -> Response {
    let client = match server.client(&origin, query.client_id.as_deref()) {
        Ok(client) => client,
        Err(unknown) => return consent_page::error(StatusCode::BAD_REQUEST, &unknown.message()),
    };
    let Some(redirect_uri) = query.redirect_uri.clone() else {
        return consent_page::error(
            StatusCode::BAD_REQUEST,
            "The client sent no redirect_uri; this server needs it on every authorization request.",
        );
    };
    if !client.redirect_uris.contains(&redirect_uri) {
        return consent_page::error(
            StatusCode::BAD_REQUEST,
            &format!(
                "The redirect_uri {redirect_uri} is not one the client {} registered.",
                client.id
            ),
        );
    }
    let back = Redirect {
        uri: &redirect_uri,
        state: query.state.as_deref(),
        issuer: &origin,
    };
    if query.response_type.as_deref() != Some("code") {
        return back.error("unsupported_response_type", "response_type must be code");
    }
    let Some(challenge) = query
        .code_challenge
        .as_deref()
        .filter(|challenge| super::pkce::is_s256_challenge(challenge))
    else {
        return back.error(
            "invalid_request",
            "a PKCE code_challenge (S256, 43 base64url characters) is required",
        );
    };
    if query.code_challenge_method.as_deref() != Some("S256") {
        return back.error("invalid_request", "code_challenge_method must be S256");
    }
    let Some(resource) = query
        .resource
        .clone()
        .filter(|resource| server.protects(&origin, resource))
    else {
        let known: Vec<String> = server
            .resources()
            .iter()
            .map(|path| resource_for(&origin, path))
            .collect();
        return back.error(
            "invalid_target",
            &format!(
                "resource must be one of this server's protected MCP endpoints: {}",
                known.join(", ")
            ),
        );
    };
    let scopes = match scopes::parse(query.scope.as_deref().unwrap_or(scopes::DEFAULT)) {
        Ok(scopes) if scopes.is_empty() => vec![scopes::DEFAULT.to_owned()],
        Ok(scopes) => scopes,
        Err(unknown) => {
            return back.error("invalid_scope", &format!("unknown scope {unknown}"));
        }
    };
    let Ok(request_id) = random_secret() else {
        return back.error("server_error", "no randomness available");
    };
    let now = Instant::now();
    let pending = Pending {
        client_id: client.id.clone(),
        redirect_uri: redirect_uri.clone(),
        scopes,
        state: query.state.clone(),
        code_challenge: challenge.to_owned(),
        resource,
        issuer: origin.clone(),
        expires: now + CONSENT_LIFETIME,
    };
    let view_scopes = pending.scopes.clone();
    let view_resource = pending.resource.clone();
    if server
        .stores()
        .add_pending(&request_id, pending, now)
        .is_err()
    {
        return back.error(
            "temporarily_unavailable",
            "too many authorization requests are waiting for consent",
        );
    }
    consent_page::consent(
        &ConsentView {
            request_id: &request_id,
            client_name: &client.name,
            client_id: &client.id,
            redirect_uri: &redirect_uri,
            scopes: &view_scopes,
            resource: &view_resource,
        },
        &origin_of_url(&redirect_uri),
    )
}

#[derive(Debug, Deserialize)]
pub struct DecisionForm {
    request_id: String,
    decision: String,
}

/// `POST /oauth/authorize`: the consent page's Allow or Deny.
pub async fn decide(
    State(server): State<Arc<AuthServer>>,
    Form(form): Form<DecisionForm>,
) -> Response {
    let now = Instant::now();
    let Some(pending) = server.stores().take_pending(&form.request_id, now) else {
        return consent_page::error(
            StatusCode::BAD_REQUEST,
            "This consent request is unknown, was already answered, or has expired. \
             Start the sign-in again from the client.",
        );
    };
    let back = Redirect {
        uri: &pending.redirect_uri,
        state: pending.state.as_deref(),
        issuer: &pending.issuer,
    };
    if form.decision != "allow" {
        return back.error("access_denied", "the user denied access");
    }
    let Ok(code) = random_secret() else {
        return back.error("server_error", "no randomness available");
    };
    let record = Code {
        grant: Grant {
            client_id: pending.client_id.clone(),
            scopes: pending.scopes.clone(),
            resource: pending.resource.clone(),
        },
        redirect_uri: pending.redirect_uri.clone(),
        code_challenge: pending.code_challenge.clone(),
        expires: now + server.options.code_lifetime,
    };
    if server.stores().add_code(&code, record, now).is_err() {
        return back.error(
            "temporarily_unavailable",
            "too many authorization codes are waiting to be exchanged",
        );
    }
    back.to(&[("code", &code)])
}

/// The client's redirect URI with the answer's parameters.
struct Redirect<'a> {
    uri: &'a str,
    state: Option<&'a str>,
    issuer: &'a str,
}

impl Redirect<'_> {
    fn error(&self, error: &str, description: &str) -> Response {
        self.to(&[("error", error), ("error_description", description)])
    }

    fn to(&self, parameters: &[(&str, &str)]) -> Response {
        let Ok(mut url) = url::Url::parse(self.uri) else {
            return consent_page::error(StatusCode::BAD_REQUEST, "The redirect_uri is not a URL.");
        };
        {
            let mut query = url.query_pairs_mut();
            for (name, value) in parameters {
                query.append_pair(name, value);
            }
            if let Some(state) = self.state {
                query.append_pair("state", state);
            }
            query.append_pair("iss", self.issuer);
        }
        let mut response = StatusCode::SEE_OTHER.into_response();
        match HeaderValue::from_str(url.as_str()) {
            Ok(location) => {
                response.headers_mut().insert(header::LOCATION, location);
                response
                    .headers_mut()
                    .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
                response
            }
            Err(_) => {
                consent_page::error(StatusCode::BAD_REQUEST, "The redirect_uri is not a URL.")
            }
        }
    }
}

/// `scheme://host[:port]` of `url`, for the page's `form-action`; `'none'` if it has none.
fn origin_of_url(url: &str) -> String {
    match url::Url::parse(url).map(|url| url.origin()) {
        Ok(origin @ url::Origin::Tuple(..)) => origin.ascii_serialization(),
        _ => "'none'".to_owned(),
    }
}
