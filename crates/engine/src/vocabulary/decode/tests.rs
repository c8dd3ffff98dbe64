//! Each decoder must read exactly what rmcp's own `Deserialize` reads: the same value for
//! valid input, an error for invalid input.

use proptest::prelude::*;
use rmcp::model::{CallToolResult, CreateTaskResult, GetTaskResult, InputRequiredResult};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::*;

fn agree<T: DeserializeOwned + PartialEq + std::fmt::Debug>(
    ours: fn(&Value) -> Result<T, Error>,
    value: &Value,
) -> Result<(), TestCaseError> {
    let theirs = serde_json::from_value::<T>(value.clone());
    let mine = ours(value);
    match (&mine, &theirs) {
        (Ok(mine), Ok(theirs)) => prop_assert_eq!(mine, theirs, "{}", value),
        (Err(_), Err(_)) => {}
        _ => prop_assert!(false, "{value}: ours {mine:?}, rmcp {theirs:?}"),
    }
    Ok(())
}

/// For types without `PartialEq` (rmcp's `InputRequiredResult`): equal JSON.
fn agree_as_json<T: DeserializeOwned + serde::Serialize + std::fmt::Debug>(
    ours: fn(&Value) -> Result<T, Error>,
    value: &Value,
) -> Result<(), TestCaseError> {
    let theirs = serde_json::from_value::<T>(value.clone());
    let mine = ours(value);
    match (&mine, &theirs) {
        (Ok(mine), Ok(theirs)) => prop_assert_eq!(
            serde_json::to_value(mine).ok(),
            serde_json::to_value(theirs).ok(),
            "{}",
            value
        ),
        (Err(_), Err(_)) => {}
        _ => prop_assert!(false, "{value}: ours {mine:?}, rmcp {theirs:?}"),
    }
    Ok(())
}

fn form(message: &str) -> Value {
    json!({"method": "elicitation/create", "params": {"mode": "form", "message": message,
        "requestedSchema": {"type": "object", "title": "Plan", "properties": {
            "approve": {"type": "boolean", "title": "Approve", "default": false},
            "window": {"type": "string", "enum": ["now", "tonight"]},
            "who": {"type": "string", "oneOf": [{"const": "a", "title": "A"}]},
            "tags": {"type": "array", "items": {"type": "string", "enum": ["x", "y"]}},
            "count": {"type": "integer", "minimum": 1},
            "ratio": {"type": "number", "maximum": 1.5},
            "note": {"type": "string", "maxLength": 200, "format": "email"}},
        "required": ["approve"]}, "_meta": {"trace": "t1"}}})
}

