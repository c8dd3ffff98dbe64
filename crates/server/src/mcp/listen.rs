//! `subscriptions/listen` with `taskIds`: a stream of `notifications/tasks` snapshots.
//!
//! rmcp 3.11 drops `taskIds` from its `SubscriptionFilter` and refuses to send
//! `notifications/tasks` on a subscription, so this one listen shape is served here;
//! every other listen request goes to rmcp unchanged.

use std::collections::HashSet;
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode};
use axum::middleware::Next;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use holdbay_engine::protocol::{
    HEADER_METHOD, HEADER_PROTOCOL_VERSION, META_SUBSCRIPTION_ID, PROTOCOL_VERSION,
};
use rmcp::model::{
    ConstString, DetailedTask, ErrorCode, SubscriptionsListenRequestMethod, TASKS_EXTENSION_ID,
};
use serde_json::{Value, json};
use tokio::sync::broadcast::error::RecvError;

use crate::http::body_limit::read_bounded;
use crate::http::error_body::jsonrpc_error_for;
use crate::mcp::version::META_PROTOCOL_VERSION;
use crate::principal::Principal;
use crate::shared::Shared;

const METHOD: &str = SubscriptionsListenRequestMethod::VALUE;

/// Middleware on `/mcp`: take listen requests that ask for `taskIds`, pass the rest on.
pub async fn route_task_listens(
    State(shared): State<Arc<Shared>>,
    request: Request,
    next: Next,
) -> Response {
    if request.method() != axum::http::Method::POST {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    let limit = shared.limits.max_body_bytes;
    let bytes = match read_bounded(body, limit).await {
        Ok(bytes) => bytes,
        Err(too_large) => return too_large,
    };
    match task_listen(&bytes) {
        Some(listen) => {
            let principal = parts
                .extensions
                .get::<Principal>()
                .cloned()
                .unwrap_or_else(Principal::local);
            serve(shared, principal, &parts.headers, listen).await
        }
        None => {
            next.run(Request::from_parts(parts, Body::from(bytes)))
                .await
        }
    }
}

/// A listen request that names task ids.
struct TaskListen {
    id: Value,
    task_ids: Vec<String>,
    meta: Value,
}

fn task_listen(body: &Bytes) -> Option<TaskListen> {
    let message: Value = serde_json::from_slice(body).ok()?;
    if message.get("method")?.as_str()? != METHOD {
        return None;
    }
    let params = message.get("params")?;
    let task_ids = params.get("notifications")?.get("taskIds")?.as_array()?;
    Some(TaskListen {
        id: message.get("id").cloned().unwrap_or(Value::Null),
        task_ids: task_ids
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect(),
        meta: params.get("_meta").cloned().unwrap_or(Value::Null),
    })
}

async fn serve(
    shared: Arc<Shared>,
    principal: Principal,
    headers: &HeaderMap,
    listen: TaskListen,
) -> Response {
    let header = |name: &str| headers.get(name).and_then(|value| value.to_str().ok());
    let declared_version = listen
        .meta
        .get(META_PROTOCOL_VERSION)
        .and_then(Value::as_str);
    if header(HEADER_PROTOCOL_VERSION) != Some(PROTOCOL_VERSION)
        || declared_version != Some(PROTOCOL_VERSION)
        || header(HEADER_METHOD) != Some(METHOD)
    {
        return jsonrpc_error_for(
            listen.id,
            StatusCode::BAD_REQUEST,
            i64::from(ErrorCode::HEADER_MISMATCH.0),
            "the request headers and body disagree: subscriptions/listen needs \
             MCP-Protocol-Version 2026-07-28 in both the header and _meta, and Mcp-Method",
        );
    }
    let declared_tasks = listen
        .meta
        .pointer("/io.modelcontextprotocol~1clientCapabilities/extensions")
        .and_then(|extensions| extensions.get(TASKS_EXTENSION_ID))
        .is_some();
    if !declared_tasks {
        return jsonrpc_error_for(
            listen.id,
            StatusCode::OK,
            i64::from(ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY.0),
            "taskIds needs the io.modelcontextprotocol/tasks extension declared in this request",
        );
    }
    let accepted = shared.tasks.owned(principal.name(), &listen.task_ids).await;
    let events = stream(shared, principal.name().to_owned(), listen.id, accepted);
    Sse::new(events)
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
        .into_response()
}

/// Ack, the current snapshots, then every change, until all watched tasks are terminal.
fn stream(
    shared: Arc<Shared>,
    owner: String,
    subscription_id: Value,
    accepted: Vec<String>,
) -> impl futures::Stream<Item = Result<Event, Infallible>> {
    let (sender, receiver) = tokio::sync::mpsc::channel::<Event>(16);
    tokio::spawn(produce(shared, owner, subscription_id, accepted, sender));
    futures::stream::unfold(receiver, |mut receiver| async move {
        receiver.recv().await.map(|event| (Ok(event), receiver))
    })
}

/// Writes the stream's events; returns (`None`) as soon as the client has gone.
async fn produce(
    shared: Arc<Shared>,
    owner: String,
    subscription_id: Value,
    accepted: Vec<String>,
    out: tokio::sync::mpsc::Sender<Event>,
) -> Option<()> {
    // Subscribe before reading snapshots, so no change falls between the two.
    let mut changes = shared.tasks.changes();
    out.send(acknowledgement(&subscription_id, &accepted))
        .await
        .ok()?;
    let mut open: HashSet<String> = HashSet::new();
    for task_id in &accepted {
        if let Ok(task) = shared.tasks.get(&owner, task_id).await {
            if !task.status().is_terminal() {
                open.insert(task_id.clone());
            }
            out.send(snapshot(&subscription_id, &task)).await.ok()?;
        }
    }
    while !open.is_empty() {
        let resend: Vec<String> = match changes.recv().await {
            Ok(change) => {
                let task_id = &change.task.task.task_id;
                if change.owner != owner || !open.contains(task_id) {
                    continue;
                }
                if change.task.status().is_terminal() {
                    open.remove(task_id);
                }
                out.send(snapshot(&subscription_id, &change.task))
                    .await
                    .ok()?;
                continue;
            }
            // Fell behind: resend the current state of what is still open.
            Err(RecvError::Lagged(_)) => open.iter().cloned().collect(),
            Err(RecvError::Closed) => break,
        };
        for task_id in resend {
            if let Ok(task) = shared.tasks.get(&owner, &task_id).await {
                if task.status().is_terminal() {
                    open.remove(&task_id);
                }
                out.send(snapshot(&subscription_id, &task)).await.ok()?;
            }
        }
    }
    // Graceful end: the final result tells the client this was no disconnect.
    let end = json!({
        "jsonrpc": "2.0",
        "id": subscription_id,
        "result": { "resultType": "complete", "_meta": { META_SUBSCRIPTION_ID: subscription_id } }
    });
    out.send(message(end)).await.ok()
}

fn acknowledgement(subscription_id: &Value, accepted: &[String]) -> Event {
    message(json!({
        "jsonrpc": "2.0",
        "method": "notifications/subscriptions/acknowledged",
        "params": {
            "notifications": { "taskIds": accepted },
            "_meta": { META_SUBSCRIPTION_ID: subscription_id }
        }
    }))
}

fn snapshot(subscription_id: &Value, task: &DetailedTask) -> Event {
    let mut params = serde_json::to_value(task).unwrap_or_else(|_| json!({}));
    if let Some(params) = params.as_object_mut() {
        params.insert(
            "_meta".into(),
            json!({ META_SUBSCRIPTION_ID: subscription_id }),
        );
    }
    message(json!({ "jsonrpc": "2.0", "method": "notifications/tasks", "params": params }))
}

fn message(message: Value) -> Event {
    Event::default().event("message").data(message.to_string())
}
