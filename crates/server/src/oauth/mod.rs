//! `holdbay serve --auth oauth`: a small, real OAuth 2.1 authorization server beside the demo
//! MCP server, so a learner can watch MCP's whole authorization flow (2026-07-28) with no
//! other software. `/mcp` becomes a protected resource (RFC 9728, RFC 6750); the server
//! publishes its metadata (RFC 8414), registers clients (RFC 7591) or takes the app's own
//! Client ID Metadata Document, shows a consent page, and issues audience-bound (RFC 8707),
//! PKCE-checked (RFC 7636) opaque tokens kept in bounded memory.
//!
//! Every URL is made from the request's own origin (`http://<Host>`, which the Host guard
//! has already confined to this server's names), so `localhost` and `127.0.0.1` are two
//! different resources, as a browser sees them.

mod authorize;
mod clients;
mod consent_page;
mod guard;
mod metadata;
mod pkce;
mod register;
mod scopes;
mod store;
mod token;

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use axum::Router;
use axum::extract::Request;
use axum::routing::{get, post};

pub use guard::{require_token, require_tool_scope};
pub use metadata::client_metadata;
pub use scopes::{ADMIN_SCOPE, BASE_SCOPE, OFFLINE_SCOPE};

use store::Stores;

/// Where the app's own Client ID Metadata Document is served, and where the app receives
/// the authorization response (the app's page handles it): the engine's, as the app uses
/// them too.
pub use holdbay_engine::auth::{
    APP_CALLBACK_PATH as CALLBACK_PATH, APP_CLIENT_METADATA_PATH as CLIENT_METADATA_PATH,
};
pub const AUTHORIZE_PATH: &str = "/oauth/authorize";
pub const TOKEN_PATH: &str = "/oauth/token";
pub const REGISTER_PATH: &str = "/oauth/register";
/// The MCP endpoint this server protects.
pub const RESOURCE_PATH: &str = "/mcp";
pub use holdbay_engine::auth::{
    AUTHORIZATION_SERVER_WELL_KNOWN as AUTHORIZATION_SERVER_METADATA_PATH,
    OPENID_CONFIGURATION_WELL_KNOWN,
    PROTECTED_RESOURCE_WELL_KNOWN as PROTECTED_RESOURCE_METADATA_PATH,
};

/// How `/mcp` is protected besides `--token`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum AuthMode {
    /// No authorization (or the `--token` bearer secrets, when given).
    #[default]
    None,
    /// The demo OAuth 2.1 authorization server; `/mcp` needs its access tokens.
    Oauth,
}

/// The tunable parts of the demo authorization server.
#[derive(Debug, Clone)]
pub struct OAuthOptions {
    /// How long an access token is valid.
    pub token_lifetime: Duration,
    /// How long an authorization code may wait for its exchange.
    pub code_lifetime: Duration,
    /// How long a refresh token is valid.
    pub refresh_lifetime: Duration,
}

impl Default for OAuthOptions {
    fn default() -> Self {
        Self {
            token_lifetime: Duration::from_secs(3600),
            code_lifetime: Duration::from_secs(60),
            refresh_lifetime: Duration::from_secs(24 * 3600),
        }
    }
}

/// The authorization server's state: its options and its bounded stores.
#[derive(Debug)]
pub struct AuthServer {
    options: OAuthOptions,
    stores: Mutex<Stores>,
}

impl AuthServer {
    pub fn new(options: OAuthOptions) -> Arc<Self> {
        Arc::new(Self {
            options,
            stores: Mutex::new(Stores::default()),
        })
    }

    /// The stores; a panic elsewhere while holding them leaves data that is still whole
    /// (every change is one insert or remove), so a poisoned lock is taken over.
    fn stores(&self) -> MutexGuard<'_, Stores> {
        self.stores
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// The origin a request reached this server by: `http://<Host>` (or, for HTTP/2, the
/// URI's authority). The Host guard has already refused names that are not this server's.
fn origin_of(parts: &http::request::Parts) -> String {
    let host = parts
        .headers
        .get(http::header::HOST)
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned)
        .or_else(|| parts.uri.authority().map(|a| a.as_str().to_owned()));
    origin_from_host(host)
}

/// Extractor: the request's own origin (see [`origin_of`]).
#[derive(Debug, Clone)]
pub struct OwnOrigin(pub String);

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for OwnOrigin {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut http::request::Parts,
        _state: &S,
    ) -> Result<Self, Self::Rejection> {
        Ok(Self(origin_of(parts)))
    }
}

/// The origin of `request`, as [`OwnOrigin`] reads it.
pub fn request_origin(request: &Request) -> String {
    origin_from_host(crate::http::host::named(request))
}

fn origin_from_host(host: Option<String>) -> String {
    format!("http://{}", host.as_deref().unwrap_or("127.0.0.1"))
}

/// The canonical URL of the protected MCP endpoint for `origin`.
fn resource_for(origin: &str) -> String {
    format!("{origin}{RESOURCE_PATH}")
}

/// The metadata, authorization, token and registration endpoints (the app's Client ID
/// Metadata Document, [`client_metadata`], is served with or without them). The caller puts
/// the Host and Origin guards around them.
pub fn routes(server: Arc<AuthServer>) -> Router {
    Router::new()
        .route(
            PROTECTED_RESOURCE_METADATA_PATH,
            get(metadata::protected_resource),
        )
        .route(
            &format!("{PROTECTED_RESOURCE_METADATA_PATH}{RESOURCE_PATH}"),
            get(metadata::protected_resource),
        )
        .route(
            AUTHORIZATION_SERVER_METADATA_PATH,
            get(metadata::authorization_server),
        )
        .route(
            OPENID_CONFIGURATION_WELL_KNOWN,
            get(metadata::authorization_server),
        )
        .route(AUTHORIZE_PATH, get(authorize::show).post(authorize::decide))
        .route(TOKEN_PATH, post(token::exchange))
        .route(REGISTER_PATH, post(register::register))
        .with_state(server)
}
