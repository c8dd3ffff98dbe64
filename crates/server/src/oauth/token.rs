//! The token endpoint: `authorization_code` (PKCE S256, single-use short-lived codes,
//! the same client and redirect URI, the same resource) and `refresh_token` (rotated: each
//! refresh token works once). Public clients authenticate with nothing; confidential ones
//! with `client_secret_post` or `client_secret_basic`. Errors as RFC 6749 §5.2.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use axum::Form;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use http::{HeaderMap, HeaderValue, StatusCode, header};
use serde_json::json;
use subtle::ConstantTimeEq;

use super::scopes::OFFLINE_SCOPE;
use super::store::{Client, ClientAuth, Grant, IssuedToken, digest, random_secret};
use super::{AuthServer, OwnOrigin};

type Params = HashMap<String, String>;

/// `POST /oauth/token`.
pub async fn exchange(
    State(server): State<Arc<AuthServer>>,
    OwnOrigin(origin): OwnOrigin,
    headers: HeaderMap,
    Form(params): Form<Params>,
) -> Response {
    let client = match authenticate(&server, &origin, &headers, &params) {
        Ok(client) => client,
        Err(error) => return error.into_response(),
    };
    let grant = match params.get("grant_type").map(String::as_str) {
        Some("authorization_code") => redeem_code(&server, &client, &params),
        Some("refresh_token") => redeem_refresh(&server, &client, &params),
        Some(other) => Err(failure(
            "unsupported_grant_type",
            &format!(
                "grant_type {other} is not supported; use authorization_code or refresh_token"
            ),
        )),
        None => Err(failure("invalid_request", "grant_type is missing")),
    };
    match grant {
        Ok(grant) => issue(&server, grant),
        Err(error) => error.into_response(),
    }
}

