//! Dynamic Client Registration (RFC 7591) for browser and native apps: redirect URIs on
//! loopback or on this server's own origin only, so a registration cannot turn the consent
//! page into a way to send codes elsewhere. A client that asks for `client_secret_post` or
//! `client_secret_basic` gets a secret; one that asks for `none` is public.

use std::sync::Arc;

use axum::extract::State;
use axum::response::{IntoResponse, Response};
use http::{HeaderValue, StatusCode, header};
use serde::Deserialize;
use serde_json::json;

use super::store::{Client, ClientAuth, digest, random_secret};
use super::{AuthServer, OwnOrigin};

/// Longest client name kept (it is shown on the consent page).
const MAX_NAME: usize = 100;
/// Most redirect URIs one client may register.
const MAX_REDIRECTS: usize = 10;
/// Longest redirect URI.
const MAX_REDIRECT_LEN: usize = 2000;

#[derive(Debug, Deserialize)]
pub struct Registration {
    #[serde(default)]
    redirect_uris: Vec<String>,
    client_name: Option<String>,
    token_endpoint_auth_method: Option<String>,
    grant_types: Option<Vec<String>>,
    response_types: Option<Vec<String>>,
    application_type: Option<String>,
}

/// `POST /oauth/register`.
pub async fn register(
    State(server): State<Arc<AuthServer>>,
    OwnOrigin(origin): OwnOrigin,
    body: axum::body::Bytes,
) -> Response {
    let registration: Registration = match serde_json::from_slice(&body) {
        Ok(registration) => registration,
        Err(problem) => {
            return refusal(
                "invalid_client_metadata",
                &format!("the registration is not the JSON RFC 7591 describes: {problem}"),
            );
        }
    };
    match register_client(&server, &origin, registration) {
        Ok(response) => response,
        Err((error, description)) => refusal(error, &description),
    }
}

type Refusal = (&'static str, String);

fn register_client(
    server: &AuthServer,
    origin: &str,
    registration: Registration,
) -> Result<Response, Refusal> {
    let application_type = registration
        .application_type
        .unwrap_or_else(|| "web".to_owned());
    if application_type != "web" && application_type != "native" {
        return Err((
            "invalid_client_metadata",
            format!("application_type must be web or native, not {application_type}"),
        ));
    }
    if registration.redirect_uris.is_empty() || registration.redirect_uris.len() > MAX_REDIRECTS {
        return Err((
            "invalid_redirect_uri",
            format!("register between 1 and {MAX_REDIRECTS} redirect_uris"),
        ));
    }
    for uri in &registration.redirect_uris {
        if let Err(problem) = acceptable_redirect(uri, origin) {
            return Err(("invalid_redirect_uri", format!("{uri}: {problem}")));
        }
    }
    // RFC 7591 §2: client_secret_basic when the client names none.
    let method = registration
        .token_endpoint_auth_method
        .unwrap_or_else(|| "client_secret_basic".to_owned());
    let Some(auth) = ClientAuth::parse(&method) else {
        return Err((
            "invalid_client_metadata",
            format!(
                "token_endpoint_auth_method {method} is not supported; use none, \
                 client_secret_post or client_secret_basic"
            ),
        ));
    };
    let grant_types = registration
        .grant_types
        .unwrap_or_else(|| vec!["authorization_code".to_owned()]);
    if let Some(other) = grant_types
        .iter()
        .find(|grant| *grant != "authorization_code" && *grant != "refresh_token")
    {
        return Err((
            "invalid_client_metadata",
            format!("grant type {other} is not supported"),
        ));
    }
    let response_types = registration
        .response_types
        .unwrap_or_else(|| vec!["code".to_owned()]);
    if response_types.iter().any(|kind| kind != "code") {
        return Err((
            "invalid_client_metadata",
            "only the response type code is supported".to_owned(),
        ));
    }
    let name: String = registration
        .client_name
        .unwrap_or_else(|| "Unnamed client".to_owned())
        .chars()
        .filter(|character| !character.is_control())
        .take(MAX_NAME)
        .collect();
    let no_randomness = || ("server_error", "no randomness available".to_owned());
    let id = random_secret().map_err(|_| no_randomness())?;
    let secret = match auth {
        ClientAuth::None => None,
        _ => Some(random_secret().map_err(|_| no_randomness())?),
    };
    let client = Client {
        id: id.clone(),
        name: name.clone(),
        redirect_uris: registration.redirect_uris.clone(),
        auth,
        secret_digest: secret.as_deref().map(digest),
    };
    if server.stores().add_client(client).is_err() {
        return Err((
            "temporarily_unavailable",
            "this demo server holds no more clients; restart holdbay to forget them".to_owned(),
        ));
    }
    let issued_at = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|since| since.as_secs())
        .unwrap_or(0);
    let mut body = json!({
        "client_id": id,
        "client_id_issued_at": issued_at,
        "client_name": name,
        "redirect_uris": registration.redirect_uris,
        "grant_types": grant_types,
        "response_types": response_types,
        "token_endpoint_auth_method": auth.name(),
        "application_type": application_type,
    });
    if let Some(secret) = secret {
        body["client_secret"] = json!(secret);
        body["client_secret_expires_at"] = json!(0);
    }
    let mut response = (StatusCode::CREATED, axum::Json(body)).into_response();
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

/// A redirect URI on loopback (`http`, any port: RFC 8252 §7.3) or on this server's origin.
fn acceptable_redirect(uri: &str, own_origin: &str) -> Result<(), &'static str> {
    if uri.len() > MAX_REDIRECT_LEN {
        return Err("too long");
    }
    let url = url::Url::parse(uri).map_err(|_| "not an absolute URL")?;
    if url.fragment().is_some() {
        return Err("a redirect URI may not have a fragment");
    }
    if url.origin().ascii_serialization() == own_origin {
        return Ok(());
    }
    let loopback = match url.host() {
        Some(url::Host::Domain(name)) => name.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    };
    if url.scheme() == "http" && loopback {
        Ok(())
    } else {
        Err(
            "only loopback (http://127.0.0.1, http://localhost, http://[::1]) or this server's own origin may receive codes",
        )
    }
}

fn refusal(error: &str, description: &str) -> Response {
    (
        StatusCode::BAD_REQUEST,
        axum::Json(json!({ "error": error, "error_description": description })),
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::acceptable_redirect;

    #[test]
    fn only_loopback_and_the_own_origin_may_receive_codes() {
        let own = "http://127.0.0.1:8080";
        assert!(acceptable_redirect("http://127.0.0.1:9999/cb", own).is_ok());
        assert!(acceptable_redirect("http://localhost/cb", own).is_ok());
        assert!(acceptable_redirect("http://[::1]:1/cb", own).is_ok());
        assert!(acceptable_redirect("http://127.0.0.1:8080/oauth/callback", own).is_ok());
        assert!(acceptable_redirect("https://evil.example/cb", own).is_err());
        assert!(acceptable_redirect("http://127.0.0.1/cb#x", own).is_err());
        assert!(acceptable_redirect("cb", own).is_err());
    }
}
