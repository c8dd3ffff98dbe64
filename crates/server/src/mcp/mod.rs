//! The `/mcp` endpoint: rmcp's Streamable HTTP service running the demo server, plus
//! the `subscriptions/listen` streams for `notifications/tasks` that rmcp cannot route, and
//! the `-32022` answers rmcp gives in-band (a legacy `initialize`) or not at all (the
//! version fixtures).

use std::sync::Arc;

use axum::Router;
use rmcp::transport::streamable_http_server::{
    StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
};

mod listen;
mod version;

use crate::demo::DemoServer;
use crate::shared::Shared;

/// The MCP service. Host, Origin and CORS are the HTTP edge's job (see `crate::http`,
/// which also knows the bound address), so rmcp's own allow-lists are off.
pub fn service(shared: Arc<Shared>) -> Router {
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .disable_allowed_origins()
        .disable_allowed_hosts()
        .with_max_request_body_bytes(shared.limits.max_body_bytes);
    let handler_shared = Arc::clone(&shared);
    let mcp: StreamableHttpService<DemoServer, LocalSessionManager> = StreamableHttpService::new(
        move || Ok(DemoServer::new(Arc::clone(&handler_shared))),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let door = Arc::new(version::VersionDoor::new(&shared));
    Router::new()
        .fallback_service(mcp)
        .layer(axum::middleware::from_fn_with_state(
            shared,
            listen::route_task_listens,
        ))
        // Outermost: a request in a revision this server does not speak goes no further.
        .layer(axum::middleware::from_fn_with_state(door, version::refuse))
}
