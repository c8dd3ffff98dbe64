//! Why a response could not be turned into a result, in words a user can act on.

use rmcp::model::{ErrorData, RequestId};

pub use crate::auth::SignInNeeded;
use crate::auth::sign_in_needed;
use crate::readers::version_rejection::VersionRejection;
use crate::vocabulary::events::AnswerKind;
use crate::vocabulary::findings::{Finding, Rule};
use crate::vocabulary::limits::{excerpt, grouped};
use crate::vocabulary::protocol::reason_phrase;

/// Every way a response can fail. Each message names what happened and, where it helps,
/// what the server sent.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ResponseError {
    /// A non-2xx status without a JSON-RPC error body.
    #[error("the server answered HTTP {status}{}{}", status_suffix(*status), excerpt_suffix(body_excerpt))]
    HttpStatus { status: u16, body_excerpt: String },

    /// A JSON-RPC error response (any HTTP status).
    #[error("the server returned error {code}: {message}{}", http_suffix(*status))]
    Rpc {
        status: u16,
        code: i32,
        message: String,
        /// Boxed: the error object can be large, and errors travel in every `Result`.
        error: Box<ErrorData>,
    },

    /// 401 or 403 with a `WWW-Authenticate` challenge: the OAuth flow starts from it.
    #[error("the server requires authorization (HTTP {status}{}): WWW-Authenticate: {challenge}", status_suffix(*status))]
    Unauthorized {
        status: u16,
        challenge: String,
        /// `DPoP-Nonce`, when the server sent one.
        dpop_nonce: Option<String>,
    },

    #[error("the response body is larger than the limit of {limit} bytes")]
    BodyTooLarge { limit: usize },

    #[error("the response is not valid JSON: {detail}")]
    MalformedJson { detail: String },

    #[error("the response is not a JSON-RPC response: {detail}")]
    NotJsonRpc { detail: String },

    #[error("{0}")]
    MalformedSse(#[from] crate::readers::sse::SseError),

    #[error("the response answers request {got}, but request {expected} was sent")]
    WrongId { expected: String, got: String },

    #[error("the event stream ended without a response to request {expected}")]
    NoResponse { expected: String },

    #[error(
        "the server answered with Content-Type {content_type:?}; expected application/json or text/event-stream"
    )]
    UnexpectedContentType { content_type: String },

    #[error("the server sent resultType {result_type:?}, which is not valid for {method}{}", rule_suffix(*rule))]
    UnexpectedResultType {
        method: &'static str,
        result_type: String,
        rule: Rule,
    },

    #[error("the {method} result does not match the schema: {detail}")]
    InvalidResult {
        method: &'static str,
        detail: String,
    },

    /// An answer asking for more inputs at once than the client shows.
    #[error(
        "the server asked for {} inputs at once: over the bound of {limit} \
         (Limits::max_input_requests), so the answer was refused and no input was shown",
        grouped(*count)
    )]
    TooManyInputRequests { count: usize, limit: usize },

    /// An id the server chose, too long to keep, show or send back.
    #[error(
        "the server sent {what} of {} bytes ({excerpt:?}): over the bound of {} bytes on \
         ids (Limits::max_id_bytes), so the answer was refused",
        grouped(*bytes),
        grouped(*limit)
    )]
    IdTooLong {
        what: &'static str,
        bytes: usize,
        limit: usize,
        /// The id's first characters.
        excerpt: String,
    },

    /// The server made the call a task the client cannot follow. The task exists on the
    /// server: the caller asks for `tasks/cancel` where it can ([`Self::refused_task_id`]).
    #[error("{}", refused_task_text(task_id.as_deref(), problem))]
    TaskRefused {
        /// The `taskId` as sent, when it is a string.
        task_id: Option<String>,
        problem: TaskProblem,
    },

    /// The body is not what its `Content-Type` says.
    #[error(
        "the server labelled its answer Content-Type {declared:?}, but the body is {actual} \
         (it starts with {start:?}): the Content-Type contradicts the body"
    )]
    ContentTypeMismatch {
        declared: String,
        actual: &'static str,
        start: String,
    },
}

