//! Protocol revisions at the door of `/mcp`.
//!
//! A legacy `initialize` (a 2025-11-25 client: no `_meta` envelope) gets HTTP 400 and the
//! modern `-32022` body, as the wire reference's status table says; rmcp 3.11 answers it
//! in-band with HTTP 200, which clients of either era misread. Two fixture sets refuse
//! versions on purpose, to show a client's negotiation: `reject-first-version` refuses the
//! first request once (as the conformance suite's `request-metadata` mock does), and
//! `no-common-version` refuses every request, supporting only older revisions.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use holdbay_engine::protocol::PROTOCOL_VERSION;
use rmcp::model::ErrorCode;
use serde_json::{Value, json};

use crate::http::body_limit::read_bounded;
use crate::http::error_body::jsonrpc_error_with_data;
use crate::options::FixtureChoice;
use crate::shared::Shared;

/// What this server speaks.
pub const SUPPORTED: &[&str] = &[PROTOCOL_VERSION];
/// What the `no-common-version` fixture claims to speak: only revisions before 2026-07-28.
pub const NO_COMMON_SUPPORTED: &[&str] = &["2025-06-18", "2025-11-25"];
/// The `_meta` key of a 2026-07-28 request's protocol version.
pub(crate) const META_PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
const LEGACY_HANDSHAKE: &str = "initialize";

/// Which requests are refused, and the one-time switch of `reject-first-version`.
#[derive(Debug)]
pub struct VersionDoor {
    max_body_bytes: usize,
    /// `Some` with `reject-first-version`: set once the first request was refused.
    first_refused: Option<AtomicBool>,
    no_common: bool,
}

impl VersionDoor {
    pub fn new(shared: &Shared) -> Self {
        let has = |set| shared.fixtures.contains(&set);
        Self {
            max_body_bytes: shared.limits.max_body_bytes,
            first_refused: has(FixtureChoice::RejectFirstVersion).then(|| AtomicBool::new(false)),
            no_common: has(FixtureChoice::NoCommonVersion),
        }
    }

    /// The `data.supported` this request is refused with, if it is refused.
    fn refusal(&self, message: &Value) -> Option<&'static [&'static str]> {
        let is_request = message.get("id").is_some_and(|id| !id.is_null())
            && message.get("method").and_then(Value::as_str).is_some();
        if !is_request {
            return None;
        }
        if is_legacy_handshake(message) {
            return Some(SUPPORTED);
        }
        if self.no_common {
            return Some(NO_COMMON_SUPPORTED);
        }
        match &self.first_refused {
            Some(refused) if !refused.swap(true, Ordering::SeqCst) => Some(SUPPORTED),
            _ => None,
        }
    }
}

/// Middleware on `/mcp`: answer the refused requests with 400 and `-32022`; pass the rest on.
pub async fn refuse(
    State(door): State<Arc<VersionDoor>>,
    request: Request,
    next: Next,
) -> Response {
    if request.method() != Method::POST {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    let limit = door.max_body_bytes;
    let bytes = match read_bounded(body, limit).await {
        Ok(bytes) => bytes,
        Err(too_large) => return too_large,
    };
    let message: Option<Value> = serde_json::from_slice(&bytes).ok();
    if let Some(message) = &message
        && let Some(supported) = door.refusal(message)
    {
        return unsupported_version(message, &parts.headers, supported);
    }
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}

/// `initialize` without a 2026-07-28 `_meta` envelope: a client of 2025-11-25 or earlier.
fn is_legacy_handshake(message: &Value) -> bool {
    message.get("method").and_then(Value::as_str) == Some(LEGACY_HANDSHAKE)
        && message
            .get("params")
            .and_then(|params| params.get("_meta"))
            .and_then(|meta| meta.get(META_PROTOCOL_VERSION))
            .is_none()
}

/// The version the request asked for: `_meta`'s, else a legacy `initialize`'s
/// `protocolVersion`, else the `MCP-Protocol-Version` header; empty if none.
fn requested_version(message: &Value, headers: &HeaderMap) -> String {
    let params = message.get("params");
    params
        .and_then(|params| params.get("_meta"))
        .and_then(|meta| meta.get(META_PROTOCOL_VERSION))
        .or_else(|| params.and_then(|params| params.get("protocolVersion")))
        .and_then(Value::as_str)
        .or_else(|| {
            headers
                .get("mcp-protocol-version")
                .and_then(|value| value.to_str().ok())
        })
        .unwrap_or_default()
        .to_owned()
}

/// HTTP 400 with `{"code":-32022,"message":…,"data":{"supported":[…],"requested":"…"}}`.
fn unsupported_version(message: &Value, headers: &HeaderMap, supported: &[&str]) -> Response {
    let requested = requested_version(message, headers);
    let text = if is_legacy_handshake(message) {
        format!(
            "Unsupported protocol version: {requested:?} (this server speaks {} only, which has \
             no initialize handshake)",
            supported.join(", ")
        )
    } else {
        format!(
            "Unsupported protocol version: {requested:?} (this server speaks {})",
            supported.join(", ")
        )
    };
    jsonrpc_error_with_data(
        message.get("id").cloned().unwrap_or(Value::Null),
        StatusCode::BAD_REQUEST,
        i64::from(ErrorCode::UNSUPPORTED_PROTOCOL_VERSION.0),
        text,
        Some(json!({"supported": supported, "requested": requested})),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_initialize_without_the_envelope_is_legacy() {
        let legacy = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                       "clientInfo": {"name": "old", "version": "1"}}});
        assert!(is_legacy_handshake(&legacy));
        let enveloped = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"_meta": {META_PROTOCOL_VERSION: "2026-07-28"}}});
        assert!(!is_legacy_handshake(&enveloped));
        let discover = json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover"});
        assert!(!is_legacy_handshake(&discover));
        assert_eq!(requested_version(&legacy, &HeaderMap::new()), "2025-11-25");
    }
}
