//! Typed events of the wire. Each exchange is decoded once, by the reader that serves the
//! request's caller ([`crate::ResponseReader`], [`crate::Subscription`]), into these; the
//! scene's fold (the `holdbay-scene` crate), the app's wire log and a replayed import read them,
//! never the bytes again.
//!
//! A request's `Sent` comes from the JSON its body was written from
//! ([`crate::OutgoingRequest::sent_event`]) or, for a recorded one, from its body parsed once
//! ([`SentRequest::decode`]). A recorded exchange goes through the very readers live traffic
//! uses ([`crate::decode_recorded`], [`crate::ExchangeDecoder`]).

// Logging is deprecated (SEP-2577), but servers still send it: it is shown, not acted on.
#[allow(deprecated)]
use rmcp::model::LoggingMessageNotificationParam;
use rmcp::model::{
    DetailedTask, InputResponses, JsonObject, ProgressNotificationParam, ProgressToken, RequestId,
    Task,
};
use serde_json::Value;

use crate::vocabulary::findings::Finding;
use crate::vocabulary::listen_params::ListenFilter;
use crate::vocabulary::method_id::MethodId;

mod names;

/// One thing that happened on one exchange, in order: `Sent`, `Responded`, any
/// `Notification`s, then `Answered` (or none), `Finding`s, and `Ended`. (On a listen stream a
/// finding follows the notification it is about.)
#[derive(Debug, Clone, PartialEq)]
pub enum ExchangeEvent {
    /// The request went out.
    Sent(Box<SentRequest>),
    /// The status line and media type arrived.
    Responded { status: u16, event_stream: bool },
    /// A notification on the exchange's own event stream (or a listen stream).
    Notification(Box<NotificationEvent>),
    /// A JSON-RPC request from the server on the exchange's stream (legacy sessions: an
    /// elicitation, sampling, roots or a ping the client answers with a POST of its own).
    ServerRequest(Box<ServerRequestEvent>),
    /// The JSON-RPC response to the request.
    Answered(Box<AnswerEvent>),
    /// The server broke (or strained) a rule.
    Finding(Finding),
    /// The exchange is over: the body ended, or it broke off.
    Ended(EndEvent),
}

impl ExchangeEvent {
    /// The end of an exchange. `stopped`: the client aborted it (Stop, closing a stream);
    /// `error`: why it broke off at the HTTP level, if it did.
    pub fn ended(stopped: bool, error: Option<String>) -> Self {
        Self::Ended(EndEvent { stopped, error })
    }

    /// Whether a log keeps this event (every event but a notification past the bound).
    pub fn is_kept(&self) -> bool {
        match self {
            Self::Notification(note) => note.kept,
            _ => true,
        }
    }

    /// The progress update this event carries for `token`, if any.
    pub fn progress_for(&self, token: &ProgressToken) -> Option<&ProgressNotificationParam> {
        match self {
            Self::Notification(note) => match &note.kind {
                NotificationKind::Progress(progress) if &progress.progress_token == token => {
                    Some(progress)
                }
                _ => None,
            },
            _ => None,
        }
    }
}

/// A request as it went on the wire, with the facts the rest of the client reads from it.
#[derive(Debug, Clone, PartialEq)]
pub struct SentRequest {
    /// `None` when the body is not a JSON-RPC request (an imported log can hold anything).
    pub id: Option<RequestId>,
    /// `None` for a method this client does not know (then see `method_name`).
    pub method: Option<MethodId>,
    pub method_name: String,
    /// What `Mcp-Name` routes on: the tool, prompt, resource URI or task id, unencoded.
    pub name: Option<String>,
    /// The JSON-RPC request as sent.
    pub request: Value,
    /// Whether the request declared the tasks extension.
    pub declares_tasks: bool,
    pub detail: SentDetail,
}

/// What a sent request means, by method.
#[derive(Debug, Clone, PartialEq)]
pub enum SentDetail {
    /// `tools/call`, `prompts/get`, `resources/read`: one round of a logical request.
    Round {
        /// The request's data: a tool call's `arguments`, else the params without `_meta`.
        workpiece: Value,
        /// The `requestState` carried back (none on a first round).
        request_state: Option<String>,
        /// The `inputResponses` carried (none on a first round).
        answers: Option<InputResponses>,
        /// Which round of its logical request this is: 1 for a first round; for a retry, the
        /// number the client's [`crate::LogicalRequest`] gave it. `None` for a retry whose
        /// number is not known (a recording made without it): the wire does not carry it.
        round: Option<u32>,
    },
    /// `tasks/get`: a poll.
    TaskGet { task_id: String },
    /// `tasks/update`: answers to these keys.
    TaskUpdate { task_id: String, keys: Vec<String> },
    /// `tasks/cancel`: a polite request.
    TaskCancel { task_id: String },
    /// `subscriptions/listen` with this filter.
    Listen { filter: ListenFilter },
    /// A legacy session's answer to a request of the server's (an `elicitation/create` on a
    /// call's stream): a JSON-RPC response the client sent, to the request with id `asked`.
    ServerAnswer { asked: RequestId },
    /// The GET that opens a legacy session's own stream.
    SessionStream,
    /// The DELETE that ends a legacy session.
    SessionEnd,
    /// Discovery, lists and anything else.
    Other,
}