/// Why a task the server created was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TaskProblem {
    /// Its fields break the tasks extension's schema (a negative `pollIntervalMs`, …).
    Malformed { detail: String },
    /// Its `taskId` is over [`crate::Limits::max_id_bytes`].
    IdTooLong { bytes: usize, limit: usize },
}

fn refused_task_text(task_id: Option<&str>, problem: &TaskProblem) -> String {
    let named = |id: Option<&str>| match id {
        Some(id) => format!("task {:?}", excerpt(id, 40)),
        None => "a task without a string taskId".to_owned(),
    };
    match problem {
        TaskProblem::Malformed { detail } => format!(
            "the server made the call {}, but the task does not match the tasks extension's \
             schema ({detail}), so it was refused",
            named(task_id)
        ),
        TaskProblem::IdTooLong { bytes, limit } => format!(
            "the server made the call {} whose taskId is {} bytes: over the bound of {} bytes \
             on ids (Limits::max_id_bytes), so it was refused",
            named(task_id),
            grouped(*bytes),
            grouped(*limit)
        ),
    }
}

impl ResponseError {
    /// The JSON-RPC error `error`, received with HTTP `status`.
    pub fn rpc(status: u16, error: ErrorData) -> Self {
        Self::Rpc {
            status,
            code: error.code.0,
            // A server's message can be megabytes; the whole error stays in `error`.
            message: message_excerpt(&error.message),
            error: Box::new(error),
        }
    }

    /// What a `-32022` (`UnsupportedProtocolVersion`) said, when this is one.
    pub fn version_rejection(&self) -> Option<VersionRejection> {
        match self {
            Self::Rpc { status, error, .. } => VersionRejection::of(*status, error),
            _ => None,
        }
    }

    /// The finding this failure is evidence of, when the server broke a rule.
    pub fn finding(&self) -> Option<Finding> {
        let rule = match self {
            Self::WrongId { .. } => Rule::WrongResponseId,
            Self::UnexpectedResultType { rule, .. } => *rule,
            Self::InvalidResult { .. } => Rule::MalformedResult,
            Self::TooManyInputRequests { .. } => Rule::TooManyInputRequests,
            Self::IdTooLong { .. } => Rule::IdTooLong,
            Self::TaskRefused { problem, .. } => match problem {
                TaskProblem::Malformed { .. } => Rule::MalformedResult,
                TaskProblem::IdTooLong { .. } => Rule::IdTooLong,
            },
            Self::ContentTypeMismatch { .. } => Rule::ContentTypeMismatch,
            Self::Rpc { .. } => {
                let rejection = self.version_rejection()?;
                return rejection.findings().into_iter().next();
            }
            _ => return None,
        };
        Some(Finding::new(rule, self.to_string(), None))
    }

    /// The task a refused task answer created on the server ([`Self::TaskRefused`]): the
    /// caller asks for its `tasks/cancel`, so it does not run on unseen.
    pub fn refused_task_id(&self) -> Option<&str> {
        match self {
            Self::TaskRefused { task_id, .. } => task_id.as_deref(),
            _ => None,
        }
    }

    /// A bound of the client's acted (too many input requests, an id too long): the answer
    /// was well-formed, but the client will not take it in.
    pub fn is_over_bound(&self) -> bool {
        matches!(
            self,
            Self::TooManyInputRequests { .. } | Self::IdTooLong { .. } | Self::BodyTooLarge { .. }
        )
    }

