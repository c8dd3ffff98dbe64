//! A small, real OAuth 2.1 authorization server beside the demo MCP server, so a learner can
//! watch MCP's whole authorization flow (2026-07-28) with no other software. It always
//! guards [`PROTECTED_PATH`] (the same demo tools, for the authorization lesson, from a plain
//! `holdbay serve`); with `--auth oauth` it guards `/mcp` too. Each guarded path is its own
//! protected resource (RFC 9728, RFC 6750); the server
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

pub use guard::{Guard, require_token, require_tool_scope};
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
/// The demo MCP endpoint, which `--auth oauth` protects (open otherwise).
pub const RESOURCE_PATH: &str = "/mcp";
/// The demo MCP endpoint that always needs the demo authorization server's tokens.
pub const PROTECTED_PATH: &str = "/protected/mcp";
pub use holdbay_engine::auth::{
    AUTHORIZATION_SERVER_WELL_KNOWN as AUTHORIZATION_SERVER_METADATA_PATH,
    OPENID_CONFIGURATION_WELL_KNOWN,
    PROTECTED_RESOURCE_WELL_KNOWN as PROTECTED_RESOURCE_METADATA_PATH,
};

/// How `/mcp` is protected besides `--token` ([`PROTECTED_PATH`] always is).
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

/// The authorization server's state: its options, the paths it guards, and its bounded
/// stores.
#[derive(Debug)]
pub struct AuthServer {
    options: OAuthOptions,
    /// The paths of the protected resources on this server's origin; the first is the one
    /// the root resource metadata describes.
    resources: Vec<&'static str>,
    stores: Mutex<Stores>,
}

impl AuthServer {
    /// An authorization server for the resources at `resources` (paths such as `/mcp`).
    pub fn new(options: OAuthOptions, resources: Vec<&'static str>) -> Arc<Self> {
        Arc::new(Self {
            options,
            resources,
            stores: Mutex::new(Stores::default()),
        })
    }

    /// The paths this server guards.
    pub fn resources(&self) -> &[&'static str] {
        &self.resources
    }

    /// Whether `resource` is one of this server's protected resources at `origin`.
    fn protects(&self, origin: &str, resource: &str) -> bool {
        self.resources
            .iter()
            .any(|path| resource_for(origin, path) == resource)
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

/// The canonical URL of the protected MCP endpoint at `path` for `origin`.
fn resource_for(origin: &str, path: &str) -> String {
    format!("{origin}{path}")
}

/// Where the resource metadata of the endpoint at `path` is (RFC 9728 §3.1: the well-known
/// prefix, then the resource's path).
pub fn metadata_path_for(path: &str) -> String {
    format!("{PROTECTED_RESOURCE_METADATA_PATH}{path}")
}

/// The metadata, authorization, token and registration endpoints (the app's Client ID
/// Metadata Document, [`client_metadata`], is served with or without them): each guarded
/// resource's metadata at its own path, and at the root the first one's. The caller puts
/// the Host and Origin guards around them.
pub fn routes(server: Arc<AuthServer>) -> Router {
    let mut router = Router::new();
    if let Some(&first) = server.resources().first() {
        router = router.route(
            PROTECTED_RESOURCE_METADATA_PATH,
            get(move |origin: OwnOrigin| metadata::protected_resource(origin, first)),
        );
    }
    for &path in server.resources() {
        router = router.route(
            &metadata_path_for(path),
            get(move |origin: OwnOrigin| metadata::protected_resource(origin, path)),
        );
    }
    router
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
