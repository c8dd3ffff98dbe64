//! The documents a client discovers the flow from: the protected resource's (RFC 9728),
//! the authorization server's (RFC 8414, also at the OpenID path), and the app's own Client
//! ID Metadata Document (its URL is its client_id).

use axum::Json;
use serde_json::{Value, json};

use super::scopes::{OFFLINE_SCOPE, SUPPORTED};
use super::{
    AUTHORIZE_PATH, CALLBACK_PATH, CLIENT_METADATA_PATH, OwnOrigin, REGISTER_PATH, TOKEN_PATH,
    resource_for,
};

/// `/.well-known/oauth-protected-resource[<path>]`: the resource metadata of the endpoint at
/// `path`.
pub async fn protected_resource(OwnOrigin(origin): OwnOrigin, path: &str) -> Json<Value> {
    Json(json!({
        "resource": resource_for(&origin, path),
        "authorization_servers": [origin],
        "scopes_supported": SUPPORTED,
        "bearer_methods_supported": ["header"],
        "resource_name": "Holdbay demo MCP server",
    }))
}

/// `/.well-known/oauth-authorization-server` and `/.well-known/openid-configuration`.
pub async fn authorization_server(OwnOrigin(origin): OwnOrigin) -> Json<Value> {
    Json(json!({
        "issuer": origin,
        "authorization_endpoint": format!("{origin}{AUTHORIZE_PATH}"),
        "token_endpoint": format!("{origin}{TOKEN_PATH}"),
        "registration_endpoint": format!("{origin}{REGISTER_PATH}"),
        "scopes_supported": SUPPORTED,
        "response_types_supported": ["code"],
        "response_modes_supported": ["query"],
        "grant_types_supported": ["authorization_code", "refresh_token"],
        "code_challenge_methods_supported": ["S256"],
        "token_endpoint_auth_methods_supported": ["none", "client_secret_post", "client_secret_basic"],
        "authorization_response_iss_parameter_supported": true,
        "client_id_metadata_document_supported": true,
    }))
}

/// The app's Client ID Metadata Document at [`CLIENT_METADATA_PATH`].
pub async fn client_metadata(OwnOrigin(origin): OwnOrigin) -> Json<Value> {
    Json(app_client_document(&origin))
}

/// The document itself, also what the authorization server knows the app by.
pub fn app_client_document(origin: &str) -> Value {
    json!({
        "client_id": format!("{origin}{CLIENT_METADATA_PATH}"),
        "client_name": "Holdbay",
        "client_uri": format!("{origin}/"),
        "redirect_uris": [format!("{origin}{CALLBACK_PATH}")],
        "grant_types": ["authorization_code", "refresh_token"],
        "response_types": ["code"],
        "token_endpoint_auth_method": "none",
        "scope": format!("{} {OFFLINE_SCOPE}", super::scopes::DEFAULT),
    })
}
