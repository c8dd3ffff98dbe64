//! The `holdbay` server: the built app, the demo MCP server with durable tasks, and a
//! safe relay, on loopback.

pub mod app_files;
pub mod app_page;
pub mod cache_rules;
pub mod check;
pub mod conformance;
pub mod content_coding;
pub mod demo;
pub mod durable;
pub mod embedded_app;
pub mod fixture_kit;
pub mod html;
pub mod http;
pub mod many_tools;
pub mod mcp;
pub mod oauth;
pub mod options;
pub mod precompress;
pub mod principal;
mod routes;
pub mod sealed_state;
pub mod shared;
pub mod stdio;
pub mod stores;
pub mod tasks;

use std::net::SocketAddr;
use std::sync::Arc;

use anyhow::Context;
use axum::serve::ListenerExt;
use tokio::net::TcpListener;

pub use routes::router;

use crate::http::relay_token::RelayToken;
use crate::mcp::sets::ActiveSets;
use crate::options::ServeOptions;
use crate::shared::Shared;

/// Bind (127.0.0.1 by default), open the data dir, resume tasks, print the URL, and
/// serve until Ctrl-C.
pub async fn serve(options: ServeOptions) -> anyhow::Result<()> {
    let listener = TcpListener::bind(SocketAddr::from((options.bind, options.port)))
        .await
        .with_context(|| format!("cannot listen on {}:{}", options.bind, options.port))?;
    let address = listener.local_addr()?;
    if options.embedded_app {
        // Nothing to check: the app was built in with its compressed copies.
    } else if !options.dist.join("index.html").is_file() {
        eprintln!(
            "warning: {} has no index.html; build the app first (see README). /mcp still works.",
            options.dist.display()
        );
    }
    let on_disk = if options.embedded_app {
        Vec::new()
    } else {
        precompress::uncompressed_wasm(&options.dist)
    };
    for wasm in on_disk {
        eprintln!(
            "note: {} has no precompressed copy, so it is sent uncompressed; build with scripts/build-app.sh (or run holdbay precompress).",
            wasm.display()
        );
    }
    let sets = Arc::new(ActiveSets::chosen(&options.fixtures));
    let shared = Arc::new(Shared::open(&options, address, sets.jobs())?);
    let relay_token = RelayToken::for_launch(options.relay_token.as_ref())?;
    let app = router(&options, address, shared, sets, relay_token);
    // Tests and scripts read this line to find the port.
    println!(
        "Holdbay is serving http://{address}/ (demo MCP server at http://{address}/mcp, behind sign-in at http://{address}{})",
        oauth::PROTECTED_PATH
    );
    for command in &options.stdio {
        println!(
            "stdio server {} at http://{address}{}/{}: {command}",
            command.name,
            stdio::STDIO_PATH,
            command.name
        );
    }
    if options.open {
        open_in_browser(&format!("http://{address}/"));
    }
    // Without NODELAY, an SSE answer written in pieces can wait ~40 ms for a delayed ACK.
    let listener = listener.tap_io(|stream| {
        let _ = stream.set_nodelay(true);
    });
    axum::serve(listener, app)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .context("the HTTP server stopped with an error")
}

/// `--open`: the platform's opener, best effort (the URL is printed either way).
fn open_in_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    match std::process::Command::new(opener)
        .arg(url)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
    {
        // Reaped when it exits, so no zombie waits for the server to end.
        Ok(mut child) => drop(std::thread::spawn(move || child.wait())),
        Err(problem) => {
            eprintln!("note: could not open a browser ({opener}: {problem}); open {url} by hand.")
        }
    }
}
