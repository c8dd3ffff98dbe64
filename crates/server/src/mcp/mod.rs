//! The `/mcp` endpoint: rmcp's Streamable HTTP service running the fixture sets' handler, plus
//! the `subscriptions/listen` streams for `notifications/tasks` that rmcp cannot route, and
//! the `-32022` answers rmcp gives in-band (a legacy `initialize`) or not at all (the
//! version fixtures).

use std::sync::Arc;

use axum::Router;
use rmcp::transport::streamable_http_server::{
    StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
};
use tower_http::compression::CompressionLayer;

mod handler;
pub mod legacy;
mod listen;
pub mod sets;
mod version;

use crate::shared::Shared;
use handler::FixtureServer;
use sets::ActiveSets;

/// The MCP service. Host, Origin and CORS are the HTTP edge's job (see `crate::http`,
/// which also knows the bound address), so rmcp's own allow-lists are off.
pub fn service(shared: Arc<Shared>, sets: Arc<ActiveSets>) -> Router {
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .disable_allowed_origins()
        .disable_allowed_hosts()
        // One JSON body where the answer is a single message (tools/list is 7 KB of it);
        // rmcp falls back to an event stream when a notification comes first.
        .with_json_response(true)
        .with_max_request_body_bytes(shared.limits.max_body_bytes);
    let handler_shared = Arc::clone(&shared);
    let mcp: StreamableHttpService<FixtureServer, LocalSessionManager> = StreamableHttpService::new(
        move || {
            Ok(FixtureServer::new(
                Arc::clone(&handler_shared),
                Arc::clone(&sets),
            ))
        },
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
        // JSON answers compressed as the client accepts (7.4 KB of tools/list goes out as
        // 2.6 KB of brotli). The default predicate leaves `text/event-stream` alone: an
        // encoder would hold events back until its buffer fills.
        .layer(CompressionLayer::new())
        // Outermost: a request in a revision this server does not speak goes no further.
        .layer(axum::middleware::from_fn_with_state(door, version::refuse))
}
