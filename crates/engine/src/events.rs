//! Typed events of the wire. Each exchange is decoded once, by the reader that serves the
//! request's caller ([`crate::ResponseReader`], [`crate::Subscription`]), into these; the
//! scene's fold ([`crate::Traffic`]), the app's wire log and a replayed import read them,
//! never the bytes again.

// Logging is deprecated (SEP-2577), but servers still send it: it is shown, not acted on.
#[allow(deprecated)]
use rmcp::model::LoggingMessageNotificationParam;
use rmcp::model::{
    DetailedTask, InputRequest, InputResponses, JsonObject, ProgressNotificationParam,
    ProgressToken, RequestId, Task,
};
use serde_json::Value;

use crate::findings::Finding;
use crate::listen::ListenFilter;
use crate::method::MethodId;

/// One thing that happened on one exchange, in order: `Sent`, `Responded`, any
/// `Notification`s, then `Answered` (or none), `Finding`s, and `Ended`.
#[derive(Debug, Clone, PartialEq)]
pub enum ExchangeEvent {
    /// The request went out.
    Sent(Box<SentRequest>),
    /// The status line and media type arrived.
    Responded { status: u16, event_stream: bool },
    /// A notification on the exchange's own event stream (or a listen stream).
    Notification(Box<NotificationEvent>),
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
    },
    /// `tasks/get`: a poll.
    TaskGet { task_id: String },
    /// `tasks/update`: answers to these keys.
    TaskUpdate { task_id: String, keys: Vec<String> },
    /// `tasks/cancel`: a polite request.
    TaskCancel { task_id: String },
    /// `subscriptions/listen` with this filter.
    Listen { filter: ListenFilter },
    /// Discovery, lists and anything else.
    Other,
}

/// A notification, decoded by its method.
#[derive(Debug, Clone, PartialEq)]
pub struct NotificationEvent {
    /// The notification as received.
    pub json: Value,
    pub kind: NotificationKind,
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
    /// A JSON-RPC error.
    Error { code: i32, message: String },
    /// The answer could not be read as a result of the method (the reason says why).
    Invalid { reason: String },
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

impl InputRequestKind {
    /// The kind of a typed input request (rmcp's model).
    pub fn of(request: &InputRequest) -> Self {
        use rmcp::model::ElicitRequestParams;
        match request {
            InputRequest::Elicitation(elicit) => match &elicit.params {
                ElicitRequestParams::FormElicitationParams {
                    message,
                    requested_schema,
                    ..
                } => Self::Form {
                    message: message.clone(),
                    schema: serde_json::to_value(requested_schema)
                        .ok()
                        .and_then(|schema| match schema {
                            Value::Object(object) => Some(object),
                            _ => None,
                        })
                        .unwrap_or_default(),
                },
                ElicitRequestParams::UrlElicitationParams { message, url, .. } => Self::Url {
                    message: message.clone(),
                    url: url.clone(),
                },
                #[allow(unreachable_patterns)] // rmcp's enum is non-exhaustive
                _ => Self::Unknown {
                    method: request_method(request).to_owned(),
                },
            },
            InputRequest::CreateMessage(_) => Self::Sampling,
            InputRequest::ListRoots(_) => Self::Roots,
            #[allow(unreachable_patterns)]
            _ => Self::Unknown {
                method: request_method(request).to_owned(),
            },
        }
    }

    /// The input request's method as the wire spells it.
    pub fn method_name(&self) -> &str {
        match self {
            Self::Form { .. } | Self::Url { .. } => {
                <rmcp::model::ElicitationCreateRequestMethod as rmcp::model::ConstString>::VALUE
            }
            Self::Sampling => {
                <rmcp::model::CreateMessageRequestMethod as rmcp::model::ConstString>::VALUE
            }
            Self::Roots => <rmcp::model::ListRootsRequestMethod as rmcp::model::ConstString>::VALUE,
            Self::Unknown { method } => method,
        }
    }

    /// `form` or `url` for an elicitation.
    pub fn mode_name(&self) -> Option<&'static str> {
        match self {
            Self::Form { .. } => Some("form"),
            Self::Url { .. } => Some("url"),
            _ => None,
        }
    }

    /// The message shown with the request, when it has one.
    pub fn message(&self) -> Option<&str> {
        match self {
            Self::Form { message, .. } | Self::Url { message, .. } => Some(message),
            _ => None,
        }
    }

    /// Whether this client declared the kind (form and URL elicitation): the others are
    /// declined unless the user chooses otherwise.
    pub fn is_declared(&self) -> bool {
        matches!(self, Self::Form { .. } | Self::Url { .. })
    }
}

fn request_method(request: &InputRequest) -> String {
    serde_json::to_value(request)
        .ok()
        .and_then(|value| value.get("method")?.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// How an exchange ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EndEvent {
    /// The client aborted it (the Stop button, a listen stream closed on purpose).
    pub stopped: bool,
    /// Why it broke off at the HTTP level (unreachable, a broken body), if it did.
    pub error: Option<String>,
}
