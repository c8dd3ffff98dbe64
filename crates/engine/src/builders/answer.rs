//! The user's answer to one input request, typed; the engine turns it into what goes on the
//! wire for the kind of request it answers.

use rmcp::model::{ElicitResult, ElicitationAction, JsonObject};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::builders::refusal::refusal_for;
use crate::vocabulary::events::InputRequestKind;

/// An answer to one input request (an MRTR round's or a task's).
///
/// Serializable so a task's staged answers survive a reload with the tracker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
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
    /// A result the user wrote by hand for a deprecated kind (sampling, roots). Sent as
    /// written: a debugging client may want to see how a server copes with a bad one.
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
    #[error("{method} is not a kind this client knows: it can only be refused")]
    UnknownKind { method: String },
}

impl InputAnswer {
    /// The wire response for a request of `kind`.
    ///
    /// Elicitation gets an `ElicitResult` (§7.4): a form's accept carries its content, a
    /// URL's accept is consent only. Kinds this client did not declare (§7.2: the server
    /// should not have asked) are declined with [`refusal_for`], or answered with a result
    /// the user wrote for sampling and roots.
    pub fn to_response(&self, kind: &InputRequestKind) -> Result<Value, AnswerError> {
        use InputRequestKind as Kind;
        match (self, kind) {
            (Self::Accept(Some(content)), Kind::Form { .. }) => Ok(elicit_result(
                ElicitResult::new(ElicitationAction::Accept)
                    .with_content(Value::Object(content.clone())),
            )),
            (Self::Accept(None), Kind::Form { .. }) => Err(AnswerError::MissingFormContent),
            (Self::Accept(None), Kind::Url { .. }) => {
                Ok(elicit_result(ElicitResult::new(ElicitationAction::Accept)))
            }
            (Self::Accept(Some(_)), Kind::Url { .. }) => Err(AnswerError::ContentOnUrlConsent),
            (Self::Decline, Kind::Form { .. } | Kind::Url { .. }) => {
                Ok(elicit_result(ElicitResult::new(ElicitationAction::Decline)))
            }
            (Self::Cancel, Kind::Form { .. } | Kind::Url { .. }) => {
                Ok(elicit_result(ElicitResult::new(ElicitationAction::Cancel)))
            }
            (Self::Written(_), Kind::Form { .. } | Kind::Url { .. }) => {
                Err(AnswerError::WrittenForElicitation {
                    kind: kind.mode_name().unwrap_or("elicitation/create"),
                })
            }
            (Self::Written(result), Kind::Sampling | Kind::Roots) => {
                Ok(Value::Object(result.clone()))
            }
            // An undeclared kind has no decline or cancel of its own: it is refused.
            (Self::Refuse | Self::Decline | Self::Cancel, _) => Ok(refusal_for(kind)),
            (Self::Accept(_), Kind::Sampling | Kind::Roots) => Err(AnswerError::UndeclaredKind {
                method: kind.method_name().to_owned(),
            }),
            (Self::Accept(_) | Self::Written(_), Kind::Unknown { method }) => {
                Err(AnswerError::UnknownKind {
                    method: method.clone(),
                })
            }
        }
    }
}

