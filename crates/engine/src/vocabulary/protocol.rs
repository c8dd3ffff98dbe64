//! Constants of the 2026-07-28 Streamable HTTP binding.

/// The protocol revision this client speaks.
pub const PROTOCOL_VERSION: &str = "2026-07-28";

/// Request header carrying the protocol version; it must equal the `_meta` value.
pub const HEADER_PROTOCOL_VERSION: &str = "MCP-Protocol-Version";
/// Request header mirroring the JSON-RPC method.
pub const HEADER_METHOD: &str = "Mcp-Method";
/// Request header mirroring `params.name`, `params.uri` or `params.taskId`.
pub const HEADER_NAME: &str = "Mcp-Name";

/// The `_meta` key that ties a notification on a listen stream to its listen request.
pub const META_SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";

/// A client must list both media types it can read.
pub const ACCEPT: &str = "application/json, text/event-stream";
pub const CONTENT_TYPE_JSON: &str = "application/json";
pub const CONTENT_TYPE_SSE: &str = "text/event-stream";

/// The media type essence (`type/subtype`, lowercase) of a `Content-Type` value, so that
/// `text/event-stream; charset=utf-8` matches `text/event-stream`.
pub fn media_type_essence(content_type: &str) -> String {
    content_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase()
}

/// Whether a `Content-Type` has the media type `essence` (lowercase `type/subtype`), with any
/// parameters, in any case. Allocates nothing: it runs for every response.
pub fn has_media_type(content_type: Option<&str>, essence: &str) -> bool {
    content_type.is_some_and(|value| {
        value
            .split(';')
            .next()
            .unwrap_or_default()
            .trim()
            .eq_ignore_ascii_case(essence)
    })
}

/// Whether a `Content-Type` is an event stream (`text/event-stream`, any parameters, any
/// case): the one rule for telling SSE bodies from the rest.
pub fn is_event_stream(content_type: Option<&str>) -> bool {
    has_media_type(content_type, CONTENT_TYPE_SSE)
}

/// Whether a `Content-Type` is JSON (`application/json`, any parameters, any case).
pub fn is_json(content_type: Option<&str>) -> bool {
    has_media_type(content_type, CONTENT_TYPE_JSON)
}

/// A task status as the wire spells it (`working`, `input_required`, …).
pub fn task_status_name(status: rmcp::model::TaskStatus) -> &'static str {
    use rmcp::model::TaskStatus;
    match status {
        TaskStatus::Working => "working",
        TaskStatus::InputRequired => "input_required",
        TaskStatus::Completed => "completed",
        TaskStatus::Failed => "failed",
        TaskStatus::Cancelled => "cancelled",
        // rmcp's enum is non-exhaustive; a status it adds later has no name here yet.
        _ => "unknown",
    }
}

/// The standard reason phrase of an HTTP status, for messages; browsers often leave
/// `statusText` empty (always, over HTTP/2).
pub fn reason_phrase(status: u16) -> &'static str {
    match status {
        200 => "OK",
        202 => "Accepted",
        204 => "No Content",
        301 => "Moved Permanently",
        302 => "Found",
        304 => "Not Modified",
        307 => "Temporary Redirect",
        308 => "Permanent Redirect",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        406 => "Not Acceptable",
        408 => "Request Timeout",
        409 => "Conflict",
        413 => "Content Too Large",
        415 => "Unsupported Media Type",
        421 => "Misdirected Request",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        501 => "Not Implemented",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        _ => "",
    }
}

/// The protocol revisions this client speaks, newest first.
pub const CLIENT_VERSIONS: &[&str] = &[PROTOCOL_VERSION];

/// The newest revision that still had the `initialize` handshake. A server that answers a
/// 2026-07-28 request the way §10.6 describes speaks this revision or an older one.
pub const LATEST_LEGACY_VERSION: &str = "2025-11-25";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn media_type_essence_ignores_parameters_and_case() {
        assert_eq!(
            media_type_essence("Text/Event-Stream; charset=utf-8"),
            "text/event-stream"
        );
        assert_eq!(media_type_essence("application/json"), "application/json");
        assert_eq!(media_type_essence(""), "");
    }

    #[test]
    fn event_streams_are_told_by_their_media_type_essence() {
        assert!(is_event_stream(Some("text/event-stream")));
        assert!(is_event_stream(Some(" Text/Event-Stream ; charset=utf-8")));
        assert!(!is_event_stream(Some("application/json")));
        assert!(!is_event_stream(Some("text/event-streamx")));
        assert!(!is_event_stream(None));
        assert!(is_json(Some("Application/JSON ; q=1")));
        assert!(!is_json(Some("application/problem+json")));
        assert!(!is_json(Some(";")));
    }

    #[test]
    fn task_status_names_are_rmcps_wire_names() {
        use rmcp::model::TaskStatus;
        for status in [
            TaskStatus::Working,
            TaskStatus::InputRequired,
            TaskStatus::Completed,
            TaskStatus::Failed,
            TaskStatus::Cancelled,
        ] {
            assert_eq!(
                serde_json::to_value(status).ok(),
                Some(serde_json::Value::from(task_status_name(status)))
            );
        }
    }
}
