//! The user's answer to one input request, typed; the engine turns it into what goes on the
//! wire for the kind of request it answers.

use rmcp::model::JsonObject;
use serde_json::Value;

use crate::events::InputRequestKind;

/// An answer to one input request (an MRTR round's or a task's).
#[derive(Debug, Clone, PartialEq)]
pub enum InputAnswer {
    /// Accept: for a form, with the content the user entered; for a URL, consent only (no
    /// content).
    Accept(Option<JsonObject>),
    /// The user explicitly said no.
    Decline,
    /// The user dismissed the request without deciding.
    Cancel,
    /// Decline a kind this client did not declare, the way the engine decides
    /// ([`crate::refusal_for`]).
    Refuse,
    /// A result the user wrote by hand for a deprecated kind (sampling, roots).
    Written(JsonObject),
}

/// Why an answer does not fit the request it answers.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AnswerError {
    #[error("a URL-mode elicitation is accepted without content (consent only)")]
    ContentOnUrlConsent,
    #[error("a form elicitation is accepted with the form's content")]
    MissingFormContent,
    #[error("{kind} is answered with decline, cancel or accept, not a written result")]
    WrittenForElicitation { kind: &'static str },
    #[error("{method} was not declared by this client: refuse it, or write its result")]
    UndeclaredKind { method: String },
}

impl InputAnswer {
    /// The wire response for a request of `kind`.
    pub fn to_response(&self, kind: &InputRequestKind) -> Result<Value, AnswerError> {
        let _ = kind;
        todo!("implemented with the engine rules")
    }
}
