//! The OAuth 2.1 pieces: PKCE S256, scope selection, the client's registration and its
//! authentication at the token endpoint, the authorization URL, the callback, and the
//! token request and response.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::AuthError;
use super::metadata::{AuthServerMetadata, json_object};
use super::request::{AuthRequest, AuthResponse, HttpMethod, Purpose, RequestBody};
use crate::vocabulary::findings::{Finding, Rule};

/// The PKCE verifier from 32 random bytes (43 characters, RFC 7636 §4.1) and its S256
/// challenge.
pub fn pkce_pair(random: &[u8; 32]) -> (String, String) {
    let verifier = URL_SAFE_NO_PAD.encode(random);
    let challenge = s256_challenge(&verifier);
    (verifier, challenge)
}

/// The S256 challenge of a PKCE verifier (RFC 7636 §4.2): what the client sends and what
/// an authorization server recomputes from the verifier.
pub fn s256_challenge(verifier: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}

/// Space-separated scopes, each once, in first-seen order.
pub fn scope_union<'a>(parts: impl IntoIterator<Item = &'a str>) -> Option<String> {
    let mut seen: Vec<&str> = Vec::new();
    for part in parts {
        for scope in part.split_ascii_whitespace() {
            if !seen.contains(&scope) {
                seen.push(scope);
            }
        }
    }
    (!seen.is_empty()).then(|| seen.join(" "))
}

/// The scope to request: the challenge's, else all of the PRM's `scopes_supported`, else
/// none (index.mdx "Scope Selection Strategy"); on step-up, the union with what was asked
/// before. `offline_access` is added only when the AS lists it and a scope is sent.
pub fn select_scope(
    challenge_scope: Option<&str>,
    prm_scopes: Option<&[String]>,
    previous: Option<&str>,
    metadata: &AuthServerMetadata,
    want_refresh: bool,
) -> Option<String> {
    let base = match challenge_scope {
        Some(scope) => Some(scope.to_owned()),
        None => prm_scopes.and_then(|scopes| scope_union(scopes.iter().map(String::as_str))),
    };
    let mut scope = scope_union(previous.into_iter().chain(base.as_deref()));
    if want_refresh && metadata.supports_scope("offline_access") {
        scope = scope.map(|s| scope_union([s.as_str(), "offline_access"]).unwrap_or(s));
    }
    scope
}

/// How the client authenticates at the token endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClientAuthMethod {
    None,
    ClientSecretBasic,
    ClientSecretPost,
}

impl ClientAuthMethod {
    fn parse(text: &str) -> Option<Self> {
        match text {
            "none" => Some(Self::None),
            "client_secret_basic" => Some(Self::ClientSecretBasic),
            "client_secret_post" => Some(Self::ClientSecretPost),
            _ => None,
        }
    }
}

/// How the client was registered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RegistrationKind {
    PreRegistered,
    MetadataDocument,
    Dynamic,
}

/// A client identity at one authorization server, keyed by its `issuer`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClientCredentials {
    pub issuer: String,
    pub client_id: String,
    pub client_secret: Option<String>,
    pub auth_method: ClientAuthMethod,
    pub kind: RegistrationKind,
}

/// A client id (and secret) the user registered by hand. `issuer` binds it to one
/// authorization server; without it, it is used with whichever the server names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PreRegisteredClient {
    pub issuer: Option<String>,
    pub client_id: String,
    pub client_secret: Option<String>,
}

/// The token endpoint method for a client with or without a secret: the registration's
/// own answer when it gave one, else the AS's list (RFC 8414's default is basic).
pub fn choose_auth_method(
    has_secret: bool,
    registered: Option<&str>,
    metadata: &AuthServerMetadata,
) -> ClientAuthMethod {
    if !has_secret {
        return ClientAuthMethod::None;
    }
    if let Some(method) = registered.and_then(ClientAuthMethod::parse) {
        return method;
    }
    match &metadata.token_endpoint_auth_methods_supported {
        None => ClientAuthMethod::ClientSecretBasic,
        Some(list) if list.is_empty() => ClientAuthMethod::ClientSecretBasic,
        Some(list) if list.iter().any(|m| m == "client_secret_basic") => {
            ClientAuthMethod::ClientSecretBasic
        }
        Some(list) if list.iter().any(|m| m == "client_secret_post") => {
            ClientAuthMethod::ClientSecretPost
        }
        Some(_) => ClientAuthMethod::None,
    }
}

/// The OIDC `application_type` the client registers as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ApplicationType {
    Web,
    Native,
}

