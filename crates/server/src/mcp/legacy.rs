//! `/legacy/mcp`: the demo's booking as a 2025-11-25 server does it, for comparing the two
//! eras on one machine. rmcp's legacy sessions (`initialize`, `Mcp-Session-Id`, the GET
//! stream); `book_table` asks for the party and the time with a server-initiated
//! `elicitation/create` while the call's stream stays open, where `/mcp` answers
//! `input_required` and forgets the call. A 2026-07-28 request is refused the way most
//! 2025-11-25 servers refuse it (HTTP 400, `-32000`), so a client tells the era apart.

use std::borrow::Cow;
use std::sync::Arc;

use axum::Router;
use axum::body::{Body, to_bytes};
use axum::extract::Request;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use holdbay_engine::era::HEADER_SESSION_ID;
use http::{Method, StatusCode};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, ConstString, ElicitRequestParams, ElicitationAction,
    Implementation, InitializeResultMethod, ListToolsResult, PaginatedRequestParams,
    ProtocolVersion, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::transport::streamable_http_server::{
    StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
};
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{Value, json};

use crate::demo::scenarios::text;
use crate::fixture_kit::one_text_argument;
use crate::shared::Shared;

/// Where the legacy demo answers.
pub const LEGACY_PATH: &str = "/legacy/mcp";

const BOOK_TABLE: &str = "book_table";

/// The legacy demo's service, behind the same HTTP edge as `/mcp`.
pub fn service(shared: &Shared) -> Router {
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(true)
        .disable_allowed_origins()
        .disable_allowed_hosts()
        .with_max_request_body_bytes(shared.limits.max_body_bytes);
    let mcp: StreamableHttpService<LegacyBooking, LocalSessionManager> = StreamableHttpService::new(
        || Ok(LegacyBooking),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    Router::new()
        .fallback_service(mcp)
        .layer(axum::middleware::from_fn(refuse_modern))
}

/// A POST outside a session that is not `initialize` is refused as a 2025-11-25 server
/// refuses it: the client has not initialized.
async fn refuse_modern(request: Request, next: Next) -> Response {
    if request.method() != Method::POST || request.headers().contains_key(HEADER_SESSION_ID) {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    // The body limit in front has read and bounded it already.
    let Ok(bytes) = to_bytes(body, usize::MAX).await else {
        return StatusCode::BAD_REQUEST.into_response();
    };
    let message: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    if message["method"] != InitializeResultMethod::VALUE {
        let refusal = json!({"jsonrpc": "2.0", "id": message.get("id").cloned().unwrap_or(Value::Null),
            "error": {"code": -32000, "message": "Bad Request: Server not initialized (this \
                endpoint speaks MCP 2025-11-25: send initialize first)"}});
        return (StatusCode::BAD_REQUEST, axum::Json(refusal)).into_response();
    }
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}

/// The booking of 2025-11-25: one session per client, the call held open while it asks.
#[derive(Clone)]
pub struct LegacyBooking;

impl ServerHandler for LegacyBooking {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build()).with_server_info(
            Implementation::new("holdbay-legacy-demo", env!("CARGO_PKG_VERSION"))
                .with_title("Holdbay demo, the 2025-11-25 way"),
        )
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Borrowed(&[ProtocolVersion::V_2025_11_25])
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let schema = match one_text_argument("restaurant", "Where to book.", "Chez Holdbay") {
            Value::Object(schema) => schema,
            _ => Default::default(),
        };
        let tool = Tool::new(
            BOOK_TABLE,
            "Book a table, the 2025-11-25 way: the server sends its own elicitation/create \
             while the call waits on its open stream, and answers once the client replied.",
            Arc::new(schema),
        )
        .with_title("Book a table (2025-11-25)");
        Ok(ListToolsResult::with_all_items(vec![tool]))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if request.name != BOOK_TABLE {
            return Err(ErrorData::invalid_params(
                format!("no tool named {}", request.name),
                None,
            ));
        }
        let restaurant = request
            .arguments
            .as_ref()
            .and_then(|arguments| arguments.get("restaurant"))
            .and_then(Value::as_str)
            .unwrap_or("Chez Holdbay")
            .to_owned();
        let ask: ElicitRequestParams = serde_json::from_value(json!({
            "mode": "form",
            "message": format!("Booking at {restaurant}: for how many people, and when?"),
            "requestedSchema": {"type": "object", "required": ["size", "time"], "properties": {
                "size": {"type": "string", "title": "Party size", "enum": ["4", "6"]},
                "time": {"type": "string", "title": "Time", "enum": ["18:00", "19:30", "21:00"]},
            }},
        }))
        .map_err(|error| ErrorData::internal_error(error.to_string(), None))?;
        // The call's stream stays open, and this task holds the call, until the answer.
        let answer = context
            .peer
            .create_elicitation(ask)
            .await
            .map_err(|error| ErrorData::internal_error(format!("no answer: {error}"), None))?;
        let said = match (answer.action, answer.content) {
            (ElicitationAction::Accept, Some(content)) => format!(
                "Booked a table for {} at {} at {restaurant}. The server kept this call, and \
                 this session, open while it waited for your answer.",
                content["size"].as_str().unwrap_or("?"),
                content["time"].as_str().unwrap_or("?"),
            ),
            _ => format!("No table booked at {restaurant}."),
        };
        Ok(text(said).into())
    }
}