fn elicit_result(result: ElicitResult) -> Value {
    // rmcp's own result type of plain fields always serializes.
    serde_json::to_value(result).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use rmcp::model::InputRequest;
    use serde_json::json;

    use super::*;

    /// The kind of an input request as a server sends it.
    fn kind(request: Value) -> InputRequestKind {
        let request: InputRequest = serde_json::from_value(request).expect("an input request");
        InputRequestKind::of(&request)
    }

    fn form() -> InputRequestKind {
        kind(
            json!({"method": "elicitation/create", "params": {"mode": "form",
            "message": "Approve?", "requestedSchema": {"type": "object",
            "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}}}),
        )
    }

    fn url() -> InputRequestKind {
        kind(
            json!({"method": "elicitation/create", "params": {"mode": "url",
            "message": "Sign in", "url": "https://auth.example.com/login?state=abc"}}),
        )
    }

    fn sampling() -> InputRequestKind {
        kind(
            json!({"method": "sampling/createMessage", "params": {"messages": [
            {"role": "user", "content": {"type": "text", "text": "hi"}}], "maxTokens": 10}}),
        )
    }

    fn roots() -> InputRequestKind {
        kind(json!({"method": "roots/list"}))
    }

    fn object(value: Value) -> JsonObject {
        value.as_object().cloned().expect("an object")
    }

    #[test]
    fn form_accept_carries_the_content() {
        let answer = InputAnswer::Accept(Some(object(json!({"ok": true}))));
        assert_eq!(
            answer.to_response(&form()),
            Ok(json!({"action": "accept", "content": {"ok": true}}))
        );
    }

    #[test]
    fn form_accept_without_content_is_refused() {
        assert_eq!(
            InputAnswer::Accept(None).to_response(&form()),
            Err(AnswerError::MissingFormContent)
        );
    }

    #[test]
    fn url_accept_is_consent_only() {
        assert_eq!(
            InputAnswer::Accept(None).to_response(&url()),
            Ok(json!({"action": "accept"}))
        );
        assert_eq!(
            InputAnswer::Accept(Some(JsonObject::new())).to_response(&url()),
            Err(AnswerError::ContentOnUrlConsent)
        );
    }

    #[test]
    fn elicitation_decline_and_cancel_are_their_actions() {
        for kind in [form(), url()] {
            assert_eq!(
                InputAnswer::Decline.to_response(&kind),
                Ok(json!({"action": "decline"}))
            );
            assert_eq!(
                InputAnswer::Cancel.to_response(&kind),
                Ok(json!({"action": "cancel"}))
            );
        }
    }

    #[test]
    fn refusing_a_declared_kind_declines_it() {
        assert_eq!(
            InputAnswer::Refuse.to_response(&url()),
            Ok(json!({"action": "decline"}))
        );
    }

    #[test]
    fn an_undeclared_kind_is_refused_however_it_is_turned_down() {
        for answer in [
            InputAnswer::Refuse,
            InputAnswer::Decline,
            InputAnswer::Cancel,
        ] {
            assert_eq!(answer.to_response(&roots()), Ok(json!({"roots": []})));
            assert_eq!(
                answer.to_response(&sampling()).expect("refused")["code"],
                -32601
            );
        }
    }

    #[test]
    fn a_written_result_goes_out_as_written_for_sampling_and_roots() {
        let written = object(json!({"role": "assistant", "model": "manual",
            "content": {"type": "text", "text": "hello"}}));
        assert_eq!(
            InputAnswer::Written(written.clone()).to_response(&sampling()),
            Ok(Value::Object(written))
        );
        let roots_result = object(json!({"roots": [{"uri": "file:///work"}]}));
        assert_eq!(
            InputAnswer::Written(roots_result.clone()).to_response(&roots()),
            Ok(Value::Object(roots_result))
        );
    }

    #[test]
    fn a_written_result_never_answers_an_elicitation() {
        assert_eq!(
            InputAnswer::Written(JsonObject::new()).to_response(&form()),
            Err(AnswerError::WrittenForElicitation { kind: "form" })
        );
    }

    #[test]
    fn an_undeclared_kind_cannot_be_accepted() {
        assert_eq!(
            InputAnswer::Accept(None).to_response(&sampling()),
            Err(AnswerError::UndeclaredKind {
                method: "sampling/createMessage".into()
            })
        );
    }

    #[test]
    fn an_unknown_kind_can_only_be_refused() {
        let unknown = InputRequestKind::Unknown {
            method: "made/up".into(),
        };
        assert_eq!(
            InputAnswer::Written(JsonObject::new()).to_response(&unknown),
            Err(AnswerError::UnknownKind {
                method: "made/up".into()
            })
        );
        assert_eq!(
            InputAnswer::Refuse.to_response(&unknown).expect("refused")["code"],
            -32601
        );
    }
}
