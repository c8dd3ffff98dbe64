//! An MCP endpoint as a protected resource: [`require_token`] admits a request only with a live
//! access token issued for this very resource (RFC 8707 audience), answering 401 with the
//! `WWW-Authenticate` challenge that points at the resource metadata (RFC 9728 §5.1); and
//! [`require_tool_scope`] answers 403 `insufficient_scope` (RFC 6750 §3.1) for a tool call
//! that needs more than the token grants, before rmcp sees it, so the client can step up.

use std::sync::Arc;
use std::time::Instant;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use http::{HeaderValue, Method, StatusCode, header};

use super::scopes::{self, BASE_SCOPE};
use super::{AuthServer, metadata_path_for, request_origin, resource_for};
use crate::http::body_limit::BodyLimit;
use crate::http::error_body::{INVALID_REQUEST, jsonrpc_error};
use crate::principal::Principal;

/// Which endpoint a guard protects, and with which authorization server. The path is the
/// endpoint's own (a nested router no longer sees it in the request's URI).
#[derive(Debug, Clone)]
pub struct Guard {
    server: Arc<AuthServer>,
    path: &'static str,
}

impl Guard {
    /// Guard the endpoint at `path`, which `server` must list among its resources.
    pub fn new(server: Arc<AuthServer>, path: &'static str) -> Self {
        Self { server, path }
    }
}

/// The scopes of the access token a request carried, and the path of the endpoint it was
/// checked for (the step-up challenge names that endpoint's metadata).
#[derive(Debug, Clone)]
pub struct GrantedScopes {
    pub scopes: Vec<String>,
    pub path: &'static str,
}

/// Middleware: with a [`Guard`], admit only requests with a valid access token for its
/// resource. Without one (`None`: `/mcp` without `--auth oauth`), pass everything on.
pub async fn require_token(
    State(guard): State<Option<Guard>>,
    mut request: Request,
    next: Next,
) -> Response {
    // A preflight carries no credentials by design; the Origin guard answers it.
    let Some(Guard { server, path }) = guard.filter(|_| request.method() != Method::OPTIONS) else {
        return next.run(request).await;
    };
    let origin = request_origin(&request);
    let resource = resource_for(&origin, path);
    let challenge = Challenge::for_resource(&origin, path);
    let presented = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(bearer_token)
        .map(str::to_owned);
    let Some(token) = presented else {
        return challenge.unauthorized(
            None,
            "This MCP server needs an OAuth access token: read the resource metadata named \
             in WWW-Authenticate, sign in at its authorization server, and send \
             Authorization: Bearer <access token>.",
        );
    };
    let grant = server
        .stores()
        .access(&token, Instant::now())
        .map(|issued| issued.grant.clone());
    let Some(grant) = grant else {
        return challenge.unauthorized(
            Some("invalid_token"),
            "The access token is unknown or has expired: refresh it, or sign in again.",
        );
    };
    if grant.resource != resource {
        return challenge.unauthorized(
            Some("invalid_token"),
            &format!(
                "The access token was issued for the resource {}, not for this one ({resource}).",
                grant.resource
            ),
        );
    }
    if !grant.scopes.iter().any(|scope| scope == BASE_SCOPE) {
        return challenge.insufficient_scope(
            BASE_SCOPE,
            &format!("The access token lacks the scope {BASE_SCOPE} that every MCP request needs."),
        );
    }
    let extensions = request.extensions_mut();
    extensions.insert(Principal(format!("oauth:{}", grant.client_id)));
    extensions.insert(GrantedScopes {
        scopes: grant.scopes,
        path,
    });
    next.run(request).await
}