/// The dynamic registration request (RFC 7591): a public client (`none`) unless the AS
/// lists methods without `none`.
pub fn registration_request(
    metadata: &AuthServerMetadata,
    endpoint: &str,
    client_name: &str,
    redirect_uri: &str,
    application_type: ApplicationType,
) -> AuthRequest {
    let method = match &metadata.token_endpoint_auth_methods_supported {
        Some(list) if !list.is_empty() && !list.iter().any(|m| m == "none") => list
            .iter()
            .find(|m| ClientAuthMethod::parse(m).is_some())
            .cloned()
            .unwrap_or_else(|| "client_secret_basic".into()),
        _ => "none".into(),
    };
    AuthRequest {
        purpose: Purpose::Registration,
        method: HttpMethod::Post,
        url: endpoint.to_owned(),
        headers: vec![("Accept".into(), "application/json".into())],
        body: Some(RequestBody::Json(json!({
            "client_name": client_name,
            "redirect_uris": [redirect_uri],
            "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"],
            "token_endpoint_auth_method": method,
            "application_type": application_type,
        }))),
        dpop: None,
    }
}

fn oauth_error(map: &serde_json::Map<String, Value>) -> (String, Option<String>) {
    (
        map.get("error")
            .and_then(Value::as_str)
            .unwrap_or("no error code")
            .to_owned(),
        map.get("error_description")
            .and_then(Value::as_str)
            .map(str::to_owned),
    )
}

/// Reads the registration answer into credentials bound to the AS's issuer.
pub fn read_registration_response(
    response: &AuthResponse,
    url: &str,
    metadata: &AuthServerMetadata,
) -> Result<ClientCredentials, AuthError> {
    let map =
        json_object("the authorization server", url, &response.body).map_err(
            |error| match error {
                AuthError::AsMetadataInvalid { reason, .. }
                    if (200..300).contains(&response.status) =>
                {
                    AuthError::RegistrationInvalid { reason }
                }
                AuthError::AsMetadataInvalid { .. } => AuthError::RegistrationRefused {
                    status: response.status,
                    error: "no error code".into(),
                    description: None,
                },
                other => other,
            },
        )?;
    if !(200..300).contains(&response.status) {
        let (error, description) = oauth_error(&map);
        return Err(AuthError::RegistrationRefused {
            status: response.status,
            error,
            description,
        });
    }
    let client_id = map
        .get("client_id")
        .and_then(Value::as_str)
        .filter(|id| !id.is_empty())
        .ok_or_else(|| AuthError::RegistrationInvalid {
            reason: "it has no client_id".into(),
        })?
        .to_owned();
    let client_secret = map
        .get("client_secret")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let registered = map
        .get("token_endpoint_auth_method")
        .and_then(Value::as_str);
    Ok(ClientCredentials {
        issuer: metadata.issuer.clone(),
        auth_method: choose_auth_method(client_secret.is_some(), registered, metadata),
        client_id,
        client_secret,
        kind: RegistrationKind::Dynamic,
    })
}

/// The authorization URL the browser opens.
pub fn authorization_url(
    metadata: &AuthServerMetadata,
    client: &ClientCredentials,
    redirect_uri: &str,
    state: &str,
    code_challenge: &str,
    resource: &str,
    scope: Option<&str>,
) -> Result<String, AuthError> {
    let mut url = url::Url::parse(&metadata.authorization_endpoint).map_err(|error| {
        AuthError::AsMetadataInvalid {
            url: metadata.authorization_endpoint.clone(),
            reason: error.to_string(),
        }
    })?;
    {
        let mut query = url.query_pairs_mut();
        query
            .append_pair("response_type", "code")
            .append_pair("client_id", &client.client_id)
            .append_pair("redirect_uri", redirect_uri)
            .append_pair("state", state)
            .append_pair("code_challenge", code_challenge)
            .append_pair("code_challenge_method", "S256")
            .append_pair("resource", resource);
        if let Some(scope) = scope {
            query.append_pair("scope", scope);
        }
    }
    Ok(url.into())
}

