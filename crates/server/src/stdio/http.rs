//! `/stdio`: the configured stdio servers as Streamable HTTP endpoints. `GET /stdio` lists
//! them (command, state, pid, how the last process ended, stderr); `POST /stdio/NAME` takes
//! one JSON-RPC message: a request is answered with the process's response (as an event
//! stream carrying the server's other messages meanwhile, when the client accepts one), a
//! notification or response gets 202; `GET /stdio/NAME` streams the server's messages that
//! answer no request; `POST /stdio/NAME/restart` starts the command again. A name that was
//! not configured is 404: no request names a program.

use std::convert::Infallible;
use std::sync::Arc;

use axum::Json;
use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use futures::stream::{self, Stream};
use holdbay_engine::stdio::StdioListing;
use serde_json::{Value, json};
use tokio::sync::broadcast::error::RecvError;

use super::process::{Delivery, Refusal, StdioServer, StdioServers, Waiting};
use crate::http::error_body::{jsonrpc_error, jsonrpc_error_with_data};

/// JSON-RPC's implementation-defined server error: the bridge's own refusals (the process
/// is gone, an id is already waiting), never the server's.
const BRIDGE_ERROR: i64 = -32000;
const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;
/// stderr lines carried in a refusal's `data`.
const STDERR_IN_ERROR: usize = 20;

/// The `/stdio` routes over `servers`.
pub fn routes(servers: Arc<StdioServers>) -> Router {
    Router::new()
        .route("/", get(list))
        .route("/{name}", post(message).get(listen))
        .route("/{name}/restart", post(restart))
        .with_state(servers)
}

async fn list(State(servers): State<Arc<StdioServers>>) -> Json<StdioListing> {
    Json(StdioListing {
        servers: servers.statuses(),
    })
}

async fn restart(State(servers): State<Arc<StdioServers>>, Path(name): Path<String>) -> Response {
    let Some(server) = servers.get(&name) else {
        return not_configured(&name);
    };
    match server.restart() {
        Ok(status) => Json(status).into_response(),
        Err(why) => (StatusCode::BAD_GATEWAY, Json(json!({ "error": why }))).into_response(),
    }
}

async fn message(
    State(servers): State<Arc<StdioServers>>,
    Path(name): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let Some(server) = servers.get(&name) else {
        return not_configured(&name);
    };
    let message: Value = match serde_json::from_slice(&body) {
        Ok(message) => message,
        Err(error) => {
            return jsonrpc_error(
                StatusCode::BAD_REQUEST,
                PARSE_ERROR,
                format!("the body is not JSON: {error}"),
            );
        }
    };
    if !message.is_object() {
        return jsonrpc_error(
            StatusCode::BAD_REQUEST,
            INVALID_REQUEST,
            "one JSON-RPC message per request, an object (batches are not part of MCP)",
        );
    }
    let id = message.get("id").cloned().unwrap_or(Value::Null);
    let running = match server.running() {
        Ok(running) => running,
        Err(refusal) => return refused(&server, id, refusal),
    };
    let is_request = message.get("method").is_some() && message.get("id").is_some();
    if !is_request {
        return match running.send(&message).await {
            Ok(()) => StatusCode::ACCEPTED.into_response(),
            Err(why) => refused(&server, id, Refusal::Gone(why)),
        };
    }
    let waiting = match running.request(&id, &message).await {
        Ok(waiting) => waiting,
        Err(refusal) => return refused(&server, id, refusal),
    };
    if accepts_event_stream(&headers) {
        Sse::new(request_events(waiting))
            .keep_alive(KeepAlive::default())
            .into_response()
    } else {
        response_only(server, id, waiting).await
    }
}

/// The server's messages that answer no request, for as long as the process runs.
async fn listen(State(servers): State<Arc<StdioServers>>, Path(name): Path<String>) -> Response {
    let Some(server) = servers.get(&name) else {
        return not_configured(&name);
    };
    let others = match server.running() {
        Ok(running) => running.others(),
        Err(refusal) => return refused(&server, Value::Null, refusal),
    };
    let events = stream::unfold(others, |mut others| async move {
        loop {
            match others.recv().await {
                Ok(message) => return Some((Ok::<_, Infallible>(event(&message)), others)),
                Err(RecvError::Lagged(_)) => continue,
                Err(RecvError::Closed) => return None,
            }
        }
    });
    Sse::new(events)
        .keep_alive(KeepAlive::default())
        .into_response()
}

/// The request's stream: the server's other messages while it waits, then its response (or
/// the bridge's error when the process ended first), then the end.
fn request_events(waiting: Waiting) -> impl Stream<Item = Result<Event, Infallible>> {
    stream::unfold(Some(waiting), |waiting| async move {
        let mut waiting = waiting?;
        let id = waiting.id();
        loop {
            // The server's messages first: the reader hands them over in stdout's order, so a
            // progress notification written before the response is streamed before it.
            tokio::select! {
                biased;
                other = waiting.others.recv() => match other {
                    Ok(message) => return Some((Ok(event(&message)), Some(waiting))),
                    Err(RecvError::Lagged(_)) => continue,
                    // The process ended: its response (or why none) comes on the other arm.
                    Err(RecvError::Closed) => {
                        return match waiting.response.recv().await {
                            Some(Delivery::Response(response)) => Some((Ok(event(&response)), None)),
                            Some(Delivery::Gone(why)) => {
                                Some((Ok(event(&bridge_error(id.clone(), &why))), None))
                            }
                            None => None,
                        };
                    }
                },
                delivery = waiting.response.recv() => {
                    let last = match delivery {
                        Some(Delivery::Response(response)) => event(&response),
                        Some(Delivery::Gone(why)) => event(&bridge_error(id.clone(), &why)),
                        None => return None,
                    };
                    return Some((Ok(last), None));
                }
            }
        }
    })
}

/// A client that reads JSON only gets the response alone.
async fn response_only(server: Arc<StdioServer>, id: Value, mut waiting: Waiting) -> Response {
    match waiting.response.recv().await {
        Some(Delivery::Response(response)) => Json(response).into_response(),
        Some(Delivery::Gone(why)) => refused(&server, id, Refusal::Gone(why)),
        None => refused(&server, id, Refusal::Gone("no answer came".to_owned())),
    }
}

fn refused(server: &StdioServer, id: Value, refusal: Refusal) -> Response {
    let (status, message) = match refusal {
        Refusal::Gone(why) => (StatusCode::BAD_GATEWAY, why),
        Refusal::IdInFlight => (
            StatusCode::CONFLICT,
            format!("a request with id {id} is already waiting for its answer from this server"),
        ),
    };
    let data = json!({ "stderr": server.stderr_tail(STDERR_IN_ERROR) });
    jsonrpc_error_with_data(id, status, BRIDGE_ERROR, message, Some(data))
}

fn not_configured(name: &str) -> Response {
    jsonrpc_error(
        StatusCode::NOT_FOUND,
        INVALID_REQUEST,
        format!(
            "no stdio server named {name:?} is configured: holdbay runs only the commands it was \
             started with (--stdio NAME=COMMAND, --stdio-config FILE)"
        ),
    )
}

fn bridge_error(id: Value, message: &str) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": BRIDGE_ERROR, "message": message } })
}

fn event(message: &Value) -> Event {
    Event::default().event("message").data(message.to_string())
}

fn accepts_event_stream(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .any(|value| value.contains("text/event-stream"))
}
