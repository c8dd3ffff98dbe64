//! Reading how a task ended into wire types: a completed task's `CallToolResult`, a failed
//! task's JSON-RPC `ErrorData`; an outcome that is neither is a finding, never a guess.

use rmcp::model::{CallToolResult, ErrorData, JsonObject};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer};
use serde_json::Value;

use crate::vocabulary::findings::{Finding, Rule};

/// `object` read as `T`, or the finding that says why it is not one.
fn read<T: DeserializeOwned>(
    object: &JsonObject,
    what: &str,
    task_id: &str,
    message: Option<Value>,
) -> Result<T, Finding> {
    serde_json::from_value(Value::Object(object.clone())).map_err(|problem| {
        Finding::new(
            Rule::MalformedResult,
            format!("task {task_id}'s {what} cannot be read: {problem}"),
            message,
        )
    })
}

/// A completed task's result: the tool call's `CallToolResult`.
pub(super) fn read_result(
    result: &JsonObject,
    task_id: &str,
    message: Option<Value>,
) -> Result<CallToolResult, Finding> {
    read(result, "result (a CallToolResult)", task_id, message)
}

/// A failed task's error: a JSON-RPC error object.
pub(super) fn read_error(
    error: &JsonObject,
    task_id: &str,
    message: Option<Value>,
) -> Result<ErrorData, Finding> {
    read(error, "error (a JSON-RPC error)", task_id, message)
}

/// A stored outcome that no longer reads as its type is dropped rather than losing the
/// whole stored board (the task then shows that its outcome cannot be read).
pub(super) fn lenient<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: DeserializeOwned,
{
    let value = Option::<Value>::deserialize(deserializer)?;
    Ok(value.and_then(|value| serde_json::from_value(value).ok()))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn object(value: Value) -> JsonObject {
        value.as_object().cloned().expect("an object")
    }

    #[test]
    fn a_tool_result_and_a_json_rpc_error_are_read_as_wire_types() {
        let result = read_result(
            &object(json!({"content": [{"type": "text", "text": "done"}], "isError": true})),
            "t1",
            None,
        )
        .expect("a CallToolResult");
        assert_eq!(result.is_error, Some(true));
        assert_eq!(result.content.len(), 1);
        let error = read_error(
            &object(json!({"code": -32000, "message": "boom"})),
            "t1",
            None,
        )
        .expect("an ErrorData");
        assert_eq!(error.code.0, -32000);
        assert_eq!(error.message, "boom");
    }

    #[test]
    fn an_unreadable_outcome_is_a_finding() {
        let finding = read_error(&object(json!({"message": 7})), "t1", None)
            .expect_err("no code, a number for a message");
        assert_eq!(finding.rule, Rule::MalformedResult);
        assert!(finding.explanation.contains("t1"), "{finding}");
        let finding = read_result(&object(json!({"content": "text"})), "t1", None)
            .expect_err("content is not a list");
        assert_eq!(finding.rule, Rule::MalformedResult);
    }
}
