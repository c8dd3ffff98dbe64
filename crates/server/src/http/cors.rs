//! The Origin guard and CORS for `/mcp` and `/relay`: a request from a browser origin
//! that [`OriginPolicy`] does not allow (any page but the app's own and each
//! `--allow-origin`) is refused with 403, its preflight included; an allowed origin gets its
//! preflight answered and may read the responses (including `WWW-Authenticate`), and only
//! there may the relay's preflight allow the relay token's header. Requests without
//! `Origin` (curl, native clients) pass untouched.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use holdbay_engine::relay::{RELAY_PATH, RELAY_TOKEN_HEADER};
use http::{HeaderMap, HeaderValue, Method, StatusCode, header};

use super::error_body::{INVALID_REQUEST, jsonrpc_error};
use super::host;
use super::mcp_headers::{RELAY_MARKER, REQUEST_HEADERS, RESPONSE_HEADERS, is_request_header};
use super::origin::OriginPolicy;

const ALLOWED_METHODS: &str = "GET, POST, DELETE, OPTIONS";
/// How long a browser may reuse a preflight answer, in seconds.
const PREFLIGHT_MAX_AGE: &str = "600";

/// Middleware: refuse foreign origins, answer preflights, mark allowed responses.
pub async fn guard(
    State(policy): State<Arc<OriginPolicy>>,
    request: Request,
    next: Next,
) -> Response {
    let Some(origin) = request.headers().get(header::ORIGIN).cloned() else {
        return with_vary_origin(next.run(request).await);
    };
    let host = host::named(&request);
    let allowed = origin
        .to_str()
        .is_ok_and(|value| policy.allows(value, host.as_deref()));
    if !allowed {
        return with_vary_origin(refusal(&origin, &policy.describe_own(host.as_deref())));
    }
    let is_preflight = request.method() == Method::OPTIONS
        && request
            .headers()
            .contains_key(header::ACCESS_CONTROL_REQUEST_METHOD);
    let mut response = if is_preflight {
        let to_relay = request.uri().path() == RELAY_PATH;
        preflight(request.headers(), to_relay)
    } else {
        next.run(request).await
    };
    let headers = response.headers_mut();
    headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, origin);
    headers.insert(header::ACCESS_CONTROL_EXPOSE_HEADERS, exposed_headers());
    with_vary_origin(response)
}

fn refusal(origin: &HeaderValue, own: &str) -> Response {
    let shown = String::from_utf8_lossy(origin.as_bytes());
    jsonrpc_error(
        StatusCode::FORBIDDEN,
        INVALID_REQUEST,
        format!(
            "Origin {shown} is not allowed to call this server: only the page it serves \
             ({own}) and each origin given with --allow-origin may, even on this machine. \
             To allow this one, start holdbay with --allow-origin {shown}."
        ),
    )
}

/// 204 with what the browser asked to use, as far as MCP needs it (and, `to_relay`, the
/// relay token's header).
fn preflight(request: &HeaderMap, to_relay: bool) -> Response {
    let mut response = StatusCode::NO_CONTENT.into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::ACCESS_CONTROL_ALLOW_METHODS,
        HeaderValue::from_static(ALLOWED_METHODS),
    );
    if let Ok(value) = HeaderValue::from_str(&allowed_request_headers(request, to_relay)) {
        headers.insert(header::ACCESS_CONTROL_ALLOW_HEADERS, value);
    }
    headers.insert(
        header::ACCESS_CONTROL_MAX_AGE,
        HeaderValue::from_static(PREFLIGHT_MAX_AGE),
    );
    headers.append(
        header::VARY,
        HeaderValue::from_static("Access-Control-Request-Method, Access-Control-Request-Headers"),
    );
    response
}

/// The fixed MCP request headers, plus each requested `Mcp-Param-*` header: that family
/// is open-ended, so it can only be allowed by echoing the names the browser asks for. The
/// relay's preflight allows its token's header too.
fn allowed_request_headers(request: &HeaderMap, to_relay: bool) -> String {
    let mut allowed: Vec<&str> = REQUEST_HEADERS.to_vec();
    if to_relay {
        allowed.push(RELAY_TOKEN_HEADER);
    }
    let requested = request
        .get_all(header::ACCESS_CONTROL_REQUEST_HEADERS)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|list| list.split(','))
        .map(str::trim)
        .filter(|name| is_request_header(name))
        .filter(|name| {
            !REQUEST_HEADERS
                .iter()
                .any(|known| known.eq_ignore_ascii_case(name))
        });
    allowed.extend(requested);
    allowed.join(", ")
}

fn exposed_headers() -> HeaderValue {
    let mut exposed: Vec<&str> = RESPONSE_HEADERS.to_vec();
    exposed.push(RELAY_MARKER);
    HeaderValue::from_str(&exposed.join(", ")).unwrap_or_else(|_| HeaderValue::from_static(""))
}

/// Responses differ by Origin, so caches must key on it.
fn with_vary_origin(mut response: Response) -> Response {
    response
        .headers_mut()
        .append(header::VARY, HeaderValue::from_static("Origin"));
    response
}

#[cfg(test)]
mod tests {
    use http::{HeaderMap, HeaderValue, header};

    use super::allowed_request_headers;

    #[test]
    fn requested_param_headers_are_echoed_and_others_dropped() {
        let mut request = HeaderMap::new();
        request.insert(
            header::ACCESS_CONTROL_REQUEST_HEADERS,
            HeaderValue::from_static("content-type, mcp-param-region, x-evil, authorization"),
        );
        let allowed = allowed_request_headers(&request, false).to_ascii_lowercase();
        assert!(allowed.contains("mcp-param-region"), "{allowed}");
        assert!(allowed.contains("authorization"), "{allowed}");
        assert!(allowed.contains("last-event-id"), "{allowed}");
        assert!(!allowed.contains("x-evil"), "{allowed}");
        assert_eq!(allowed.matches("content-type").count(), 1, "{allowed}");
        assert!(!allowed.contains("x-holdbay-relay-token"), "{allowed}");
    }

    #[test]
    fn only_the_relay_preflight_allows_the_relay_token() {
        let mut request = HeaderMap::new();
        request.insert(
            header::ACCESS_CONTROL_REQUEST_HEADERS,
            HeaderValue::from_static("content-type, x-holdbay-relay-token"),
        );
        let allowed = allowed_request_headers(&request, true).to_ascii_lowercase();
        assert_eq!(
            allowed.matches("x-holdbay-relay-token").count(),
            1,
            "{allowed}"
        );
    }
}
