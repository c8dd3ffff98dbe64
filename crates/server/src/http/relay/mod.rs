//! The relay: lets the app in the browser talk to an MCP server on this machine that
//! sends no CORS headers, by making the exchange from here.
//!
//! Shape: `GET`, `POST` or `DELETE` to `/relay?target=<absolute URL, percent-encoded>`,
//! for example `POST /relay?target=http%3A%2F%2F127.0.0.1%3A3000%2Fmcp`, with the body
//! and MCP headers the target should get. What crosses:
//!
//! - to the target: the method, the body, and the MCP request headers (`Content-Type`,
//!   `Accept`, `Authorization` when the caller sent one, `MCP-Protocol-Version`,
//!   `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`, `Mcp-Session-Id`, `Last-Event-ID`);
//! - back: the status (a redirect is returned, never followed), `Content-Type`,
//!   `WWW-Authenticate`, `MCP-Protocol-Version`, `Mcp-Session-Id`, and the body streamed
//!   chunk by chunk, so SSE events arrive as the target sends them; plus
//!   `X-Holdbay-Relay: 1` on every response of the relay, its own refusals included.
//!
//! Cookies never cross, and neither does the relay token. Targets must resolve to loopback
//! only, unless allowed with `--relay-allow` (see [`target`]). Refusals are JSON-RPC error
//! bodies: 400 for an unusable target, 403 for one the policy refuses, 502 for one that
//! cannot be reached. In front (see `crate::routes`): the Origin guard (only the app's own
//! page and each `--allow-origin`), this launch's relay token
//! ([`super::relay_token`]: without it, 403), and the body limit.

pub mod headers;
pub mod target;

use std::error::Error;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::response::Response;
use http::{HeaderValue, Method, StatusCode, Uri, header};

use super::allowed_servers::AllowedServers;
use super::error_body::{INTERNAL_ERROR, INVALID_REQUEST, jsonrpc_error};
use super::mcp_headers::RELAY_MARKER;
use target::{CheckedTarget, TargetError, TargetPolicy};

/// How long the relay waits for a target to accept the connection. There is no limit on
/// the exchange itself: an SSE stream may stay open as long as the target keeps it.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// The relay and its target policy.
#[derive(Debug, Clone)]
pub struct Relay {
    policy: TargetPolicy,
}

impl Relay {
    /// `allowed`: the servers beyond loopback the user allowed (`--relay-allow`).
    pub fn new(allowed: AllowedServers) -> Self {
        Self {
            policy: TargetPolicy::new(allowed),
        }
    }

    async fn forward(&self, request: Request) -> Response {
        let method = request.method().clone();
        if ![Method::GET, Method::POST, Method::DELETE].contains(&method) {
            let mut response = jsonrpc_error(
                StatusCode::METHOD_NOT_ALLOWED,
                INVALID_REQUEST,
                format!("The relay forwards GET, POST and DELETE, not {method}."),
            );
            response.headers_mut().insert(
                header::ALLOW,
                HeaderValue::from_static("GET, POST, DELETE, OPTIONS"),
            );
            return response;
        }
        let Some(raw_target) = target_parameter(request.uri()) else {
            return jsonrpc_error(
                StatusCode::BAD_REQUEST,
                INVALID_REQUEST,
                "The relay needs the server to reach: /relay?target=<percent-encoded URL>, for \
                 example /relay?target=http%3A%2F%2F127.0.0.1%3A3000%2Fmcp.",
            );
        };
        let checked = match self.policy.check(&raw_target).await {
            Ok(checked) => checked,
            Err(error) => return refusal(error),
        };
        let client = match client_for(&checked) {
            Ok(client) => client,
            Err(error) => {
                return jsonrpc_error(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    INTERNAL_ERROR,
                    format!(
                        "The relay could not set up its HTTP client: {}",
                        describe(&error)
                    ),
                );
            }
        };
        let (parts, body) = request.into_parts();
        // The body limit in front has already read and bounded it.
        let body = match axum::body::to_bytes(body, usize::MAX).await {
            Ok(body) => body,
            Err(error) => {
                return jsonrpc_error(
                    StatusCode::BAD_REQUEST,
                    INVALID_REQUEST,
                    format!("The request body could not be read: {error}"),
                );
            }
        };
        let mut outgoing = client
            .request(method, checked.url.clone())
            .headers(headers::to_target(&parts.headers));
        if !body.is_empty() {
            outgoing = outgoing.body(body);
        }
        match outgoing.send().await {
            Ok(answer) => stream_back(answer),
            Err(error) => jsonrpc_error(
                StatusCode::BAD_GATEWAY,
                INTERNAL_ERROR,
                format!(
                    "The relay could not reach {}: {}",
                    checked.url,
                    describe(&error)
                ),
            ),
        }
    }
}

/// Handler of `/relay`.
pub async fn handle(State(relay): State<Arc<Relay>>, request: Request) -> Response {
    let mut response = relay.forward(request).await;
    response
        .headers_mut()
        .insert(RELAY_MARKER, HeaderValue::from_static("1"));
    response
}

fn target_parameter(uri: &Uri) -> Option<String> {
    url::form_urlencoded::parse(uri.query()?.as_bytes())
        .find(|(name, _)| name == "target")
        .map(|(_, value)| value.into_owned())
        .filter(|value| !value.is_empty())
}

fn refusal(error: TargetError) -> Response {
    match error {
        TargetError::Malformed(message) => {
            jsonrpc_error(StatusCode::BAD_REQUEST, INVALID_REQUEST, message)
        }
        TargetError::Refused(message) => {
            jsonrpc_error(StatusCode::FORBIDDEN, INVALID_REQUEST, message)
        }
        TargetError::Unresolvable(message) => {
            jsonrpc_error(StatusCode::BAD_GATEWAY, INTERNAL_ERROR, message)
        }
    }
}

/// A client that connects only to the checked addresses, follows no redirect, ignores
/// proxy settings (a proxy would resolve the name again) and keeps no cookies.
fn client_for(checked: &CheckedTarget) -> reqwest::Result<reqwest::Client> {
    let mut builder = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .no_proxy()
        .connect_timeout(CONNECT_TIMEOUT);
    if let Some(name) = &checked.pinned_name {
        builder = builder.resolve_to_addrs(name, &checked.addresses);
    }
    builder.build()
}

fn stream_back(answer: reqwest::Response) -> Response {
    let status = answer.status();
    let returned = headers::to_caller(answer.headers());
    let mut response = Response::new(Body::from_stream(answer.bytes_stream()));
    *response.status_mut() = status;
    *response.headers_mut() = returned;
    response
}

/// An error with its causes, which for network errors hold the useful part.
fn describe(error: &dyn Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}