/// Input requests of every kind, and near misses of each.
fn requests() -> Vec<Value> {
    vec![
        form("Deploy?"),
        json!({"method": "elicitation/create", "params": {"message": "legacy", "requestedSchema": {"type": "object", "properties": {}}}}),
        json!({"method": "elicitation/create", "params": {"mode": "url", "message": "Open", "url": "https://example.com/x", "elicitationId": "e1"}}),
        json!({"method": "elicitation/create", "params": {"mode": "url", "message": "Open", "url": "https://example.com/x"}}),
        json!({"method": "elicitation/create", "params": {"mode": "other", "message": "m", "requestedSchema": {"type": "object", "properties": {}}}}),
        json!({"method": "elicitation/create", "params": {"mode": 3, "message": "m", "requestedSchema": {"type": "object", "properties": {}}}}),
        json!({"method": "elicitation/create", "params": {"mode": "form", "message": "m", "requestedSchema": {"type": "array", "properties": {}}}}),
        json!({"method": "elicitation/create", "params": {"mode": "form", "message": "m", "requestedSchema": {"type": "object", "properties": {"a": {"type": "boolean", "default": "no"}}}}}),
        json!({"method": "elicitation/create", "params": {"mode": "form", "message": "m", "requestedSchema": {"type": "object", "properties": {"a": {"type": "integer", "minimum": "x"}}}}}),
        json!({"method": "elicitation/create", "params": {"mode": "form", "requestedSchema": {"type": "object", "properties": {}}}}),
        json!({"method": "elicitation/create", "params": {"mode": "url", "message": "m"}}),
        json!({"method": "elicitation/create", "params": {"mode": "form", "message": "m", "requestedSchema": {"type": "object", "properties": {}}, "_meta": 4}}),
        json!({"method": "elicitation/create"}),
        json!({"method": "sampling/createMessage", "params": {"messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}], "maxTokens": 100}}),
        json!({"method": "sampling/createMessage", "params": {"messages": "no"}}),
        json!({"method": "roots/list"}),
        json!({"method": "roots/list", "params": {"_meta": {"k": 1}}}),
        json!({"method": "ping"}),
        json!({"params": {}}),
        json!("elicitation/create"),
    ]
}

fn snapshots() -> Vec<Value> {
    let base = json!({"taskId": "t1", "createdAt": "2026-11-29T10:00:00Z",
        "lastUpdatedAt": "2026-11-29T10:00:04Z", "ttlMs": 60000, "pollIntervalMs": 2000});
    let with = |extra: Value| {
        let mut value = base.clone();
        if let (Some(value), Some(extra)) = (value.as_object_mut(), extra.as_object()) {
            value.extend(extra.clone());
        }
        value
    };
    let mut out = vec![
        with(json!({"resultType": "complete", "status": "working", "statusMessage": "busy"})),
        with(
            json!({"status": "input_required", "inputRequests": {"b": form("B?"), "a": form("A?")}}),
        ),
        with(json!({"status": "input_required"})),
        with(json!({"status": "input_required", "inputRequests": null})),
        with(json!({"status": "input_required", "inputRequests": {"k": {"method": "nope"}}})),
        with(json!({"status": "completed", "result": {"content": []}, "_meta": {"m": 1}})),
        with(json!({"status": "completed"})),
        with(json!({"status": "failed", "error": {"code": -32603, "message": "boom"}})),
        with(json!({"status": "failed", "error": "boom"})),
        with(json!({"status": "cancelled", "resultType": "task"})),
        with(json!({"status": "paused"})),
        with(json!({"status": "working", "_meta": 3})),
        with(json!({"status": "working", "resultType": null})),
        json!({"status": "working"}),
        json!([]),
    ];
    out.push(with(json!({"status": "working", "ttlMs": null})));
    out
}

#[test]
fn input_requests_read_as_rmcp_reads_them() {
    for request in requests() {
        let map = json!({"k": request});
        agree(input_requests, &map).expect("agreement");
    }
}

#[test]
fn task_snapshots_read_as_rmcp_reads_them() {
    for snapshot in snapshots() {
        agree::<GetTaskResult>(get_task_result, &snapshot).expect("agreement");
        agree::<rmcp::model::DetailedTask>(detailed_task, &snapshot).expect("agreement");
        let mut created = snapshot.clone();
        if let Some(object) = created.as_object_mut() {
            object.insert("resultType".into(), json!("task"));
        }
        agree::<CreateTaskResult>(create_task_result, &created).expect("agreement");
        agree::<CreateTaskResult>(create_task_result, &snapshot).expect("agreement");
    }
}

#[test]
fn input_required_results_read_as_rmcp_reads_them() {
    for result in [
        json!({"resultType": "input_required", "inputRequests": {"x": form("X?")}, "requestState": "s"}),
        json!({"resultType": "input_required", "requestState": "s", "_meta": {"a": 1}}),
        json!({"resultType": "input_required", "inputRequests": null, "requestState": null}),
        json!({"resultType": "input_required"}),
        json!({"resultType": "complete", "requestState": "s"}),
        json!({"requestState": "s"}),
        json!({"resultType": "input_required", "inputRequests": {"x": {"method": "x"}}}),
        json!({"resultType": "input_required", "requestState": 5}),
    ] {
        agree_as_json::<InputRequiredResult>(input_required_result, &result).expect("agreement");
    }
}

#[test]
fn tool_results_read_as_rmcp_reads_them() {
    for result in [
        json!({"resultType": "complete", "content": [{"type": "text", "text": "hi"}], "isError": false}),
        json!({"content": [{"type": "text", "text": "hi", "annotations": {"priority": 0.5}}]}),
        json!({"structuredContent": null}),
        json!({"structuredContent": {"a": [1, 2, {"b": null}]}, "_meta": {"x": 1}}),
        json!({"isError": true}),
        json!({"_meta": {}}),
        json!({}),
        json!({"resultType": "task", "content": []}),
        json!({"content": [{"type": "nope"}]}),
        json!({"content": [{"type": "text"}]}),
        json!({"content": [{"type": "text", "text": "a", "_meta": {"k": 1}, "annotations": {"audience": ["user"]}}, {"type": "image", "data": "AA==", "mimeType": "image/png"}]}),
        json!({"content": {"type": "text", "text": "not a list"}}),
        json!({"content": [["text", "a"]]}),
        json!({"content": null, "isError": null}),
        json!({"isError": "yes"}),
        json!(7),
    ] {
        agree::<CallToolResult>(call_tool_result, &result).expect("agreement");
    }
}

/// Any JSON at the places where the decoders dispatch or copy.
fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i32>().prop_map(Value::from),
        prop::sample::select(vec![
            "form",
            "url",
            "object",
            "string",
            "boolean",
            "number",
            "integer",
            "array",
            "elicitation/create",
            "roots/list",
            "working",
            "input_required",
            "completed",
            "failed",
            "cancelled",
            "complete",
            "task",
            "m",
        ])
        .prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(Value::from),
            prop::collection::btree_map(
                prop::sample::select(vec![
                    "method",
                    "params",
                    "mode",
                    "message",
                    "requestedSchema",
                    "url",
                    "type",
                    "properties",
                    "required",
                    "title",
                    "enum",
                    "_meta",
                    "status",
                    "taskId",
                    "createdAt",
                    "lastUpdatedAt",
                    "ttlMs",
                    "inputRequests",
                    "result",
                    "error",
                    "resultType",
                    "requestState",
                    "content",
                    "isError",
                ]),
                inner,
                0..5,
            )
            .prop_map(|map| Value::Object(
                map.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()
            )),
        ]
    })
}

proptest! {
    #[test]
    fn decoders_agree_with_rmcp_on_any_json(value in any_json()) {
        agree::<GetTaskResult>(get_task_result, &value)?;
        agree::<CallToolResult>(call_tool_result, &value)?;
        agree_as_json::<InputRequiredResult>(input_required_result, &value)?;
        agree::<CreateTaskResult>(create_task_result, &value)?;
        agree(input_requests, &json!({"k": value}))?;
    }
}
