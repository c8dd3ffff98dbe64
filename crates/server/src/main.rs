//! `holdbay`: serves the Holdbay app and the demo MCP server on loopback.

use std::path::PathBuf;

use clap::{Parser, Subcommand};
use holdbay_server::{ServeOptions, serve};

#[derive(Parser)]
#[command(
    name = "holdbay",
    version,
    about = "Holdbay: see and debug MCP 2026-07-28 flows"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the built app at / and the demo MCP server at /mcp, on 127.0.0.1.
    Serve {
        /// TCP port; 0 picks a free one.
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// The folder Trunk built the app into.
        #[arg(long, default_value = "dist")]
        dist: PathBuf,
    },
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Command::Serve { port, dist } => serve(ServeOptions { port, dist }).await,
    }
}
