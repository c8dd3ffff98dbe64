//! What a client sends back for an input request it will not fulfil.

// Roots is deprecated (SEP-2577), but a server may still ask: its refusal is the empty list.
#[allow(deprecated)]
use rmcp::model::ListRootsResult;
use rmcp::model::{ElicitResult, ElicitationAction, ErrorCode, ErrorData};
use serde_json::Value;

use crate::vocabulary::events::InputRequestKind;

/// The answer that turns down an input request of `kind` without fulfilling it.
///
/// Elicitation, which this client declares, is declined (`{"action": "decline"}`, §7.4).
/// `roots/list` has a result that shares nothing, `{"roots": []}` (wire reference §7.6), so
/// that is a well-formed refusal the server can read. `sampling/createMessage` has no refusal
/// shape (§7.5: a `CreateMessageResult` needs a model and content, and inventing one would be
/// a lie). Before MRTR a client answered a request it does not support with JSON-RPC
/// `-32601`, so the same error object goes in the response slot; the server asked for a kind
/// the client never declared (§7.2), so it must cope with a non-result there anyway.
pub fn refusal_for(kind: &InputRequestKind) -> Value {
    // rmcp's own types of plain fields always serialize.
    let to_value = |value: Result<Value, serde_json::Error>| value.unwrap_or_default();
    match kind {
        InputRequestKind::Form { .. } | InputRequestKind::Url { .. } => to_value(
            serde_json::to_value(ElicitResult::new(ElicitationAction::Decline)),
        ),
        #[allow(deprecated)]
        InputRequestKind::Roots => to_value(serde_json::to_value(ListRootsResult::new(vec![]))),
        InputRequestKind::Sampling | InputRequestKind::Unknown { .. } => {
            let method = match kind.method_name() {
                "" => "this input request",
                method => method,
            };
            to_value(serde_json::to_value(ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                format!("{method} is not supported: this client did not declare it"),
                None,
            )))
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn unknown(method: &str) -> InputRequestKind {
        InputRequestKind::Unknown {
            method: method.into(),
        }
    }

    #[test]
    fn roots_are_refused_with_an_empty_list() {
        assert_eq!(
            refusal_for(&InputRequestKind::Roots),
            json!({ "roots": [] })
        );
    }

    #[test]
    fn sampling_and_unknown_kinds_are_refused_with_method_not_found() {
        let sampling = refusal_for(&InputRequestKind::Sampling);
        assert_eq!(sampling["code"], -32601);
        assert!(
            sampling["message"]
                .as_str()
                .is_some_and(|m| m.starts_with("sampling/createMessage"))
        );
        assert_eq!(refusal_for(&unknown("made/up"))["code"], -32601);
        assert!(sampling.get("data").is_none());
    }

    #[test]
    fn an_unnamed_kind_is_refused_in_words_anyway() {
        let refusal = refusal_for(&unknown(""));
        assert_eq!(
            refusal["message"],
            "this input request is not supported: this client did not declare it"
        );
    }

    #[test]
    fn a_declared_elicitation_is_refused_by_declining() {
        let url = InputRequestKind::Url {
            message: "Sign in".into(),
            url: "https://auth.example.com".into(),
        };
        assert_eq!(refusal_for(&url), json!({ "action": "decline" }));
    }
}
