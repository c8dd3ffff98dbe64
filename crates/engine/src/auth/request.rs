//! The HTTP requests the app performs for the engine, the responses it hands back, and the
//! redacted form of a request for the wire log.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Why a request is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Purpose {
    ProtectedResourceMetadata,
    AuthorizationServerMetadata,
    Registration,
    Token,
    Refresh,
    /// The browser sent to the authorization endpoint (no fetch: the app records it).
    Authorization,
    /// The authorization server sent the browser back to the redirect URI.
    Callback,
}

/// Who answers an authorization exchange (the Scene draws each as its own station).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AuthParty {
    ResourceServer,
    AuthorizationServer,
    /// The app itself (the redirect back lands on its own callback route).
    Browser,
}

impl Purpose {
    /// What the wire log calls the exchange, in place of an MCP method.
    pub fn label(self) -> &'static str {
        match self {
            Purpose::ProtectedResourceMetadata => "oauth: resource metadata",
            Purpose::AuthorizationServerMetadata => "oauth: server metadata",
            Purpose::Registration => "oauth: register",
            Purpose::Token => "oauth: token",
            Purpose::Refresh => "oauth: refresh",
            Purpose::Authorization => "oauth: authorize",
            Purpose::Callback => "oauth: callback",
        }
    }

    /// Who answers it.
    pub fn party(self) -> AuthParty {
        match self {
            Purpose::ProtectedResourceMetadata => AuthParty::ResourceServer,
            Purpose::Callback => AuthParty::Browser,
            _ => AuthParty::AuthorizationServer,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum HttpMethod {
    Get,
    Post,
}

impl HttpMethod {
    pub fn as_str(self) -> &'static str {
        match self {
            HttpMethod::Get => "GET",
            HttpMethod::Post => "POST",
        }
    }
}

/// A request body: a form (token requests) or JSON (registration).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum RequestBody {
    Form(Vec<(String, String)>),
    Json(Value),
}

impl RequestBody {
    pub fn content_type(&self) -> &'static str {
        match self {
            RequestBody::Form(_) => "application/x-www-form-urlencoded",
            RequestBody::Json(_) => "application/json",
        }
    }

    /// The bytes to send.
    pub fn encoded(&self) -> String {
        match self {
            RequestBody::Form(pairs) => url::form_urlencoded::Serializer::new(String::new())
                .extend_pairs(pairs)
                .finish(),
            RequestBody::Json(value) => value.to_string(),
        }
    }
}

/// One request for the app to perform (with `fetch`, `credentials: "omit"`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuthRequest {
    pub purpose: Purpose,
    pub method: HttpMethod,
    pub url: String,
    /// Besides `Content-Type`, which follows the body.
    pub headers: Vec<(String, String)>,
    pub body: Option<RequestBody>,
    /// A DPoP proof the app signs and sends in the `DPoP` header (RFC 9449), when the flow
    /// asks for a DPoP-bound token.
    #[serde(default)]
    pub dpop: Option<ProofFor>,
}

/// What one DPoP proof binds: the request's method and URL, the server's nonce if it gave
/// one, and, for a request to the MCP server, the hash of the access token it carries
/// (`ath`). Built by `dpop::token_proof` and `dpop::resource_proof`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProofFor {
    pub htm: String,
    /// The request URL without its query and fragment (RFC 9449 §4.2).
    pub htu: String,
    pub nonce: Option<String>,
    pub ath: Option<String>,
}

/// What came back: status, headers and the body's bytes.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct AuthResponse {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

const SECRET_FIELDS: &[&str] = &[
    "client_secret",
    "code",
    "code_verifier",
    "refresh_token",
    "access_token",
    "assertion",
];
const REDACTED: &str = "‹redacted›";

impl AuthRequest {
    /// The request as the wire log may show it: secrets in the form body and the
    /// `Authorization` header replaced by `‹redacted›`.
    pub fn redacted(&self) -> AuthRequest {
        let mut copy = self.clone();
        for (name, value) in &mut copy.headers {
            if name.eq_ignore_ascii_case("authorization") {
                let scheme = value.split(' ').next().unwrap_or_default().to_owned();
                *value = format!("{scheme} {REDACTED}");
            }
        }
        if let Some(RequestBody::Form(pairs)) = &mut copy.body {
            for (name, value) in pairs {
                if SECRET_FIELDS.contains(&name.as_str()) {
                    *value = REDACTED.to_owned();
                }
            }
        }
        if let Some(RequestBody::Json(Value::Object(map))) = &mut copy.body {
            for field in SECRET_FIELDS {
                if let Some(value) = map.get_mut(*field) {
                    *value = Value::String(REDACTED.to_owned());
                }
            }
        }
        copy
    }
}

/// A JSON response body (token, registration) with its secrets redacted, for the wire log.
pub fn redacted_json_body(body: &[u8]) -> Option<Value> {
    let mut value: Value = serde_json::from_slice(body).ok()?;
    if let Value::Object(map) = &mut value {
        for field in SECRET_FIELDS
            .iter()
            .chain(&["id_token", "registration_access_token"])
        {
            if let Some(slot) = map.get_mut(*field) {
                *slot = Value::String(REDACTED.to_owned());
            }
        }
    }
    Some(value)
}

/// An answer's body as the wire log may keep it: the answers that carry secrets (token,
/// refresh, registration) with them redacted, or not at all when they are not JSON; the
/// discovery documents as they came.
pub fn logged_answer(purpose: Purpose, body: &[u8]) -> String {
    match purpose {
        Purpose::Token | Purpose::Refresh | Purpose::Registration => redacted_json_body(body)
            .map(|value| value.to_string())
            .unwrap_or_else(|| "‹not JSON: not kept, as it may hold a secret›".to_owned()),
        _ => String::from_utf8_lossy(body).into_owned(),
    }
}

/// A URL for the wire log: the values of `code`, `access_token` and `refresh_token` in its
/// query (an authorization callback) redacted; a URL that does not parse is shown whole.
pub fn redacted_url(text: &str) -> String {
    let Ok(mut url) = url::Url::parse(text) else {
        return text.to_owned();
    };
    if url.query().is_none() {
        return text.to_owned();
    }
    let pairs: Vec<(String, String)> = url
        .query_pairs()
        .map(|(name, value)| {
            let secret = SECRET_FIELDS.contains(&name.as_ref());
            let value = if secret {
                REDACTED.to_owned()
            } else {
                value.into_owned()
            };
            (name.into_owned(), value)
        })
        .collect();
    url.query_pairs_mut().clear().extend_pairs(pairs);
    url.into()
}
