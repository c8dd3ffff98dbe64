//! Readers of the two discovery documents: protected resource metadata (RFC 9728) and
//! authorization server metadata (RFC 8414 / OpenID Connect Discovery), each checked as
//! the spec requires before anything in it is used.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::AuthError;
use super::uri::{Issuer, is_https_or_loopback, parse_http_url, resource_covers};
use crate::vocabulary::findings::{Finding, Rule};
use crate::vocabulary::limits::MAX_AUTH_DOCUMENT_BYTES;

/// A JSON object from a response body, within [`MAX_AUTH_DOCUMENT_BYTES`].
pub(crate) fn json_object(
    party: &str,
    url: &str,
    body: &[u8],
) -> Result<serde_json::Map<String, Value>, AuthError> {
    if body.len() > MAX_AUTH_DOCUMENT_BYTES {
        return Err(AuthError::DocumentTooLarge {
            party: party.to_owned(),
            url: url.to_owned(),
            bytes: body.len(),
            max: MAX_AUTH_DOCUMENT_BYTES,
        });
    }
    match serde_json::from_slice::<Value>(body) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(AuthError::AsMetadataInvalid {
            url: url.to_owned(),
            reason: format!("{party}'s document is not a JSON object"),
        }),
        Err(error) => Err(AuthError::AsMetadataInvalid {
            url: url.to_owned(),
            reason: format!("{party}'s document is not JSON: {error}"),
        }),
    }
}

fn strings(map: &serde_json::Map<String, Value>, key: &str) -> Option<Vec<String>> {
    map.get(key)?.as_array().map(|items| {
        items
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect()
    })
}

fn string(map: &serde_json::Map<String, Value>, key: &str) -> Option<String> {
    map.get(key)?.as_str().map(str::to_owned)
}

/// Protected resource metadata, after its checks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProtectedResourceMetadata {
    pub resource: String,
    pub authorization_servers: Vec<String>,
    pub scopes_supported: Option<Vec<String>>,
}

/// Reads the PRM fetched from `url` for the MCP server at `server_url`. A `resource` that
/// does not cover the server is refused (RFC 9728 §3.3), with a finding.
pub fn read_protected_resource_metadata(
    url: &str,
    body: &[u8],
    server_url: &str,
    findings: &mut Vec<Finding>,
) -> Result<ProtectedResourceMetadata, AuthError> {
    let invalid = |reason: &str| AuthError::PrmInvalid {
        url: url.to_owned(),
        reason: reason.to_owned(),
    };
    let map = json_object("the MCP server", url, body).map_err(|error| match error {
        AuthError::AsMetadataInvalid { reason, .. } => invalid(&reason),
        other => other,
    })?;
    let resource = string(&map, "resource").ok_or_else(|| invalid("it has no resource"))?;
    if !resource_covers(&resource, server_url) {
        findings.push(Finding::new(
            Rule::PrmResourceMismatch,
            format!("the protected resource metadata at {url} names resource {resource}, not {server_url}"),
            Some(Value::Object(map.clone())),
        ));
        return Err(AuthError::PrmResourceMismatch {
            resource,
            server: server_url.to_owned(),
        });
    }
    let authorization_servers = strings(&map, "authorization_servers").unwrap_or_default();
    if authorization_servers.is_empty() {
        findings.push(Finding::new(
            Rule::PrmNoAuthorizationServers,
            format!("the protected resource metadata at {url} names no authorization server"),
            Some(Value::Object(map.clone())),
        ));
        return Err(invalid("it names no authorization_servers"));
    }
    Ok(ProtectedResourceMetadata {
        resource,
        authorization_servers,
        scopes_supported: strings(&map, "scopes_supported"),
    })
}

/// Authorization server metadata, after its checks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuthServerMetadata {
    pub issuer: String,
    pub authorization_endpoint: String,
    pub token_endpoint: String,
    pub registration_endpoint: Option<String>,
    pub scopes_supported: Option<Vec<String>>,
    pub code_challenge_methods_supported: Vec<String>,
    pub token_endpoint_auth_methods_supported: Option<Vec<String>>,
    pub client_id_metadata_document_supported: bool,
    pub authorization_response_iss_parameter_supported: bool,
    /// The algorithms it accepts in DPoP proofs (RFC 9449 §5.1); absent: no DPoP.
    #[serde(default)]
    pub dpop_signing_alg_values_supported: Option<Vec<String>>,
    /// The grants it offers (RFC 8414 §2); absent means `authorization_code` and `implicit`.
    #[serde(default)]
    pub grant_types_supported: Option<Vec<String>>,
}