/// Middleware, after the body limit: a `tools/call` of a tool that needs a scope the token
/// lacks gets 403. The tool is read from `Mcp-Name` and from the (already bounded) body;
/// either naming a guarded tool is enough, so the header cannot hide the body's call.
pub async fn require_tool_scope(
    State(BodyLimit(max_bytes)): State<BodyLimit>,
    request: Request,
    next: Next,
) -> Response {
    let Some(GrantedScopes {
        scopes: granted,
        path,
    }) = request.extensions().get::<GrantedScopes>().cloned()
    else {
        return next.run(request).await;
    };
    if request.method() != Method::POST {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, max_bytes).await else {
        return jsonrpc_error(
            StatusCode::PAYLOAD_TOO_LARGE,
            INVALID_REQUEST,
            "The request body is larger than this server accepts.",
        );
    };
    let mut tools = called_tools(&bytes);
    if parts
        .headers
        .get("mcp-method")
        .is_some_and(|method| method.as_bytes() == b"tools/call")
        && let Some(name) = parts.headers.get("mcp-name").and_then(|v| v.to_str().ok())
    {
        tools.push(name.to_owned());
    }
    let missing = tools
        .iter()
        .filter_map(|tool| scopes::extra_for_tool(tool))
        .find(|needed| !granted.iter().any(|scope| scope == needed));
    if let Some(needed) = missing {
        let origin = origin_from_parts(&parts);
        return Challenge::for_resource(&origin, path).insufficient_scope(
            &format!("{BASE_SCOPE} {needed}"),
            &format!(
                "This tool needs the scope {needed}, which the access token was not granted: \
                 sign in again asking for it."
            ),
        );
    }
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}

fn origin_from_parts(parts: &http::request::Parts) -> String {
    super::origin_of(parts)
}

/// The names of the tools a JSON-RPC body (one message or a batch) calls.
fn called_tools(body: &[u8]) -> Vec<String> {
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(body) else {
        return Vec::new();
    };
    let messages = match value {
        serde_json::Value::Array(messages) => messages,
        message => vec![message],
    };
    messages
        .iter()
        .filter(|message| message.get("method").and_then(|m| m.as_str()) == Some("tools/call"))
        .filter_map(|message| message.pointer("/params/name").and_then(|n| n.as_str()))
        .map(str::to_owned)
        .collect()
}

/// The token of `Bearer TOKEN` (the scheme is case-insensitive).
fn bearer_token(authorization: &str) -> Option<&str> {
    let (scheme, token) = authorization.trim().split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

/// The parts every challenge of this resource names.
struct Challenge {
    metadata: String,
}

impl Challenge {
    /// The challenge of the endpoint at `path` on `origin`.
    fn for_resource(origin: &str, path: &str) -> Self {
        Self {
            metadata: format!("{origin}{}", metadata_path_for(path)),
        }
    }

    fn unauthorized(&self, error: Option<&str>, message: &str) -> Response {
        let error = error
            .map(|error| format!("error=\"{error}\", "))
            .unwrap_or_default();
        let value = format!(
            "Bearer {error}resource_metadata=\"{}\", scope=\"{}\"",
            self.metadata,
            scopes::DEFAULT
        );
        respond(StatusCode::UNAUTHORIZED, &value, message)
    }

    fn insufficient_scope(&self, scope: &str, message: &str) -> Response {
        let value = format!(
            "Bearer error=\"insufficient_scope\", scope=\"{scope}\", resource_metadata=\"{}\"",
            self.metadata
        );
        respond(StatusCode::FORBIDDEN, &value, message)
    }
}

fn respond(status: StatusCode, www_authenticate: &str, message: &str) -> Response {
    let mut response = jsonrpc_error(status, INVALID_REQUEST, message);
    if let Ok(value) = HeaderValue::from_str(www_authenticate) {
        response
            .headers_mut()
            .insert(header::WWW_AUTHENTICATE, value);
    }
    response
}

#[cfg(test)]
mod tests {
    use super::called_tools;

    #[test]
    fn tool_calls_are_found_in_one_message_and_in_a_batch() {
        let one = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"deploy"}}"#;
        assert_eq!(called_tools(one), vec!["deploy".to_owned()]);
        let batch =
            br#"[{"method":"tools/list"},{"method":"tools/call","params":{"name":"echo"}}]"#;
        assert_eq!(called_tools(batch), vec!["echo".to_owned()]);
        assert!(called_tools(b"not json").is_empty());
    }
}