/// Reads the redirect back to the app: the `state` must be this flow's, then `iss` is
/// checked by simple string comparison (RFC 9207 §2.4 as index.mdx tabulates it) before
/// `error` or `code` are looked at.
pub fn read_callback(
    callback_url: &str,
    expected_state: &str,
    metadata: &AuthServerMetadata,
    findings: &mut Vec<Finding>,
) -> Result<String, AuthError> {
    let url = url::Url::parse(callback_url).map_err(|error| AuthError::CallbackInvalid {
        reason: error.to_string(),
    })?;
    let get = |key: &str| {
        url.query_pairs()
            .find(|(name, _)| name == key)
            .map(|(_, value)| value.into_owned())
    };
    if get("state").as_deref() != Some(expected_state) {
        return Err(AuthError::StateMismatch);
    }
    match get("iss") {
        Some(iss) if iss != metadata.issuer => {
            findings.push(Finding::new(
                Rule::AuthorizationIssMismatch,
                format!(
                    "the authorization response names issuer {iss}, not {}",
                    metadata.issuer
                ),
                None,
            ));
            return Err(AuthError::IssMismatch {
                expected: metadata.issuer.clone(),
                found: iss,
            });
        }
        None if metadata.authorization_response_iss_parameter_supported => {
            findings.push(Finding::new(
                Rule::AuthorizationIssMissing,
                format!(
                    "the authorization server {} advertises iss but its response has none",
                    metadata.issuer
                ),
                None,
            ));
            return Err(AuthError::IssMissing {
                issuer: metadata.issuer.clone(),
            });
        }
        _ => {}
    }
    if let Some(error) = get("error") {
        return Err(AuthError::AuthorizationDenied {
            error,
            description: get("error_description"),
        });
    }
    get("code")
        .filter(|code| !code.is_empty())
        .ok_or(AuthError::CodeMissing)
}

fn form_encode(text: &str) -> String {
    url::form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

/// A token request with the client's authentication applied.
fn token_request(
    purpose: Purpose,
    token_endpoint: &str,
    client: &ClientCredentials,
    mut form: Vec<(String, String)>,
) -> AuthRequest {
    let mut headers = vec![("Accept".to_owned(), "application/json".to_owned())];
    let secret = client.client_secret.clone().unwrap_or_default();
    match client.auth_method {
        ClientAuthMethod::ClientSecretBasic => {
            // RFC 6749 §2.3.1: each part form-encoded before Base64.
            let pair = format!(
                "{}:{}",
                form_encode(&client.client_id),
                form_encode(&secret)
            );
            let encoded = base64::engine::general_purpose::STANDARD.encode(pair);
            headers.push(("Authorization".into(), format!("Basic {encoded}")));
        }
        ClientAuthMethod::ClientSecretPost => {
            form.push(("client_id".into(), client.client_id.clone()));
            form.push(("client_secret".into(), secret));
        }
        ClientAuthMethod::None => form.push(("client_id".into(), client.client_id.clone())),
    }
    AuthRequest {
        purpose,
        method: HttpMethod::Post,
        url: token_endpoint.to_owned(),
        headers,
        body: Some(RequestBody::Form(form)),
        dpop: None,
    }
}

/// The authorization_code grant, with the PKCE verifier and `resource`.
pub fn code_token_request(
    token_endpoint: &str,
    client: &ClientCredentials,
    code: &str,
    code_verifier: &str,
    redirect_uri: &str,
    resource: &str,
) -> AuthRequest {
    let form = vec![
        ("grant_type".into(), "authorization_code".into()),
        ("code".into(), code.into()),
        ("code_verifier".into(), code_verifier.into()),
        ("redirect_uri".into(), redirect_uri.into()),
        ("resource".into(), resource.into()),
    ];
    token_request(Purpose::Token, token_endpoint, client, form)
}

/// What a successful sign-in yields; the app keeps it and sends `access_token` as
/// `Authorization: Bearer` on every MCP request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TokenSet {
    pub access_token: String,
    pub refresh_token: Option<String>,
    /// On the caller's clock; `None` when the AS gave no `expires_in`.
    pub expires_at_ms: Option<u64>,
    /// The granted scope (the response's, else what was requested).
    pub scope: Option<String>,
    pub issuer: String,
    pub resource: String,
    pub token_endpoint: String,
    pub client: ClientCredentials,
    /// How the token is presented: as a bearer, or bound to the client's DPoP key.
    #[serde(default)]
    pub token_type: TokenType,
}

/// How an access token is presented (RFC 6750, RFC 9449 §7.1).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TokenType {
    #[default]
    Bearer,
    /// Bound to the key that signed the token request's proof: every request carries a
    /// fresh proof made with it.
    Dpop,
}

impl TokenSet {
    pub fn is_expired(&self, now_ms: u64) -> bool {
        self.expires_at_ms.is_some_and(|at| now_ms >= at)
    }

    /// The `Authorization` header value for MCP requests.
    pub fn authorization_header(&self) -> String {
        match self.token_type {
            TokenType::Bearer => format!("Bearer {}", self.access_token),
            TokenType::Dpop => format!("DPoP {}", self.access_token),
        }
    }
}