impl AuthServerMetadata {
    /// Whether it offers the authorization-code grant, the only one a user's browser
    /// client uses (absent `grant_types_supported` defaults to it, RFC 8414 §2).
    pub fn offers_authorization_code(&self) -> bool {
        self.grant_types_supported
            .as_ref()
            .is_none_or(|grants| grants.iter().any(|grant| grant == "authorization_code"))
    }

    pub fn supports_scope(&self, scope: &str) -> bool {
        self.scopes_supported
            .as_ref()
            .is_some_and(|scopes| scopes.iter().any(|s| s == scope))
    }
}

/// Reads AS metadata fetched from `url` for `issuer`: the `issuer` must be identical
/// (RFC 8414 §3.3), S256 must be listed (security-considerations.mdx), endpoints HTTPS.
pub fn read_auth_server_metadata(
    url: &str,
    body: &[u8],
    issuer: &Issuer,
    findings: &mut Vec<Finding>,
) -> Result<AuthServerMetadata, AuthError> {
    let map = json_object("the authorization server", url, body)?;
    let invalid = |reason: String| AuthError::AsMetadataInvalid {
        url: url.to_owned(),
        reason,
    };
    let found = string(&map, "issuer").ok_or_else(|| invalid("it has no issuer".into()))?;
    if found != issuer.as_str() {
        findings.push(Finding::new(
            Rule::AsIssuerMismatch,
            format!(
                "the metadata at {url} names issuer {found}, but it was fetched for {}",
                issuer.as_str()
            ),
            Some(Value::Object(map.clone())),
        ));
        return Err(AuthError::AsIssuerMismatch {
            expected: issuer.as_str().to_owned(),
            found,
            url: url.to_owned(),
        });
    }
    let endpoint = |field: &str, required: bool| -> Result<Option<String>, AuthError> {
        let Some(text) = string(&map, field) else {
            return if required {
                Err(invalid(format!("it has no {field}")))
            } else {
                Ok(None)
            };
        };
        let parsed =
            parse_http_url(&text).map_err(|reason| invalid(format!("{field}: {reason}")))?;
        if !is_https_or_loopback(&parsed) {
            return Err(AuthError::EndpointNotHttps {
                issuer: found.clone(),
                field: field.to_owned(),
                url: text,
            });
        }
        Ok(Some(text))
    };
    let checked = (|| {
        Ok::<_, AuthError>((
            endpoint("authorization_endpoint", true)?,
            endpoint("token_endpoint", true)?,
            endpoint("registration_endpoint", false)?,
        ))
    })();
    let (authorization_endpoint, token_endpoint, registration_endpoint) = match checked {
        Ok((Some(a), Some(t), r)) => (a, t, r),
        Ok(_) => return Err(invalid("an endpoint is missing".into())),
        Err(error) => {
            if let AuthError::EndpointNotHttps {
                field, url: bad, ..
            } = &error
            {
                findings.push(Finding::new(
                    Rule::AuthEndpointNotHttps,
                    format!(
                        "the authorization server {found} has a {field} that is not HTTPS: {bad}"
                    ),
                    None,
                ));
            }
            return Err(error);
        }
    };
    let methods = strings(&map, "code_challenge_methods_supported").unwrap_or_default();
    if !methods.iter().any(|m| m == "S256") {
        findings.push(Finding::new(
            Rule::PkceS256Unsupported,
            format!("the authorization server {found} does not list S256 in code_challenge_methods_supported"),
            map.get("code_challenge_methods_supported").cloned(),
        ));
        return Err(AuthError::PkceUnsupported {
            issuer: found,
            methods: if methods.is_empty() {
                "absent".into()
            } else {
                methods.join(", ")
            },
        });
    }
    Ok(AuthServerMetadata {
        issuer: found,
        authorization_endpoint,
        token_endpoint,
        registration_endpoint,
        scopes_supported: strings(&map, "scopes_supported"),
        code_challenge_methods_supported: methods,
        token_endpoint_auth_methods_supported: strings(
            &map,
            "token_endpoint_auth_methods_supported",
        ),
        client_id_metadata_document_supported: map
            .get("client_id_metadata_document_supported")
            .and_then(Value::as_bool)
            .unwrap_or(false),
        authorization_response_iss_parameter_supported: map
            .get("authorization_response_iss_parameter_supported")
            .and_then(Value::as_bool)
            .unwrap_or(false),
        dpop_signing_alg_values_supported: strings(&map, "dpop_signing_alg_values_supported"),
        grant_types_supported: strings(&map, "grant_types_supported"),
    })
}
