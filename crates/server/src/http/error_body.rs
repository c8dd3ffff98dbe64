//! The JSON-RPC error responses the edge answers with instead of reaching a handler.

use axum::response::{IntoResponse, Response};
use http::{HeaderValue, StatusCode, header};
use serde::Serialize;

/// The request was refused before it reached an MCP server.
pub const INVALID_REQUEST: i64 = -32600;
/// The edge could not complete the exchange (for example, the relay's target is down).
pub const INTERNAL_ERROR: i64 = -32603;

/// Fields in the order JSON-RPC examples use, so the body reads naturally in a log.
#[derive(Serialize)]
struct ErrorBody {
    jsonrpc: &'static str,
    /// Null when the edge answers before it knows the request's id.
    id: serde_json::Value,
    error: ErrorObject,
}

#[derive(Serialize)]
struct ErrorObject {
    code: i64,
    message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    data: Option<serde_json::Value>,
}

/// `status` with `{"jsonrpc":"2.0","id":null,"error":{"code":code,"message":message}}`.
pub fn jsonrpc_error(status: StatusCode, code: i64, message: impl Into<String>) -> Response {
    jsonrpc_error_for(serde_json::Value::Null, status, code, message)
}

/// The same, answering the request with this `id`.
pub fn jsonrpc_error_for(
    id: serde_json::Value,
    status: StatusCode,
    code: i64,
    message: impl Into<String>,
) -> Response {
    jsonrpc_error_with_data(id, status, code, message, None)
}

/// The same, with the error's `data` member.
pub fn jsonrpc_error_with_data(
    id: serde_json::Value,
    status: StatusCode,
    code: i64,
    message: impl Into<String>,
    data: Option<serde_json::Value>,
) -> Response {
    let body = ErrorBody {
        jsonrpc: "2.0",
        id,
        error: ErrorObject {
            code,
            message: message.into(),
            data,
        },
    };
    let text = serde_json::to_string(&body).unwrap_or_else(|_| {
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"error"}}"#.to_owned()
    });
    (
        status,
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        text,
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use http::StatusCode;

    use super::{INVALID_REQUEST, jsonrpc_error};

    #[tokio::test]
    async fn the_body_is_a_jsonrpc_error_with_a_null_id() {
        let response = jsonrpc_error(StatusCode::FORBIDDEN, INVALID_REQUEST, "no \"way\"");
        assert_eq!(response.status(), StatusCode::FORBIDDEN);
        let body = axum::body::to_bytes(response.into_body(), 1024)
            .await
            .expect("body");
        assert_eq!(
            std::str::from_utf8(&body).expect("utf-8"),
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"no \"way\""}}"#
        );
    }
}
