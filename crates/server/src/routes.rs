//! URL layout: the demo MCP endpoint at `/mcp`, the app's files everywhere else.

use std::path::Path;
use std::sync::Arc;

use axum::Router;
use rmcp::transport::streamable_http_server::{
    StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
};
use tower_http::services::{ServeDir, ServeFile};

use crate::demo::DemoServer;

/// The whole site for a server listening on `port` of 127.0.0.1.
pub fn router(port: u16, dist: &Path) -> Router {
    // The app is served from the same origin, so that is the only browser origin the demo
    // endpoint accepts (the spec requires Origin validation against DNS rebinding).
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .with_allowed_origins([
            format!("http://127.0.0.1:{port}"),
            format!("http://localhost:{port}"),
        ]);
    let mcp: StreamableHttpService<DemoServer, LocalSessionManager> = StreamableHttpService::new(
        || Ok(DemoServer::new()),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    // Unknown paths get the app's index.html, so deep links load the app.
    let app_files = ServeDir::new(dist).not_found_service(ServeFile::new(dist.join("index.html")));
    Router::new()
        .nest_service("/mcp", mcp)
        .fallback_service(app_files)
}
