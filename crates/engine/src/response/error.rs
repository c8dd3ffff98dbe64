//! Why a response could not be turned into a result, in words a user can act on.

use rmcp::model::{ErrorData, RequestId};

use crate::findings::{Finding, Rule};
use crate::protocol::reason_phrase;

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
    Unauthorized { status: u16, challenge: String },

    #[error("the response body is larger than the limit of {limit} bytes")]
    BodyTooLarge { limit: usize },

    #[error("the response is not valid JSON: {detail}")]
    MalformedJson { detail: String },

    #[error("the response is not a JSON-RPC response: {detail}")]
    NotJsonRpc { detail: String },

    #[error("{0}")]
    MalformedSse(#[from] crate::sse::SseError),

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

    /// The finding this failure is evidence of, when the server broke a rule.
    pub fn finding(&self) -> Option<Finding> {
        let rule = match self {
            Self::WrongId { .. } => Rule::WrongResponseId,
            Self::UnexpectedResultType { rule, .. } => *rule,
            Self::InvalidResult { .. } => Rule::MalformedResult,
            Self::Rpc { .. } => {
                let rejection = crate::version::VersionRejection::of(self)?;
                return rejection.findings().into_iter().next();
            }
            _ => return None,
        };
        Some(Finding::new(rule, self.to_string(), None))
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
