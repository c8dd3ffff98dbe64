//! URL layout: the demo MCP endpoint at `/mcp`, the same demo tools behind the demo
//! authorization server at `/protected/mcp` (always: the authorization lesson needs no
//! flag), and the relay at `/relay`, all behind the HTTP edge (the relay also behind this
//! launch's relay token); the consent page of `connect_account` at `/consent/…` (Host guard
//! only); the app's page and files everywhere else (no CORS, no token). The demo
//! authorization server's metadata, authorize, token and registration endpoints
//! (`crate::oauth`) sit behind the same Host and Origin guards; with `--auth oauth` it
//! guards `/mcp` too. The app's Client ID Metadata Document is always served, and its
//! callback (`/oauth/callback`) is a deep link: the app's page.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::http::{HeaderValue, Response, StatusCode, header};
use axum::middleware::{from_fn, from_fn_with_state};
use axum::routing::{any, get};
use tower_http::set_header::SetResponseHeaderLayer;

use crate::app_page::AppPage;
use crate::http::allowed_servers::AllowedServers;
use crate::http::bearer::{self, BearerTokens};
use crate::http::body_limit::{self, BodyLimit};
use crate::http::cors;
use crate::http::hardening;
use crate::http::host::{self, HostPolicy};
use crate::http::misbehave::{self, Misbehave};
use crate::http::origin::OriginPolicy;
use crate::http::relay::{self, Relay};
use crate::http::relay_token::{self, RelayToken};
use crate::mcp::sets::ActiveSets;
use crate::oauth::{self, AuthMode};
use crate::options::{FixtureChoice, ServeOptions};
use crate::shared::Shared;
use crate::stdio::{self, StdioServers};
use crate::{app_files, demo, mcp};
use holdbay_engine::relay::RELAY_PATH;