    /// Whose refusal ended the request, as a heading for its message: the server's (an
    /// error answer or status), the client's bounds, or an answer that breaks the protocol.
    pub fn headline(&self) -> &'static str {
        match self {
            Self::HttpStatus { .. } | Self::Rpc { .. } | Self::Unauthorized { .. } => {
                "The server refused the request"
            }
            _ if self.is_over_bound() => "Refused: the answer is over one of the client's bounds",
            Self::TaskRefused { .. } => "Refused: the server's task cannot be followed",
            _ => "Protocol error: the server's answer breaks the protocol",
        }
    }

    /// JSON-RPC error code, for error responses.
    pub fn rpc_code(&self) -> Option<i32> {
        match self {
            Self::Rpc { code, .. } => Some(*code),
            _ => None,
        }
    }

    /// The HTTP status the failure came with, when there was one to blame.
    pub fn http_status(&self) -> Option<u16> {
        match self {
            Self::HttpStatus { status, .. }
            | Self::Rpc { status, .. }
            | Self::Unauthorized { status, .. } => Some(*status),
            _ => None,
        }
    }
}

impl ResponseError {
    /// Whether this failure asks for an authorization the client can obtain (the rule is
    /// [`sign_in_needed`]'s: a 401 with a `Bearer` challenge, or a 403 whose challenge says
    /// `insufficient_scope`).
    pub fn sign_in_needed(&self) -> Option<SignInNeeded> {
        let Self::Unauthorized {
            status, challenge, ..
        } = self
        else {
            return None;
        };
        sign_in_needed(
            *status,
            &[("www-authenticate".to_owned(), challenge.clone())],
        )
    }

    /// The nonce the server demands for DPoP proofs, when this refusal is only that (RFC
    /// 9449 §9): the request goes again with the nonce, no sign-in needed.
    pub fn dpop_nonce_demand(&self) -> Option<String> {
        let Self::Unauthorized {
            status,
            challenge,
            dpop_nonce,
        } = self
        else {
            return None;
        };
        let mut headers = vec![("www-authenticate".to_owned(), challenge.clone())];
        if let Some(nonce) = dpop_nonce {
            headers.push((crate::auth::DPOP_NONCE_HEADER.to_owned(), nonce.clone()));
        }
        crate::auth::resource_nonce_demand(*status, &headers)
    }
}

pub(crate) fn id_text(id: &RequestId) -> String {
    match id {
        RequestId::Number(n) => n.to_string(),
        RequestId::String(s) => format!("{s:?}"),
    }
}

fn status_suffix(status: u16) -> String {
    match reason_phrase(status) {
        "" => String::new(),
        phrase => format!(" {phrase}"),
    }
}

fn http_suffix(status: u16) -> String {
    if (200..300).contains(&status) {
        String::new()
    } else {
        format!(" (HTTP {status}{})", status_suffix(status))
    }
}

fn excerpt_suffix(excerpt: &str) -> String {
    if excerpt.is_empty() {
        String::new()
    } else {
        format!(": {excerpt}")
    }
}

fn rule_suffix(rule: Rule) -> &'static str {
    match rule {
        Rule::InputRequiredNotAllowed => {
            " (input_required is only valid for tools/call, prompts/get and resources/read)"
        }
        Rule::InputRequiredEmpty => " (it has neither inputRequests nor requestState)",
        Rule::TaskWithoutExtension => {
            " (the request did not declare the io.modelcontextprotocol/tasks extension)"
        }
        Rule::TaskOnWrongMethod => " (only tools/call may create a task)",
        _ => "",
    }
}

/// Characters of a server's error message shown in the error's text.
pub const MESSAGE_CHARS: usize = 2_000;

/// `message`, cut after [`MESSAGE_CHARS`] characters with how many more there were.
fn message_excerpt(message: &str) -> String {
    let mut chars = message.char_indices();
    match chars.nth(MESSAGE_CHARS) {
        None => message.to_owned(),
        Some((cut, _)) => format!(
            "{}… ({} more characters; the whole message is in the wire log)",
            &message[..cut],
            message[cut..].chars().count()
        ),
    }
}

impl AnswerKind {
    /// What a response that could not be decoded amounts to: its JSON-RPC error, or why it
    /// is not a result of the method (an HTTP failure included).
    pub fn of_failure(error: &ResponseError) -> Self {
        match error {
            ResponseError::Rpc { code, message, .. } => Self::Error {
                code: *code,
                message: message.clone(),
            },
            other => Self::Invalid {
                reason: other.to_string(),
            },
        }
    }
}
