//! A request as it went on the wire, read once: from the JSON the client built (live), or
//! from a recorded body (an imported log).

use rmcp::model::{
    InputResponses, JsonObject, MetaObject, RequestId, RequestMetaObject, TASKS_EXTENSION_ID,
};
use serde::Deserialize;
use serde_json::Value;

use crate::vocabulary::era::{SESSION_END_LABEL, SESSION_STREAM_LABEL};
use crate::vocabulary::events::{SentDetail, SentRequest};
use crate::vocabulary::listen_params::ListenFilter;
use crate::vocabulary::method::MethodId;

impl SentRequest {
    /// A recorded request: its method, its body as sent and its `Mcp-Name` header. The
    /// body is parsed here, once; a body that is not JSON is kept as a string.
    pub fn decode(method_name: &str, body: &str, name_header: Option<&str>) -> SentRequest {
        Self::decode_round(method_name, body, name_header, None)
    }

    /// [`SentRequest::decode`], with the round number the recording kept (the wire does not
    /// carry it: the client that sent the request knew it).
    pub fn decode_round(
        method_name: &str,
        body: &str,
        name_header: Option<&str>,
        round: Option<u32>,
    ) -> SentRequest {
        let request =
            crate::readers::json::from_str(body).unwrap_or_else(|_| Value::String(body.to_owned()));
        let method = MethodId::from_name(method_name);
        let params = request.get("params").and_then(Value::as_object);
        let name = params
            .and_then(|params| routing_name(method, params))
            .or_else(|| name_header.map(str::to_owned));
        let declares_tasks = params.is_some_and(declares_tasks);
        Self::from_json(method_name, request, name, declares_tasks).with_round(round)
    }

    /// Which round of its logical request this is, when it is one (see
    /// [`SentDetail::Round`]).
    pub fn round(&self) -> Option<u32> {
        match &self.detail {
            SentDetail::Round { round, .. } => *round,
            _ => None,
        }
    }

    /// The same request, numbered as round `round` of its logical request when `round` is
    /// given and the request is a round (anything else is left as it is).
    pub(crate) fn with_round(mut self, round: Option<u32>) -> Self {
        if let (Some(number), SentDetail::Round { round, .. }) = (round, &mut self.detail) {
            *round = Some(number);
        }
        self
    }

    /// A request from the JSON built for its body, with the facts the builder already knows.
    pub(crate) fn from_json(
        method_name: &str,
        request: Value,
        name: Option<String>,
        declares_tasks: bool,
    ) -> SentRequest {
        let method = MethodId::from_name(method_name);
        let id = request
            .get("id")
            .and_then(|id| RequestId::deserialize(id).ok());
        let empty = JsonObject::new();
        let params = request
            .get("params")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let detail = match method {
            Some(_) => detail(method, params, name.as_deref()),
            None => unnamed_detail(method_name, &request, id.as_ref()),
        };
        SentRequest {
            id,
            method,
            method_name: method_name.to_owned(),
            name,
            request,
            declares_tasks,
            detail,
        }
    }
}

/// What a message with no MCP method is: a legacy session's own GET or DELETE (by the label
/// the client wrote it under), or the client's response to a server's request.
fn unnamed_detail(label: &str, message: &Value, id: Option<&RequestId>) -> SentDetail {
    match (label, id) {
        (SESSION_STREAM_LABEL, _) => SentDetail::SessionStream,
        (SESSION_END_LABEL, _) => SentDetail::SessionEnd,
        (_, Some(id))
            if message.get("method").is_none()
                && (message.get("result").is_some() || message.get("error").is_some()) =>
        {
            SentDetail::ServerAnswer { asked: id.clone() }
        }
        _ => SentDetail::Other,
    }
}

/// What `Mcp-Name` routes on, read from the params the way the method type names it.
fn routing_name(method: Option<MethodId>, params: &JsonObject) -> Option<String> {
    let field = method?.rules().name_field?;
    params.get(field)?.as_str().map(str::to_owned)
}

/// Whether the request's `_meta` declares the tasks extension among its capabilities, or
/// (2025-11-25) its `params.task` asks for a task.
fn declares_tasks(params: &JsonObject) -> bool {
    if params.get("task").is_some_and(Value::is_object) {
        return true;
    }
    let Some(Value::Object(meta)) = params.get("_meta") else {
        return false;
    };
    RequestMetaObject(MetaObject(meta.clone()))
        .client_capabilities()
        .and_then(|capabilities| capabilities.extensions)
        .is_some_and(|extensions| extensions.contains_key(TASKS_EXTENSION_ID))
}

fn detail(method: Option<MethodId>, params: &JsonObject, name: Option<&str>) -> SentDetail {
    let text = |field: &str| params.get(field).and_then(Value::as_str).map(str::to_owned);
    let task_id = || {
        text("taskId")
            .or_else(|| name.map(str::to_owned))
            .unwrap_or_default()
    };
    let answers = || params.get("inputResponses").and_then(Value::as_object);
    let Some(method) = method else {
        return SentDetail::Other;
    };
    if method.may_pause() {
        let request_state = text("requestState");
        let answers = answers().map(|answers| {
            answers
                .iter()
                .map(|(key, value)| (key.clone(), value.clone()))
                .collect::<InputResponses>()
        });
        // A first round carries neither; a retry's number is the client's to say.
        let round = (request_state.is_none() && answers.is_none()).then_some(1);
        return SentDetail::Round {
            workpiece: if method == MethodId::CallTool {
                params.get("arguments").cloned().unwrap_or(Value::Null)
            } else {
                Value::Object(
                    params
                        .iter()
                        .filter(|(key, _)| key.as_str() != "_meta")
                        .map(|(key, value)| (key.clone(), value.clone()))
                        .collect(),
                )
            },
            request_state,
            answers,
            round,
        };
    }
    match method {
        MethodId::GetTask => SentDetail::TaskGet { task_id: task_id() },
        MethodId::UpdateTask => SentDetail::TaskUpdate {
            task_id: task_id(),
            keys: answers()
                .map(|answers| answers.keys().cloned().collect())
                .unwrap_or_default(),
        },
        MethodId::CancelTask => SentDetail::TaskCancel { task_id: task_id() },
        MethodId::Listen => SentDetail::Listen {
            filter: params
                .get("notifications")
                .and_then(|filter| ListenFilter::deserialize(filter).ok())
                .unwrap_or_default(),
        },
        _ => SentDetail::Other,
    }
}