/// The refresh_token grant for `tokens`, or `None` without a refresh token.
pub fn refresh_request(tokens: &TokenSet) -> Option<AuthRequest> {
    let refresh = tokens.refresh_token.as_ref()?;
    let form = vec![
        ("grant_type".into(), "refresh_token".into()),
        ("refresh_token".into(), refresh.clone()),
        ("resource".into(), tokens.resource.clone()),
    ];
    Some(token_request(
        Purpose::Refresh,
        &tokens.token_endpoint,
        &tokens.client,
        form,
    ))
}

/// The context a token answer is read in.
pub struct TokenContext<'a> {
    pub issuer: &'a str,
    pub resource: &'a str,
    pub token_endpoint: &'a str,
    pub client: &'a ClientCredentials,
    pub requested_scope: Option<&'a str>,
    /// The refresh token sent, kept when the answer brings no new one.
    pub previous_refresh: Option<&'a str>,
    /// Whether the request carried a DPoP proof (so a `DPoP` token is usable).
    pub dpop: bool,
}

/// Reads a token endpoint answer (RFC 6749 §5.1/§5.2).
pub fn read_token_response(
    response: &AuthResponse,
    context: &TokenContext<'_>,
    now_ms: u64,
    findings: &mut Vec<Finding>,
) -> Result<TokenSet, AuthError> {
    let map = json_object(
        "the authorization server",
        context.token_endpoint,
        &response.body,
    )
    .map_err(|error| match error {
        AuthError::AsMetadataInvalid { reason, .. } if (200..300).contains(&response.status) => {
            AuthError::TokenInvalid { reason }
        }
        AuthError::AsMetadataInvalid { .. } => AuthError::TokenRefused {
            status: response.status,
            error: "no error code".into(),
            description: None,
        },
        other => other,
    })?;
    if !(200..300).contains(&response.status) || map.contains_key("error") {
        let (error, description) = oauth_error(&map);
        return Err(AuthError::TokenRefused {
            status: response.status,
            error,
            description,
        });
    }
    let access_token = map
        .get("access_token")
        .and_then(Value::as_str)
        .filter(|token| !token.is_empty())
        .ok_or_else(|| AuthError::TokenInvalid {
            reason: "it has no access_token".into(),
        })?
        .to_owned();
    let token_type = map.get("token_type").and_then(Value::as_str).unwrap_or("");
    let token_type = if token_type.eq_ignore_ascii_case("bearer") {
        TokenType::Bearer
    } else if context.dpop && token_type.eq_ignore_ascii_case("dpop") {
        TokenType::Dpop
    } else {
        findings.push(Finding::new(
            Rule::TokenTypeNotBearer,
            format!(
                "the token response's token_type is {token_type:?}, not Bearer{}",
                if context.dpop { " or DPoP" } else { "" }
            ),
            None,
        ));
        return Err(AuthError::TokenTypeNotBearer {
            token_type: token_type.to_owned(),
        });
    };
    let expires_at_ms = map
        .get("expires_in")
        .and_then(Value::as_f64)
        .filter(|seconds| seconds.is_finite() && *seconds >= 0.0)
        .map(|seconds| now_ms.saturating_add((seconds * 1000.0).min(u64::MAX as f64) as u64));
    Ok(TokenSet {
        access_token,
        refresh_token: map
            .get("refresh_token")
            .and_then(Value::as_str)
            .map(str::to_owned)
            .or_else(|| context.previous_refresh.map(str::to_owned)),
        expires_at_ms,
        scope: map
            .get("scope")
            .and_then(Value::as_str)
            .map(str::to_owned)
            .or_else(|| context.requested_scope.map(str::to_owned)),
        issuer: context.issuer.to_owned(),
        resource: context.resource.to_owned(),
        token_endpoint: context.token_endpoint.to_owned(),
        client: context.client.clone(),
        token_type,
    })
}

/// Reads the answer to [`refresh_request`]: a refused refresh means a new sign-in.
pub fn read_refresh_response(
    response: &AuthResponse,
    tokens: &TokenSet,
    now_ms: u64,
    findings: &mut Vec<Finding>,
) -> Result<TokenSet, AuthError> {
    let context = TokenContext {
        issuer: &tokens.issuer,
        resource: &tokens.resource,
        token_endpoint: &tokens.token_endpoint,
        client: &tokens.client,
        requested_scope: tokens.scope.as_deref(),
        previous_refresh: tokens.refresh_token.as_deref(),
        dpop: tokens.token_type == TokenType::Dpop,
    };
    read_token_response(response, &context, now_ms, findings).map_err(|error| match error {
        AuthError::TokenRefused {
            error, description, ..
        } => AuthError::RefreshRejected { error, description },
        other => other,
    })
}