/// The whole site for a server listening on `address`, whose relay needs `relay_token`.
pub fn router(
    options: &ServeOptions,
    address: SocketAddr,
    shared: Arc<Shared>,
    sets: Arc<ActiveSets>,
    relay_token: RelayToken,
) -> Router {
    let hosts = Arc::new(HostPolicy::new(address));
    let origins = Arc::new(OriginPolicy::new(address, &options.extra_origins));
    let tokens = Arc::new(BearerTokens::new(&options.tokens));
    let body_limit = BodyLimit(options.limits.max_body_bytes);
    let misbehave = Misbehave {
        on: options.fixtures.contains(&FixtureChoice::Misbehave),
        limit: body_limit,
    };
    // One list for both: the relay may reach these servers, and the page may call them.
    let allowed_servers = AllowedServers::new(&options.relay_allow);
    let page = Arc::new(match crate::embedded_app::index_html() {
        Some(html) if options.embedded_app => {
            AppPage::from_html(&html, &relay_token, options.stdio.len())
        }
        _ => AppPage::load(&options.dist, &relay_token, options.stdio.len()),
    });
    let app_policy = app_policy(&page, &allowed_servers);
    let relay = Arc::new(Relay::new(allowed_servers));
    let relay_token = Arc::new(relay_token);
    let open_is_guarded = options.auth == AuthMode::Oauth;
    // The first resource is the one the root resource metadata describes: `/mcp` when it
    // is guarded (as before the protected endpoint existed), else the protected one.
    let guarded = if open_is_guarded {
        vec![oauth::RESOURCE_PATH, oauth::PROTECTED_PATH]
    } else {
        vec![oauth::PROTECTED_PATH]
    };
    let auth_server = oauth::AuthServer::new(options.oauth.clone(), guarded);

    // Layers run outside-in in reverse order of `.layer` calls: the Host guard first, then
    // the Origin guard (it answers preflights), then the token check (the bearer token on
    // /mcp, the relay token on /relay: before any body is read), then the limit. On a
    // guarded endpoint the access token is checked (with the bearer tokens on /mcp), and a
    // tool call's extra scope once the body is read.
    let open_guard =
        open_is_guarded.then(|| oauth::Guard::new(Arc::clone(&auth_server), oauth::RESOURCE_PATH));
    let mcp = mcp::service(Arc::clone(&shared), Arc::clone(&sets))
        .layer(from_fn_with_state(body_limit, oauth::require_tool_scope))
        .layer(from_fn_with_state(body_limit, body_limit::enforce))
        .layer(from_fn_with_state(open_guard, oauth::require_token))
        .layer(from_fn_with_state(tokens, bearer::require));
    // `--token` protects /mcp only: here the demo authorization server's tokens are the key.
    let protected_guard = Some(oauth::Guard::new(
        Arc::clone(&auth_server),
        oauth::PROTECTED_PATH,
    ));
    let protected = mcp::service(Arc::clone(&shared), Arc::clone(&sets))
        .layer(from_fn_with_state(body_limit, oauth::require_tool_scope))
        .layer(from_fn_with_state(body_limit, body_limit::enforce))
        .layer(from_fn_with_state(protected_guard, oauth::require_token));
    let legacy =
        mcp::legacy::service(&shared).layer(from_fn_with_state(body_limit, body_limit::enforce));
    let relay = any(relay::handle)
        .with_state(relay)
        .layer(from_fn_with_state(body_limit, body_limit::enforce))
        .layer(from_fn_with_state(relay_token, relay_token::require));
    // Only the commands of the launch: no request names a program.
    let stdio = stdio::routes(Arc::new(StdioServers::new(options.stdio.clone())))
        .layer(from_fn_with_state(body_limit, body_limit::enforce));
    let edge = Router::new()
        .nest_service(oauth::RESOURCE_PATH, mcp)
        .nest(stdio::STDIO_PATH, stdio)
        .nest_service(oauth::PROTECTED_PATH, protected)
        .nest_service(mcp::legacy::LEGACY_PATH, legacy)
        .route(RELAY_PATH, relay)
        .route(oauth::CLIENT_METADATA_PATH, get(oauth::client_metadata))
        .merge(oauth::routes(auth_server))
        .layer(from_fn_with_state(origins, cors::guard))
        .layer(from_fn_with_state(misbehave, misbehave::layer))
        .layer(from_fn_with_state(Arc::clone(&hosts), host::guard));

    // The consent page records a decision, so it gets the Host guard against rebinding too.
    let consent = demo::consent::routes(shared).layer(from_fn_with_state(hosts, host::guard));
    // The app's files, precompressed at build time, with cache rules; unknown paths get
    // the page, so deep links load the app. The page carries the app page's policy.
    let app = tower::ServiceBuilder::new()
        .layer(SetResponseHeaderLayer::overriding(
            header::CONTENT_SECURITY_POLICY,
            on_pages(app_policy),
        ))
        .service(if options.embedded_app {
            app_files::embedded(page)
        } else {
            app_files::service(&options.dist, page)
        });
    Router::new()
        .merge(edge)
        .merge(consent)
        .route("/favicon.ico", get(favicon))
        .fallback_service(app)
        // nosniff, no-referrer, and a policy that runs nothing where a route set none.
        .layer(from_fn(hardening::common_headers))
}

/// The app page's Content-Security-Policy, from the page this server will send (read once
/// at start: its inline scripts and styles are allowed by hash).
fn app_policy(page: &AppPage, allowed_servers: &AllowedServers) -> HeaderValue {
    let policy = hardening::app_policy(page.html(), allowed_servers);
    HeaderValue::from_str(&policy).unwrap_or(HeaderValue::from_static(hardening::NOTHING))
}

/// `policy` for the app's page (`text/html`: `index.html`, and every deep link). A browser
/// applies a policy to the document it governs, so the app's scripts, wasm and style sheets
/// get the common headers' policy that runs nothing instead: about 1 KB less on each of the
/// page's many files, which a first visit waits for. A `304 Not Modified` names no type and
/// its headers replace the cached ones, so it keeps the page's policy too: a revalidated
/// `index.html` must not come back governed by the one that runs nothing.
fn on_pages<B>(policy: HeaderValue) -> impl FnMut(&Response<B>) -> Option<HeaderValue> + Clone {
    move |response| {
        let page = match response.headers().get(header::CONTENT_TYPE) {
            Some(kind) => kind
                .to_str()
                .is_ok_and(|kind| kind.starts_with("text/html")),
            None => response.status() == StatusCode::NOT_MODIFIED,
        };
        page.then(|| policy.clone())
    }
}

/// The app's icon (`assets/favicon.svg`, also in `dist/` through Trunk), for browsers and
/// tools that ask for `/favicon.ico` whatever the page says: built in, so it never 404s.
async fn favicon() -> impl axum::response::IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "image/svg+xml"),
            (header::CACHE_CONTROL, "public, max-age=86400"),
        ],
        include_str!("../../../assets/favicon.svg"),
    )
}