/// A notification, decoded by its method.
#[derive(Debug, Clone, PartialEq)]
pub struct NotificationEvent {
    /// The notification as received.
    pub json: Value,
    pub kind: NotificationKind,
    /// Whether a log keeps it: `false` past [`crate::Limits::max_notifications_kept`] on
    /// its exchange, when it is only counted (it still says what it says to whoever is
    /// watching as it arrives: the latest progress, a task's new state).
    pub kept: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub enum NotificationKind {
    /// `notifications/progress`.
    Progress(ProgressNotificationParam),
    /// `notifications/message` (deprecated logging).
    #[allow(deprecated)]
    Message(LoggingMessageNotificationParam),
    /// `notifications/tasks`: a task's full state, as `tasks/get` would give it.
    Task(Box<DetailedTask>),
    /// 2025-11-25's `notifications/tasks/status`: a task's state, without its outcome.
    LegacyTaskStatus(Box<Task>),
    /// `notifications/subscriptions/acknowledged`, with the filter granted.
    ListenAcknowledged(ListenFilter),
    ToolsListChanged,
    PromptsListChanged,
    ResourcesListChanged,
    ResourceUpdated {
        uri: String,
    },
    /// A notification this client does not act on (or one that did not decode).
    Other {
        method: String,
    },
}

/// The JSON-RPC response, decoded by the method that was sent.
#[derive(Debug, Clone, PartialEq)]
pub struct AnswerEvent {
    /// The response message as received (`result` or `error` inside).
    pub json: Value,
    pub kind: AnswerKind,
}

#[derive(Debug, Clone, PartialEq)]
pub enum AnswerKind {
    /// A final result. `tool_error`: a `tools/call` result with `isError: true`.
    Complete { tool_error: bool },
    /// MRTR: the server needs input before it can finish (keys in the server's order).
    InputRequired {
        asks: Vec<InputAsk>,
        request_state: Option<String>,
    },
    /// The server made the call a task (tasks extension).
    Task(Box<Task>),
    /// `tasks/get`: the task's current state.
    TaskSnapshot(Box<DetailedTask>),
    /// A 2025-11-25 `tasks/get`: the task's state without its outcome.
    TaskStatus(Box<Task>),
    /// A JSON-RPC error.
    Error { code: i32, message: String },
    /// The answer could not be read as a result of the method (the reason says why).
    Invalid { reason: String },
}

impl AnswerEvent {
    /// The response's `result` or `error` member, as received.
    pub fn outcome_json(&self) -> Option<&Value> {
        self.json.get("result").or_else(|| self.json.get("error"))
    }
}

/// One input request of an `input_required` answer or task snapshot.
#[derive(Debug, Clone, PartialEq)]
pub struct InputAsk {
    /// The `inputRequests` key, exactly as the server sent it.
    pub key: String,
    pub kind: InputRequestKind,
    /// The input request as the server sent it.
    pub json: Value,
}

/// A request the server sent the client (the legacy era's way of asking for input).
#[derive(Debug, Clone, PartialEq)]
pub struct ServerRequestEvent {
    /// The JSON-RPC id the client's answer must carry.
    pub id: RequestId,
    /// The method, as the server spelled it.
    pub method: String,
    /// The request as received. What it asks is read from it on demand
    /// ([`ServerRequestEvent::ask`]): the readers every response goes through stay free of
    /// the input requests' decoders (they would weigh on the first screen's wasm).
    pub json: Value,
}

/// What an input request asks for, by its method (and, for elicitation, its mode).
#[derive(Debug, Clone, PartialEq)]
pub enum InputRequestKind {
    /// `elicitation/create` in form mode (an absent mode is form mode).
    Form {
        message: String,
        /// The `requestedSchema`, as sent.
        schema: JsonObject,
    },
    /// `elicitation/create` in URL mode: consent to open a page outside the client.
    Url { message: String, url: String },
    /// `sampling/createMessage`: deprecated, and not declared by this client.
    Sampling,
    /// `roots/list`: deprecated, and not declared by this client.
    Roots,
    /// A kind this client does not know.
    Unknown { method: String },
}

/// How an exchange ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EndEvent {
    /// The client aborted it (the Stop button, a listen stream closed on purpose).
    pub stopped: bool,
    /// Why it broke off at the HTTP level (unreachable, a broken body), if it did.
    pub error: Option<String>,
}
