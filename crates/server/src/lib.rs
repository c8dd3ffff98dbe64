//! The `holdbay` server: the built app, the demo MCP server, all on loopback.

pub mod demo;
mod routes;

use std::net::{Ipv4Addr, SocketAddr};
use std::path::PathBuf;

use anyhow::Context;
use tokio::net::TcpListener;

pub use routes::router;

/// What `holdbay serve` was asked to do.
#[derive(Debug, Clone)]
pub struct ServeOptions {
    /// 0 picks a free port.
    pub port: u16,
    /// Trunk's output folder.
    pub dist: PathBuf,
}

/// Bind 127.0.0.1, print the URL, and serve until Ctrl-C.
pub async fn serve(options: ServeOptions) -> anyhow::Result<()> {
    let listener = TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, options.port)))
        .await
        .with_context(|| format!("cannot listen on 127.0.0.1:{}", options.port))?;
    let address = listener.local_addr()?;
    if !options.dist.join("index.html").is_file() {
        eprintln!(
            "warning: {} has no index.html; build the app first (see README). /mcp still works.",
            options.dist.display()
        );
    }
    let app = router(address.port(), &options.dist);
    // Tests and scripts read this line to find the port.
    println!("Holdbay is serving http://{address}/ (demo MCP server at http://{address}/mcp)");
    axum::serve(listener, app)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .context("the HTTP server stopped with an error")
}
