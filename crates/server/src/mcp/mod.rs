//! The `/mcp` endpoint: rmcp's Streamable HTTP service running the demo server, plus
//! the `subscriptions/listen` streams for `notifications/tasks` that rmcp cannot route.

use std::sync::Arc;

use axum::Router;
use rmcp::transport::streamable_http_server::{
    StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
};

mod listen;

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
    Router::new()
        .fallback_service(mcp)
        .layer(axum::middleware::from_fn_with_state(
            shared,
            listen::route_task_listens,
        ))
}
