//! The request body limit of `/mcp` and `/relay` (`--max-body-bytes`). The body is read
//! here, up to the limit, so an oversized one gets a JSON-RPC 413 whether it declared its
//! length or arrived chunked; rmcp's own limit (plain text) is then never reached.

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use http::{HeaderValue, StatusCode, header};
use http_body_util::{BodyExt, LengthLimitError, Limited};

use super::error_body::{INVALID_REQUEST, jsonrpc_error};

/// The largest accepted request body, in bytes.
#[derive(Debug, Clone, Copy)]
pub struct BodyLimit(pub usize);

/// Middleware: read the whole body (at most the limit) or answer 413.
pub async fn enforce(
    State(BodyLimit(max_bytes)): State<BodyLimit>,
    request: Request,
    next: Next,
) -> Response {
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse::<u64>().ok());
    if declared.is_some_and(|length| length > max_bytes as u64) {
        return too_large(max_bytes);
    }
    let (parts, body) = request.into_parts();
    match Limited::new(body, max_bytes).collect().await {
        Ok(collected) => {
            let body = Body::from(collected.to_bytes());
            next.run(Request::from_parts(parts, body)).await
        }
        Err(error) if error.downcast_ref::<LengthLimitError>().is_some() => too_large(max_bytes),
        Err(error) => jsonrpc_error(
            StatusCode::BAD_REQUEST,
            INVALID_REQUEST,
            format!("The request body could not be read: {error}"),
        ),
    }
}

/// The whole body of a request, at most `max_bytes` (for a middleware that looks inside
/// the body before rmcp does), or the 413 to answer.
pub async fn read_bounded(body: Body, max_bytes: usize) -> Result<Bytes, Response> {
    axum::body::to_bytes(body, max_bytes)
        .await
        .map_err(|_| too_large(max_bytes))
}

fn too_large(max_bytes: usize) -> Response {
    let mut response = jsonrpc_error(
        StatusCode::PAYLOAD_TOO_LARGE,
        INVALID_REQUEST,
        format!(
            "The request body is larger than this server's limit of {max_bytes} bytes \
             (holdbay serve --max-body-bytes)."
        ),
    );
    // The rest of the body stays unread, so the connection cannot carry another request;
    // saying so keeps clients from reusing it and failing their next request.
    response
        .headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}
