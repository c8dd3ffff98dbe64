//! The demo MCP server that Holdbay's lessons run against.

use std::borrow::Cow;

use rmcp::{
    ServerHandler,
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{Implementation, ProtocolVersion, ServerCapabilities, ServerConfig},
    tool, tool_handler, tool_router,
};
use schemars::JsonSchema;
use serde::Deserialize;

/// Name the app shows after `server/discover`.
pub const SERVER_NAME: &str = "holdbay-demo";

#[derive(Debug, Deserialize, JsonSchema)]
pub struct EchoArgs {
    /// The text to send back.
    pub message: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
pub struct AddArgs {
    /// The left operand.
    pub a: i64,
    /// The right operand.
    pub b: i64,
}

/// The demo server. One instance serves one request (2026-07-28 is stateless).
#[derive(Debug, Clone)]
pub struct DemoServer {
    tool_router: ToolRouter<Self>,
}

impl DemoServer {
    pub fn new() -> Self {
        Self {
            tool_router: Self::tool_router(),
        }
    }
}

impl Default for DemoServer {
    fn default() -> Self {
        Self::new()
    }
}

#[tool_router]
impl DemoServer {
    #[tool(description = "Send a message and get the same text back in one round trip.")]
    fn echo(&self, Parameters(EchoArgs { message }): Parameters<EchoArgs>) -> String {
        message
    }

    #[tool(description = "Add two integers; the simplest complete result.")]
    fn add(&self, Parameters(AddArgs { a, b }): Parameters<AddArgs>) -> String {
        match a.checked_add(b) {
            Some(sum) => sum.to_string(),
            None => format!("{a} + {b} does not fit in a 64-bit integer"),
        }
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for DemoServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(
                Implementation::new(SERVER_NAME, env!("CARGO_PKG_VERSION"))
                    .with_title("Holdbay demo server"),
            )
            .with_instructions(
                "A teaching server for Holdbay: each tool shows one shape of an MCP exchange.",
            )
    }

    // A modern-only teaching server: no `initialize`, no sessions.
    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(&[ProtocolVersion::V_2026_07_28])
    }
}