/// The client the request proves it is.
fn authenticate(
    server: &AuthServer,
    origin: &str,
    headers: &HeaderMap,
    params: &Params,
) -> Result<Client, TokenError> {
    let basic = headers
        .get(header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(basic_credentials);
    let (id, secret) = match &basic {
        Some((id, secret)) => (Some(id.as_str()), Some(secret.as_str())),
        None => (
            params.get("client_id").map(String::as_str),
            params.get("client_secret").map(String::as_str),
        ),
    };
    if let (Some((basic_id, _)), Some(body_id)) = (&basic, params.get("client_id"))
        && basic_id != body_id
    {
        return Err(failure(
            "invalid_request",
            "client_id in the body differs from the one in Authorization",
        ));
    }
    let client = server
        .client(origin, id)
        .map_err(|unknown| client_failure(&unknown.message(), basic.is_some()))?;
    match (client.auth, client.secret_digest) {
        (ClientAuth::None, _) => Ok(client),
        (_, Some(expected)) => {
            let matches = secret.is_some_and(|secret| {
                let presented = digest(secret);
                bool::from(expected.ct_eq(&presented))
            });
            if matches {
                Ok(client)
            } else {
                Err(client_failure(
                    "the client secret is missing or wrong",
                    basic.is_some(),
                ))
            }
        }
        (_, None) => Err(client_failure("the client has no secret", basic.is_some())),
    }
}

/// `id` and `secret` of `Basic base64(id:secret)`, each form-urlencoded (RFC 6749 §2.3.1).
fn basic_credentials(authorization: &str) -> Option<(String, String)> {
    let (scheme, encoded) = authorization.trim().split_once(' ')?;
    if !scheme.eq_ignore_ascii_case("basic") {
        return None;
    }
    let decoded = String::from_utf8(STANDARD.decode(encoded.trim()).ok()?).ok()?;
    let (id, secret) = decoded.split_once(':')?;
    let unescape = |text: &str| -> String {
        url::form_urlencoded::parse(format!("v={text}").as_bytes())
            .map(|(_, value)| value.into_owned())
            .next()
            .unwrap_or_default()
    };
    Some((unescape(id), unescape(secret)))
}

fn redeem_code(server: &AuthServer, client: &Client, params: &Params) -> Result<Grant, TokenError> {
    let Some(code) = params.get("code") else {
        return Err(failure("invalid_request", "code is missing"));
    };
    // Taken out before any check: a code is spent by its first use, right or wrong.
    let Some(record) = server.stores().take_code(code, Instant::now()) else {
        return Err(failure(
            "invalid_grant",
            "the authorization code is unknown, already used, or expired",
        ));
    };
    if record.grant.client_id != client.id {
        return Err(failure(
            "invalid_grant",
            "the code was issued to another client",
        ));
    }
    if params.get("redirect_uri") != Some(&record.redirect_uri) {
        return Err(failure(
            "invalid_grant",
            "redirect_uri differs from the authorization request's",
        ));
    }
    let verifier = params
        .get("code_verifier")
        .map(String::as_str)
        .unwrap_or("");
    if !super::pkce::verifies(verifier, &record.code_challenge) {
        return Err(failure(
            "invalid_grant",
            "the PKCE code_verifier does not match the code_challenge",
        ));
    }
    check_resource(params, &record.grant)?;
    Ok(record.grant)
}

fn redeem_refresh(
    server: &AuthServer,
    client: &Client,
    params: &Params,
) -> Result<Grant, TokenError> {
    let Some(token) = params.get("refresh_token") else {
        return Err(failure("invalid_request", "refresh_token is missing"));
    };
    let Some(record) = server.stores().take_refresh(token, Instant::now()) else {
        return Err(failure(
            "invalid_grant",
            "the refresh token is unknown, expired, or already used (refresh tokens rotate: \
             use the one the last refresh returned)",
        ));
    };
    if record.grant.client_id != client.id {
        return Err(failure(
            "invalid_grant",
            "the refresh token was issued to another client",
        ));
    }
    check_resource(params, &record.grant)?;
    let mut grant = record.grant;
    if let Some(asked) = params.get("scope") {
        let asked = super::scopes::parse(asked)
            .map_err(|unknown| failure("invalid_scope", &format!("unknown scope {unknown}")))?;
        if let Some(extra) = asked.iter().find(|scope| !grant.scopes.contains(scope)) {
            return Err(failure(
                "invalid_scope",
                &format!("scope {extra} was not granted; ask for it at the authorization endpoint"),
            ));
        }
        if !asked.is_empty() {
            grant.scopes = asked;
        }
    }
    Ok(grant)
}

/// RFC 8707: a `resource` in the token request must be the one the grant is for.
fn check_resource(params: &Params, grant: &Grant) -> Result<(), TokenError> {
    match params.get("resource") {
        Some(resource) if *resource != grant.resource => Err(failure(
            "invalid_target",
            &format!("this grant is for the resource {}", grant.resource),
        )),
        _ => Ok(()),
    }
}

fn issue(server: &AuthServer, grant: Grant) -> Response {
    let now = Instant::now();
    let (Ok(access), Ok(refresh)) = (random_secret(), random_secret()) else {
        return failure_with(
            StatusCode::INTERNAL_SERVER_ERROR,
            "server_error",
            "no randomness",
        );
    };
    let lifetime = server.options.token_lifetime;
    let offline = grant.scopes.iter().any(|scope| scope == OFFLINE_SCOPE);
    let scope = grant.scopes.join(" ");
    let mut stores = server.stores();
    let access_record = IssuedToken {
        grant: grant.clone(),
        expires: now + lifetime,
    };
    if stores.add_access(&access, access_record, now).is_err() {
        return failure_with(
            StatusCode::SERVICE_UNAVAILABLE,
            "temporarily_unavailable",
            "too many live access tokens",
        );
    }
    let mut body = json!({
        "access_token": access,
        "token_type": "Bearer",
        "expires_in": lifetime.as_secs(),
        "scope": scope,
    });
    if offline {
        let refresh_record = IssuedToken {
            grant,
            expires: now + server.options.refresh_lifetime,
        };
        if stores.add_refresh(&refresh, refresh_record, now).is_err() {
            return failure_with(
                StatusCode::SERVICE_UNAVAILABLE,
                "temporarily_unavailable",
                "too many live refresh tokens",
            );
        }
        body["refresh_token"] = json!(refresh);
    }
    no_store(StatusCode::OK, body)
}

/// An RFC 6749 §5.2 error answer, before it is sent.
#[derive(Debug)]
struct TokenError {
    status: StatusCode,
    error: &'static str,
    description: String,
    /// `invalid_client` after a Basic attempt: answered with a Basic challenge.
    basic_challenge: bool,
}

impl IntoResponse for TokenError {
    fn into_response(self) -> Response {
        let mut response = failure_with(self.status, self.error, &self.description);
        if self.basic_challenge {
            response.headers_mut().insert(
                header::WWW_AUTHENTICATE,
                HeaderValue::from_static("Basic realm=\"holdbay\""),
            );
        }
        response
    }
}

fn failure(error: &'static str, description: &str) -> TokenError {
    TokenError {
        status: StatusCode::BAD_REQUEST,
        error,
        description: description.to_owned(),
        basic_challenge: false,
    }
}

/// `invalid_client`: 401, with a Basic challenge when the client tried Basic.
fn client_failure(description: &str, used_basic: bool) -> TokenError {
    TokenError {
        status: StatusCode::UNAUTHORIZED,
        error: "invalid_client",
        description: description.to_owned(),
        basic_challenge: used_basic,
    }
}

fn failure_with(status: StatusCode, error: &str, description: &str) -> Response {
    no_store(
        status,
        json!({ "error": error, "error_description": description }),
    )
}

fn no_store(status: StatusCode, body: serde_json::Value) -> Response {
    let mut response = (status, axum::Json(body)).into_response();
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

#[cfg(test)]
mod tests {
    use super::basic_credentials;

    #[test]
    fn basic_credentials_are_decoded_and_unescaped() {
        // base64("my%20app:s%3Acret")
        assert_eq!(
            basic_credentials("Basic bXklMjBhcHA6cyUzQWNyZXQ="),
            Some(("my app".to_owned(), "s:cret".to_owned()))
        );
        assert_eq!(basic_credentials("Bearer x"), None);
    }
}
