//! What a client sends back for an input request it will not fulfil.

use serde_json::{Value, json};

/// The answer that declines an input request of `method` this client did not declare.
///
/// `roots/list` has a result that shares nothing, `{"roots": []}` (wire reference §7.6), so
/// that is a well-formed refusal the server can read. `sampling/createMessage` has no refusal
/// shape (§7.5: a `CreateMessageResult` needs a model and content, and inventing one would be
/// a lie). Before MRTR a client answered a request it does not support with JSON-RPC
/// `-32601`, so the same error object goes in the response slot; the server asked for a kind
/// the client never declared (§7.2), so it must cope with a non-result there anyway.
pub fn refusal_for(method: &str) -> Value {
    match method {
        "roots/list" => json!({ "roots": [] }),
        other => json!({
            "code": rmcp::model::ErrorCode::METHOD_NOT_FOUND.0,
            "message": format!("{other} is not supported: this client did not declare it"),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roots_get_an_empty_list_and_everything_else_method_not_found() {
        assert_eq!(refusal_for("roots/list"), json!({ "roots": [] }));
        let sampling = refusal_for("sampling/createMessage");
        assert_eq!(sampling["code"], -32601);
        assert!(
            sampling["message"]
                .as_str()
                .is_some_and(|m| m.starts_with("sampling/createMessage"))
        );
        assert_eq!(refusal_for("made/up")["code"], -32601);
    }
}
